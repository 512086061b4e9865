"""Generated from schemas/recorder-results.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('recorder-results', 'stamp', 'recorder-record')
SCHEMA_SHA256 = "774be2816bb527c9475c9eaec736dd613becd9eb28f76e508208c8ca71d231e3"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'gate_version', 'pytest_version', 'hypothesis_version', 'exit_status', 'refused', 'refused_tests', 'cases', 'tampered', 'collected']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'gate-recorder-results/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: gate-recorder-results/v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", rule='const')
        if "gate_version" in data_keys:
            data_keys.remove("gate_version")
            data__gateversion = data["gate_version"]
            if not (isinstance(data__gateversion, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be string", value=data__gateversion, name="" + (name_prefix or "data") + ".gate_version", rule='type')
            if isinstance(data__gateversion, str):
                data__gateversion_len = len(data__gateversion)
                if data__gateversion_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be shorter than or equal to 64 characters", value=data__gateversion, name="" + (name_prefix or "data") + ".gate_version", rule='maxLength')
        if "pytest_version" in data_keys:
            data_keys.remove("pytest_version")
            data__pytestversion = data["pytest_version"]
            if not (isinstance(data__pytestversion, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".pytest_version must be string", value=data__pytestversion, name="" + (name_prefix or "data") + ".pytest_version", rule='type')
            if isinstance(data__pytestversion, str):
                data__pytestversion_len = len(data__pytestversion)
                if data__pytestversion_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".pytest_version must be shorter than or equal to 64 characters", value=data__pytestversion, name="" + (name_prefix or "data") + ".pytest_version", rule='maxLength')
        if "hypothesis_version" in data_keys:
            data_keys.remove("hypothesis_version")
            data__hypothesisversion = data["hypothesis_version"]
            if not (isinstance(data__hypothesisversion, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis_version must be string", value=data__hypothesisversion, name="" + (name_prefix or "data") + ".hypothesis_version", rule='type')
            if isinstance(data__hypothesisversion, str):
                data__hypothesisversion_len = len(data__hypothesisversion)
                if data__hypothesisversion_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis_version must be shorter than or equal to 64 characters", value=data__hypothesisversion, name="" + (name_prefix or "data") + ".hypothesis_version", rule='maxLength')
        if "exit_status" in data_keys:
            data_keys.remove("exit_status")
            data__exitstatus = data["exit_status"]
            if not ((isinstance(data__exitstatus, int) and not isinstance(data__exitstatus, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".exit_status must be integer", value=data__exitstatus, name="" + (name_prefix or "data") + ".exit_status", rule='type')
        if "refused" in data_keys:
            data_keys.remove("refused")
            data__refused = data["refused"]
            if not (isinstance(data__refused, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".refused must be array", value=data__refused, name="" + (name_prefix or "data") + ".refused", rule='type')
            data__refused_is_list = isinstance(data__refused, (list, tuple))
            if data__refused_is_list:
                data__refused_len = len(data__refused)
                if data__refused_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".refused must contain less than or equal to 100000 items", value=data__refused, name="" + (name_prefix or "data") + ".refused", rule='maxItems')
                for data__refused_x, data__refused_item in enumerate(data__refused):
                    if not (isinstance(data__refused_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".refused[{data__refused_x}]".format(**locals()) + " must be string", value=data__refused_item, name="" + (name_prefix or "data") + ".refused[{data__refused_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__refused_item, str):
                        data__refused_item_len = len(data__refused_item)
                        if data__refused_item_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".refused[{data__refused_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__refused_item, name="" + (name_prefix or "data") + ".refused[{data__refused_x}]".format(**locals()) + "", rule='maxLength')
        if "refused_tests" in data_keys:
            data_keys.remove("refused_tests")
            data__refusedtests = data["refused_tests"]
            if not ((isinstance(data__refusedtests, int) and not isinstance(data__refusedtests, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".refused_tests must be integer", value=data__refusedtests, name="" + (name_prefix or "data") + ".refused_tests", rule='type')
            if isinstance(data__refusedtests, (int, float, Decimal)) and not isinstance(data__refusedtests, bool):
                if data__refusedtests < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".refused_tests must be bigger than or equal to 0", value=data__refusedtests, name="" + (name_prefix or "data") + ".refused_tests", rule='minimum')
        if "cases" in data_keys:
            data_keys.remove("cases")
            data__cases = data["cases"]
            if not (isinstance(data__cases, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must be array", value=data__cases, name="" + (name_prefix or "data") + ".cases", rule='type')
            data__cases_is_list = isinstance(data__cases, (list, tuple))
            if data__cases_is_list:
                data__cases_len = len(data__cases)
                if data__cases_len > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must contain less than or equal to 1000000 items", value=data__cases, name="" + (name_prefix or "data") + ".cases", rule='maxItems')
                for data__cases_x, data__cases_item in enumerate(data__cases):
                    if not (isinstance(data__cases_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()) + " must be object", value=data__cases_item, name="" + (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()) + "", rule='type')
                    data__cases_item_is_dict = isinstance(data__cases_item, dict)
                    if data__cases_item_is_dict:
                        data__cases_item__missing_keys = set(['classname', 'name', 'kinds', 'crash', 'hypothesis', 'failure', 'raised', 'tampered']) - data__cases_item.keys()
                        if data__cases_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()) + " must contain " + (str(sorted(data__cases_item__missing_keys)) + " properties"), value=data__cases_item, name="" + (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()) + "", rule='required')
                        data__cases_item_keys = set(data__cases_item.keys())
                        if "classname" in data__cases_item_keys:
                            data__cases_item_keys.remove("classname")
                            data__cases_item__classname = data__cases_item["classname"]
                            if not (isinstance(data__cases_item__classname, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].classname".format(**locals()) + " must be string", value=data__cases_item__classname, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].classname".format(**locals()) + "", rule='type')
                            if isinstance(data__cases_item__classname, str):
                                data__cases_item__classname_len = len(data__cases_item__classname)
                                if data__cases_item__classname_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].classname".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__cases_item__classname, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].classname".format(**locals()) + "", rule='maxLength')
                        if "name" in data__cases_item_keys:
                            data__cases_item_keys.remove("name")
                            data__cases_item__name = data__cases_item["name"]
                            if not (isinstance(data__cases_item__name, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].name".format(**locals()) + " must be string", value=data__cases_item__name, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].name".format(**locals()) + "", rule='type')
                            if isinstance(data__cases_item__name, str):
                                data__cases_item__name_len = len(data__cases_item__name)
                                if data__cases_item__name_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].name".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__cases_item__name, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].name".format(**locals()) + "", rule='maxLength')
                        if "kinds" in data__cases_item_keys:
                            data__cases_item_keys.remove("kinds")
                            data__cases_item__kinds = data__cases_item["kinds"]
                            if not (isinstance(data__cases_item__kinds, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].kinds".format(**locals()) + " must be array", value=data__cases_item__kinds, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].kinds".format(**locals()) + "", rule='type')
                            data__cases_item__kinds_is_list = isinstance(data__cases_item__kinds, (list, tuple))
                            if data__cases_item__kinds_is_list:
                                data__cases_item__kinds_len = len(data__cases_item__kinds)
                                if data__cases_item__kinds_len > 3:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].kinds".format(**locals()) + " must contain less than or equal to 3 items", value=data__cases_item__kinds, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].kinds".format(**locals()) + "", rule='maxItems')
                                for data__cases_item__kinds_x, data__cases_item__kinds_item in enumerate(data__cases_item__kinds):
                                    if not (isinstance(data__cases_item__kinds_item, str) and data__cases_item__kinds_item == 'failure' or isinstance(data__cases_item__kinds_item, str) and data__cases_item__kinds_item == 'error' or isinstance(data__cases_item__kinds_item, str) and data__cases_item__kinds_item == 'skipped'):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].kinds[{data__cases_item__kinds_x}]".format(**locals()) + " must be one of ['failure', 'error', 'skipped']", value=data__cases_item__kinds_item, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].kinds[{data__cases_item__kinds_x}]".format(**locals()) + "", rule='enum')
                        if "crash" in data__cases_item_keys:
                            data__cases_item_keys.remove("crash")
                            data__cases_item__crash = data__cases_item["crash"]
                            if not (isinstance(data__cases_item__crash, str) or data__cases_item__crash is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].crash".format(**locals()) + " must be string or null", value=data__cases_item__crash, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].crash".format(**locals()) + "", rule='type')
                            if isinstance(data__cases_item__crash, str):
                                data__cases_item__crash_len = len(data__cases_item__crash)
                                if data__cases_item__crash_len > 1000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].crash".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__cases_item__crash, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].crash".format(**locals()) + "", rule='maxLength')
                        if "hypothesis" in data__cases_item_keys:
                            data__cases_item_keys.remove("hypothesis")
                            data__cases_item__hypothesis = data__cases_item["hypothesis"]
                            data__cases_item__hypothesis_any_of_count1 = 0
                            if not data__cases_item__hypothesis_any_of_count1:
                                try:
                                    if not (data__cases_item__hypothesis is None):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].hypothesis".format(**locals()) + " must be null", value=data__cases_item__hypothesis, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].hypothesis".format(**locals()) + "", rule='type')
                                    data__cases_item__hypothesis_any_of_count1 += 1
                                except (JsonSchemaValueException, JsonSchemaValuesException): pass
                            if not data__cases_item__hypothesis_any_of_count1:
                                try:
                                    validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data__cases_item__hypothesis, custom_formats, (name_prefix or "data") + ".cases[{data__cases_x}].hypothesis".format(**locals()))
                                    data__cases_item__hypothesis_any_of_count1 += 1
                                except (JsonSchemaValueException, JsonSchemaValuesException): pass
                            if not data__cases_item__hypothesis_any_of_count1:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].hypothesis".format(**locals()) + " cannot be validated by any definition", value=data__cases_item__hypothesis, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].hypothesis".format(**locals()) + "", rule='anyOf')
                        if "failure" in data__cases_item_keys:
                            data__cases_item_keys.remove("failure")
                            data__cases_item__failure = data__cases_item["failure"]
                            data__cases_item__failure_any_of_count2 = 0
                            if not data__cases_item__failure_any_of_count2:
                                try:
                                    if not (data__cases_item__failure is None):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + " must be null", value=data__cases_item__failure, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + "", rule='type')
                                    data__cases_item__failure_any_of_count2 += 1
                                except (JsonSchemaValueException, JsonSchemaValuesException): pass
                            if not data__cases_item__failure_any_of_count2:
                                try:
                                    if not (isinstance(data__cases_item__failure, dict)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + " must be object", value=data__cases_item__failure, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + "", rule='type')
                                    data__cases_item__failure_is_dict = isinstance(data__cases_item__failure, dict)
                                    if data__cases_item__failure_is_dict:
                                        data__cases_item__failure__missing_keys = set(['type', 'message', 'example', 'reproduce']) - data__cases_item__failure.keys()
                                        if data__cases_item__failure__missing_keys:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + " must contain " + (str(sorted(data__cases_item__failure__missing_keys)) + " properties"), value=data__cases_item__failure, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + "", rule='required')
                                        data__cases_item__failure_keys = set(data__cases_item__failure.keys())
                                        if "type" in data__cases_item__failure_keys:
                                            data__cases_item__failure_keys.remove("type")
                                            data__cases_item__failure__type = data__cases_item__failure["type"]
                                            if not (isinstance(data__cases_item__failure__type, str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.type".format(**locals()) + " must be string", value=data__cases_item__failure__type, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.type".format(**locals()) + "", rule='type')
                                            if isinstance(data__cases_item__failure__type, str):
                                                data__cases_item__failure__type_len = len(data__cases_item__failure__type)
                                                if data__cases_item__failure__type_len > 100000:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.type".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__cases_item__failure__type, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.type".format(**locals()) + "", rule='maxLength')
                                        if "message" in data__cases_item__failure_keys:
                                            data__cases_item__failure_keys.remove("message")
                                            data__cases_item__failure__message = data__cases_item__failure["message"]
                                            if not (isinstance(data__cases_item__failure__message, str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.message".format(**locals()) + " must be string", value=data__cases_item__failure__message, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.message".format(**locals()) + "", rule='type')
                                            if isinstance(data__cases_item__failure__message, str):
                                                data__cases_item__failure__message_len = len(data__cases_item__failure__message)
                                                if data__cases_item__failure__message_len > 100000:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.message".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__cases_item__failure__message, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.message".format(**locals()) + "", rule='maxLength')
                                        if "example" in data__cases_item__failure_keys:
                                            data__cases_item__failure_keys.remove("example")
                                            data__cases_item__failure__example = data__cases_item__failure["example"]
                                            if not (isinstance(data__cases_item__failure__example, str) or data__cases_item__failure__example is None):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.example".format(**locals()) + " must be string or null", value=data__cases_item__failure__example, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.example".format(**locals()) + "", rule='type')
                                            if isinstance(data__cases_item__failure__example, str):
                                                data__cases_item__failure__example_len = len(data__cases_item__failure__example)
                                                if data__cases_item__failure__example_len > 100000:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.example".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__cases_item__failure__example, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.example".format(**locals()) + "", rule='maxLength')
                                        if "reproduce" in data__cases_item__failure_keys:
                                            data__cases_item__failure_keys.remove("reproduce")
                                            data__cases_item__failure__reproduce = data__cases_item__failure["reproduce"]
                                            if not (isinstance(data__cases_item__failure__reproduce, str) or data__cases_item__failure__reproduce is None):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.reproduce".format(**locals()) + " must be string or null", value=data__cases_item__failure__reproduce, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.reproduce".format(**locals()) + "", rule='type')
                                            if isinstance(data__cases_item__failure__reproduce, str):
                                                data__cases_item__failure__reproduce_len = len(data__cases_item__failure__reproduce)
                                                if data__cases_item__failure__reproduce_len > 100000:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.reproduce".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__cases_item__failure__reproduce, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure.reproduce".format(**locals()) + "", rule='maxLength')
                                        if data__cases_item__failure_keys:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + " must not contain "+str(data__cases_item__failure_keys)+" properties", value=data__cases_item__failure, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + "", rule='additionalProperties')
                                    data__cases_item__failure_any_of_count2 += 1
                                except (JsonSchemaValueException, JsonSchemaValuesException): pass
                            if not data__cases_item__failure_any_of_count2:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + " cannot be validated by any definition", value=data__cases_item__failure, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].failure".format(**locals()) + "", rule='anyOf')
                        if "raised" in data__cases_item_keys:
                            data__cases_item_keys.remove("raised")
                            data__cases_item__raised = data__cases_item["raised"]
                            if not (isinstance(data__cases_item__raised, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].raised".format(**locals()) + " must be array", value=data__cases_item__raised, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].raised".format(**locals()) + "", rule='type')
                            data__cases_item__raised_is_list = isinstance(data__cases_item__raised, (list, tuple))
                            if data__cases_item__raised_is_list:
                                data__cases_item__raised_len = len(data__cases_item__raised)
                                if data__cases_item__raised_len > 1000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].raised".format(**locals()) + " must contain less than or equal to 1000 items", value=data__cases_item__raised, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].raised".format(**locals()) + "", rule='maxItems')
                                for data__cases_item__raised_x, data__cases_item__raised_item in enumerate(data__cases_item__raised):
                                    if not (isinstance(data__cases_item__raised_item, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].raised[{data__cases_item__raised_x}]".format(**locals()) + " must be string", value=data__cases_item__raised_item, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].raised[{data__cases_item__raised_x}]".format(**locals()) + "", rule='type')
                                    if isinstance(data__cases_item__raised_item, str):
                                        data__cases_item__raised_item_len = len(data__cases_item__raised_item)
                                        if data__cases_item__raised_item_len > 1000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].raised[{data__cases_item__raised_x}]".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__cases_item__raised_item, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].raised[{data__cases_item__raised_x}]".format(**locals()) + "", rule='maxLength')
                        if "tampered" in data__cases_item_keys:
                            data__cases_item_keys.remove("tampered")
                            data__cases_item__tampered = data__cases_item["tampered"]
                            if not (isinstance(data__cases_item__tampered, str) or data__cases_item__tampered is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].tampered".format(**locals()) + " must be string or null", value=data__cases_item__tampered, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].tampered".format(**locals()) + "", rule='type')
                            if isinstance(data__cases_item__tampered, str):
                                data__cases_item__tampered_len = len(data__cases_item__tampered)
                                if data__cases_item__tampered_len > 1000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}].tampered".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__cases_item__tampered, name="" + (name_prefix or "data") + ".cases[{data__cases_x}].tampered".format(**locals()) + "", rule='maxLength')
                        if data__cases_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()) + " must not contain "+str(data__cases_item_keys)+" properties", value=data__cases_item, name="" + (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()) + "", rule='additionalProperties')
        if "tampered" in data_keys:
            data_keys.remove("tampered")
            data__tampered = data["tampered"]
            if not (isinstance(data__tampered, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".tampered must be array", value=data__tampered, name="" + (name_prefix or "data") + ".tampered", rule='type')
            data__tampered_is_list = isinstance(data__tampered, (list, tuple))
            if data__tampered_is_list:
                data__tampered_len = len(data__tampered)
                if data__tampered_len > 20:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".tampered must contain less than or equal to 20 items", value=data__tampered, name="" + (name_prefix or "data") + ".tampered", rule='maxItems')
                for data__tampered_x, data__tampered_item in enumerate(data__tampered):
                    if not (isinstance(data__tampered_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".tampered[{data__tampered_x}]".format(**locals()) + " must be string", value=data__tampered_item, name="" + (name_prefix or "data") + ".tampered[{data__tampered_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__tampered_item, str):
                        data__tampered_item_len = len(data__tampered_item)
                        if data__tampered_item_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".tampered[{data__tampered_x}]".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__tampered_item, name="" + (name_prefix or "data") + ".tampered[{data__tampered_x}]".format(**locals()) + "", rule='maxLength')
        if "collected" in data_keys:
            data_keys.remove("collected")
            data__collected = data["collected"]
            if not (isinstance(data__collected, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected must be object", value=data__collected, name="" + (name_prefix or "data") + ".collected", rule='type')
            data__collected_is_dict = isinstance(data__collected, dict)
            if data__collected_is_dict:
                data__collected__missing_keys = set(['selected', 'deselected', 'ungated', 'failed']) - data__collected.keys()
                if data__collected__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected must contain " + (str(sorted(data__collected__missing_keys)) + " properties"), value=data__collected, name="" + (name_prefix or "data") + ".collected", rule='required')
                data__collected_keys = set(data__collected.keys())
                if "selected" in data__collected_keys:
                    data__collected_keys.remove("selected")
                    data__collected__selected = data__collected["selected"]
                    data__collected__selected_any_of_count3 = 0
                    if not data__collected__selected_any_of_count3:
                        try:
                            if not (data__collected__selected is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected must be null", value=data__collected__selected, name="" + (name_prefix or "data") + ".collected.selected", rule='type')
                            data__collected__selected_any_of_count3 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data__collected__selected_any_of_count3:
                        try:
                            if not (isinstance(data__collected__selected, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected must be array", value=data__collected__selected, name="" + (name_prefix or "data") + ".collected.selected", rule='type')
                            data__collected__selected_is_list = isinstance(data__collected__selected, (list, tuple))
                            if data__collected__selected_is_list:
                                data__collected__selected_len = len(data__collected__selected)
                                if data__collected__selected_len > 1000000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected must contain less than or equal to 1000000 items", value=data__collected__selected, name="" + (name_prefix or "data") + ".collected.selected", rule='maxItems')
                                for data__collected__selected_x, data__collected__selected_item in enumerate(data__collected__selected):
                                    if not (isinstance(data__collected__selected_item, list)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}]".format(**locals()) + " must be array", value=data__collected__selected_item, name="" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}]".format(**locals()) + "", rule='type')
                                    data__collected__selected_item_is_list = isinstance(data__collected__selected_item, (list, tuple))
                                    if data__collected__selected_item_is_list:
                                        data__collected__selected_item_len = len(data__collected__selected_item)
                                        if data__collected__selected_item_len < 2:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}]".format(**locals()) + " must contain at least 2 items", value=data__collected__selected_item, name="" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}]".format(**locals()) + "", rule='minItems')
                                        if data__collected__selected_item_len > 2:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}]".format(**locals()) + " must contain less than or equal to 2 items", value=data__collected__selected_item, name="" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}]".format(**locals()) + "", rule='maxItems')
                                        for data__collected__selected_item_x, data__collected__selected_item_item in enumerate(data__collected__selected_item):
                                            if not (isinstance(data__collected__selected_item_item, str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}][{data__collected__selected_item_x}]".format(**locals()) + " must be string", value=data__collected__selected_item_item, name="" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}][{data__collected__selected_item_x}]".format(**locals()) + "", rule='type')
                                            if isinstance(data__collected__selected_item_item, str):
                                                data__collected__selected_item_item_len = len(data__collected__selected_item_item)
                                                if data__collected__selected_item_item_len > 100000:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}][{data__collected__selected_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__collected__selected_item_item, name="" + (name_prefix or "data") + ".collected.selected[{data__collected__selected_x}][{data__collected__selected_item_x}]".format(**locals()) + "", rule='maxLength')
                            data__collected__selected_any_of_count3 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data__collected__selected_any_of_count3:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.selected cannot be validated by any definition", value=data__collected__selected, name="" + (name_prefix or "data") + ".collected.selected", rule='anyOf')
                if "deselected" in data__collected_keys:
                    data__collected_keys.remove("deselected")
                    data__collected__deselected = data__collected["deselected"]
                    if not (isinstance(data__collected__deselected, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected must be array", value=data__collected__deselected, name="" + (name_prefix or "data") + ".collected.deselected", rule='type')
                    data__collected__deselected_is_list = isinstance(data__collected__deselected, (list, tuple))
                    if data__collected__deselected_is_list:
                        data__collected__deselected_len = len(data__collected__deselected)
                        if data__collected__deselected_len > 1000000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected must contain less than or equal to 1000000 items", value=data__collected__deselected, name="" + (name_prefix or "data") + ".collected.deselected", rule='maxItems')
                        for data__collected__deselected_x, data__collected__deselected_item in enumerate(data__collected__deselected):
                            if not (isinstance(data__collected__deselected_item, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}]".format(**locals()) + " must be array", value=data__collected__deselected_item, name="" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}]".format(**locals()) + "", rule='type')
                            data__collected__deselected_item_is_list = isinstance(data__collected__deselected_item, (list, tuple))
                            if data__collected__deselected_item_is_list:
                                data__collected__deselected_item_len = len(data__collected__deselected_item)
                                if data__collected__deselected_item_len < 2:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}]".format(**locals()) + " must contain at least 2 items", value=data__collected__deselected_item, name="" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}]".format(**locals()) + "", rule='minItems')
                                if data__collected__deselected_item_len > 2:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}]".format(**locals()) + " must contain less than or equal to 2 items", value=data__collected__deselected_item, name="" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}]".format(**locals()) + "", rule='maxItems')
                                for data__collected__deselected_item_x, data__collected__deselected_item_item in enumerate(data__collected__deselected_item):
                                    if not (isinstance(data__collected__deselected_item_item, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}][{data__collected__deselected_item_x}]".format(**locals()) + " must be string", value=data__collected__deselected_item_item, name="" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}][{data__collected__deselected_item_x}]".format(**locals()) + "", rule='type')
                                    if isinstance(data__collected__deselected_item_item, str):
                                        data__collected__deselected_item_item_len = len(data__collected__deselected_item_item)
                                        if data__collected__deselected_item_item_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}][{data__collected__deselected_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__collected__deselected_item_item, name="" + (name_prefix or "data") + ".collected.deselected[{data__collected__deselected_x}][{data__collected__deselected_item_x}]".format(**locals()) + "", rule='maxLength')
                if "ungated" in data__collected_keys:
                    data__collected_keys.remove("ungated")
                    data__collected__ungated = data__collected["ungated"]
                    if not (isinstance(data__collected__ungated, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated must be array", value=data__collected__ungated, name="" + (name_prefix or "data") + ".collected.ungated", rule='type')
                    data__collected__ungated_is_list = isinstance(data__collected__ungated, (list, tuple))
                    if data__collected__ungated_is_list:
                        data__collected__ungated_len = len(data__collected__ungated)
                        if data__collected__ungated_len > 1000000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated must contain less than or equal to 1000000 items", value=data__collected__ungated, name="" + (name_prefix or "data") + ".collected.ungated", rule='maxItems')
                        for data__collected__ungated_x, data__collected__ungated_item in enumerate(data__collected__ungated):
                            if not (isinstance(data__collected__ungated_item, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}]".format(**locals()) + " must be array", value=data__collected__ungated_item, name="" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}]".format(**locals()) + "", rule='type')
                            data__collected__ungated_item_is_list = isinstance(data__collected__ungated_item, (list, tuple))
                            if data__collected__ungated_item_is_list:
                                data__collected__ungated_item_len = len(data__collected__ungated_item)
                                if data__collected__ungated_item_len < 2:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}]".format(**locals()) + " must contain at least 2 items", value=data__collected__ungated_item, name="" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}]".format(**locals()) + "", rule='minItems')
                                if data__collected__ungated_item_len > 2:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}]".format(**locals()) + " must contain less than or equal to 2 items", value=data__collected__ungated_item, name="" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}]".format(**locals()) + "", rule='maxItems')
                                for data__collected__ungated_item_x, data__collected__ungated_item_item in enumerate(data__collected__ungated_item):
                                    if not (isinstance(data__collected__ungated_item_item, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}][{data__collected__ungated_item_x}]".format(**locals()) + " must be string", value=data__collected__ungated_item_item, name="" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}][{data__collected__ungated_item_x}]".format(**locals()) + "", rule='type')
                                    if isinstance(data__collected__ungated_item_item, str):
                                        data__collected__ungated_item_item_len = len(data__collected__ungated_item_item)
                                        if data__collected__ungated_item_item_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}][{data__collected__ungated_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__collected__ungated_item_item, name="" + (name_prefix or "data") + ".collected.ungated[{data__collected__ungated_x}][{data__collected__ungated_item_x}]".format(**locals()) + "", rule='maxLength')
                if "failed" in data__collected_keys:
                    data__collected_keys.remove("failed")
                    data__collected__failed = data__collected["failed"]
                    if not (isinstance(data__collected__failed, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.failed must be array", value=data__collected__failed, name="" + (name_prefix or "data") + ".collected.failed", rule='type')
                    data__collected__failed_is_list = isinstance(data__collected__failed, (list, tuple))
                    if data__collected__failed_is_list:
                        data__collected__failed_len = len(data__collected__failed)
                        if data__collected__failed_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.failed must contain less than or equal to 100000 items", value=data__collected__failed, name="" + (name_prefix or "data") + ".collected.failed", rule='maxItems')
                        for data__collected__failed_x, data__collected__failed_item in enumerate(data__collected__failed):
                            if not (isinstance(data__collected__failed_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.failed[{data__collected__failed_x}]".format(**locals()) + " must be string", value=data__collected__failed_item, name="" + (name_prefix or "data") + ".collected.failed[{data__collected__failed_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__collected__failed_item, str):
                                data__collected__failed_item_len = len(data__collected__failed_item)
                                if data__collected__failed_item_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.failed[{data__collected__failed_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__collected__failed_item, name="" + (name_prefix or "data") + ".collected.failed[{data__collected__failed_x}]".format(**locals()) + "", rule='maxLength')
                if "hypothesis" in data__collected_keys:
                    data__collected_keys.remove("hypothesis")
                    data__collected__hypothesis = data__collected["hypothesis"]
                    if not (isinstance(data__collected__hypothesis, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis must be array", value=data__collected__hypothesis, name="" + (name_prefix or "data") + ".collected.hypothesis", rule='type')
                    data__collected__hypothesis_is_list = isinstance(data__collected__hypothesis, (list, tuple))
                    if data__collected__hypothesis_is_list:
                        data__collected__hypothesis_len = len(data__collected__hypothesis)
                        if data__collected__hypothesis_len > 1000000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis must contain less than or equal to 1000000 items", value=data__collected__hypothesis, name="" + (name_prefix or "data") + ".collected.hypothesis", rule='maxItems')
                        for data__collected__hypothesis_x, data__collected__hypothesis_item in enumerate(data__collected__hypothesis):
                            if not (isinstance(data__collected__hypothesis_item, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}]".format(**locals()) + " must be array", value=data__collected__hypothesis_item, name="" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}]".format(**locals()) + "", rule='type')
                            data__collected__hypothesis_item_is_list = isinstance(data__collected__hypothesis_item, (list, tuple))
                            if data__collected__hypothesis_item_is_list:
                                data__collected__hypothesis_item_len = len(data__collected__hypothesis_item)
                                if data__collected__hypothesis_item_len < 4:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}]".format(**locals()) + " must contain at least 4 items", value=data__collected__hypothesis_item, name="" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}]".format(**locals()) + "", rule='minItems')
                                if data__collected__hypothesis_item_len > 4:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}]".format(**locals()) + " must contain less than or equal to 4 items", value=data__collected__hypothesis_item, name="" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}]".format(**locals()) + "", rule='maxItems')
                                for data__collected__hypothesis_item_x, data__collected__hypothesis_item_item in enumerate(data__collected__hypothesis_item):
                                    if not (isinstance(data__collected__hypothesis_item_item, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}][{data__collected__hypothesis_item_x}]".format(**locals()) + " must be string", value=data__collected__hypothesis_item_item, name="" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}][{data__collected__hypothesis_item_x}]".format(**locals()) + "", rule='type')
                                    if isinstance(data__collected__hypothesis_item_item, str):
                                        data__collected__hypothesis_item_item_len = len(data__collected__hypothesis_item_item)
                                        if data__collected__hypothesis_item_item_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}][{data__collected__hypothesis_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__collected__hypothesis_item_item, name="" + (name_prefix or "data") + ".collected.hypothesis[{data__collected__hypothesis_x}][{data__collected__hypothesis_item_x}]".format(**locals()) + "", rule='maxLength')
                if "blame" in data__collected_keys:
                    data__collected_keys.remove("blame")
                    data__collected__blame = data__collected["blame"]
                    data__collected__blame_any_of_count4 = 0
                    if not data__collected__blame_any_of_count4:
                        try:
                            if not (data__collected__blame is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.blame must be null", value=data__collected__blame, name="" + (name_prefix or "data") + ".collected.blame", rule='type')
                            data__collected__blame_any_of_count4 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data__collected__blame_any_of_count4:
                        try:
                            if not (isinstance(data__collected__blame, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.blame must be string", value=data__collected__blame, name="" + (name_prefix or "data") + ".collected.blame", rule='type')
                            if isinstance(data__collected__blame, str):
                                data__collected__blame_len = len(data__collected__blame)
                                if data__collected__blame_len > 2000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.blame must be shorter than or equal to 2000 characters", value=data__collected__blame, name="" + (name_prefix or "data") + ".collected.blame", rule='maxLength')
                            data__collected__blame_any_of_count4 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data__collected__blame_any_of_count4:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.blame cannot be validated by any definition", value=data__collected__blame, name="" + (name_prefix or "data") + ".collected.blame", rule='anyOf')
                if "plugins" in data__collected_keys:
                    data__collected_keys.remove("plugins")
                    data__collected__plugins = data__collected["plugins"]
                    if not (isinstance(data__collected__plugins, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.plugins must be array", value=data__collected__plugins, name="" + (name_prefix or "data") + ".collected.plugins", rule='type')
                    data__collected__plugins_is_list = isinstance(data__collected__plugins, (list, tuple))
                    if data__collected__plugins_is_list:
                        data__collected__plugins_len = len(data__collected__plugins)
                        if data__collected__plugins_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.plugins must contain less than or equal to 100000 items", value=data__collected__plugins, name="" + (name_prefix or "data") + ".collected.plugins", rule='maxItems')
                        for data__collected__plugins_x, data__collected__plugins_item in enumerate(data__collected__plugins):
                            if not (isinstance(data__collected__plugins_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.plugins[{data__collected__plugins_x}]".format(**locals()) + " must be string", value=data__collected__plugins_item, name="" + (name_prefix or "data") + ".collected.plugins[{data__collected__plugins_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__collected__plugins_item, str):
                                data__collected__plugins_item_len = len(data__collected__plugins_item)
                                if data__collected__plugins_item_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected.plugins[{data__collected__plugins_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__collected__plugins_item, name="" + (name_prefix or "data") + ".collected.plugins[{data__collected__plugins_x}]".format(**locals()) + "", rule='maxLength')
                if data__collected_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".collected must not contain "+str(data__collected_keys)+" properties", value=data__collected, name="" + (name_prefix or "data") + ".collected", rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['version', 'seed', 'max_examples', 'derandomize', 'database', 'deadline_ms', 'suppress_health_check', 'examples_run']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "version" in data_keys:
            data_keys.remove("version")
            data__version = data["version"]
            if not (isinstance(data__version, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be string", value=data__version, name="" + (name_prefix or "data") + ".version", rule='type')
            if isinstance(data__version, str):
                data__version_len = len(data__version)
                if data__version_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be longer than or equal to 1 characters", value=data__version, name="" + (name_prefix or "data") + ".version", rule='minLength')
                if data__version_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be shorter than or equal to 64 characters", value=data__version, name="" + (name_prefix or "data") + ".version", rule='maxLength')
        if "seed" in data_keys:
            data_keys.remove("seed")
            data__seed = data["seed"]
            if not ((isinstance(data__seed, int) and not isinstance(data__seed, bool)) or data__seed is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".seed must be integer or null", value=data__seed, name="" + (name_prefix or "data") + ".seed", rule='type')
        if "max_examples" in data_keys:
            data_keys.remove("max_examples")
            data__maxexamples = data["max_examples"]
            if not ((isinstance(data__maxexamples, int) and not isinstance(data__maxexamples, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_examples must be integer", value=data__maxexamples, name="" + (name_prefix or "data") + ".max_examples", rule='type')
            if isinstance(data__maxexamples, (int, float, Decimal)) and not isinstance(data__maxexamples, bool):
                if data__maxexamples < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_examples must be bigger than or equal to 1", value=data__maxexamples, name="" + (name_prefix or "data") + ".max_examples", rule='minimum')
        if "derandomize" in data_keys:
            data_keys.remove("derandomize")
            data__derandomize = data["derandomize"]
            if not (isinstance(data__derandomize, bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".derandomize must be boolean", value=data__derandomize, name="" + (name_prefix or "data") + ".derandomize", rule='type')
        if "database" in data_keys:
            data_keys.remove("database")
            data__database = data["database"]
            if not (data__database is None or isinstance(data__database, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".database must be null or string", value=data__database, name="" + (name_prefix or "data") + ".database", rule='type')
            if isinstance(data__database, str):
                data__database_len = len(data__database)
                if data__database_len > 200:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".database must be shorter than or equal to 200 characters", value=data__database, name="" + (name_prefix or "data") + ".database", rule='maxLength')
        if "deadline_ms" in data_keys:
            data_keys.remove("deadline_ms")
            data__deadlinems = data["deadline_ms"]
            if not ((isinstance(data__deadlinems, int) and not isinstance(data__deadlinems, bool)) or data__deadlinems is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be integer or null", value=data__deadlinems, name="" + (name_prefix or "data") + ".deadline_ms", rule='type')
            if isinstance(data__deadlinems, (int, float, Decimal)) and not isinstance(data__deadlinems, bool):
                if data__deadlinems < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be bigger than or equal to 0", value=data__deadlinems, name="" + (name_prefix or "data") + ".deadline_ms", rule='minimum')
        if "suppress_health_check" in data_keys:
            data_keys.remove("suppress_health_check")
            data__suppresshealthcheck = data["suppress_health_check"]
            if not (isinstance(data__suppresshealthcheck, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check must be array", value=data__suppresshealthcheck, name="" + (name_prefix or "data") + ".suppress_health_check", rule='type')
            data__suppresshealthcheck_is_list = isinstance(data__suppresshealthcheck, (list, tuple))
            if data__suppresshealthcheck_is_list:
                data__suppresshealthcheck_len = len(data__suppresshealthcheck)
                if data__suppresshealthcheck_len > 16:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check must contain less than or equal to 16 items", value=data__suppresshealthcheck, name="" + (name_prefix or "data") + ".suppress_health_check", rule='maxItems')
                for data__suppresshealthcheck_x, data__suppresshealthcheck_item in enumerate(data__suppresshealthcheck):
                    if not (isinstance(data__suppresshealthcheck_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + " must be string", value=data__suppresshealthcheck_item, name="" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__suppresshealthcheck_item, str):
                        data__suppresshealthcheck_item_len = len(data__suppresshealthcheck_item)
                        if data__suppresshealthcheck_item_len > 64:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + " must be shorter than or equal to 64 characters", value=data__suppresshealthcheck_item, name="" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + "", rule='maxLength')
        if "examples_run" in data_keys:
            data_keys.remove("examples_run")
            data__examplesrun = data["examples_run"]
            if not ((isinstance(data__examplesrun, int) and not isinstance(data__examplesrun, bool)) or data__examplesrun is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".examples_run must be integer or null", value=data__examplesrun, name="" + (name_prefix or "data") + ".examples_run", rule='type')
            if isinstance(data__examplesrun, (int, float, Decimal)) and not isinstance(data__examplesrun, bool):
                if data__examplesrun < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".examples_run must be bigger than or equal to 0", value=data__examplesrun, name="" + (name_prefix or "data") + ".examples_run", rule='minimum')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json
