"""A layer's ``journal.jsonl`` that is a FIFO (break37): ``memdir write`` and ``memdir history`` opened it and waited
for a writer forever, the layer's lock held. Now a change of that layer is refused at once naming the file, nothing
is written, and the other layer, reads and the context block go on. Real CLI processes, with a timeout so a
regression fails instead of hanging."""

from __future__ import annotations

import os
import subprocess
import sys


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir.cli", *args], capture_output=True, text=True, timeout=60, check=False)


def test_a_fifo_journal_refuses_the_change_at_once_and_the_rest_goes_on(isolated_home, project):
    assert _cli("write", "likes-tabs", "-d", "Prefers tabs over spaces", "-t", "user",
                "--project", str(project)).returncode == 0
    journal = isolated_home / "_user" / ".memdir" / "journal.jsonl"
    journal.unlink()
    os.mkfifo(journal)

    write = _cli("write", "likes-vim", "-d", "Edits in vim", "-t", "user", "--project", str(project))

    assert write.returncode == 1
    assert write.stderr == (f"memdir: {journal} is not a regular file; memdir keeps the layer's journal there "
                            "(nothing was changed): put the journal back from a backup, then memdir verify\n")
    assert not (isolated_home / "_user" / "likes-vim.md").exists()
    # control: the project layer's journal is sound, its write goes through in the same home
    other = _cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project", "--project", str(project))
    assert other.returncode == 0, other.stderr
    listed = _cli("list", "--project", str(project))
    assert "- likes-tabs (type: user; layer: user) — Prefers tabs over spaces" in listed.stdout
    assert "- db-port (type: project; layer: project) — Dev PostgreSQL listens on 5433" in listed.stdout
    assert "likes-vim" not in listed.stdout
    assert _cli("history", "likes-tabs", "--project", str(project)).returncode == 1  # answered, not waiting
