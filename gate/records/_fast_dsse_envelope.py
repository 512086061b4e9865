"""Generated from schemas/dsse-envelope.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('dsse-envelope', 'stamp-set')
SCHEMA_SHA256 = "07b8bdfdce3e08a8a0112142460b0046fd576163c627ca8156daa5595576da79"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[A-Za-z0-9+/]*={0,2}$': re.compile('^[A-Za-z0-9+/]*={0,2}\\Z'),
    '^[A-Za-z0-9._:-]{1,64}$': re.compile('^[A-Za-z0-9._:-]{1,64}\\Z'),
    '^[A-Za-z0-9+/]{85}[AQgw]==$': re.compile('^[A-Za-z0-9+/]{85}[AQgw]==\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_dsse_envelope_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['payloadType', 'payload', 'signatures']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "payloadType" in data_keys:
            data_keys.remove("payloadType")
            data__payloadType = data["payloadType"]
            if not (isinstance(data__payloadType, str) and data__payloadType == 'application/vnd.in-toto+json'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".payloadType must be same as const definition: application/vnd.in-toto+json", value=data__payloadType, name="" + (name_prefix or "data") + ".payloadType", rule='const')
        if "payload" in data_keys:
            data_keys.remove("payload")
            data__payload = data["payload"]
            if not (isinstance(data__payload, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".payload must be string", value=data__payload, name="" + (name_prefix or "data") + ".payload", rule='type')
            if isinstance(data__payload, str):
                data__payload_len = len(data__payload)
                if data__payload_len < 4:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".payload must be longer than or equal to 4 characters", value=data__payload, name="" + (name_prefix or "data") + ".payload", rule='minLength')
                if data__payload_len > 16000000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".payload must be shorter than or equal to 16000000 characters", value=data__payload, name="" + (name_prefix or "data") + ".payload", rule='maxLength')
                if not REGEX_PATTERNS['^[A-Za-z0-9+/]*={0,2}$'].search(data__payload):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".payload must match pattern ^[A-Za-z0-9+/]*={0,2}$", value=data__payload, name="" + (name_prefix or "data") + ".payload", rule='pattern')
        if "signatures" in data_keys:
            data_keys.remove("signatures")
            data__signatures = data["signatures"]
            if not (isinstance(data__signatures, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures must be array", value=data__signatures, name="" + (name_prefix or "data") + ".signatures", rule='type')
            data__signatures_is_list = isinstance(data__signatures, (list, tuple))
            if data__signatures_is_list:
                data__signatures_len = len(data__signatures)
                if data__signatures_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures must contain at least 1 items", value=data__signatures, name="" + (name_prefix or "data") + ".signatures", rule='minItems')
                if data__signatures_len > 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures must contain less than or equal to 1 items", value=data__signatures, name="" + (name_prefix or "data") + ".signatures", rule='maxItems')
                for data__signatures_x, data__signatures_item in enumerate(data__signatures):
                    if not (isinstance(data__signatures_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}]".format(**locals()) + " must be object", value=data__signatures_item, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}]".format(**locals()) + "", rule='type')
                    data__signatures_item_is_dict = isinstance(data__signatures_item, dict)
                    if data__signatures_item_is_dict:
                        data__signatures_item__missing_keys = set(['keyid', 'sig']) - data__signatures_item.keys()
                        if data__signatures_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}]".format(**locals()) + " must contain " + (str(sorted(data__signatures_item__missing_keys)) + " properties"), value=data__signatures_item, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}]".format(**locals()) + "", rule='required')
                        data__signatures_item_keys = set(data__signatures_item.keys())
                        if "keyid" in data__signatures_item_keys:
                            data__signatures_item_keys.remove("keyid")
                            data__signatures_item__keyid = data__signatures_item["keyid"]
                            if not (isinstance(data__signatures_item__keyid, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}].keyid".format(**locals()) + " must be string", value=data__signatures_item__keyid, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}].keyid".format(**locals()) + "", rule='type')
                            if isinstance(data__signatures_item__keyid, str):
                                if not REGEX_PATTERNS['^[A-Za-z0-9._:-]{1,64}$'].search(data__signatures_item__keyid):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}].keyid".format(**locals()) + " must match pattern ^[A-Za-z0-9._:-]{1,64}$", value=data__signatures_item__keyid, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}].keyid".format(**locals()) + "", rule='pattern')
                        if "sig" in data__signatures_item_keys:
                            data__signatures_item_keys.remove("sig")
                            data__signatures_item__sig = data__signatures_item["sig"]
                            if not (isinstance(data__signatures_item__sig, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}].sig".format(**locals()) + " must be string", value=data__signatures_item__sig, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}].sig".format(**locals()) + "", rule='type')
                            if isinstance(data__signatures_item__sig, str):
                                if not REGEX_PATTERNS['^[A-Za-z0-9+/]{85}[AQgw]==$'].search(data__signatures_item__sig):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}].sig".format(**locals()) + " must match pattern ^[A-Za-z0-9+/]{85}[AQgw]==$", value=data__signatures_item__sig, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}].sig".format(**locals()) + "", rule='pattern')
                        if data__signatures_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signatures[{data__signatures_x}]".format(**locals()) + " must not contain "+str(data__signatures_item_keys)+" properties", value=data__signatures_item, name="" + (name_prefix or "data") + ".signatures[{data__signatures_x}]".format(**locals()) + "", rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_dsse_envelope_schema_json
