"""An imported item's type follows the rule of every write (import42): an item that says no type gets its
layer's (:func:`memdir.vocabulary.default_type`: ``user`` in the user layer, else ``project``), as the CLI's
and the MCP tools' ``write`` give it. Before, ``memdir import`` made a typeless JSONL line, an MCP graph's
entity and a Markdown file naming no type ``reference`` in every layer, and a type none of memdir's became
``reference`` with no word of it in the report. Now such a type is kept as ``original_type``, the item gets
its layer's type, and the report says which items and what they became (text and ``--json``)."""

from __future__ import annotations

import json

from tests.conftest import run_cli

LINES = [
    {"name": "no-type", "description": "Deploys go out on Tuesdays"},
    {"name": "odd-type", "description": "We chose Postgres over MySQL", "type": "decision"},
    {"name": "fb-type", "description": "Answer in short sentences", "type": "feedback"},  # control: memdir's own
]


def jsonl(tmp_path, lines=LINES):
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def types(mem) -> dict:
    return {(m.name, m.scope): m.type for m in mem.list().memories}


def test_a_typeless_line_gets_its_layers_type_as_a_write_does(tmp_path, person):
    path = jsonl(tmp_path)
    person.import_from("jsonl", str(path))  # no scope: the project layer
    person.import_from("jsonl", str(path), scope="user")
    person.write("written-here", "A write without a type", scope="user")  # the rule the import must follow
    person.write("written-there", "A write without a type", scope="project")
    assert types(person) == {
        ("no-type", "project"): "project", ("no-type", "user"): "user",
        ("odd-type", "project"): "project", ("odd-type", "user"): "user",
        ("fb-type", "project"): "feedback", ("fb-type", "user"): "feedback",  # a type of memdir's is kept
        ("written-here", "user"): "user", ("written-there", "project"): "project"}
    assert dict(person.read("odd-type", scope="user").record.extra)["original_type"] == "decision"
    assert "original_type" not in dict(person.read("no-type", scope="user").record.extra)  # none was written


def test_an_unknown_type_is_said_in_the_report_text_and_json(tmp_path, project):
    path = jsonl(tmp_path)
    done = run_cli("import", "jsonl", path, "--scope", "user", "--json", "--project", project)
    assert done.returncode == 0, done.stderr
    got = {o["source"]: o for o in json.loads(done.stdout)["outcomes"]}
    assert (got["line 2"]["type"], got["line 2"]["original_type"]) == ("user", "decision")
    assert got["line 2"]["detail"] == ("type 'decision' is not one of user, feedback, project, reference: imported "
                                       "as user, the layer's type (the original kept as original_type)")
    assert (got["line 1"]["type"], got["line 1"]["original_type"], got["line 1"]["detail"]) == ("user", None, "")
    assert (got["line 3"]["type"], got["line 3"]["original_type"]) == ("feedback", None)  # control
    text = run_cli("import", "jsonl", path, "--dry-run", "--project", project).stdout  # the project layer
    assert ("Type not one of user, feedback, project, reference (kept as original_type): 'decision' → project "
            "(1 item).") in text
    assert "would-import     odd-type (project)  ← line 2  — type 'decision' is not one of" in text
    plain = tmp_path / "plain.jsonl"  # control: no unknown type, no such line
    plain.write_text(json.dumps(LINES[2]) + "\n", encoding="utf-8")
    text = run_cli("import", "jsonl", plain, "--dry-run", "--project", project).stdout
    assert "would be: 1 imported" in text and "Type not one of" not in text


def test_every_reader_leaves_the_type_to_the_layer(tmp_path, person):
    """The MCP graph's entities (their entityType is none of memdir's types: kept as entity_type), a Markdown
    folder's file that names no type, a basic-memory note (``type: note``): each the layer's type."""
    graph = tmp_path / "memory.json"
    graph.write_text(json.dumps({"type": "entity", "name": "Alice", "entityType": "person",
                                 "observations": ["Leads the platform team"]}) + "\n", encoding="utf-8")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "plain.md").write_text("# Plain\n\nNo type anywhere.\n", encoding="utf-8")
    (folder / "feedback_style.md").write_text("# Style\n\nShort answers.\n", encoding="utf-8")  # its name's type
    (folder / "typed.md").write_text("---\ndescription: Typed\ntype: reference\n---\nB.\n", encoding="utf-8")
    notes = tmp_path / "bm"
    notes.mkdir()
    (notes / "coffee.md").write_text("---\ntitle: Coffee\ntype: note\npermalink: coffee\n---\n"
                                     "- [method] Pour over is best #brewing\n", encoding="utf-8")
    person.import_from("mcp-memory", str(graph), scope="user")
    person.import_from("dir", str(folder))
    report = person.import_from("basic-memory", str(notes))
    assert types(person) == {("alice", "user"): "user", ("plain", "project"): "project",
                             ("feedback-style", "project"): "feedback", ("typed", "project"): "reference",
                             ("coffee", "project"): "project"}
    assert dict(person.read("alice", scope="user").record.extra)["entity_type"] == "person"
    assert [(o.type, o.original_type) for o in report.outcomes] == [("project", "note")]
    assert report.retyped() == {("note", "project"): 1}


def test_a_source_that_names_the_layer_gives_that_layers_type(tmp_path, project, monkeypatch):
    """dsh keeps the person's memories in ``_user``: a file there without a type is a user memory, one of the
    project's folder a project memory (the layer the item's source names, not ``--scope``)."""
    from memdir import Memory
    from memdir.importing.sources import dsh_key

    dsh = tmp_path / "dsh"
    user, proj = dsh / "memory" / "_user", dsh / "memory" / dsh_key(str(project))
    user.mkdir(parents=True)
    proj.mkdir(parents=True)
    (user / "editor.md").write_text("---\nname: editor\ndescription: Uses Helix as editor\n---\n", encoding="utf-8")
    (proj / "db-port.md").write_text("---\nname: db-port\ndescription: Dev DB on 5433\n---\n", encoding="utf-8")
    (proj / "tests.md").write_text("---\nname: tests\ntype: feedback\ndescription: Real DB in tests\n---\n",
                                   encoding="utf-8")  # control: a type of its own
    monkeypatch.setenv("DSH_HOME", str(dsh))
    mem = Memory.open(home=tmp_path / "memhome", project=project, actor="human")
    report = mem.import_from("dsh")
    assert types(mem) == {("editor", "user"): "user", ("db-port", "project"): "project",
                          ("tests", "project"): "feedback"}
    assert report.retyped() == {}  # none was a type memdir does not know
