import pytest

from tests.conftest import run_cli


def test_write_then_context_shows_the_memory(mem):
    result = mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    assert result.operation == "created"
    block = mem.context()
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in block


@pytest.mark.slow
def test_cli_list_json(project, isolated_home):
    out = run_cli("--project", project, "write", "x-y", "-d", "desc", "-t", "user", "--scope", "user", "--json")
    assert out.returncode == 0, out.stderr
    listed = run_cli("--project", project, "list", "--json")
    import json

    data = json.loads(listed.stdout)
    assert [m["name"] for m in data["memories"]] == ["x-y"]
    assert data["malformed"] == []


@pytest.mark.slow
def test_the_demo_runs_end_to_end(tmp_path):
    """`make demo` as a person runs it: every step prints what it should, and it leaves neither its temporary
    home nor a process serving it (newuser36: it ended in rmtree's "Directory not empty" while the first-session
    build its last session start began still wrote there, and left that home's warm process running)."""
    import os
    import subprocess
    import sys

    from tests.conftest import REPO, _processes

    temp = tmp_path / "tmp"
    temp.mkdir()
    done = subprocess.run([sys.executable, str(REPO / "examples" / "demo.py")], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TMPDIR": str(temp)})
    assert done.returncode == 0, done.stderr
    assert "home-consolidate" in done.stdout  # control: the part that starts the background work ran
    assert [p.name for p in temp.iterdir() if p.name.startswith("memdir-demo-")] == []  # its home is gone
    assert [argv for _, argv in _processes() if any(str(temp).encode() in arg for arg in argv)] == []
    out = done.stdout
    assert "blog's memory in shop-api's context? no (isolated)" in out
    assert "blog's memory in blog's context?     yes" in out
    assert "  refused: this matches a forgotten value (the same value; tombstone t-" in out
    assert "  history v1: create by agent at " in out and "  history v2: forget by agent at " in out
    assert "- [deploy-window](deploy-window.md) — Production deploys only Tuesday and Thursday mornings" in out
    assert "  Bob's agent: refused: this matches a forgotten value" in out
    assert "== memories made" in out and "this transcript was consolidated before; nothing done" in out
    assert "Traceback" not in done.stderr
    from tests.conftest import DATA

    if (DATA / "transcripts").is_dir():  # the real sessions: rules keep the fact the person asked to write down
        assert "== consolidating claude-code-deepseek-ocr.jsonl (rules extractor, offline)" in out
        assert "== consolidating claude-code-charslit.jsonl (rules extractor, offline)" in out
        assert "--- confusing-lines-spectral-orders-data (project/feedback, origin extracted, active)" in out
        assert "extensive-notes" not in out  # the one-off task instruction is not a memory
        pending = out.split("== the next SessionStart hook's additionalContext")[1].split("== the agent saves")[0]
        assert "<memory_pending>" in pending and "All data here is single order." in pending
        after = out.split("== the SessionStart after that")[1]
        assert "single-order-data" in after and "spectral orders. All data" not in after
