"""A description an importer draws from the text it imports (an MCP entity's first observation, a note's
first line, a claude-mem narrative or directive) is a short line; the body holds that text once. A name
that is no text (``"name": null``) is a per-item skip with its reason, never a memory named ``none``."""

from __future__ import annotations

import json
import sqlite3

import pytest

from memdir import Memory
from memdir.errors import NotFound
from memdir.importing.claude_mem import _list
from memdir.importing.mcp_memory import read_mcp_memory
from memdir.importing.sources import drawn_description
from tests.conftest import run_cli
from tests.importing.claude_mem_db import build

SECOND = "IMPORTANT second fact: rotate keys monthly"
LONG = ("The deploy runbook says to drain each node before the rolling restart and to check the error budget "
        "first, then page the owner when the budget is under ten percent for the week")  # 177 characters


def write_graph(path, *records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_a_150000_character_observation_is_stored_once_and_the_later_ones_kept(tmp_path, project, person):
    """before: the first observation was stored twice (as the carried description, then in the list), the
    file went over the 256 KiB ceiling and the second observation was cut away."""
    graph = tmp_path / "m3.json"
    huge = "y" * 150_000
    write_graph(graph, {"type": "entity", "name": "runbook", "entityType": "doc", "observations": [huge, SECOND]})
    report = person.import_from("mcp-memory", str(graph))
    (outcome,) = report.outcomes
    assert (outcome.result, outcome.kept, outcome.cut) == ("imported", "whole", "")
    record = person.read("runbook", count=False).record
    assert record.body == f"- {huge}\n- {SECOND}"  # each observation once, the later one kept
    assert record.body.count("y" * 1000) == 150
    assert record.description == "runbook (doc): " + "y" * 144 + "…"  # 160 characters, marked as cut
    assert len(record.description) == 160


def test_an_observation_over_160_characters_is_not_duplicated_in_the_body(tmp_path, project, person):
    graph = tmp_path / "memory.json"
    write_graph(graph, {"type": "entity", "name": "deploys", "entityType": "process", "observations": [LONG, "short"]},
                {"type": "entity", "name": "cache", "entityType": "service", "observations": ["Redis 7 on 6380"]})
    report = person.import_from("mcp-memory", str(graph))
    assert [(o.result, o.name) for o in report.outcomes] == [("imported", "deploys"), ("imported", "cache")]
    deploys = person.read("deploys", count=False).record
    assert deploys.body == f"- {LONG}\n- short"
    assert deploys.body.count("drain each node") == 1
    # cut at a word, marked
    assert deploys.description == ("deploys (process): The deploy runbook says to drain each node before the rolling "
                                   "restart and to check the error budget first, then page the owner when the…")
    # control: a short observation is the description whole, unmarked
    assert person.read("cache", count=False).record.description == "cache (service): Redis 7 on 6380"


def test_a_null_or_non_text_entity_name_is_skipped_with_its_reason(tmp_path, project, person):
    """before: ``"name": null`` imported a memory named ``none`` described "None (thing)"."""
    graph = tmp_path / "memory.json"
    write_graph(graph, {"type": "entity", "name": None, "entityType": "doc", "observations": ["lost?"]},
                {"type": "entity", "name": 42, "observations": ["a number"]},
                {"type": "entity", "name": "kept", "entityType": None, "observations": [None, 7, "text"]},
                {"type": "relation", "from": None, "to": "kept", "relationType": "uses"})
    report = person.import_from("mcp-memory", str(graph))
    said = {(o.source, o.result, o.detail) for o in report.outcomes}
    assert ("line 1", "skipped", "an entity whose name is null or missing: it needs a name (text)") in said
    assert ("line 2", "skipped", "an entity whose name is a number: it needs a name (text)") in said
    assert ("line 4", "skipped", "a relation whose from and to are not both names (text)") in said
    assert [o.name for o in report.outcomes if o.result == "imported"] == ["kept"]  # control: the good one
    kept = person.read("kept", count=False).record
    assert (kept.description, kept.body) == ("kept (thing): 7", "- 7\n- text")  # null said nothing: left out
    with pytest.raises(NotFound):
        person.read("none", count=False)


def test_the_reader_marks_what_it_draws_and_the_cli_reports_it(tmp_path, project):
    graph = tmp_path / "memory.json"
    write_graph(graph, {"type": "entity", "name": "runbook", "entityType": "doc",
                        "observations": ["y" * 150_000, SECOND]})
    (item,) = read_mcp_memory(graph)
    assert item.drawn and item.description.startswith("runbook (doc): yyy")  # whole: the import shortens it
    done = run_cli("--project", project, "import", "mcp-memory", graph)
    assert done.returncode == 0 and "kept whole: 1, cut: 0" in done.stdout, done.stdout
    assert "body cut" not in done.stdout  # control above: the count of whole items is 1
    shown = run_cli("--project", project, "read", "runbook")
    assert SECOND in shown.stdout and shown.stdout.count("y" * 1000) == 150


def test_drawn_description_cuts_at_a_sentence_or_word_and_keeps_a_short_line():
    assert drawn_description("Short line.\nsecond line", 160) == "Short line."
    assert drawn_description("word " * 50, 20) == "word word word word…"
    assert drawn_description("First sentence ends here. And then a great deal more text follows", 40) == \
        "First sentence ends here."
    assert drawn_description("字" * 50, 10) == "字" * 9 + "…"


def test_a_markdown_file_without_a_description_draws_a_short_one_from_its_first_line(tmp_path, project, person):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "deploys.md").write_text(LONG + "\n\nMore.\n")
    (notes / "given.md").write_text(f"---\ndescription: {LONG}\n---\nBody.\n")
    report = person.import_from("dir", str(notes))
    assert {o.name: o.result for o in report.outcomes} == {"deploys": "imported", "given": "imported"}
    drawn = person.read("deploys", count=False).record
    assert drawn.body == LONG + "\n\nMore." and drawn.body.count("drain each node") == 1
    assert drawn.description.endswith("…") and len(drawn.description) <= 160
    # control: a description a person wrote is theirs: kept whole, its long text carried into the body once
    given = person.read("given", count=False).record
    assert given.body == LONG + "\n\nBody." and given.description.endswith("…")


def test_a_multiline_description_written_in_frontmatter_is_kept_whole(tmp_path, project, person):
    """before: the forgiving pass kept only its first line."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "folded.md").write_text("---\ntype: decision\ndescription: |\n  First part.\n  Second part.\n---\nBody.\n")
    person.import_from("dir", str(notes))
    assert person.read("folded", count=False).record.description == "First part. Second part."


def test_claude_mem_drawn_descriptions_are_short_and_null_list_items_are_left_out(tmp_path, project, person):
    db = tmp_path / "claude-mem.db"
    build(db, project.name, observations=6, other=0, summaries=0)
    connection = sqlite3.connect(db)
    connection.execute("UPDATE directives SET content = ? WHERE id = (SELECT min(id) FROM directives "
                       "WHERE status = 'active')", (LONG + "\nSecond line.",))
    connection.commit()
    connection.close()
    report = person.import_from("claude-mem", str(db))
    named = {o.source: o.name for o in report.outcomes if o.result == "imported"}
    directive = next(name for source, name in named.items() if source.startswith("directive"))
    record = person.read(directive, count=False, scope="user").record
    assert record.body == LONG + "\nSecond line." and record.body.count("drain each node") == 1
    assert record.description.endswith("…") and len(record.description) <= 160
    assert _list('["a", null, 3, {"k": 1}, ""]') == ["a", "3", '{"k": 1}']  # never "None", never repr
    assert _list("null") == [] and _list('"one"') == ["one"] and _list("plain text") == ["plain text"]


def test_a_body_over_the_ceiling_says_what_it_left_out(tmp_path, isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human", max_file_bytes=16 * 1024)
    graph = tmp_path / "memory.json"
    write_graph(graph, {"type": "entity", "name": "big", "entityType": "doc",
                        "observations": ["z" * 17_000, "the last fact"]},
                {"type": "entity", "name": "small", "entityType": "doc", "observations": ["fits"]})
    big, small = person.import_from("mcp-memory", str(graph)).outcomes
    assert (big.kept, small.kept, small.cut) == ("cut", "whole", "")
    assert big.cut.startswith("body cut from 17018 to ")
    assert big.cut.endswith("left out: 2 line(s) from '" + "z" * 79 + "…'")
