"""Generated from schemas/manifest.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('manifest', 'sample-card')
SCHEMA_SHA256 = "8d1c757fd8c7f26fe21f5ca3b5b2a29ae2f5d61e33036bc69fe9600a6a320e6a"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[0-9a-f]{64}$': re.compile('^[0-9a-f]{64}\\Z'),
    '^[^/\\\\]': re.compile('^[^/\\\\]'),
    '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$': re.compile('^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['properties']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "version" in data_keys:
            data_keys.remove("version")
            data__version = data["version"]
            if not (isinstance(data__version, (int, float)) and not isinstance(data__version, bool) and data__version == 1):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be same as const definition: 1", value=data__version, name="" + (name_prefix or "data") + ".version", rule='const')
        if "groups" in data_keys:
            data_keys.remove("groups")
            data__groups = data["groups"]
            if not (isinstance(data__groups, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".groups must be object", value=data__groups, name="" + (name_prefix or "data") + ".groups", rule='type')
            data__groups_is_dict = isinstance(data__groups, dict)
            if data__groups_is_dict:
                data__groups_keys = set(data__groups.keys())
                for data__groups_key in data__groups_keys:
                    if data__groups_key not in []:
                        data__groups_value = data__groups.get(data__groups_key)
                        if not (isinstance(data__groups_value, list)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".groups.{data__groups_key}".format(**locals()) + " must be array", value=data__groups_value, name="" + (name_prefix or "data") + ".groups.{data__groups_key}".format(**locals()) + "", rule='type')
                        data__groups_value_is_list = isinstance(data__groups_value, (list, tuple))
                        if data__groups_value_is_list:
                            data__groups_value_len = len(data__groups_value)
                            if data__groups_value_len < 1:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".groups.{data__groups_key}".format(**locals()) + " must contain at least 1 items", value=data__groups_value, name="" + (name_prefix or "data") + ".groups.{data__groups_key}".format(**locals()) + "", rule='minItems')
                            if data__groups_value_len > 10000:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".groups.{data__groups_key}".format(**locals()) + " must contain less than or equal to 10000 items", value=data__groups_value, name="" + (name_prefix or "data") + ".groups.{data__groups_key}".format(**locals()) + "", rule='maxItems')
                            for data__groups_value_x, data__groups_value_item in enumerate(data__groups_value):
                                validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_group_item(data__groups_value_item, custom_formats, (name_prefix or "data") + ".groups.{data__groups_key}[{data__groups_value_x}]".format(**locals()))
                data__groups_len = len(data__groups)
                if data__groups_len != 0:
                    data__groups_property_names = True
                    for data__groups_key in data__groups:
                        try:
                            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_group_name(data__groups_key, custom_formats, (name_prefix or "data") + ".groups")
                        except (JsonSchemaValueException, JsonSchemaValuesException):
                            data__groups_property_names = False
                    if not data__groups_property_names:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".groups must be named by propertyName definition", value=data__groups, name="" + (name_prefix or "data") + ".groups", rule='propertyNames')
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
                    validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_property(data__properties_item, custom_formats, (name_prefix or "data") + ".properties[{data__properties_x}]".format(**locals()))
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_property(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_any_of_count1 = 0
    if not data_any_of_count1:
        try:
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['harness', 'harness_sha256']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
            data_any_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if not data_any_of_count1:
        try:
            try:
                data_any_of_count2 = 0
                if not data_any_of_count2:
                    try:
                        data_is_dict = isinstance(data, dict)
                        if data_is_dict:
                            data__missing_keys = set(['harness']) - data.keys()
                            if data__missing_keys:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
                        data_any_of_count2 += 1
                    except (JsonSchemaValueException, JsonSchemaValuesException): pass
                if not data_any_of_count2:
                    try:
                        data_is_dict = isinstance(data, dict)
                        if data_is_dict:
                            data__missing_keys = set(['harness_sha256']) - data.keys()
                            if data__missing_keys:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
                        data_any_of_count2 += 1
                    except (JsonSchemaValueException, JsonSchemaValuesException): pass
                if not data_any_of_count2:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " cannot be validated by any definition", value=data, name="" + (name_prefix or "data") + "", rule='anyOf')
            except (JsonSchemaValueException, JsonSchemaValuesException): pass
            else:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must NOT match a disallowed definition", value=data, name="" + (name_prefix or "data") + "", rule='not')
            data_any_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if not data_any_of_count1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " cannot be validated by any definition", value=data, name="" + (name_prefix or "data") + "", rule='anyOf')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['test_id', 'card', 'fixtures']) - data.keys()
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
        if "card" in data_keys:
            data_keys.remove("card")
            data__card = data["card"]
            data__card_one_of_count3 = 0
            if data__card_one_of_count3 < 2:
                try:
                    validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_relpath(data__card, custom_formats, (name_prefix or "data") + ".card")
                    data__card_one_of_count3 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__card_one_of_count3 < 2:
                try:
                    if not (isinstance(data__card, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".card must be object", value=data__card, name="" + (name_prefix or "data") + ".card", rule='type')
                    data__card_one_of_count3 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__card_one_of_count3 != 1:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".card must be valid exactly by one definition" + (" (" + str(data__card_one_of_count3) + " matches found)"), value=data__card, name="" + (name_prefix or "data") + ".card", rule='oneOf')
        if "fixtures" in data_keys:
            data_keys.remove("fixtures")
            data__fixtures = data["fixtures"]
            if not (isinstance(data__fixtures, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixtures must be array", value=data__fixtures, name="" + (name_prefix or "data") + ".fixtures", rule='type')
            data__fixtures_is_list = isinstance(data__fixtures, (list, tuple))
            if data__fixtures_is_list:
                data__fixtures_len = len(data__fixtures)
                if data__fixtures_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixtures must contain at least 1 items", value=data__fixtures, name="" + (name_prefix or "data") + ".fixtures", rule='minItems')
                if data__fixtures_len > 10000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".fixtures must contain less than or equal to 10000 items", value=data__fixtures, name="" + (name_prefix or "data") + ".fixtures", rule='maxItems')
                for data__fixtures_x, data__fixtures_item in enumerate(data__fixtures):
                    validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_fixture_item(data__fixtures_item, custom_formats, (name_prefix or "data") + ".fixtures[{data__fixtures_x}]".format(**locals()))
        if "harness" in data_keys:
            data_keys.remove("harness")
            data__harness = data["harness"]
            if not (isinstance(data__harness, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness must be array", value=data__harness, name="" + (name_prefix or "data") + ".harness", rule='type')
            data__harness_is_list = isinstance(data__harness, (list, tuple))
            if data__harness_is_list:
                data__harness_len = len(data__harness)
                if data__harness_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness must contain at least 1 items", value=data__harness, name="" + (name_prefix or "data") + ".harness", rule='minItems')
                if data__harness_len > 10000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness must contain less than or equal to 10000 items", value=data__harness, name="" + (name_prefix or "data") + ".harness", rule='maxItems')
                for data__harness_x, data__harness_item in enumerate(data__harness):
                    validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_fixture_item(data__harness_item, custom_formats, (name_prefix or "data") + ".harness[{data__harness_x}]".format(**locals()))
        if "harness_sha256" in data_keys:
            data_keys.remove("harness_sha256")
            data__harnesssha256 = data["harness_sha256"]
            if not (isinstance(data__harnesssha256, str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_sha256 must be string", value=data__harnesssha256, name="" + (name_prefix or "data") + ".harness_sha256", rule='type')
            if isinstance(data__harnesssha256, str):
                if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__harnesssha256):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".harness_sha256 must match pattern ^[0-9a-f]{64}$", value=data__harnesssha256, name="" + (name_prefix or "data") + ".harness_sha256", rule='pattern')
        if "sample" in data_keys:
            data_keys.remove("sample")
            data__sample = data["sample"]
            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_relpath(data__sample, custom_formats, (name_prefix or "data") + ".sample")
        if "junit" in data_keys:
            data_keys.remove("junit")
            data__junit = data["junit"]
            if not (isinstance(data__junit, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit must be object", value=data__junit, name="" + (name_prefix or "data") + ".junit", rule='type')
            data__junit_is_dict = isinstance(data__junit, dict)
            if data__junit_is_dict:
                data__junit__missing_keys = set(['name']) - data__junit.keys()
                if data__junit__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit must contain " + (str(sorted(data__junit__missing_keys)) + " properties"), value=data__junit, name="" + (name_prefix or "data") + ".junit", rule='required')
                data__junit_keys = set(data__junit.keys())
                if "classname" in data__junit_keys:
                    data__junit_keys.remove("classname")
                    data__junit__classname = data__junit["classname"]
                    if not (isinstance(data__junit__classname, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit.classname must be string", value=data__junit__classname, name="" + (name_prefix or "data") + ".junit.classname", rule='type')
                    if isinstance(data__junit__classname, str):
                        data__junit__classname_len = len(data__junit__classname)
                        if data__junit__classname_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit.classname must be longer than or equal to 1 characters", value=data__junit__classname, name="" + (name_prefix or "data") + ".junit.classname", rule='minLength')
                        if data__junit__classname_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit.classname must be shorter than or equal to 4096 characters", value=data__junit__classname, name="" + (name_prefix or "data") + ".junit.classname", rule='maxLength')
                if "name" in data__junit_keys:
                    data__junit_keys.remove("name")
                    data__junit__name = data__junit["name"]
                    if not (isinstance(data__junit__name, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit.name must be string", value=data__junit__name, name="" + (name_prefix or "data") + ".junit.name", rule='type')
                    if isinstance(data__junit__name, str):
                        data__junit__name_len = len(data__junit__name)
                        if data__junit__name_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit.name must be longer than or equal to 1 characters", value=data__junit__name, name="" + (name_prefix or "data") + ".junit.name", rule='minLength')
                        if data__junit__name_len > 4096:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit.name must be shorter than or equal to 4096 characters", value=data__junit__name, name="" + (name_prefix or "data") + ".junit.name", rule='maxLength')
                if data__junit_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".junit must not contain "+str(data__junit_keys)+" properties", value=data__junit, name="" + (name_prefix or "data") + ".junit", rule='additionalProperties')
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
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_fixture_item(data, custom_formats={}, name_prefix=None):
    data_one_of_count4 = 0
    if data_one_of_count4 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_relpath(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count4 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count4 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_glob(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count4 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count4 < 2:
        try:
            if not (isinstance(data, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['group']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
                data_keys = set(data.keys())
                if "group" in data_keys:
                    data_keys.remove("group")
                    data__group = data["group"]
                    validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_group_name(data__group, custom_formats, (name_prefix or "data") + ".group")
                if data_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
            data_one_of_count4 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count4 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count4) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", rule='oneOf')
    return data

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_glob(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['glob']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "glob" in data_keys:
            data_keys.remove("glob")
            data__glob = data["glob"]
            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_relpath(data__glob, custom_formats, (name_prefix or "data") + ".glob")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", rule='additionalProperties')
    return data

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_relpath(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", rule='minLength')
        if data_len > 4096:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 4096 characters", value=data, name="" + (name_prefix or "data") + "", rule='maxLength')
        if not REGEX_PATTERNS['^[^/\\\\]'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[^/\\\\]", value=data, name="" + (name_prefix or "data") + "", rule='pattern')
    return data

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_group_name(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", value=data, name="" + (name_prefix or "data") + "", rule='pattern')
    return data

def validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_group_item(data, custom_formats={}, name_prefix=None):
    data_one_of_count5 = 0
    if data_one_of_count5 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_relpath(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count5 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count5 < 2:
        try:
            validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json___defs_glob(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count5 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count5 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count5) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", rule='oneOf')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_manifest_schema_json
