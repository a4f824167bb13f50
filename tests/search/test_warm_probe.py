"""``memdir doctor``'s look at the warm process (:func:`memdir.search.warmth.probe`) starts nothing and tells its
states apart (warm41): none listening, listening but busy, still loading, ready. It used to send a query request,
which started the model's load, and waited 0.5 s: a busy or loading process read as "no warm search process listens".

Real sockets, a real WarmServer in this process; the model's load is a stand-in held on an event (the states are
the question, not the model: tests/search/test_warm_exit.py loads the real one)."""

from __future__ import annotations

import threading

from memdir import Memory
from memdir.search import warm, warmth

from .heldload import held_store


def _notes(mem) -> list[str]:
    return [n for n in mem.doctor().to_dict()["notes"] if "warm search process" in n]  # doctor's JSON


def _server(isolated_home, project, runtime, monkeypatch, hooks=None):
    mem, loaded = held_store(isolated_home, project, monkeypatch)
    server = warm.WarmServer(isolated_home, hooks=hooks).start()
    assert server.listening.wait(10)
    return mem, server, loaded


def test_doctor_says_none_loading_and_ready_and_its_probe_starts_no_load(isolated_home, project, runtime, monkeypatch):
    mem, server, loaded = _server(isolated_home, project, runtime, monkeypatch, hooks=lambda hook, dense: {})
    path = warm.socket_path(isolated_home)
    try:
        before = server.last_request
        assert warmth.probe(isolated_home) == {"state": "unloaded", "loading_for": None, "hooks": True}
        assert _notes(mem) == [] and server._loader is None  # looked at: no load begun (the probe used to begin it)
        assert server.last_request == before  # nor its idle time reset
        server._start_loading()  # what the first request that needs the model does
        assert server.loading()
        found = warmth.probe(isolated_home)
        assert found["state"] == "loading" and found["hooks"] is True and 0 <= found["loading_for"] < 60
        said = _notes(mem)
        assert said == [(f"the warm search process at {path} listens and is still loading the embedding model (for "
                         f"{said[0].split('(for ')[1].split(' s)')[0]} s); until it has, a prompt hook recalls by "
                         "words alone")]
        assert not any("no warm search process listens" in n for n in said)  # the old reading of a loading one
        loaded.set()
        assert server._loaded.wait(10) and server.warm.is_set()
        assert warmth.probe(isolated_home) == {"state": "ready", "loading_for": None, "hooks": True}
        assert _notes(mem) == []  # ready: nothing to say (control: the same server said it was loading)
    finally:
        loaded.set()
        server.close()
    assert warmth.probe(isolated_home)["state"] == "none"
    assert _notes(mem)[0].startswith(f"no warm search process listens at {path}")


def test_doctor_says_a_busy_warm_process_listens(isolated_home, project, runtime, monkeypatch):
    """A prompt hook being answered holds the serving thread: doctor's probe, past its limit, says the process
    listens and is busy; once the hook is answered, ready (the control)."""
    release, entered = threading.Event(), threading.Event()

    def hooks(hook, dense):
        entered.set()
        release.wait(30)
        return {"stdout": "", "stderr": None}

    mem, server, loaded = _server(isolated_home, project, runtime, monkeypatch, hooks=hooks)
    loaded.set()
    monkeypatch.setattr(warmth, "PROBE_TIMEOUT", 0.3)
    path = warm.socket_path(isolated_home)
    hook = {"client": "claude-code", "event": "UserPromptSubmit", "input": {}, "home": str(isolated_home),
            "environ": {}}
    asker = threading.Thread(target=warm.request, args=(isolated_home, {"hook": hook, "wait": 0}), kwargs={"timeout": 30})
    try:
        server._start_loading()
        assert server._loaded.wait(10) and server.warm.is_set()
        asker.start()
        assert entered.wait(10)
        assert warmth.probe(isolated_home) == {"state": "busy", "loading_for": None, "hooks": None}
        assert _notes(mem) == [(f"a warm search process listens at {path} but did not answer within 0.3 s (busy "
                                f"answering a prompt hook, or stuck); a prompt hook waits at most "
                                f"{warm.HOOK_TIMEOUT:g} s for it, then recalls by words alone")]
        release.set()
        asker.join(30)
        monkeypatch.setattr(warmth, "PROBE_TIMEOUT", 30.0)  # the queued probes, then a first collection (_settle)
        assert warmth.probe(isolated_home)["state"] == "ready" and _notes(mem) == []
    finally:
        release.set()
        server.close()


def test_doctor_says_a_warm_process_of_other_code_and_leaves_it_running(isolated_home, project, runtime, monkeypatch):
    """The probe names no code: a server of another memdir answers it (nothing run) and is not replaced (a request
    naming this code would ask it to stop and start another)."""
    mem, server, loaded = _server(isolated_home, project, runtime, monkeypatch)
    loaded.set()
    server.code = "older"
    path = warm.socket_path(isolated_home)
    try:
        assert warmth.probe(isolated_home)["state"] == "other code"
        assert _notes(mem) == [(f"the warm search process at {path} runs another memdir than this one (started "
                                "before an upgrade or an edit of its code); the next prompt hook replaces it and "
                                "recalls by words alone meanwhile")]
        assert not server.outdated and warm.listening(isolated_home) and server._loader is None  # left as it was
    finally:
        server.close()


def test_a_probe_answers_the_index_generation_and_starts_no_load(isolated_home, project, runtime, monkeypatch):
    """The probe's answer carries the index generation the server answers queries at (what tests/conftest.py's
    ``warm_why`` reports when a warm test fails; it used to send a query, which began the model's load), read-only:
    a search that moves the generation moves the probe's too, and no load begins. Control: a home with no index yet
    answers no generation, and the probe makes none."""
    from memdir.search.index import connect, db_path
    from memdir.search.memo import generation

    mem, server, loaded = _server(isolated_home, project, runtime, monkeypatch)
    words = Memory.open(home=isolated_home, project=project, search_vectors="off")  # a search that embeds nothing
    try:
        words.search("PostgreSQL")  # the index, built and synced
        at = generation(connect(isolated_home))
        assert isinstance(at, int)
        answer = warm.look(isolated_home, 10.0)
        assert answer == {"state": "unloaded", "loading_for": None, "hooks": False, "generation": at,
                          "code": server.code}
        mem.write("ci", "CI runs on GitHub Actions", "project", "Workflow ci.yml.")
        words.search("GitHub")  # syncs the new memory: a new generation
        moved = generation(connect(isolated_home))
        assert moved != at and warm.look(isolated_home, 10.0)["generation"] == moved
        assert server._loader is None and not loaded.is_set()  # looked at twice: still no load begun
    finally:
        loaded.set()
        server.close()
    bare = isolated_home.parent / "bare-home"
    bare.mkdir()
    other = warm.WarmServer(bare).start()
    try:
        assert other.listening.wait(10)
        assert warm.look(bare, 10.0)["generation"] is None
        assert not db_path(bare).exists()  # the probe made no index
    finally:
        other.close()
