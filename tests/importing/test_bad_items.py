"""One bad item never stops an import (issue 25): a line nested past Python's recursion, a row whose
columns hold a number, a blob or a JSON array nested too deep is skipped and reported, the rest
imported; nothing but a :class:`MemdirError` leaves an importer."""

from __future__ import annotations

import json
import sqlite3

from tests.conftest import run_cli

COLUMNS = ("id", "project", "type", "title", "subtitle", "narrative", "text", "facts", "concepts", "files_read",
           "files_modified", "created_at")


def _database(path, project: str, rows: list[dict]) -> None:
    connection = sqlite3.connect(path)
    connection.execute(f"CREATE TABLE observations ({', '.join(COLUMNS)})")  # any type in any column
    for row in rows:
        connection.execute(f"INSERT INTO observations VALUES ({', '.join('?' * len(COLUMNS))})",
                           [row.get(column) for column in COLUMNS])
    connection.commit()
    connection.close()


def test_a_graph_line_nested_too_deep_is_skipped_and_the_rest_imported(tmp_path, project, person):
    graph = tmp_path / "memory.json"
    graph.write_text("\n".join([
        json.dumps({"type": "entity", "name": "Postgres", "entityType": "service",
                    "observations": ["Listens on 5433 in dev"]}),
        "[" * 100_000,
        json.dumps({"type": "entity", "name": "Redis", "entityType": "service", "observations": ["Cache, v7"]}),
        json.dumps({"type": "relation", "from": "Postgres", "to": "Redis", "relationType": "feeds"}),
    ]) + "\n", encoding="utf-8")
    report = person.import_from("mcp-memory", str(graph))
    results = {(o.source, o.result) for o in report.outcomes}
    assert ("entity Postgres", "imported") in results and ("entity Redis", "imported") in results  # control
    [bad] = [o for o in report.outcomes if o.result == "skipped"]
    assert (bad.source, bad.detail) == ("line 2", "JSON nested too deep")
    assert "[[redis]]" in person.read("postgres").record.body
    jsonl = tmp_path / "memories.jsonl"
    jsonl.write_text("[" * 100_000 + "\n" + json.dumps({"name": "tabs", "description": "Prefers tabs"}) + "\n")
    report = person.import_from("jsonl", str(jsonl))
    assert [(o.source, o.result, o.detail) for o in report.outcomes][0] == ("line 1", "skipped", "JSON nested too deep")
    assert [(o.name, o.result) for o in report.outcomes][1] == ("tabs", "imported")


def test_claude_mem_rows_of_odd_types_are_skipped_or_read_and_the_rest_imported(tmp_path, project, person):
    db = tmp_path / "claude-mem.db"
    _database(db, project.name, [
        {"id": 1, "project": project.name, "type": "decision", "title": "Use pnpm workspaces",
         "narrative": "We chose pnpm.", "facts": json.dumps(["pnpm 9"])},
        {"id": 2, "project": project.name, "type": "decision", "title": 42, "narrative": "The answer is 42 retries."},
        {"id": 3, "project": project.name, "type": "discovery", "title": b"Blob title", "narrative": b"Blob text"},
        {"id": 4, "project": project.name, "type": "decision", "title": "Deep facts", "narrative": "x",
         "facts": "[" * 100_000},
        {"id": 5, "project": 7, "type": "decision", "title": "Another project's", "narrative": "y"},
    ])
    report = person.import_from("claude-mem", str(db))
    by_source = {o.source: o for o in report.outcomes}
    assert by_source["observation 1 (decision)"].result == "imported"  # control
    assert by_source["observation 2 (decision)"].result == "imported"
    assert person.read("42").record.body == "The answer is 42 retries."
    assert by_source["observation 3 (discovery)"].result == "imported"
    assert person.read("blob-title").record.body == "Blob text"
    assert by_source["observation 4"].result == "skipped" and "nested too deep" in by_source["observation 4"].detail
    assert any(o.source == "1 observations of other projects" for o in report.outcomes)
    cli = run_cli("--project", project, "import", "claude-mem", db)
    assert "Traceback" not in cli.stderr and cli.returncode == 0, cli.stderr


def test_a_claude_mem_view_without_end_is_skipped_and_its_tables_still_read(tmp_path, project, person):
    """break37: ``observations`` as a recursive view (rows computed without end) held ``memdir import claude-mem``
    until it was killed (40 s, memory growing); a view or virtual table is now skipped and named, and the
    database's real tables are read (the directive is the control)."""
    db = tmp_path / "claude-mem.db"
    connection = sqlite3.connect(db)
    connection.executescript(
        "CREATE VIEW observations AS WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r) "
        f"SELECT id, '{project.name}' AS project, 'decision' AS type, 'title ' || id AS title, 'n' AS narrative "
        "FROM r;"
        "CREATE VIRTUAL TABLE session_summaries USING fts5(id, project, request, learned);"
        "CREATE TABLE directives (id INTEGER PRIMARY KEY, scope TEXT, project TEXT, content TEXT, status TEXT);"
        "INSERT INTO directives VALUES (1, 'global', NULL, 'Always answer in British English.', 'active');")
    connection.execute("INSERT INTO session_summaries VALUES (1, ?, 'r', 'Lesson: retries need jitter.')",
                       (project.name,))
    connection.commit()
    connection.close()

    report = person.import_from("claude-mem", str(db))

    by_source = {o.source: o for o in report.outcomes}
    assert by_source[f"observations of {db}"].result == "skipped"
    assert by_source[f"observations of {db}"].detail == "a view or virtual table, not claude-mem's table: not read"
    assert by_source[f"session_summaries of {db}"].result == "skipped"
    assert by_source["directive 1"].result == "imported"  # control: the real table
    assert person.read("always-answer-in-british-english").record.body == "Always answer in British English."
    assert len(report.outcomes) == 3
