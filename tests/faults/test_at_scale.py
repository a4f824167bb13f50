"""The fault-injection-at-scale script (issue 13, item 4; ``fuzz/faults_at_scale.py``).

``make fuzz`` runs it whole (hundreds of kills); here its invariant checker
is shown to catch each kind of broken store (the control for its
``violations: 0``), and a small seeded run of every kind of fault passes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from tests.conftest import REPO

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

SCRIPT = REPO / "fuzz" / "faults_at_scale.py"


@pytest.fixture
def faults():
    spec = importlib.util.spec_from_file_location("faults_at_scale", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _store(home, project):
    mem = Memory.open(home=home, project=project, actor="human")
    written = mem.write("db-port", "Dev DB on port 5433", "project", "docker compose")
    mem.write("editor", "The user edits with Helix", "user")
    return mem, {"op": "write", "name": "db-port", "scope": "project", "digest": written.digest}


TAMPERING = {
    "a file that does not parse": lambda layer, faults, mp: (layer.path / "broken.md").write_text("---\nname: x\n"),
    # A forged MEMORY.md is rebuilt by the next context read (its stamp), so the index the
    # checker expects is what is forged: the comparison itself must then fail.
    "MEMORY.md not the index of its files": lambda layer, faults, mp: mp.setattr(
        faults, "render_index", lambda *a: "- [x](x.md) — not what MEMORY.md holds\n"),
    "an acknowledged version lost": lambda layer, faults, mp: [p.unlink() for p in (layer.meta / "objects").rglob("*")
                                                   if p.is_file()],
    "a journal cut at its head": lambda layer, faults, mp: layer.journal.path.write_bytes(
        b"".join(layer.journal.path.read_bytes().splitlines(keepends=True)[:-1])),
}


@pytest.mark.parametrize("tamper", sorted(TAMPERING))
def test_the_checker_flags_each_broken_invariant(faults, isolated_home, project, tamper, monkeypatch):
    mem, ack = _store(isolated_home, project)
    faults.check("clean", isolated_home, project, [ack])  # control: a sound store has no violation
    assert faults.COUNTS["violations"] == 0 and faults.COUNTS["invariant_checks"] >= 8
    TAMPERING[tamper](mem.session.layer("project"), faults, monkeypatch)
    faults.check(tamper, isolated_home, project, [ack])
    assert faults.COUNTS["violations"] >= 1, tamper
    assert all(v.startswith(tamper) for v in faults.VIOLATIONS)


def test_a_small_seeded_run_of_every_fault_has_no_violation():
    """4 loop kills, one operation's ENOSPC sweep, one permission flip: the
    script as `make fuzz` runs it, only smaller (a few seconds)."""
    out = subprocess.run([sys.executable, str(SCRIPT), "--seed", "5", "--kills", "4", "--flips", "1",
                          "--enospc", "create", "--no-named-points"], capture_output=True, text=True,
                         timeout=300, cwd=REPO, env={**os.environ})
    assert out.returncode == 0, out.stdout + out.stderr
    counts = json.loads(out.stdout.split("memdir faults at scale: ", 1)[1])
    assert counts["kills"] == 5 and counts["kills_at_random_times"] == 4 and counts["permission_flips"] == 1
    assert counts["enospc_operations"] == 1 and counts["enospc_faults"] >= 10
    assert counts["violations"] == 0 and counts["invariant_checks"] > 100
    bad = subprocess.run([sys.executable, str(SCRIPT), "--enospc", "explode"], capture_output=True, text=True,
                         cwd=REPO)
    assert bad.returncode == 2 and "unknown operation(s) for --enospc: explode" in bad.stderr
