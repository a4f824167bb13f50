"""What a query may see is decided per row (issue 28, search speed): the rows visible at any time are kept per index
generation (:func:`memdir.search.visible.shown_rows`), and only rows with ``valid_from``/``valid_until`` are checked
against the query's time. Real memory files and a real SQLite FTS5 index."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from memdir import Memory
from memdir.search import ranking, visible


@pytest.fixture
def bm25(isolated_home, project):
    return Memory.open(home=isolated_home, project=project, search_vectors="off")


def names(results) -> set[str]:
    return {r.name for r in results}


def test_bounded_rows_follow_the_clock_and_kept_rows_follow_the_index(bm25, monkeypatch):
    now = datetime.now(UTC)
    bm25.write("always", "zebra crossing always", "project", "zebra always")
    bm25.write("until-soon", "zebra crossing until soon", "project", "zebra soon", valid_until=now + timedelta(hours=1))
    bm25.write("from-past", "zebra crossing from the past", "project", "zebra past", valid_from=now - timedelta(days=1))
    bm25.write("expired", "zebra crossing expired", "project", "zebra gone", valid_until=now - timedelta(days=2))
    bm25.write("later", "zebra crossing later", "project", "zebra later", valid_from=now + timedelta(days=30))
    bm25.write("muted", "zebra crossing muted", "project", "zebra muted", disabled=True)
    assert names(bm25.search("zebra", k=50)) == {"always", "until-soon", "from-past"}
    assert names(bm25.search("zebra crossing", k=50)) == {"always", "until-soon", "from-past"}  # kept rows, again
    assert names(bm25.search("zebra", k=50, include_muted=True)) == {"always", "until-soon", "from-past", "muted"}
    two_hours = time.time() + 7200
    monkeypatch.setattr(ranking.time, "time", lambda: two_hours)  # the index unchanged, the clock on
    assert names(bm25.search("zebra", k=50)) == {"always", "from-past"}  # until-soon has ended
    monkeypatch.undo()
    bm25.mute("always")  # a change to the index: what was kept is asked again
    assert names(bm25.search("zebra", k=50)) == {"until-soon", "from-past"}
    bm25.mute("always", False)
    assert names(bm25.search("zebra", k=50)) == {"always", "until-soon", "from-past"}


def test_visible_answers_as_the_clause_does(bm25):
    now = datetime.now(UTC)
    bm25.write("plain", "okapi note", "project", "okapi plain")
    bm25.write("bounded", "okapi bounded", "project", "okapi bounded", valid_until=now + timedelta(days=1))
    bm25.write("gone", "okapi gone", "project", "okapi gone", valid_until=now - timedelta(days=1))
    bm25.write("other", "okapi muted", "project", "okapi muted", disabled=True)
    conn = ranking.sync(bm25.session.home, bm25.session.layers(None), bm25.session.id)
    layers = [ranking.layer_key(bm25.session.home, layer.path) for layer in bm25.session.layers(None)]
    where = visible.where_clause(layers, False, time.time(), ranking.Filters())
    ids = [(row[0], float(-i)) for i, row in enumerate(conn.execute("SELECT id FROM docs ORDER BY name"))]
    by_clause = visible.keep_visible(conn, ids, where)
    kept = visible.keep_visible(conn, ids, where, visible.shown_rows(conn, layers, False, ranking.Filters()))
    assert kept == by_clause and len(kept) == 2  # plain and bounded, in the order given
    named = dict(conn.execute("SELECT id, name FROM docs"))
    assert [named[i] for i, _ in kept] == ["bounded", "plain"]
