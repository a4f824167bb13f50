"""An MCP memory-graph entity's observations that say nothing — null, blank, or only characters that show as
nothing — are left out of its body (never an empty bullet ``- ``) and counted in its outcome with the reason; a
number is its text. An entity with no observation left is imported as one with none (its name and type, its
relations' links), and the outcome says so (left44c)."""

from __future__ import annotations

import json

from memdir.importing.mcp_memory import read_mcp_memory, said_nothing
from tests.conftest import run_cli


def _graph(path, *records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_said_nothing_keeps_numbers_as_text_and_counts_nulls_and_blanks():
    texts, counts = said_nothing([None, 5, "", "   ", "\u200b", 2.5, True, ["a"], "fact", None])
    assert texts == ["5", "2.5", "true", '["a"]', "fact"]
    assert counts == {"null": 2, "blank": 3}
    assert said_nothing(["a", "b"]) == (["a", "b"], {})  # control: nothing left out, no reason


def test_null_and_blank_observations_are_left_out_and_counted_numbers_kept(tmp_path, project, person):
    graph = tmp_path / "memory.json"
    _graph(graph, {"type": "entity", "name": "Nulls", "entityType": "project",
                   "observations": [None, 5, "", "   ", None, "real fact"]},
           {"type": "entity", "name": "Clean", "entityType": "project", "observations": ["one", 2]})
    report = person.import_from("mcp-memory", str(graph))
    nulls, clean = report.outcomes
    assert (nulls.result, nulls.left_out) == ("imported", (
        "2 null and 2 blank observations left out: they say nothing",))
    assert nulls.detail == "2 null and 2 blank observations left out: they say nothing"
    record = person.read("nulls", count=False).record
    assert (record.description, record.body) == ("Nulls (project): 5", "- 5\n- real fact")
    # control: an entity whose observations all say something leaves nothing out and says nothing of it
    assert (clean.result, clean.left_out, clean.detail) == ("imported", (), "")
    assert person.read("clean", count=False).record.body == "- one\n- 2"
    # the counts are the JSON's too
    assert report.to_dict()["outcomes"][0]["left_out"] == [
        "2 null and 2 blank observations left out: they say nothing"]


def test_an_entity_with_only_empty_observations_is_its_name_only_and_keeps_its_links(tmp_path, project, person):
    graph = tmp_path / "memory.json"
    _graph(graph, {"type": "entity", "name": "Empty", "entityType": "service", "observations": [None, " ", ""]},
           {"type": "entity", "name": "Api", "entityType": "service", "observations": ["calls Empty"]},
           {"type": "relation", "from": "Api", "to": "Empty", "relationType": "uses"},
           {"type": "relation", "from": "Empty", "to": "Api", "relationType": "serves"})
    report = person.import_from("mcp-memory", str(graph))
    empty = next(o for o in report.outcomes if o.source == "entity Empty")
    assert empty.result == "imported"
    assert empty.left_out == ("1 null and 2 blank observations left out: they say nothing",
                              "no observation left: imported with its name and type only")
    record = person.read("empty", count=False).record
    assert (record.description, record.body) == ("Empty (service)", "- serves [[api]]")  # no "- " line
    assert "- uses [[empty]]" in person.read("api", count=False).record.body  # its link still finds it


def test_observations_of_one_entity_written_twice_are_counted_together(tmp_path):
    graph = tmp_path / "memory.json"
    _graph(graph, {"type": "entity", "name": "Twice", "entityType": "x", "observations": [None, "a"]},
           {"type": "entity", "name": "Twice", "entityType": "x", "observations": ["", None]})
    (item,) = read_mcp_memory(graph)
    assert item.body == "- a"
    assert item.left_out == ("2 null and 1 blank observations left out: they say nothing",)


def test_the_cli_report_says_what_was_left_out(tmp_path, project):
    graph = tmp_path / "memory.json"
    _graph(graph, {"type": "entity", "name": "Nulls", "entityType": "project", "observations": [None, 5, " "]},
           {"type": "entity", "name": "Fine", "entityType": "project", "observations": ["ok"]})
    done = run_cli("--project", project, "import", "mcp-memory", graph)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert ("  imported         nulls (project)  ← entity Nulls  — 1 null and 1 blank observations left out: "
            "they say nothing") in lines
    assert "  imported         fine (project)  ← entity Fine" in lines  # control: nothing said of a whole one


def test_a_claude_mem_observation_s_null_and_blank_facts_are_counted_as_left_out(tmp_path, project, person):
    """The same kind in claude-mem's facts column: left out (they were, silently), now counted with the reason."""
    import sqlite3

    from tests.importing.claude_mem_db import build

    db = tmp_path / "claude-mem.db"
    build(db, project.name, observations=2, other=0, summaries=0)
    connection = sqlite3.connect(db)
    ids = [row[0] for row in connection.execute("SELECT id FROM observations WHERE type IN ('decision', 'discovery') "
                                                 "ORDER BY id")]
    connection.execute("UPDATE observations SET facts = ? WHERE id = ?", ('["kept fact", null, "  ", 42]', ids[0]))
    connection.execute("UPDATE observations SET facts = ? WHERE id = ?", ('["one", "two"]', ids[1]))
    connection.commit()
    connection.close()
    report = person.import_from("claude-mem", str(db))
    first, second = (next(o for o in report.outcomes if o.source.startswith(f"observation {i} ")) for i in ids)
    assert first.left_out == ("1 null and 1 blank facts left out: they say nothing",)
    assert "Facts:\n- kept fact\n- 42" in person.read(first.name, count=False).record.body
    assert (second.left_out, second.result) == ((), "imported")  # control: every fact says something
