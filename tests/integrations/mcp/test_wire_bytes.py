"""The real `memdir mcp` fed bytes a JSON-RPC line should not hold: bytes that are not UTF-8 (once
written into the memory as U+FFFD, answered as a success), a key twice in one object (which one
counts is the parser's choice), and a byte-order mark (once a parse error with id null, so the
client's initialize never got its answer)."""

from __future__ import annotations

import json
import os

import pytest

from memdir import Memory
from tests.integrations.mcp.test_stdio import TIMEOUT, RawSession

pytestmark = pytest.mark.slow  # a real subprocess

INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bytes-test", "version": "0"}}


def _write(id: int, name: str, description: bytes) -> bytes:
    return (b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "memory_write", '
            b'"arguments": {"name": "%s", "description": "%s", "type": "project", "body": "b"}}}\n'
            % (id, name.encode(), description))


def test_bytes_that_are_not_utf8_duplicate_keys_and_a_bom(isolated_home, project):
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off", MEMDIR_HOME=str(isolated_home))
    env.pop("MEMDIR_PROJECT", None)
    session = RawSession(cwd=project, env=env)
    try:
        session.proc.stdin.write(b"\xef\xbb\xbf" + json.dumps(
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT}).encode() + b"\r\n")
        session.proc.stdin.flush()
        init = json.loads(session._q.get(timeout=TIMEOUT))
        assert init["id"] == 0 and init["result"]["serverInfo"]["name"] == "memdir"  # the mark was ignored
        session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        sent = [_write(1, "latin", b"caf\xe9 in Latin-1"),                      # not UTF-8
                _write(2, "torn", b"half a character \xc3"),                   # a torn sequence
                b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_write", '
                b'"arguments": {"name": "first", "name": "second", "description": "d", "type": "project"}}}\n',
                b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9, "reason": "x\xff"}}\n',
                _write(4, "utf8", "café in UTF-8".encode())]                   # control
        for line in sent:
            session.proc.stdin.write(line)
        session.proc.stdin.flush()
        replies = {r["id"]: r for r in (json.loads(session._q.get(timeout=TIMEOUT)) for _ in range(4))}
    finally:
        session.close()
    not_utf8 = "Invalid params: the message holds bytes that are not UTF-8 (JSON text is UTF-8); nothing was done"
    assert replies[1]["error"] == {"code": -32602, "message": not_utf8}
    assert replies[2]["error"] == {"code": -32602, "message": not_utf8}
    assert replies[3]["error"] == {"code": -32602, "message": "Invalid params: the key 'name' appears twice in one "
                                                             "object; send it once"}
    assert replies[4]["result"]["isError"] is False  # the control, after the notification that got no reply
    mem = Memory.open(home=isolated_home, project=project)
    assert [(m.name, m.description) for m in mem.list().memories] == [("utf8", "café in UTF-8")]
