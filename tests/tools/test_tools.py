"""The tool layer shared by MCP and any harness: schemas, calls, errors, bounds."""

from __future__ import annotations

import json
import re

import pytest

from memdir import Memory
from memdir.paths import project_layer_dir
from memdir.tools.handlers import run_tool as _run_tool
from memdir.tools.specs import MAX_LIST, READ_CHUNK, TOOL_NAMES, tool_schemas, tool_specs


def run_tool(mem, name, arguments=None):
    return _run_tool(mem.session, name, arguments)


def call_tool(mem, name, arguments=None):
    return mem.call_tool(name, arguments)

EXPECTED = ["memory_write", "memory_edit", "memory_read", "memory_list", "memory_search", "memory_delete", "memory_prune",
            "memory_delete_all", "memory_history", "memory_restore", "memory_status"]


def test_schemas_are_openai_function_definitions(mem):
    schemas = mem.tool_schemas()
    assert [s["function"]["name"] for s in schemas] == EXPECTED
    for s in schemas:
        assert s["type"] == "function"
        params = s["function"]["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"])
        lines = s["function"]["description"].count("\n") + 1
        assert 1 <= lines <= 5 and len(s["function"]["description"]) < 500
    json.dumps(schemas)  # serializable as sent to an API
    by_name = {s["function"]["name"]: s["function"]["parameters"] for s in schemas}
    assert by_name["memory_delete_all"]["required"] == ["confirm"]
    assert by_name["memory_write"]["properties"]["type"]["enum"] == ["user", "feedback", "project", "reference"]
    # no tool takes the project from the model
    assert all("project" not in p["properties"] and "cwd" not in p["properties"] for p in by_name.values())


def test_annotations_mark_reads_and_destructive_tools():
    hints = {t.name: t.annotations() for t in tool_specs()}
    assert {n for n, h in hints.items() if h["destructiveHint"]} == {"memory_delete", "memory_prune",
                                                                   "memory_delete_all"}
    assert {n for n, h in hints.items() if h["readOnlyHint"]} == {"memory_read", "memory_list", "memory_search",
                                                                "memory_history", "memory_status"}
    assert tool_schemas() == tool_schemas(None)
    assert TOOL_NAMES == tuple(EXPECTED)


def test_write_read_list_roundtrip(mem):
    out = mem.call_tool("memory_write", {"name": "DB Port", "description": "Dev DB listens on 5433",
                                         "type": "project", "body": "Moved on 2026-11-02. See [[dev-setup]]."})
    assert out == "Memory created: db-port (project)\nwarning: name 'DB Port' was normalized to 'db-port' (kept as the title)"
    mem.call_tool("memory_write", {"name": "dev-setup", "description": "How to set up dev", "type": "reference",
                                   "body": "docker compose up", "scope": "user"})
    read = mem.call_tool("memory_read", {"name": "db-port"})
    assert read.startswith("name: db-port\ndescription: Dev DB listens on 5433\ntype: project\nlayer: project\n")
    assert "Moved on 2026-11-02." in read
    assert "Linked memories:\n- dev-setup — How to set up dev" in read
    assert "truncated" not in read
    listed = mem.call_tool("memory_list", {})
    assert listed.splitlines() == ["Memories 1–2 of 2:", "- dev-setup (type: reference; layer: user) — How to set up dev",
                                   "- db-port (type: project; layer: project) — Dev DB listens on 5433"]
    assert mem.call_tool("memory_list", {"scope": "user"}).splitlines()[1:] == [
        "- dev-setup (type: reference; layer: user) — How to set up dev"]


def test_redaction_is_reported(mem):
    out = mem.call_tool("memory_write", {"name": "api", "description": "The API key", "type": "reference",
                                         "body": "key is sk-abcdefghijklmnop1234567890"})
    assert "1 secret(s) were redacted before saving (openai-key×1)" in out
    body = mem.read("api").record.body
    assert "[REDACTED:openai-key]" in body and "sk-abcdefghijklmnop1234567890" not in body


def test_domain_errors_become_error_text(mem):
    missing = run_tool(mem, "memory_read", {"name": "nope"})
    assert missing.is_error and missing.text.startswith('Error: memory not found: "nope"')
    assert "memory_list" in missing.text
    refused = run_tool(mem, "memory_delete_all", {"confirm": False})
    assert refused.is_error and "requires confirm=true" in refused.text
    mem.call_tool("memory_write", {"name": "keep", "description": "kept", "type": "user", "body": "b"})
    assert run_tool(mem, "memory_delete_all", {"confirm": False}).is_error
    assert mem.list().memories[0].name == "keep"  # positive control: still there
    unknown = run_tool(mem, "memory_fly", {})
    assert unknown.is_error and "memory_write" in unknown.text
    bad_type = run_tool(mem, "memory_write", {"name": "x", "description": "d", "type": "fact", "body": ""})
    assert bad_type.is_error and "'type' must be one of user, feedback, project, reference" in bad_type.text
    missing_arg = run_tool(mem, "memory_write", {"name": "x", "type": "user", "body": ""})
    assert missing_arg.is_error and missing_arg.text == (
        "Error: description is required for a new memory (there is no memory 'x' to update)")
    missing_name = run_tool(mem, "memory_write", {"description": "d"})
    assert missing_name.is_error and "missing required argument 'name'" in missing_name.text
    not_int = run_tool(mem, "memory_prune", {"older_than_days": "soon"})
    assert not_int.is_error and "must be an integer" in not_int.text


def test_project_argument_is_refused(mem, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    out = run_tool(mem, "memory_write", {"name": "x", "description": "d", "type": "user", "body": "",
                                         "project": str(other)})
    assert out.is_error and "the project comes from the session" in out.text
    assert not (mem.home / "projects").exists() or not project_layer_dir(mem.home, other).exists()
    ok = run_tool(mem, "memory_write", {"name": "x", "description": "d", "type": "user", "body": ""})
    assert not ok.is_error


def test_arguments_as_json_string(mem):
    out = call_tool(mem, "memory_write", json.dumps({"name": "j", "description": "from json",
                                                     "type": "user", "body": "b"}))
    assert out == "Memory created: j (user)"
    assert call_tool(mem, "memory_read", "{not json").startswith("Error: memory_read: arguments are not valid JSON")


def test_read_chunks_a_large_body(mem):
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    body = "".join(f"line {i:06d} " + "x" * 40 + "\n" for i in range(4_000))  # ~210 KB by hand, under the ceiling
    (layer.path / "huge.md").write_text(
        f"---\nname: huge\ndescription: a very large memory\ntype: reference\n---\n{body}", encoding="utf-8")
    total = len(mem.read("huge", count=False).record.body)
    first = call_tool(mem, "memory_read", {"name": "huge"})
    assert len(first) < READ_CHUNK + 600
    assert f"body: characters 0–{READ_CHUNK} of {total}" in first
    assert f"call memory_read with offset={READ_CHUNK} for the next part" in first
    assert "line 000000" in first and "line 003000" not in first
    second = call_tool(mem, "memory_read", {"name": "huge", "offset": READ_CHUNK})
    assert f"body: characters {READ_CHUNK}–{2 * READ_CHUNK} of {total}" in second
    last = call_tool(mem, "memory_read", {"name": "huge", "offset": total - 10})
    assert f"of {total}" in last and "truncated" not in last
    past = run_tool(mem, "memory_read", {"name": "huge", "offset": total + 1})
    assert past.is_error and "past the end" in past.text


def test_list_is_paged(mem):
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    for i in range(150):
        (layer.path / f"m-{i:03d}.md").write_text(
            f"---\nname: m-{i:03d}\ndescription: memory number {i}\ntype: project\n---\nbody {i}\n", encoding="utf-8")
    first = call_tool(mem, "memory_list", {})
    lines = first.splitlines()
    assert lines[0] == "Memories 1–50 of 150:" and len(lines) == 52
    assert lines[-1] == "…100 more — call memory_list with offset=50"
    page = call_tool(mem, "memory_list", {"offset": 100, "limit": 500}).splitlines()  # limit clamped
    assert page[0] == "Memories 101–150 of 150:" and len(page) == 51
    assert MAX_LIST == 100


def test_prune_is_a_dry_run_unless_told(mem):
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    (layer.path / "old.md").write_text("---\nname: old\ndescription: an old fact\ntype: project\n"
                                       "updated: 2020-01-01T00:00:00Z\n---\nold\n", encoding="utf-8")
    dry = call_tool(mem, "memory_prune", {"older_than_days": 30})
    assert dry.startswith("Prune dry-run: 1 candidate(s)") and "- old (project," in dry
    assert [m.name for m in mem.list().memories] == ["old"]
    done = call_tool(mem, "memory_prune", {"older_than_days": 30, "dry_run": False})
    assert done.startswith("Pruned 1 of 1 candidate(s)")
    assert mem.list().memories == ()


def test_delete_history_restore(mem):
    mem.call_tool("memory_write", {"name": "fact", "description": "first version", "type": "project", "body": "a"})
    mem.call_tool("memory_write", {"name": "fact", "description": "second version", "type": "project", "body": "b"})
    hist = call_tool(mem, "memory_history", {"name": "fact"})
    assert hist.splitlines()[0] == "2 version(s) of fact (project):"
    assert "v1" in hist and "first version" in hist and "second version" in hist
    shown = call_tool(mem, "memory_history", {"name": "fact", "version": 1})
    assert "description: first version" in shown
    restored = call_tool(mem, "memory_restore", {"name": "fact", "version": 1})
    assert restored.startswith("Restored fact to version 1")
    assert mem.read("fact", count=False).record.description == "first version"
    deleted = call_tool(mem, "memory_delete", {"name": "fact"})
    assert deleted.startswith("Deleted memory: fact (project). Its value is tombstoned")
    again = run_tool(mem, "memory_write", {"name": "fact", "description": "first version", "type": "user",
                                           "body": "a"})
    assert again.is_error and "tombstone" in again.text.lower()


def test_status_reports_malformed_files(mem):
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    (layer.path / "bad.md").write_bytes(b"\xff\xfe not utf-8")
    mem.call_tool("memory_write", {"name": "good", "description": "fine", "type": "project", "body": ""})
    status = call_tool(mem, "memory_status", {})
    assert "project: 1 memory (" in status
    assert "! unreadable:" in status and "bad.md" in status and "not valid UTF-8" in status
    listed = call_tool(mem, "memory_list", {})
    assert "- good (type: project; layer: project) — fine" in listed and "bad.md" in listed


def test_search_returns_the_best_hit_first(mem):
    mem.call_tool("memory_write", {"name": "db-port", "description": "Dev PostgreSQL listens on 5433",
                                   "type": "project", "body": "not 5432"})
    mem.call_tool("memory_write", {"name": "style", "description": "Use tabs", "type": "feedback", "body": "x"})
    out = run_tool(mem, "memory_search", {"query": "postgresql port"})
    assert not out.is_error
    lines = out.text.splitlines()
    assert lines[0].endswith(" result(s) for 'postgresql port':")
    assert re.fullmatch(r"- db-port \(type: project; layer: project\) relevance (0\.[5-9]\d|1\.00) — Dev PostgreSQL listens on 5433", lines[1])


def test_no_project_user_tools_still_work(isolated_home, tmp_path, monkeypatch):
    home_dir = tmp_path / "userhome"
    monkeypatch.chdir(home_dir)
    mem = Memory.open(home=isolated_home)
    assert mem.project_root is None
    out = run_tool(mem, "memory_write", {"name": "p", "description": "d", "type": "project", "body": ""})
    assert out.is_error and "--project" in out.text and "MEMDIR_PROJECT" in out.text
    ok = run_tool(mem, "memory_write", {"name": "u", "description": "about me", "type": "user", "body": "",
                                        "scope": "user"})
    assert not ok.is_error and ok.text == "Memory created: u (user)"
    listed = call_tool(mem, "memory_list", {})
    assert "- u (type: user; layer: user) — about me" in listed and "project memories unavailable" in listed


@pytest.mark.slow
def test_memory_search_says_where_the_next_page_starts_when_its_page_is_full(mem):
    for i in range(25):
        mem.write(f"kafka-{i:02d}", f"Kafka note {i}", "project", f"Broker {i} of the kafka cluster.")
    clamped = run_tool(mem, "memory_search", {"query": "kafka", "k": 100}).text  # clamped to the tool's 20
    assert clamped.startswith("20 result(s) for 'kafka':")
    # The last line but a note on the ranking's basis, when vectors are still being built (search.paging).
    assert "(a full page: more may follow from offset 20)" in clamped.splitlines()[-2:]
    assert clamped.endswith(("(a full page: more may follow from offset 20)", "keep this basis)"))
    rest = run_tool(mem, "memory_search", {"query": "kafka", "k": 20, "offset": 20}).text
    assert rest.startswith("5 result(s) for 'kafka', after the first 20:") and "full page" not in rest  # control
