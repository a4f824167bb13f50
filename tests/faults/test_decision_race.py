"""Two processes deciding the same candidate at once (issue: the decision read the candidate and wrote
under separate locks). Both read the candidate before either may act — the test holds the layer's
lock until both have — then the lock is let go: exactly one decides, the other is refused with
"already decided", and the store holds the one decision."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from memdir import Memory
from memdir.layer.team import candidate_layer
from tests.conftest import REPO
from tests.teamgit import shared_repository

# Each decider signals (a file) once it has read the candidate, then goes on to decide.
DECIDER = """
import json, pathlib, sys
from memdir import Memory
from memdir.errors import MemdirError
from memdir.operations import trust

home, root, verb, name, scope, ready = sys.argv[1:]
found = trust._find_pending


def signalling(*args, **kwargs):
    result = found(*args, **kwargs)
    pathlib.Path(ready).touch()
    return result


trust._find_pending = signalling
person = Memory.open(home=home, project=root, actor="human")
try:
    decision = getattr(person, verb)(name, scope)
    print(json.dumps({"won": True, "name": decision.name}))
except MemdirError as exc:
    print(json.dumps({"won": False, "error": type(exc).__name__, "message": str(exc)}))
"""


def _race(tmp_path, home, root, layer, name, scope):
    """Reject and dismiss ``name`` from two processes at once; their answers, by verb."""
    procs, ready = {}, {}
    with layer.locked():
        for verb in ("reject", "dismiss"):
            ready[verb] = tmp_path / f"ready-{verb}"
            procs[verb] = subprocess.Popen(
                [sys.executable, "-c", DECIDER, str(home), str(root), verb, name, scope, str(ready[verb])],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
        deadline = time.time() + 60
        while not all(path.exists() for path in ready.values()) and time.time() < deadline:
            time.sleep(0.02)
        assert all(path.exists() for path in ready.values())  # both read the candidate before either acted
    answers = {}
    for verb, proc in procs.items():
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        answers[verb] = json.loads(out)
    return answers


def _one_winner(answers, name):
    winners = [verb for verb, answer in answers.items() if answer["won"]]
    assert len(winners) == 1, answers
    (loser,) = [answer for answer in answers.values() if not answer["won"]]
    assert loser["error"] == "Conflict"
    assert loser["message"] == (f"candidate {name!r} was already decided or changed meanwhile (approved, rejected "
                                "or dismissed elsewhere)")  # the API's text names no command (break39)
    return winners[0]


@pytest.mark.slow
def test_two_processes_deciding_one_personal_candidate_one_wins(tmp_path, isolated_home, project):
    Memory.open(home=isolated_home, project=project).write(
        "indent", "Indent with tabs", "feedback", "Use tabs.", status="candidate")
    person = Memory.open(home=isolated_home, project=project, actor="human")
    assert [c.name for c in person.review().candidates] == ["indent"]  # control: there is one to decide
    winner = _one_winner(_race(tmp_path, isolated_home, project, person.session.layer("project"), "indent",
                               "project"), "indent")
    assert person.review().candidates == ()
    journal = [json.loads(line) for line in
               (person.session.layer_dir("project") / ".memdir" / "journal.jsonl").read_text().splitlines()]
    assert [e["action"] for e in journal if e["name"] == "indent"][-1:] == [winner]
    assert sum(e["action"] in ("reject", "dismiss") for e in journal if e["name"] == "indent") == 1
    assert len(person.tombstones().tombstones) == (1 if winner == "reject" else 0)


@pytest.mark.slow
def test_two_processes_deciding_one_team_candidate_one_wins(tmp_path):
    a, _ = shared_repository(tmp_path)
    a.memory(actor="agent").write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.",
                                  scope="team")
    person = a.memory()
    assert [(c.name, c.scope) for c in person.review().candidates] == [("deploy-day", "team")]  # control
    layer = candidate_layer(a.home, a.root, person.session.settings)
    winner = _one_winner(_race(tmp_path, a.home, a.root, layer, "deploy-day", "team"), "deploy-day")
    assert person.review().candidates == ()
    assert not (a.team_dir / "deploy-day.md").exists()
    journal = [json.loads(line) for line in (layer.meta / "journal.jsonl").read_text().splitlines()]
    assert sum(e["action"] in ("reject", "dismiss") for e in journal if e["name"] == "deploy-day") == 1
    assert [e["action"] for e in journal if e["name"] == "deploy-day"][-1] == winner
