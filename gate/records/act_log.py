"""The job summaries in an act ``--json`` log (``gate act-summary``, and tests/act/harness.py).

act (0.2.x, run with ``--json``) prints one JSON object a line. When a step has appended to
``$GITHUB_STEP_SUMMARY`` it adds a record ``{"command": "summary", "content": MARKDOWN}``
with the job's ``jobID``, ``matrix`` and the step's ``stepID`` (a list: a composite action's
inner steps are ``["1", "0"]``, ``["1", "1"]``, ...). A composite step's text is logged twice:
once for each inner step and once more under the outer step (repeating its last inner step's),
so a job's summary is the text of its *leaf* records only, in log order: the records whose step
id is no prefix of another summary record's of the same job run. Each job run (a job and its
matrix values) is one summary; ``jobResult`` says how it ended. Lines that are not JSON
objects (act's own messages on stderr, mixed in) are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class JobSummary:
    job_id: str
    name: str
    matrix: dict[str, Any]
    result: str | None = None
    parts: list[tuple[tuple[str, ...], str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The job summary: the leaf steps' texts, in order."""
        return leaf_text(self.parts)

    @property
    def title(self) -> str:
        named = all(str(v) in self.name for v in self.matrix.values())
        legs = ", ".join(f"{k}={v}" for k, v in self.matrix.items())
        return (self.name + (f" [{legs}]" if legs and not named else "")
                + f": {self.result or 'no result'}")


def leaf_text(parts: Sequence[tuple[tuple[str, ...], str]]) -> str:
    """The texts of ``(step id, text)`` summary records whose step id is no prefix of another's
    (a composite step's outer record repeats its last inner step's text), in order."""
    ids = [sid for sid, _ in parts]
    return "".join(text for sid, text in parts
                   if not any(len(o) > len(sid) and o[:len(sid)] == sid for o in ids))


def records(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The JSON objects among ``lines``."""
    found: list[dict[str, Any]] = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            found.append(record)
    return found


def summaries(log: Iterable[dict[str, Any]]) -> list[JobSummary]:
    """One :class:`JobSummary` per job run, in the order each first appears."""
    runs: dict[str, JobSummary] = {}
    for record in log:
        job_id = record.get("jobID")
        if not isinstance(job_id, str):
            continue
        raw = record.get("matrix")
        matrix: dict[str, Any] = raw if isinstance(raw, dict) else {}
        key = json.dumps([job_id, matrix], sort_keys=True)
        run = runs.get(key)
        if run is None:
            run = runs[key] = JobSummary(job_id, str(record.get("job", job_id)).strip(), matrix)
        if "jobResult" in record:
            run.result = str(record["jobResult"])
        if record.get("command") == "summary":
            raw_id = record.get("stepID")
            step = tuple(str(s) for s in raw_id) if isinstance(raw_id, list) else ()
            run.parts.append((step, str(record.get("content", ""))))
    return list(runs.values())
