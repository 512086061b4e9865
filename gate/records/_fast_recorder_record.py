"""Generated from schemas/recorder-record.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('recorder-record', 'recorder-results')
SCHEMA_SHA256 = "d34652992373fe65dedcb9e24e536c21531c2d956a8177de5d90cb0a60e79fbf"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json(data, custom_formats={}, name_prefix=None):
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_begin(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_started(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_finished(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_end(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count1) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", rule='oneOf')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_end(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['record', 'exit_status', 'refused', 'refused_tests', 'cases', 'tampered', 'collected']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "record" in data_keys:
            data_keys.remove("record")
            data__record = data["record"]
            if not (isinstance(data__record, str) and data__record == 'end'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".record must be same as const definition: end", value=data__record, name="" + (name_prefix or "data") + ".record", rule='const')
        if "exit_status" in data_keys:
            data_keys.remove("exit_status")
            data__exitstatus = data["exit_status"]
            if not ((isinstance(data__exitstatus, int) and not isinstance(data__exitstatus, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".exit_status must be integer", value=data__exitstatus, name="" + (name_prefix or "data") + ".exit_status", rule='type')
        if "refused" in data_keys:
            data_keys.remove("refused")
            data__refused = data["refused"]
            validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_refused(data__refused, custom_formats, (name_prefix or "data") + ".refused")
        if "refused_tests" in data_keys:
            data_keys.remove("refused_tests")
            data__refusedtests = data["refused_tests"]
            validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_refused_tests(data__refusedtests, custom_formats, (name_prefix or "data") + ".refused_tests")
        if "cases" in data_keys:
            data_keys.remove("cases")
            data__cases = data["cases"]
            validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_cases(data__cases, custom_formats, (name_prefix or "data") + ".cases")
        if "tampered" in data_keys:
            data_keys.remove("tampered")
            data__tampered = data["tampered"]
            validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_tampered(data__tampered, custom_formats, (name_prefix or "data") + ".tampered")
        if "collected" in data_keys:
            data_keys.remove("collected")
            data__collected = data["collected"]
            validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_collected(data__collected, custom_formats, (name_prefix or "data") + ".collected")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_collected(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['selected', 'deselected', 'ungated', 'failed']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "selected" in data_keys:
            data_keys.remove("selected")
            data__selected = data["selected"]
            data__selected_any_of_count2 = 0
            if not data__selected_any_of_count2:
                try:
                    if not (data__selected is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected must be null", value=data__selected, name="" + (name_prefix or "data") + ".selected", rule='type')
                    data__selected_any_of_count2 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__selected_any_of_count2:
                try:
                    if not (isinstance(data__selected, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected must be array", value=data__selected, name="" + (name_prefix or "data") + ".selected", rule='type')
                    data__selected_is_list = isinstance(data__selected, (list, tuple))
                    if data__selected_is_list:
                        data__selected_len = len(data__selected)
                        if data__selected_len > 1000000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected must contain less than or equal to 1000000 items", value=data__selected, name="" + (name_prefix or "data") + ".selected", rule='maxItems')
                        for data__selected_x, data__selected_item in enumerate(data__selected):
                            if not (isinstance(data__selected_item, list)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected[{data__selected_x}]".format(**locals()) + " must be array", value=data__selected_item, name="" + (name_prefix or "data") + ".selected[{data__selected_x}]".format(**locals()) + "", rule='type')
                            data__selected_item_is_list = isinstance(data__selected_item, (list, tuple))
                            if data__selected_item_is_list:
                                data__selected_item_len = len(data__selected_item)
                                if data__selected_item_len < 2:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected[{data__selected_x}]".format(**locals()) + " must contain at least 2 items", value=data__selected_item, name="" + (name_prefix or "data") + ".selected[{data__selected_x}]".format(**locals()) + "", rule='minItems')
                                if data__selected_item_len > 2:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected[{data__selected_x}]".format(**locals()) + " must contain less than or equal to 2 items", value=data__selected_item, name="" + (name_prefix or "data") + ".selected[{data__selected_x}]".format(**locals()) + "", rule='maxItems')
                                for data__selected_item_x, data__selected_item_item in enumerate(data__selected_item):
                                    if not (isinstance(data__selected_item_item, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected[{data__selected_x}][{data__selected_item_x}]".format(**locals()) + " must be string", value=data__selected_item_item, name="" + (name_prefix or "data") + ".selected[{data__selected_x}][{data__selected_item_x}]".format(**locals()) + "", rule='type')
                                    if isinstance(data__selected_item_item, str):
                                        data__selected_item_item_len = len(data__selected_item_item)
                                        if data__selected_item_item_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected[{data__selected_x}][{data__selected_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__selected_item_item, name="" + (name_prefix or "data") + ".selected[{data__selected_x}][{data__selected_item_x}]".format(**locals()) + "", rule='maxLength')
                    data__selected_any_of_count2 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__selected_any_of_count2:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".selected cannot be validated by any definition", value=data__selected, name="" + (name_prefix or "data") + ".selected", rule='anyOf')
        if "deselected" in data_keys:
            data_keys.remove("deselected")
            data__deselected = data["deselected"]
            if not (isinstance(data__deselected, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected must be array", value=data__deselected, name="" + (name_prefix or "data") + ".deselected", rule='type')
            data__deselected_is_list = isinstance(data__deselected, (list, tuple))
            if data__deselected_is_list:
                data__deselected_len = len(data__deselected)
                if data__deselected_len > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected must contain less than or equal to 1000000 items", value=data__deselected, name="" + (name_prefix or "data") + ".deselected", rule='maxItems')
                for data__deselected_x, data__deselected_item in enumerate(data__deselected):
                    if not (isinstance(data__deselected_item, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected[{data__deselected_x}]".format(**locals()) + " must be array", value=data__deselected_item, name="" + (name_prefix or "data") + ".deselected[{data__deselected_x}]".format(**locals()) + "", rule='type')
                    data__deselected_item_is_list = isinstance(data__deselected_item, (list, tuple))
                    if data__deselected_item_is_list:
                        data__deselected_item_len = len(data__deselected_item)
                        if data__deselected_item_len < 2:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected[{data__deselected_x}]".format(**locals()) + " must contain at least 2 items", value=data__deselected_item, name="" + (name_prefix or "data") + ".deselected[{data__deselected_x}]".format(**locals()) + "", rule='minItems')
                        if data__deselected_item_len > 2:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected[{data__deselected_x}]".format(**locals()) + " must contain less than or equal to 2 items", value=data__deselected_item, name="" + (name_prefix or "data") + ".deselected[{data__deselected_x}]".format(**locals()) + "", rule='maxItems')
                        for data__deselected_item_x, data__deselected_item_item in enumerate(data__deselected_item):
                            if not (isinstance(data__deselected_item_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected[{data__deselected_x}][{data__deselected_item_x}]".format(**locals()) + " must be string", value=data__deselected_item_item, name="" + (name_prefix or "data") + ".deselected[{data__deselected_x}][{data__deselected_item_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__deselected_item_item, str):
                                data__deselected_item_item_len = len(data__deselected_item_item)
                                if data__deselected_item_item_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".deselected[{data__deselected_x}][{data__deselected_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__deselected_item_item, name="" + (name_prefix or "data") + ".deselected[{data__deselected_x}][{data__deselected_item_x}]".format(**locals()) + "", rule='maxLength')
        if "ungated" in data_keys:
            data_keys.remove("ungated")
            data__ungated = data["ungated"]
            if not (isinstance(data__ungated, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must be array", value=data__ungated, name="" + (name_prefix or "data") + ".ungated", rule='type')
            data__ungated_is_list = isinstance(data__ungated, (list, tuple))
            if data__ungated_is_list:
                data__ungated_len = len(data__ungated)
                if data__ungated_len > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must contain less than or equal to 1000000 items", value=data__ungated, name="" + (name_prefix or "data") + ".ungated", rule='maxItems')
                for data__ungated_x, data__ungated_item in enumerate(data__ungated):
                    if not (isinstance(data__ungated_item, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated[{data__ungated_x}]".format(**locals()) + " must be array", value=data__ungated_item, name="" + (name_prefix or "data") + ".ungated[{data__ungated_x}]".format(**locals()) + "", rule='type')
                    data__ungated_item_is_list = isinstance(data__ungated_item, (list, tuple))
                    if data__ungated_item_is_list:
                        data__ungated_item_len = len(data__ungated_item)
                        if data__ungated_item_len < 2:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated[{data__ungated_x}]".format(**locals()) + " must contain at least 2 items", value=data__ungated_item, name="" + (name_prefix or "data") + ".ungated[{data__ungated_x}]".format(**locals()) + "", rule='minItems')
                        if data__ungated_item_len > 2:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated[{data__ungated_x}]".format(**locals()) + " must contain less than or equal to 2 items", value=data__ungated_item, name="" + (name_prefix or "data") + ".ungated[{data__ungated_x}]".format(**locals()) + "", rule='maxItems')
                        for data__ungated_item_x, data__ungated_item_item in enumerate(data__ungated_item):
                            if not (isinstance(data__ungated_item_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated[{data__ungated_x}][{data__ungated_item_x}]".format(**locals()) + " must be string", value=data__ungated_item_item, name="" + (name_prefix or "data") + ".ungated[{data__ungated_x}][{data__ungated_item_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__ungated_item_item, str):
                                data__ungated_item_item_len = len(data__ungated_item_item)
                                if data__ungated_item_item_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated[{data__ungated_x}][{data__ungated_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__ungated_item_item, name="" + (name_prefix or "data") + ".ungated[{data__ungated_x}][{data__ungated_item_x}]".format(**locals()) + "", rule='maxLength')
        if "failed" in data_keys:
            data_keys.remove("failed")
            data__failed = data["failed"]
            if not (isinstance(data__failed, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failed must be array", value=data__failed, name="" + (name_prefix or "data") + ".failed", rule='type')
            data__failed_is_list = isinstance(data__failed, (list, tuple))
            if data__failed_is_list:
                data__failed_len = len(data__failed)
                if data__failed_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".failed must contain less than or equal to 100000 items", value=data__failed, name="" + (name_prefix or "data") + ".failed", rule='maxItems')
                for data__failed_x, data__failed_item in enumerate(data__failed):
                    if not (isinstance(data__failed_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".failed[{data__failed_x}]".format(**locals()) + " must be string", value=data__failed_item, name="" + (name_prefix or "data") + ".failed[{data__failed_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__failed_item, str):
                        data__failed_item_len = len(data__failed_item)
                        if data__failed_item_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".failed[{data__failed_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__failed_item, name="" + (name_prefix or "data") + ".failed[{data__failed_x}]".format(**locals()) + "", rule='maxLength')
        if "hypothesis" in data_keys:
            data_keys.remove("hypothesis")
            data__hypothesis = data["hypothesis"]
            if not (isinstance(data__hypothesis, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis must be array", value=data__hypothesis, name="" + (name_prefix or "data") + ".hypothesis", rule='type')
            data__hypothesis_is_list = isinstance(data__hypothesis, (list, tuple))
            if data__hypothesis_is_list:
                data__hypothesis_len = len(data__hypothesis)
                if data__hypothesis_len > 1000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis must contain less than or equal to 1000000 items", value=data__hypothesis, name="" + (name_prefix or "data") + ".hypothesis", rule='maxItems')
                for data__hypothesis_x, data__hypothesis_item in enumerate(data__hypothesis):
                    if not (isinstance(data__hypothesis_item, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}]".format(**locals()) + " must be array", value=data__hypothesis_item, name="" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}]".format(**locals()) + "", rule='type')
                    data__hypothesis_item_is_list = isinstance(data__hypothesis_item, (list, tuple))
                    if data__hypothesis_item_is_list:
                        data__hypothesis_item_len = len(data__hypothesis_item)
                        if data__hypothesis_item_len < 4:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}]".format(**locals()) + " must contain at least 4 items", value=data__hypothesis_item, name="" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}]".format(**locals()) + "", rule='minItems')
                        if data__hypothesis_item_len > 4:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}]".format(**locals()) + " must contain less than or equal to 4 items", value=data__hypothesis_item, name="" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}]".format(**locals()) + "", rule='maxItems')
                        for data__hypothesis_item_x, data__hypothesis_item_item in enumerate(data__hypothesis_item):
                            if not (isinstance(data__hypothesis_item_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}][{data__hypothesis_item_x}]".format(**locals()) + " must be string", value=data__hypothesis_item_item, name="" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}][{data__hypothesis_item_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__hypothesis_item_item, str):
                                data__hypothesis_item_item_len = len(data__hypothesis_item_item)
                                if data__hypothesis_item_item_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}][{data__hypothesis_item_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__hypothesis_item_item, name="" + (name_prefix or "data") + ".hypothesis[{data__hypothesis_x}][{data__hypothesis_item_x}]".format(**locals()) + "", rule='maxLength')
        if "blame" in data_keys:
            data_keys.remove("blame")
            data__blame = data["blame"]
            data__blame_any_of_count3 = 0
            if not data__blame_any_of_count3:
                try:
                    if not (data__blame is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".blame must be null", value=data__blame, name="" + (name_prefix or "data") + ".blame", rule='type')
                    data__blame_any_of_count3 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__blame_any_of_count3:
                try:
                    if not (isinstance(data__blame, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".blame must be string", value=data__blame, name="" + (name_prefix or "data") + ".blame", rule='type')
                    if isinstance(data__blame, str):
                        data__blame_len = len(data__blame)
                        if data__blame_len > 2000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".blame must be shorter than or equal to 2000 characters", value=data__blame, name="" + (name_prefix or "data") + ".blame", rule='maxLength')
                    data__blame_any_of_count3 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__blame_any_of_count3:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".blame cannot be validated by any definition", value=data__blame, name="" + (name_prefix or "data") + ".blame", rule='anyOf')
        if "plugins" in data_keys:
            data_keys.remove("plugins")
            data__plugins = data["plugins"]
            if not (isinstance(data__plugins, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".plugins must be array", value=data__plugins, name="" + (name_prefix or "data") + ".plugins", rule='type')
            data__plugins_is_list = isinstance(data__plugins, (list, tuple))
            if data__plugins_is_list:
                data__plugins_len = len(data__plugins)
                if data__plugins_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".plugins must contain less than or equal to 100000 items", value=data__plugins, name="" + (name_prefix or "data") + ".plugins", rule='maxItems')
                for data__plugins_x, data__plugins_item in enumerate(data__plugins):
                    if not (isinstance(data__plugins_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".plugins[{data__plugins_x}]".format(**locals()) + " must be string", value=data__plugins_item, name="" + (name_prefix or "data") + ".plugins[{data__plugins_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__plugins_item, str):
                        data__plugins_item_len = len(data__plugins_item)
                        if data__plugins_item_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".plugins[{data__plugins_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data__plugins_item, name="" + (name_prefix or "data") + ".plugins[{data__plugins_x}]".format(**locals()) + "", rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_tampered(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, list)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len > 20:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain less than or equal to 20 items", value=data, name="" + (name_prefix or "data") + "", rule='maxItems')
        for data_x, data_item in enumerate(data):
            if not (isinstance(data_item, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be string", value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='type')
            if isinstance(data_item, str):
                data_item_len = len(data_item)
                if data_item_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='maxLength')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_cases(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, list)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len > 1000000:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain less than or equal to 1000000 items", value=data, name="" + (name_prefix or "data") + "", rule='maxItems')
        for data_x, data_item in enumerate(data):
            if not (isinstance(data_item, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be object", value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='type')
            data_item_is_dict = isinstance(data_item, dict)
            if data_item_is_dict:
                data_item__missing_keys = set(['classname', 'name', 'kinds', 'crash', 'hypothesis', 'failure', 'raised', 'tampered']) - data_item.keys()
                if data_item__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must contain " + (str(sorted(data_item__missing_keys)) + " properties"), value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='required')
                data_item_keys = set(data_item.keys())
                if "classname" in data_item_keys:
                    data_item_keys.remove("classname")
                    data_item__classname = data_item["classname"]
                    if not (isinstance(data_item__classname, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].classname".format(**locals()) + " must be string", value=data_item__classname, name="" + (name_prefix or "data") + "[{data_x}].classname".format(**locals()) + "", rule='type')
                    if isinstance(data_item__classname, str):
                        data_item__classname_len = len(data_item__classname)
                        if data_item__classname_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].classname".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item__classname, name="" + (name_prefix or "data") + "[{data_x}].classname".format(**locals()) + "", rule='maxLength')
                if "name" in data_item_keys:
                    data_item_keys.remove("name")
                    data_item__name = data_item["name"]
                    if not (isinstance(data_item__name, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].name".format(**locals()) + " must be string", value=data_item__name, name="" + (name_prefix or "data") + "[{data_x}].name".format(**locals()) + "", rule='type')
                    if isinstance(data_item__name, str):
                        data_item__name_len = len(data_item__name)
                        if data_item__name_len > 100000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].name".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item__name, name="" + (name_prefix or "data") + "[{data_x}].name".format(**locals()) + "", rule='maxLength')
                if "kinds" in data_item_keys:
                    data_item_keys.remove("kinds")
                    data_item__kinds = data_item["kinds"]
                    if not (isinstance(data_item__kinds, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].kinds".format(**locals()) + " must be array", value=data_item__kinds, name="" + (name_prefix or "data") + "[{data_x}].kinds".format(**locals()) + "", rule='type')
                    data_item__kinds_is_list = isinstance(data_item__kinds, (list, tuple))
                    if data_item__kinds_is_list:
                        data_item__kinds_len = len(data_item__kinds)
                        if data_item__kinds_len > 3:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].kinds".format(**locals()) + " must contain less than or equal to 3 items", value=data_item__kinds, name="" + (name_prefix or "data") + "[{data_x}].kinds".format(**locals()) + "", rule='maxItems')
                        for data_item__kinds_x, data_item__kinds_item in enumerate(data_item__kinds):
                            if not (isinstance(data_item__kinds_item, str) and data_item__kinds_item == 'failure' or isinstance(data_item__kinds_item, str) and data_item__kinds_item == 'error' or isinstance(data_item__kinds_item, str) and data_item__kinds_item == 'skipped'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].kinds[{data_item__kinds_x}]".format(**locals()) + " must be one of ['failure', 'error', 'skipped']", value=data_item__kinds_item, name="" + (name_prefix or "data") + "[{data_x}].kinds[{data_item__kinds_x}]".format(**locals()) + "", rule='enum')
                if "crash" in data_item_keys:
                    data_item_keys.remove("crash")
                    data_item__crash = data_item["crash"]
                    if not (isinstance(data_item__crash, str) or data_item__crash is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].crash".format(**locals()) + " must be string or null", value=data_item__crash, name="" + (name_prefix or "data") + "[{data_x}].crash".format(**locals()) + "", rule='type')
                    if isinstance(data_item__crash, str):
                        data_item__crash_len = len(data_item__crash)
                        if data_item__crash_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].crash".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data_item__crash, name="" + (name_prefix or "data") + "[{data_x}].crash".format(**locals()) + "", rule='maxLength')
                if "hypothesis" in data_item_keys:
                    data_item_keys.remove("hypothesis")
                    data_item__hypothesis = data_item["hypothesis"]
                    data_item__hypothesis_any_of_count4 = 0
                    if not data_item__hypothesis_any_of_count4:
                        try:
                            if not (data_item__hypothesis is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].hypothesis".format(**locals()) + " must be null", value=data_item__hypothesis, name="" + (name_prefix or "data") + "[{data_x}].hypothesis".format(**locals()) + "", rule='type')
                            data_item__hypothesis_any_of_count4 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data_item__hypothesis_any_of_count4:
                        try:
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data_item__hypothesis, custom_formats, (name_prefix or "data") + "[{data_x}].hypothesis".format(**locals()))
                            data_item__hypothesis_any_of_count4 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data_item__hypothesis_any_of_count4:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].hypothesis".format(**locals()) + " cannot be validated by any definition", value=data_item__hypothesis, name="" + (name_prefix or "data") + "[{data_x}].hypothesis".format(**locals()) + "", rule='anyOf')
                if "failure" in data_item_keys:
                    data_item_keys.remove("failure")
                    data_item__failure = data_item["failure"]
                    data_item__failure_any_of_count5 = 0
                    if not data_item__failure_any_of_count5:
                        try:
                            if not (data_item__failure is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + " must be null", value=data_item__failure, name="" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + "", rule='type')
                            data_item__failure_any_of_count5 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data_item__failure_any_of_count5:
                        try:
                            if not (isinstance(data_item__failure, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + " must be object", value=data_item__failure, name="" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + "", rule='type')
                            data_item__failure_is_dict = isinstance(data_item__failure, dict)
                            if data_item__failure_is_dict:
                                data_item__failure__missing_keys = set(['type', 'message', 'example', 'reproduce']) - data_item__failure.keys()
                                if data_item__failure__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + " must contain " + (str(sorted(data_item__failure__missing_keys)) + " properties"), value=data_item__failure, name="" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + "", rule='required')
                                data_item__failure_keys = set(data_item__failure.keys())
                                if "type" in data_item__failure_keys:
                                    data_item__failure_keys.remove("type")
                                    data_item__failure__type = data_item__failure["type"]
                                    if not (isinstance(data_item__failure__type, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.type".format(**locals()) + " must be string", value=data_item__failure__type, name="" + (name_prefix or "data") + "[{data_x}].failure.type".format(**locals()) + "", rule='type')
                                    if isinstance(data_item__failure__type, str):
                                        data_item__failure__type_len = len(data_item__failure__type)
                                        if data_item__failure__type_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.type".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item__failure__type, name="" + (name_prefix or "data") + "[{data_x}].failure.type".format(**locals()) + "", rule='maxLength')
                                if "message" in data_item__failure_keys:
                                    data_item__failure_keys.remove("message")
                                    data_item__failure__message = data_item__failure["message"]
                                    if not (isinstance(data_item__failure__message, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.message".format(**locals()) + " must be string", value=data_item__failure__message, name="" + (name_prefix or "data") + "[{data_x}].failure.message".format(**locals()) + "", rule='type')
                                    if isinstance(data_item__failure__message, str):
                                        data_item__failure__message_len = len(data_item__failure__message)
                                        if data_item__failure__message_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.message".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item__failure__message, name="" + (name_prefix or "data") + "[{data_x}].failure.message".format(**locals()) + "", rule='maxLength')
                                if "example" in data_item__failure_keys:
                                    data_item__failure_keys.remove("example")
                                    data_item__failure__example = data_item__failure["example"]
                                    if not (isinstance(data_item__failure__example, str) or data_item__failure__example is None):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.example".format(**locals()) + " must be string or null", value=data_item__failure__example, name="" + (name_prefix or "data") + "[{data_x}].failure.example".format(**locals()) + "", rule='type')
                                    if isinstance(data_item__failure__example, str):
                                        data_item__failure__example_len = len(data_item__failure__example)
                                        if data_item__failure__example_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.example".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item__failure__example, name="" + (name_prefix or "data") + "[{data_x}].failure.example".format(**locals()) + "", rule='maxLength')
                                if "reproduce" in data_item__failure_keys:
                                    data_item__failure_keys.remove("reproduce")
                                    data_item__failure__reproduce = data_item__failure["reproduce"]
                                    if not (isinstance(data_item__failure__reproduce, str) or data_item__failure__reproduce is None):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.reproduce".format(**locals()) + " must be string or null", value=data_item__failure__reproduce, name="" + (name_prefix or "data") + "[{data_x}].failure.reproduce".format(**locals()) + "", rule='type')
                                    if isinstance(data_item__failure__reproduce, str):
                                        data_item__failure__reproduce_len = len(data_item__failure__reproduce)
                                        if data_item__failure__reproduce_len > 100000:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure.reproduce".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item__failure__reproduce, name="" + (name_prefix or "data") + "[{data_x}].failure.reproduce".format(**locals()) + "", rule='maxLength')
                                if data_item__failure_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + " must not contain "+str(data_item__failure_keys)+" properties", value=data_item__failure, name="" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + "", rule='additionalProperties')
                            data_item__failure_any_of_count5 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data_item__failure_any_of_count5:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + " cannot be validated by any definition", value=data_item__failure, name="" + (name_prefix or "data") + "[{data_x}].failure".format(**locals()) + "", rule='anyOf')
                if "raised" in data_item_keys:
                    data_item_keys.remove("raised")
                    data_item__raised = data_item["raised"]
                    if not (isinstance(data_item__raised, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].raised".format(**locals()) + " must be array", value=data_item__raised, name="" + (name_prefix or "data") + "[{data_x}].raised".format(**locals()) + "", rule='type')
                    data_item__raised_is_list = isinstance(data_item__raised, (list, tuple))
                    if data_item__raised_is_list:
                        data_item__raised_len = len(data_item__raised)
                        if data_item__raised_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].raised".format(**locals()) + " must contain less than or equal to 1000 items", value=data_item__raised, name="" + (name_prefix or "data") + "[{data_x}].raised".format(**locals()) + "", rule='maxItems')
                        for data_item__raised_x, data_item__raised_item in enumerate(data_item__raised):
                            if not (isinstance(data_item__raised_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].raised[{data_item__raised_x}]".format(**locals()) + " must be string", value=data_item__raised_item, name="" + (name_prefix or "data") + "[{data_x}].raised[{data_item__raised_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data_item__raised_item, str):
                                data_item__raised_item_len = len(data_item__raised_item)
                                if data_item__raised_item_len > 1000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].raised[{data_item__raised_x}]".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data_item__raised_item, name="" + (name_prefix or "data") + "[{data_x}].raised[{data_item__raised_x}]".format(**locals()) + "", rule='maxLength')
                if "tampered" in data_item_keys:
                    data_item_keys.remove("tampered")
                    data_item__tampered = data_item["tampered"]
                    if not (isinstance(data_item__tampered, str) or data_item__tampered is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].tampered".format(**locals()) + " must be string or null", value=data_item__tampered, name="" + (name_prefix or "data") + "[{data_x}].tampered".format(**locals()) + "", rule='type')
                    if isinstance(data_item__tampered, str):
                        data_item__tampered_len = len(data_item__tampered)
                        if data_item__tampered_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].tampered".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data_item__tampered, name="" + (name_prefix or "data") + "[{data_x}].tampered".format(**locals()) + "", rule='maxLength')
                if data_item_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must not contain "+str(data_item_keys)+" properties", value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='additionalProperties')
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

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_refused_tests(data, custom_formats={}, name_prefix=None):
    if not ((isinstance(data, int) and not isinstance(data, bool))):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be integer", value=data, name="" + (name_prefix or "data") + "", rule='type')
    if isinstance(data, (int, float, Decimal)) and not isinstance(data, bool):
        if data < 0:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be bigger than or equal to 0", value=data, name="" + (name_prefix or "data") + "", rule='minimum')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_refused(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, list)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len > 100000:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain less than or equal to 100000 items", value=data, name="" + (name_prefix or "data") + "", rule='maxItems')
        for data_x, data_item in enumerate(data):
            if not (isinstance(data_item, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be string", value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='type')
            if isinstance(data_item, str):
                data_item_len = len(data_item)
                if data_item_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be shorter than or equal to 100000 characters", value=data_item, name="" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + "", rule='maxLength')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_finished(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['record', 'nodeid', 'cases']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "record" in data_keys:
            data_keys.remove("record")
            data__record = data["record"]
            if not (isinstance(data__record, str) and data__record == 'finished'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".record must be same as const definition: finished", value=data__record, name="" + (name_prefix or "data") + ".record", rule='const')
        if "nodeid" in data_keys:
            data_keys.remove("nodeid")
            data__nodeid = data["nodeid"]
            if not (isinstance(data__nodeid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".nodeid must be string", value=data__nodeid, name="" + (name_prefix or "data") + ".nodeid", rule='type')
            if isinstance(data__nodeid, str):
                data__nodeid_len = len(data__nodeid)
                if data__nodeid_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".nodeid must be shorter than or equal to 100000 characters", value=data__nodeid, name="" + (name_prefix or "data") + ".nodeid", rule='maxLength')
        if "cases" in data_keys:
            data_keys.remove("cases")
            data__cases = data["cases"]
            if not (isinstance(data__cases, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must be array", value=data__cases, name="" + (name_prefix or "data") + ".cases", rule='type')
            data__cases_is_list = isinstance(data__cases, (list, tuple))
            if data__cases_is_list:
                data__cases_len = len(data__cases)
                if data__cases_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must contain less than or equal to 1000 items", value=data__cases, name="" + (name_prefix or "data") + ".cases", rule='maxItems')
                for data__cases_x, data__cases_item in enumerate(data__cases):
                    validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_cases_items(data__cases_item, custom_formats, (name_prefix or "data") + ".cases[{data__cases_x}]".format(**locals()))
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_results_schema_json__properties_cases_items(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['classname', 'name', 'kinds', 'crash', 'hypothesis', 'failure', 'raised', 'tampered']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "classname" in data_keys:
            data_keys.remove("classname")
            data__classname = data["classname"]
            if not (isinstance(data__classname, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".classname must be string", value=data__classname, name="" + (name_prefix or "data") + ".classname", rule='type')
            if isinstance(data__classname, str):
                data__classname_len = len(data__classname)
                if data__classname_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".classname must be shorter than or equal to 100000 characters", value=data__classname, name="" + (name_prefix or "data") + ".classname", rule='maxLength')
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not (isinstance(data__name, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be string", value=data__name, name="" + (name_prefix or "data") + ".name", rule='type')
            if isinstance(data__name, str):
                data__name_len = len(data__name)
                if data__name_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be shorter than or equal to 100000 characters", value=data__name, name="" + (name_prefix or "data") + ".name", rule='maxLength')
        if "kinds" in data_keys:
            data_keys.remove("kinds")
            data__kinds = data["kinds"]
            if not (isinstance(data__kinds, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kinds must be array", value=data__kinds, name="" + (name_prefix or "data") + ".kinds", rule='type')
            data__kinds_is_list = isinstance(data__kinds, (list, tuple))
            if data__kinds_is_list:
                data__kinds_len = len(data__kinds)
                if data__kinds_len > 3:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kinds must contain less than or equal to 3 items", value=data__kinds, name="" + (name_prefix or "data") + ".kinds", rule='maxItems')
                for data__kinds_x, data__kinds_item in enumerate(data__kinds):
                    if not (isinstance(data__kinds_item, str) and data__kinds_item == 'failure' or isinstance(data__kinds_item, str) and data__kinds_item == 'error' or isinstance(data__kinds_item, str) and data__kinds_item == 'skipped'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".kinds[{data__kinds_x}]".format(**locals()) + " must be one of ['failure', 'error', 'skipped']", value=data__kinds_item, name="" + (name_prefix or "data") + ".kinds[{data__kinds_x}]".format(**locals()) + "", rule='enum')
        if "crash" in data_keys:
            data_keys.remove("crash")
            data__crash = data["crash"]
            if not (isinstance(data__crash, str) or data__crash is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".crash must be string or null", value=data__crash, name="" + (name_prefix or "data") + ".crash", rule='type')
            if isinstance(data__crash, str):
                data__crash_len = len(data__crash)
                if data__crash_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".crash must be shorter than or equal to 1000 characters", value=data__crash, name="" + (name_prefix or "data") + ".crash", rule='maxLength')
        if "hypothesis" in data_keys:
            data_keys.remove("hypothesis")
            data__hypothesis = data["hypothesis"]
            data__hypothesis_any_of_count6 = 0
            if not data__hypothesis_any_of_count6:
                try:
                    if not (data__hypothesis is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis must be null", value=data__hypothesis, name="" + (name_prefix or "data") + ".hypothesis", rule='type')
                    data__hypothesis_any_of_count6 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__hypothesis_any_of_count6:
                try:
                    validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data__hypothesis, custom_formats, (name_prefix or "data") + ".hypothesis")
                    data__hypothesis_any_of_count6 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__hypothesis_any_of_count6:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hypothesis cannot be validated by any definition", value=data__hypothesis, name="" + (name_prefix or "data") + ".hypothesis", rule='anyOf')
        if "failure" in data_keys:
            data_keys.remove("failure")
            data__failure = data["failure"]
            data__failure_any_of_count7 = 0
            if not data__failure_any_of_count7:
                try:
                    if not (data__failure is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure must be null", value=data__failure, name="" + (name_prefix or "data") + ".failure", rule='type')
                    data__failure_any_of_count7 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__failure_any_of_count7:
                try:
                    if not (isinstance(data__failure, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure must be object", value=data__failure, name="" + (name_prefix or "data") + ".failure", rule='type')
                    data__failure_is_dict = isinstance(data__failure, dict)
                    if data__failure_is_dict:
                        data__failure__missing_keys = set(['type', 'message', 'example', 'reproduce']) - data__failure.keys()
                        if data__failure__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure must contain " + (str(sorted(data__failure__missing_keys)) + " properties"), value=data__failure, name="" + (name_prefix or "data") + ".failure", rule='required')
                        data__failure_keys = set(data__failure.keys())
                        if "type" in data__failure_keys:
                            data__failure_keys.remove("type")
                            data__failure__type = data__failure["type"]
                            if not (isinstance(data__failure__type, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.type must be string", value=data__failure__type, name="" + (name_prefix or "data") + ".failure.type", rule='type')
                            if isinstance(data__failure__type, str):
                                data__failure__type_len = len(data__failure__type)
                                if data__failure__type_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.type must be shorter than or equal to 100000 characters", value=data__failure__type, name="" + (name_prefix or "data") + ".failure.type", rule='maxLength')
                        if "message" in data__failure_keys:
                            data__failure_keys.remove("message")
                            data__failure__message = data__failure["message"]
                            if not (isinstance(data__failure__message, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.message must be string", value=data__failure__message, name="" + (name_prefix or "data") + ".failure.message", rule='type')
                            if isinstance(data__failure__message, str):
                                data__failure__message_len = len(data__failure__message)
                                if data__failure__message_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.message must be shorter than or equal to 100000 characters", value=data__failure__message, name="" + (name_prefix or "data") + ".failure.message", rule='maxLength')
                        if "example" in data__failure_keys:
                            data__failure_keys.remove("example")
                            data__failure__example = data__failure["example"]
                            if not (isinstance(data__failure__example, str) or data__failure__example is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.example must be string or null", value=data__failure__example, name="" + (name_prefix or "data") + ".failure.example", rule='type')
                            if isinstance(data__failure__example, str):
                                data__failure__example_len = len(data__failure__example)
                                if data__failure__example_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.example must be shorter than or equal to 100000 characters", value=data__failure__example, name="" + (name_prefix or "data") + ".failure.example", rule='maxLength')
                        if "reproduce" in data__failure_keys:
                            data__failure_keys.remove("reproduce")
                            data__failure__reproduce = data__failure["reproduce"]
                            if not (isinstance(data__failure__reproduce, str) or data__failure__reproduce is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.reproduce must be string or null", value=data__failure__reproduce, name="" + (name_prefix or "data") + ".failure.reproduce", rule='type')
                            if isinstance(data__failure__reproduce, str):
                                data__failure__reproduce_len = len(data__failure__reproduce)
                                if data__failure__reproduce_len > 100000:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure.reproduce must be shorter than or equal to 100000 characters", value=data__failure__reproduce, name="" + (name_prefix or "data") + ".failure.reproduce", rule='maxLength')
                        if data__failure_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure must not contain "+str(data__failure_keys)+" properties", value=data__failure, name="" + (name_prefix or "data") + ".failure", rule='additionalProperties')
                    data__failure_any_of_count7 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__failure_any_of_count7:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure cannot be validated by any definition", value=data__failure, name="" + (name_prefix or "data") + ".failure", rule='anyOf')
        if "raised" in data_keys:
            data_keys.remove("raised")
            data__raised = data["raised"]
            if not (isinstance(data__raised, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".raised must be array", value=data__raised, name="" + (name_prefix or "data") + ".raised", rule='type')
            data__raised_is_list = isinstance(data__raised, (list, tuple))
            if data__raised_is_list:
                data__raised_len = len(data__raised)
                if data__raised_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".raised must contain less than or equal to 1000 items", value=data__raised, name="" + (name_prefix or "data") + ".raised", rule='maxItems')
                for data__raised_x, data__raised_item in enumerate(data__raised):
                    if not (isinstance(data__raised_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".raised[{data__raised_x}]".format(**locals()) + " must be string", value=data__raised_item, name="" + (name_prefix or "data") + ".raised[{data__raised_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__raised_item, str):
                        data__raised_item_len = len(data__raised_item)
                        if data__raised_item_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".raised[{data__raised_x}]".format(**locals()) + " must be shorter than or equal to 1000 characters", value=data__raised_item, name="" + (name_prefix or "data") + ".raised[{data__raised_x}]".format(**locals()) + "", rule='maxLength')
        if "tampered" in data_keys:
            data_keys.remove("tampered")
            data__tampered = data["tampered"]
            if not (isinstance(data__tampered, str) or data__tampered is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".tampered must be string or null", value=data__tampered, name="" + (name_prefix or "data") + ".tampered", rule='type')
            if isinstance(data__tampered, str):
                data__tampered_len = len(data__tampered)
                if data__tampered_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".tampered must be shorter than or equal to 1000 characters", value=data__tampered, name="" + (name_prefix or "data") + ".tampered", rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_started(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['record', 'nodeid']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "record" in data_keys:
            data_keys.remove("record")
            data__record = data["record"]
            if not (isinstance(data__record, str) and data__record == 'started'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".record must be same as const definition: started", value=data__record, name="" + (name_prefix or "data") + ".record", rule='const')
        if "nodeid" in data_keys:
            data_keys.remove("nodeid")
            data__nodeid = data["nodeid"]
            if not (isinstance(data__nodeid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".nodeid must be string", value=data__nodeid, name="" + (name_prefix or "data") + ".nodeid", rule='type')
            if isinstance(data__nodeid, str):
                data__nodeid_len = len(data__nodeid)
                if data__nodeid_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".nodeid must be shorter than or equal to 100000 characters", value=data__nodeid, name="" + (name_prefix or "data") + ".nodeid", rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json___defs_begin(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['record', 'schema', 'pid', 'gate_version', 'pytest_version', 'hypothesis_version']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "record" in data_keys:
            data_keys.remove("record")
            data__record = data["record"]
            if not (isinstance(data__record, str) and data__record == 'begin'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".record must be same as const definition: begin", value=data__record, name="" + (name_prefix or "data") + ".record", rule='const')
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'gate-recorder-results/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: gate-recorder-results/v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", rule='const')
        if "pid" in data_keys:
            data_keys.remove("pid")
            data__pid = data["pid"]
            if not ((isinstance(data__pid, int) and not isinstance(data__pid, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".pid must be integer", value=data__pid, name="" + (name_prefix or "data") + ".pid", rule='type')
            if isinstance(data__pid, (int, float, Decimal)) and not isinstance(data__pid, bool):
                if data__pid < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".pid must be bigger than or equal to 1", value=data__pid, name="" + (name_prefix or "data") + ".pid", rule='minimum')
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
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_recorder_record_schema_json
