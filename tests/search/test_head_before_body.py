"""Among equal scores, the memory whose head states the query comes before one whose body only holds it (issue 28 item 1).

Audit finding: ``utc`` listed ``dates`` (its body's code ``datetime.now(timezone.utc)``) first and ``tz-policy``
("Store all timestamps in UTC") second, both 0.99; ``redis port`` listed a 400-word note mentioning it in its
last sentence first and the memory described "Staging Redis for search runs on port 6379" second, both 1.00.
The order of equal scores went by the share of the query one *body* sentence holds, so a memory holding it in
its head (name, title, description) came after any body mentioning it. The place that holds the most of the
query now orders them, the head before a body sentence holding as much
(:func:`memdir.search.ties.place`); a body sentence holding more than a head still comes first (a planted
fact under a wider title). Real SQLite and memory files, words alone (vectors off)."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from tests.conftest import run_cli

FILLER = " ".join(f"The billing service talks to the ledger service through the gateway in staging and production"
                  f" step {i}." for i in range(40))


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    # The memories stating the query in their head are written first and named last: recency and the name, the
    # later tie-breakers, both favour the body-only ones, so only the head rule can put them first.
    mem.write("z-tz-policy", "Store all timestamps in UTC", "feedback",
              "Convert to the user's timezone only in the UI layer.")
    mem.write("z-search-redis", "Staging Redis for search runs on port 6379", "project", "Shared with nobody.")
    mem.write("a-dates", "Never use naive datetimes; always attach tzinfo", "feedback",
              "Use datetime.now(timezone.utc).")
    mem.write("a-billing-notes", "Billing service architecture notes", "project",
              FILLER + " The staging Redis for billing listens on port 6390.")
    mem.write("lint", "Run ruff before committing", "feedback", "The pre-commit hooks run ruff format and check.")
    return mem


def listed(mem, query):
    return [(r.name, round(r.score, 2)) for r in mem.search(query)]


def test_a_head_stating_the_query_comes_before_a_body_holding_it(store):
    assert listed(store, "utc") == [("z-tz-policy", 0.99), ("a-dates", 0.99)]
    assert listed(store, "redis port") == [("z-search-redis", 1.0), ("a-billing-notes", 1.0)]
    # control: a body sentence holding more of the question than any head (the planted fact) still comes first
    assert [name for name, _ in listed(store, "What is the port of the staging Redis instance for billing?")][:2] \
        == ["a-billing-notes", "z-search-redis"]
    assert listed(store, "ruff") == [("lint", 1.0)]  # control: the store's other memories are not listed for these


def test_recall_orders_them_so_too(store):
    hits = [m.name for m in store.recall_result("redis port").memories]
    assert hits == ["z-search-redis", "a-billing-notes"]


def test_tie_place_prefers_the_head_at_an_equal_share():
    from types import SimpleNamespace

    from memdir.search.ties import place

    head = SimpleNamespace(head=1.0, near=0.0, span=0)
    body = SimpleNamespace(head=0.0, near=1.0, span=1)
    more = SimpleNamespace(head=0.73, near=1.0, span=7)
    assert sorted([body, head], key=place) == [head, body]
    assert sorted([SimpleNamespace(head=0.73, near=0.0, span=0), more], key=place)[0] is more  # control
    backed = SimpleNamespace(head=0.5, near=0.5, span=3)  # control: a head backed by a body sentence first
    assert sorted([SimpleNamespace(head=0.5, near=0.0, span=0), backed], key=place)[0] is backed
    assert place(SimpleNamespace(head=0.0, near=0.0, span=0)) == (0.0, True, 0.0, 1 << 30)  # holds nothing: last
    # a head holding a small share states nothing: the sentence holding the same share is not put after it
    weak_head, weak_body = SimpleNamespace(head=0.05, near=0.05, span=9), SimpleNamespace(head=0.0, near=0.05, span=6)
    assert sorted([weak_head, weak_body], key=place) == [weak_body, weak_head]  # the tighter sentence first


@pytest.mark.slow
def test_the_cli_lists_the_head_first(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = json.loads(run_cli("search", "utc", "--json", env=env).stdout)["results"]
    assert [(r["name"], round(r["score"], 2)) for r in found] == [("z-tz-policy", 0.99), ("a-dates", 0.99)]
    text = run_cli("search", "redis port", env=env).stdout
    assert 0 < text.index("z-search-redis") < text.index("a-billing-notes")
    assert "lint" not in text  # control: a memory sharing no word is not listed
