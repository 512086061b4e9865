"""Generated from schemas/policy.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('policy',)
SCHEMA_SHA256 = "4e78d8d162bc584f6bf971eb171b957f526385467c5a6b144aae1c2a39e056bd"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '\\S': re.compile('\\S'),
    '^https://github\\.com/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}/\\.github/workflows/[A-Za-z0-9_.-]{1,255}\\.ya?ml(@(refs/(heads|tags|pull)/[^\\s@]{1,900}|[0-9a-f]{40}))?$': re.compile('^https://github\\.com/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}/\\.github/workflows/[A-Za-z0-9_.-]{1,255}\\.ya?ml(@(refs/(heads|tags|pull)/[^\\s@]{1,900}|[0-9a-f]{40}))?\\Z'),
    '^[A-Za-z0-9._:-]{1,64}$': re.compile('^[A-Za-z0-9._:-]{1,64}\\Z'),
    '^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$': re.compile('^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_policy_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "allowlist" in data_keys:
            data_keys.remove("allowlist")
            data__allowlist = data["allowlist"]
            if not (isinstance(data__allowlist, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist must be array")
            data__allowlist_is_list = isinstance(data__allowlist, (list, tuple))
            if data__allowlist_is_list:
                data__allowlist_len = len(data__allowlist)
                if data__allowlist_len > 10000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist must contain less than or equal to 10000 items")
                for data__allowlist_x, data__allowlist_item in enumerate(data__allowlist):
                    if not (isinstance(data__allowlist_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}]".format(**locals()) + " must be object")
                    data__allowlist_item_is_dict = isinstance(data__allowlist_item, dict)
                    if data__allowlist_item_is_dict:
                        data__allowlist_item__missing_keys = set(['test_id', 'server_class', 'owner', 'reason', 'expires']) - data__allowlist_item.keys()
                        if data__allowlist_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}]".format(**locals()) + " must contain ")
                        data__allowlist_item_keys = set(data__allowlist_item.keys())
                        if "test_id" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("test_id")
                            data__allowlist_item__testid = data__allowlist_item["test_id"]
                            if not (isinstance(data__allowlist_item__testid, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].test_id".format(**locals()) + " must be string")
                            if isinstance(data__allowlist_item__testid, str):
                                data__allowlist_item__testid_len = len(data__allowlist_item__testid)
                                if data__allowlist_item__testid_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].test_id".format(**locals()) + " must be longer than or equal to 1 characters")
                                if data__allowlist_item__testid_len > 512:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].test_id".format(**locals()) + " must be shorter than or equal to 512 characters")
                        if "server_class" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("server_class")
                            data__allowlist_item__serverclass = data__allowlist_item["server_class"]
                            if not (isinstance(data__allowlist_item__serverclass, str) and data__allowlist_item__serverclass == 'local-pinned' or isinstance(data__allowlist_item__serverclass, str) and data__allowlist_item__serverclass == 'free-server'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].server_class".format(**locals()) + " must be one of ['local-pinned', 'free-server']")
                        if "owner" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("owner")
                            data__allowlist_item__owner = data__allowlist_item["owner"]
                            if not (isinstance(data__allowlist_item__owner, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].owner".format(**locals()) + " must be string")
                            if isinstance(data__allowlist_item__owner, str):
                                data__allowlist_item__owner_len = len(data__allowlist_item__owner)
                                if data__allowlist_item__owner_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].owner".format(**locals()) + " must be longer than or equal to 1 characters")
                                if data__allowlist_item__owner_len > 256:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].owner".format(**locals()) + " must be shorter than or equal to 256 characters")
                                if not REGEX_PATTERNS['\\S'].search(data__allowlist_item__owner):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].owner".format(**locals()) + " must match pattern \\S")
                        if "reason" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("reason")
                            data__allowlist_item__reason = data__allowlist_item["reason"]
                            if not (isinstance(data__allowlist_item__reason, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].reason".format(**locals()) + " must be string")
                            if isinstance(data__allowlist_item__reason, str):
                                data__allowlist_item__reason_len = len(data__allowlist_item__reason)
                                if data__allowlist_item__reason_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].reason".format(**locals()) + " must be longer than or equal to 1 characters")
                                if data__allowlist_item__reason_len > 4096:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].reason".format(**locals()) + " must be shorter than or equal to 4096 characters")
                                if not REGEX_PATTERNS['\\S'].search(data__allowlist_item__reason):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].reason".format(**locals()) + " must match pattern \\S")
                        if "expires" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("expires")
                            data__allowlist_item__expires = data__allowlist_item["expires"]
                            if not ((isinstance(data__allowlist_item__expires, int) and not isinstance(data__allowlist_item__expires, bool))):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].expires".format(**locals()) + " must be integer")
                            if isinstance(data__allowlist_item__expires, (int, float, Decimal)) and not isinstance(data__allowlist_item__expires, bool):
                                if data__allowlist_item__expires < 0:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].expires".format(**locals()) + " must be bigger than or equal to 0")
                        if "added" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("added")
                            data__allowlist_item__added = data__allowlist_item["added"]
                            if not ((isinstance(data__allowlist_item__added, int) and not isinstance(data__allowlist_item__added, bool))):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].added".format(**locals()) + " must be integer")
                            if isinstance(data__allowlist_item__added, (int, float, Decimal)) and not isinstance(data__allowlist_item__added, bool):
                                if data__allowlist_item__added < 0:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].added".format(**locals()) + " must be bigger than or equal to 0")
                        if "issue" in data__allowlist_item_keys:
                            data__allowlist_item_keys.remove("issue")
                            data__allowlist_item__issue = data__allowlist_item["issue"]
                            if not (isinstance(data__allowlist_item__issue, str) or (isinstance(data__allowlist_item__issue, int) and not isinstance(data__allowlist_item__issue, bool))):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}].issue".format(**locals()) + " must be string or integer")
                        if data__allowlist_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".allowlist[{data__allowlist_x}]".format(**locals()) + " must not contain "+str(data__allowlist_item_keys)+" properties")
        if "max_freeze_days" in data_keys:
            data_keys.remove("max_freeze_days")
            data__maxfreezedays = data["max_freeze_days"]
            if not ((isinstance(data__maxfreezedays, int) and not isinstance(data__maxfreezedays, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_freeze_days must be integer")
            if isinstance(data__maxfreezedays, (int, float, Decimal)) and not isinstance(data__maxfreezedays, bool):
                if data__maxfreezedays < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_freeze_days must be bigger than or equal to 1")
                if data__maxfreezedays > 3650:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_freeze_days must be smaller than or equal to 3650")
        if "ungated" in data_keys:
            data_keys.remove("ungated")
            data__ungated = data["ungated"]
            if not (isinstance(data__ungated, str) and data__ungated == 'warn' or isinstance(data__ungated, str) and data__ungated == 'fail'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must be one of ['warn', 'fail']")
        if "halt" in data_keys:
            data_keys.remove("halt")
            data__halt = data["halt"]
            if not (isinstance(data__halt, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt must be object")
            data__halt_is_dict = isinstance(data__halt, dict)
            if data__halt_is_dict:
                data__halt_keys = set(data__halt.keys())
                if "reserved_scopes" in data__halt_keys:
                    data__halt_keys.remove("reserved_scopes")
                    data__halt__reservedscopes = data__halt["reserved_scopes"]
                    if not (isinstance(data__halt__reservedscopes, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.reserved_scopes must be array")
                    data__halt__reservedscopes_is_list = isinstance(data__halt__reservedscopes, (list, tuple))
                    if data__halt__reservedscopes_is_list:
                        data__halt__reservedscopes_len = len(data__halt__reservedscopes)
                        if data__halt__reservedscopes_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.reserved_scopes must contain at least 1 items")
                        for data__halt__reservedscopes_x, data__halt__reservedscopes_item in enumerate(data__halt__reservedscopes):
                            if not (isinstance(data__halt__reservedscopes_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.reserved_scopes[{data__halt__reservedscopes_x}]".format(**locals()) + " must be string")
                            if isinstance(data__halt__reservedscopes_item, str):
                                data__halt__reservedscopes_item_len = len(data__halt__reservedscopes_item)
                                if data__halt__reservedscopes_item_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.reserved_scopes[{data__halt__reservedscopes_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                                if data__halt__reservedscopes_item_len > 253:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.reserved_scopes[{data__halt__reservedscopes_x}]".format(**locals()) + " must be shorter than or equal to 253 characters")
                if "expected_marker" in data__halt_keys:
                    data__halt_keys.remove("expected_marker")
                    data__halt__expectedmarker = data__halt["expected_marker"]
                    if not (isinstance(data__halt__expectedmarker, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.expected_marker must be string")
                    if isinstance(data__halt__expectedmarker, str):
                        data__halt__expectedmarker_len = len(data__halt__expectedmarker)
                        if data__halt__expectedmarker_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.expected_marker must be longer than or equal to 1 characters")
                        if data__halt__expectedmarker_len > 256:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt.expected_marker must be shorter than or equal to 256 characters")
                if data__halt_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt must not contain "+str(data__halt_keys)+" properties")
        if "timeouts" in data_keys:
            data_keys.remove("timeouts")
            data__timeouts = data["timeouts"]
            if not (isinstance(data__timeouts, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".timeouts must be object")
            data__timeouts_is_dict = isinstance(data__timeouts, dict)
            if data__timeouts_is_dict:
                data__timeouts_keys = set(data__timeouts.keys())
                if "exit_codes" in data__timeouts_keys:
                    data__timeouts_keys.remove("exit_codes")
                    data__timeouts__exitcodes = data__timeouts["exit_codes"]
                    if not (isinstance(data__timeouts__exitcodes, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".timeouts.exit_codes must be array")
                    data__timeouts__exitcodes_is_list = isinstance(data__timeouts__exitcodes, (list, tuple))
                    if data__timeouts__exitcodes_is_list:
                        data__timeouts__exitcodes_len = len(data__timeouts__exitcodes)
                        if data__timeouts__exitcodes_len > 64:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".timeouts.exit_codes must contain less than or equal to 64 items")
                        for data__timeouts__exitcodes_x, data__timeouts__exitcodes_item in enumerate(data__timeouts__exitcodes):
                            if not ((isinstance(data__timeouts__exitcodes_item, int) and not isinstance(data__timeouts__exitcodes_item, bool))):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".timeouts.exit_codes[{data__timeouts__exitcodes_x}]".format(**locals()) + " must be integer")
                if data__timeouts_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".timeouts must not contain "+str(data__timeouts_keys)+" properties")
        if "signing" in data_keys:
            data_keys.remove("signing")
            data__signing = data["signing"]
            if not (isinstance(data__signing, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing must be object")
            data__signing_is_dict = isinstance(data__signing, dict)
            if data__signing_is_dict:
                data__signing_keys = set(data__signing.keys())
                if "mode" in data__signing_keys:
                    data__signing_keys.remove("mode")
                    data__signing__mode = data__signing["mode"]
                    if not (isinstance(data__signing__mode, str) and data__signing__mode == 'off' or isinstance(data__signing__mode, bool) and data__signing__mode is False or isinstance(data__signing__mode, str) and data__signing__mode == 'sigstore' or isinstance(data__signing__mode, str) and data__signing__mode == 'ed25519'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.mode must be one of ['off', False, 'sigstore', 'ed25519']")
                if "require" in data__signing_keys:
                    data__signing_keys.remove("require")
                    data__signing__require = data__signing["require"]
                    if not (isinstance(data__signing__require, str) and data__signing__require == 'off' or isinstance(data__signing__require, bool) and data__signing__require is False or isinstance(data__signing__require, str) and data__signing__require == 'local-pinned' or isinstance(data__signing__require, str) and data__signing__require == 'all'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.require must be one of ['off', False, 'local-pinned', 'all']")
                if "require_isolation" in data__signing_keys:
                    data__signing_keys.remove("require_isolation")
                    data__signing__requireisolation = data__signing["require_isolation"]
                    if not (isinstance(data__signing__requireisolation, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.require_isolation must be object")
                    data__signing__requireisolation_is_dict = isinstance(data__signing__requireisolation, dict)
                    if data__signing__requireisolation_is_dict:
                        data__signing__requireisolation_keys = set(data__signing__requireisolation.keys())
                        if "local-pinned" in data__signing__requireisolation_keys:
                            data__signing__requireisolation_keys.remove("local-pinned")
                            data__signing__requireisolation__localpinned = data__signing__requireisolation["local-pinned"]
                            if not (isinstance(data__signing__requireisolation__localpinned, str) and data__signing__requireisolation__localpinned == 'none' or isinstance(data__signing__requireisolation__localpinned, str) and data__signing__requireisolation__localpinned == 'process' or isinstance(data__signing__requireisolation__localpinned, str) and data__signing__requireisolation__localpinned == 'namespace' or isinstance(data__signing__requireisolation__localpinned, str) and data__signing__requireisolation__localpinned == 'user'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.require_isolation.local-pinned must be one of ['none', 'process', 'namespace', 'user']")
                        if "free-server" in data__signing__requireisolation_keys:
                            data__signing__requireisolation_keys.remove("free-server")
                            data__signing__requireisolation__freeserver = data__signing__requireisolation["free-server"]
                            if not (isinstance(data__signing__requireisolation__freeserver, str) and data__signing__requireisolation__freeserver == 'none' or isinstance(data__signing__requireisolation__freeserver, str) and data__signing__requireisolation__freeserver == 'process' or isinstance(data__signing__requireisolation__freeserver, str) and data__signing__requireisolation__freeserver == 'namespace' or isinstance(data__signing__requireisolation__freeserver, str) and data__signing__requireisolation__freeserver == 'user'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.require_isolation.free-server must be one of ['none', 'process', 'namespace', 'user']")
                        if data__signing__requireisolation_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.require_isolation must not contain "+str(data__signing__requireisolation_keys)+" properties")
                if "keys" in data__signing_keys:
                    data__signing_keys.remove("keys")
                    data__signing__keys = data__signing["keys"]
                    if not (isinstance(data__signing__keys, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.keys must be object")
                    data__signing__keys_is_dict = isinstance(data__signing__keys, dict)
                    if data__signing__keys_is_dict:
                        data__signing__keys_keys = set(data__signing__keys.keys())
                        if "local-pinned" in data__signing__keys_keys:
                            data__signing__keys_keys.remove("local-pinned")
                            data__signing__keys__localpinned = data__signing__keys["local-pinned"]
                            validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_ed25519_keys(data__signing__keys__localpinned, custom_formats, (name_prefix or "data") + ".signing.keys.local-pinned")
                        if "free-server" in data__signing__keys_keys:
                            data__signing__keys_keys.remove("free-server")
                            data__signing__keys__freeserver = data__signing__keys["free-server"]
                            validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_ed25519_keys(data__signing__keys__freeserver, custom_formats, (name_prefix or "data") + ".signing.keys.free-server")
                        if "gate" in data__signing__keys_keys:
                            data__signing__keys_keys.remove("gate")
                            data__signing__keys__gate = data__signing__keys["gate"]
                            validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_ed25519_keys(data__signing__keys__gate, custom_formats, (name_prefix or "data") + ".signing.keys.gate")
                        if data__signing__keys_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.keys must not contain "+str(data__signing__keys_keys)+" properties")
                if "sigstore" in data__signing_keys:
                    data__signing_keys.remove("sigstore")
                    data__signing__sigstore = data__signing["sigstore"]
                    if not (isinstance(data__signing__sigstore, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore must be object")
                    data__signing__sigstore_is_dict = isinstance(data__signing__sigstore, dict)
                    if data__signing__sigstore_is_dict:
                        data__signing__sigstore_keys = set(data__signing__sigstore.keys())
                        if "signer_workflows" in data__signing__sigstore_keys:
                            data__signing__sigstore_keys.remove("signer_workflows")
                            data__signing__sigstore__signerworkflows = data__signing__sigstore["signer_workflows"]
                            if not (isinstance(data__signing__sigstore__signerworkflows, list) or isinstance(data__signing__sigstore__signerworkflows, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore.signer_workflows must be array or object")
                            data__signing__sigstore__signerworkflows_is_list = isinstance(data__signing__sigstore__signerworkflows, (list, tuple))
                            if data__signing__sigstore__signerworkflows_is_list:
                                data__signing__sigstore__signerworkflows_len = len(data__signing__sigstore__signerworkflows)
                                if data__signing__sigstore__signerworkflows_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore.signer_workflows must contain at least 1 items")
                                if data__signing__sigstore__signerworkflows_len > 32:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore.signer_workflows must contain less than or equal to 32 items")
                                for data__signing__sigstore__signerworkflows_x, data__signing__sigstore__signerworkflows_item in enumerate(data__signing__sigstore__signerworkflows):
                                    validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflow(data__signing__sigstore__signerworkflows_item, custom_formats, (name_prefix or "data") + ".signing.sigstore.signer_workflows[{data__signing__sigstore__signerworkflows_x}]".format(**locals()))
                            data__signing__sigstore__signerworkflows_is_dict = isinstance(data__signing__sigstore__signerworkflows, dict)
                            if data__signing__sigstore__signerworkflows_is_dict:
                                data__signing__sigstore__signerworkflows_keys = set(data__signing__sigstore__signerworkflows.keys())
                                if "local-pinned" in data__signing__sigstore__signerworkflows_keys:
                                    data__signing__sigstore__signerworkflows_keys.remove("local-pinned")
                                    data__signing__sigstore__signerworkflows__localpinned = data__signing__sigstore__signerworkflows["local-pinned"]
                                    validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflows(data__signing__sigstore__signerworkflows__localpinned, custom_formats, (name_prefix or "data") + ".signing.sigstore.signer_workflows.local-pinned")
                                if "free-server" in data__signing__sigstore__signerworkflows_keys:
                                    data__signing__sigstore__signerworkflows_keys.remove("free-server")
                                    data__signing__sigstore__signerworkflows__freeserver = data__signing__sigstore__signerworkflows["free-server"]
                                    validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflows(data__signing__sigstore__signerworkflows__freeserver, custom_formats, (name_prefix or "data") + ".signing.sigstore.signer_workflows.free-server")
                                if "gate" in data__signing__sigstore__signerworkflows_keys:
                                    data__signing__sigstore__signerworkflows_keys.remove("gate")
                                    data__signing__sigstore__signerworkflows__gate = data__signing__sigstore__signerworkflows["gate"]
                                    validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflows(data__signing__sigstore__signerworkflows__gate, custom_formats, (name_prefix or "data") + ".signing.sigstore.signer_workflows.gate")
                                if data__signing__sigstore__signerworkflows_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore.signer_workflows must not contain "+str(data__signing__sigstore__signerworkflows_keys)+" properties")
                        if "public_log_for_private_repository" in data__signing__sigstore_keys:
                            data__signing__sigstore_keys.remove("public_log_for_private_repository")
                            data__signing__sigstore__publiclogforprivaterepository = data__signing__sigstore["public_log_for_private_repository"]
                            if not (isinstance(data__signing__sigstore__publiclogforprivaterepository, bool)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore.public_log_for_private_repository must be boolean")
                        if data__signing__sigstore_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing.sigstore must not contain "+str(data__signing__sigstore_keys)+" properties")
                if data__signing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signing must not contain "+str(data__signing_keys)+" properties")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data

def validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflows(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, list)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array")
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 items")
        if data_len > 32:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain less than or equal to 32 items")
        for data_x, data_item in enumerate(data):
            validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflow(data_item, custom_formats, (name_prefix or "data") + "[{data_x}]".format(**locals()))
    return data

def validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_signer_workflow(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string")
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 1024:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 1024 characters")
        if not REGEX_PATTERNS['^https://github\\.com/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}/\\.github/workflows/[A-Za-z0-9_.-]{1,255}\\.ya?ml(@(refs/(heads|tags|pull)/[^\\s@]{1,900}|[0-9a-f]{40}))?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^https://github\\.com/[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}/\\.github/workflows/[A-Za-z0-9_.-]{1,255}\\.ya?ml(@(refs/(heads|tags|pull)/[^\\s@]{1,900}|[0-9a-f]{40}))?$")
    return data

def validate_https___agent_patch_gate_invalid_schemas_policy_schema_json___defs_ed25519_keys(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, list)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array")
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 items")
        if data_len > 16:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain less than or equal to 16 items")
        for data_x, data_item in enumerate(data):
            if not (isinstance(data_item, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must be object")
            data_item_is_dict = isinstance(data_item, dict)
            if data_item_is_dict:
                data_item__missing_keys = set(['id', 'public_key']) - data_item.keys()
                if data_item__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must contain ")
                data_item_keys = set(data_item.keys())
                if "id" in data_item_keys:
                    data_item_keys.remove("id")
                    data_item__id = data_item["id"]
                    if not (isinstance(data_item__id, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].id".format(**locals()) + " must be string")
                    if isinstance(data_item__id, str):
                        if not REGEX_PATTERNS['^[A-Za-z0-9._:-]{1,64}$'].search(data_item__id):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].id".format(**locals()) + " must match pattern ^[A-Za-z0-9._:-]{1,64}$")
                if "public_key" in data_item_keys:
                    data_item_keys.remove("public_key")
                    data_item__publickey = data_item["public_key"]
                    if not (isinstance(data_item__publickey, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].public_key".format(**locals()) + " must be string")
                    if isinstance(data_item__publickey, str):
                        if not REGEX_PATTERNS['^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$'].search(data_item__publickey):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}].public_key".format(**locals()) + " must match pattern ^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$")
                if data_item_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + "[{data_x}]".format(**locals()) + " must not contain "+str(data_item_keys)+" properties")
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_policy_schema_json
