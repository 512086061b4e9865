"""The stamp step's fence under act (issue 27): a test that prints workflow commands makes none.

The repository's example workflow, its stamp jobs only, with a test command that first prints
``::error::forged``, ``::add-mask::gate`` and, on stderr, ``::warning::``: act parses the
step's output as the runner does (``::stop-commands::`` included), so no forged annotation is
recorded and no mask hides the gate's lines; the stamps are written as before.
"""

from __future__ import annotations

from pathlib import Path

from tests import test_action_act as base
from tests.github_double import GitHubDouble

wheelhouse = base.wheelhouse  # the session fixture: the action's locked wheels
double = base.double

COMMAND = "command: cd gate/examples && python -m pytest"
FORGER = ("command: echo '::error::forged' && echo '::add-mask::gate' && "
          "echo '::warning title=x::forged too' >&2 && cd gate/examples && python -m pytest")


def test_a_tests_workflow_commands_are_not_commands_under_act(
        tmp_path: Path, double: GitHubDouble, wheelhouse: Path) -> None:
    result = base._run_example(tmp_path, double, wheelhouse, edit={COMMAND: FORGER},
                               job="stamp")
    for server_class in ("local-pinned", "free-server"):
        leg = result.job("stamp", {"server-class": server_class})
        assert leg.succeeded, result.log_tail(80)
        assert [a.message for a in leg.annotations if "forged" in a.message] == []
        assert "***" not in leg.stdout  # no mask took: "gate" is shown as it is
        assert leg.outputs  # the step still set its outputs (stamps-dir, artifact-name)
