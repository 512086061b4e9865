"""Generated from schemas/ledger-entry.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('ledger-entry', 'binding')
SCHEMA_SHA256 = "b665f4d31906ec5194534ca4c00d2ae00596a446d4c3509c0f69bd9fcff7a2a3"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[0-9a-f]{64}$': re.compile('^[0-9a-f]{64}\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_ledger_entry_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['binding']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
                data_keys = set(data.keys())
                if "kind" in data_keys:
                    data_keys.remove("kind")
                    data__kind = data["kind"]
                    if not (isinstance(data__kind, str) and data__kind == 'bind'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: bind", value=data__kind, name="" + (name_prefix or "data") + ".kind", rule='const')
                if "binding" in data_keys:
                    data_keys.remove("binding")
                    data__binding = data["binding"]
                    validate_https___agent_patch_gate_invalid_schemas_binding_schema_json(data__binding, custom_formats, (name_prefix or "data") + ".binding")
            if data_is_dict and not data.keys() <= {'at', 'binding', 'hash', 'kind', 'prev', 'seq', 'v'}:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be named by propertyName definition", value=data, name="" + (name_prefix or "data") + "", rule='propertyNames')
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['attempt_id', 'binding', 'issued_generation', 'decision', 'row', 'reason', 'target_class']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
                data_keys = set(data.keys())
                if "kind" in data_keys:
                    data_keys.remove("kind")
                    data__kind = data["kind"]
                    if not (isinstance(data__kind, str) and data__kind == 'decision' or isinstance(data__kind, str) and data__kind == 'conflict'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['decision', 'conflict']", value=data__kind, name="" + (name_prefix or "data") + ".kind", rule='enum')
                if "attempt_id" in data_keys:
                    data_keys.remove("attempt_id")
                    data__attemptid = data["attempt_id"]
                    if not (isinstance(data__attemptid, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".attempt_id must be string", value=data__attemptid, name="" + (name_prefix or "data") + ".attempt_id", rule='type')
                    if isinstance(data__attemptid, str):
                        data__attemptid_len = len(data__attemptid)
                        if data__attemptid_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".attempt_id must be longer than or equal to 1 characters", value=data__attemptid, name="" + (name_prefix or "data") + ".attempt_id", rule='minLength')
                        if data__attemptid_len > 256:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".attempt_id must be shorter than or equal to 256 characters", value=data__attemptid, name="" + (name_prefix or "data") + ".attempt_id", rule='maxLength')
                if "binding" in data_keys:
                    data_keys.remove("binding")
                    data__binding = data["binding"]
                    validate_https___agent_patch_gate_invalid_schemas_binding_schema_json(data__binding, custom_formats, (name_prefix or "data") + ".binding")
                if "issued_generation" in data_keys:
                    data_keys.remove("issued_generation")
                    data__issuedgeneration = data["issued_generation"]
                    if not ((isinstance(data__issuedgeneration, int) and not isinstance(data__issuedgeneration, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".issued_generation must be integer", value=data__issuedgeneration, name="" + (name_prefix or "data") + ".issued_generation", rule='type')
                if "decision" in data_keys:
                    data_keys.remove("decision")
                    data__decision = data["decision"]
                    if not (isinstance(data__decision, str) and data__decision == 'allow' or isinstance(data__decision, str) and data__decision == 'halt' or isinstance(data__decision, str) and data__decision == 'reject'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".decision must be one of ['allow', 'halt', 'reject']", value=data__decision, name="" + (name_prefix or "data") + ".decision", rule='enum')
                if "row" in data_keys:
                    data_keys.remove("row")
                    data__row = data["row"]
                    if not ((isinstance(data__row, int) and not isinstance(data__row, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".row must be integer", value=data__row, name="" + (name_prefix or "data") + ".row", rule='type')
                    if isinstance(data__row, (int, float, Decimal)) and not isinstance(data__row, bool):
                        if data__row < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".row must be bigger than or equal to 0", value=data__row, name="" + (name_prefix or "data") + ".row", rule='minimum')
                        if data__row > 4:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".row must be smaller than or equal to 4", value=data__row, name="" + (name_prefix or "data") + ".row", rule='maximum')
                if "reason" in data_keys:
                    data_keys.remove("reason")
                    data__reason = data["reason"]
                    if not (isinstance(data__reason, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".reason must be string", value=data__reason, name="" + (name_prefix or "data") + ".reason", rule='type')
                    if isinstance(data__reason, str):
                        data__reason_len = len(data__reason)
                        if data__reason_len > 1024:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".reason must be shorter than or equal to 1024 characters", value=data__reason, name="" + (name_prefix or "data") + ".reason", rule='maxLength')
                if "target_class" in data_keys:
                    data_keys.remove("target_class")
                    data__targetclass = data["target_class"]
                    if not (isinstance(data__targetclass, str) and data__targetclass == 'fixture' or isinstance(data__targetclass, str) and data__targetclass == 'live' or isinstance(data__targetclass, str) and data__targetclass == 'unknown'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".target_class must be one of ['fixture', 'live', 'unknown']", value=data__targetclass, name="" + (name_prefix or "data") + ".target_class", rule='enum')
                if "expected" in data_keys:
                    data_keys.remove("expected")
                    data__expected = data["expected"]
                    if not (isinstance(data__expected, str) and data__expected == 'allow' or isinstance(data__expected, str) and data__expected == 'halt' or isinstance(data__expected, str) and data__expected == 'reject' or data__expected is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expected must be one of ['allow', 'halt', 'reject', None]", value=data__expected, name="" + (name_prefix or "data") + ".expected", rule='enum')
            if data_is_dict and not data.keys() <= {'at', 'attempt_id', 'binding', 'decision', 'expected', 'hash', 'issued_generation', 'kind', 'prev', 'reason', 'row', 'seq', 'target_class', 'v'}:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be named by propertyName definition", value=data, name="" + (name_prefix or "data") + "", rule='propertyNames')
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count1) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", rule='oneOf')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['v', 'seq', 'prev', 'kind', 'at', 'hash']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "v" in data_keys:
            data_keys.remove("v")
            data__v = data["v"]
            if not (isinstance(data__v, (int, float)) and not isinstance(data__v, bool) and data__v == 1):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".v must be same as const definition: 1", value=data__v, name="" + (name_prefix or "data") + ".v", rule='const')
        if "seq" in data_keys:
            data_keys.remove("seq")
            data__seq = data["seq"]
            if not ((isinstance(data__seq, int) and not isinstance(data__seq, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".seq must be integer", value=data__seq, name="" + (name_prefix or "data") + ".seq", rule='type')
            if isinstance(data__seq, (int, float, Decimal)) and not isinstance(data__seq, bool):
                if data__seq < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".seq must be bigger than or equal to 1", value=data__seq, name="" + (name_prefix or "data") + ".seq", rule='minimum')
        if "prev" in data_keys:
            data_keys.remove("prev")
            data__prev = data["prev"]
            if not (isinstance(data__prev, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".prev must be string", value=data__prev, name="" + (name_prefix or "data") + ".prev", rule='type')
            if isinstance(data__prev, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__prev):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".prev must match pattern ^[0-9a-f]{64}$", value=data__prev, name="" + (name_prefix or "data") + ".prev", rule='pattern')
        if "hash" in data_keys:
            data_keys.remove("hash")
            data__hash = data["hash"]
            if not (isinstance(data__hash, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hash must be string", value=data__hash, name="" + (name_prefix or "data") + ".hash", rule='type')
            if isinstance(data__hash, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__hash):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".hash must match pattern ^[0-9a-f]{64}$", value=data__hash, name="" + (name_prefix or "data") + ".hash", rule='pattern')
        if "at" in data_keys:
            data_keys.remove("at")
            data__at = data["at"]
            if not ((isinstance(data__at, int) and not isinstance(data__at, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".at must be integer", value=data__at, name="" + (name_prefix or "data") + ".at", rule='type')
            if isinstance(data__at, (int, float, Decimal)) and not isinstance(data__at, bool):
                if data__at < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".at must be bigger than or equal to 0", value=data__at, name="" + (name_prefix or "data") + ".at", rule='minimum')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'bind' or isinstance(data__kind, str) and data__kind == 'decision' or isinstance(data__kind, str) and data__kind == 'conflict'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['bind', 'decision', 'conflict']", value=data__kind, name="" + (name_prefix or "data") + ".kind", rule='enum')
    return data

def validate_https___agent_patch_gate_invalid_schemas_binding_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['run_id', 'generation', 'scope', 'host', 'target_class']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "run_id" in data_keys:
            data_keys.remove("run_id")
            data__runid = data["run_id"]
            if not (isinstance(data__runid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".run_id must be string", value=data__runid, name="" + (name_prefix or "data") + ".run_id", rule='type')
            if isinstance(data__runid, str):
                data__runid_len = len(data__runid)
                if data__runid_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".run_id must be longer than or equal to 1 characters", value=data__runid, name="" + (name_prefix or "data") + ".run_id", rule='minLength')
                if data__runid_len > 128:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".run_id must be shorter than or equal to 128 characters", value=data__runid, name="" + (name_prefix or "data") + ".run_id", rule='maxLength')
        if "generation" in data_keys:
            data_keys.remove("generation")
            data__generation = data["generation"]
            if not ((isinstance(data__generation, int) and not isinstance(data__generation, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".generation must be integer", value=data__generation, name="" + (name_prefix or "data") + ".generation", rule='type')
            if isinstance(data__generation, (int, float, Decimal)) and not isinstance(data__generation, bool):
                if data__generation < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".generation must be bigger than or equal to 1", value=data__generation, name="" + (name_prefix or "data") + ".generation", rule='minimum')
        if "scope" in data_keys:
            data_keys.remove("scope")
            data__scope = data["scope"]
            if not (isinstance(data__scope, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".scope must be string", value=data__scope, name="" + (name_prefix or "data") + ".scope", rule='type')
            if isinstance(data__scope, str):
                data__scope_len = len(data__scope)
                if data__scope_len > 253:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".scope must be shorter than or equal to 253 characters", value=data__scope, name="" + (name_prefix or "data") + ".scope", rule='maxLength')
        if "host" in data_keys:
            data_keys.remove("host")
            data__host = data["host"]
            if not (isinstance(data__host, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".host must be string", value=data__host, name="" + (name_prefix or "data") + ".host", rule='type')
            if isinstance(data__host, str):
                data__host_len = len(data__host)
                if data__host_len > 1024:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".host must be shorter than or equal to 1024 characters", value=data__host, name="" + (name_prefix or "data") + ".host", rule='maxLength')
        if "marker" in data_keys:
            data_keys.remove("marker")
            data__marker = data["marker"]
            if not (isinstance(data__marker, str) or data__marker is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".marker must be string or null", value=data__marker, name="" + (name_prefix or "data") + ".marker", rule='type')
            if isinstance(data__marker, str):
                data__marker_len = len(data__marker)
                if data__marker_len > 256:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".marker must be shorter than or equal to 256 characters", value=data__marker, name="" + (name_prefix or "data") + ".marker", rule='maxLength')
        if "target_class" in data_keys:
            data_keys.remove("target_class")
            data__targetclass = data["target_class"]
            if not (isinstance(data__targetclass, str) and data__targetclass == 'fixture' or isinstance(data__targetclass, str) and data__targetclass == 'live' or isinstance(data__targetclass, str) and data__targetclass == 'unknown'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".target_class must be one of ['fixture', 'live', 'unknown']", value=data__targetclass, name="" + (name_prefix or "data") + ".target_class", rule='enum')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_ledger_entry_schema_json
