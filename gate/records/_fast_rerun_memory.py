"""Generated from schemas/rerun-memory.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('rerun-memory', 'stamp', 'rerun-memory-statement')
SCHEMA_SHA256 = "7aaccc4545eb0adbdcb2476f5173a7f4b2356fbadf31e2c5e9ccb15b8ea81857"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[0-9]{1,20}$': re.compile('^[0-9]{1,20}\\Z'),
    '^[0-9a-f]{40}$': re.compile('^[0-9a-f]{40}\\Z'),
    '^[A-Za-z0-9_-]{1,100}$': re.compile('^[A-Za-z0-9_-]{1,100}\\Z'),
    '^[A-Za-z0-9._:-]{1,64}$': re.compile('^[A-Za-z0-9._:-]{1,64}\\Z'),
    '^[A-Za-z0-9+/]{85}[AQgw]==$': re.compile('^[A-Za-z0-9+/]{85}[AQgw]==\\Z'),
    '^[0-9a-f]{32}$': re.compile('^[0-9a-f]{32}\\Z'),
    '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$': re.compile('^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_rerun_memory_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'workflow_run_id', 'attempt', 'head_sha', 'decided', 'truncated', 'reds']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'gate-rerun-memory/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: gate-rerun-memory/v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", rule='const')
        if "workflow_run_id" in data_keys:
            data_keys.remove("workflow_run_id")
            data__workflowrunid = data["workflow_run_id"]
            if not (isinstance(data__workflowrunid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".workflow_run_id must be string", value=data__workflowrunid, name="" + (name_prefix or "data") + ".workflow_run_id", rule='type')
            if isinstance(data__workflowrunid, str):
                if not REGEX_PATTERNS['^[0-9]{1,20}$'].search(data__workflowrunid):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".workflow_run_id must match pattern ^[0-9]{1,20}$", value=data__workflowrunid, name="" + (name_prefix or "data") + ".workflow_run_id", rule='pattern')
        if "attempt" in data_keys:
            data_keys.remove("attempt")
            data__attempt = data["attempt"]
            if not ((isinstance(data__attempt, int) and not isinstance(data__attempt, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".attempt must be integer", value=data__attempt, name="" + (name_prefix or "data") + ".attempt", rule='type')
            if isinstance(data__attempt, (int, float, Decimal)) and not isinstance(data__attempt, bool):
                if data__attempt < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".attempt must be bigger than or equal to 1", value=data__attempt, name="" + (name_prefix or "data") + ".attempt", rule='minimum')
        if "head_sha" in data_keys:
            data_keys.remove("head_sha")
            data__headsha = data["head_sha"]
            if not (isinstance(data__headsha, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".head_sha must be string", value=data__headsha, name="" + (name_prefix or "data") + ".head_sha", rule='type')
            if isinstance(data__headsha, str):
                if not REGEX_PATTERNS['^[0-9a-f]{40}$'].search(data__headsha):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".head_sha must match pattern ^[0-9a-f]{40}$", value=data__headsha, name="" + (name_prefix or "data") + ".head_sha", rule='pattern')
        if "decided" in data_keys:
            data_keys.remove("decided")
            data__decided = data["decided"]
            if not (isinstance(data__decided, bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".decided must be boolean", value=data__decided, name="" + (name_prefix or "data") + ".decided", rule='type')
        if "truncated" in data_keys:
            data_keys.remove("truncated")
            data__truncated = data["truncated"]
            if not (isinstance(data__truncated, bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".truncated must be boolean", value=data__truncated, name="" + (name_prefix or "data") + ".truncated", rule='type')
        if "job" in data_keys:
            data_keys.remove("job")
            data__job = data["job"]
            if not (isinstance(data__job, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".job must be string", value=data__job, name="" + (name_prefix or "data") + ".job", rule='type')
            if isinstance(data__job, str):
                if not REGEX_PATTERNS['^[A-Za-z0-9_-]{1,100}$'].search(data__job):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".job must match pattern ^[A-Za-z0-9_-]{1,100}$", value=data__job, name="" + (name_prefix or "data") + ".job", rule='pattern')
        if "signature" in data_keys:
            data_keys.remove("signature")
            data__signature = data["signature"]
            data__signature_one_of_count1 = 0
            if data__signature_one_of_count1 < 2:
                try:
                    if not (isinstance(data__signature, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must be object", value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='type')
                    data__signature_is_dict = isinstance(data__signature, dict)
                    if data__signature_is_dict:
                        data__signature__missing_keys = set(['keyid', 'sig']) - data__signature.keys()
                        if data__signature__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must contain " + (str(sorted(data__signature__missing_keys)) + " properties"), value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='required')
                        data__signature_keys = set(data__signature.keys())
                        if "keyid" in data__signature_keys:
                            data__signature_keys.remove("keyid")
                            data__signature__keyid = data__signature["keyid"]
                            if not (isinstance(data__signature__keyid, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.keyid must be string", value=data__signature__keyid, name="" + (name_prefix or "data") + ".signature.keyid", rule='type')
                            if isinstance(data__signature__keyid, str):
                                if not REGEX_PATTERNS['^[A-Za-z0-9._:-]{1,64}$'].search(data__signature__keyid):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.keyid must match pattern ^[A-Za-z0-9._:-]{1,64}$", value=data__signature__keyid, name="" + (name_prefix or "data") + ".signature.keyid", rule='pattern')
                        if "sig" in data__signature_keys:
                            data__signature_keys.remove("sig")
                            data__signature__sig = data__signature["sig"]
                            if not (isinstance(data__signature__sig, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.sig must be string", value=data__signature__sig, name="" + (name_prefix or "data") + ".signature.sig", rule='type')
                            if isinstance(data__signature__sig, str):
                                if not REGEX_PATTERNS['^[A-Za-z0-9+/]{85}[AQgw]==$'].search(data__signature__sig):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.sig must match pattern ^[A-Za-z0-9+/]{85}[AQgw]==$", value=data__signature__sig, name="" + (name_prefix or "data") + ".signature.sig", rule='pattern')
                        if data__signature_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must not contain "+str(data__signature_keys)+" properties", value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='additionalProperties')
                    data__signature_one_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__signature_one_of_count1 < 2:
                try:
                    if not (isinstance(data__signature, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must be object", value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='type')
                    data__signature_is_dict = isinstance(data__signature, dict)
                    if data__signature_is_dict:
                        data__signature__missing_keys = set(['bundle']) - data__signature.keys()
                        if data__signature__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must contain " + (str(sorted(data__signature__missing_keys)) + " properties"), value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='required')
                        data__signature_keys = set(data__signature.keys())
                        if "bundle" in data__signature_keys:
                            data__signature_keys.remove("bundle")
                            data__signature__bundle = data__signature["bundle"]
                            if not (isinstance(data__signature__bundle, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.bundle must be object", value=data__signature__bundle, name="" + (name_prefix or "data") + ".signature.bundle", rule='type')
                            data__signature__bundle_is_dict = isinstance(data__signature__bundle, dict)
                            if data__signature__bundle_is_dict:
                                data__signature__bundle__missing_keys = set(['mediaType', 'verificationMaterial', 'dsseEnvelope']) - data__signature__bundle.keys()
                                if data__signature__bundle__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.bundle must contain " + (str(sorted(data__signature__bundle__missing_keys)) + " properties"), value=data__signature__bundle, name="" + (name_prefix or "data") + ".signature.bundle", rule='required')
                                data__signature__bundle_keys = set(data__signature__bundle.keys())
                                if "mediaType" in data__signature__bundle_keys:
                                    data__signature__bundle_keys.remove("mediaType")
                                    data__signature__bundle__mediaType = data__signature__bundle["mediaType"]
                                    if not (isinstance(data__signature__bundle__mediaType, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.bundle.mediaType must be string", value=data__signature__bundle__mediaType, name="" + (name_prefix or "data") + ".signature.bundle.mediaType", rule='type')
                                    if isinstance(data__signature__bundle__mediaType, str):
                                        data__signature__bundle__mediaType_len = len(data__signature__bundle__mediaType)
                                        if data__signature__bundle__mediaType_len > 200:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.bundle.mediaType must be shorter than or equal to 200 characters", value=data__signature__bundle__mediaType, name="" + (name_prefix or "data") + ".signature.bundle.mediaType", rule='maxLength')
                                if "verificationMaterial" in data__signature__bundle_keys:
                                    data__signature__bundle_keys.remove("verificationMaterial")
                                    data__signature__bundle__verificationMaterial = data__signature__bundle["verificationMaterial"]
                                    if not (isinstance(data__signature__bundle__verificationMaterial, dict)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.bundle.verificationMaterial must be object", value=data__signature__bundle__verificationMaterial, name="" + (name_prefix or "data") + ".signature.bundle.verificationMaterial", rule='type')
                                if "dsseEnvelope" in data__signature__bundle_keys:
                                    data__signature__bundle_keys.remove("dsseEnvelope")
                                    data__signature__bundle__dsseEnvelope = data__signature__bundle["dsseEnvelope"]
                                    if not (isinstance(data__signature__bundle__dsseEnvelope, dict)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature.bundle.dsseEnvelope must be object", value=data__signature__bundle__dsseEnvelope, name="" + (name_prefix or "data") + ".signature.bundle.dsseEnvelope", rule='type')
                        if data__signature_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must not contain "+str(data__signature_keys)+" properties", value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='additionalProperties')
                    data__signature_one_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__signature_one_of_count1 != 1:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signature must be valid exactly by one definition" + (" (" + str(data__signature_one_of_count1) + " matches found)"), value=data__signature, name="" + (name_prefix or "data") + ".signature", rule='oneOf')
        if "reds" in data_keys:
            data_keys.remove("reds")
            data__reds = data["reds"]
            if not (isinstance(data__reds, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds must be array", value=data__reds, name="" + (name_prefix or "data") + ".reds", rule='type')
            data__reds_is_list = isinstance(data__reds, (list, tuple))
            if data__reds_is_list:
                data__reds_len = len(data__reds)
                if data__reds_len > 5000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds must contain less than or equal to 5000 items", value=data__reds, name="" + (name_prefix or "data") + ".reds", rule='maxItems')
                for data__reds_x, data__reds_item in enumerate(data__reds):
                    if not (isinstance(data__reds_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds[{data__reds_x}]".format(**locals()) + " must be object", value=data__reds_item, name="" + (name_prefix or "data") + ".reds[{data__reds_x}]".format(**locals()) + "", rule='type')
                    data__reds_item_is_dict = isinstance(data__reds_item, dict)
                    if data__reds_item_is_dict:
                        data__reds_item__missing_keys = set(['test_id', 'server_class', 'run_id', 'result']) - data__reds_item.keys()
                        if data__reds_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds[{data__reds_x}]".format(**locals()) + " must contain " + (str(sorted(data__reds_item__missing_keys)) + " properties"), value=data__reds_item, name="" + (name_prefix or "data") + ".reds[{data__reds_x}]".format(**locals()) + "", rule='required')
                        data__reds_item_keys = set(data__reds_item.keys())
                        if "test_id" in data__reds_item_keys:
                            data__reds_item_keys.remove("test_id")
                            data__reds_item__testid = data__reds_item["test_id"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_test_id(data__reds_item__testid, custom_formats, (name_prefix or "data") + ".reds[{data__reds_x}].test_id".format(**locals()))
                        if "server_class" in data__reds_item_keys:
                            data__reds_item_keys.remove("server_class")
                            data__reds_item__serverclass = data__reds_item["server_class"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_server_class(data__reds_item__serverclass, custom_formats, (name_prefix or "data") + ".reds[{data__reds_x}].server_class".format(**locals()))
                        if "run_id" in data__reds_item_keys:
                            data__reds_item_keys.remove("run_id")
                            data__reds_item__runid = data__reds_item["run_id"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_run_id(data__reds_item__runid, custom_formats, (name_prefix or "data") + ".reds[{data__reds_x}].run_id".format(**locals()))
                        if "result" in data__reds_item_keys:
                            data__reds_item_keys.remove("result")
                            data__reds_item__result = data__reds_item["result"]
                            if not (isinstance(data__reds_item__result, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds[{data__reds_x}].result".format(**locals()) + " must be string", value=data__reds_item__result, name="" + (name_prefix or "data") + ".reds[{data__reds_x}].result".format(**locals()) + "", rule='type')
                            if isinstance(data__reds_item__result, str):
                                if not REGEX_PATTERNS['^[0-9a-f]{32}$'].search(data__reds_item__result):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds[{data__reds_x}].result".format(**locals()) + " must match pattern ^[0-9a-f]{32}$", value=data__reds_item__result, name="" + (name_prefix or "data") + ".reds[{data__reds_x}].result".format(**locals()) + "", rule='pattern')
                        if data__reds_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".reds[{data__reds_x}]".format(**locals()) + " must not contain "+str(data__reds_item_keys)+" properties", value=data__reds_item, name="" + (name_prefix or "data") + ".reds[{data__reds_x}]".format(**locals()) + "", rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_run_id(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", value=data, name="" + (name_prefix or "data") + "", rule='pattern')
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_server_class(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'local-pinned' or isinstance(data, str) and data == 'free-server'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['local-pinned', 'free-server']", value=data, name="" + (name_prefix or "data") + "", rule='enum')
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_test_id(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", rule='minLength')
        if data_len > 512:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 512 characters", value=data, name="" + (name_prefix or "data") + "", rule='maxLength')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_rerun_memory_schema_json
