"""A prompt hook run by the warm process changes the session's state only once its answer reached the hook.

Gemini CLI's first prompt (BeforeAgent) gives the session start's held text. The warm process took it off disk,
recorded the recalled bodies as given and sent its answer; the hook had given up waiting (a slow warm process, a
loaded machine), ran the hook itself and found nothing held and the bodies given: the start block and the bodies
were lost, recorded as injected though the agent never got them (:mod:`memdir.prompt.delivery`).

Real things: the hooks and the warm process in subprocesses, real Unix sockets. The slow answer is a real relay
between the hook and the warm process that holds the warm process's answer until the hook has given up."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memdir import Memory, runtime
from memdir.prompt import recalled
from tests.conftest import wait_until

SESSION = "gemini-s1"
BACKUPS = "Database backups run nightly at 02:00 to the cold bucket."
LUNCH = "Team lunch is on Fridays at noon in the cafeteria."
# A warm process as an MCP server hosts it (memdir.integrations.mcp.server): the prompt hooks' code, no model.
SERVE = ("import sys; from memdir.search.warm.server import WarmServer; "
         "from memdir.integrations.claude_code.hooks import answer_warm; "
         "server = WarmServer(sys.argv[1], hooks=answer_warm).start(); server.listening.wait(60); "
         "print('listening', flush=True); sys.stdin.read(); server.close()")


def _env(home: Path) -> dict:
    return dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="off")


def _hook(home: Path, project: Path, event: str, **fields) -> str:
    """What one Gemini CLI hook prints (``python -m memdir.hooks gemini EVENT``), as the client runs it."""
    payload = json.dumps({"session_id": SESSION, "cwd": str(project), "hook_event_name": event, **fields})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "gemini", event], input=payload.encode(),
                          capture_output=True, timeout=120, env=_env(home), check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8")


def _context(out: str) -> str:
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


@pytest.fixture
def gemini_session(short_home, project):
    """A home with two memories and its index, a Gemini session started (its text held for the first prompt),
    a warm process serving the home's prompt hooks; yields ``(home, project, held start text)``."""
    mem = Memory.open(home=short_home, project=project, search_vectors="off")
    mem.write("backups", "database backups", "project", BACKUPS)
    mem.write("lunch", "team lunch", "project", LUNCH)
    mem.search("backups")  # the index is built
    assert _hook(short_home, project, "SessionStart", source="startup") == ""  # held for the first prompt
    held = Path(recalled._held_path(short_home, SESSION, mem.session.root_path)).read_bytes()
    start = held.partition(b"\n")[2].decode("utf-8")
    assert "backups" in start  # the control: the context block names the memories
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(short_home)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=_env(short_home))
    try:
        assert server.stdout.readline() == b"listening\n"
        yield short_home, project, start, mem.session
    finally:
        server.stdin.close()
        server.wait(30)


class SlowRelay:
    """Takes the home's socket path over, relays the hook's request to the warm process (moved aside) and holds
    the warm process's answer until the hook gave up and closed its end; ``answer``: what the warm process sent."""

    def __init__(self, home: Path):
        self.path = runtime.socket_file(home)
        self.aside = self.path + ".warm"
        os.rename(self.path, self.aside)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.answer: dict | None = None
        self.thread = threading.Thread(target=self._relay_one, daemon=True)
        self.thread.start()

    def _relay_one(self) -> None:
        hook, _ = self.listener.accept()
        with hook, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
            request = hook.makefile("rb").readline()
            server.connect(self.aside)
            server.sendall(request)
            self.answer = json.loads(server.makefile("rb").readline())
            hook.settimeout(60)
            assert hook.recv(1) == b""  # the hook gave up and closed: the answer never reaches it

    def close(self) -> None:
        self.thread.join(60)
        self.listener.close()
        os.replace(self.aside, self.path)  # the warm process answers directly again


def test_a_warm_answer_the_hook_gave_up_on_changes_nothing_and_the_hook_gives_the_block_itself(gemini_session):
    home, project, start, session = gemini_session
    relay = SlowRelay(home)
    try:
        first = _context(_hook(home, project, "BeforeAgent", prompt="when do the database backups run?"))
    finally:
        relay.close()
    # The warm process ran the hook: its answer held the start text and the body, and never reached the hook.
    assert relay.answer is not None
    undelivered = _context(relay.answer["stdout"])
    assert undelivered.startswith(start) and BACKUPS in undelivered
    # The hook's own run gave them: the start text first, once, then the recalled body.
    assert first.startswith(start) and first.count(start) == 1 and first.count(BACKUPS) == 1
    assert LUNCH not in first
    # Given once: the next prompt (the warm process answers it) gives neither again, and recalls the other memory.
    second = _context(_hook(home, project, "BeforeAgent", prompt="when is team lunch?"))
    assert LUNCH in second and start not in second and BACKUPS not in second
    # One giving of each body recorded (a warm process that recorded its undelivered answer made backups 2). The
    # warm process records the second answer's giving once the hook says it has it, after the hook may have exited:
    # every taking is summed (take_unread counts each giving once) until both are in.
    taken: dict[str, int] = {}

    def both_taken() -> bool:
        for key, n in recalled.take_unread(home, SESSION, session.root_path).items():
            taken[key] = taken.get(key, 0) + n
        return len(taken) == 2

    wait_until(both_taken, "both givings recorded")
    assert taken == {"project/backups": 1, "project/lunch": 1}


def test_a_warm_answer_delivered_gives_the_block_once(gemini_session):
    home, project, start, session = gemini_session
    first = _context(_hook(home, project, "BeforeAgent", prompt="when do the database backups run?"))
    assert first.startswith(start) and first.count(start) == 1 and first.count(BACKUPS) == 1
    wait_until(lambda: not os.path.exists(recalled._held_path(home, SESSION, session.root_path)),
               "the warm process removed the start text it gave", 30)
    second = _context(_hook(home, project, "BeforeAgent", prompt="when do the database backups run?"))
    assert start not in second and BACKUPS not in second and "backups" in second  # named only, not given again
    assert recalled.take_unread(home, SESSION, session.root_path) == {"project/backups": 1}
