"""A write that replaces a person's hand edit nobody read since it was made says so, naming the version that
keeps it (:mod:`memdir.layer.lasts`), from the manifest's row of the memory — no journal read. The person
saves with a real process; the agent writes over the MCP SDK client, the memory tool, or the CLI in a
subprocess. Controls in each setup: the agent reads the memory first (no sentence), a plain update over an
agent's version (no sentence), and the sentence where it must appear."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import anyio
from mcp import Client

from memdir import Memory
from memdir.files.fsio import digest
from memdir.files.layout import MANIFEST_FILE
from memdir.integrations.mcp.server import MemoryServer, build_server

SAVE = "import sys; open(sys.argv[1], 'wb').write(sys.argv[2].encode('utf-8'))"  # a person's save, in place
BY_HAND = "---\ndescription: The database port\ntype: project\n---\nThe database listens on 6543 (saved by hand).\n"
CREATE = {"name": "db-port", "description": "The database port", "type": "project",
          "body": "The database listens on 5432."}


def _text(result) -> str:
    return result.content[0].text


def _save(path, text: str) -> None:
    subprocess.run([sys.executable, "-c", SAVE, str(path), text], check=True, timeout=60)


def _sentence(version: int, made: str) -> str:
    return (f"This replaced an edit made outside memdir (by hand, or by git) at {made} that had not been read since; it is kept as version "
            f"{version}: `memdir history db-port` lists it, `memdir restore db-port --version {version}` brings it back.")


def _made(person: Memory, version: int) -> str:
    """The journal time of ``version`` of db-port in whole seconds, as the sentence says it."""
    ts = person.history("db-port").versions[version - 1].ts
    return ts.split(".")[0].rstrip("Z") + "Z"


def _run(tmp_path, steps):
    """``steps(call, path, person)`` against a real MCP server over the SDK client; the person's facade."""
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    state = MemoryServer(home=home, project=project)
    person = Memory.open(home, project, actor="human")

    async def main():
        async with Client(build_server(state)) as client:
            call = client.call_tool
            assert _text(await call("memory_write", CREATE)) == "Memory created: db-port (project)"
            path = person.session.layer_dir("project") / "db-port.md"
            await steps(call, path, person)

    anyio.run(main)
    return person


def test_a_write_over_an_unread_hand_edit_names_the_version_that_keeps_it(tmp_path):
    said = []

    async def steps(call, path, person):
        _save(path, BY_HAND)
        said.append(_text(await call("memory_write", {"name": "db-port", "body": "The database listens on 7000."})))

    person = _run(tmp_path, steps)
    versions = person.history("db-port").versions
    assert [(v.version, v.action) for v in versions] == [(1, "create"), (2, "external-edit"), (3, "update")]
    assert said == [f"Memory updated: db-port (project)\n{_sentence(2, _made(person, 2))}"]
    assert versions[1].digest == digest(BY_HAND.encode())  # the person's save, whole, kept as version 2


def test_no_sentence_when_the_agent_read_the_hand_edit_first_nor_over_an_agents_version(tmp_path):
    said = []

    async def steps(call, path, person):
        said.append(_text(await call("memory_write", {"name": "db-port", "body": "The database listens on 5433."})))
        _save(path, BY_HAND)
        read = _text(await call("memory_read", {"name": "db-port"}))
        assert "6543 (saved by hand)" in read  # the agent saw the person's text
        said.append(_text(await call("memory_write", {"name": "db-port", "body": "The database listens on 7000."})))
        await anyio.sleep(1.1)  # reads are counted in whole seconds: an edit in the read's second counts as read
        _save(path, BY_HAND.replace("6543", "6544"))  # in the same setup, unread: the sentence must appear
        said.append(_text(await call("memory_write", {"name": "db-port", "body": "The database listens on 7001."})))

    person = _run(tmp_path, steps)
    versions = person.history("db-port").versions
    assert [(v.version, v.action) for v in versions] == [
        (1, "create"), (2, "update"), (3, "external-edit"), (4, "update"), (5, "external-edit"), (6, "update")]
    assert said == ["Memory updated: db-port (project)",  # over the agent's own version
                    "Memory updated: db-port (project)",  # over a hand edit the agent read
                    f"Memory updated: db-port (project)\n{_sentence(5, _made(person, 5))}"]


def test_versions_are_counted_through_a_delete_and_the_memory_tool_says_it_too(tmp_path):
    from memdir.session import open_session
    from memdir.tools.memory_directory import run

    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    agent = Memory.open(home, project, actor="agent")
    person = Memory.open(home, project, actor="human")
    agent.write("db-port", "The database port", "project", "The database listens on 5432.")
    deleted = agent.delete("db-port")
    person.lift_tombstone(deleted.tombstone, scope="project")
    agent.write("db-port", "The database port", "project", "The database listens on 5555.")
    path = person.session.layer_dir("project") / "db-port.md"
    _save(path, BY_HAND)
    tool = open_session(home, project, actor="agent")
    said = [run(tool, {"command": "str_replace", "path": "/memories/project/db-port.md",
                       "old_str": "6543", "new_str": "7002"}).text]
    _save(path, BY_HAND.replace("6543", "6545"))  # control: viewed first, then replaced: no sentence
    assert "6545" in run(tool, {"command": "view", "path": "/memories/project/db-port.md"}).text
    said.append(run(tool, {"command": "str_replace", "path": "/memories/project/db-port.md",
                           "old_str": "6545", "new_str": "7003"}).text)
    versions = person.history("db-port").versions
    assert [v.action for v in versions] == ["create", "delete", "create", "external-edit", "update",
                                            "external-edit", "update"]
    assert said[0].startswith("The memory file has been edited.")
    assert said[0].endswith(f"note: {_sentence(4, _made(person, 4))}")  # counted through the delete, as history
    assert said[1].startswith("The memory file has been edited.") and "note:" not in said[1]


def _memdir(home, project, *args) -> str:
    done = subprocess.run([sys.executable, "-m", "memdir", "--home", str(home), "--project", str(project), *args],
                          capture_output=True, text=True, timeout=120, cwd=project, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_manifest_without_the_rows_counts_them_once_from_the_journal_and_the_cli_says_it(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    person = Memory.open(home, project, actor="human")
    _memdir(home, project, "write", "db-port", "--description", "The database port", "--body", "On 5432.")
    layer_dir = person.session.layer_dir("project")
    manifest = layer_dir / ".memdir" / MANIFEST_FILE
    conn = sqlite3.connect(manifest)  # as an older memdir left it: no lasts rows
    conn.execute("DROP TABLE lasts")
    conn.execute("DELETE FROM meta WHERE key = 'lasts'")
    conn.commit()
    conn.close()
    _save(layer_dir / "db-port.md", BY_HAND)
    said = _memdir(home, project, "write", "db-port", "--body", "On 7000.")
    assert [v.action for v in person.history("db-port").versions] == ["create", "external-edit", "update"]
    assert said == f"Memory updated: db-port (project)\n{_sentence(2, _made(person, 2))}\n"  # counted by its save
    rows = sqlite3.connect(manifest).execute("SELECT versions, hand IS NULL FROM lasts WHERE name = 'db-port'")
    assert rows.fetchall() == [(3, 1)]  # kept from then on
    again = _memdir(home, project, "write", "db-port", "--body", "On 7001.")
    assert again == "Memory updated: db-port (project)\n"  # control: over the CLI's own version


def test_the_rows_kept_step_by_step_equal_a_count_of_the_whole_journal(tmp_path):
    """The rows each transaction folds its events into (two processes writing in turn, hand edits, a delete, a
    sweep of a hand-placed file) are what a count of the whole journal gives, name by name."""
    from memdir.layer.lasts import Last, from_events

    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    agent = Memory.open(home, project, actor="agent")
    agent.write("db-port", "The database port", "project", "On 5432.")
    agent.write("cache-ttl", "The cache lifetime", "project", "Sixty seconds.")
    layer_dir = agent.session.layer_dir("project")
    _memdir(home, project, "write", "db-port", "--body", "On 5433.")  # another process, in turn
    _save(layer_dir / "db-port.md", BY_HAND)
    (layer_dir / "queue-size.md").write_text("---\ndescription: The queue size\ntype: project\n---\n64.\n")
    agent.write("cache-ttl", body="Ninety seconds.")  # its transaction sweeps: the hand edit, the new file
    agent.delete("cache-ttl")
    _memdir(home, project, "write", "queue-size", "--body", "128.")
    layer = agent.session.layer("project")
    rows = sqlite3.connect(layer_dir / ".memdir" / MANIFEST_FILE).execute("SELECT * FROM lasts").fetchall()
    counted = from_events(layer.journal.events())
    assert {name: Last(*rest) for name, *rest in rows} == counted
    assert [v.action for v in agent.history("db-port").versions] == ["create", "update", "external-edit"]
    assert counted["db-port"].versions == 3 and counted["db-port"].hand is not None  # its last: the hand edit
    assert counted["queue-size"].versions == 2 and counted["queue-size"].hand is None  # placed by hand, then written
    assert counted["cache-ttl"] == Last(3, None, None)  # created, updated, deleted


def test_rows_of_another_journal_are_counted_anew_by_the_save_that_finds_them(tmp_path):
    """A manifest whose rows are not of the journal a write began with (a process's events never saved there,
    as a stamp set aside here) is not folded into: its save counts the rows anew from the journal, and the
    write over a hand edit names its version all the same."""
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    agent = Memory.open(home, project, actor="agent")
    agent.write("db-port", "The database port", "project", "On 5432.")
    layer_dir = agent.session.layer_dir("project")
    manifest = layer_dir / ".memdir" / MANIFEST_FILE
    with sqlite3.connect(manifest) as conn:
        conn.execute("UPDATE meta SET value = '1:1' WHERE key = 'journal'")
    _save(layer_dir / "db-port.md", BY_HAND)
    first = agent.write("db-port", body="On 7000.").kept_edit
    assert (first.version, first.made) == (2, _made(agent, 2))
    assert sqlite3.connect(manifest).execute("SELECT versions FROM lasts").fetchall() == [(3,)]
    assert agent.write("db-port", body="On 7001.").kept_edit is None  # control: over the agent's own version
    _save(layer_dir / "db-port.md", BY_HAND.replace("6543", "6547"))
    kept = agent.write("db-port", body="On 7002.").kept_edit
    assert [v.action for v in agent.history("db-port").versions] == [
        "create", "external-edit", "update", "update", "external-edit", "update"]
    assert (kept.version, kept.made) == (5, _made(agent, 5))


def test_a_batch_writing_one_name_twice_over_a_hand_edit_says_so_once(tmp_path):
    """break38: a batch writing one name twice over an unread hand edit said nothing (the second write, over the
    first's version, cancelled what the first replaced). Its last write says it; control: one write of it."""
    from memdir.gateway.fields import MemoryChange
    from memdir.gateway.writing import BatchWrite
    from memdir.operations.memories import write_batch
    from memdir.render.memories import write as rendered

    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    agent = Memory.open(home, project, actor="agent")
    agent.write(**CREATE)
    layer_dir = agent.session.layer_dir("project")
    _save(layer_dir / "db-port.md", BY_HAND)
    twice = [BatchWrite(MemoryChange("db-port", body=f"On {port}.")) for port in (7000, 7001)]
    first, last = write_batch(agent.session, twice, "project")
    assert first.kept_edit is None and (last.kept_edit.version, last.kept_edit.made) == (2, _made(agent, 2))
    assert rendered(last) == f"Memory updated: db-port (project)\n{_sentence(2, _made(agent, 2))}"
    assert rendered(first) == "Memory updated: db-port (project)"  # said once, by the name's last write
    _save(layer_dir / "db-port.md", BY_HAND.replace("6543", "6547"))
    once, = write_batch(agent.session, twice[:1], "project")
    assert once.kept_edit.version == 5  # control: one write over a hand edit, as before


def test_a_write_leaving_every_field_the_hand_edit_changed_says_nothing(tmp_path):
    """newuser44: a person edited the body by hand, the agent then updated only the description: the edit's text
    is all still there, yet the write said "This replaced an edit …" and offered a restore that would undo it.
    Controls in the same setup: a write of the description over a hand edit of the description, and a write of
    the body over a hand edit of the body, each say it."""
    said = []
    by_hand_description = BY_HAND.replace("The database port", "The database port (dev)")

    async def steps(call, path, person):
        _save(path, BY_HAND)  # the body, by hand
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The dev database port"})))
        said.append(_text(await call("memory_read", {"name": "db-port"})))
        await anyio.sleep(1.1)  # reads are counted in whole seconds
        _save(path, by_hand_description)  # the description, by hand
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The port of the dev db"})))
        await anyio.sleep(1.1)
        _save(path, BY_HAND.replace("6543", "6544"))  # the body (and the description back), by hand
        said.append(_text(await call("memory_write", {"name": "db-port", "body": "The database listens on 7000."})))

    person = _run(tmp_path, steps)
    versions = person.history("db-port").versions
    assert [v.action for v in versions] == ["create", "external-edit", "update", "external-edit", "update",
                                            "external-edit", "update"]
    assert said[0] == "Memory updated: db-port (project)"  # the body the person saved is kept whole
    assert "The database listens on 6543 (saved by hand)." in said[1]
    assert said[2] == f"Memory updated: db-port (project)\n{_sentence(4, _made(person, 4))}"
    assert said[3] == f"Memory updated: db-port (project)\n{_sentence(6, _made(person, 6))}"


def test_overwrites_compares_the_fields_the_edit_changed_with_those_the_write_changed():
    from memdir.files.memfile import MemoryRecord
    from memdir.layer.lasts import changed_fields, overwrites

    before = MemoryRecord("db-port", "The database port", "project", "On 5432.")
    edit = MemoryRecord("db-port", "The database port", "project", "On 6543.\n", origin=None)
    assert changed_fields(before, edit) == {"body"}
    assert not overwrites(before, edit, MemoryRecord("db-port", "The dev port", "project", "On 6543.", origin="agent"))
    assert overwrites(before, edit, MemoryRecord("db-port", "The database port", "project", "On 7000."))
    assert overwrites(None, edit, MemoryRecord("db-port", "The dev port", "project", "On 6543."))  # it made the memory
    assert not overwrites(None, edit, edit)


def test_a_hand_edit_of_text_no_field_reads_is_still_said_replaced(tmp_path):
    """break45: a hand edit setting ``status: archived`` (no status memdir knows: the field reads as active) was
    silently reset by the next write, the person's text lost without the sentence. Control in the same setup: a
    hand edit of the body, kept by a description write, says nothing."""
    said = []

    async def steps(call, path, person):
        _save(path, BY_HAND)  # the body, by hand
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The dev database port"})))
        said.append(_text(await call("memory_read", {"name": "db-port"})))
        await anyio.sleep(1.1)  # reads are counted in whole seconds
        _save(path, path.read_text(encoding="utf-8").replace("type: project\n", "type: project\nstatus: archived\n"))
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The port of the dev db"})))

    person = _run(tmp_path, steps)
    assert said[0] == "Memory updated: db-port (project)"  # control: the body edit kept whole, nothing said
    assert said[2] == f"Memory updated: db-port (project)\n{_sentence(4, _made(person, 4))}"
    assert "archived" not in (person.session.layer_dir("project") / "db-port.md").read_text(encoding="utf-8")


def test_an_edit_outside_memdir_is_not_said_another_writers_version_whatever_the_second(tmp_path):
    """flaky48: a hand edit keeps the ``updated`` of the version it changed, so when that version (the session's own
    write) fell after the session's first second, the write over the edit was also warned "written by another
    writer … by <the agent>" — under load, 3 runs in 4. The sleep first makes that so every run: the edit is told
    by the kept-edit sentence only. Control in the same setup: another agent's write through memdir while the
    session runs still draws the warning, naming that version."""
    said = []

    async def steps(call, path, person):
        await anyio.sleep(1.1)  # the session's own writes fall after the second it began (as under load)
        _save(path, BY_HAND)
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The dev database port"})))
        said.append(_text(await call("memory_read", {"name": "db-port"})))
        await anyio.sleep(1.1)  # reads are counted in whole seconds
        _save(path, path.read_text(encoding="utf-8").replace("type: project\n", "type: project\nstatus: archived\n"))
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The port of the dev db"})))
        other = Memory.open(person.session.home_path, person.session.root_path, search_vectors="off")  # an agent
        assert other.call_tool("memory_write", {"name": "db-port", "description": "The db port (other agent)"}) \
            == "Memory updated: db-port (project)"
        said.append(_text(await call("memory_write", {"name": "db-port", "description": "The port of the db"})))

    person = _run(tmp_path, steps)
    versions = person.history("db-port").versions
    assert said[0] == "Memory updated: db-port (project)"
    assert said[2] == f"Memory updated: db-port (project)\n{_sentence(4, _made(person, 4))}"
    assert "another writer" not in said[2]
    assert said[3] == (  # control: another agent's version, written while the session ran, is warned of
        "Memory updated: db-port (project)\nwarning: 'db-port' was written by another writer while this session ran: "
        f"this write replaced version 6, written at {versions[5].ts[:19]}Z by agent, which this session had not read "
        "(it is kept in the memory's history)")
