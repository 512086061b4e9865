"""Generated from schemas/sample-card.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('sample-card',)
SCHEMA_SHA256 = "4002cc1645c52c215b76c605b7fc78c0aca85f08bcdb00414a6c589416f06442"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_sample_card_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['property', 'cases', 'seed']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain ")
        data_keys = set(data.keys())
        if "property" in data_keys:
            data_keys.remove("property")
            data__property = data["property"]
            if not (isinstance(data__property, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".property must be string")
            if isinstance(data__property, str):
                data__property_len = len(data__property)
                if data__property_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".property must be longer than or equal to 1 characters")
                if data__property_len > 256:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".property must be shorter than or equal to 256 characters")
        if "cases" in data_keys:
            data_keys.remove("cases")
            data__cases = data["cases"]
            if not ((isinstance(data__cases, int) and not isinstance(data__cases, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must be integer")
            if isinstance(data__cases, (int, float, Decimal)) and not isinstance(data__cases, bool):
                if data__cases < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".cases must be bigger than or equal to 1")
        if "seed" in data_keys:
            data_keys.remove("seed")
            data__seed = data["seed"]
            if not ((isinstance(data__seed, int) and not isinstance(data__seed, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".seed must be integer")
        if "freeze_expires_at" in data_keys:
            data_keys.remove("freeze_expires_at")
            data__freezeexpiresat = data["freeze_expires_at"]
            if not ((isinstance(data__freezeexpiresat, int) and not isinstance(data__freezeexpiresat, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_expires_at must be integer")
            if isinstance(data__freezeexpiresat, (int, float, Decimal)) and not isinstance(data__freezeexpiresat, bool):
                if data__freezeexpiresat < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_expires_at must be bigger than or equal to 0")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not (isinstance(data__description, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string")
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 4096:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 4096 characters")
        if "deadline_ms" in data_keys:
            data_keys.remove("deadline_ms")
            data__deadlinems = data["deadline_ms"]
            if not ((isinstance(data__deadlinems, int) and not isinstance(data__deadlinems, bool)) or data__deadlinems is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be integer or null")
            if isinstance(data__deadlinems, (int, float, Decimal)) and not isinstance(data__deadlinems, bool):
                if data__deadlinems < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be bigger than or equal to 1")
        if "suppress_health_check" in data_keys:
            data_keys.remove("suppress_health_check")
            data__suppresshealthcheck = data["suppress_health_check"]
            if not (isinstance(data__suppresshealthcheck, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check must be array")
            data__suppresshealthcheck_is_list = isinstance(data__suppresshealthcheck, (list, tuple))
            if data__suppresshealthcheck_is_list:
                data__suppresshealthcheck_len = len(data__suppresshealthcheck)
                if data__suppresshealthcheck_len > 16:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check must contain less than or equal to 16 items")
                for data__suppresshealthcheck_x, data__suppresshealthcheck_item in enumerate(data__suppresshealthcheck):
                    if not (isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'data_too_large' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'filter_too_much' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'too_slow' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'large_base_example' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'function_scoped_fixture' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'differing_executors' or isinstance(data__suppresshealthcheck_item, str) and data__suppresshealthcheck_item == 'nested_given'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + " must be one of ['data_too_large', 'filter_too_much', 'too_slow', 'large_base_example', 'function_scoped_fixture', 'differing_executors', 'nested_given']")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_sample_card_schema_json
