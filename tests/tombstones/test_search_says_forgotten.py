"""A search whose words a forgotten memory holds says that a tombstone matches (newuser46).

After ``memdir forget lunch``, ``memdir search lunch`` printed only "No memories match 'lunch'.", as though nothing
had been said of lunch. Now the CLI, the ``memory_search`` tool and :meth:`memdir.Memory.search` (its page's
``forgotten``) say the tombstone's id and how a person sees it (``memdir tombstones``) and lifts it, and never the
forgotten text. Controls: a search for a live memory beside it says no tombstone; a word of neither says none."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

FORGOTTEN = "Team lunch is on Fridays"


@pytest.fixture
def forgotten(person, project):
    person.write("lunch", FORGOTTEN, "project", "At the Thai place.")
    person.write("standup", "Standup at 9:30 in room B", "project")
    person.forget("lunch")
    [stone] = person.tombstones().tombstones
    return stone.id


def test_the_cli_says_the_tombstone_and_how_to_see_and_lift_it(forgotten, project):
    done = run_cli("--project", project, "search", "lunch")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "No memories match 'lunch'."
    assert done.stdout.splitlines()[-1] == (
        f"(1 forgotten memory matches 'lunch', tombstone {forgotten}: a search never shows it; `memdir tombstones` "
        f"does, and only a person lifts it (`memdir tombstone lift {forgotten} --scope project`) so it can be saved "
        "again)")
    assert "Fridays" not in done.stdout and "Thai" not in done.stdout  # the forgotten text is not shown
    listed = run_cli("--project", project, "tombstones")
    assert forgotten in listed.stdout and FORGOTTEN in listed.stdout  # where a person sees it, as the hint says
    data = json.loads(run_cli("--project", project, "search", "team lunch", "--json").stdout)
    lift = f"memdir tombstone lift {forgotten} --scope project"  # ux49: --json gives the command the text quotes
    assert (data["results"], data["forgotten"]) == ([], [{"id": forgotten, "scope": "project", "lift": lift}])
    other = run_cli("--project", project, "search", "standup")
    assert "standup" in other.stdout and "forgotten" not in other.stdout  # control: a live memory, no tombstone
    assert json.loads(run_cli("--project", project, "search", "standup", "--json").stdout)["forgotten"] == []


def test_the_tool_and_the_api_say_it_too(forgotten, mem, person):
    said = mem.call_tool("memory_search", {"query": "lunch"})
    assert said.startswith("No memories match 'lunch'.") and f"tombstone {forgotten}" in said
    assert "`memdir tombstones`" in said and "Fridays" not in said
    page = mem.search("lunch")
    assert (list(page), page.forgotten) == ([], [{"id": forgotten, "scope": "project",
                                                  "lift": f"memdir tombstone lift {forgotten} --scope project"}])
    live = mem.search("room")
    assert [hit.name for hit in live] == ["standup"] and live.forgotten == []  # control: a live hit, no tombstone
    assert mem.search("lunch", offset=5).forgotten == []  # a later page does not say it again
    assert "tombstone" not in mem.call_tool("memory_search", {"query": "standup"})  # control
    assert mem.search("dinner").forgotten == []  # a word the tombstone does not hold


def test_a_search_s_word_forms_find_the_tombstone_as_they_found_the_memory(person, mem):
    """try48: after forgetting "Dev PostgreSQL listens on 5433", the searches that had found it ("postgres port",
    "listen 5433") said no tombstone: the hint compared words as written. It reads them as search does (stems,
    compounds) too. Controls: the memory was found by those searches before; a word the tombstone lacks names none."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    person.write("standup", "Standup at 9:30 in room B", "project")
    assert [hit.name for hit in mem.search("postgres port")][:1] == ["db-port"]  # control: found while it lived
    person.forget("db-port")
    [stone] = [s for s in person.tombstones().tombstones if s.name == "db-port"]
    for asked in ("postgres port", "listen 5433", "listens 5433", "the postgresql port"):
        assert mem.search(asked).forgotten == [{"id": stone.id, "scope": "project",
                                                "lift": f"memdir tombstone lift {stone.id} --scope project"}], asked
    assert mem.search("postgres room").forgotten == []  # "room" is not the tombstone's: none
    assert mem.search("standup").forgotten == []  # control: a live memory, no tombstone


def test_a_tombstone_written_or_lifted_after_a_search_is_said_as_it_stands(person, mem):
    """A search reads each tombstone's words once per process (:func:`memdir.tombstones.asked.matching`), not on
    every search: a tombstone written after those readings were made is said by the next search, through the API
    and the tool, with its own layer's scope; one lifted since is not. Controls: the tombstone read before is still
    said beside the new one; a word of no tombstone names none; a live memory is found, no tombstone said."""
    person.write("lunch", FORGOTTEN, "project", "At the Thai place.")
    person.write("standup", "Standup at 9:30 in room B", "project")
    person.forget("lunch")
    [lunch] = [s.id for s in person.tombstones().tombstones if s.name == "lunch"]
    assert mem.search("fridays").forgotten == [{"id": lunch, "scope": "project", "lift": f"memdir tombstone lift {lunch} --scope project"}]  # its readings made here
    person.write("dinner", "Team dinner is on Fridays", "user", "At the pizza place.", scope="user")
    person.forget("dinner", scope="user")
    [dinner] = [s.id for s in person.tombstones().tombstones if s.name == "dinner"]
    assert sorted(f["id"] for f in mem.search("fridays").forgotten) == sorted([lunch, dinner])
    assert {"id": dinner, "scope": "user", "lift": f"memdir tombstone lift {dinner} --scope user"} in mem.search("fridays").forgotten
    assert mem.search("dinner").forgotten == [{"id": dinner, "scope": "user", "lift": f"memdir tombstone lift {dinner} --scope user"}]
    said = mem.call_tool("memory_search", {"query": "team dinner"})
    assert f"tombstone {dinner}" in said and lunch not in said and "pizza" not in said
    assert mem.search("breakfast").forgotten == []  # control: a word of no tombstone names none
    live = mem.search("standup")
    assert [hit.name for hit in live] == ["standup"] and live.forgotten == []  # control: a live hit, no tombstone
    person.lift_tombstone(lunch, scope="project")
    assert mem.search("fridays").forgotten == [{"id": dinner, "scope": "user", "lift": f"memdir tombstone lift {dinner} --scope user"}]  # lifted: no longer said
    assert mem.search("lunch").forgotten == []
