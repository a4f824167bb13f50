"""A prompt that comes while the first-session build runs waits for it instead of building the index beside it.

Before, the session's first prompt hook in a home with memories and no index built the index itself, in parallel
with the build SessionStart had started (:mod:`memdir.search.warm.first`): twice the work, two writers of one new
index. Now the build's launch is recorded as the warm process's (it starts it), and the prompt hook waits for it,
bounded (:func:`memdir.search.warm.run_hook`). Real processes: the hooks, the detached build; the build is stopped
(SIGSTOP) while the prompt comes, so the prompt's choice is seen, then let go.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from memdir import Memory
from memdir.search.warm import first
from tests.conftest import _processes, wait_until

WAIT = 120.0  # seconds allowed for a process on a loaded machine (a wait for an event, not an assertion)
HELD = 10.0  # seconds the build is held stopped while the prompt comes
CI = "GitHub Actions is our CI"
PORT = "PostgreSQL listens on 5433"


def _payload(project: Path, event: str, **fields) -> str:
    return json.dumps({"session_id": "s-1", "cwd": str(project), "hook_event_name": event, **fields})


def _build_of(home: Path) -> int:
    """The pid of the first-session build of ``home`` (SessionStart started it: it is running or done)."""
    module = first.COMMAND[1].encode()
    for pid, argv in _processes():
        if module in argv and os.fsencode(home) in argv:
            return int(pid)
    raise AssertionError(f"no first-session build of {home} runs: {(home / 'embed.log').read_text()}")


def _opened(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` open."""
    folder = f"/proc/{pid}/fd"
    links = []
    for fd in os.listdir(folder):
        try:
            links.append(os.readlink(os.path.join(folder, fd)))
        except OSError:  # closed meanwhile
            continue
    return str(path) in links


def _rows(home: Path) -> int:
    """Memories in the home's index (0 without one)."""
    if not (home / "index.sqlite").exists():
        return 0
    conn = sqlite3.connect(f"file:{home / 'index.sqlite'}?mode=ro", uri=True, timeout=WAIT)
    try:
        return conn.execute("SELECT count(*) FROM docs").fetchone()[0]
    except sqlite3.OperationalError:  # no table yet: the file is being made
        return 0
    finally:
        conn.close()


def test_the_first_prompt_waits_for_the_build_and_then_recalls_from_its_index(tmp_path, project):
    home = tmp_path / "home"
    mem = Memory.open(home=home, project=project, search_vectors="off")
    mem.write("gha", CI, "project", "GitHub Actions compiles and tests every pull request.")
    mem.write("pg-port", PORT, "project", "PostgreSQL listens on port 5433 on the dev machine.")
    assert not (home / "index.sqlite").exists()
    # words only (no warm process); the prompt may wait for the build as long as this test holds it stopped
    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="off", MEMDIR_STARTING_WAIT="60")
    hook = [sys.executable, "-m", "memdir.hooks", "claude-code"]
    started = subprocess.run([*hook, "SessionStart"], input=_payload(project, "SessionStart", source="startup"),
                             capture_output=True, text=True, env=env, timeout=WAIT, check=True)
    assert CI in started.stdout  # the context block, from the files
    build = _build_of(home)
    os.kill(build, signal.SIGSTOP)
    try:
        prompt = subprocess.Popen([*hook, "UserPromptSubmit"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)
        prompt.stdin.write(_payload(project, "UserPromptSubmit", prompt="Which port does PostgreSQL listen on?"))
        prompt.stdin.close()
        # Time for a prompt hook that does not wait to open the index and index both memories (≈ 1-2 s; more on a
        # loaded machine): one that waits never opens it while the build is held.
        deadline = time.monotonic() + HELD
        while time.monotonic() < deadline and prompt.poll() is None and not _opened(prompt.pid, home / "index.sqlite"):
            time.sleep(0.05)
        assert prompt.poll() is None  # it waits for the build
        assert not _opened(prompt.pid, home / "index.sqlite")  # and neither reads nor writes the index meanwhile
        indexed_meanwhile = _rows(home)
    finally:
        os.kill(build, signal.SIGCONT)
    out, err = prompt.stdout.read(), prompt.stderr.read()  # small: read to the end, then reaped
    prompt.wait(timeout=WAIT)
    assert prompt.returncode == 0, err
    assert indexed_meanwhile < 2  # the prompt built nothing while the build was held: the build indexes them
    assert "port 5433 on the dev machine" in out, err  # control: the build done, the prompt recalls from its index
    wait_until(lambda: "first session: 2 memories indexed" in (home / "embed.log").read_text(),
               "the build's line", WAIT)
    assert _rows(home) == 2
