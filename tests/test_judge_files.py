"""What judges the patch is shown (SPEC §7): the files a pull request changes that the gated
properties depend on, per property, in the job summary, the check run, the log and the JSON
report; never deciding the door.

The table (gate/decide/judges.py) row by row, the event's base and head, the compare call
through the OpenAPI-checked HTTP double (listed, refused, too many files), a hostile patch that
edits its own manifest, hostile file names, and that the door is the same with or without it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.decide import judges
from gate.errors import GateInputError
from gate.github import action, checks, markdown, review, summary
from gate.github import judges as gh_judges
from gate.records import adopt, schemas
from gate.records.files import write_once
from tests.core_helpers import FREE, LOCAL, SHA_X, stamp, write_json
from tests.github_double import WRITE_TOKEN, GitHubDouble
from tests.test_action import _env, _outputs
from tests.typed_report import typed

BASE, HEAD = "a" * 40, "b" * 40
CODEC = ("tests/test_codec.py::test_round_trip", "tests/test_codec.py::test_decode_total")
OTHER = "tests/sub/test_other.py::test_other"


def props() -> list[judges.PropertyFiles]:
    return [judges.PropertyFiles(CODEC[0], "tests/test_codec.py",
                                 ("tests/test_codec.py", "mylib/codec.py", "forge.py"),
                                 ".github/gate-cards/round_trip.json"),
            judges.PropertyFiles(CODEC[1], "tests/test_codec.py",
                                 ("tests/test_codec.py", "mylib/codec.py"),
                                 ".github/gate-cards/decode_total.json"),
            judges.PropertyFiles(OTHER, "tests/sub/test_other.py",
                                 ("tests/sub/test_other.py", "data/other.bin"),
                                 ".github/gate-cards/other.json")]


CONFIG = {".github/gate.yml": "manifest", ".github/gate-policy.yml": "policy"}
EVERY = tuple(sorted([*CODEC, OTHER]))


def one(path: str, previous: str | None = None) -> judges.Changed | None:
    found = judges.judged([(path, previous)], props(), CONFIG)
    return found[0] if found else None


# --- the table, row by row ------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "kind"), [
    (".github/gate.yml", "manifest"), (".github/gate-policy.yml", "policy"),  # row 1
    (".github/workflows/properties.yml", "workflow"),  # row 2
    (".github/actions/setup/action.yml", "workflow"), (".github/scripts/run.sh", "workflow"),
    ("sitecustomize.py", "harness"), ("src/usercustomize.py", "harness"),  # row 3
    ("anywhere/deep/evil.pth", "harness"),
    ("conftest.py", "harness"), ("tests/sub/conftest.py", "harness"),  # row 4
    ("docs/conftest.py", "harness"), ("tests_extra/conftest.py", "harness"),
    ("tests/test_zz_helpers.py", "harness"), ("other/checks_test.py", "harness"),
    ("setup.py", "harness"), ("setup.cfg", "harness"), ("pyproject.toml", "harness"),
    ("plugins/forge/pyproject.toml", "harness"), ("noxfile.py", "harness"),
    (".coveragerc", "harness"), ("requirements-test.txt", "harness"),
    ("ci/test-requirements.txt", "harness"), ("constraints.txt", "harness"),
    ("requirements/test.in", "harness"), ("requirements/test.txt", "harness"),
    ("uv.lock", "harness"), ("Pipfile", "harness"),
    ("pytest.toml", "harness"), (".pytest.toml", "harness"), ("pytest.ini", "harness"),  # row 5
    (".pytest.ini", "harness"), ("tox.ini", "harness"), ("tests/sub/pytest.ini", "harness"),
    ("tests/sub/.pytest.toml", "harness"),
    ("tests/__init__.py", "harness"), ("tests/sub/__init__.py", "harness"),  # row 6
    ("__init__.py", "harness"),
])
def test_a_file_every_property_depends_on(path: str, kind: str) -> None:
    """Every gated property runs in one pytest session: what runs in it judges them all."""
    found = one(path)
    assert found is not None and found.all_ and found.test_ids == EVERY
    assert found.kinds == (kind,)


@pytest.mark.parametrize("path", [
    "pytest.toml", "tests/test_zz_helpers.py", "tests_extra/conftest.py", "tests/__init__.py",
    "noxfile.py", "setup.py", ".coveragerc", ".github/actions/forge/action.yml",
    "requirements-test.txt",
])
def test_each_harness_file_of_issue_27_is_shown_for_every_property(path: str) -> None:
    """Issue 27 break 6: each of these, added by a pull request, turned a red property into a
    pass stamp (its module-level code, or a plugin it named, replaced pytest's report) and was
    named for no property (on the code before: ``one(path)`` was None)."""
    found = one(path)
    assert found is not None and found.all_ and found.test_ids == EVERY


@pytest.mark.parametrize("path", [
    "docs/pytest.ini", "tests/sub/deeper/pytest.toml", "docs/tox.ini",  # not on a test's path
    "mylib/__init__.py", "docs/__init__.py", "tests/sub/deeper/__init__.py",
    "mylib/helpers.py", "tests/helpers.py", "docs/requirements.md",
])
def test_what_pytest_never_reads_for_the_gated_tests_is_not_harness(path: str) -> None:
    assert one(path) is None


def test_a_new_test_module_brings_its_packages_init() -> None:
    """A new ``tests_extra/deep/test_x.py`` is imported with ``tests_extra/__init__.py`` and
    ``tests_extra/deep/__init__.py`` (pytest's default import mode walks its packages)."""
    found = judges.judged([("tests_extra/deep/__init__.py", None),
                           ("tests_extra/__init__.py", None),
                           ("tests_extra/deep/test_x.py", None)], props(), CONFIG)
    assert {c.path for c in found if c.all_} == {
        "tests_extra/deep/__init__.py", "tests_extra/__init__.py", "tests_extra/deep/test_x.py"}
    assert one("tests_extra/deep/__init__.py") is None  # alone, it is nobody's package


@pytest.mark.parametrize(("path", "ids", "kinds"), [
    ("mylib/codec.py", CODEC, ("fixture",)),
    ("forge.py", (CODEC[0],), ("fixture",)),  # a plugin gate init listed for one property
    ("data/other.bin", (OTHER,), ("fixture",)),
    (".github/gate-cards/decode_total.json", (CODEC[1],), ("card",)),  # row 7, not row 2
])
def test_a_manifest_file_judges_its_properties(path: str, ids: tuple[str, ...],
                                               kinds: tuple[str, ...]) -> None:
    found = one(path)
    assert found is not None and found.test_ids == tuple(sorted(ids)) and found.kinds == kinds
    assert not found.all_


def test_a_file_a_fixture_glob_matches_judges_that_property_even_if_new() -> None:
    """Row 8, a fixture glob: a changed path it matches (one added by the patch too) is a
    fixture of that property only; a path no glob matches is nobody's."""
    globbed = [*props(), judges.PropertyFiles("tests/test_data.py::test_load",
                                              "tests/test_data.py", globs=("tests/data/**",))]
    found = judges.judged([("tests/data/new/case.json", None), ("tests/other/case.json", None)],
                          globbed, CONFIG)
    assert found == [judges.Changed("tests/data/new/case.json", ("fixture",),
                                    ("tests/test_data.py::test_load",))]


def test_a_gated_test_module_is_its_properties_fixture_and_everyones_harness() -> None:
    found = one("tests/test_codec.py")
    assert found is not None and found.all_ and found.kinds == ("harness", "fixture")


def test_files_nobody_depends_on_are_not_shown() -> None:
    assert judges.judged([("README.md", None), ("mylib/unused.py", None),
                          ("docs/index.rst", None)], props(), CONFIG) == []


def test_a_rename_counts_its_previous_name_and_the_kinds_add_up() -> None:
    found = one("mylib/codec2.py", "mylib/codec.py")
    assert found is not None and found.previous == "mylib/codec.py"
    assert found.test_ids == tuple(sorted(CODEC))
    both = judges.judged([("tests/sub/conftest.py", None)],
                         [*props(), judges.PropertyFiles("x::t", "tests/sub/x.py",
                                                         ("tests/sub/conftest.py",))], CONFIG)
    assert both[0].kinds == ("harness", "fixture")


def test_every_property_first_then_by_how_many_then_by_name() -> None:
    found = judges.judged([(p, None) for p in ("data/other.bin", "mylib/codec.py",
                                                "tests/conftest.py", "pytest.ini")],
                          props(), CONFIG)
    assert [c.path for c in found] == ["pytest.ini", "tests/conftest.py", "mylib/codec.py",
                                       "data/other.bin"]


def test_a_patch_that_drops_a_file_from_its_manifest_still_shows_its_harness_and_manifest(
) -> None:
    """The attacker edits pytest.ini (addopts = -p forge), adds forge.py, and removes every
    fixture from the manifest it controls: the harness rule and the manifest's own change are
    judged by name, so both are still shown for every property."""
    emptied = [judges.PropertyFiles(p.test_id, p.test_file) for p in props()]
    found = judges.judged([(".github/gate.yml", None), ("forge.py", None),
                           ("pytest.ini", None), ("mylib/codec.py", None)], emptied, CONFIG)
    assert [(c.path, c.all_) for c in found] == [(".github/gate.yml", True),
                                                 ("pytest.ini", True)]


paths = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1,
                max_size=30)


@settings(max_examples=200)
@given(st.lists(st.tuples(paths, st.none() | paths), max_size=20),
       st.lists(st.tuples(paths, st.none() | paths), max_size=5))
def test_shown_files_are_changed_files_and_more_changes_never_hide_one(
        changed: list[tuple[str, str | None]], more: list[tuple[str, str | None]]) -> None:
    found = judges.judged(changed, props(), CONFIG)
    assert {c.path for c in found} <= {p for p, _ in changed}
    assert all(c.test_ids and set(c.test_ids) <= set(EVERY) for c in found)
    assert all(c.all_ == (set(c.test_ids) == set(EVERY)) for c in found)
    later = {c.path: c for c in judges.judged([*changed, *more], props(), CONFIG)}
    for c in found:
        assert set(c.test_ids) <= set(later[c.path].test_ids)


# --- the event's base and head ------------------------------------------------------------------


def event_env(tmp_path: Path, event: Any) -> dict[str, str]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    return {"GITHUB_EVENT_PATH": str(path)}


@pytest.mark.parametrize(("event", "refs"), [
    ({"pull_request": {"base": {"sha": BASE}, "head": {"sha": HEAD}}}, (BASE, HEAD)),
    ({"pull_request": {"base": {"sha": BASE.upper()}, "head": {"sha": HEAD}}}, (BASE, HEAD)),
    ({"pull_request": {"base": {"sha": "main"}, "head": {"sha": HEAD}}}, None),
    ({"pull_request": {"head": {"sha": HEAD}}}, None),
    ({"workflow_run": {"event": "pull_request", "head_sha": HEAD,
                       "pull_requests": [{"base": {"sha": BASE}, "head": {"sha": HEAD}}]}},
     (BASE, HEAD)),
    ({"workflow_run": {"event": "pull_request", "head_sha": HEAD, "pull_requests": []},
      "repository": {"default_branch": "main"}}, ("main", HEAD)),  # a fork's
    ({"workflow_run": {"event": "pull_request", "head_sha": HEAD, "pull_requests": []},
      "repository": {"default_branch": "../x"}}, None),
    ({"workflow_run": {"event": "push", "head_sha": HEAD, "pull_requests": []},
      "repository": {"default_branch": "main"}}, None),  # not a pull request
    ({"ref": "refs/heads/main"}, None),  # push
    ([], None),
])
def test_the_base_and_head_come_from_the_event(tmp_path: Path, event: Any,
                                               refs: tuple[str, str] | None) -> None:
    assert gh_judges.compare_refs(event_env(tmp_path, event)) == refs


def test_no_event_or_a_broken_one_is_not_a_pull_request(tmp_path: Path) -> None:
    assert gh_judges.compare_refs({}) is None
    (tmp_path / "event.json").write_text("{not json", encoding="utf-8")
    assert gh_judges.compare_refs({"GITHUB_EVENT_PATH": str(tmp_path / "event.json")}) is None


# --- the compare call, through the double ------------------------------------------------------


def settings_for(double: GitHubDouble, token: str = WRITE_TOKEN) -> checks.Settings:
    return checks.Settings(token=token, api_url=double.base_url, repository="acme/widgets",
                           head_sha=HEAD, max_retries=1, backoff=0.0, max_wait=0.0)


def test_the_changed_files_are_listed_with_renames(github_double: GitHubDouble) -> None:
    github_double.set_comparison("acme/widgets", BASE, HEAD,
                                 ["pytest.ini", ("mylib/new.py", "mylib/old.py")])
    listed = checks.changed_files(settings_for(github_double), BASE, HEAD)
    assert listed == checks.ChangedFiles((("pytest.ini", None),
                                          ("mylib/new.py", "mylib/old.py")))
    assert github_double.count("compare_commits") == 1
    assert not github_double.invalid_requests()


def test_three_hundred_files_are_marked_incomplete(github_double: GitHubDouble) -> None:
    github_double.set_comparison("acme/widgets", BASE, HEAD, [f"f{i:04}.py" for i in range(700)])
    listed = checks.changed_files(settings_for(github_double), BASE, HEAD)
    assert len(listed.files) == 300 and not listed.complete and not listed.error


@pytest.mark.parametrize(("status", "said"), [
    (404, "HTTP 404"), (403, "HTTP 403"), (422, "HTTP 422"), (500, "HTTP 500")])
def test_a_refused_compare_is_one_line(github_double: GitHubDouble, status: int,
                                       said: str) -> None:
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["pytest.ini"])
    github_double.inject(status=status, operation="compare_commits", times=10)
    listed = checks.changed_files(settings_for(github_double), BASE, HEAD)
    assert said in listed.error and "\n" not in listed.error and listed.files == ()


# --- the gate job end to end: report, summary, check run, log -----------------------------------


def manifest_text(*, codec: bool = True, forge: bool = True,
                  location: str = "tests/test_codec.py") -> str:
    entries = [adopt.entry_for(test_id=t, card=f".github/gate-cards/{n}.json",
                               fixtures=["tests/test_codec.py",
                                         *(["mylib/codec.py"] if codec else []),
                                         *(["forge.py"] if n == "rt" and forge else [])],
                               classname="tests.test_codec", name=t.split("::")[1],
                               location=location, line=3)
               for t, n in zip(CODEC, ("rt", "dt"), strict=True)]
    return adopt.render_manifest(entries)


def repo_with_manifest(root: Path, double: GitHubDouble | None = None,
                       text: str | None = None) -> None:
    """The checkout's manifest (the pull request's: ``text``, default the full one), and,
    given the double, the full one as the base commit's, which GitHub's contents API serves."""
    write_once(root / ".github" / "gate.yml", (text or manifest_text()).encode())
    write_once(root / "tests" / "test_codec.py", b"# the properties\n")
    if double is not None:
        double.set_content("acme/widgets", BASE, ".github/gate.yml", manifest_text())


def gate_run(tmp_path: Path, double: GitHubDouble, event: Any, *, red: bool = False,
             **extra: str) -> tuple[int, dict[str, Any], str, str]:
    for test_id, n in zip(CODEC, ("1", "2"), strict=True):
        for cls in (LOCAL, FREE):
            outcome = "assert_fail" if red and cls == FREE and n == "1" else "pass"
            write_json(tmp_path / "stamps" / f"gate-stamps-{cls}-stamp-1-0a1b2c3{n}"
                       / f"{cls}{n}.json",
                       stamp(cls, outcome, run_id=f"{cls}{n}", fixture_sha256=SHA_X,
                             test_id=test_id))
    (tmp_path / "summary.md").write_text("", encoding="utf-8")
    (tmp_path / "output.txt").write_text("", encoding="utf-8")
    env = _env(tmp_path, **{"GATE_GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": double.base_url,
                            "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_SHA": HEAD,
                            "GATE_FAIL_ON_CLOSED": "false", **event_env(tmp_path, event),
                            **extra})
    code = action.run(env)
    outputs = _outputs(tmp_path / "output.txt")
    report = json.loads(Path(outputs["report"]).read_text(encoding="utf-8"))
    schemas.validate("report", report, "report")
    return code, report, (tmp_path / "summary.md").read_text(encoding="utf-8"), outputs[
        "check-run-url"]


PR = {"pull_request": {"number": 7, "base": {"sha": BASE}, "head": {"sha": HEAD}}}


def test_the_reviewer_sees_the_judge_files_in_every_surface(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path, github_double)
    github_double.set_comparison("acme/widgets", BASE, HEAD, [
        "README.md", "pytest.ini", "forge.py", "mylib/codec.py"])
    code, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert code == 0 and report["decision"] == "open"
    assert report["judge_files"] == {
        "base": BASE, "head": HEAD, "properties": 2, "changed": 4, "files": [
            {"path": "mylib/codec.py", "kinds": ["fixture"], "all": True},
            {"path": "pytest.ini", "kinds": ["harness"], "all": True},
            {"path": "forge.py", "kinds": ["fixture"], "count": 1, "test_ids": [CODEC[0]]}]}
    assert "### ⚠️ This pull request changes 3 files the gated properties depend on" in text
    assert text.index("changes 3 files") < text.index("accepted (green in both")
    assert "- `pytest.ini` — **all 2** properties · test harness" in text
    assert f"- `forge.py` — **1** property · fixture: {markdown.inline(CODEC[0])}" in text
    (run,) = github_double.check_runs.values()
    assert "- `pytest.ini` — **all 2** properties · test harness" in run["output"]["summary"]
    assert ("agent-patch gate: this pull request changes 3 files the gated properties depend "
            "on: mylib/codec.py (all 2), pytest.ini (all 2), forge.py (1)"
            ) in capsys.readouterr().out
    assert not github_double.invalid_requests()


BREAK_6 = ["pytest.toml", "tests/test_zz_helpers.py", "tests_extra/conftest.py",
           "tests/__init__.py", "noxfile.py", "setup.py", ".coveragerc",
           ".github/actions/forge/action.yml"]


def test_issue_27s_harness_files_reach_the_report_and_the_summary(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 break 6 end to end: a pull request adding each of these is shown, for every
    property, in the JSON report and the job summary (none was, on the code before)."""
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path, github_double)
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["README.md", *BREAK_6])
    code, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert code == 0 and report["decision"] == "open"
    files = {f["path"]: f for f in report["judge_files"]["files"]}
    assert set(files) == set(BREAK_6)
    assert all(f.get("all") is True for f in files.values())
    for path in BREAK_6:
        assert f"- `{path}` — **all 2** properties" in text


def test_the_door_is_the_same_with_or_without_the_list(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path, github_double)
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["pytest.ini"])
    shown = gate_run(tmp_path / "a", github_double, PR, red=True)
    plain = gate_run(tmp_path / "b", github_double, {"ref": "refs/heads/main"}, red=True)
    assert shown[0] == plain[0] == 0
    without = {k: v for k, v in shown[1].items() if k != "judge_files"}
    assert without == plain[1] and "judge_files" not in plain[1]
    assert "What judges" not in plain[2] and "depend on" not in plain[2]


@pytest.mark.parametrize("status", [403, 404])
def test_a_failed_compare_is_one_line_and_the_gate_decides_as_always(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch,
        status: int) -> None:
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path, github_double)
    if status == 403:
        github_double.set_comparison("acme/widgets", BASE, HEAD, ["pytest.ini"])
        github_double.inject(status=403, operation="compare_commits", times=5)
    code, report, text, url = gate_run(tmp_path, github_double, PR)
    assert code == 0 and report["decision"] == "open" and url
    assert report["judge_files"]["files"] == []
    assert f"HTTP {status}" in report["judge_files"]["error"]
    (line,) = [x for x in text.splitlines() if "could not list the changed files" in x]
    # a configuration note, collapsed below the reds (issue 29 item 5), not a line above them
    assert line.startswith("> **Note:** what judges this patch is not shown: could not list "
                           "the changed files: ")
    assert text.index("<summary>Configuration notes") < text.index(line)


def test_nothing_judged_changed_says_so(tmp_path: Path, github_double: GitHubDouble,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path, github_double)
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["README.md", "docs/x.md"])
    _, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert report["judge_files"]["files"] == [] and report["judge_files"]["changed"] == 2
    assert "this pull request changes none of the files the gated properties depend on" in text


def test_without_a_manifest_files_are_judged_by_name(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["conftest.py", "mylib/codec.py"])
    _, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert [f["path"] for f in report["judge_files"]["files"]] == ["conftest.py"]
    assert report["judge_files"]["notes"] == [
        "no manifest at .github/gate.yml in this job's checkout: files are judged by name only",
        f"no manifest at .github/gate.yml in the base commit {BASE[:12]} (a new adoption?): "
        "files are judged by name only"]
    assert "> **Note:** no manifest at" in text


# --- the base commit's manifest (pull_request: the checkout's is the patch's own) ---------------


def base_requests(double: GitHubDouble) -> list[tuple[str, dict[str, list[str]]]]:
    return [(r.route_path, r.query) for r in double.requests if r.operation == "get_content"
            and r.route_path.endswith("/gate.yml")]  # not the ungated scan's .py reads


def test_a_patch_that_drops_a_fixture_from_its_manifest_still_has_that_fixture_shown(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The attack: the patch changes mylib/codec.py, a fixture of both properties, and removes
    it from the manifest it controls (adding forge.py to one property's list). The base
    commit's manifest, read at the event's base SHA through the contents API, still lists it:
    the change is attributed to both, and forge.py (only the head lists it) to its one."""
    monkeypatch.chdir(tmp_path)
    write_once(tmp_path / ".github" / "gate.yml", manifest_text(codec=False).encode())
    write_once(tmp_path / "tests" / "test_codec.py", b"# the properties\n")
    github_double.set_content("acme/widgets", BASE, ".github/gate.yml",
                              manifest_text(forge=False))
    github_double.set_comparison("acme/widgets", BASE, HEAD, [
        ".github/gate.yml", "mylib/codec.py", "forge.py"])
    code, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert code == 0 and report["decision"] == "open"
    assert report["judge_files"] == {
        "base": BASE, "head": HEAD, "properties": 2, "changed": 3, "files": [
            {"path": ".github/gate.yml", "kinds": ["manifest"], "all": True},
            {"path": "mylib/codec.py", "kinds": ["fixture"], "all": True},
            {"path": "forge.py", "kinds": ["fixture"], "count": 1, "test_ids": [CODEC[0]]}]}
    (run,) = github_double.check_runs.values()
    for md in (text, run["output"]["summary"]):
        assert "- `mylib/codec.py` — **all 2** properties · fixture" in md
    assert ("changes 3 files the gated properties depend on: .github/gate.yml (all 2), "
            "mylib/codec.py (all 2), forge.py (1)") in capsys.readouterr().out
    assert base_requests(github_double) == [
        ("/repos/acme/widgets/contents/.github/gate.yml", {"ref": [BASE]})]
    assert not github_double.invalid_requests()


def test_a_patch_that_deletes_its_manifest_is_judged_by_the_base_commits(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """No manifest in the checkout: the base commit's attributes the fixtures (validated as any
    manifest, but its paths are not looked up in this checkout: its test file is gone here)."""
    monkeypatch.chdir(tmp_path)
    github_double.set_content("acme/widgets", BASE, ".github/gate.yml",
                              manifest_text(location="tests/test_codec_old.py"))
    github_double.set_comparison("acme/widgets", BASE, HEAD, [".github/gate.yml",
                                                              "mylib/codec.py"])
    _, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert [(f["path"], f.get("all")) for f in report["judge_files"]["files"]] == [
        (".github/gate.yml", True), ("mylib/codec.py", True)]
    said = ("no manifest at .github/gate.yml in this job's checkout: files are judged by the "
            "base commit's manifest and by name")
    assert report["judge_files"]["notes"] == [said]
    assert f"> **Note:** {markdown.inline(said, 400)}" in text


def test_no_manifest_at_the_base_is_one_line_and_the_pull_requests_attributes(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new adoption: the pull request adds the manifest, the base has none (HTTP 404)."""
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path)
    github_double.set_comparison("acme/widgets", BASE, HEAD, [".github/gate.yml",
                                                              "mylib/codec.py"])
    code, report, text, _ = gate_run(tmp_path, github_double, PR)
    assert code == 0 and report["decision"] == "open"
    assert [f["path"] for f in report["judge_files"]["files"]] == [".github/gate.yml",
                                                                   "mylib/codec.py"]
    said = (f"no manifest at .github/gate.yml in the base commit {BASE[:12]} (a new "
            "adoption?): files are judged by the pull request's manifest and by name")
    assert report["judge_files"]["notes"] == [said]
    assert [x for x in text.splitlines() if "base commit" in x] == [
        f"> **Note:** {markdown.inline(said, 400)}"]
    assert len(base_requests(github_double)) == 1 and not github_double.invalid_requests()


@pytest.mark.parametrize(("base", "fault", "said"), [
    ("version: [1\n", None, "line 2"),  # not YAML
    ("version: 1\nproperties: []\n", None, "properties: [] should be non-empty"),  # invalid
    (None, 403, "HTTP 403"),
    (None, 500, "HTTP 500"),
    ("dir", None, "a folder, not a file"),
    ("symlink", None, "a symlink, not a file"),
    ("big", None, "bytes a manifest may hold"),
])
def test_a_base_manifest_that_does_not_load_is_one_line_and_never_decides(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch,
        base: str | None, fault: int | None, said: str) -> None:
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path)
    where = ("acme/widgets", BASE, ".github/gate.yml")
    if base in {"dir", "symlink"}:
        github_double.set_content(*where, "x", kind=base)
    elif base == "big":
        github_double.set_content(*where, "# padding\n" * 110_000 + manifest_text())
    elif base is not None:
        github_double.set_content(*where, base)
    else:
        github_double.set_content(*where, manifest_text())
        github_double.inject(status=fault, operation="get_content", times=10)
    github_double.set_comparison("acme/widgets", BASE, HEAD, ["mylib/codec.py"])
    code, report, text, _ = gate_run(tmp_path, github_double, PR, red=True)
    plain = gate_run(tmp_path / "plain", github_double, {"ref": "refs/heads/main"}, red=True)
    assert code == plain[0] == 0 and report["decision"] == plain[1]["decision"] == "closed"
    assert report["judge_files"]["files"] == [
        {"path": "mylib/codec.py", "kinds": ["fixture"], "all": True}]  # the head's says so
    (note,) = report["judge_files"]["notes"]
    assert note.startswith("the base commit's manifest was not read (") and said in note
    assert note.endswith("): files are judged by the pull request's manifest and by name")
    assert "\n" not in note and len(note) <= gh_judges.LINE_CHARS
    assert [x for x in text.splitlines() if "base commit" in x] == [
        f"> **Note:** {markdown.inline(note, 400)}"]
    assert not github_double.invalid_requests()


@pytest.mark.parametrize(("event", "route"), [
    (PR, "pull_request"),
    ({"pull_request": {"base": {"sha": BASE}, "head": {"sha": HEAD}}, "action": "opened"},
     "pull_request"),
    ({"workflow_run": {"event": "pull_request", "head_sha": HEAD,
                       "pull_requests": [{"base": {"sha": BASE}, "head": {"sha": HEAD}}]}},
     "workflow_run"),
    ({"workflow_run": {"event": "pull_request", "head_sha": HEAD, "pull_requests": []},
      "repository": {"default_branch": "main"}}, "workflow_run"),
])
def test_only_the_pull_request_route_reads_the_base_commits_manifest(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch,
        event: Any, route: str) -> None:
    """On workflow_run the checkout is the default branch's: its manifest is not the patch's."""
    refs = gh_judges.event_refs(event_env(tmp_path, event))
    assert refs is not None and refs[2] == route
    monkeypatch.chdir(tmp_path)
    repo_with_manifest(tmp_path, github_double)
    github_double.set_comparison("acme/widgets", refs[0], HEAD, ["mylib/codec.py"])
    _, report, _, _ = gate_run(tmp_path, github_double, event)
    assert report["judge_files"]["files"][0]["path"] == "mylib/codec.py"
    assert len(base_requests(github_double)) == (route == "pull_request")


HOSTILE = ["conftest.py", "a`b/conftest.py", "<img src=x onerror=alert(1)>/conftest.py",
           "@octocat/conftest.py", "#123/conftest.py", "x](javascript:alert(1))/conftest.py",
           "line\nbreak/conftest.py", "\u202eevil/conftest.py", "|a|b|/conftest.py",
           "::error::x.pth", "-->x<!--/conftest.py", "*bold*_it_/conftest.py"]


def test_hostile_file_names_stay_text_in_every_sink(
        tmp_path: Path, github_double: GitHubDouble, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from markdown_it import MarkdownIt

    monkeypatch.chdir(tmp_path)
    github_double.set_comparison("acme/widgets", BASE, HEAD, HOSTILE)
    # each property's test id places it under one hostile folder (no manifest: by name)
    folders = [p for p in HOSTILE[1:] if p.endswith("/conftest.py")]
    for cls in (LOCAL, FREE):
        for i, p in enumerate(folders):
            write_json(tmp_path / "stamps" / f"gate-stamps-{cls}-stamp-1-0a1b2c{i:02}"
                       / f"{cls}{i}.json",
                       stamp(cls, "pass", run_id=f"{cls}{i}", fixture_sha256=SHA_X,
                             test_id=f"{p.rsplit('/', 1)[0]}/t.py::t"))
    (tmp_path / "summary.md").write_text("", encoding="utf-8")
    (tmp_path / "output.txt").write_text("", encoding="utf-8")
    env = _env(tmp_path, **{"GATE_GITHUB_TOKEN": WRITE_TOKEN,
                            "GITHUB_API_URL": github_double.base_url,
                            "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_SHA": HEAD,
                            **event_env(tmp_path, PR)})
    assert action.run(env) == 0
    text = (tmp_path / "summary.md").read_text(encoding="utf-8")
    (run,) = github_double.check_runs.values()
    log = capsys.readouterr().out
    for md in (text, run["output"]["summary"]):
        section = md[md.index("### ⚠️"):]
        section = section[:section.index("> **Note:**")]
        lines = [x for x in section.splitlines() if x.startswith("- ")]
        assert len(lines) == len(HOSTILE), section  # one line each: no name broke out of its line
        html = MarkdownIt("commonmark", {"html": True}).enable("table").render(section)
        for bad in ("<img", "<a ", "href", "<strong>bold", "<em>", "\u202e", "<!--"):
            assert bad not in html
    assert "\n::" not in log and "\u202e" not in log


def test_the_section_validates_and_hand_edits_are_refused() -> None:
    good = {"base": BASE, "head": HEAD, "properties": 1, "files": [
        {"path": "pytest.ini", "kinds": ["harness"], "all": True}]}
    report = {"schema": "gate-report/v1", "gate_version": "0", "now": 1, "decision": "open",
              "counts": {"accepted": 0, "rejected": 0, "frozen": 0}, "pairs": [],
              "judge_files": good}
    schemas.validate("report", report, "r")
    for bad in ({**good, "extra": 1}, {**good, "head": "main"},
                {**good, "files": [{"path": "x", "kinds": ["harness"], "all": True,
                                    "count": 1, "test_ids": []}]},
                {**good, "files": [{"path": "x", "kinds": ["other"], "all": True}]},
                {**good, "files": [{"path": "x", "kinds": ["harness"]}]}):
        with pytest.raises(GateInputError):
            schemas.validate("report", {**report, "judge_files": bad}, "r")


def test_the_rendering_never_decides_and_bounds_the_check_run() -> None:
    files = [{"path": f"tests/t{i}/conftest.py", "kinds": ["harness"], "count": 3,
              "test_ids": [f"tests/t{i}/test_{j}.py::test_{'x' * 250}" for j in range(3)]}
             for i in range(1000)]
    report = {"decision": "open", "counts": {"accepted": 1, "rejected": 0, "frozen": 0},
              "pairs": [{"test_id": "t", "status": "accepted", "action": "accept_candidate"}],
              "now": 1, "judge_files": {"base": BASE, "head": HEAD, "properties": 3000,
                                        "files": files, "more_files": 5}}
    out = checks.check_summary(typed(report))
    assert len(out.encode()) <= checks.OUTPUT_MAX_BYTES
    assert "- … and 985 more (the JSON report lists up to 1,000)" in out
    assert "1005 files the gated properties depend on" in summary.render(typed(report))
    headline = review.judge_headline(typed(report))
    assert headline is not None and len(headline) <= review.JUDGE_LOG_CHARS
