"""Atlas: scope enforced in retrieval (`scope.cross_tenant_absent`, `scope.caller_cannot_widen`,
`scope.background_respects_boundary`). A project's memories never reach another project's session, through
any entry point; the project comes from the session, never from a tool argument; consolidation writes where
its transcript's session was, and the shared search index answers each session only with its own layers."""

from __future__ import annotations

import io
import json

import pytest

from memdir.consolidation import queue
from memdir.integrations.claude_code import hooks

from .conftest import agent, index_text, mcp_calls, run_cli, session_start, surfaces, transcript

SECRET_A = "pg-alpha-7"  # a value only project A holds
DESC_A = f"Staging DB host is {SECRET_A}"  # what a hit of A's memory shows (an echoed query is no hit)
VALUE_B = "pg-beta-2"


def _seed(home, a, b):
    mcp_calls(home, a, ("memory_write", {"name": "staging-db", "description": f"Staging DB host is {SECRET_A}",
                                         "type": "project", "body": f"Connect to {SECRET_A}:5432."}))
    mcp_calls(home, b, ("memory_write", {"name": "staging-db-b", "description": f"Staging DB host is {VALUE_B}",
                                         "type": "project", "body": f"Connect to {VALUE_B}:5432."}))


@pytest.mark.slow
def test_cross_project_absent_on_every_read_path(isolated_home, projects):
    a, b = projects
    _seed(isolated_home, a, b)
    in_a, in_b = agent(isolated_home, a), agent(isolated_home, b)
    for where, text in surfaces(in_b, f"staging db host {SECRET_A}").items():
        assert SECRET_A not in text, where
        assert VALUE_B in text or where == "recall", where  # control: B's own memory is there
    assert "staging-db-b" in in_b.recall("staging db host")
    for where, text in surfaces(in_a, f"staging db host {SECRET_A}").items():
        assert SECRET_A in text, where  # control: A sees its own memory on the same surfaces
        assert VALUE_B not in text, where
    tools = mcp_calls(isolated_home, b, ("memory_read", {"name": "staging-db"}),
                      ("memory_search", {"query": SECRET_A}), ("memory_list", {}),
                      ("memory_read", {"name": "staging-db-b"}))
    assert tools[0][0] and "not found" in tools[0][1]
    assert all(DESC_A not in text and f"{SECRET_A}:5432" not in text for _, text in tools)
    assert VALUE_B in tools[3][1] and "staging-db-b" in tools[2][1]  # control
    start_b = session_start(b)
    assert SECRET_A not in start_b and VALUE_B in start_b
    assert SECRET_A in session_start(a)  # control: the hook of A's session shows it
    cli = run_cli("--project", b, "search", SECRET_A, "--json")
    # B's own memory shares a word ("pg") and is listed; A's never is.
    assert cli.returncode == 0 and [r["name"] for r in json.loads(cli.stdout)["results"]] == ["staging-db-b"]
    cli_a = run_cli("--project", a, "search", SECRET_A, "--json")
    assert cli_a.returncode == 0 and [r["name"] for r in json.loads(cli_a.stdout)["results"]] == ["staging-db"]
    assert SECRET_A not in index_text(in_b) and SECRET_A in index_text(in_a)


def test_a_tool_argument_cannot_widen_the_scope(isolated_home, projects):
    a, b = projects
    _seed(isolated_home, a, b)
    widen = [{"query": SECRET_A, "scope": s} for s in ("*", "", "all", "projects", "../alpha", str(a), "project/..")]
    widen += [{"query": SECRET_A, **extra} for extra in ({"project": str(a)}, {"cwd": str(a)}, {"root": str(a)},
                                                          {"home": str(isolated_home)})]
    results = mcp_calls(isolated_home, b, *[("memory_search", args) for args in widen],
                        ("memory_search", {"query": SECRET_A, "scope": None}))
    for args, (is_error, text) in zip(widen, results):
        assert DESC_A not in text, args
        assert is_error and text.startswith("Error: memory_search:"), (args, text)  # refused, not confined
    # An empty value: the session's scopes, where B's own memory shares a word ("pg"); A's never appears.
    assert results[-1][0] is False and "staging-db-b" in results[-1][1] and DESC_A not in results[-1][1]
    reads = mcp_calls(isolated_home, b, *[("memory_read", {"name": n}) for n in
                                          ("../alpha/staging-db", f"{a}/staging-db", "staging-db.md",
                                           "projects/staging-db")])
    assert all(is_error and DESC_A not in text for is_error, text in reads)
    allowed = mcp_calls(isolated_home, b, ("memory_search", {"query": VALUE_B, "scope": "project"}),
                        ("memory_search", {"query": SECRET_A, "scope": "project"}))
    assert not allowed[0][0] and VALUE_B in allowed[0][1]  # control: the session's own scope answers
    assert DESC_A not in allowed[1][1]
    same = mcp_calls(isolated_home, a, ("memory_search", {"query": SECRET_A, "scope": "project"}))
    assert DESC_A in same[0][1]  # control: the same call from A's session finds it
    cli = run_cli("--project", b, "list", "--scope", "*")
    assert cli.returncode != 0 and SECRET_A not in cli.stdout + cli.stderr


@pytest.mark.slow
def test_background_consolidation_keeps_each_session_in_its_project(isolated_home, projects, tmp_path,
                                                                   monkeypatch):
    a, b = projects
    monkeypatch.setattr(queue, "spawn_drain", lambda home, extractor=None: None)  # drained below, by the CLI
    said = {a: "Remember that the alpha deploy target is k8s-alpha-3.",
            b: "Remember that the beta deploy target is k8s-beta-9."}
    for project, line in said.items():
        path = transcript(tmp_path / f"{project.name}.jsonl", project, line)
        payload = {"session_id": project.name, "transcript_path": str(path), "cwd": str(project),
                   "hook_event_name": "SessionEnd", "reason": "other"}
        assert hooks.handle("SessionEnd", stdin=io.StringIO(json.dumps(payload))) == 0
    drained = run_cli("consolidate", "--queue", "--extractor", "rules")
    assert drained.returncode == 0, drained.stderr
    in_a, in_b = agent(isolated_home, a), agent(isolated_home, b)
    text_a, text_b = (json.dumps([m.to_dict() for m in mem.list().memories]) for mem in (in_a, in_b))
    assert "k8s-alpha-3" in text_a and "k8s-beta-9" in text_b  # control: each fact landed
    assert "k8s-beta-9" not in text_a and "k8s-alpha-3" not in text_b
    for mem, own, other in ((in_a, "k8s-alpha-3", "k8s-beta-9"), (in_b, "k8s-beta-9", "k8s-alpha-3")):
        hits = mem.search(own)
        assert len(hits) == 1 and own in mem.read(hits[0].name, count=False).record.description  # control
        # The one search index answers only with the session's layers (its own memory may share a word).
        assert all(other not in mem.read(r.name, count=False).record.description for r in mem.search(other))
        assert other not in mem.context() and other not in mem.recall(f"deploy target {other}")
        assert all(m.origin == "extracted" for m in mem.list().memories)
    assert "k8s" not in index_text(in_a, "user")  # nothing leaked into the layer both projects share
