"""Regenerate ``openapi_subset.json`` from GitHub's official OpenAPI description.

The source is the npm package ``@octokit/openapi`` (file
``generated/api.github.com.deref.json``: the api.github.com description with every ``$ref``
resolved).  Only the operations in :data:`OPERATIONS` are kept, with their parameters, request
body schemas and response schemas; the (large) ``examples`` maps are dropped.  The output is
written with sorted keys so that regenerating from the same package version is byte-identical.

Usage (needs ``npm`` and the npm registry)::

    python -m tests.github_double.regen                 # latest published version
    python -m tests.github_double.regen --version 23.0.2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

PACKAGE = "@octokit/openapi"
MEMBER = "package/generated/api.github.com.deref.json"
OUTPUT = Path(__file__).with_name("openapi_subset.json")

# (method, path template) of every operation the double serves.  These are the calls PyGithub
# makes for Github(base_url=...).get_repo("o/r").create_check_run(...), CheckRun.edit(...),
# Repository.get_commit(sha).get_check_runs(...), Repository.get_check_run(id) and
# CheckRun.get_annotations(); and, for the pull-request comment, Repository.get_issue(n),
# Issue.get_comments(), Issue.create_comment(body) and IssueComment.edit(body);
# Repository.compare(base, head) for the files a pull request changes; and
# Repository.get_contents(path, ref) for the base commit's manifest.
OPERATIONS: tuple[tuple[str, str], ...] = (
    ("get", "/repos/{owner}/{repo}"),
    ("get", "/repos/{owner}/{repo}/commits/{ref}"),
    ("post", "/repos/{owner}/{repo}/check-runs"),
    ("get", "/repos/{owner}/{repo}/check-runs/{check_run_id}"),
    ("patch", "/repos/{owner}/{repo}/check-runs/{check_run_id}"),
    ("get", "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations"),
    ("get", "/repos/{owner}/{repo}/commits/{ref}/check-runs"),
    # the optional pull-request comment (gate/github/checks.py upsert_comment)
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),
    # the files a pull request changes against its base (gate/github/checks.py changed_files)
    ("get", "/repos/{owner}/{repo}/compare/{basehead}"),
    # the base commit's manifest, for which files the properties depend on (gate/github/checks.py
    # file_at)
    ("get", "/repos/{owner}/{repo}/contents/{path}"),
)


def _strip_examples(node: Any) -> Any:
    """Drop media-type / parameter ``examples`` maps (not schema ``example`` values)."""
    if isinstance(node, dict):
        return {k: _strip_examples(v) for k, v in node.items() if k != "examples"}
    if isinstance(node, list):
        return [_strip_examples(v) for v in node]
    return node


def cut_subset(full: dict[str, Any], package_meta: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for method, template in OPERATIONS:
        item = full["paths"][template]
        operation = item[method]
        entry = paths.setdefault(template, {})
        if "parameters" in item:
            entry["parameters"] = _strip_examples(item["parameters"])
        entry[method] = _strip_examples(operation)
    info = dict(full["info"])
    info["version"] = package_meta["version"]
    return {
        "openapi": full["openapi"],
        "info": info,
        "servers": full.get("servers", []),
        "paths": paths,
        "x-subset-source": {
            "package": PACKAGE,
            "version": package_meta["version"],
            "integrity": package_meta.get("integrity"),
            "file": MEMBER.removeprefix("package/"),
            "file_sha256": package_meta["file_sha256"],
            "operations": [f"{m.upper()} {p}" for m, p in OPERATIONS],
            "regenerate": "python -m tests.github_double.regen",
        },
    }


def fetch(version: str | None, workdir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    spec = f"{PACKAGE}@{version}" if version else PACKAGE
    out = subprocess.run(
        ["npm", "pack", spec, "--json", "--pack-destination", str(workdir)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    meta = json.loads(out)[0]
    tarball = workdir / meta["filename"]
    with tarfile.open(tarball, "r:gz") as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            raise SystemExit(f"{MEMBER} missing from {tarball.name}")
        raw = member.read()
    meta["file_sha256"] = hashlib.sha256(raw).hexdigest()
    return json.loads(raw), meta


def render(subset: dict[str, Any]) -> str:
    return json.dumps(subset, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", help="package version (default: latest)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="octokit-openapi-") as tmp:
        full, meta = fetch(args.version, Path(tmp))
    subset = cut_subset(full, meta)
    args.output.write_text(render(subset), encoding="utf-8")
    print(
        f"wrote {args.output} from {PACKAGE}@{meta['version']} "
        f"({len(OPERATIONS)} operations, {args.output.stat().st_size} bytes)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
