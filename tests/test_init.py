"""``gate init`` on a tiny real Hypothesis project: what it writes, what it refuses, ``--add``,
and that a freshly initialised project stamps and classifies open through both routes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

from gate.commands.main import main
from gate.records import adopt, hashing, manifest, policy, schemas
from gate.records.files import read_json, read_yaml
from tests.property_suite.harness import env
from tests.typed_report import typed_pair

MANIFEST = Path(".github/gate.yml")
CARDS = Path(".github/gate-cards")
POLICY = Path(".github/gate-policy.yml")

TEST_PROPS = '''\
import pytest
from hypothesis import given, settings, strategies as st

from mylib import core
from .helpers import twice


@given(st.integers())
def test_add_zero(x):
    assert core.add(x, 0) == x


@settings(max_examples=7)
@given(st.lists(st.integers()))
def test_sum_twice(xs):
    assert twice(sum(xs)) == core.add(sum(xs), sum(xs))


def test_plain():
    assert core.add(1, 2) == 3


class TestOrder:
    @given(st.integers(), st.integers())
    def test_commutes(self, a, b):
        assert core.add(a, b) == core.add(b, a)
'''


def project(root: Path) -> Path:
    """A tiny library, a test package with three Hypothesis tests and a plain one."""
    (root / "mylib").mkdir()
    (root / "mylib" / "__init__.py").write_text("")
    (root / "mylib" / "core.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "mylib" / "unused.py").write_text("X = 1\n")
    tests = root / "tests"
    tests.mkdir()
    (tests / "__init__.py").write_text("")
    (tests / "helpers.py").write_text("def twice(x):\n    return 2 * x\n")
    (tests / "test_props.py").write_text(TEST_PROPS)
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    return root


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project(tmp_path))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    return tmp_path


@pytest.fixture(params=["off CI", "on CI"])
def where(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Off CI, or on it: with ``CI`` set Hypothesis loads its ``ci`` profile by itself (no
    deadline, ``too_slow`` suppressed), and every ``@settings`` is made from it. The cards
    ``gate init`` writes, and what the plugin refuses, must be the same in both."""
    off_ci(monkeypatch)
    if request.param == "on CI":
        monkeypatch.setenv("CI", "true")
    return str(request.param)


def off_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """No variable that makes Hypothesis load its ``ci`` profile by itself."""
    from hypothesis._settings import _CI_VARS

    for name in _CI_VARS:
        monkeypatch.delenv(name, raising=False)


def init(*args: str) -> int:
    return main(["init", *args])


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted((root / ".github").rglob("*")) if p.is_file()}


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


IDS = ["tests/test_props.py::test_add_zero", "tests/test_props.py::test_sum_twice",
       "tests/test_props.py::TestOrder::test_commutes"]


def test_init_writes_a_card_per_property_a_valid_manifest_and_an_empty_policy(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    out = capsys.readouterr().out
    assert "3 Hypothesis tests of 4 collected (1 other test left out)" in out
    props = manifest.load(MANIFEST, Path("."))
    assert [p.test_id for p in props] == IDS  # the plain test is not a property
    cards = {p.test_id: manifest.card_of(p) for p in props}
    for test_id, card in cards.items():
        schemas.validate("sample-card", card, test_id)
        assert card["property"] == test_id and isinstance(card["seed"], int)
    assert [cards[t]["cases"] for t in IDS] == [100, 7, 100]  # max_examples, default 100
    assert len({c["seed"] for c in cards.values()}) == 3  # freshly minted, one per card
    assert all(p.card == MANIFEST and p.card_record is not None for p in props)  # inline
    # fixtures: the test file and the project modules it imports (absolute and relative);
    # the test harness apart (issue 27): __init__.py on its package path, the pytest
    # configuration pytest read, and their digest
    assert props[0].fixtures == tuple(Path(p) for p in (
        "tests/test_props.py", "mylib/__init__.py", "mylib/core.py", "tests/helpers.py"))
    assert props[0].harness == (Path("tests/__init__.py"), Path("pytest.ini"))
    assert props[0].harness_sha256 == hashing.harness_hash(list(props[0].harness), Path("."))
    lines = {t: line_of(TEST_PROPS, name) for t, name in zip(IDS, (
        "@given(st.integers())", "@settings(max_examples=7)", "    @given"), strict=True)}
    for prop in props:
        assert prop.location == {"path": "tests/test_props.py", "line": lines[prop.test_id]}
    assert [(p.junit_classname, p.junit_name) for p in props] == [
        ("tests.test_props", "test_add_zero"), ("tests.test_props", "test_sum_twice"),
        ("tests.test_props.TestOrder", "test_commutes")]
    record = read_yaml(MANIFEST)
    schemas.validate("manifest", record, str(MANIFEST))
    independently_valid("manifest", record)
    independently_valid("policy", read_yaml(POLICY) or {})
    for card in cards.values():
        independently_valid("sample-card", card)
    assert record["version"] == 1
    # the policy: valid, empty, and commented so people know what goes in it
    text = POLICY.read_text()
    assert policy.load(POLICY).allowlist == ()
    assert "# allowlist:" in text and "expires:" in text
    schemas.validate("policy", read_yaml(POLICY), str(POLICY))
    assert policy_check(POLICY) == 0


def independently_valid(schema: str, record: Any) -> None:
    """Checked with jsonschema straight from schemas/, not through gate.records.schemas."""
    import jsonschema

    path = Path(__file__).resolve().parent.parent / "schemas" / f"{schema}.schema.json"
    jsonschema.Draft202012Validator(json.loads(path.read_text())).validate(record)


def policy_check(path: Path) -> int:
    return main(["policy", "check", str(path), "--now", "1800000000"])


def test_default_test_paths_and_other_file_names(repo: Path) -> None:
    assert init("--manifest", "ci/props.yml", "--cards", "ci/cards",
                "--policy", "ci/policy.yml") == 0  # no TESTS: pytest's own default
    assert sorted(p.relative_to(repo).as_posix() for p in (repo / "ci").rglob("*.yml")) == [
        "ci/policy.yml", "ci/props.yml"]
    assert len(list((repo / "ci" / "cards").iterdir())) == 3
    assert [p.relative_to(repo).as_posix() for p in (repo / ".github").rglob("*")
            if p.is_file()] == [".github/workflows/properties.yml"]  # only the workflow
    props = manifest.load(Path("ci/props.yml"), Path("."))
    assert all(p.card.parent == Path("ci/cards") for p in props)


@pytest.mark.parametrize("existing", [MANIFEST, POLICY,
                                      CARDS / "tests_test_props.py__test_add_zero.json"])
def test_never_overwrites_a_file(repo: Path, existing: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    existing.parent.mkdir(parents=True, exist_ok=True)
    existing.write_text("mine\n")
    assert init(*(["--cards", str(CARDS)] if existing.parent == CARDS else []), "tests") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"gate: error: {existing}: ")
    assert "never overwrites" in err
    assert tree(repo) == {existing.as_posix(): b"mine\n"}  # nothing else was written


def test_init_twice_refuses_and_changes_nothing(repo: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    before = tree(repo)
    capsys.readouterr()
    assert init("tests") == 2
    assert "--add" in capsys.readouterr().err
    assert tree(repo) == before


def test_add_appends_only_new_properties(repo: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert init("--cards", str(CARDS), "tests") == 0
    before = tree(repo)
    with (repo / "tests" / "test_props.py").open("a") as handle:
        handle.write("\n\n@given(st.text())\ndef test_new(s):\n    assert s == s\n")
    (repo / "tests" / "test_more.py").write_text(
        "from hypothesis import given, strategies as st\nfrom mylib.core import add\n\n\n"
        "@given(st.integers())\ndef test_more(x):\n    assert add(x, 1) > x\n")
    capsys.readouterr()
    assert init("--add", "--cards", str(CARDS), "tests") == 0
    out = capsys.readouterr().out
    assert "added 2 properties" in out
    after = tree(repo)
    old_manifest, new_manifest = before.pop(MANIFEST.as_posix()), after.pop(MANIFEST.as_posix())
    assert new_manifest.startswith(old_manifest)  # existing entries byte-identical
    assert {k: v for k, v in after.items() if k in before} == before  # old cards untouched
    added = sorted(set(after) - set(before))
    assert added == [f"{CARDS}/tests_test_more.py__test_more.json",
                     f"{CARDS}/tests_test_props.py__test_new.json"]
    props = manifest.load(MANIFEST, Path("."))
    assert [p.test_id for p in props] == [*IDS, "tests/test_more.py::test_more",
                                          "tests/test_props.py::test_new"]
    assert props[3].fixtures == (Path("tests/test_more.py"), Path("mylib/core.py"))
    assert props[3].harness == (Path("tests/__init__.py"), Path("pytest.ini"))
    # again: nothing new, nothing written
    snapshot = tree(repo)
    assert init("--add", "tests") == 0
    assert "nothing to add" in capsys.readouterr().out
    assert tree(repo) == snapshot
    # a property that is gone is named, never removed
    (repo / "tests" / "test_more.py").write_text("")
    assert init("--add", "tests") == 0
    assert ("note: 1 property of .github/gate.yml not collected any more (their stamps "
            "will be resource_exit; remove them by hand): tests/test_more.py::test_more"
            ) in capsys.readouterr().out
    assert tree(repo) == snapshot


def test_add_keeps_comments_and_hand_edits(repo: Path) -> None:
    assert init("tests") == 0
    text = MANIFEST.read_text().replace('      - "tests/helpers.py"\n',
                                        '      - "tests/helpers.py"   # reviewed\n', 1)
    text += "# a trailing comment kept as it is\n"
    MANIFEST.write_text(text)
    (repo / "tests" / "test_more.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.integers())\ndef test_more(x):\n    pass\n")
    assert init("--add", "tests") == 0
    assert MANIFEST.read_text().startswith(text)


def test_add_refuses_a_manifest_it_cannot_append_to(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    record = read_yaml(MANIFEST)
    MANIFEST.write_text(f"groups: {json.dumps(record['groups'])}\n"
                        f"properties: {json.dumps(record['properties'])}\nversion: 1\n")
    before = tree(repo)
    (repo / "tests" / "test_more.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.integers())\ndef test_more(x):\n    pass\n")
    assert init("--add", "tests") == 2
    err = capsys.readouterr().err
    assert f"{MANIFEST}: properties: cannot append" in err and err.count("\n") == 1
    assert tree(repo) == before


def test_add_needs_a_manifest(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("--add", "tests") == 2
    assert f"{MANIFEST}: --add: no manifest to add to" in capsys.readouterr().err
    assert not (repo / ".github").exists()


def test_add_refuses_a_broken_manifest(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert init("tests") == 0
    text = MANIFEST.read_text().replace('path: "tests/test_props.py"', 'path: "tests/gone.py"', 1)
    MANIFEST.write_text(text)
    assert init("--add", "tests") == 2
    assert "properties.0.location.path: 'tests/gone.py'" in capsys.readouterr().err


def write_tests(repo: Path, body: str) -> None:
    (repo / "tests" / "test_props.py").write_text(textwrap.dedent(body))


@pytest.mark.parametrize(("body", "args", "message"), [
    ("def test_plain():\n    assert True\n", ["tests"],
     "tests: TESTS: no Hypothesis tests among the 1 tests pytest collected; the gate stamps "
     "Hypothesis properties (tests decorated with @given)"),
    ("X = 1\n", ["tests"], "TESTS: pytest collected no tests"),
    ("import no_such_module\n", ["tests"], "(collect): pytest interrupted (an error during "
     "collection)"),
    (TEST_PROPS, ["tests/nowhere"], "(collect): pytest usage error"),
    (TEST_PROPS, ["--root", "nowhere", "tests"], "nowhere: --root: not a folder"),
    (TEST_PROPS, ["--cards", "/elsewhere", "tests"], "--cards: /elsewhere is outside the root"),
    (TEST_PROPS, ["--root", "mylib", "--cards", "mylib/cards", "tests"],
     "tests/test_props.py:8: location.path: "),
    (TEST_PROPS, ["--python", "/no/such/python", "tests"],
     "/no/such/python: --python: no such interpreter"),
])
def test_errors_are_one_line_and_write_nothing(
        repo: Path, capsys: pytest.CaptureFixture[str], body: str, args: list[str],
        message: str) -> None:
    write_tests(repo, body)
    assert init(*args) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and err.startswith("gate: error: ")
    assert not (repo / ".github").exists()


def test_a_test_id_too_long_for_a_card_is_refused(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = "test_" + "x" * 260
    write_tests(repo, f"from hypothesis import given, strategies as st\n\n\n"
                      f"@given(st.integers())\ndef {name}(x):\n    pass\n")
    assert init("tests") == 2
    assert "longer than the 256 characters" in capsys.readouterr().err


# --- the adopt helpers ----------------------------------------------------------------------


def test_card_file_names_are_portable_distinct_and_bounded() -> None:
    ids = ["t.py::test_a[1]", "t.py::test_a[1 ]", "T.py::test_a[1]", "t.py::" + "y" * 300]
    names = adopt.card_file_names(ids, taken=["t.py__test_a_1.JSON"])
    assert len({n.lower() for n in names.values()}) == 4
    assert all(len(n) <= 96 + 14 and n.endswith(".json") for n in names.values())
    assert all(set(n) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
               for n in names.values())
    assert names["t.py::test_a[1]"] != "t.py__test_a_1.json"  # taken (case-insensitively)


def test_module_files_keeps_project_modules_only(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    for name in ("pkg/__init__.py", "pkg/a.py", "pkg/sub/__init__.py", "pkg/sub/b.py",
                 "tests/conf.py", ".venv/lib/site-packages/dep/__init__.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    test = tmp_path / "tests" / "test_x.py"
    test.write_text("import os, json\nimport pkg.sub.b\nfrom pkg import a, missing\n"
                    "from pkg.sub import *\nfrom . import conf\nimport dep\nimport hypothesis\n"
                    "def f():\n    import pkg.a\n")
    search = [tmp_path / "tests", tmp_path, tmp_path / ".venv/lib/site-packages"]
    found = adopt.module_files(test, search, tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "pkg/sub/b.py", "pkg/__init__.py", "pkg/a.py", "pkg/sub/__init__.py", "tests/conf.py"]


def test_module_files_follows_the_projects_own_imports_transitively(tmp_path: Path) -> None:
    """dateutil's ``from dateutil.parser import isoparse``: the code is in the private modules
    the package's ``__init__.py`` re-exports from; a bug there must change the fixture hash."""
    files = {
        "src/lib/__init__.py": "from .util import helper\n",
        "src/lib/util.py": "import lib\nimport hypothesis\n",  # a cycle, a third party
        "src/lib/parser/__init__.py": ("from .iso import isoparse\nfrom ._parser import parse\n"
                                       "from lib.parser import _parser as again\n"),
        "src/lib/parser/iso.py": "from . import _parser\nfrom ..util import helper\n",
        "src/lib/parser/_parser.py": ("import dep\nfrom lib.parser import iso\n"
                                      "from lib import _tables\n"),
        "src/lib/_tables.py": "import lib.parser._parser\nfrom lib import broken\n",
        "src/lib/broken.py": "def f(:\n",  # kept, not followed (its own error, at run time)
        "src/lib/unused.py": "",
        ".venv/lib/site-packages/dep/__init__.py": "from lib import unused\n",
        "tests/test_p.py": "from lib.parser import isoparse\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    search = [tmp_path / "tests", tmp_path / "src", tmp_path / ".venv/lib/site-packages"]
    found = adopt.module_files(tmp_path / "tests" / "test_p.py", search, tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "src/lib/parser/__init__.py", "src/lib/parser/iso.py", "src/lib/parser/_parser.py",
        "src/lib/util.py", "src/lib/__init__.py", "src/lib/_tables.py", "src/lib/broken.py"]
    # the same every time
    assert adopt.module_files(tmp_path / "tests" / "test_p.py", search, tmp_path) == found


SO = EXTENSION_SUFFIXES[0]  # e.g. ".cpython-311-x86_64-linux-gnu.so"


def test_extension_modules_names_the_compiled_modules_the_project_imports(tmp_path: Path) -> None:
    """pyrsistent trial: ``from pvectorc import pvector`` names a module built in place from
    ``pvectorcmodule.c``; the import following cannot reach its sources."""
    files = {"pvectorc" + SO: "", "pkg/__init__.py": "from . import _fast\nimport pvectorc\n",
             "pkg/_fast" + SO: "", "pkg/slow.py": "",
             ".venv/lib/site-packages/dep" + SO: "",
             "tests/test_p.py": "import pkg, dep\nfrom pkg import slow\nimport pvectorc\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    search = [tmp_path / "tests", tmp_path, tmp_path / ".venv/lib/site-packages"]
    test = tmp_path / "tests" / "test_p.py"
    sources = [test, *adopt.module_files(test, search, tmp_path)]
    found = adopt.extension_modules(sources, search, tmp_path)
    assert [(e.relative_to(tmp_path).as_posix(), i.relative_to(tmp_path).as_posix())
            for e, i in found] == [("pvectorc" + SO, "tests/test_p.py"),
                                   ("pkg/_fast" + SO, "pkg/__init__.py")]


def test_init_notes_a_compiled_extension_its_fixtures_cannot_hold(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "mylib" / ("_speed" + SO)).write_bytes(b"\x7fELF")  # never loaded: only named
    (repo / "tests" / "test_fast.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n@given(st.integers())\n"
        "def test_fast(x):\n    from mylib import _speed\n")
    assert init("tests/test_fast.py") == 0
    out = capsys.readouterr().out
    assert ("note: the fixtures import 1 compiled extension built in the repository "
            f"(mylib/_speed{SO}, imported by tests/test_fast.py), whose sources no import "
            "names: add them and the build script (setup.py) to the fixtures") in out
    (prop,) = manifest.load(MANIFEST, Path("."))
    assert Path("mylib/_speed" + SO) not in prop.fixtures  # a build output, not the source


def test_a_test_file_that_is_not_python_names_its_line(tmp_path: Path) -> None:
    from gate.errors import GateInputError

    bad = tmp_path / "test_bad.py"
    bad.write_text("def f(:\n")
    with pytest.raises(GateInputError) as caught:
        adopt.module_files(bad, [tmp_path], tmp_path)
    assert caught.value.field == "line 1"


# --- a freshly initialised project works with gate stamp, the plugin and classify ------------


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = env()
    return subprocess.run(list(argv), cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=300, check=False)


PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")
GATE = (sys.executable, "-m", "gate")


def plugin_run(repo: Path, test_file: str) -> subprocess.CompletedProcess[str]:
    """The pytest plugin on ``test_file`` with the manifest gate init wrote (local-pinned)."""
    return run(*PYTEST, test_file, "--gate-stamps", "stamps", "--gate-server-class",
               "local-pinned", "--gate-manifest", str(MANIFEST), cwd=repo)


def assert_stamps_written(done: subprocess.CompletedProcess[str], count: int) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"gate: {count} stamp{'' if count == 1 else 's'} written" in done.stdout


def stamps_of(folder: Path) -> dict[str, dict[str, Any]]:
    return {s["test_id"]: s for s in (read_json(p) for p in folder.glob("*.json"))}


def test_init_then_the_junit_route_in_both_classes_then_classify_open(repo: Path) -> None:
    assert init("tests") == 0
    for server_class in ("local-pinned", "free-server"):
        done = run(*GATE, "stamp", "--manifest", "--server-class", server_class, "--junit",
                   f"{server_class}.xml", "--out", f"stamps/{server_class}", "--", *PYTEST,
                   f"--junitxml={server_class}.xml", "tests", cwd=repo)
        assert done.returncode == 0, done.stderr
    local, free = stamps_of(repo / "stamps/local-pinned"), stamps_of(repo / "stamps/free-server")
    assert set(local) == set(free) == set(IDS)
    assert {s["outcome"] for s in [*local.values(), *free.values()]} == {"pass"}
    for test_id in IDS:
        assert local[test_id]["fixture_hash"] == free[test_id]["fixture_hash"]
        assert local[test_id]["location"]["path"] == "tests/test_props.py"
    done = run(*GATE, "classify", "--stamps", "stamps", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "decision=open tests=3 accepted=3 frozen=0 rejected=0"


def test_a_junit_stamp_never_pairs_with_a_plugin_stamp(repo: Path) -> None:
    """Only the plugin records the generator the card applied; a pair where one side says
    nothing about it is a fixture mismatch, never an accepted pair (issue 11)."""
    assert init("tests") == 0
    done = run(*GATE, "stamp", "--manifest", "--server-class", "local-pinned", "--junit",
               "r.xml", "--out", "stamps/local", "--", *PYTEST, "--junitxml=r.xml", "tests",
               cwd=repo)
    assert done.returncode == 0, done.stderr
    done = run(*PYTEST, "tests", "--gate-stamps", "stamps/free", "--gate-server-class",
               "free-server", cwd=repo)  # the plugin, with its default manifest
    assert done.returncode == 0, done.stdout + done.stderr
    done = run(*GATE, "classify", "--stamps", "stamps", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.count("reject_fixture_mismatch") == 3


def test_init_then_the_plugin_in_both_classes_then_classify_open(repo: Path) -> None:
    assert init("tests") == 0
    for server_class in ("local-pinned", "free-server"):
        done = run(*PYTEST, "tests", "--gate-stamps", f"stamps/{server_class}",
                   "--gate-server-class", server_class, "--gate-manifest", str(MANIFEST),
                   cwd=repo)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "gate: 3 stamps written" in done.stdout
    done = run(*GATE, "classify", "--stamps", "stamps", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "decision=open tests=3 accepted=3 frozen=0 rejected=0"


OWN_SETTINGS = '''\
from hypothesis import HealthCheck, given, settings, strategies as st


@settings(deadline=3000)
def _unused():
    pass


@settings(deadline=3000, max_examples=5)
@given(st.integers())
def test_slow(x):
    assert x == x


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.integers())
def test_no_deadline(x):
    assert x == x


@settings(max_examples=4)
@given(st.integers())
def test_cases_only(x):
    assert x == x
'''


def test_the_card_keeps_the_tests_own_deadline_and_health_checks(repo: Path, where: str) -> None:
    """A card without the test's own ``deadline``/``suppress_health_check`` would be refused by
    the plugin before any test ran (the dateutil trial's ``@settings(deadline=3000)``)."""
    (repo / "tests" / "test_own.py").write_text(OWN_SETTINGS)
    assert init("tests/test_own.py") == 0
    cards = {p.test_id.split("::")[1]: manifest.card_of(p)
             for p in manifest.load(MANIFEST, Path("."))}
    assert {k: {f: v for f, v in c.items() if f not in ("property", "seed")}
            for k, c in cards.items()} == {
        "test_slow": {"cases": 5, "deadline_ms": 3000},
        "test_no_deadline": {"cases": 100, "deadline_ms": None,
                             "suppress_health_check": ["filter_too_much", "too_slow"]},
        "test_cases_only": {"cases": 4}}
    assert_stamps_written(plugin_run(repo, "tests/test_own.py"), 3)


PATIENCE = """\
from datetime import timedelta

from hypothesis import HealthCheck, settings

settings.register_profile("patience", deadline=timedelta(milliseconds=400),
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("patience")
"""

PROFILED = '''\
from hypothesis import given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule


@given(st.integers())
def test_plain(x):
    assert x == x


@given(st.text())
def test_plain_text(s):
    assert s == s


class TestMethods:
    @settings(deadline=None, max_examples=50)
    @given(st.integers())
    def test_own_deadline(self, x):
        assert x == x


class Machine(RuleBasedStateMachine):
    @rule(n=st.integers(0, 3))
    def add(self, n):
        assert n >= 0


MachineTests = Machine.TestCase
'''


def test_a_profile_a_conftest_loads_is_written_into_the_cards(repo: Path, where: str) -> None:
    """attrs trial: its conftest loads a profile (deadline 400 ms, too_slow suppressed) for
    every session; the cards gate init wrote left it out, so the plugin refused all 59 tests,
    and on CI (the profile built on Hypothesis's ci one) for derandomize, which no card holds.
    Now the cards carry the profile's values and the plugin governs the tests, on CI or off."""
    (repo / "tests" / "conftest.py").write_text(PATIENCE)
    (repo / "tests" / "test_profiled.py").write_text(PROFILED)
    (repo / "conftest.py").write_text("from tests.helpers import twice  # noqa\n")
    assert init("tests/test_profiled.py") == 0
    props = manifest.load(MANIFEST, Path("."))
    # the conftest files pytest loads for the test (outermost first) and what they import
    # are its harness (apart from its fixtures): the profile lives there
    assert {tuple(f.as_posix() for f in p.fixtures) for p in props} == {
        ("tests/test_profiled.py",)}
    assert {tuple(f.as_posix() for f in p.harness) for p in props} == {
        ("tests/__init__.py", "conftest.py", "tests/helpers.py", "tests/conftest.py",
         "pytest.ini")}
    cards = {p.test_id.split("::", 1)[1]: manifest.card_of(p) for p in props}
    assert {k: {f: v for f, v in c.items() if f not in ("property", "seed")}
            for k, c in cards.items()} == {
        "test_plain": {"cases": 100, "deadline_ms": 400, "suppress_health_check": ["too_slow"]},
        "test_plain_text": {"cases": 100, "deadline_ms": 400,
                            "suppress_health_check": ["too_slow"]},
        "TestMethods::test_own_deadline": {"cases": 50, "deadline_ms": None,
                                           "suppress_health_check": ["too_slow"]},
        # TestCase.settings keeps Hypothesis's stateful defaults (no deadline, checks off)
        "MachineTests::runTest": {"cases": 100}}
    assert_stamps_written(plugin_run(repo, "tests/test_profiled.py"), 4)


def test_cards_without_the_profiles_values_are_refused_once_with_the_values_and_the_fix(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same clause for every test a profile refuses is said once, with the values, the
    card fields that hold them and the tests (it was repeated per test, then cut off). Off
    CI: there the profile, built on Hypothesis's ci one, has too_slow from it, which is read
    as the default profile's (no conflict for the health checks)."""
    off_ci(monkeypatch)
    (repo / "tests" / "test_profiled.py").write_text(PROFILED)
    assert init("tests/test_profiled.py") == 0  # no profile yet: cards without its values
    (repo / "tests" / "conftest.py").write_text(PATIENCE)
    done = plugin_run(repo, "tests/test_profiled.py")
    assert done.returncode == 2, done.stdout + done.stderr
    shown = done.stdout + done.stderr
    clause = ("settings profile 'patience' sets deadline=400 ms, suppress_health_check="
              '["too_slow"], other values than the card puts in force: set "deadline_ms": 400, '
              '"suppress_health_check": ["too_slow"] in the cards (gate init writes them for '
              "new cards), or drop deadline, suppress_health_check from the profile "
              "(2 gated tests: tests/test_profiled.py::test_plain, "
              "tests/test_profiled.py::test_plain_text)")
    assert clause in shown, shown
    # the method's own deadline=None wins over the profile's: only its health checks conflict
    assert ("settings profile 'patience' sets suppress_health_check=[\"too_slow\"], other "
            "values than the card puts in force: set \"suppress_health_check\": "
            "[\"too_slow\"] in the cards (gate init writes them for new cards), or drop "
            "suppress_health_check from the profile (1 gated test: "
            "tests/test_profiled.py::TestMethods::test_own_deadline)") in shown
    assert shown.count("settings profile 'patience'") == 2  # once per clause, not per test
    assert "cannot govern 3 gated tests (no test ran)" in shown


def test_gate_init_runs_as_a_command(repo: Path) -> None:
    done = run(*GATE, "init", "tests", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "wrote .github/gate.yml (3 properties, their cards inline)" in done.stdout
    assert os.path.isfile(repo / POLICY)


def test_the_collector_needs_nothing_of_the_gate_in_the_test_environment(
        repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """--python names an interpreter where ``import gate`` fails: collecting still works."""
    wrapper = tmp_path_factory.mktemp("bin") / "python"
    wrapper.write_text(
        "#!/bin/sh\nPYTEST_DISABLE_PLUGIN_AUTOLOAD=1 exec " + sys.executable + " -c '"
        "import sys, runpy; sys.modules[\"gate\"] = None; sys.argv = sys.argv[2:]; "
        "runpy.run_module(\"pytest\", run_name=\"__main__\")' \"$@\"\n")
    wrapper.chmod(0o755)
    assert init("--python", str(wrapper), "tests") == 0
    assert [p.test_id for p in manifest.load(MANIFEST, Path("."))] == IDS


def test_a_stateful_machine_is_a_property_with_its_testcase_settings(
        repo: Path, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "tests" / "test_machine.py").write_text(textwrap.dedent('''\
        from hypothesis import settings, strategies as st
        from hypothesis.stateful import RuleBasedStateMachine, rule


        class Counter(RuleBasedStateMachine):
            total = 0

            @rule(n=st.integers(0, 3))
            def add(self, n):
                self.total += n
                assert self.total >= 0


        CounterTests = Counter.TestCase
        CounterTests.settings = settings(max_examples=9)
        '''))
    assert init("tests/test_machine.py") == 0
    assert "note: 1 stateful test (RuleBasedStateMachine.TestCase)" in capsys.readouterr().out
    (prop,) = manifest.load(MANIFEST, Path("."))
    assert prop.test_id == "tests/test_machine.py::CounterTests::runTest"
    card = manifest.card_of(prop)
    # settings(max_examples=9) also resets the stateful defaults (no deadline, health checks
    # off) to the default profile's: the card keeps them, or the plugin would refuse it
    assert (card["cases"], card["deadline_ms"], card["suppress_health_check"]) == (9, 200, [])
    # runTest is Hypothesis's code: no line of the test file would be right, so none is given
    assert prop.location == {"path": "tests/test_machine.py"}
    # and the plugin governs the machine with that card, on CI as off it
    assert_stamps_written(plugin_run(repo, "tests/test_machine.py"), 1)


def test_a_failed_write_removes_what_this_run_wrote(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "ci").write_text("a file, not a folder")  # the manifest, written last, fails
    assert init("--manifest", "ci/gate.yml", "--cards", str(CARDS), "tests") == 2
    err = capsys.readouterr().err
    assert err.startswith("gate: error: ci/gate.yml: (file): cannot "), err
    assert "not a folder" in err
    assert not any((repo / CARDS).iterdir())  # the cards written before it are gone again
    assert not (repo / POLICY).exists()


def test_an_interpreter_without_pytest_is_named(
        repo: Path, tmp_path_factory: pytest.TempPathFactory,
        capsys: pytest.CaptureFixture[str]) -> None:
    bare = tmp_path_factory.mktemp("bare") / "python"
    bare.write_text("#!/bin/sh\nexec " + sys.executable + " -I -S \"$@\"\n")  # no site-packages
    bare.chmod(0o755)
    assert init("--python", str(bare), "tests") == 2
    err = capsys.readouterr().err
    assert f"{bare}: --python: pytest is not installed for this interpreter" in err, err
    assert not (repo / ".github").exists()


def test_the_policy_templates_example_has_the_suggested_entrys_fields() -> None:
    """gate init's commented example carries the same keys as the gate's suggested entry (and
    uncommented in place of ``allowlist: []``, it is a healthy policy)."""
    import yaml

    from gate.github import review
    from gate.records import adopt, policy
    from tests import golden_cases as g

    lines = adopt.POLICY_TEXT.splitlines()
    start = lines.index("# allowlist:")
    example = ["allowlist:"]
    for line in lines[start + 1:]:
        if not line.startswith("#   "):
            break
        example.append(line[2:])
    record = yaml.safe_load("\n".join(example))
    (entry,) = record["allowlist"]
    pair = next(p for p in g.one_of_each()["pairs"] if p["action"] == "reject_not_allowlisted")
    (suggested,) = yaml.safe_load("\n".join(review.allowlist_entry(typed_pair(pair), g.NOW, 30)))[
        "allowlist"]
    assert sorted(entry) == sorted(suggested)
    pol = policy.from_record(record, "template")
    assert policy.check(pol, entry["added"]) == []


def test_the_policy_template_says_where_ungated_fail_goes() -> None:
    """The summary of an ungated test says "the policy's `ungated: fail` would close the gate";
    on the priority 2.0.0 trial the policy file gate init wrote never showed that key."""
    import yaml

    from gate.records import adopt, policy

    (line,) = [text for text in adopt.POLICY_TEXT.splitlines() if text.startswith("# ungated:")]
    record = yaml.safe_load(line[2:] + "\nallowlist: []")
    assert policy.from_record(record, "template").ungated == "fail"


def test_add_refuses_a_test_id_that_differs_from_its_card(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The one manifest check (gate.records.manifest.check_card) on the ``--add`` route."""
    assert init("--cards", str(CARDS), "tests") == 0
    text = MANIFEST.read_text()
    assert IDS[0] in text
    MANIFEST.write_text(text.replace(json.dumps(IDS[0]), json.dumps(IDS[0] + "x"), 1))
    before = tree(repo)
    capsys.readouterr()
    assert init("--add", "tests") == 2
    err = capsys.readouterr().err
    assert f"{MANIFEST}: properties.0.test_id: " in err and err.count("\n") == 1, err
    assert "differs from the card's property" in err
    assert tree(repo) == before
