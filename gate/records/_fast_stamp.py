"""Generated from schemas/stamp.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('stamp', 'sample-card')
SCHEMA_SHA256 = "8177985d86912cf0bba35a5c7ded3ee569a5411804e5ee930739ddc00909db2a"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$': re.compile('^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\\Z'),
    '^[0-9a-f]{64}$': re.compile('^[0-9a-f]{64}\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['run_id', 'test_id', 'server_class', 'fixture_hash', 'sample_card', 'outcome', 'freeze_expires_at']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain ")
        data_keys = set(data.keys())
        if "run_id" in data_keys:
            data_keys.remove("run_id")
            data__runid = data["run_id"]
            if not (isinstance(data__runid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".run_id must be string")
            if isinstance(data__runid, str):
                if not REGEX_PATTERNS['^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'].search(data__runid):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".run_id must match pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
        if "test_id" in data_keys:
            data_keys.remove("test_id")
            data__testid = data["test_id"]
            if not (isinstance(data__testid, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".test_id must be string")
            if isinstance(data__testid, str):
                data__testid_len = len(data__testid)
                if data__testid_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".test_id must be longer than or equal to 1 characters")
                if data__testid_len > 512:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".test_id must be shorter than or equal to 512 characters")
        if "server_class" in data_keys:
            data_keys.remove("server_class")
            data__serverclass = data["server_class"]
            if not (isinstance(data__serverclass, str) and data__serverclass == 'local-pinned' or isinstance(data__serverclass, str) and data__serverclass == 'free-server'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".server_class must be one of ['local-pinned', 'free-server']")
        if "fixture_hash" in data_keys:
            data_keys.remove("fixture_hash")
            data__fixturehash = data["fixture_hash"]
            if not (isinstance(data__fixturehash, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_hash must be string")
            if isinstance(data__fixturehash, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__fixturehash):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_hash must match pattern ^[0-9a-f]{64}$")
        if "harness_sha256" in data_keys:
            data_keys.remove("harness_sha256")
            data__harnesssha256 = data["harness_sha256"]
            if not (isinstance(data__harnesssha256, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_sha256 must be string")
            if isinstance(data__harnesssha256, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__harnesssha256):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_sha256 must match pattern ^[0-9a-f]{64}$")
        if "sample_card" in data_keys:
            data_keys.remove("sample_card")
            data__samplecard = data["sample_card"]
            validate_https___agent_patch_gate_invalid_schemas_sample_card_schema_json(data__samplecard, custom_formats, (name_prefix or "data") + ".sample_card")
        if "outcome" in data_keys:
            data_keys.remove("outcome")
            data__outcome = data["outcome"]
            if not (isinstance(data__outcome, str) and data__outcome == 'pass' or isinstance(data__outcome, str) and data__outcome == 'assert_fail' or isinstance(data__outcome, str) and data__outcome == 'resource_exit' or isinstance(data__outcome, str) and data__outcome == 'empty_body'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".outcome must be one of ['pass', 'assert_fail', 'resource_exit', 'empty_body']")
        if "freeze_expires_at" in data_keys:
            data_keys.remove("freeze_expires_at")
            data__freezeexpiresat = data["freeze_expires_at"]
            if not ((isinstance(data__freezeexpiresat, int) and not isinstance(data__freezeexpiresat, bool)) or data__freezeexpiresat is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_expires_at must be integer or null")
            if isinstance(data__freezeexpiresat, (int, float, Decimal)) and not isinstance(data__freezeexpiresat, bool):
                if data__freezeexpiresat < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".freeze_expires_at must be bigger than or equal to 0")
        if "fixture_sha256" in data_keys:
            data_keys.remove("fixture_sha256")
            data__fixturesha256 = data["fixture_sha256"]
            if not (isinstance(data__fixturesha256, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_sha256 must be string")
            if isinstance(data__fixturesha256, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__fixturesha256):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_sha256 must match pattern ^[0-9a-f]{64}$")
        if "fixture_path" in data_keys:
            data_keys.remove("fixture_path")
            data__fixturepath = data["fixture_path"]
            if not (isinstance(data__fixturepath, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_path must be string")
            if isinstance(data__fixturepath, str):
                data__fixturepath_len = len(data__fixturepath)
                if data__fixturepath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_path must be longer than or equal to 1 characters")
                if data__fixturepath_len > 4096:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixture_path must be shorter than or equal to 4096 characters")
        if "transport_ok" in data_keys:
            data_keys.remove("transport_ok")
            data__transportok = data["transport_ok"]
            if not (isinstance(data__transportok, bool) or data__transportok is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport_ok must be boolean or null")
        if "status_code" in data_keys:
            data_keys.remove("status_code")
            data__statuscode = data["status_code"]
            if not ((isinstance(data__statuscode, int) and not isinstance(data__statuscode, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".status_code must be integer")
        if "timed_out" in data_keys:
            data_keys.remove("timed_out")
            data__timedout = data["timed_out"]
            if not (isinstance(data__timedout, bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".timed_out must be boolean")
        if "retry_count" in data_keys:
            data_keys.remove("retry_count")
            data__retrycount = data["retry_count"]
            if not ((isinstance(data__retrycount, int) and not isinstance(data__retrycount, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".retry_count must be integer")
            if isinstance(data__retrycount, (int, float, Decimal)) and not isinstance(data__retrycount, bool):
                if data__retrycount < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".retry_count must be bigger than or equal to 0")
        if "exit_code" in data_keys:
            data_keys.remove("exit_code")
            data__exitcode = data["exit_code"]
            if not ((isinstance(data__exitcode, int) and not isinstance(data__exitcode, bool)) or data__exitcode is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".exit_code must be integer or null")
        if "signal" in data_keys:
            data_keys.remove("signal")
            data__signal = data["signal"]
            if not ((isinstance(data__signal, int) and not isinstance(data__signal, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".signal must be integer")
            if isinstance(data__signal, (int, float, Decimal)) and not isinstance(data__signal, bool):
                if data__signal < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".signal must be bigger than or equal to 1")
        if "body_bytes" in data_keys:
            data_keys.remove("body_bytes")
            data__bodybytes = data["body_bytes"]
            if not ((isinstance(data__bodybytes, int) and not isinstance(data__bodybytes, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".body_bytes must be integer")
            if isinstance(data__bodybytes, (int, float, Decimal)) and not isinstance(data__bodybytes, bool):
                if data__bodybytes < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".body_bytes must be bigger than or equal to 0")
        if "wall_seconds" in data_keys:
            data_keys.remove("wall_seconds")
            data__wallseconds = data["wall_seconds"]
            if not ((isinstance(data__wallseconds, (int, float)) and not isinstance(data__wallseconds, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".wall_seconds must be number")
            if isinstance(data__wallseconds, (int, float, Decimal)) and not isinstance(data__wallseconds, bool):
                if data__wallseconds < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".wall_seconds must be bigger than or equal to 0")
        if "note" in data_keys:
            data_keys.remove("note")
            data__note = data["note"]
            if not (isinstance(data__note, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".note must be string")
            if isinstance(data__note, str):
                data__note_len = len(data__note)
                if data__note_len > 4096:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".note must be shorter than or equal to 4096 characters")
        if "source" in data_keys:
            data_keys.remove("source")
            data__source = data["source"]
            if not (isinstance(data__source, str) and data__source == 'command' or isinstance(data__source, str) and data__source == 'recorded' or isinstance(data__source, str) and data__source == 'junit' or isinstance(data__source, str) and data__source == 'pytest-plugin' or isinstance(data__source, str) and data__source == 'pytest-recorder'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".source must be one of ['command', 'recorded', 'junit', 'pytest-plugin', 'pytest-recorder']")
        if "isolation" in data_keys:
            data_keys.remove("isolation")
            data__isolation = data["isolation"]
            if not (isinstance(data__isolation, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation must be object")
            data__isolation_is_dict = isinstance(data__isolation, dict)
            if data__isolation_is_dict:
                data__isolation__missing_keys = set(['level', 'by', 'ptrace_scope']) - data__isolation.keys()
                if data__isolation__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation must contain ")
                data__isolation_keys = set(data__isolation.keys())
                if "level" in data__isolation_keys:
                    data__isolation_keys.remove("level")
                    data__isolation__level = data__isolation["level"]
                    if not (isinstance(data__isolation__level, str) and data__isolation__level == 'none' or isinstance(data__isolation__level, str) and data__isolation__level == 'process' or isinstance(data__isolation__level, str) and data__isolation__level == 'namespace' or isinstance(data__isolation__level, str) and data__isolation__level == 'user'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation.level must be one of ['none', 'process', 'namespace', 'user']")
                if "by" in data__isolation_keys:
                    data__isolation_keys.remove("by")
                    data__isolation__by = data__isolation["by"]
                    if not (isinstance(data__isolation__by, str) and data__isolation__by == 'bwrap' or isinstance(data__isolation__by, str) and data__isolation__by == 'unshare' or isinstance(data__isolation__by, str) and data__isolation__by == 'sudo-unshare' or data__isolation__by is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation.by must be one of ['bwrap', 'unshare', 'sudo-unshare', None]")
                if "ptrace_scope" in data__isolation_keys:
                    data__isolation_keys.remove("ptrace_scope")
                    data__isolation__ptracescope = data__isolation["ptrace_scope"]
                    if not ((isinstance(data__isolation__ptracescope, int) and not isinstance(data__isolation__ptracescope, bool)) or data__isolation__ptracescope is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation.ptrace_scope must be integer or null")
                    if isinstance(data__isolation__ptracescope, (int, float, Decimal)) and not isinstance(data__isolation__ptracescope, bool):
                        if data__isolation__ptracescope < 0:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation.ptrace_scope must be bigger than or equal to 0")
                        if data__isolation__ptracescope > 3:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation.ptrace_scope must be smaller than or equal to 3")
                if data__isolation_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation must not contain "+str(data__isolation_keys)+" properties")
        if "written_at" in data_keys:
            data_keys.remove("written_at")
            data__writtenat = data["written_at"]
            if not ((isinstance(data__writtenat, int) and not isinstance(data__writtenat, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".written_at must be integer")
            if isinstance(data__writtenat, (int, float, Decimal)) and not isinstance(data__writtenat, bool):
                if data__writtenat < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".written_at must be bigger than or equal to 0")
        if "gate_version" in data_keys:
            data_keys.remove("gate_version")
            data__gateversion = data["gate_version"]
            if not (isinstance(data__gateversion, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be string")
            if isinstance(data__gateversion, str):
                data__gateversion_len = len(data__gateversion)
                if data__gateversion_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate_version must be shorter than or equal to 64 characters")
        if "hypothesis" in data_keys:
            data_keys.remove("hypothesis")
            data__hypothesis = data["hypothesis"]
            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data__hypothesis, custom_formats, (name_prefix or "data") + ".hypothesis")
        if "failure" in data_keys:
            data_keys.remove("failure")
            data__failure = data["failure"]
            validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_failure(data__failure, custom_formats, (name_prefix or "data") + ".failure")
        if "location" in data_keys:
            data_keys.remove("location")
            data__location = data["location"]
            if not (isinstance(data__location, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".location must be object")
            data__location_is_dict = isinstance(data__location, dict)
            if data__location_is_dict:
                data__location__missing_keys = set(['path']) - data__location.keys()
                if data__location__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".location must contain ")
                data__location_keys = set(data__location.keys())
                if "path" in data__location_keys:
                    data__location_keys.remove("path")
                    data__location__path = data__location["path"]
                    if not (isinstance(data__location__path, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.path must be string")
                    if isinstance(data__location__path, str):
                        data__location__path_len = len(data__location__path)
                        if data__location__path_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.path must be longer than or equal to 1 characters")
                        if data__location__path_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.path must be shorter than or equal to 4096 characters")
                if "line" in data__location_keys:
                    data__location_keys.remove("line")
                    data__location__line = data__location["line"]
                    if not ((isinstance(data__location__line, int) and not isinstance(data__location__line, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.line must be integer")
                    if isinstance(data__location__line, (int, float, Decimal)) and not isinstance(data__location__line, bool):
                        if data__location__line < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".location.line must be bigger than or equal to 1")
                if data__location_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".location must not contain "+str(data__location_keys)+" properties")
        if "harness_files" in data_keys:
            data_keys.remove("harness_files")
            data__harnessfiles = data["harness_files"]
            if not (isinstance(data__harnessfiles, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_files must be array")
            data__harnessfiles_is_list = isinstance(data__harnessfiles, (list, tuple))
            if data__harnessfiles_is_list:
                data__harnessfiles_len = len(data__harnessfiles)
                if data__harnessfiles_len > 200:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_files must contain less than or equal to 200 items")
                for data__harnessfiles_x, data__harnessfiles_item in enumerate(data__harnessfiles):
                    if not (isinstance(data__harnessfiles_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_files[{data__harnessfiles_x}]".format(**locals()) + " must be string")
                    if isinstance(data__harnessfiles_item, str):
                        data__harnessfiles_item_len = len(data__harnessfiles_item)
                        if data__harnessfiles_item_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_files[{data__harnessfiles_x}]".format(**locals()) + " must be longer than or equal to 1 characters")
                        if data__harnessfiles_item_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_files[{data__harnessfiles_x}]".format(**locals()) + " must be shorter than or equal to 4096 characters")
        if "ungated" in data_keys:
            data_keys.remove("ungated")
            data__ungated = data["ungated"]
            if not (isinstance(data__ungated, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must be object")
            data__ungated_is_dict = isinstance(data__ungated, dict)
            if data__ungated_is_dict:
                data__ungated__missing_keys = set(['count', 'tests']) - data__ungated.keys()
                if data__ungated__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must contain ")
                data__ungated_keys = set(data__ungated.keys())
                if "count" in data__ungated_keys:
                    data__ungated_keys.remove("count")
                    data__ungated__count = data__ungated["count"]
                    if not ((isinstance(data__ungated__count, int) and not isinstance(data__ungated__count, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.count must be integer")
                    if isinstance(data__ungated__count, (int, float, Decimal)) and not isinstance(data__ungated__count, bool):
                        if data__ungated__count < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.count must be bigger than or equal to 1")
                if "tests" in data__ungated_keys:
                    data__ungated_keys.remove("tests")
                    data__ungated__tests = data__ungated["tests"]
                    if not (isinstance(data__ungated__tests, list)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests must be array")
                    data__ungated__tests_is_list = isinstance(data__ungated__tests, (list, tuple))
                    if data__ungated__tests_is_list:
                        data__ungated__tests_len = len(data__ungated__tests)
                        if data__ungated__tests_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests must contain at least 1 items")
                        if data__ungated__tests_len > 50:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests must contain less than or equal to 50 items")
                        for data__ungated__tests_x, data__ungated__tests_item in enumerate(data__ungated__tests):
                            if not (isinstance(data__ungated__tests_item, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + " must be object")
                            data__ungated__tests_item_is_dict = isinstance(data__ungated__tests_item, dict)
                            if data__ungated__tests_item_is_dict:
                                data__ungated__tests_item__missing_keys = set(['test', 'kind']) - data__ungated__tests_item.keys()
                                if data__ungated__tests_item__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + " must contain ")
                                data__ungated__tests_item_keys = set(data__ungated__tests_item.keys())
                                if "test" in data__ungated__tests_item_keys:
                                    data__ungated__tests_item_keys.remove("test")
                                    data__ungated__tests_item__test = data__ungated__tests_item["test"]
                                    if not (isinstance(data__ungated__tests_item__test, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + " must be string")
                                    if isinstance(data__ungated__tests_item__test, str):
                                        data__ungated__tests_item__test_len = len(data__ungated__tests_item__test)
                                        if data__ungated__tests_item__test_len < 1:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + " must be longer than or equal to 1 characters")
                                        if data__ungated__tests_item__test_len > 4096:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].test".format(**locals()) + " must be shorter than or equal to 4096 characters")
                                if "kind" in data__ungated__tests_item_keys:
                                    data__ungated__tests_item_keys.remove("kind")
                                    data__ungated__tests_item__kind = data__ungated__tests_item["kind"]
                                    if not (isinstance(data__ungated__tests_item__kind, str) and data__ungated__tests_item__kind == 'given' or isinstance(data__ungated__tests_item__kind, str) and data__ungated__tests_item__kind == 'stateful'):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}].kind".format(**locals()) + " must be one of ['given', 'stateful']")
                                if data__ungated__tests_item_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated.tests[{data__ungated__tests_x}]".format(**locals()) + " must not contain "+str(data__ungated__tests_item_keys)+" properties")
                if data__ungated_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".ungated must not contain "+str(data__ungated_keys)+" properties")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_failure(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['type', 'message', 'example', 'reproduce']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain ")
        data_keys = set(data.keys())
        if "type" in data_keys:
            data_keys.remove("type")
            data__type = data["type"]
            if not (isinstance(data__type, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".type must be string")
            if isinstance(data__type, str):
                data__type_len = len(data__type)
                if data__type_len > 200:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".type must be shorter than or equal to 200 characters")
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            if not (isinstance(data__message, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be string")
            if isinstance(data__message, str):
                data__message_len = len(data__message)
                if data__message_len > 2000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be shorter than or equal to 2000 characters")
        if "example" in data_keys:
            data_keys.remove("example")
            data__example = data["example"]
            if not (isinstance(data__example, str) or data__example is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".example must be string or null")
            if isinstance(data__example, str):
                data__example_len = len(data__example)
                if data__example_len > 4000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".example must be shorter than or equal to 4000 characters")
        if "reproduce" in data_keys:
            data_keys.remove("reproduce")
            data__reproduce = data["reproduce"]
            if not (isinstance(data__reproduce, str) or data__reproduce is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reproduce must be string or null")
            if isinstance(data__reproduce, str):
                data__reproduce_len = len(data__reproduce)
                if data__reproduce_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".reproduce must be shorter than or equal to 1000 characters")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data

def validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json___defs_hypothesis(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object")
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['version', 'seed', 'max_examples', 'derandomize', 'database', 'deadline_ms', 'suppress_health_check', 'examples_run']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain ")
        data_keys = set(data.keys())
        if "version" in data_keys:
            data_keys.remove("version")
            data__version = data["version"]
            if not (isinstance(data__version, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be string")
            if isinstance(data__version, str):
                data__version_len = len(data__version)
                if data__version_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be longer than or equal to 1 characters")
                if data__version_len > 64:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be shorter than or equal to 64 characters")
        if "seed" in data_keys:
            data_keys.remove("seed")
            data__seed = data["seed"]
            if not ((isinstance(data__seed, int) and not isinstance(data__seed, bool)) or data__seed is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".seed must be integer or null")
        if "max_examples" in data_keys:
            data_keys.remove("max_examples")
            data__maxexamples = data["max_examples"]
            if not ((isinstance(data__maxexamples, int) and not isinstance(data__maxexamples, bool))):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_examples must be integer")
            if isinstance(data__maxexamples, (int, float, Decimal)) and not isinstance(data__maxexamples, bool):
                if data__maxexamples < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".max_examples must be bigger than or equal to 1")
        if "derandomize" in data_keys:
            data_keys.remove("derandomize")
            data__derandomize = data["derandomize"]
            if not (isinstance(data__derandomize, bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".derandomize must be boolean")
        if "database" in data_keys:
            data_keys.remove("database")
            data__database = data["database"]
            if not (data__database is None or isinstance(data__database, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".database must be null or string")
            if isinstance(data__database, str):
                data__database_len = len(data__database)
                if data__database_len > 200:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".database must be shorter than or equal to 200 characters")
        if "deadline_ms" in data_keys:
            data_keys.remove("deadline_ms")
            data__deadlinems = data["deadline_ms"]
            if not ((isinstance(data__deadlinems, int) and not isinstance(data__deadlinems, bool)) or data__deadlinems is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be integer or null")
            if isinstance(data__deadlinems, (int, float, Decimal)) and not isinstance(data__deadlinems, bool):
                if data__deadlinems < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".deadline_ms must be bigger than or equal to 0")
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
                    if not (isinstance(data__suppresshealthcheck_item, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + " must be string")
                    if isinstance(data__suppresshealthcheck_item, str):
                        data__suppresshealthcheck_item_len = len(data__suppresshealthcheck_item)
                        if data__suppresshealthcheck_item_len > 64:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".suppress_health_check[{data__suppresshealthcheck_x}]".format(**locals()) + " must be shorter than or equal to 64 characters")
        if "examples_run" in data_keys:
            data_keys.remove("examples_run")
            data__examplesrun = data["examples_run"]
            if not ((isinstance(data__examplesrun, int) and not isinstance(data__examplesrun, bool)) or data__examplesrun is None):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".examples_run must be integer or null")
            if isinstance(data__examplesrun, (int, float, Decimal)) and not isinstance(data__examplesrun, bool):
                if data__examplesrun < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".examples_run must be bigger than or equal to 0")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties")
    return data

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

validate = validate_https___agent_patch_gate_invalid_schemas_stamp_schema_json
