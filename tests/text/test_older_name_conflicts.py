"""A store an older memdir wrote holds memories under file names that today are other names: ``배포-v2`` as
``v2.md`` (its Latin part alone), ``Łódź-notes`` as ``odz-notes.md`` (``ł`` dropped). A write of the name that
file name is today (``v2``, ``odz-notes``) is another memory in a fresh store, so in the older store it is refused
— on the API, the CLI and the MCP SDK's client — and the older memory's text stays; a write under its title (or
one that read it: an edit) updates it. A name two memories of a layer answer to (two older hashes, or an older
one and today's) is refused on read, write and delete, listing them; each is reached by its file name. A name of
combining marks alone is an empty name. Real files, real subprocesses."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from memdir import BodyEdit, Memory
from memdir.errors import Conflict, InvalidInput, InvalidName
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.text.names import normalize_name, older_file_name

from ..conftest import run_cli

V2_REFUSED = ("'v2' is the file name an older memdir gave the memory '배포-v2' (v2); today 'v2' and '배포-v2' are two "
              "names, so nothing was written. To update that memory, write it under its title '배포-v2'; for a new "
              "memory, choose a distinct name such as 'v2-2'")
ODZ_REFUSED = ("'odz-notes' is the file name an older memdir gave the memory 'Łódź-notes' (odz-notes); today "
               "'odz-notes' and 'Łódź-notes' are two names, so nothing was written. To update that memory, write it "
               "under its title 'Łódź-notes'; for a new memory, choose a distinct name such as 'odz-notes-2'")


def _older_file(mem: Memory, name: str, title: str, body: str) -> bytes:
    """A memory file as an older memdir wrote ``title``: under the file name ``name``. Returns its bytes."""
    layer = mem.session.layer_dir("project")
    layer.mkdir(parents=True, exist_ok=True)
    path = layer / f"{name}.md"
    path.write_text(
        f"---\nname: {name}\ntitle: {title}\ndescription: notes of {title}\ntype: project\n"
        "created: 2026-11-02T10:00:00Z\nupdated: 2026-11-02T10:00:00Z\norigin: agent\nstatus: active\n---\n\n"
        f"{body}\n", encoding="utf-8")
    return path.read_bytes()


def _file(mem: Memory, name: str) -> bytes:
    return (mem.session.layer_dir("project") / f"{name}.md").read_bytes()


def _names(mem: Memory) -> list[tuple[str, str | None]]:
    return sorted((m.name, m.title) for m in mem.list(include_all=True).memories)


def test_a_file_name_an_older_memdir_gave_a_title_that_is_another_name_today_is_not_that_title():
    assert older_file_name("v2", "v2", "배포-v2") and older_file_name("V2", "v2", "배포-v2")
    assert older_file_name("odz-notes", "odz-notes", "Łódź-notes")
    assert not older_file_name("배포 V2", "v2", "배포-v2")  # control: the title, spelled otherwise
    assert not older_file_name("Lodz-notes", "odz-notes", "Łódź-notes")  # control: the title without accents
    assert not older_file_name("m-664a715272", "m-664a715272", "Заметки-Проекта")  # a hash: the file's address
    assert not older_file_name("c-tips", "c-tips", "C# tips")  # control: the title names this file today
    assert not older_file_name("db-port", "db-port", "Database port")  # control: a title a person gave
    assert not older_file_name("v2", "v2", None)


def test_a_name_of_combining_marks_alone_is_an_empty_name():
    for raw in ("\u0301\u0301", " \u0301 ", "\u3099", ""):
        with pytest.raises(InvalidName) as empty:
            normalize_name(raw)
        assert str(empty.value) == "memory name is empty", repr(raw)
    assert normalize_name("a\u0301").name == "a" and normalize_name("\u0301a").name == "a"  # control: a letter too
    assert normalize_name("-\u0301").title == "-\u0301"  # control: a dash with its accent is drawn


@pytest.mark.slow
def test_the_api_refuses_the_latin_part_over_an_older_memory_and_its_title_updates_it(person, isolated_home, tmp_path):
    (tmp_path / "fresh" / ".git").mkdir(parents=True)
    store = Memory.open(home=isolated_home, project=tmp_path / "fresh", actor="human")  # control: a fresh store
    fresh = store.write("배포-v2", "Korean deploy steps", "project", "Blue green via argo.")
    apart = store.write("v2", "API v2 launch date", "project", "API v2 launches on 2027-01-15.")
    assert [(fresh.name, fresh.operation), (apart.name, apart.operation)] == [
        ("m-d004be3b17", "created"), ("v2", "created")]
    assert _names(store) == [("m-d004be3b17", "배포-v2"), ("v2", None)]  # two memories
    v2 = _older_file(person, "v2", "배포-v2", "Blue green via argo.")
    odz = _older_file(person, "odz-notes", "Łódź-notes", "The Łódź office opens at 8.")
    for written, refused in (("v2", V2_REFUSED), ("V2", V2_REFUSED.replace("'v2' is", "'V2' is").replace(
            "today 'v2'", "today 'V2'")), ("odz-notes", ODZ_REFUSED)):
        with pytest.raises(Conflict) as conflict:
            person.write(written, "another memory", "project", "Its own text.")
        assert str(conflict.value) == refused, written
    assert (_file(person, "v2"), _file(person, "odz-notes")) == (v2, odz)  # nothing written
    assert person.read("배포-v2").record.body == "Blue green via argo."
    updated = person.write("배포 V2", "Korean deploy steps", "project", "Blue green via argo, then canary.")
    assert (updated.name, updated.operation) == ("v2", "updated")  # under its title: that memory
    lodz = person.write("Lodz-notes", "Łódź office notes", "project", "The Łódź office opens at 9.")
    assert (lodz.name, lodz.operation) == ("odz-notes", "updated")
    edited = person.edit("v2", BodyEdit(old="canary", new="a canary"))  # read first (its digest): that memory
    assert (edited.name, edited.operation) == ("v2", "updated")
    titled = person.write("v2", None, "project", "Blue green, a canary, then all.", title="배포-v2")
    assert (titled.name, titled.operation) == ("v2", "updated")  # its title given: that memory
    assert person.read("배포-v2").record.body == "Blue green, a canary, then all."
    assert person.read("Łódź-notes").record.body == "The Łódź office opens at 9."
    assert _names(person) == [("odz-notes", "Łódź-notes"), ("v2", "배포-v2")]  # two, none made beside them


@pytest.mark.slow
def test_the_cli_refuses_the_latin_part_over_an_older_memory_and_writes_it_by_its_title(person, project):
    v2 = _older_file(person, "v2", "배포-v2", "Blue green via argo.")
    refused = run_cli("--project", project, "write", "v2", "-d", "API v2 launch date", "-t", "project",
                      "--body", "API v2 launches on 2027-01-15.")
    assert refused.returncode != 0 and V2_REFUSED in refused.stderr and refused.stdout == ""
    assert _file(person, "v2") == v2
    done = run_cli("--project", project, "write", "배포-v2", "-d", "Korean deploy steps", "-t", "project",
                   "--body", "Blue green, then canary.")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "Memory updated: v2 (project)"  # control
    read = run_cli("--project", project, "read", "배포-v2")
    assert read.returncode == 0 and "Blue green, then canary." in read.stdout
    assert _names(person) == [("v2", "배포-v2")]


@pytest.mark.slow
def test_the_mcp_write_refuses_the_latin_part_over_an_older_memory_and_writes_it_by_its_title(
        person, isolated_home, project):
    odz = _older_file(person, "odz-notes", "Łódź-notes", "The Łódź office opens at 8.")
    state = MemoryServer(home=isolated_home, project=project)
    seen: dict[str, tuple[bool, str]] = {}

    async def main():
        async with Client(build_server(state)) as client:
            for key, tool, args in (
                    ("other", "memory_write", {"name": "odz-notes", "description": "ODZ notes", "type": "project",
                                               "body": "ODZ zones are provisioned by terraform."}),
                    ("read", "memory_read", {"name": "Łódź-notes"}),
                    ("title", "memory_write", {"name": "Łódź-notes", "description": "Łódź office notes",
                                               "type": "project", "body": "The Łódź office opens at 9."})):
                result = await client.call_tool(tool, args)
                seen[key] = (bool(result.is_error), "".join(c.text for c in result.content))

    anyio.run(main)
    assert seen["other"][0] is True and ODZ_REFUSED in seen["other"][1]
    assert seen["read"][0] is False and "The Łódź office opens at 8." in seen["read"][1]
    assert seen["title"][0] is False and seen["title"][1].startswith("Memory updated: odz-notes")  # control
    assert _file(person, "odz-notes") != odz and "opens at 9." in _file(person, "odz-notes").decode()
    assert _names(person) == [("odz-notes", "Łódź-notes")]


NOTES_OLDER, UPPER_OLDER = "m-664a715272", "m-1a8a1939a2"  # Заметки-Проекта, ЗАМЕТКИ-ПРОЕКТА hashed as written
TWO = ("'заметки проекта' is the name of 2 memories of this layer (stored apart by an older memdir or another "
       "machine): 'ЗАМЕТКИ-ПРОЕКТА' (m-1a8a1939a2), 'Заметки-Проекта' (m-664a715272); nothing was done: say which "
       "by its file name (read, write or delete 'm-1a8a1939a2' for the first)")


@pytest.mark.slow
def test_a_name_two_older_memories_answer_to_is_refused_and_each_is_reached_by_its_file_name(person):
    _older_file(person, NOTES_OLDER, "Заметки-Проекта", "Kafka retention is 7 days.")
    _older_file(person, UPPER_OLDER, "ЗАМЕТКИ-ПРОЕКТА", "Redis eviction is LRU.")
    for verb, call in (("read", lambda: person.read("заметки проекта")),
                       ("write", lambda: person.write("заметки проекта", "notes", "project", "A third text.")),
                       ("delete", lambda: person.delete("заметки проекта"))):
        with pytest.raises(InvalidInput) as refused:
            call()
        assert str(refused.value) == TWO, verb
    assert _names(person) == [(UPPER_OLDER, "ЗАМЕТКИ-ПРОЕКТА"), (NOTES_OLDER, "Заметки-Проекта")]  # no third
    assert person.read(UPPER_OLDER).record.body == "Redis eviction is LRU."  # control: by its file name
    assert person.read("ЗАМЕТКИ-ПРОЕКТА").record.name == UPPER_OLDER  # control: spelled exactly as one is
    updated = person.write(NOTES_OLDER, "notes", "project", "Kafka retention is 3 days.")
    assert (updated.name, updated.operation) == (NOTES_OLDER, "updated")
    assert person.delete(UPPER_OLDER).name == UPPER_OLDER
    assert person.read("заметки проекта").record.body == "Kafka retention is 3 days."  # one left: it answers


@pytest.mark.slow
def test_a_name_under_todays_hash_and_an_older_one_is_refused_until_one_is_named_by_its_file(person):
    _older_file(person, NOTES_OLDER, "Заметки-Проекта", "Kafka retention is 7 days.")
    _older_file(person, "m-7fc07a4770", "Заметки-Проекта", "Kafka retention is 3 days.")  # another machine's
    both = ("'Заметки-Проекта' is the name of 2 memories of this layer (stored apart by an older memdir or another "
            "machine): 'Заметки-Проекта' (m-664a715272), 'Заметки-Проекта' (m-7fc07a4770); nothing was done: say "
            "which by its file name (read, write or delete 'm-664a715272' for the first)")
    for call in (lambda: person.read("Заметки-Проекта"), lambda: person.delete("Заметки-Проекта"),
                 lambda: person.write("Заметки-Проекта", "notes", "project", "Kafka retention is 5 days.")):
        with pytest.raises(InvalidInput) as refused:
            call()
        assert str(refused.value) == both
    assert [person.read(n).record.body for n in ("m-7fc07a4770", NOTES_OLDER)] == [
        "Kafka retention is 3 days.", "Kafka retention is 7 days."]  # control: each by its file name, both kept
    assert person.delete("m-7fc07a4770").name == "m-7fc07a4770"
    assert person.read("Заметки-Проекта").record.name == NOTES_OLDER  # the one left answers
