from tests.conftest import run_cli


def test_write_then_context_shows_the_memory(mem):
    result = mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    assert result.operation == "created"
    block = mem.context()
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in block


def test_cli_list_json(project, isolated_home):
    out = run_cli("--project", project, "write", "x-y", "-d", "desc", "-t", "user", "--scope", "user", "--json")
    assert out.returncode == 0, out.stderr
    listed = run_cli("--project", project, "list", "--json")
    import json

    data = json.loads(listed.stdout)
    assert [m["name"] for m in data["memories"]] == ["x-y"]
    assert data["malformed"] == []
