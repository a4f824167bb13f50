"""An editor that saves in place (truncates the file, then writes it) leaves the file empty for a moment
(edit36): memdir reading it then took the empty file for the memory's new text — journaled as an
``external-edit`` version with no text — and the agent's next write said "Memory created" of a memory
that existed. An empty file is an edit in progress (:func:`memdir.files.scan.blank`): not a version, not a
deletion; a write over it updates the memory's last version, and the person's text, when the editor
writes it, is taken up as a hand edit, the agent's version kept in history. The editor is a real process
holding the truncated file open; the agent writes over the MCP SDK client. Control: a file a person
deletes is still a deletion."""

from __future__ import annotations

import subprocess
import sys

import anyio
from mcp import Client

from memdir import Memory
from memdir.files.fsio import digest
from memdir.integrations.mcp.server import MemoryServer, build_server

EDITOR = """
import sys
with open(sys.argv[1], "wb") as f:  # an editor saving in place: the file truncated, then written
    print("truncated", flush=True)
    sys.stdin.readline()
    f.write(sys.argv[2].encode("utf-8"))
"""

SAVE = "import sys; open(sys.argv[1], 'wb').write(sys.argv[2].encode('utf-8'))"  # one whole save in place

BY_HAND = "---\ndescription: The database port\ntype: project\n---\nThe database listens on 6543 (saved by hand).\n"
LATER = "---\ndescription: The database port\ntype: project\n---\nThe database listens on 6000 (typed anew).\n"


def _text(result) -> str:
    return result.content[0].text


def _editor(path, text: str) -> subprocess.Popen:
    """A real process saving ``text`` to ``path`` in place: it says ``truncated`` once the file is empty, and
    writes the text when a line comes on its stdin."""
    return subprocess.Popen([sys.executable, "-c", EDITOR, str(path), text], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def _save(path, text: str) -> None:
    subprocess.run([sys.executable, "-c", SAVE, str(path), text], check=True, timeout=60)


def _over_mcp(tmp_path, steps) -> Memory:
    """db-port created by the agent over a real MCP server (the SDK client), then ``await steps(call, path)``
    (``path``: db-port's file); returns the person's facade on the same home and project."""
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    state = MemoryServer(home=home, project=project)
    person = Memory.open(home, project, actor="human")

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_write", {"name": "db-port", "description": "The database port",
                                                        "type": "project", "body": "The database listens on 5432."})
            assert _text(r) == "Memory created: db-port (project)"
            await steps(client.call_tool, person.session.layer_dir("project") / "db-port.md")

    anyio.run(main)
    return person


def _two_memories(tmp_path):
    """``(home, project, the project layer's directory)`` after the agent wrote db-port ("The database listens on
    5432.") and deploy-day ("Never on Fridays.")."""
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    agent = Memory.open(home, project, actor="agent")
    agent.write("db-port", "The database port", "project", "The database listens on 5432.")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.")
    return home, project, agent.session.layer_dir("project")


def test_a_save_in_place_read_halfway_is_one_hand_edit_and_the_next_write_an_update(tmp_path):
    async def steps(call, path):
        editor = _editor(path, BY_HAND)
        try:
            assert editor.stdout.readline() == "truncated\n" and path.read_bytes() == b""
            r = await call("memory_list", {})  # a reader between the two steps: reported, not a version
            assert _text(r).endswith(f"{path}: file is empty")
            editor.stdin.write("go\n")
            editor.stdin.flush()
            assert editor.wait(timeout=60) == 0
        finally:
            editor.kill()
        r = await call("memory_write", {"name": "db-port", "body": "The database listens on 7000."})
        assert _text(r).startswith("Memory updated: db-port (project)\nThis replaced an edit made outside memdir (by hand, or by git) at ")  # not "created"
        assert "it is kept as version 2: `memdir history db-port`" in _text(r)  # the person's save (layer.lasts)

    person = _over_mcp(tmp_path, steps)
    versions = person.history("db-port").versions
    assert [(v.version, v.actor, v.action) for v in versions] == [
        (1, "agent", "create"), (2, "human", "external-edit"), (3, "agent", "update")]
    assert versions[1].digest == digest(BY_HAND.encode())  # the person's save, whole; no version without text


def test_a_write_over_a_file_left_empty_updates_and_the_persons_next_save_is_kept(tmp_path):
    async def steps(call, path):
        _save(path, "")  # a person cleared the file and saved, to type it anew
        r = await call("memory_list", {})
        assert _text(r).endswith(f"{path}: file is empty")
        r = await call("memory_write", {"name": "db-port", "body": "The database listens on 7000."})
        assert _text(r) == "Memory updated: db-port (project)"  # was: "Memory created"
        _save(path, LATER)  # the person's next save
        r = await call("memory_read", {"name": "db-port"})
        assert "6000 (typed anew)" in _text(r)

    person = _over_mcp(tmp_path, steps)
    versions = person.history("db-port").versions
    assert [(v.version, v.actor, v.action) for v in versions] == [
        (1, "agent", "create"), (2, "agent", "update"), (3, "human", "external-edit")]
    assert digest(b"") not in {v.digest for v in versions}  # no version without text
    assert versions[2].digest == digest(LATER.encode())
    assert "7000" in person.show("db-port", 2).text  # the agent's write, kept in history


def test_a_file_a_person_deletes_is_still_a_deletion(tmp_path):
    home, project, layer = _two_memories(tmp_path)
    (layer / "db-port.md").unlink()
    (layer / "deploy-day.md").write_bytes(b"\n \n")  # control: blank, an edit in progress
    fresh = Memory.open(home, project, actor="agent")
    assert fresh.write("deploy-day", body="Never on Fridays or Mondays.").operation == "updated"
    assert fresh.write("db-port", "The database port", "project", "It listens on 7000.").operation == "created"
    assert [(v.version, v.action) for v in fresh.history("db-port").versions] == [
        (1, "create"), (2, "external-delete"), (3, "create")]
    assert [(v.version, v.action) for v in fresh.history("deploy-day").versions] == [(1, "create"), (2, "update")]


def test_a_write_of_the_last_versions_text_over_an_emptied_file_puts_it_back(tmp_path):
    """break38: a person emptied db-port.md, and the agent's write of the very text of its last version answered
    "unchanged" and left the file empty (the last version stood in for the blank file and equalled the write)."""
    home, project, layer = _two_memories(tmp_path)
    (layer / "db-port.md").write_bytes(b"")
    fresh = Memory.open(home, project, actor="agent")
    again = fresh.write("db-port", "The database port", "project", "The database listens on 5432.")
    assert again.operation == "updated"
    assert "The database listens on 5432." in (layer / "db-port.md").read_text(encoding="utf-8")
    assert fresh.read("db-port").record.body.strip() == "The database listens on 5432."
    # Control: the same write over a file that holds its text changes nothing, as before.
    same = fresh.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Fridays.")
    assert same.operation == "unchanged"
    assert [(v.version, v.action) for v in fresh.history("db-port").versions] == [(1, "create"), (2, "update")]
