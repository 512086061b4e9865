"""gate.records.junit: JUnit XML read with junitparser, after a size cap and a DOCTYPE refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.decide import outcome
from gate.errors import GateInputError
from gate.records import junit

REPORT = b"""<?xml version="1.0" encoding="utf-8"?>
<testsuites>
 <testsuite name="outer">
  <testcase classname="m.A" name="ok"/>
  <testcase classname="m.A" name="red"><failure message="boom">assert 1 == 2</failure></testcase>
  <testcase classname="m.A" name="broken"><error message="fixture">RuntimeError</error></testcase>
  <testcase classname="m.A" name="both"><failure/><error/></testcase>
  <testcase classname="m.B" name="skipped"><skipped message="no locale"/></testcase>
  <testcase classname="m.B" name="ok"/>
  <testsuite name="inner"><testcase classname="m.C" name="nested"/></testsuite>
 </testsuite>
</testsuites>
"""


def test_statuses_by_classname_and_name() -> None:
    report = junit.parse(REPORT, "r.xml")
    assert report.lookup("m.A", "ok") == ["passed"]
    assert report.lookup("m.A", "red") == ["failure"]
    assert report.lookup("m.A", "broken") == ["error"]
    assert report.lookup("m.A", "both") == ["failure"]
    assert report.lookup("m.B", "skipped") == ["skipped"]
    assert report.lookup("m.C", "nested") == ["passed"]
    assert report.lookup("m.A", "absent") == []
    assert report.lookup("m.X", "ok") == []
    assert report.has_red
    assert report.cases == 7


def test_name_alone_may_be_ambiguous() -> None:
    report = junit.parse(REPORT, "r.xml")
    assert report.lookup(None, "ok") == ["passed", "passed"]
    assert report.lookup(None, "red") == ["failure"]


def test_a_single_testsuite_root_and_no_red() -> None:
    report = junit.parse(b'<testsuite name="s"><testcase classname="c" name="n"/></testsuite>',
                         "r.xml")
    assert report.lookup("c", "n") == ["passed"]
    assert not report.has_red


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<testsuites><testsuite name="s"><testcase classname="c" name="&lol3;"/></testsuite></testsuites>
"""


@pytest.mark.parametrize("document", [
    BILLION_LAUGHS,
    b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://example.invalid/x.dtd"><testsuites/>',
    b'<!DOCTYPE testsuites><testsuites/>',
    b'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    b'<testsuites><testsuite><testcase name="&e;"/></testsuite></testsuites>',
    BILLION_LAUGHS.decode().replace('encoding="utf-8"', "").encode("utf-16"),
])
def test_doctype_is_refused(document: bytes) -> None:
    with pytest.raises(GateInputError) as caught:
        junit.parse(document, "evil.xml")
    assert caught.value.source == "evil.xml"
    assert "DOCTYPE" in caught.value.message


@pytest.mark.parametrize("document", [
    b"", b"<testsuites>", b"not xml", b"<html/>", b"<testsuites></testsuite>",
])
def test_malformed_is_bad_input(document: bytes) -> None:
    with pytest.raises(GateInputError):
        junit.parse(document, "bad.xml")


def test_size_is_capped_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.xml"
    path.write_bytes(REPORT)
    monkeypatch.setenv("GATE_MAX_JUNIT_BYTES", "100")
    with pytest.raises(GateInputError, match="limit"):
        junit.load(path)
    monkeypatch.setenv("GATE_MAX_JUNIT_BYTES", "nope")
    with pytest.raises(GateInputError):
        junit.load(path)


def test_missing_report_is_none_and_a_link_is_refused(tmp_path: Path) -> None:
    assert junit.load(tmp_path / "absent.xml") is None
    (tmp_path / "real.xml").write_bytes(REPORT)
    (tmp_path / "link.xml").symlink_to(tmp_path / "real.xml")
    with pytest.raises(GateInputError):
        junit.load(tmp_path / "link.xml")
    assert junit.load(tmp_path / "real.xml") is not None


@pytest.mark.parametrize("hidden", [
    '<flakyFailure message="AssertionError"/>',
    '<flakyError message="boom"/>',
    '<rerunFailure message="AssertionError"/>',
    '<rerunError message="boom"/>',
    '<x:failure xmlns:x="urn:x"/>',
    '<x:error xmlns:x="urn:x"/>',
])
def test_a_red_attempt_a_retry_hid_is_never_green(hidden: str) -> None:
    """Surefire records attempts an in-run retry hid as flaky*/rerun*; junitparser ignores them
    (and namespaced results). A stamp for such a case must not be pass."""
    document = (f'<testsuites><testsuite name="s"><testcase classname="m" name="t">{hidden}'
                '</testcase><testcase classname="m" name="ok"/></testsuite></testsuites>')
    parsed = junit.parse(document.encode(), "r.xml")
    assert parsed.by_key[("m", "t")] == [outcome.ERROR]
    assert parsed.by_key[("m", "ok")] == [outcome.PASSED]


def test_hypothesis_errors_are_read_from_the_failure_text() -> None:
    data = b"""<?xml version="1.0" encoding="utf-8"?>
<testsuite>
 <testcase classname="m" name="slow"><failure message="DeadlineExceeded('Test took 60ms') [single
 exception in FlakyFailure]">+ Exception Group Traceback
 | hypothesis.errors.FlakyFailure: unreliable (1 sub-exception)
 | hypothesis.errors.DeadlineExceeded: Test took 60ms</failure></testcase>
 <testcase classname="m" name="red"><failure message="assert 1 == 2">m.py:3: AssertionError
 </failure></testcase>
 <testcase classname="m" name="err"><error message="hypothesis.errors.FailedHealthCheck: x"/>
 </testcase>
 <testcase classname="m" name="twice"><failure>hypothesis.errors.Unsatisfiable</failure></testcase>
 <testcase classname="m" name="twice"/>
</testsuite>
"""
    report = junit.parse(data, "r.xml")
    assert report.hypothesis_errors("m", "slow") == ("FlakyFailure", "DeadlineExceeded")
    assert report.hypothesis_errors(None, "slow") == ("FlakyFailure", "DeadlineExceeded")
    assert report.hypothesis_errors("m", "red") == ()
    assert report.hypothesis_errors("m", "err") == ()  # an <error> is resource_exit anyway
    assert report.hypothesis_errors("m", "twice") == ()  # ambiguous: row 7 decides
    assert report.hypothesis_errors("m", "absent") == ()
