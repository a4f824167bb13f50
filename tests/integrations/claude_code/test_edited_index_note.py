"""A session start that finds MEMORY.md edited by hand (and keeps the edit aside as it rebuilds the file) tells
the person once: Claude Code's hook JSON carries it as ``systemMessage`` (shown to the person), Gemini CLI's
hook says it on stderr (shown as a hook message); the next start says nothing (status and doctor list the copy
from then on). Before (left29), every start was silent and only status/doctor said so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from memdir import Memory


def _start(client: str, project, session: str) -> subprocess.CompletedProcess:
    payload = {"session_id": session, "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    return subprocess.run([sys.executable, "-m", "memdir.hooks", client, "SessionStart"], input=json.dumps(payload),
                          capture_output=True, text=True, timeout=60)


def _hand_edit(person: Memory) -> None:
    index = person.session.layer("project").path / "MEMORY.md"
    with open(index, "a", encoding="utf-8") as f:
        f.write("- my own line, typed here\n")
    later = time.time() + 5  # after memdir's stamp, whatever the file system's clock granularity
    os.utime(index, (later, later))


@pytest.mark.parametrize("client", ["claude-code", "gemini"])
def test_a_hand_edited_index_is_said_once_to_the_person(isolated_home, project, person, client):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    quiet = _start(client, project, "s-0")  # control: no edit, nothing said
    assert quiet.returncode == 0 and quiet.stderr == "" and "systemMessage" not in quiet.stdout
    _hand_edit(person)
    first, again = _start(client, project, "s-1"), _start(client, project, "s-2")
    [kept] = sorted((person.session.layer("project").path / ".memdir").glob("MEMORY.md.edited-*"))
    assert "my own line, typed here" in kept.read_text()
    said = (f"memdir: MEMORY.md was edited by hand; it is rebuilt from the memory files, and the edit is kept at "
            f"{kept} — a fact belongs in a memory (memdir write).")
    if client == "claude-code":
        out = json.loads(first.stdout)
        assert out["systemMessage"] == said and "db-port" in out["hookSpecificOutput"]["additionalContext"]
        assert first.stderr == ""
    else:
        assert first.stderr == said + "\n"
    assert again.stderr == "" and "systemMessage" not in again.stdout  # once
    assert "my own line" not in (person.session.layer("project").path / "MEMORY.md").read_text()
