"""A search syncs the index once (issue 28: its page's basis and its ranking each synced every layer, 0.4 ms each
at 1,000 notes), and still answers from a new index when the one it synced was damaged and set aside."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search import sync as sync_module


@pytest.fixture
def counted(monkeypatch):
    """Each layer synced, by layer directory name, as :func:`memdir.search.sync.sync_layer` is called (the real one
    runs)."""
    calls: list[str] = []
    real = sync_module.sync_layer

    def spy(conn, home, layer, **kwargs):
        calls.append(layer.path.name)
        return real(conn, home, layer, **kwargs)

    monkeypatch.setattr(sync_module, "sync_layer", spy)
    return calls


def _store(home, project) -> Memory:
    mem = Memory.open(home=home, project=project, actor="human", search_vectors="on")
    mem.write("billing-redis", "The billing service's Redis listens on port 6391", "project",
              "Staging Redis for billing listens on port 6391.")
    mem.write("ledger-db", "The ledger's database is Postgres 15", "project", "The ledger keeps its rows in Postgres.")
    return mem


def test_a_search_syncs_each_layer_once(isolated_home, project, counted):
    mem = _store(isolated_home, project)
    layers = len(mem.session.layers())
    counted.clear()
    found = mem.search("billing redis port", k=5)
    assert [r.name for r in found] == ["billing-redis"]  # the right answer, from the one sync
    assert len(counted) == layers == 2  # each layer once (before: twice, basis and ranking)
    # control: the ranking alone, asked without a sync of the caller's, syncs each layer itself
    from memdir.search import ranking

    counted.clear()
    hits, _, _ = ranking.ranked(mem.session, "billing redis port", pool=ranking.POOL_MIN)
    assert [h.memory.name for h in hits] == ["billing-redis"] and len(counted) == 2


def test_a_connection_set_aside_is_synced_anew(isolated_home, project, counted):
    """The connection a search synced, closed since (a damaged index is set aside, :func:`index.forget`), is not read:
    the ranking syncs the index at the path (what :func:`memdir.search.sync.rebuilt_when_damaged`'s second asking
    needs)."""
    from memdir.search import ranking

    mem = _store(isolated_home, project)
    conn = sync_module.sync(mem.home, mem.session.layers(), mem.session.id)
    index.forget(mem.home)  # what index_error does to a damaged index's connection
    counted.clear()
    hits, _, _ = ranking.ranked(mem.session, "ledger postgres", pool=ranking.POOL_MIN, synced=conn)
    assert [h.memory.name for h in hits] == ["ledger-db"] and len(counted) == 2  # synced anew, answered
    # control: the connection still the thread's is read as it is, no sync
    conn = sync_module.sync(mem.home, mem.session.layers(), mem.session.id)
    counted.clear()
    hits, _, _ = ranking.ranked(mem.session, "ledger postgres", pool=ranking.POOL_MIN, synced=conn)
    assert [h.memory.name for h in hits] == ["ledger-db"] and counted == []

