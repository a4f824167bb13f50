"""A memory file that is there but cannot be opened (permission denied) is told as a file that exists and
cannot be read — by the memory tool's every command, memory_read and a memory_write rename — never as a
path that "does not exist" (hostile testers, tools40: ``view`` of a chmod-000 file said "The path … does not
exist", the tool's listing left it out, and a rename from it said "no such memory").

Root reads a chmod-000 file all the same, so the file is chmod 000 *and* the one read of a memory file
(:func:`memdir.files.fsio.read_foreign`'s ``os.open``) is refused for that path with the system's
PermissionError: the same failure as a real user's, whoever runs the test."""

from __future__ import annotations

import errno
import os

import pytest

from memdir import Memory
from memdir.tools.memory_directory import run

P = "/memories/project/"
DENIED = "it cannot be read (Permission denied)"


@pytest.fixture
def denied(isolated_home, project, monkeypatch):
    """The project layer with ``db-port`` unreadable (chmod 000, open refused) and ``ok`` readable; the
    agent's facade on it and the file's path."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    person.write("ok", "The CI runs on every push", "project", "GitHub Actions.")
    path = person.session.layer("project").path / "db-port.md"
    os.chmod(path, 0)
    real_open = os.open

    def refusing(file, flags, *args, **kwargs):
        if os.fspath(file) == str(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    yield Memory.open(home=isolated_home, project=project), path
    os.chmod(path, 0o600)


def test_every_command_says_the_file_exists_and_cannot_be_read(denied):
    mem, path = denied
    reason = (f'memory "db-port" of the project layer is not read: its file exists but is not a readable memory: '
              f"{path}: {DENIED}")
    exists = f"The path {P}db-port.md exists but cannot be read: {reason}"
    for command in ({"command": "view", "path": P + "db-port.md"},
                    {"command": "str_replace", "path": P + "db-port.md", "old_str": "5433", "new_str": "5434"},
                    {"command": "insert", "path": P + "db-port.md", "insert_line": 0, "insert_text": "x"},
                    {"command": "delete", "path": P + "db-port.md"},
                    {"command": "rename", "old_path": P + "db-port.md", "new_path": P + "pg-port.md"}):
        told = run(mem.session, command)
        assert (told.is_error, told.text) == (True, exists), command["command"]
        assert "does not exist" not in told.text
    created = run(mem.session, {"command": "create", "path": P + "db-port.md", "file_text": "other text"})
    assert (created.is_error, created.text) == (True, f"File {P}db-port.md already exists but cannot be read: {reason}")
    listing = run(mem.session, {"command": "view", "path": "/memories/project"}).text.splitlines()
    assert listing[2:] == [f"15B\t{P}ok.md\tThe CI runs on every push",
                           f"?\t{P}db-port.md\t(there, but not a readable memory: {DENIED})"]
    assert mem.call_tool("memory_read", {"name": "db-port"}) == f"Error: {reason}"
    assert mem.call_tool("memory_write", {"name": "pg-port", "rename_from": "db-port"}) == f"Error: {reason}"
    # with the layer named, the gateway's own read of the file refuses it (the write's transaction)
    assert mem.call_tool("memory_write", {"name": "pg-port", "rename_from": "db-port", "scope": "project"}) == \
        f"Error: cannot read {path}: Permission denied"


def test_controls_a_readable_memory_is_shown_and_a_missing_one_does_not_exist(denied):
    mem, _ = denied
    shown = run(mem.session, {"command": "view", "path": P + "ok.md"})
    assert (shown.is_error, shown.text) == (False, (f"Here's the content of {P}ok.md with line numbers:\n"
                                                    "     1\tGitHub Actions."))
    missing = run(mem.session, {"command": "view", "path": P + "nothing.md"})
    assert missing.is_error and missing.text.startswith(f"The path {P}nothing.md does not exist: memory not found")
    gone = run(mem.session, {"command": "rename", "old_path": P + "nothing.md", "new_path": P + "x.md"})
    assert (gone.is_error, gone.text) == (True, f"The path {P}nothing.md does not exist")
    assert mem.call_tool("memory_write", {"name": "x", "rename_from": "nothing"}).startswith(
        'Error: cannot rename "nothing": no such memory in the user or project layer')
