"""A warm process whose socket takes a prompt hook's request and never answers (stopped by SIGSTOP, wedged)
costs one prompt the hook timeout, not every prompt: the next hooks of the home ask nothing of it for
memdir.runtime.STALL_SKIP s (memdir.runtime.note_stall, stalled); a new process (a new socket) is asked at once.
break19: every prompt took 6.1 s with the warm process stopped (0.08 s warm), now 5.9 s once, then 0.5-0.7 s.

Real Unix sockets in a runtime directory of the test's own; a server that accepts and says nothing stands for a
stopped process (the kernel accepts into its queue for one)."""

from __future__ import annotations

import json
import os
import socket
import threading
import time

from memdir import runtime as sockets
from memdir.search import warm
from memdir.version import code_identity

HOOK = {"client": "claude-code", "event": "UserPromptSubmit", "input": "{}", "home": "", "environ": {}}


class Server:
    """Listens on ``path`` (bound beside it, then renamed over it: a new inode even while the old one stays open);
    counts the connections it accepts; ``answer`` (a dict) is sent back to each request, else nothing ever is."""

    def __init__(self, path, answer=None):
        self.accepted, self.held, self.answer = 0, [], answer
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(f"{path}.new")
        os.replace(f"{path}.new", path)
        self.sock.listen(8)
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(client)
            if self.answer is not None:
                client.makefile("rb").readline()
                client.sendall(json.dumps({**self.answer, "code": code_identity()}).encode() + b"\n")

    def close(self):
        self.sock.close()
        for client in self.held:
            client.close()


def test_a_hook_left_unanswered_is_not_waited_for_again_until_a_new_process_listens(tmp_path, runtime, monkeypatch):
    monkeypatch.setattr(warm, "HOOK_TIMEOUT", 0.6)
    home = tmp_path / "home"
    home.mkdir()
    path = warm.socket_path(home, create=True)
    silent = Server(path)
    try:
        assert warm.run_hook(home, {**HOOK, "home": str(home)}) is None
        assert silent.accepted == 1  # the first prompt asked it, waited, and ranks by words
        assert warm.run_hook(home, {**HOOK, "home": str(home)}) is None
        assert warm.ask(home, "redis ttl", ["_user"], 1) is None
        assert silent.accepted == 1  # not asked again: no second wait
        assert sockets.stalled(home, str(path))
        assert not sockets.stalled(home, str(path), now=time.time() + sockets.STALL_SKIP + 1)  # asked again later
        answering = Server(path, answer={"stdout": "recalled", "stderr": None})  # a new process on the socket
        try:
            assert warm.run_hook(home, {**HOOK, "home": str(home)}) == {"stdout": "recalled", "stderr": None,
                                                                        "code": code_identity()}
            assert warm.run_hook(home, {**HOOK, "home": str(home)})["stdout"] == "recalled"
            assert answering.accepted == 2 and silent.accepted == 1  # control: one that answers is asked every time
        finally:
            answering.close()
    finally:
        silent.close()


def test_a_warm_process_that_answers_is_never_marked(tmp_path, runtime):
    home = tmp_path / "home"
    home.mkdir()
    path = warm.socket_path(home, create=True)
    server = Server(path, answer={"stdout": "recalled", "stderr": None})
    try:
        for _ in range(3):
            assert warm.run_hook(home, {**HOOK, "home": str(home)})["stdout"] == "recalled"
        assert server.accepted == 3
        assert not (home / sockets.STALL_FILE).exists() and not sockets.stalled(home, str(path))
    finally:
        server.close()
