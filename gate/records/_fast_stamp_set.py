"""Generated from schemas/stamp-set.schema.json by gate.records.schemas; do not edit."""
# ruff: noqa
# mypy: ignore-errors
# fmt: off

SCHEMA_FILES = ('stamp-set',)
SCHEMA_SHA256 = "4c6dd70b833f8499c72811eb7d6e79750ed1889811c50e2380bb9bc2470120eb"

class Decimal:  # never an instance: no JSON value is a decimal.Decimal
    pass

import re
class JsonSchemaValueException(ValueError):
    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException


REGEX_PATTERNS = {
    '^[A-Za-z0-9._-]{1,255}\\.json$': re.compile('^[A-Za-z0-9._-]{1,255}\\.json\\Z'),
    '^[0-9a-f]{64}$': re.compile('^[0-9a-f]{64}\\Z'),
    '^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$': re.compile('^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}\\Z'),
    '^[0-9]{0,20}$': re.compile('^[0-9]{0,20}\\Z'),
    '^[0-9]{1,20}$': re.compile('^[0-9]{1,20}\\Z'),
    '^[A-Za-z0-9_-]{1,100}$': re.compile('^[A-Za-z0-9_-]{1,100}\\Z'),
    '^[A-Za-z0-9._-]{1,255}$': re.compile('^[A-Za-z0-9._-]{1,255}\\Z'),
    '^([0-9a-f]{40}|)$': re.compile('^([0-9a-f]{40}|)\\Z')
}

NoneType = type(None)

def validate_https___agent_patch_gate_invalid_schemas_stamp_set_schema_json(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['_type', 'subject', 'predicateType', 'predicate']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", rule='required')
        data_keys = set(data.keys())
        if "_type" in data_keys:
            data_keys.remove("_type")
            data__type = data["_type"]
            if not (isinstance(data__type, str) and data__type == 'https://in-toto.io/Statement/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + "._type must be same as const definition: https://in-toto.io/Statement/v1", value=data__type, name="" + (name_prefix or "data") + "._type", rule='const')
        if "subject" in data_keys:
            data_keys.remove("subject")
            data__subject = data["subject"]
            if not (isinstance(data__subject, list)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject must be array", value=data__subject, name="" + (name_prefix or "data") + ".subject", rule='type')
            data__subject_is_list = isinstance(data__subject, (list, tuple))
            if data__subject_is_list:
                data__subject_len = len(data__subject)
                if data__subject_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject must contain at least 1 items", value=data__subject, name="" + (name_prefix or "data") + ".subject", rule='minItems')
                if data__subject_len > 100000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject must contain less than or equal to 100000 items", value=data__subject, name="" + (name_prefix or "data") + ".subject", rule='maxItems')
                for data__subject_x, data__subject_item in enumerate(data__subject):
                    if not (isinstance(data__subject_item, dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}]".format(**locals()) + " must be object", value=data__subject_item, name="" + (name_prefix or "data") + ".subject[{data__subject_x}]".format(**locals()) + "", rule='type')
                    data__subject_item_is_dict = isinstance(data__subject_item, dict)
                    if data__subject_item_is_dict:
                        data__subject_item__missing_keys = set(['name', 'digest']) - data__subject_item.keys()
                        if data__subject_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}]".format(**locals()) + " must contain " + (str(sorted(data__subject_item__missing_keys)) + " properties"), value=data__subject_item, name="" + (name_prefix or "data") + ".subject[{data__subject_x}]".format(**locals()) + "", rule='required')
                        data__subject_item_keys = set(data__subject_item.keys())
                        if "name" in data__subject_item_keys:
                            data__subject_item_keys.remove("name")
                            data__subject_item__name = data__subject_item["name"]
                            if not (isinstance(data__subject_item__name, str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}].name".format(**locals()) + " must be string", value=data__subject_item__name, name="" + (name_prefix or "data") + ".subject[{data__subject_x}].name".format(**locals()) + "", rule='type')
                            if isinstance(data__subject_item__name, str):
                                if not REGEX_PATTERNS['^[A-Za-z0-9._-]{1,255}\\.json$'].search(data__subject_item__name):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}].name".format(**locals()) + " must match pattern ^[A-Za-z0-9._-]{1,255}\\.json$", value=data__subject_item__name, name="" + (name_prefix or "data") + ".subject[{data__subject_x}].name".format(**locals()) + "", rule='pattern')
                        if "digest" in data__subject_item_keys:
                            data__subject_item_keys.remove("digest")
                            data__subject_item__digest = data__subject_item["digest"]
                            if not (isinstance(data__subject_item__digest, dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}].digest".format(**locals()) + " must be object", value=data__subject_item__digest, name="" + (name_prefix or "data") + ".subject[{data__subject_x}].digest".format(**locals()) + "", rule='type')
                            data__subject_item__digest_is_dict = isinstance(data__subject_item__digest, dict)
                            if data__subject_item__digest_is_dict:
                                data__subject_item__digest__missing_keys = set(['sha256']) - data__subject_item__digest.keys()
                                if data__subject_item__digest__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}].digest".format(**locals()) + " must contain " + (str(sorted(data__subject_item__digest__missing_keys)) + " properties"), value=data__subject_item__digest, name="" + (name_prefix or "data") + ".subject[{data__subject_x}].digest".format(**locals()) + "", rule='required')
                                data__subject_item__digest_keys = set(data__subject_item__digest.keys())
                                if "sha256" in data__subject_item__digest_keys:
                                    data__subject_item__digest_keys.remove("sha256")
                                    data__subject_item__digest__sha256 = data__subject_item__digest["sha256"]
                                    if not (isinstance(data__subject_item__digest__sha256, str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}].digest.sha256".format(**locals()) + " must be string", value=data__subject_item__digest__sha256, name="" + (name_prefix or "data") + ".subject[{data__subject_x}].digest.sha256".format(**locals()) + "", rule='type')
                                    if isinstance(data__subject_item__digest__sha256, str):
                                        if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__subject_item__digest__sha256):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".subject[{data__subject_x}].digest.sha256".format(**locals()) + " must match pattern ^[0-9a-f]{64}$", value=data__subject_item__digest__sha256, name="" + (name_prefix or "data") + ".subject[{data__subject_x}].digest.sha256".format(**locals()) + "", rule='pattern')
        if "predicateType" in data_keys:
            data_keys.remove("predicateType")
            data__predicateType = data["predicateType"]
            if not (isinstance(data__predicateType, str) and data__predicateType == 'https://github.com/agent-patch-gate/gate/stamp-set/v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicateType must be same as const definition: https://github.com/agent-patch-gate/gate/stamp-set/v1", value=data__predicateType, name="" + (name_prefix or "data") + ".predicateType", rule='const')
        if "predicate" in data_keys:
            data_keys.remove("predicate")
            data__predicate = data["predicate"]
            if not (isinstance(data__predicate, dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate must be object", value=data__predicate, name="" + (name_prefix or "data") + ".predicate", rule='type')
            data__predicate_is_dict = isinstance(data__predicate, dict)
            if data__predicate_is_dict:
                data__predicate__missing_keys = set(['server_class', 'repository', 'repository_id', 'run_id', 'run_attempt', 'job', 'artifact', 'head_sha', 'manifest_sha256', 'policy_sha256']) - data__predicate.keys()
                if data__predicate__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate must contain " + (str(sorted(data__predicate__missing_keys)) + " properties"), value=data__predicate, name="" + (name_prefix or "data") + ".predicate", rule='required')
                data__predicate_keys = set(data__predicate.keys())
                if "server_class" in data__predicate_keys:
                    data__predicate_keys.remove("server_class")
                    data__predicate__serverclass = data__predicate["server_class"]
                    if not (isinstance(data__predicate__serverclass, str) and data__predicate__serverclass == 'local-pinned' or isinstance(data__predicate__serverclass, str) and data__predicate__serverclass == 'free-server'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.server_class must be one of ['local-pinned', 'free-server']", value=data__predicate__serverclass, name="" + (name_prefix or "data") + ".predicate.server_class", rule='enum')
                if "repository" in data__predicate_keys:
                    data__predicate_keys.remove("repository")
                    data__predicate__repository = data__predicate["repository"]
                    if not (isinstance(data__predicate__repository, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.repository must be string", value=data__predicate__repository, name="" + (name_prefix or "data") + ".predicate.repository", rule='type')
                    if isinstance(data__predicate__repository, str):
                        if not REGEX_PATTERNS['^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$'].search(data__predicate__repository):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.repository must match pattern ^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$", value=data__predicate__repository, name="" + (name_prefix or "data") + ".predicate.repository", rule='pattern')
                if "repository_id" in data__predicate_keys:
                    data__predicate_keys.remove("repository_id")
                    data__predicate__repositoryid = data__predicate["repository_id"]
                    if not (isinstance(data__predicate__repositoryid, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.repository_id must be string", value=data__predicate__repositoryid, name="" + (name_prefix or "data") + ".predicate.repository_id", rule='type')
                    if isinstance(data__predicate__repositoryid, str):
                        if not REGEX_PATTERNS['^[0-9]{0,20}$'].search(data__predicate__repositoryid):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.repository_id must match pattern ^[0-9]{0,20}$", value=data__predicate__repositoryid, name="" + (name_prefix or "data") + ".predicate.repository_id", rule='pattern')
                if "run_id" in data__predicate_keys:
                    data__predicate_keys.remove("run_id")
                    data__predicate__runid = data__predicate["run_id"]
                    if not (isinstance(data__predicate__runid, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.run_id must be string", value=data__predicate__runid, name="" + (name_prefix or "data") + ".predicate.run_id", rule='type')
                    if isinstance(data__predicate__runid, str):
                        if not REGEX_PATTERNS['^[0-9]{1,20}$'].search(data__predicate__runid):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.run_id must match pattern ^[0-9]{1,20}$", value=data__predicate__runid, name="" + (name_prefix or "data") + ".predicate.run_id", rule='pattern')
                if "run_attempt" in data__predicate_keys:
                    data__predicate_keys.remove("run_attempt")
                    data__predicate__runattempt = data__predicate["run_attempt"]
                    if not ((isinstance(data__predicate__runattempt, int) and not isinstance(data__predicate__runattempt, bool))):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.run_attempt must be integer", value=data__predicate__runattempt, name="" + (name_prefix or "data") + ".predicate.run_attempt", rule='type')
                    if isinstance(data__predicate__runattempt, (int, float, Decimal)) and not isinstance(data__predicate__runattempt, bool):
                        if data__predicate__runattempt < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.run_attempt must be bigger than or equal to 1", value=data__predicate__runattempt, name="" + (name_prefix or "data") + ".predicate.run_attempt", rule='minimum')
                if "job" in data__predicate_keys:
                    data__predicate_keys.remove("job")
                    data__predicate__job = data__predicate["job"]
                    if not (isinstance(data__predicate__job, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.job must be string", value=data__predicate__job, name="" + (name_prefix or "data") + ".predicate.job", rule='type')
                    if isinstance(data__predicate__job, str):
                        if not REGEX_PATTERNS['^[A-Za-z0-9_-]{1,100}$'].search(data__predicate__job):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.job must match pattern ^[A-Za-z0-9_-]{1,100}$", value=data__predicate__job, name="" + (name_prefix or "data") + ".predicate.job", rule='pattern')
                if "artifact" in data__predicate_keys:
                    data__predicate_keys.remove("artifact")
                    data__predicate__artifact = data__predicate["artifact"]
                    if not (isinstance(data__predicate__artifact, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.artifact must be string", value=data__predicate__artifact, name="" + (name_prefix or "data") + ".predicate.artifact", rule='type')
                    if isinstance(data__predicate__artifact, str):
                        if not REGEX_PATTERNS['^[A-Za-z0-9._-]{1,255}$'].search(data__predicate__artifact):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.artifact must match pattern ^[A-Za-z0-9._-]{1,255}$", value=data__predicate__artifact, name="" + (name_prefix or "data") + ".predicate.artifact", rule='pattern')
                if "workflow_ref" in data__predicate_keys:
                    data__predicate_keys.remove("workflow_ref")
                    data__predicate__workflowref = data__predicate["workflow_ref"]
                    if not (isinstance(data__predicate__workflowref, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.workflow_ref must be string", value=data__predicate__workflowref, name="" + (name_prefix or "data") + ".predicate.workflow_ref", rule='type')
                    if isinstance(data__predicate__workflowref, str):
                        data__predicate__workflowref_len = len(data__predicate__workflowref)
                        if data__predicate__workflowref_len > 1024:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.workflow_ref must be shorter than or equal to 1024 characters", value=data__predicate__workflowref, name="" + (name_prefix or "data") + ".predicate.workflow_ref", rule='maxLength')
                if "head_sha" in data__predicate_keys:
                    data__predicate_keys.remove("head_sha")
                    data__predicate__headsha = data__predicate["head_sha"]
                    if not (isinstance(data__predicate__headsha, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.head_sha must be string", value=data__predicate__headsha, name="" + (name_prefix or "data") + ".predicate.head_sha", rule='type')
                    if isinstance(data__predicate__headsha, str):
                        if not REGEX_PATTERNS['^([0-9a-f]{40}|)$'].search(data__predicate__headsha):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.head_sha must match pattern ^([0-9a-f]{40}|)$", value=data__predicate__headsha, name="" + (name_prefix or "data") + ".predicate.head_sha", rule='pattern')
                if "manifest_sha256" in data__predicate_keys:
                    data__predicate_keys.remove("manifest_sha256")
                    data__predicate__manifestsha256 = data__predicate["manifest_sha256"]
                    if not (isinstance(data__predicate__manifestsha256, str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.manifest_sha256 must be string", value=data__predicate__manifestsha256, name="" + (name_prefix or "data") + ".predicate.manifest_sha256", rule='type')
                    if isinstance(data__predicate__manifestsha256, str):
                        if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__predicate__manifestsha256):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.manifest_sha256 must match pattern ^[0-9a-f]{64}$", value=data__predicate__manifestsha256, name="" + (name_prefix or "data") + ".predicate.manifest_sha256", rule='pattern')
                if "policy_sha256" in data__predicate_keys:
                    data__predicate_keys.remove("policy_sha256")
                    data__predicate__policysha256 = data__predicate["policy_sha256"]
                    if not (isinstance(data__predicate__policysha256, str) or data__predicate__policysha256 is None):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.policy_sha256 must be string or null", value=data__predicate__policysha256, name="" + (name_prefix or "data") + ".predicate.policy_sha256", rule='type')
                    if isinstance(data__predicate__policysha256, str):
                        if not REGEX_PATTERNS['^[0-9a-f]{64}$'].search(data__predicate__policysha256):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate.policy_sha256 must match pattern ^[0-9a-f]{64}$", value=data__predicate__policysha256, name="" + (name_prefix or "data") + ".predicate.policy_sha256", rule='pattern')
                if data__predicate_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".predicate must not contain "+str(data__predicate_keys)+" properties", value=data__predicate, name="" + (name_prefix or "data") + ".predicate", rule='additionalProperties')
    return data

validate = validate_https___agent_patch_gate_invalid_schemas_stamp_set_schema_json
