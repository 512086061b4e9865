"""Reading a JUnit XML report (untrusted) with junitparser, into a small index.

junitparser 5 parses with lxml when it is installed and with ``xml.etree`` otherwise. Neither
should ever see a document type declaration: before the bytes are handed over, the size is
capped and the document is scanned once with expat (the same parser xml.etree uses, so the
encoding is read the same way), refusing any ``<!DOCTYPE`` and therefore every entity
declaration (billion laughs, external entities) and every external DTD. Nothing here parses
XML by hand.
"""

from __future__ import annotations

import os
import re
import xml.parsers.expat
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.decide import outcome
from gate.errors import GateInputError
from gate.records.files import lexists, read_bytes_capped

#: Largest JUnit report read, in bytes (override with GATE_MAX_JUNIT_BYTES).
DEFAULT_MAX_JUNIT_BYTES = 64 * 1024 * 1024


def max_junit_bytes() -> int:
    raw = os.environ.get("GATE_MAX_JUNIT_BYTES", "")
    if not raw:
        return DEFAULT_MAX_JUNIT_BYTES
    try:
        value = int(raw)
    except ValueError:
        raise GateInputError("GATE_MAX_JUNIT_BYTES", "(env)", f"not an integer: {raw!r}") from None
    if value < 1:
        raise GateInputError("GATE_MAX_JUNIT_BYTES", "(env)", "must be at least 1")
    return value


@dataclass(frozen=True, slots=True)
class Report:
    """Every testcase's status, keyed by (classname, name) and by name alone."""

    by_key: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    by_name: dict[str, list[str]] = field(default_factory=dict)
    has_red: bool = False
    cases: int = 0
    #: per testcase, in the same order as the statuses: the Hypothesis errors its failure names
    errors_by_key: dict[tuple[str, str], list[tuple[str, ...]]] = field(default_factory=dict)
    errors_by_name: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    #: the testcases pytest writes for test files that failed to collect
    #: (``<error message="collection failure">``), by name, in report order
    collection_errors: tuple[str, ...] = ()

    def lookup(self, classname: str | None, name: str) -> list[str]:
        """The statuses of every testcase the selector matches (normally exactly one)."""
        if classname is None:
            return list(self.by_name.get(name, ()))
        return list(self.by_key.get((classname, name), ()))

    def names(self) -> list[tuple[str, str]]:
        """The (classname, name) of every testcase, each once."""
        return list(self.by_key)

    def hypothesis_errors(self, classname: str | None, name: str) -> tuple[str, ...]:
        """The Hypothesis errors (:func:`gate.decide.outcome.hypothesis_errors`) named by the
        failure of the one testcase the selector matches; empty otherwise."""
        found = (self.errors_by_name.get(name, []) if classname is None
                 else self.errors_by_key.get((classname, name), []))
        return found[0] if len(found) == 1 else ()


class _Refused(Exception):
    pass


def _refuse_doctype(*_args: object) -> Any:
    raise _Refused("a DOCTYPE (DTD or entity declaration) is refused")


def refuse_doctype(data: bytes, source: str) -> None:
    """Scan the document once with expat; any DOCTYPE or entity declaration is bad input."""
    scanner = xml.parsers.expat.ParserCreate()
    scanner.StartDoctypeDeclHandler = _refuse_doctype
    scanner.EntityDeclHandler = _refuse_doctype
    scanner.ExternalEntityRefHandler = _refuse_doctype
    try:
        scanner.Parse(data, True)
    except _Refused as exc:
        raise GateInputError(source, "(xml)", str(exc)) from None
    except xml.parsers.expat.ExpatError as exc:
        raise GateInputError(source, f"line {exc.lineno}", f"not well-formed XML: "
                             f"{xml.parsers.expat.errors.messages[exc.code]}") from None
    except (LookupError, ValueError) as exc:  # an unknown or multi-byte declared encoding
        raise GateInputError(source, "(xml)", f"unsupported encoding: {exc}") from None


#: Results junitparser does not model: red attempts that an in-run retry hid (Surefire's
#: flaky*/rerun*), and a failure or error in a namespace. None of them may leave a green.
_RETRIED_RED = frozenset({"flakyFailure", "flakyError", "rerunFailure", "rerunError"})


def _hidden_red(element: Any) -> bool:
    for child in element:
        tag = child.tag if isinstance(child.tag, str) else ""
        local = tag.rsplit("}", 1)[-1]
        if local in _RETRIED_RED or (tag.startswith("{") and local in ("failure", "error")):
            return True
    return False


#: A Hypothesis error as a failure's message or traceback text names it.
_HYPOTHESIS_ERROR = re.compile(r"hypothesis\.errors\.[A-Za-z]+")


#: The message pytest's ``--junitxml`` gives the ``<error>`` of a test file that failed to collect.
COLLECTION_FAILURE = "collection failure"


def _failure_names(result: Any) -> list[str]:
    text = f"{result.message or ''}\n{result.text or ''}"
    return _HYPOTHESIS_ERROR.findall(text)


def parse(data: bytes, source: str) -> Report:
    """Index a JUnit report given as bytes (already size-capped)."""
    from junitparser import Error, Failure, JUnitXml, JUnitXmlError, Skipped

    refuse_doctype(data, source)
    try:
        document = JUnitXml.fromstring(data)
    except JUnitXmlError as exc:
        raise GateInputError(source, "(xml)", f"not a JUnit report: {exc}") from None
    except Exception as exc:  # the parser's own error types differ between lxml and etree
        raise GateInputError(source, "(xml)", f"not a JUnit report: {exc}") from None
    by_key: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_name: dict[str, list[str]] = defaultdict(list)
    errors_by_key: dict[tuple[str, str], list[tuple[str, ...]]] = defaultdict(list)
    errors_by_name: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    has_red = False
    count = 0
    uncollected: list[str] = []
    for suite in document:
        for case in suite:
            kinds: set[str] = set()
            names: list[str] = []
            for result in case.result:
                if isinstance(result, Failure):
                    kinds.add(outcome.FAILURE)
                    names += _failure_names(result)
                elif isinstance(result, Error):
                    kinds.add(outcome.ERROR)
                    if result.message == COLLECTION_FAILURE and case.name:
                        uncollected.append(case.name)
                elif isinstance(result, Skipped):
                    kinds.add(outcome.SKIPPED)
            if _hidden_red(case._elem):
                kinds.add(outcome.ERROR)
            status = outcome.case_status(kinds)
            has_red = has_red or status in (outcome.FAILURE, outcome.ERROR)
            name = case.name or ""
            by_key[(case.classname or "", name)].append(status)
            by_name[name].append(status)
            errors = outcome.hypothesis_errors(names) if status == outcome.FAILURE else ()
            errors_by_key[(case.classname or "", name)].append(errors)
            errors_by_name[name].append(errors)
            count += 1
    return Report(dict(by_key), dict(by_name), has_red, count, dict(errors_by_key),
                  dict(errors_by_name), tuple(uncollected))


def load(path: Path) -> Report | None:
    """The report at ``path``; ``None`` when no report was written (no such file)."""
    if not lexists(path):
        return None
    return parse(read_bytes_capped(path, max_junit_bytes(), "GATE_MAX_JUNIT_BYTES"), str(path))
