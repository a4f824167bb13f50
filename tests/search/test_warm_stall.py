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

import pytest

from memdir import runtime as sockets
from memdir.search import warm
from memdir.version import code_identity

HOOK = {"client": "claude-code", "event": "UserPromptSubmit", "input": "{}", "home": "", "environ": {}}


class Server:
    """Listens on ``path`` (bound beside it, then renamed over it: a new inode even while the old one stays open);
    counts the connections it accepts; ``answer`` (a dict) is sent back to each request, ``send(client)`` run
    in a thread of its own for each, else nothing is ever sent."""

    def __init__(self, path, answer=None, send=None):
        self.accepted, self.held, self.answer, self.send = 0, [], answer, send
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
            if self.send is not None:
                threading.Thread(target=self.send, args=(client,), daemon=True).start()
            elif self.answer is not None:
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


def _trickle(client):
    try:
        while True:
            client.sendall(b" ")
            time.sleep(0.1)
    except OSError:
        return


def _endless(client):
    try:
        while True:
            client.sendall(b"x" * 65536)
    except OSError:
        return


@pytest.mark.parametrize("send", [_trickle, _endless])
def test_an_answer_that_never_ends_its_line_is_not_waited_for_past_the_hook_timeout(tmp_path, runtime, monkeypatch,
                                                                                   send):
    """A peer sending a byte every 0.1 s held a hook for good (each recv had its own timeout); one sending bytes
    with no newline held it past 120 s (the 64 MB limit read in quadratic time)."""
    monkeypatch.setattr(warm, "HOOK_TIMEOUT", 1.0)
    home = tmp_path / "home"
    home.mkdir()
    path = warm.socket_path(home, create=True)
    server = Server(path, send=send)
    answers = []
    try:
        asker = threading.Thread(target=lambda: answers.append(warm.run_hook(home, {**HOOK, "home": str(home)})),
                                 daemon=True)
        asker.start()
        asker.join(60)  # a hang guard, not a speed target: the hook gives up after HOOK_TIMEOUT
        assert answers == [None] and server.accepted == 1  # by words, in this process
        answering = Server(path, answer={"stdout": "recalled", "stderr": None})
        try:
            assert warm.run_hook(home, {**HOOK, "home": str(home)})["stdout"] == "recalled"  # control
        finally:
            answering.close()
    finally:
        server.close()


def test_a_mark_that_cannot_be_put_in_place_leaves_no_part(tmp_path):
    """break20: a directory where the stall mark goes made os.replace fail and left ``.warm.stalled.<pid>`` in the
    home, one per process that marked. Control: the mark is written and read where it can be."""
    runtime = sockets
    home = tmp_path / "home"
    home.mkdir()
    sock = home / "sock"
    sock.write_text("")
    (home / runtime.STALL_FILE).mkdir()
    runtime.note_stall(home, str(sock))
    assert sorted(os.listdir(home)) == ["sock", runtime.STALL_FILE]  # was also .warm.stalled.<pid>
    assert runtime.stalled(home, str(sock)) is False
    (home / runtime.STALL_FILE).rmdir()
    runtime.note_stall(home, str(sock))
    assert sorted(os.listdir(home)) == ["sock", runtime.STALL_FILE] and runtime.stalled(home, str(sock)) is True
