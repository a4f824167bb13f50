"""``memdir history NAME`` read from a journal whose line holding that memory's create was cut or garbled
says the line is damaged, naming it (layer.history.damage), instead of presenting a history that starts at
its update as if that were all (break22: a create line cut by hand gave "1 version(s) of db-port: v1 …
update", a create line whose name was edited the same, and `history` of a memory whose only line was cut
answered "no history", as of a memory never written)."""

from __future__ import annotations

import anyio
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli

CUT = ("! damaged: line 1 of the journal is no event (cut or garbled): a version of db-port recorded there "
       "may be missing from this history or shown wrong (`memdir verify` checks the journal)")
CHANGED = ("! damaged: line 1 of the journal was changed after it was written, or a line after it removed: "
           "a version of db-port recorded there may be missing from this history or shown wrong")


def _store(person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "moved")
    person.write("other-x", "Another memory here", "project", "y")
    person.write("db-port", "Dev PostgreSQL listens on 5434", "project")
    return person.session.layer("project").meta / "journal.jsonl"


def _damage(journal, data: bytes) -> None:
    """Write ``data`` as the journal, its anchor gone (a shortening is not what these tests ask about)."""
    (journal.parent / "journal.anchor").unlink(missing_ok=True)
    journal.write_bytes(data)


def _history(project, name):
    out = run_cli("--project", project, "history", name)
    return out.returncode, out.stdout + out.stderr


def test_a_cut_create_line_is_named_and_a_sound_journal_says_nothing(person, project):
    journal = _store(person)
    code, sound = _history(project, "db-port")
    assert code == 0 and sound.startswith("2 version(s) of db-port (project):") and "damaged" not in sound  # control
    lines = journal.read_bytes().split(b"\n")
    _damage(journal, b"\n".join([lines[0][:60], *lines[1:]]))
    code, out = _history(project, "db-port")
    assert code == 0 and out.startswith("1 version(s) of db-port (project):")
    assert out.rstrip().endswith(CUT)
    # Another memory's line is whole and its own history has it: the damaged line is named there too, for
    # no name can be read from it (it may have been its).
    code, other = _history(project, "other-x")
    assert other.startswith("1 version(s) of other-x (project):") and "a version of other-x recorded there" in other


def test_a_create_line_whose_name_was_changed_is_named(person, project):
    journal = _store(person)
    data = journal.read_bytes()
    _damage(journal, data.replace(b'"action":"create","name":"db-port"', b'"action":"create","name":"db-pxrt"', 1))
    code, out = _history(project, "db-port")
    assert code == 0 and out.startswith("1 version(s) of db-port (project):\nv1  ")
    assert CHANGED in out


def test_a_deleted_memory_whose_lines_were_cut_is_not_said_never_to_have_existed(person, project):
    journal = _store(person)
    person.delete("other-x")
    lines = journal.read_bytes().split(b"\n")
    assert b'"name":"other-x"' in lines[1][:100] and b'"name":"other-x"' in lines[3][:100]
    code, out = _history(project, "other-x")
    assert code == 0 and out.startswith("2 version(s) of other-x (project):") and "damaged" not in out  # control
    _damage(journal, b"\n".join([lines[0], lines[1][:100], lines[2], lines[3][:100], *lines[4:]]))
    code, out = _history(project, "other-x")
    assert code == 1 and out.startswith(
        'memdir: no history for "other-x"; project layer: line 2 of the journal is no event (cut or garbled): '
        "a version of other-x recorded there may be missing from this history or shown wrong (`memdir verify` "
        "checks the journal); project layer: line 4 of the journal is no event")
    # Cut lines still naming other-x are not db-port's: db-port's history is whole and says nothing.
    code, out = _history(project, "db-port")
    assert out.startswith("2 version(s) of db-port (project):") and "damaged" not in out


def test_the_agent_s_memory_history_says_so_too(person, isolated_home, project):
    journal = _store(person)
    lines = journal.read_bytes().split(b"\n")
    _damage(journal, b"\n".join([lines[0][:60], *lines[1:]]))
    assert person.history("db-port").damaged == (CUT.removeprefix("! damaged: "),)

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            return (await client.call_tool("memory_history", {"name": "db-port"})).content[0].text

    assert CUT in anyio.run(main)
