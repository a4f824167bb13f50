"""A layer's first write killed (SIGKILL) between its memory file and its journal line. Nothing of the
journal was lost — a write cut that way later in a layer's life verifies, and the next command journals the
file — yet `memdir verify` called it "the journal is missing … it was deleted with its anchor (restore …
from a backup)" and exited 1, while `memdir doctor` said ok (break28: SIGKILL at random points of
`memdir import dir` into a fresh home, 1 kill of 6). The writer's mark (``.memdir/lock.held``) tells the two
apart: a journal deleted by hand still is named (the control, and tests/layer/test_anchor_guard.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real processes

CUT = textwrap.dedent("""
    import os, signal, sys
    from memdir import Memory
    from memdir.layer import journal
    journal.Journal.append = lambda self, *a, **k: os.kill(os.getpid(), signal.SIGKILL)  # dies at the line
    Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human").write(
        "db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
""")


def test_a_first_write_cut_before_its_journal_line_verifies_and_is_journaled_next(isolated_home, project):
    killed = subprocess.run([sys.executable, "-c", CUT, str(isolated_home), str(project)], capture_output=True,
                            text=True, timeout=120, check=False)
    assert killed.returncode == -9, killed.stderr
    [layer] = (isolated_home / "projects").iterdir()
    assert (layer / "db-port.md").is_file() and not (layer / ".memdir" / "journal.jsonl").exists()  # the state

    verify = run_cli("--project", project, "verify")
    assert verify.returncode == 0, verify.stdout  # before: 1, "BAD … it was deleted with its anchor (restore …)"
    assert verify.stdout.startswith(f"ok  {layer}: 0 events") and "backup" not in verify.stdout
    assert run_cli("--project", project, "doctor").returncode == 0

    listed = run_cli("--project", project, "list")
    assert listed.stdout.splitlines() == ["- db-port (type: project; layer: project) — Dev PostgreSQL listens on 5433"]
    history = run_cli("--project", project, "history", "db-port").stdout
    assert history.count("\nv") == 1 and "Dev PostgreSQL listens on 5433" in history  # journaled once, by the list
    assert run_cli("--project", project, "verify").stdout.startswith(f"ok  {layer}: 1 event")

    # The control: the journal and its anchor deleted by hand (no writer died holding the lock) are named.
    (layer / ".memdir" / "journal.jsonl").unlink()
    (layer / ".memdir" / "journal.anchor").unlink()
    gone = run_cli("--project", project, "verify")
    assert gone.returncode == 1 and "the journal is missing but the layer holds 1 version object(s)" in gone.stdout
