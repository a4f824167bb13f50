"""Atlas: deletion and correction (`deletion.absent_after_reindex_and_restart`, `correction.survives_reindex`,
`correction.retraction_without_replacement`). What was forgotten, replaced or retracted stays out of every read
path after the derived index is rebuilt and the process restarted; the journal keeps the record of it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memdir import Memory
from memdir.layer.journal import now_utc

from ..llm_server import ChatServer
from .conftest import agent, mcp_calls, prompt_recall, run_cli, session_start, surfaces, transcript

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)


def _rebuilt(home, project) -> None:
    """The derived search index dropped and rebuilt by `memdir reindex` in its own process."""
    (home / "index.sqlite").unlink(missing_ok=True)
    out = run_cli("--project", project, "reindex")
    assert out.returncode == 0, out.stderr


def _cli_seen(project, query) -> str:
    """What new processes show: `memdir list`, `memdir search` (its hits, not the echoed query), `memdir context`."""
    hits = json.loads(run_cli("--project", project, "search", query, "--json").stdout)["results"]
    return "\n".join([run_cli("--project", project, "list", "--json").stdout, json.dumps(hits),
                      run_cli("--project", project, "context").stdout])


def test_a_forgotten_item_is_absent_after_reindex_and_restart(isolated_home, project):
    mem = agent(isolated_home, project)
    mem.write("door-code", "Office door code is 4711-blue", "project", "Ask facilities for a new one after 4711-blue.")
    mem.write("wifi", "Guest wifi is called harbor-guest", "project", "Password on the fridge.")
    mem.search("door code")  # the search index holds it before the forget
    assert mcp_calls(isolated_home, project, ("memory_delete", {"name": "door-code"}))[0][0] is False
    _rebuilt(isolated_home, project)
    fresh = Memory.open(home=isolated_home, project=project)  # a restarted session
    seen = {**surfaces(fresh, "office door code 4711-blue"), "cli": _cli_seen(project, "4711-blue door code"),
            "SessionStart": session_start(project), "UserPromptSubmit": prompt_recall(project, "door code 4711-blue?"),
            "mcp": json.dumps(mcp_calls(isolated_home, project, ("memory_search", {"query": "office door code"}),
                                        ("memory_list", {}), ("memory_read", {"name": "door-code"})))}
    for where, text in seen.items():
        assert "4711-blue" not in text, where
    for where in ("list", "search", "context", "MEMORY.md", "cli", "SessionStart", "mcp"):
        assert "harbor-guest" in seen[where] or where == "search", where  # control: the other memory is there
    assert "harbor-guest" in surfaces(fresh, "guest wifi")["search"]
    audit = [(e.action, e.name) for e in fresh.journal().entries]
    assert ("delete", "door-code") in audit  # the audit records it
    assert fresh.tombstones().tombstones[0].name == "door-code"


def test_a_correction_survives_reindex(isolated_home, project):
    mem = agent(isolated_home, project)
    past = (now_utc() - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    mem.write("db-port", "Dev PostgreSQL listens on 5432", "project", "The default port.")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The system cluster took the default.")
    mem.write("fridays", "Deploys on Fridays are allowed", "project", "Ops agreed.")
    mem.write("fridays", "Deploys on Fridays are not allowed", "project", "Ops changed their mind.")
    mem.write("ci", "CI runs on Jenkins", "project", "Jenkins at ci.internal.")
    mem.write("ci-runner", "CI runs on Buildkite", "project", "Moved from the old system.", supersedes="ci")
    mem.write("freeze", "Code freeze for the Q4 release", "project", "No merges to main.", valid_until=past)
    mem.write("owner", "The payments service is owned by team Kestrel", "project", "Ask in #kestrel.")
    before = mem.journal().entries[0].ts
    _rebuilt(isolated_home, project)
    fresh = Memory.open(home=isolated_home, project=project)
    once = {"cli": _cli_seen(project, "postgresql 5432"), "SessionStart": session_start(project)}  # new processes
    for query, old, new in (("postgresql listens", "5432", "5433"),
                            ("deploys fridays allowed", "Fridays are allowed", "Fridays are not allowed"),
                            ("CI runs on", "Jenkins", "Buildkite"), ("code freeze Q4 release", "Code freeze", None)):
        seen = {**surfaces(fresh, query), **once}
        for where, text in seen.items():
            assert old not in text, (query, where)
            if new is not None and where != "recall":
                assert new in text, (query, where)  # control: the corrected value is what is shown
    assert "team Kestrel" in fresh.context()  # control: an untouched memory
    believed = {m.name: m.description for m in fresh.list(as_of=before).memories}
    assert believed["db-port"] == "Dev PostgreSQL listens on 5433"
    assert [v.description for v in fresh.history("db-port").versions] == [
        "Dev PostgreSQL listens on 5432", "Dev PostgreSQL listens on 5433"]  # nothing lost: history has both
    assert fresh.read("ci", count=False).record.status == "superseded"


def test_a_retraction_without_replacement_takes_effect(isolated_home, project, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    with ChatServer() as server:
        mem = Memory.open(home=isolated_home, project=project, use_cwd=False, llm_base_url=server.url,
                          llm_model="test-model", llm_timeout=10, consolidation_extractor="llm")
        mem.write("tea", "Prefers green tea in the afternoon", "user", "Sencha.", scope="user")
        server.replies.append(json.dumps({"proposals": [{"action": "create", "name": "sister-ana", "type": "user",
                                                         "description": "Has a sister named Ana"}]}))
        said = transcript(tmp_path / "one.jsonl", project, "Remember that I have a sister named Ana.")
        assert [o.result for o in mem.consolidate(said, mode="always").outcomes] == ["created"]
        assert "sister named Ana" in mem.context()
        server.replies.append(json.dumps({"proposals": [{"action": "forget", "target": "sister-ana"}]}))
        retracted = transcript(tmp_path / "two.jsonl", project, "I misspoke earlier: I do not have a sister.")
        report = mem.consolidate(retracted, mode="always")
        assert [(o.result, o.target) for o in report.outcomes] == [("forgotten", "sister-ana")]
        assert [m.name for m in mem.list(include_all=True).memories] == ["tea"]  # no replacement was written
        seen = {**surfaces(mem, "sister Ana"), "SessionStart": session_start(project),
                "UserPromptSubmit": prompt_recall(project, "what is my sister called?")}
        for where, text in seen.items():
            assert "Ana" not in text and "sister" not in text, where
        assert "green tea" in seen["context"] and "green tea" in seen["SessionStart"]  # control
        # said again later, the retracted fact does not come back
        server.replies.append(json.dumps({"proposals": [{"action": "create", "name": "sibling", "type": "user",
                                                         "description": "Has a sister named Ana"}]}))
        again = transcript(tmp_path / "three.jsonl", project, "Oh, and remember that I have a sister named Ana.")
        assert [o.result for o in mem.consolidate(again, mode="always").outcomes] == ["refused-tombstone"]
    # the agent's own path: memory_delete with nothing written in its place
    mem.write("allergy", "Allergic to peanuts", "user", "", scope="user")
    assert mcp_calls(isolated_home, project, ("memory_delete", {"name": "allergy", "reason": "user: I misspoke"}))
    assert "peanuts" not in mem.context() and "peanuts" not in session_start(project)
    assert [m.name for m in mem.list().memories] == ["tea"]
