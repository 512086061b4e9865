"""Generated from schemas/report.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('report', 'stamp', 'rerun-memory')
SCHEMA_SHA256 = "71256eb9cfb1782173d34dff356eca2d654249534070dd64b95d4aeae426db0b"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[0-9a-f]{40}$': re.compile('^[0-9a-f]{40}\\Z'),
    '^[a-z_]+$': re.compile('^[a-z_]+\\Z'),
    '^[0-9a-f]{64}$': re.compile('^[0-9a-f]{64}\\Z'),
    '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$': re.compile('^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_report_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'gate_version', 'now', 'decision', 'counts', 'pairs']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'gate-report/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: gate-report/v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", rule='const')
        if "gate_version" in data_keys:
            data_keys.remove("gate_version")
            data__gateversion = data["gate_version"]
            if not (isinstance(data__gateversion, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be string", value=data__gateversion, name="" + (name_prefix or "data") + ".gate_version", rule='type')
            if isinstance(data__gateversion, str):
                data__gateversion_len = len(data__gateversion)
                if data__gateversion_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be shorter than or equal to 64 characters", value=data__gateversion, name="" + (name_prefix or "data") + ".gate_version", rule='maxLength')
        if "now" in data_keys:
            data_keys.remove("now")
            data__now = data["now"]
            if not ((isinstance(data__now, int) and not isinstance(data__now, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".now must be integer", value=data__now, name="" + (name_prefix or "data") + ".now", rule='type')
            if isinstance(data__now, (int, float, Decimal)) and not isinstance(data__now, bool):
                if data__now < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".now must be bigger than or equal to 0", value=data__now, name="" + (name_prefix or "data") + ".now", rule='minimum')
        if "max_freeze_days" in data_keys:
            data_keys.remove("max_freeze_days")
            data__maxfreezedays = data["max_freeze_days"]
            if not ((isinstance(data__maxfreezedays, int) and not isinstance(data__maxfreezedays, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_freeze_days must be integer", value=data__maxfreezedays, name="" + (name_prefix or "data") + ".max_freeze_days", rule='type')
            if isinstance(data__maxfreezedays, (int, float, Decimal)) and not isinstance(data__maxfreezedays, bool):
                if data__maxfreezedays < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_freeze_days must be bigger than or equal to 1", value=data__maxfreezedays, name="" + (name_prefix or "data") + ".max_freeze_days", rule='minimum')
                if data__maxfreezedays > 3650:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_freeze_days must be smaller than or equal to 3650", value=data__maxfreezedays, name="" + (name_prefix or "data") + ".max_freeze_days", rule='maximum')
        if "decision" in data_keys:
            data_keys.remove("decision")
            data__decision = data["decision"]
            if not (isinstance(data__decision, str) and data__decision == 'open' or isinstance(data__decision, str) and data__decision == 'closed'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".decision must be one of ['open', 'closed']", value=data__decision, name="" + (name_prefix or "data") + ".decision", rule='enum')
        if "counts" in data_keys:
            data_keys.remove("counts")
            data__counts = data["counts"]
            if not (isinstance(data__counts, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts must be object", value=data__counts, name="" + (name_prefix or "data") + ".counts", rule='type')
            data__counts_is_dict = isinstance(data__counts, dict)
            if data__counts_is_dict:
                data__counts__missing_keys = set(['accepted', 'frozen', 'rejected']) - data__counts.keys()
                if data__counts__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts must contain " + (str(sorted(data__counts__missing_keys)) + " properties"), value=data__counts, name="" + (name_prefix or "data") + ".counts", rule='required')
                data__counts_keys = set(data__counts.keys())
                if "accepted" in data__counts_keys:
                    data__counts_keys.remove("accepted")
                    data__counts__accepted = data__counts["accepted"]
                    if not ((isinstance(data__counts__accepted, int) and not isinstance(data__counts__accepted, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts.accepted must be integer", value=data__counts__accepted, name="" + (name_prefix or "data") + ".counts.accepted", rule='type')
                    if isinstance(data__counts__accepted, (int, float, Decimal)) and not isinstance(data__counts__accepted, bool):
                        if data__counts__accepted < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts.accepted must be bigger than or equal to 0", value=data__counts__accepted, name="" + (name_prefix or "data") + ".counts.accepted", rule='minimum')
                if "frozen" in data__counts_keys:
                    data__counts_keys.remove("frozen")
                    data__counts__frozen = data__counts["frozen"]
                    if not ((isinstance(data__counts__frozen, int) and not isinstance(data__counts__frozen, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts.frozen must be integer", value=data__counts__frozen, name="" + (name_prefix or "data") + ".counts.frozen", rule='type')
                    if isinstance(data__counts__frozen, (int, float, Decimal)) and not isinstance(data__counts__frozen, bool):
                        if data__counts__frozen < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts.frozen must be bigger than or equal to 0", value=data__counts__frozen, name="" + (name_prefix or "data") + ".counts.frozen", rule='minimum')
                if "rejected" in data__counts_keys:
                    data__counts_keys.remove("rejected")
                    data__counts__rejected = data__counts["rejected"]
                    if not ((isinstance(data__counts__rejected, int) and not isinstance(data__counts__rejected, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts.rejected must be integer", value=data__counts__rejected, name="" + (name_prefix or "data") + ".counts.rejected", rule='type')
                    if isinstance(data__counts__rejected, (int, float, Decimal)) and not isinstance(data__counts__rejected, bool):
                        if data__counts__rejected < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts.rejected must be bigger than or equal to 0", value=data__counts__rejected, name="" + (name_prefix or "data") + ".counts.rejected", rule='minimum')
                if data__counts_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts must not contain "+str(data__counts_keys)+" properties", value=data__counts, name="" + (name_prefix or "data") + ".counts", rule='additionalProperties')
        if "pairs" in data_keys:
            data_keys.remove("pairs")
            data__pairs = data["pairs"]
            if not (isinstance(data__pairs, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".pairs must be array", value=data__pairs, name="" + (name_prefix or "data") + ".pairs", rule='type')
            data__pairs_is_list = isinstance(data__pairs, (list, tuple))
            if data__pairs_is_list:
                data__pairs_len = len(data__pairs)
                if data__pairs_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".pairs must contain less than or equal to 100000 items", value=data__pairs, name="" + (name_prefix or "data") + ".pairs", rule='maxItems')
                for data__pairs_x, data__pairs_item in enumerate(data__pairs):
                    validate_https___agent_patch_gate_invalid_schemas_report_schema_json___defs_pair(data__pairs_item, custom_formats, (name_prefix or "data") + ".pairs[{data__pairs_x}]".format(**locals()))
        if "reruns" in data_keys:
            data_keys.remove("reruns")
            data__reruns = data["reruns"]
            if not (isinstance(data__reruns, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reruns must be array", value=data__reruns, name="" + (name_prefix or "data") + ".reruns", rule='type')
            data__reruns_is_list = isinstance(data__reruns, (list, tuple))
            if data__reruns_is_list:
                data__reruns_len = len(data__reruns)
                for data__reruns_x, data__reruns_item in enumerate(data__reruns):
                    validate_https___agent_patch_gate_invalid_schemas_report_schema_json___defs_pair(data__reruns_item, custom_formats, (name_prefix or "data") + ".reruns[{data__reruns_x}]".format(**locals()))
        if "receipt" in data_keys:
            data_keys.remove("receipt")
            data__receipt = data["receipt"]
            if not (isinstance(data__receipt, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt must be object", value=data__receipt, name="" + (name_prefix or "data") + ".receipt", rule='type')
            data__receipt_is_dict = isinstance(data__receipt, dict)
            if data__receipt_is_dict:
                data__receipt__missing_keys = set(['decision', 'line']) - data__receipt.keys()
                if data__receipt__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt must contain " + (str(sorted(data__receipt__missing_keys)) + " properties"), value=data__receipt, name="" + (name_prefix or "data") + ".receipt", rule='required')
                data__receipt_keys = set(data__receipt.keys())
                if "decision" in data__receipt_keys:
                    data__receipt_keys.remove("decision")
                    data__receipt__decision = data__receipt["decision"]
                    if not (isinstance(data__receipt__decision, str) and data__receipt__decision == 'accept' or isinstance(data__receipt__decision, str) and data__receipt__decision == 'reject'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.decision must be one of ['accept', 'reject']", value=data__receipt__decision, name="" + (name_prefix or "data") + ".receipt.decision", rule='enum')
                if "line" in data__receipt_keys:
                    data__receipt_keys.remove("line")
                    data__receipt__line = data__receipt["line"]
                    if not (isinstance(data__receipt__line, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.line must be string", value=data__receipt__line, name="" + (name_prefix or "data") + ".receipt.line", rule='type')
                    if isinstance(data__receipt__line, str):
                        data__receipt__line_len = len(data__receipt__line)
                        if data__receipt__line_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.line must be shorter than or equal to 4096 characters", value=data__receipt__line, name="" + (name_prefix or "data") + ".receipt.line", rule='maxLength')
                if "mismatches" in data__receipt_keys:
                    data__receipt_keys.remove("mismatches")
                    data__receipt__mismatches = data__receipt["mismatches"]
                    if not (isinstance(data__receipt__mismatches, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.mismatches must be array", value=data__receipt__mismatches, name="" + (name_prefix or "data") + ".receipt.mismatches", rule='type')
                    data__receipt__mismatches_is_list = isinstance(data__receipt__mismatches, (list, tuple))
                    if data__receipt__mismatches_is_list:
                        data__receipt__mismatches_len = len(data__receipt__mismatches)
                        for data__receipt__mismatches_x, data__receipt__mismatches_item in enumerate(data__receipt__mismatches):
                            if not (isinstance(data__receipt__mismatches_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.mismatches[{data__receipt__mismatches_x}]".format(**locals()) + " must be string", value=data__receipt__mismatches_item, name="" + (name_prefix or "data") + ".receipt.mismatches[{data__receipt__mismatches_x}]".format(**locals()) + "", rule='type')
                if data__receipt_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt must not contain "+str(data__receipt_keys)+" properties", value=data__receipt, name="" + (name_prefix or "data") + ".receipt", rule='additionalProperties')
        if "halt_audit" in data_keys:
            data_keys.remove("halt_audit")
            data__haltaudit = data["halt_audit"]
            if not (isinstance(data__haltaudit, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit must be object", value=data__haltaudit, name="" + (name_prefix or "data") + ".halt_audit", rule='type')
            data__haltaudit_is_dict = isinstance(data__haltaudit, dict)
            if data__haltaudit_is_dict:
                data__haltaudit__missing_keys = set(['failed', 'denominator', 'chain_ok']) - data__haltaudit.keys()
                if data__haltaudit__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit must contain " + (str(sorted(data__haltaudit__missing_keys)) + " properties"), value=data__haltaudit, name="" + (name_prefix or "data") + ".halt_audit", rule='required')
                data__haltaudit_keys = set(data__haltaudit.keys())
                if "failed" in data__haltaudit_keys:
                    data__haltaudit_keys.remove("failed")
                    data__haltaudit__failed = data__haltaudit["failed"]
                    if not ((isinstance(data__haltaudit__failed, int) and not isinstance(data__haltaudit__failed, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.failed must be integer", value=data__haltaudit__failed, name="" + (name_prefix or "data") + ".halt_audit.failed", rule='type')
                    if isinstance(data__haltaudit__failed, (int, float, Decimal)) and not isinstance(data__haltaudit__failed, bool):
                        if data__haltaudit__failed < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.failed must be bigger than or equal to 0", value=data__haltaudit__failed, name="" + (name_prefix or "data") + ".halt_audit.failed", rule='minimum')
                if "denominator" in data__haltaudit_keys:
                    data__haltaudit_keys.remove("denominator")
                    data__haltaudit__denominator = data__haltaudit["denominator"]
                    if not ((isinstance(data__haltaudit__denominator, int) and not isinstance(data__haltaudit__denominator, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.denominator must be integer", value=data__haltaudit__denominator, name="" + (name_prefix or "data") + ".halt_audit.denominator", rule='type')
                    if isinstance(data__haltaudit__denominator, (int, float, Decimal)) and not isinstance(data__haltaudit__denominator, bool):
                        if data__haltaudit__denominator < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.denominator must be bigger than or equal to 0", value=data__haltaudit__denominator, name="" + (name_prefix or "data") + ".halt_audit.denominator", rule='minimum')
                if "chain_ok" in data__haltaudit_keys:
                    data__haltaudit_keys.remove("chain_ok")
                    data__haltaudit__chainok = data__haltaudit["chain_ok"]
                    if not (isinstance(data__haltaudit__chainok, bool)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.chain_ok must be boolean", value=data__haltaudit__chainok, name="" + (name_prefix or "data") + ".halt_audit.chain_ok", rule='type')
                if "problems" in data__haltaudit_keys:
                    data__haltaudit_keys.remove("problems")
                    data__haltaudit__problems = data__haltaudit["problems"]
                    if not (isinstance(data__haltaudit__problems, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.problems must be array", value=data__haltaudit__problems, name="" + (name_prefix or "data") + ".halt_audit.problems", rule='type')
                    data__haltaudit__problems_is_list = isinstance(data__haltaudit__problems, (list, tuple))
                    if data__haltaudit__problems_is_list:
                        data__haltaudit__problems_len = len(data__haltaudit__problems)
                        for data__haltaudit__problems_x, data__haltaudit__problems_item in enumerate(data__haltaudit__problems):
                            if not (isinstance(data__haltaudit__problems_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.problems[{data__haltaudit__problems_x}]".format(**locals()) + " must be string", value=data__haltaudit__problems_item, name="" + (name_prefix or "data") + ".halt_audit.problems[{data__haltaudit__problems_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__haltaudit__problems_item, str):
                                data__haltaudit__problems_item_len = len(data__haltaudit__problems_item)
                                if data__haltaudit__problems_item_len > 4096:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit.problems[{data__haltaudit__problems_x}]".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__haltaudit__problems_item, name="" + (name_prefix or "data") + ".halt_audit.problems[{data__haltaudit__problems_x}]".format(**locals()) + "", rule='maxLength')
                if data__haltaudit_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".halt_audit must not contain "+str(data__haltaudit_keys)+" properties", value=data__haltaudit, name="" + (name_prefix or "data") + ".halt_audit", rule='additionalProperties')
        if "ungated" in data_keys:
            data_keys.remove("ungated")
            data__ungated = data["ungated"]
            if not (isinstance(data__ungated, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must be object", value=data__ungated, name="" + (name_prefix or "data") + ".ungated", rule='type')
            data__ungated_is_dict = isinstance(data__ungated, dict)
            if data__ungated_is_dict:
                data__ungated__missing_keys = set(['policy', 'decision', 'count', 'tests']) - data__ungated.keys()
                if data__ungated__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must contain " + (str(sorted(data__ungated__missing_keys)) + " properties"), value=data__ungated, name="" + (name_prefix or "data") + ".ungated", rule='required')
                data__ungated_keys = set(data__ungated.keys())
                if "policy" in data__ungated_keys:
                    data__ungated_keys.remove("policy")
                    data__ungated__policy = data__ungated["policy"]
                    if not (isinstance(data__ungated__policy, str) and data__ungated__policy == 'warn' or isinstance(data__ungated__policy, str) and data__ungated__policy == 'fail'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.policy must be one of ['warn', 'fail']", value=data__ungated__policy, name="" + (name_prefix or "data") + ".ungated.policy", rule='enum')
                if "decision" in data__ungated_keys:
                    data__ungated_keys.remove("decision")
                    data__ungated__decision = data__ungated["decision"]
                    if not (isinstance(data__ungated__decision, str) and data__ungated__decision == 'named' or isinstance(data__ungated__decision, str) and data__ungated__decision == 'closed'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.decision must be one of ['named', 'closed']", value=data__ungated__decision, name="" + (name_prefix or "data") + ".ungated.decision", rule='enum')
                if "count" in data__ungated_keys:
                    data__ungated_keys.remove("count")
                    data__ungated__count = data__ungated["count"]
                    if not ((isinstance(data__ungated__count, int) and not isinstance(data__ungated__count, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.count must be integer", value=data__ungated__count, name="" + (name_prefix or "data") + ".ungated.count", rule='type')
                    if isinstance(data__ungated__count, (int, float, Decimal)) and not isinstance(data__ungated__count, bool):
                        if data__ungated__count < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.count must be bigger than or equal to 1", value=data__ungated__count, name="" + (name_prefix or "data") + ".ungated.count", rule='minimum')
                if "tests" in data__ungated_keys:
                    data__ungated_keys.remove("tests")
                    data__ungated__tests = data__ungated["tests"]
                    if not (isinstance(data__ungated__tests, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests must be array", value=data__ungated__tests, name="" + (name_prefix or "data") + ".ungated.tests", rule='type')
                    data__ungated__tests_is_list = isinstance(data__ungated__tests, (list, tuple))
                    if data__ungated__tests_is_list:
                        data__ungated__tests_len = len(data__ungated__tests)
                        if data__ungated__tests_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests must contain at least 1 items", value=data__ungated__tests, name="" + (name_prefix or "data") + ".ungated.tests", rule='minItems')
                        if data__ungated__tests_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests must contain less than or equal to 1000 items", value=data__ungated__tests, name="" + (name_prefix or "data") + ".ungated.tests", rule='maxItems')
                        for data__ungated__tests_x, data__ungated__tests_item in enumerate(data__ungated__tests):
                            if not (isinstance(data__ungated__tests_item, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + " must be object", value=data__ungated__tests_item, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + "", rule='type')
                            data__ungated__tests_item_is_dict = isinstance(data__ungated__tests_item, dict)
                            if data__ungated__tests_item_is_dict:
                                data__ungated__tests_item__missing_keys = set(['test', 'kind', 'found_by']) - data__ungated__tests_item.keys()
                                if data__ungated__tests_item__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + " must contain " + (str(sorted(data__ungated__tests_item__missing_keys)) + " properties"), value=data__ungated__tests_item, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + "", rule='required')
                                data__ungated__tests_item_keys = set(data__ungated__tests_item.keys())
                                if "test" in data__ungated__tests_item_keys:
                                    data__ungated__tests_item_keys.remove("test")
                                    data__ungated__tests_item__test = data__ungated__tests_item["test"]
                                    if not (isinstance(data__ungated__tests_item__test, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + " must be string", value=data__ungated__tests_item__test, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + "", rule='type')
                                    if isinstance(data__ungated__tests_item__test, str):
                                        data__ungated__tests_item__test_len = len(data__ungated__tests_item__test)
                                        if data__ungated__tests_item__test_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + " must be longer than or equal to 1 characters", value=data__ungated__tests_item__test, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + "", rule='minLength')
                                        if data__ungated__tests_item__test_len > 4096:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__ungated__tests_item__test, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + "", rule='maxLength')
                                if "kind" in data__ungated__tests_item_keys:
                                    data__ungated__tests_item_keys.remove("kind")
                                    data__ungated__tests_item__kind = data__ungated__tests_item["kind"]
                                    if not (isinstance(data__ungated__tests_item__kind, str) and data__ungated__tests_item__kind == 'given' or isinstance(data__ungated__tests_item__kind, str) and data__ungated__tests_item__kind == 'stateful'):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].kind".format(**locals()) + " must be one of ['given', 'stateful']", value=data__ungated__tests_item__kind, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].kind".format(**locals()) + "", rule='enum')
                                if "found_by" in data__ungated__tests_item_keys:
                                    data__ungated__tests_item_keys.remove("found_by")
                                    data__ungated__tests_item__foundby = data__ungated__tests_item["found_by"]
                                    if not (isinstance(data__ungated__tests_item__foundby, list)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by".format(**locals()) + " must be array", value=data__ungated__tests_item__foundby, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by".format(**locals()) + "", rule='type')
                                    data__ungated__tests_item__foundby_is_list = isinstance(data__ungated__tests_item__foundby, (list, tuple))
                                    if data__ungated__tests_item__foundby_is_list:
                                        data__ungated__tests_item__foundby_len = len(data__ungated__tests_item__foundby)
                                        if data__ungated__tests_item__foundby_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by".format(**locals()) + " must contain at least 1 items", value=data__ungated__tests_item__foundby, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by".format(**locals()) + "", rule='minItems')
                                        if data__ungated__tests_item__foundby_len > 3:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by".format(**locals()) + " must contain less than or equal to 3 items", value=data__ungated__tests_item__foundby, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by".format(**locals()) + "", rule='maxItems')
                                        for data__ungated__tests_item__foundby_x, data__ungated__tests_item__foundby_item in enumerate(data__ungated__tests_item__foundby):
                                            if not (isinstance(data__ungated__tests_item__foundby_item, str) and data__ungated__tests_item__foundby_item == 'local-pinned' or isinstance(data__ungated__tests_item__foundby_item, str) and data__ungated__tests_item__foundby_item == 'free-server' or isinstance(data__ungated__tests_item__foundby_item, str) and data__ungated__tests_item__foundby_item == 'scan'):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by[{data__ungated__tests_item__foundby_x}]".format(**locals()) + " must be one of ['local-pinned', 'free-server', 'scan']", value=data__ungated__tests_item__foundby_item, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].found_by[{data__ungated__tests_item__foundby_x}]".format(**locals()) + "", rule='enum')
                                if data__ungated__tests_item_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + " must not contain "+str(data__ungated__tests_item_keys)+" properties", value=data__ungated__tests_item, name="" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + "", rule='additionalProperties')
                if "notes" in data__ungated_keys:
                    data__ungated_keys.remove("notes")
                    data__ungated__notes = data__ungated["notes"]
                    if not (isinstance(data__ungated__notes, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.notes must be array", value=data__ungated__notes, name="" + (name_prefix or "data") + ".ungated.notes", rule='type')
                    data__ungated__notes_is_list = isinstance(data__ungated__notes, (list, tuple))
                    if data__ungated__notes_is_list:
                        data__ungated__notes_len = len(data__ungated__notes)
                        if data__ungated__notes_len > 10:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.notes must contain less than or equal to 10 items", value=data__ungated__notes, name="" + (name_prefix or "data") + ".ungated.notes", rule='maxItems')
                        for data__ungated__notes_x, data__ungated__notes_item in enumerate(data__ungated__notes):
                            if not (isinstance(data__ungated__notes_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.notes[{data__ungated__notes_x}]".format(**locals()) + " must be string", value=data__ungated__notes_item, name="" + (name_prefix or "data") + ".ungated.notes[{data__ungated__notes_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__ungated__notes_item, str):
                                data__ungated__notes_item_len = len(data__ungated__notes_item)
                                if data__ungated__notes_item_len > 400:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.notes[{data__ungated__notes_x}]".format(**locals()) + " must be shorter than or equal to 400 characters", value=data__ungated__notes_item, name="" + (name_prefix or "data") + ".ungated.notes[{data__ungated__notes_x}]".format(**locals()) + "", rule='maxLength')
                if data__ungated_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must not contain "+str(data__ungated_keys)+" properties", value=data__ungated, name="" + (name_prefix or "data") + ".ungated", rule='additionalProperties')
        if "judge_files" in data_keys:
            data_keys.remove("judge_files")
            data__judgefiles = data["judge_files"]
            if not (isinstance(data__judgefiles, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files must be object", value=data__judgefiles, name="" + (name_prefix or "data") + ".judge_files", rule='type')
            data__judgefiles_is_dict = isinstance(data__judgefiles, dict)
            if data__judgefiles_is_dict:
                data__judgefiles__missing_keys = set(['base', 'head', 'properties', 'files']) - data__judgefiles.keys()
                if data__judgefiles__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files must contain " + (str(sorted(data__judgefiles__missing_keys)) + " properties"), value=data__judgefiles, name="" + (name_prefix or "data") + ".judge_files", rule='required')
                data__judgefiles_keys = set(data__judgefiles.keys())
                if "base" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("base")
                    data__judgefiles__base = data__judgefiles["base"]
                    if not (isinstance(data__judgefiles__base, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.base must be string", value=data__judgefiles__base, name="" + (name_prefix or "data") + ".judge_files.base", rule='type')
                    if isinstance(data__judgefiles__base, str):
                        data__judgefiles__base_len = len(data__judgefiles__base)
                        if data__judgefiles__base_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.base must be longer than or equal to 1 characters", value=data__judgefiles__base, name="" + (name_prefix or "data") + ".judge_files.base", rule='minLength')
                        if data__judgefiles__base_len > 200:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.base must be shorter than or equal to 200 characters", value=data__judgefiles__base, name="" + (name_prefix or "data") + ".judge_files.base", rule='maxLength')
                if "head" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("head")
                    data__judgefiles__head = data__judgefiles["head"]
                    if not (isinstance(data__judgefiles__head, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.head must be string", value=data__judgefiles__head, name="" + (name_prefix or "data") + ".judge_files.head", rule='type')
                    if isinstance(data__judgefiles__head, str):
                        if not REGEX_PATTERNS['^[0-9a-f]{40}$'].search(data__judgefiles__head):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.head must match pattern ^[0-9a-f]{40}$", value=data__judgefiles__head, name="" + (name_prefix or "data") + ".judge_files.head", rule='pattern')
                if "properties" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("properties")
                    data__judgefiles__properties = data__judgefiles["properties"]
                    if not ((isinstance(data__judgefiles__properties, int) and not isinstance(data__judgefiles__properties, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.properties must be integer", value=data__judgefiles__properties, name="" + (name_prefix or "data") + ".judge_files.properties", rule='type')
                    if isinstance(data__judgefiles__properties, (int, float, Decimal)) and not isinstance(data__judgefiles__properties, bool):
                        if data__judgefiles__properties < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.properties must be bigger than or equal to 0", value=data__judgefiles__properties, name="" + (name_prefix or "data") + ".judge_files.properties", rule='minimum')
                if "changed" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("changed")
                    data__judgefiles__changed = data__judgefiles["changed"]
                    if not ((isinstance(data__judgefiles__changed, int) and not isinstance(data__judgefiles__changed, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.changed must be integer", value=data__judgefiles__changed, name="" + (name_prefix or "data") + ".judge_files.changed", rule='type')
                    if isinstance(data__judgefiles__changed, (int, float, Decimal)) and not isinstance(data__judgefiles__changed, bool):
                        if data__judgefiles__changed < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.changed must be bigger than or equal to 0", value=data__judgefiles__changed, name="" + (name_prefix or "data") + ".judge_files.changed", rule='minimum')
                if "complete" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("complete")
                    data__judgefiles__complete = data__judgefiles["complete"]
                    if not (isinstance(data__judgefiles__complete, bool) and data__judgefiles__complete is False):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.complete must be same as const definition: False", value=data__judgefiles__complete, name="" + (name_prefix or "data") + ".judge_files.complete", rule='const')
                if "error" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("error")
                    data__judgefiles__error = data__judgefiles["error"]
                    if not (isinstance(data__judgefiles__error, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.error must be string", value=data__judgefiles__error, name="" + (name_prefix or "data") + ".judge_files.error", rule='type')
                    if isinstance(data__judgefiles__error, str):
                        data__judgefiles__error_len = len(data__judgefiles__error)
                        if data__judgefiles__error_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.error must be longer than or equal to 1 characters", value=data__judgefiles__error, name="" + (name_prefix or "data") + ".judge_files.error", rule='minLength')
                        if data__judgefiles__error_len > 400:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.error must be shorter than or equal to 400 characters", value=data__judgefiles__error, name="" + (name_prefix or "data") + ".judge_files.error", rule='maxLength')
                if "notes" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("notes")
                    data__judgefiles__notes = data__judgefiles["notes"]
                    if not (isinstance(data__judgefiles__notes, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.notes must be array", value=data__judgefiles__notes, name="" + (name_prefix or "data") + ".judge_files.notes", rule='type')
                    data__judgefiles__notes_is_list = isinstance(data__judgefiles__notes, (list, tuple))
                    if data__judgefiles__notes_is_list:
                        data__judgefiles__notes_len = len(data__judgefiles__notes)
                        if data__judgefiles__notes_len > 10:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.notes must contain less than or equal to 10 items", value=data__judgefiles__notes, name="" + (name_prefix or "data") + ".judge_files.notes", rule='maxItems')
                        for data__judgefiles__notes_x, data__judgefiles__notes_item in enumerate(data__judgefiles__notes):
                            if not (isinstance(data__judgefiles__notes_item, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.notes[{data__judgefiles__notes_x}]".format(**locals()) + " must be string", value=data__judgefiles__notes_item, name="" + (name_prefix or "data") + ".judge_files.notes[{data__judgefiles__notes_x}]".format(**locals()) + "", rule='type')
                            if isinstance(data__judgefiles__notes_item, str):
                                data__judgefiles__notes_item_len = len(data__judgefiles__notes_item)
                                if data__judgefiles__notes_item_len > 400:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.notes[{data__judgefiles__notes_x}]".format(**locals()) + " must be shorter than or equal to 400 characters", value=data__judgefiles__notes_item, name="" + (name_prefix or "data") + ".judge_files.notes[{data__judgefiles__notes_x}]".format(**locals()) + "", rule='maxLength')
                if "more_files" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("more_files")
                    data__judgefiles__morefiles = data__judgefiles["more_files"]
                    if not ((isinstance(data__judgefiles__morefiles, int) and not isinstance(data__judgefiles__morefiles, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.more_files must be integer", value=data__judgefiles__morefiles, name="" + (name_prefix or "data") + ".judge_files.more_files", rule='type')
                    if isinstance(data__judgefiles__morefiles, (int, float, Decimal)) and not isinstance(data__judgefiles__morefiles, bool):
                        if data__judgefiles__morefiles < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.more_files must be bigger than or equal to 1", value=data__judgefiles__morefiles, name="" + (name_prefix or "data") + ".judge_files.more_files", rule='minimum')
                if "files" in data__judgefiles_keys:
                    data__judgefiles_keys.remove("files")
                    data__judgefiles__files = data__judgefiles["files"]
                    if not (isinstance(data__judgefiles__files, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files must be array", value=data__judgefiles__files, name="" + (name_prefix or "data") + ".judge_files.files", rule='type')
                    data__judgefiles__files_is_list = isinstance(data__judgefiles__files, (list, tuple))
                    if data__judgefiles__files_is_list:
                        data__judgefiles__files_len = len(data__judgefiles__files)
                        if data__judgefiles__files_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files must contain less than or equal to 1000 items", value=data__judgefiles__files, name="" + (name_prefix or "data") + ".judge_files.files", rule='maxItems')
                        for data__judgefiles__files_x, data__judgefiles__files_item in enumerate(data__judgefiles__files):
                            if not (isinstance(data__judgefiles__files_item, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must be object", value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='type')
                            data__judgefiles__files_item_one_of_count1 = 0
                            if data__judgefiles__files_item_one_of_count1 < 2:
                                try:
                                    try:
                                        data__judgefiles__files_item_any_of_count2 = 0
                                        if not data__judgefiles__files_item_any_of_count2:
                                            try:
                                                data__judgefiles__files_item_is_dict = isinstance(data__judgefiles__files_item, dict)
                                                if data__judgefiles__files_item_is_dict:
                                                    data__judgefiles__files_item__missing_keys = set(['count']) - data__judgefiles__files_item.keys()
                                                    if data__judgefiles__files_item__missing_keys:
                                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must contain " + (str(sorted(data__judgefiles__files_item__missing_keys)) + " properties"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='required')
                                                data__judgefiles__files_item_any_of_count2 += 1
                                            except (JsonSchemaValueException, JsonSchemaValuesException): pass
                                        if not data__judgefiles__files_item_any_of_count2:
                                            try:
                                                data__judgefiles__files_item_is_dict = isinstance(data__judgefiles__files_item, dict)
                                                if data__judgefiles__files_item_is_dict:
                                                    data__judgefiles__files_item__missing_keys = set(['test_ids']) - data__judgefiles__files_item.keys()
                                                    if data__judgefiles__files_item__missing_keys:
                                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must contain " + (str(sorted(data__judgefiles__files_item__missing_keys)) + " properties"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='required')
                                                data__judgefiles__files_item_any_of_count2 += 1
                                            except (JsonSchemaValueException, JsonSchemaValuesException): pass
                                        if not data__judgefiles__files_item_any_of_count2:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " cannot be validated by any definition", value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='anyOf')
                                    except (JsonSchemaValueException, JsonSchemaValuesException): pass
                                    else:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must NOT match a disallowed definition", value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='not')
                                    data__judgefiles__files_item_is_dict = isinstance(data__judgefiles__files_item, dict)
                                    if data__judgefiles__files_item_is_dict:
                                        data__judgefiles__files_item__missing_keys = set(['all']) - data__judgefiles__files_item.keys()
                                        if data__judgefiles__files_item__missing_keys:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must contain " + (str(sorted(data__judgefiles__files_item__missing_keys)) + " properties"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='required')
                                    data__judgefiles__files_item_one_of_count1 += 1
                                except (JsonSchemaValueException, JsonSchemaValuesException): pass
                            if data__judgefiles__files_item_one_of_count1 < 2:
                                try:
                                    try:
                                        data__judgefiles__files_item_is_dict = isinstance(data__judgefiles__files_item, dict)
                                        if data__judgefiles__files_item_is_dict:
                                            data__judgefiles__files_item__missing_keys = set(['all']) - data__judgefiles__files_item.keys()
                                            if data__judgefiles__files_item__missing_keys:
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must contain " + (str(sorted(data__judgefiles__files_item__missing_keys)) + " properties"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='required')
                                    except (JsonSchemaValueException, JsonSchemaValuesException): pass
                                    else:
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must NOT match a disallowed definition", value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='not')
                                    data__judgefiles__files_item_is_dict = isinstance(data__judgefiles__files_item, dict)
                                    if data__judgefiles__files_item_is_dict:
                                        data__judgefiles__files_item__missing_keys = set(['count', 'test_ids']) - data__judgefiles__files_item.keys()
                                        if data__judgefiles__files_item__missing_keys:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must contain " + (str(sorted(data__judgefiles__files_item__missing_keys)) + " properties"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='required')
                                    data__judgefiles__files_item_one_of_count1 += 1
                                except (JsonSchemaValueException, JsonSchemaValuesException): pass
                            if data__judgefiles__files_item_one_of_count1 != 1:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must be valid exactly by one definition" + (" (" + str(data__judgefiles__files_item_one_of_count1) + " matches found)"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='oneOf')
                            data__judgefiles__files_item_is_dict = isinstance(data__judgefiles__files_item, dict)
                            if data__judgefiles__files_item_is_dict:
                                data__judgefiles__files_item__missing_keys = set(['path', 'kinds']) - data__judgefiles__files_item.keys()
                                if data__judgefiles__files_item__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must contain " + (str(sorted(data__judgefiles__files_item__missing_keys)) + " properties"), value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='required')
                                data__judgefiles__files_item_keys = set(data__judgefiles__files_item.keys())
                                if "path" in data__judgefiles__files_item_keys:
                                    data__judgefiles__files_item_keys.remove("path")
                                    data__judgefiles__files_item__path = data__judgefiles__files_item["path"]
                                    if not (isinstance(data__judgefiles__files_item__path, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].path".format(**locals()) + " must be string", value=data__judgefiles__files_item__path, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].path".format(**locals()) + "", rule='type')
                                    if isinstance(data__judgefiles__files_item__path, str):
                                        data__judgefiles__files_item__path_len = len(data__judgefiles__files_item__path)
                                        if data__judgefiles__files_item__path_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].path".format(**locals()) + " must be longer than or equal to 1 characters", value=data__judgefiles__files_item__path, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].path".format(**locals()) + "", rule='minLength')
                                        if data__judgefiles__files_item__path_len > 1024:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].path".format(**locals()) + " must be shorter than or equal to 1024 characters", value=data__judgefiles__files_item__path, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].path".format(**locals()) + "", rule='maxLength')
                                if "previous" in data__judgefiles__files_item_keys:
                                    data__judgefiles__files_item_keys.remove("previous")
                                    data__judgefiles__files_item__previous = data__judgefiles__files_item["previous"]
                                    if not (isinstance(data__judgefiles__files_item__previous, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].previous".format(**locals()) + " must be string", value=data__judgefiles__files_item__previous, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].previous".format(**locals()) + "", rule='type')
                                    if isinstance(data__judgefiles__files_item__previous, str):
                                        data__judgefiles__files_item__previous_len = len(data__judgefiles__files_item__previous)
                                        if data__judgefiles__files_item__previous_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].previous".format(**locals()) + " must be longer than or equal to 1 characters", value=data__judgefiles__files_item__previous, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].previous".format(**locals()) + "", rule='minLength')
                                        if data__judgefiles__files_item__previous_len > 1024:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].previous".format(**locals()) + " must be shorter than or equal to 1024 characters", value=data__judgefiles__files_item__previous, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].previous".format(**locals()) + "", rule='maxLength')
                                if "kinds" in data__judgefiles__files_item_keys:
                                    data__judgefiles__files_item_keys.remove("kinds")
                                    data__judgefiles__files_item__kinds = data__judgefiles__files_item["kinds"]
                                    if not (isinstance(data__judgefiles__files_item__kinds, list)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds".format(**locals()) + " must be array", value=data__judgefiles__files_item__kinds, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds".format(**locals()) + "", rule='type')
                                    data__judgefiles__files_item__kinds_is_list = isinstance(data__judgefiles__files_item__kinds, (list, tuple))
                                    if data__judgefiles__files_item__kinds_is_list:
                                        data__judgefiles__files_item__kinds_len = len(data__judgefiles__files_item__kinds)
                                        if data__judgefiles__files_item__kinds_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds".format(**locals()) + " must contain at least 1 items", value=data__judgefiles__files_item__kinds, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds".format(**locals()) + "", rule='minItems')
                                        if data__judgefiles__files_item__kinds_len > 6:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds".format(**locals()) + " must contain less than or equal to 6 items", value=data__judgefiles__files_item__kinds, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds".format(**locals()) + "", rule='maxItems')
                                        for data__judgefiles__files_item__kinds_x, data__judgefiles__files_item__kinds_item in enumerate(data__judgefiles__files_item__kinds):
                                            if not (isinstance(data__judgefiles__files_item__kinds_item, str) and data__judgefiles__files_item__kinds_item == 'manifest' or isinstance(data__judgefiles__files_item__kinds_item, str) and data__judgefiles__files_item__kinds_item == 'policy' or isinstance(data__judgefiles__files_item__kinds_item, str) and data__judgefiles__files_item__kinds_item == 'workflow' or isinstance(data__judgefiles__files_item__kinds_item, str) and data__judgefiles__files_item__kinds_item == 'harness' or isinstance(data__judgefiles__files_item__kinds_item, str) and data__judgefiles__files_item__kinds_item == 'fixture' or isinstance(data__judgefiles__files_item__kinds_item, str) and data__judgefiles__files_item__kinds_item == 'card'):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds[{data__judgefiles__files_item__kinds_x}]".format(**locals()) + " must be one of ['manifest', 'policy', 'workflow', 'harness', 'fixture', 'card']", value=data__judgefiles__files_item__kinds_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].kinds[{data__judgefiles__files_item__kinds_x}]".format(**locals()) + "", rule='enum')
                                if "all" in data__judgefiles__files_item_keys:
                                    data__judgefiles__files_item_keys.remove("all")
                                    data__judgefiles__files_item__all = data__judgefiles__files_item["all"]
                                    if not (isinstance(data__judgefiles__files_item__all, bool) and data__judgefiles__files_item__all is True):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].all".format(**locals()) + " must be same as const definition: True", value=data__judgefiles__files_item__all, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].all".format(**locals()) + "", rule='const')
                                if "count" in data__judgefiles__files_item_keys:
                                    data__judgefiles__files_item_keys.remove("count")
                                    data__judgefiles__files_item__count = data__judgefiles__files_item["count"]
                                    if not ((isinstance(data__judgefiles__files_item__count, int) and not isinstance(data__judgefiles__files_item__count, bool))):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].count".format(**locals()) + " must be integer", value=data__judgefiles__files_item__count, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].count".format(**locals()) + "", rule='type')
                                    if isinstance(data__judgefiles__files_item__count, (int, float, Decimal)) and not isinstance(data__judgefiles__files_item__count, bool):
                                        if data__judgefiles__files_item__count < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].count".format(**locals()) + " must be bigger than or equal to 1", value=data__judgefiles__files_item__count, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].count".format(**locals()) + "", rule='minimum')
                                if "test_ids" in data__judgefiles__files_item_keys:
                                    data__judgefiles__files_item_keys.remove("test_ids")
                                    data__judgefiles__files_item__testids = data__judgefiles__files_item["test_ids"]
                                    if not (isinstance(data__judgefiles__files_item__testids, list)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids".format(**locals()) + " must be array", value=data__judgefiles__files_item__testids, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids".format(**locals()) + "", rule='type')
                                    data__judgefiles__files_item__testids_is_list = isinstance(data__judgefiles__files_item__testids, (list, tuple))
                                    if data__judgefiles__files_item__testids_is_list:
                                        data__judgefiles__files_item__testids_len = len(data__judgefiles__files_item__testids)
                                        if data__judgefiles__files_item__testids_len > 100:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids".format(**locals()) + " must contain less than or equal to 100 items", value=data__judgefiles__files_item__testids, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids".format(**locals()) + "", rule='maxItems')
                                        for data__judgefiles__files_item__testids_x, data__judgefiles__files_item__testids_item in enumerate(data__judgefiles__files_item__testids):
                                            if not (isinstance(data__judgefiles__files_item__testids_item, str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids[{data__judgefiles__files_item__testids_x}]".format(**locals()) + " must be string", value=data__judgefiles__files_item__testids_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids[{data__judgefiles__files_item__testids_x}]".format(**locals()) + "", rule='type')
                                            if isinstance(data__judgefiles__files_item__testids_item, str):
                                                data__judgefiles__files_item__testids_item_len = len(data__judgefiles__files_item__testids_item)
                                                if data__judgefiles__files_item__testids_item_len > 4096:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids[{data__judgefiles__files_item__testids_x}]".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__judgefiles__files_item__testids_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}].test_ids[{data__judgefiles__files_item__testids_x}]".format(**locals()) + "", rule='maxLength')
                                if data__judgefiles__files_item_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + " must not contain "+str(data__judgefiles__files_item_keys)+" properties", value=data__judgefiles__files_item, name="" + (name_prefix or "data") + ".judge_files.files[{data__judgefiles__files_x}]".format(**locals()) + "", rule='additionalProperties')
                if data__judgefiles_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".judge_files must not contain "+str(data__judgefiles_keys)+" properties", value=data__judgefiles, name="" + (name_prefix or "data") + ".judge_files", rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_report_schema_json___defs_pair(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['test_id', 'gate', 'action', 'row', 'status', 'reason', 'fixture_sha256', 'failure_class', 'freeze_allowed', 'fixture_path', 'runs']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "test_id" in data_keys:
            data_keys.remove("test_id")
            data__testid = data["test_id"]
            if not (isinstance(data__testid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".test_id must be string", value=data__testid, name="" + (name_prefix or "data") + ".test_id", rule='type')
            if isinstance(data__testid, str):
                data__testid_len = len(data__testid)
                if data__testid_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".test_id must be longer than or equal to 1 characters", value=data__testid, name="" + (name_prefix or "data") + ".test_id", rule='minLength')
                if data__testid_len > 512:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".test_id must be shorter than or equal to 512 characters", value=data__testid, name="" + (name_prefix or "data") + ".test_id", rule='maxLength')
        if "gate" in data_keys:
            data_keys.remove("gate")
            data__gate = data["gate"]
            if not (isinstance(data__gate, str) and data__gate == 'stamp' or isinstance(data__gate, str) and data__gate == 'digest' or isinstance(data__gate, str) and data__gate == 'pairing'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must be one of ['stamp', 'digest', 'pairing']", value=data__gate, name="" + (name_prefix or "data") + ".gate", rule='enum')
        if "action" in data_keys:
            data_keys.remove("action")
            data__action = data["action"]
            if not (isinstance(data__action, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".action must be string", value=data__action, name="" + (name_prefix or "data") + ".action", rule='type')
            if isinstance(data__action, str):
                if not REGEX_PATTERNS['^[a-z_]+$'].search(data__action):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".action must match pattern ^[a-z_]+$", value=data__action, name="" + (name_prefix or "data") + ".action", rule='pattern')
        if "row" in data_keys:
            data_keys.remove("row")
            data__row = data["row"]
            if not ((isinstance(data__row, int) and not isinstance(data__row, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".row must be integer", value=data__row, name="" + (name_prefix or "data") + ".row", rule='type')
            if isinstance(data__row, (int, float, Decimal)) and not isinstance(data__row, bool):
                if data__row < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".row must be bigger than or equal to 0", value=data__row, name="" + (name_prefix or "data") + ".row", rule='minimum')
        if "status" in data_keys:
            data_keys.remove("status")
            data__status = data["status"]
            if not (isinstance(data__status, str) and data__status == 'accepted' or isinstance(data__status, str) and data__status == 'frozen' or isinstance(data__status, str) and data__status == 'rejected'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".status must be one of ['accepted', 'frozen', 'rejected']", value=data__status, name="" + (name_prefix or "data") + ".status", rule='enum')
        if "reason" in data_keys:
            data_keys.remove("reason")
            data__reason = data["reason"]
            if not (isinstance(data__reason, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reason must be string", value=data__reason, name="" + (name_prefix or "data") + ".reason", rule='type')
            if isinstance(data__reason, str):
                data__reason_len = len(data__reason)
                if data__reason_len > 4096:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".reason must be shorter than or equal to 4096 characters", value=data__reason, name="" + (name_prefix or "data") + ".reason", rule='maxLength')
        if "fixture_sha256" in data_keys:
            data_keys.remove("fixture_sha256")
            data__fixturesha256 = data["fixture_sha256"]
            if not (isinstance(data__fixturesha256, str) or data__fixturesha256 is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_sha256 must be string or null", value=data__fixturesha256, name="" + (name_prefix or "data") + ".fixture_sha256", rule='type')
            if isinstance(data__fixturesha256, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__fixturesha256):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_sha256 must match pattern ^[0-9a-f]{64}$", value=data__fixturesha256, name="" + (name_prefix or "data") + ".fixture_sha256", rule='pattern')
        if "failure_class" in data_keys:
            data_keys.remove("failure_class")
            data__failureclass = data["failure_class"]
            if not (isinstance(data__failureclass, str) and data__failureclass == 'property_miss' or isinstance(data__failureclass, str) and data__failureclass == 'fixture_drift' or isinstance(data__failureclass, str) and data__failureclass == 'harness_flake' or isinstance(data__failureclass, str) and data__failureclass == 'unclassified' or isinstance(data__failureclass, str) and data__failureclass == 'none'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".failure_class must be one of ['property_miss', 'fixture_drift', 'harness_flake', 'unclassified', 'none']", value=data__failureclass, name="" + (name_prefix or "data") + ".failure_class", rule='enum')
        if "freeze_allowed" in data_keys:
            data_keys.remove("freeze_allowed")
            data__freezeallowed = data["freeze_allowed"]
            if not (isinstance(data__freezeallowed, bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_allowed must be boolean", value=data__freezeallowed, name="" + (name_prefix or "data") + ".freeze_allowed", rule='type')
        if "fixture_path" in data_keys:
            data_keys.remove("fixture_path")
            data__fixturepath = data["fixture_path"]
            if not (isinstance(data__fixturepath, str) or data__fixturepath is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_path must be string or null", value=data__fixturepath, name="" + (name_prefix or "data") + ".fixture_path", rule='type')
            if isinstance(data__fixturepath, str):
                data__fixturepath_len = len(data__fixturepath)
                if data__fixturepath_len > 4096:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_path must be shorter than or equal to 4096 characters", value=data__fixturepath, name="" + (name_prefix or "data") + ".fixture_path", rule='maxLength')
        if "freeze" in data_keys:
            data_keys.remove("freeze")
            data__freeze = data["freeze"]
            if not (isinstance(data__freeze, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze must be object", value=data__freeze, name="" + (name_prefix or "data") + ".freeze", rule='type')
            data__freeze_is_dict = isinstance(data__freeze, dict)
            if data__freeze_is_dict:
                data__freeze__missing_keys = set(['owner', 'reason', 'expires']) - data__freeze.keys()
                if data__freeze__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze must contain " + (str(sorted(data__freeze__missing_keys)) + " properties"), value=data__freeze, name="" + (name_prefix or "data") + ".freeze", rule='required')
                data__freeze_keys = set(data__freeze.keys())
                if "owner" in data__freeze_keys:
                    data__freeze_keys.remove("owner")
                    data__freeze__owner = data__freeze["owner"]
                    if not (isinstance(data__freeze__owner, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.owner must be string", value=data__freeze__owner, name="" + (name_prefix or "data") + ".freeze.owner", rule='type')
                    if isinstance(data__freeze__owner, str):
                        data__freeze__owner_len = len(data__freeze__owner)
                        if data__freeze__owner_len > 256:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.owner must be shorter than or equal to 256 characters", value=data__freeze__owner, name="" + (name_prefix or "data") + ".freeze.owner", rule='maxLength')
                if "reason" in data__freeze_keys:
                    data__freeze_keys.remove("reason")
                    data__freeze__reason = data__freeze["reason"]
                    if not (isinstance(data__freeze__reason, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.reason must be string", value=data__freeze__reason, name="" + (name_prefix or "data") + ".freeze.reason", rule='type')
                    if isinstance(data__freeze__reason, str):
                        data__freeze__reason_len = len(data__freeze__reason)
                        if data__freeze__reason_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.reason must be shorter than or equal to 4096 characters", value=data__freeze__reason, name="" + (name_prefix or "data") + ".freeze.reason", rule='maxLength')
                if "issue" in data__freeze_keys:
                    data__freeze_keys.remove("issue")
                    data__freeze__issue = data__freeze["issue"]
                    if not (isinstance(data__freeze__issue, str) or (isinstance(data__freeze__issue, int) and not isinstance(data__freeze__issue, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.issue must be string or integer", value=data__freeze__issue, name="" + (name_prefix or "data") + ".freeze.issue", rule='type')
                if "expires" in data__freeze_keys:
                    data__freeze_keys.remove("expires")
                    data__freeze__expires = data__freeze["expires"]
                    if not ((isinstance(data__freeze__expires, int) and not isinstance(data__freeze__expires, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.expires must be integer", value=data__freeze__expires, name="" + (name_prefix or "data") + ".freeze.expires", rule='type')
                    if isinstance(data__freeze__expires, (int, float, Decimal)) and not isinstance(data__freeze__expires, bool):
                        if data__freeze__expires < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.expires must be bigger than or equal to 0", value=data__freeze__expires, name="" + (name_prefix or "data") + ".freeze.expires", rule='minimum')
                if "card_expires" in data__freeze_keys:
                    data__freeze_keys.remove("card_expires")
                    data__freeze__cardexpires = data__freeze["card_expires"]
                    if not ((isinstance(data__freeze__cardexpires, int) and not isinstance(data__freeze__cardexpires, bool)) or data__freeze__cardexpires is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.card_expires must be integer or null", value=data__freeze__cardexpires, name="" + (name_prefix or "data") + ".freeze.card_expires", rule='type')
                    if isinstance(data__freeze__cardexpires, (int, float, Decimal)) and not isinstance(data__freeze__cardexpires, bool):
                        if data__freeze__cardexpires < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze.card_expires must be bigger than or equal to 0", value=data__freeze__cardexpires, name="" + (name_prefix or "data") + ".freeze.card_expires", rule='minimum')
                if data__freeze_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze must not contain "+str(data__freeze_keys)+" properties", value=data__freeze, name="" + (name_prefix or "data") + ".freeze", rule='additionalProperties')
        if "card_expires" in data_keys:
            data_keys.remove("card_expires")
            data__cardexpires = data["card_expires"]
            if not ((isinstance(data__cardexpires, int) and not isinstance(data__cardexpires, bool)) or data__cardexpires is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".card_expires must be integer or null", value=data__cardexpires, name="" + (name_prefix or "data") + ".card_expires", rule='type')
            if isinstance(data__cardexpires, (int, float, Decimal)) and not isinstance(data__cardexpires, bool):
                if data__cardexpires < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".card_expires must be bigger than or equal to 0", value=data__cardexpires, name="" + (name_prefix or "data") + ".card_expires", rule='minimum')
        if "mismatch" in data_keys:
            data_keys.remove("mismatch")
            data__mismatch = data["mismatch"]
            if not (isinstance(data__mismatch, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mismatch must be array", value=data__mismatch, name="" + (name_prefix or "data") + ".mismatch", rule='type')
            data__mismatch_is_list = isinstance(data__mismatch, (list, tuple))
            if data__mismatch_is_list:
                data__mismatch_len = len(data__mismatch)
                if data__mismatch_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mismatch must contain less than or equal to 64 items", value=data__mismatch, name="" + (name_prefix or "data") + ".mismatch", rule='maxItems')
                for data__mismatch_x, data__mismatch_item in enumerate(data__mismatch):
                    if not (isinstance(data__mismatch_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".mismatch[{data__mismatch_x}]".format(**locals()) + " must be string", value=data__mismatch_item, name="" + (name_prefix or "data") + ".mismatch[{data__mismatch_x}]".format(**locals()) + "", rule='type')
                    if isinstance(data__mismatch_item, str):
                        data__mismatch_item_len = len(data__mismatch_item)
                        if data__mismatch_item_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".mismatch[{data__mismatch_x}]".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__mismatch_item, name="" + (name_prefix or "data") + ".mismatch[{data__mismatch_x}]".format(**locals()) + "", rule='maxLength')
        if "remembered" in data_keys:
            data_keys.remove("remembered")
            data__remembered = data["remembered"]
            if not (isinstance(data__remembered, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered must be array", value=data__remembered, name="" + (name_prefix or "data") + ".remembered", rule='type')
            data__remembered_is_list = isinstance(data__remembered, (list, tuple))
            if data__remembered_is_list:
                data__remembered_len = len(data__remembered)
                if data__remembered_len > 5000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered must contain less than or equal to 5000 items", value=data__remembered, name="" + (name_prefix or "data") + ".remembered", rule='maxItems')
                for data__remembered_x, data__remembered_item in enumerate(data__remembered):
                    if not (isinstance(data__remembered_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}]".format(**locals()) + " must be object", value=data__remembered_item, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}]".format(**locals()) + "", rule='type')
                    data__remembered_item_is_dict = isinstance(data__remembered_item, dict)
                    if data__remembered_item_is_dict:
                        data__remembered_item__missing_keys = set(['attempt', 'server_class', 'run_id', 'check_run_url']) - data__remembered_item.keys()
                        if data__remembered_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}]".format(**locals()) + " must contain " + (str(sorted(data__remembered_item__missing_keys)) + " properties"), value=data__remembered_item, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}]".format(**locals()) + "", rule='required')
                        data__remembered_item_keys = set(data__remembered_item.keys())
                        if "attempt" in data__remembered_item_keys:
                            data__remembered_item_keys.remove("attempt")
                            data__remembered_item__attempt = data__remembered_item["attempt"]
                            if not ((isinstance(data__remembered_item__attempt, int) and not isinstance(data__remembered_item__attempt, bool))):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}].attempt".format(**locals()) + " must be integer", value=data__remembered_item__attempt, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}].attempt".format(**locals()) + "", rule='type')
                            if isinstance(data__remembered_item__attempt, (int, float, Decimal)) and not isinstance(data__remembered_item__attempt, bool):
                                if data__remembered_item__attempt < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}].attempt".format(**locals()) + " must be bigger than or equal to 1", value=data__remembered_item__attempt, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}].attempt".format(**locals()) + "", rule='minimum')
                        if "server_class" in data__remembered_item_keys:
                            data__remembered_item_keys.remove("server_class")
                            data__remembered_item__serverclass = data__remembered_item["server_class"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_server_class(data__remembered_item__serverclass, custom_formats, (name_prefix or "data") + ".remembered[{data__remembered_x}].server_class".format(**locals()))
                        if "run_id" in data__remembered_item_keys:
                            data__remembered_item_keys.remove("run_id")
                            data__remembered_item__runid = data__remembered_item["run_id"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json__properties_run_id(data__remembered_item__runid, custom_formats, (name_prefix or "data") + ".remembered[{data__remembered_x}].run_id".format(**locals()))
                        if "check_run_url" in data__remembered_item_keys:
                            data__remembered_item_keys.remove("check_run_url")
                            data__remembered_item__checkrunurl = data__remembered_item["check_run_url"]
                            if not (isinstance(data__remembered_item__checkrunurl, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}].check_run_url".format(**locals()) + " must be string", value=data__remembered_item__checkrunurl, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}].check_run_url".format(**locals()) + "", rule='type')
                            if isinstance(data__remembered_item__checkrunurl, str):
                                data__remembered_item__checkrunurl_len = len(data__remembered_item__checkrunurl)
                                if data__remembered_item__checkrunurl_len > 2048:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}].check_run_url".format(**locals()) + " must be shorter than or equal to 2048 characters", value=data__remembered_item__checkrunurl, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}].check_run_url".format(**locals()) + "", rule='maxLength')
                        if data__remembered_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".remembered[{data__remembered_x}]".format(**locals()) + " must not contain "+str(data__remembered_item_keys)+" properties", value=data__remembered_item, name="" + (name_prefix or "data") + ".remembered[{data__remembered_x}]".format(**locals()) + "", rule='additionalProperties')
        if "location" in data_keys:
            data_keys.remove("location")
            data__location = data["location"]
            if not (isinstance(data__location, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".location must be object", value=data__location, name="" + (name_prefix or "data") + ".location", rule='type')
            data__location_is_dict = isinstance(data__location, dict)
            if data__location_is_dict:
                data__location__missing_keys = set(['path']) - data__location.keys()
                if data__location__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".location must contain " + (str(sorted(data__location__missing_keys)) + " properties"), value=data__location, name="" + (name_prefix or "data") + ".location", rule='required')
                data__location_keys = set(data__location.keys())
                if "path" in data__location_keys:
                    data__location_keys.remove("path")
                    data__location__path = data__location["path"]
                    if not (isinstance(data__location__path, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.path must be string", value=data__location__path, name="" + (name_prefix or "data") + ".location.path", rule='type')
                    if isinstance(data__location__path, str):
                        data__location__path_len = len(data__location__path)
                        if data__location__path_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.path must be longer than or equal to 1 characters", value=data__location__path, name="" + (name_prefix or "data") + ".location.path", rule='minLength')
                        if data__location__path_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.path must be shorter than or equal to 4096 characters", value=data__location__path, name="" + (name_prefix or "data") + ".location.path", rule='maxLength')
                if "line" in data__location_keys:
                    data__location_keys.remove("line")
                    data__location__line = data__location["line"]
                    if not ((isinstance(data__location__line, int) and not isinstance(data__location__line, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.line must be integer", value=data__location__line, name="" + (name_prefix or "data") + ".location.line", rule='type')
                    if isinstance(data__location__line, (int, float, Decimal)) and not isinstance(data__location__line, bool):
                        if data__location__line < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.line must be bigger than or equal to 1", value=data__location__line, name="" + (name_prefix or "data") + ".location.line", rule='minimum')
                if data__location_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".location must not contain "+str(data__location_keys)+" properties", value=data__location, name="" + (name_prefix or "data") + ".location", rule='additionalProperties')
        if "runs" in data_keys:
            data_keys.remove("runs")
            data__runs = data["runs"]
            if not (isinstance(data__runs, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs must be array", value=data__runs, name="" + (name_prefix or "data") + ".runs", rule='type')
            data__runs_is_list = isinstance(data__runs, (list, tuple))
            if data__runs_is_list:
                data__runs_len = len(data__runs)
                for data__runs_x, data__runs_item in enumerate(data__runs):
                    if not (isinstance(data__runs_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}]".format(**locals()) + " must be object", value=data__runs_item, name="" + (name_prefix or "data") + ".runs[{data__runs_x}]".format(**locals()) + "", rule='type')
                    data__runs_item_is_dict = isinstance(data__runs_item, dict)
                    if data__runs_item_is_dict:
                        data__runs_item__missing_keys = set(['run_id', 'server_class', 'outcome']) - data__runs_item.keys()
                        if data__runs_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}]".format(**locals()) + " must contain " + (str(sorted(data__runs_item__missing_keys)) + " properties"), value=data__runs_item, name="" + (name_prefix or "data") + ".runs[{data__runs_x}]".format(**locals()) + "", rule='required')
                        data__runs_item_keys = set(data__runs_item.keys())
                        if "run_id" in data__runs_item_keys:
                            data__runs_item_keys.remove("run_id")
                            data__runs_item__runid = data__runs_item["run_id"]
                            if not (isinstance(data__runs_item__runid, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].run_id".format(**locals()) + " must be string", value=data__runs_item__runid, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].run_id".format(**locals()) + "", rule='type')
                            if isinstance(data__runs_item__runid, str):
                                data__runs_item__runid_len = len(data__runs_item__runid)
                                if data__runs_item__runid_len > 128:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].run_id".format(**locals()) + " must be shorter than or equal to 128 characters", value=data__runs_item__runid, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].run_id".format(**locals()) + "", rule='maxLength')
                        if "server_class" in data__runs_item_keys:
                            data__runs_item_keys.remove("server_class")
                            data__runs_item__serverclass = data__runs_item["server_class"]
                            if not (isinstance(data__runs_item__serverclass, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].server_class".format(**locals()) + " must be string", value=data__runs_item__serverclass, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].server_class".format(**locals()) + "", rule='type')
                            if isinstance(data__runs_item__serverclass, str):
                                data__runs_item__serverclass_len = len(data__runs_item__serverclass)
                                if data__runs_item__serverclass_len > 64:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].server_class".format(**locals()) + " must be shorter than or equal to 64 characters", value=data__runs_item__serverclass, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].server_class".format(**locals()) + "", rule='maxLength')
                        if "outcome" in data__runs_item_keys:
                            data__runs_item_keys.remove("outcome")
                            data__runs_item__outcome = data__runs_item["outcome"]
                            if not (isinstance(data__runs_item__outcome, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].outcome".format(**locals()) + " must be string", value=data__runs_item__outcome, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].outcome".format(**locals()) + "", rule='type')
                            if isinstance(data__runs_item__outcome, str):
                                data__runs_item__outcome_len = len(data__runs_item__outcome)
                                if data__runs_item__outcome_len > 64:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].outcome".format(**locals()) + " must be shorter than or equal to 64 characters", value=data__runs_item__outcome, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].outcome".format(**locals()) + "", rule='maxLength')
                        if "source" in data__runs_item_keys:
                            data__runs_item_keys.remove("source")
                            data__runs_item__source = data__runs_item["source"]
                            if not (isinstance(data__runs_item__source, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].source".format(**locals()) + " must be string", value=data__runs_item__source, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].source".format(**locals()) + "", rule='type')
                            if isinstance(data__runs_item__source, str):
                                data__runs_item__source_len = len(data__runs_item__source)
                                if data__runs_item__source_len > 4096:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].source".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__runs_item__source, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].source".format(**locals()) + "", rule='maxLength')
                        if "exit_code" in data__runs_item_keys:
                            data__runs_item_keys.remove("exit_code")
                            data__runs_item__exitcode = data__runs_item["exit_code"]
                            if not ((isinstance(data__runs_item__exitcode, int) and not isinstance(data__runs_item__exitcode, bool)) or data__runs_item__exitcode is None):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].exit_code".format(**locals()) + " must be integer or null", value=data__runs_item__exitcode, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].exit_code".format(**locals()) + "", rule='type')
                        if "note" in data__runs_item_keys:
                            data__runs_item_keys.remove("note")
                            data__runs_item__note = data__runs_item["note"]
                            if not (isinstance(data__runs_item__note, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].note".format(**locals()) + " must be string", value=data__runs_item__note, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].note".format(**locals()) + "", rule='type')
                            if isinstance(data__runs_item__note, str):
                                data__runs_item__note_len = len(data__runs_item__note)
                                if data__runs_item__note_len > 4096:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}].note".format(**locals()) + " must be shorter than or equal to 4096 characters", value=data__runs_item__note, name="" + (name_prefix or "data") + ".runs[{data__runs_x}].note".format(**locals()) + "", rule='maxLength')
                        if "hypothesis" in data__runs_item_keys:
                            data__runs_item_keys.remove("hypothesis")
                            data__runs_item__hypothesis = data__runs_item["hypothesis"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data__runs_item__hypothesis, custom_formats, (name_prefix or "data") + ".runs[{data__runs_x}].hypothesis".format(**locals()))
                        if "failure" in data__runs_item_keys:
                            data__runs_item_keys.remove("failure")
                            data__runs_item__failure = data__runs_item["failure"]
                            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_failure(data__runs_item__failure, custom_formats, (name_prefix or "data") + ".runs[{data__runs_x}].failure".format(**locals()))
                        if data__runs_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".runs[{data__runs_x}]".format(**locals()) + " must not contain "+str(data__runs_item_keys)+" properties", value=data__runs_item, name="" + (name_prefix or "data") + ".runs[{data__runs_x}]".format(**locals()) + "", rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_failure(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['type', 'message', 'example', 'reproduce']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "type" in data_keys:
            data_keys.remove("type")
            data__type = data["type"]
            if not (isinstance(data__type, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".type must be string", value=data__type, name="" + (name_prefix or "data") + ".type", rule='type')
            if isinstance(data__type, str):
                data__type_len = len(data__type)
                if data__type_len > 200:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".type must be shorter than or equal to 200 characters", value=data__type, name="" + (name_prefix or "data") + ".type", rule='maxLength')
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            if not (isinstance(data__message, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be string", value=data__message, name="" + (name_prefix or "data") + ".message", rule='type')
            if isinstance(data__message, str):
                data__message_len = len(data__message)
                if data__message_len > 2000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be shorter than or equal to 2000 characters", value=data__message, name="" + (name_prefix or "data") + ".message", rule='maxLength')
        if "example" in data_keys:
            data_keys.remove("example")
            data__example = data["example"]
            if not (isinstance(data__example, str) or data__example is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".example must be string or null", value=data__example, name="" + (name_prefix or "data") + ".example", rule='type')
            if isinstance(data__example, str):
                data__example_len = len(data__example)
                if data__example_len > 4000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".example must be shorter than or equal to 4000 characters", value=data__example, name="" + (name_prefix or "data") + ".example", rule='maxLength')
        if "reproduce" in data_keys:
            data_keys.remove("reproduce")
            data__reproduce = data["reproduce"]
            if not (isinstance(data__reproduce, str) or data__reproduce is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reproduce must be string or null", value=data__reproduce, name="" + (name_prefix or "data") + ".reproduce", rule='type')
            if isinstance(data__reproduce, str):
                data__reproduce_len = len(data__reproduce)
                if data__reproduce_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".reproduce must be shorter than or equal to 1000 characters", value=data__reproduce, name="" + (name_prefix or "data") + ".reproduce", rule='maxLength')
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

validate = validate_https___agent_patch_gate_invalid_schemas_report_schema_json
