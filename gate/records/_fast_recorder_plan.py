"""Generated from schemas/recorder-plan.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('recorder-plan', 'sample-card')
SCHEMA_SHA256 = "f42819526b40c150a7ee047203c9103b08d42807faa158761d26bb19d5b32b77"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_recorder_plan_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'gate_version', 'tests', 'properties']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'gate-recorder-plan/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: gate-recorder-plan/v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", rule='const')
        if "gate_version" in data_keys:
            data_keys.remove("gate_version")
            data__gateversion = data["gate_version"]
            if not (isinstance(data__gateversion, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be string", value=data__gateversion, name="" + (name_prefix or "data") + ".gate_version", rule='type')
            if isinstance(data__gateversion, str):
                data__gateversion_len = len(data__gateversion)
                if data__gateversion_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be shorter than or equal to 64 characters", value=data__gateversion, name="" + (name_prefix or "data") + ".gate_version", rule='maxLength')
        if "tests" in data_keys:
            data_keys.remove("tests")
            data__tests = data["tests"]
            if not (isinstance(data__tests, str) and data__tests == 'gated' or isinstance(data__tests, str) and data__tests == 'all'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".tests must be one of ['gated', 'all']", value=data__tests, name="" + (name_prefix or "data") + ".tests", rule='enum')
        if "properties" in data_keys:
            data_keys.remove("properties")
            data__properties = data["properties"]
            if not (isinstance(data__properties, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties must be array", value=data__properties, name="" + (name_prefix or "data") + ".properties", rule='type')
            data__properties_is_list = isinstance(data__properties, (list, tuple))
            if data__properties_is_list:
                data__properties_len = len(data__properties)
                if data__properties_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties must contain at least 1 items", value=data__properties, name="" + (name_prefix or "data") + ".properties", rule='minItems')
                if data__properties_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties must contain less than or equal to 100000 items", value=data__properties, name="" + (name_prefix or "data") + ".properties", rule='maxItems')
                for data__properties_x, data__properties_item in enumerate(data__properties):
                    if not (isinstance(data__properties_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()) + " must be object", value=data__properties_item, name="" + (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()) + "", rule='type')
                    data__properties_item_is_dict = isinstance(data__properties_item, dict)
                    if data__properties_item_is_dict:
                        data__properties_item__missing_keys = set(['test_id', 'junit', 'card', 'card_path']) - data__properties_item.keys()
                        if data__properties_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()) + " must contain " + (str(sorted(data__properties_item__missing_keys)) + " properties"), value=data__properties_item, name="" + (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()) + "", rule='required')
                        data__properties_item_keys = set(data__properties_item.keys())
                        if "test_id" in data__properties_item_keys:
                            data__properties_item_keys.remove("test_id")
                            data__properties_item__testid = data__properties_item["test_id"]
                            if not (isinstance(data__properties_item__testid, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].test_id".format(**locals()) + " must be string", value=data__properties_item__testid, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].test_id".format(**locals()) + "", rule='type')
                            if isinstance(data__properties_item__testid, str):
                                data__properties_item__testid_len = len(data__properties_item__testid)
                                if data__properties_item__testid_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].test_id".format(**locals()) + " must be longer than or equal to 1 characters", value=data__properties_item__testid, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].test_id".format(**locals()) + "", rule='minLength')
                                if data__properties_item__testid_len > 1000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].test_id".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__properties_item__testid, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].test_id".format(**locals()) + "", rule='maxLength')
                        if "junit" in data__properties_item_keys:
                            data__properties_item_keys.remove("junit")
                            data__properties_item__junit = data__properties_item["junit"]
                            if not (isinstance(data__properties_item__junit, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit".format(**locals()) + " must be object", value=data__properties_item__junit, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit".format(**locals()) + "", rule='type')
                            data__properties_item__junit_is_dict = isinstance(data__properties_item__junit, dict)
                            if data__properties_item__junit_is_dict:
                                data__properties_item__junit__missing_keys = set(['classname', 'name']) - data__properties_item__junit.keys()
                                if data__properties_item__junit__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit".format(**locals()) + " must contain " + (str(sorted(data__properties_item__junit__missing_keys)) + " properties"), value=data__properties_item__junit, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit".format(**locals()) + "", rule='required')
                                data__properties_item__junit_keys = set(data__properties_item__junit.keys())
                                if "classname" in data__properties_item__junit_keys:
                                    data__properties_item__junit_keys.remove("classname")
                                    data__properties_item__junit__classname = data__properties_item__junit["classname"]
                                    if not (isinstance(data__properties_item__junit__classname, str) or data__properties_item__junit__classname is None):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.classname".format(**locals()) + " must be string or null", value=data__properties_item__junit__classname, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.classname".format(**locals()) + "", rule='type')
                                    if isinstance(data__properties_item__junit__classname, str):
                                        data__properties_item__junit__classname_len = len(data__properties_item__junit__classname)
                                        if data__properties_item__junit__classname_len > 1000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.classname".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__properties_item__junit__classname, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.classname".format(**locals()) + "", rule='maxLength')
                                if "name" in data__properties_item__junit_keys:
                                    data__properties_item__junit_keys.remove("name")
                                    data__properties_item__junit__name = data__properties_item__junit["name"]
                                    if not (isinstance(data__properties_item__junit__name, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.name".format(**locals()) + " must be string", value=data__properties_item__junit__name, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.name".format(**locals()) + "", rule='type')
                                    if isinstance(data__properties_item__junit__name, str):
                                        data__properties_item__junit__name_len = len(data__properties_item__junit__name)
                                        if data__properties_item__junit__name_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.name".format(**locals()) + " must be longer than or equal to 1 characters", value=data__properties_item__junit__name, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.name".format(**locals()) + "", rule='minLength')
                                        if data__properties_item__junit__name_len > 1000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.name".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__properties_item__junit__name, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit.name".format(**locals()) + "", rule='maxLength')
                                if data__properties_item__junit_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].junit".format(**locals()) + " must not contain "+str(data__properties_item__junit_keys)+" properties", value=data__properties_item__junit, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].junit".format(**locals()) + "", rule='additionalProperties')
                        if "card" in data__properties_item_keys:
                            data__properties_item_keys.remove("card")
                            data__properties_item__card = data__properties_item["card"]
                            validate_https___agent_patch_gate_invalid_schemas_sample_card_schema_json(data__properties_item__card, custom_formats, (name_prefix or "data") + ".properties[{data__properties_x}].card".format(**locals()))
                        if "card_path" in data__properties_item_keys:
                            data__properties_item_keys.remove("card_path")
                            data__properties_item__cardpath = data__properties_item["card_path"]
                            if not (isinstance(data__properties_item__cardpath, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].card_path".format(**locals()) + " must be string", value=data__properties_item__cardpath, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].card_path".format(**locals()) + "", rule='type')
                            if isinstance(data__properties_item__cardpath, str):
                                data__properties_item__cardpath_len = len(data__properties_item__cardpath)
                                if data__properties_item__cardpath_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].card_path".format(**locals()) + " must be longer than or equal to 1 characters", value=data__properties_item__cardpath, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].card_path".format(**locals()) + "", rule='minLength')
                                if data__properties_item__cardpath_len > 4096:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}].card_path".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__properties_item__cardpath, name="" + (name_prefix or "data") + ".properties[{data__properties_x}].card_path".format(**locals()) + "", rule='maxLength')
                        if data__properties_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()) + " must not contain "+str(data__properties_item_keys)+" properties", value=data__properties_item, name="" + (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()) + "", rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_sample_card_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['property', 'cases', 'seed']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "property" in data_keys:
            data_keys.remove("property")
            data__property = data["property"]
            if not (isinstance(data__property, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".property must be string", value=data__property, name="" + (name_prefix or "data") + ".property", rule='type')
            if isinstance(data__property, str):
                data__property_len = len(data__property)
                if data__property_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".property must be longer than or equal to 1 characters", value=data__property, name="" + (name_prefix or "data") + ".property", rule='minLength')
                if data__property_len > 256:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".property must be shorter than or equal to 256 characters", value=data__property, name="" + (name_prefix or "data") + ".property", rule='maxLength')
        if "cases" in data_keys:
            data_keys.remove("cases")
            data__cases = data["cases"]
            if not ((isinstance(data__cases, int) and not isinstance(data__cases, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must be integer", value=data__cases, name="" + (name_prefix or "data") + ".cases", rule='type')
            if isinstance(data__cases, (int, float, Decimal)) and not isinstance(data__cases, bool):
                if data__cases < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must be bigger than or equal to 1", value=data__cases, name="" + (name_prefix or "data") + ".cases", rule='minimum')
        if "seed" in data_keys:
            data_keys.remove("seed")
            data__seed = data["seed"]
            if not ((isinstance(data__seed, int) and not isinstance(data__seed, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".seed must be integer", value=data__seed, name="" + (name_prefix or "data") + ".seed", rule='type')
        if "freeze_expires_at" in data_keys:
            data_keys.remove("freeze_expires_at")
            data__freezeexpiresat = data["freeze_expires_at"]
            if not ((isinstance(data__freezeexpiresat, int) and not isinstance(data__freezeexpiresat, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_expires_at must be integer", value=data__freezeexpiresat, name="" + (name_prefix or "data") + ".freeze_expires_at", rule='type')
            if isinstance(data__freezeexpiresat, (int, float, Decimal)) and not isinstance(data__freezeexpiresat, bool):
                if data__freezeexpiresat < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_expires_at must be bigger than or equal to 0", value=data__freezeexpiresat, name="" + (name_prefix or "data") + ".freeze_expires_at", rule='minimum')
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not (isinstance(data__description, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 4096:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 4096 characters", value=data__description, name="" + (name_prefix or "data") + ".description", rule='maxLength')
        if "deadline_ms" in data_keys:
            data_keys.remove("deadline_ms")
            data__deadlinems = data["deadline_ms"]
            if not ((isinstance(data__deadlinems, int) and not isinstance(data__deadlinems, bool)) or data__deadlinems is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be integer or null", value=data__deadlinems, name="" + (name_prefix or "data") + ".deadline_ms", rule='type')
            if isinstance(data__deadlinems, (int, float, Decimal)) and not isinstance(data__deadlinems, bool):
                if data__deadlinems < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be bigger than or equal to 1", value=data__deadlinems, name="" + (name_prefix or "data") + ".deadline_ms", rule='minimum')
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
                    if not (isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'data_too_large' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'filter_too_much' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'too_slow' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'large_base_example' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'function_scoped_fixture' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'differing_executors' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'nested_given'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + " must be one of ['data_too_large', 'filter_too_much', 'too_slow', 'large_base_example', 'function_scoped_fixture', 'differing_executors', 'nested_given']", value=data__suppresshealthcheck_item, name="" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + "", rule='enum')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_recorder_plan_schema_json
