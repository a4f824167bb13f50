"""SIGKILL a writer again and again: the store must stay consistent (real processes)."""

import random

import pytest

from memdir import Memory
from memdir.layer.index import render_index
from memdir.layer.journal import now_utc
from tests.conftest import run_cli
from tests.faults import forked

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

def test_fifty_sigkills_leave_a_verifiable_store(isolated_home, project):
    rng = random.Random(7)
    kills = sum(forked.killed(rng, isolated_home, project, 0.12) for _ in range(50))  # writers forked: no start-up
    assert kills == 50
    out = run_cli("--project", project, "verify", "--repair")
    assert out.returncode == 0, out.stdout + out.stderr
    mem = Memory.open(home=isolated_home, project=project)
    listed = mem.list()
    assert listed.malformed == ()
    assert len(listed.memories) >= 1
    layer = mem.session.layer("project")
    records = [e.record for e in layer.scan().entries.values()]
    index_path = layer.path / "MEMORY.md"
    assert index_path.read_text(encoding="utf-8") == render_index(records, now_utc())
    assert mem.verify().layers[0].events >= 50
