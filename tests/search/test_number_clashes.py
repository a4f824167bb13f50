"""A query's number that a memory contradicts weighs against it (num42, a hostile tester on main).

Each store holds two sibling memories alike but for a number: Redis at ``10.0.0.12`` and at ``10.0.0.13``, node
``18.17.1`` and ``18.17.2``, a service at ``192.168.1.50:6390`` and at ``192.168.1.51:6390``. ``Redis 10.0.0.13``
listed the ``.12`` memory at 0.975, ``node 18.17.2`` the ``18.17.1`` one at 0.994, ``192.168.1.51:6390`` the ``.50``
one at 0.938: every other word matched, and the number the sibling lacks cost little. Now a memory holding another
value of the query's dotted number (a sibling: three groups or more, all but the last the same) and not the query's
clashes (:func:`memdir.search.versions.clashes`): it is scored a tenth
(:data:`memdir.search.relevance.CLASHED`), states nothing and is never recalled (:func:`memdir.search.relevance.bar`).
Controls: the right memory first at full strength; a shorter number (``10.0.0``, ``18.17``) still finds both; a
query naming both numbers clashes with neither; a memory of another major (``20.1.0``) is no clash.

Real SQLite in a temp home; vectors off but for the last test (the real model); the CLI, the MCP tool and the prompt
hook as the real subprocess or server.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.relevance import CLASHED, THRESHOLD
from memdir.search.tokenize import VERSION_JOIN, query_terms, tokens
from memdir.search.versions import clashes

from .evalstore import needs_vectors
from .ranked import top
from .surfaces import cli_search, hook_block, lexical_env, mcp_search

J = VERSION_JOIN
SIBLINGS = [
    ("redis-cache", "Redis cache host", "Redis runs at 10.0.0.12 for the session cache."),
    ("redis-queue", "Redis queue host", "Redis runs at 10.0.0.13 for the job queue."),
    ("node-ci", "Node on CI", "CI pins node 18.17.1 for the build."),
    ("node-tools", "Node for the tools image", "The tools image pins node 18.17.2."),
    ("cache-endpoint", "Cache endpoint", "The cache listens on 192.168.1.50:6390."),
    ("queue-endpoint", "Queue endpoint", "The queue listens on 192.168.1.51:6390."),
]
REPROS = [  # (query, the memory holding its number, the sibling holding another)
    ("Redis 10.0.0.13", "redis-queue", "redis-cache"),
    ("node 18.17.2", "node-tools", "node-ci"),
    ("192.168.1.51:6390", "queue-endpoint", "cache-endpoint"),
]


def _store(home, project, vectors: str = "off") -> Memory:
    mem = Memory.open(home=home, project=project, actor="human", search_vectors=vectors)
    for name, description, body in SIBLINGS:
        mem.write(name, description, "project", body)
    return mem


@pytest.fixture
def store(isolated_home, project):
    return _store(isolated_home, project)


def scored(mem, query: str) -> list[tuple[str, float]]:
    """``mem.search(query)`` as ``[(name, score rounded to 3 places), …]``, best first."""
    return [(hit.name, round(hit.score, 3)) for hit in mem.search(query)]


def _clashes(query: str, memory: str) -> list[str]:
    return [t.replace(J, ".") for t in clashes(query_terms(query), set(tokens(memory)))]


def test_a_memory_holding_another_value_of_the_number_clashes():
    assert _clashes("Redis 10.0.0.13", "Redis runs at 10.0.0.12") == ["10.0.0.13"]
    assert _clashes("node 18.17.2", "node 18.17.1") == ["18.17.2"]
    assert _clashes("192.168.1.51:6390", "on 192.168.1.50:6390") == ["192.168.1.51"]
    # Siblings only (break43): numbers apart before their last group, and two-group numbers, are no clash; a person
    # asking plainly for such a memory must find it: another thing's number, a bind address, a minimum version.
    assert _clashes("10.0.0.13", "at 172.16.0.5") == [] and _clashes("redis 10.0.0.13", "Redis on 0.0.0.0:6379") == []
    assert _clashes("dns 10.0.0.13", "DNS is 1.1.1.1") == [] and _clashes("Postgres 16.5", "pg 16.4") == []
    assert _clashes("python 3.12", "requires python 3.10 or newer") == []
    assert _clashes("node 20.11", "runs node 20 on ubuntu 20.04") == []
    # controls: the number held (beside another), a shorter number asked or held, another major, both asked
    assert _clashes("Redis 10.0.0.13", "Redis runs at 10.0.0.13") == []
    assert _clashes("10.0.0.13", "primary 10.0.0.12, replica 10.0.0.13") == []
    assert _clashes("Redis 10.0.0", "Redis runs at 10.0.0.12") == []  # the prefix asked: both hosts
    assert _clashes("node 18.17.2", "node 18.17") == [] and _clashes("node 18.17.2", "python 3.11.4") == []
    assert _clashes("node 20.1.0", "node 18.17.1") == []  # another major: no value of its shape
    assert _clashes("bump node 18.17.1 to 18.17.2", "node 18.17.1") == []  # the other value is asked too
    assert _clashes("redis host", "Redis runs at 10.0.0.12") == []  # no number asked


def test_a_range_or_a_network_holding_the_number_is_no_clash():
    # A memory covering the asked number states it, in another form: the hosts of a range, a network's addresses.
    assert _clashes("which subnet holds 10.0.0.13", "The app subnet is 10.0.0.0/24") == []
    assert _clashes("10.0.0.13", "Hosts 10.0.0.10-10.0.0.20 form the pool") == []
    assert _clashes("node 18.17.2", "The tools support node >=18.17.0 <18.18.0") == []
    # controls, in the same forms: a network it is not in, a range beside it, one bound alone
    assert _clashes("10.0.0.13", "The 10.0.0.12 host") == ["10.0.0.13"]
    assert _clashes("10.0.0.13", "Hosts 10.0.0.20-10.0.0.30 form the pool") == ["10.0.0.13"]
    assert _clashes("node 18.17.2", "The tools need node >=18.17.3") == ["18.17.2"]


def test_the_repros_list_the_right_memory_first_and_the_sibling_weak(store):
    for query, right, sibling in REPROS:
        found = scored(store, query)  # the sibling was at 0.975, 0.994, 0.938
        assert found == [(right, 0.999), (sibling, 0.004)], (query, found)
        assert dict(found)[sibling] < THRESHOLD * CLASHED  # listed (it shares a word), far under the bar
    assert scored(store, "Redis 10.0.0.12") == [("redis-cache", 0.999), ("redis-queue", 0.004)]  # either way
    assert scored(store, "10.0.0.13") == [("redis-queue", 0.996)]  # the number alone: search41's rule


def test_controls_a_shorter_number_both_numbers_another_major(store):
    assert sorted(top(store, "Redis 10.0.0")) == [("redis-cache", 1.0), ("redis-queue", 1.0)]
    assert sorted(top(store, "node 18.17")) == [("node-ci", 1.0), ("node-tools", 1.0)]
    assert sorted(top(store, "Redis")) == [("redis-cache", 0.99), ("redis-queue", 0.99)]
    assert sorted(scored(store, "node 18.17.1 or 18.17.2")) == [("node-ci", 0.454), ("node-tools", 0.454)]  # no clash
    assert sorted(scored(store, "node 20.1.0")) == [("node-ci", 0.435), ("node-tools", 0.435)]  # no clash: unheld
    assert sorted(scored(store, "Redis 10.0.0.99")) == [("redis-cache", 0.043), ("redis-queue", 0.043)]  # neither


def test_a_memory_holding_the_number_alone_comes_before_the_sibling_holding_the_words(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("redis-host", "Redis host", "project", "Redis runs at 10.0.0.12.")
    mem.write("queue-host", "Queue host", "project", "The queue runs at 10.0.0.13.")
    assert scored(mem, "Redis 10.0.0.13") == [("queue-host", 0.067), ("redis-host", 0.007)]  # were tied at 0.067
    assert scored(mem, "Redis") == [("redis-host", 0.996)]  # control: the word alone finds it whole


def test_recall_gives_the_right_memory_and_not_the_sibling(store):
    for query, right, sibling in REPROS:
        assert [m.name for m in store.recall_result(query).memories] == [right], query
        prompt = f"what is {query} used for?"
        assert [m.name for m in store.recall_result(prompt).memories] == [right], prompt
    assert sorted(m.name for m in store.recall_result("Redis 10.0.0").memories) == ["redis-cache", "redis-queue"]


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_agree(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    for query, right, sibling in REPROS:
        assert cli_search(env, query) == [(right, 1.0), (sibling, 0.0)], query
    found, control = mcp_search(isolated_home, project, "node 18.17.2", "node 18.17")
    assert found.splitlines()[0] == "2 result(s) for 'node 18.17.2':"
    listed = [line for line in found.splitlines() if line.startswith("- ")]
    assert "node-tools" in listed[0] and "relevance 1.00" in listed[0]
    assert "node-ci" in listed[1] and "relevance 0.00" in listed[1]
    assert "node-ci" in control and "node-tools" in control  # control: the shorter number finds both
    for query, right, sibling in REPROS:
        block = hook_block(project, env, f"what is {query} used for?")
        assert f"## {right}" in block and f"## {sibling}" not in block, (query, block)


@pytest.mark.slow
@needs_vectors
def test_real_vectors_the_sibling_stays_weak_and_unrecalled(tmp_path):
    from memdir.search.sync import prepare

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    mem = _store(tmp_path / "home", project, vectors="on")
    prepare(mem.session)
    for query, right, sibling in REPROS:  # meaning lifted the sibling to 0.14-0.48 before
        found = scored(mem, query)
        assert found[0] == (right, 0.999) and dict(found)[sibling] <= 0.05, (query, found)
        assert [m.name for m in mem.recall_result(query).memories] == [right], query


def test_the_panel_lists_the_right_memory_first(store, isolated_home, project, monkeypatch):
    pytest.importorskip("starlette", reason="the panel extra is not installed (pip install 'memdir[panel]')")
    from starlette.testclient import TestClient

    from memdir.integrations.panel.app import create_app
    from memdir.paths import project_key

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    app = create_app(isolated_home, token="test-token-0123456789", csrf="test-csrf-0123456789", port=8765)
    ref = f"{project_key(project.resolve())}:project"
    with TestClient(app, base_url="http://127.0.0.1:8765", follow_redirects=False) as client:
        client.cookies.set("memdir_panel_8765", "test-token-0123456789")
        for query, right, sibling in REPROS:
            data = client.get(f"/api/layers/{ref}/memories", params={"q": query}).json()
            assert data["error"] is None and [m["name"] for m in data["memories"]] == [right, sibling], query
        data = client.get(f"/api/layers/{ref}/memories", params={"q": "Redis 10.0.0"}).json()
        assert sorted(m["name"] for m in data["memories"]) == ["redis-cache", "redis-queue"]  # control: both
