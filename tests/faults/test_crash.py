"""SIGKILL a writer again and again: the store must stay consistent (real processes)."""

import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from memdir import Memory
from memdir.layer.index import render_index
from memdir.layer.journal import now_utc
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

WRITER = textwrap.dedent("""
    import os, sys, itertools
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2])
    mem.write("first", f"the first write of {os.getpid()}", "project")  # one acknowledged write per process
    print("ready", flush=True)
    for i in itertools.count():
        mem.write(f"note-{i % 7}", f"note {i % 7} revision {i} of {os.getpid()}", "project", "body " * (i % 50))
        if i % 5 == 0:
            try:
                mem.delete(f"note-{(i + 3) % 7}")
            except Exception:
                pass
""")


def test_fifty_sigkills_leave_a_verifiable_store(isolated_home, project):
    rng = random.Random(7)
    kills = 0
    for _ in range(50):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(isolated_home), str(project)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        import time

        time.sleep(rng.uniform(0.0, 0.12))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += proc.returncode == -signal.SIGKILL
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
