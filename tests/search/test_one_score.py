"""A memory's relevance to a query is one number in search and in recall (issue 28 audit, item 2).

Before: an explicit search scored a memory that states the query by the lexical model alone (the cosine left
out), recall by the calibrated model: "Make sessions last longer before they expire" gave redis-ttl 0.226 in
`memdir search` and 0.906 in `memdir recall`. Now both rank with the same rule and show the same score; the
lexical model only decides the order among memories stating the query."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import embedder, index, vectors
from memdir.search.sync import sync


@pytest.mark.slow
def test_search_and_recall_show_one_score(isolated_home, project, monkeypatch):
    monkeypatch.setattr(embedder, "schedule", lambda home: None)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    mem.write("redis-ttl", "Session cache in Redis expires after 30 minutes", "project",
              "TTL set in settings.SESSION_TTL=1800; raise it in settings only.")
    mem.write("id-helper", "Always call getUserId instead of reading the session cookie", "feedback",
              "The cookie format changes; getUserId hides it.")
    mem.write("uv-install", "Use uv for Python installs, never pip", "feedback",
              "uv is faster and locks versions; pip breaks the venv. Use uv add, not uv pip.")
    mem.write("logging", "Use structlog for logging, JSON lines in production", "project",
              "Each log line carries request_id.")
    sync(mem.home, mem.session.layers())
    assert vectors.embed_missing(index.connect(mem.home), None) == 4
    for query, want in [("Make sessions last longer before they expire", "redis-ttl"),
                        ("How should I install python packages here?", "uv-install")]:
        found = {r.name: r.score for r in mem.search(query)}
        recalled = {m.name: m.score for m in mem.recall_result(query).memories}
        assert list(recalled) == [want] and list(found)[0] == want
        assert found[want] == recalled[want] and found[want] >= 0.5, (query, found, recalled)
        # Control: a memory sharing one word and not meant is shown by search under the threshold, not recalled.
        assert all(score < 0.5 for name, score in found.items() if name != want)
