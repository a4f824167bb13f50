"""The real `memdir mcp` subprocess over stdio: raw JSON-RPC lines, and the SDK's stdio client."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading

import anyio
import pytest
from mcp import Client, StdioServerParameters

from memdir.paths import project_layer_dir

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

TIMEOUT = 30


class RawSession:
    """A `memdir mcp` process driven line by line; every stdout line is kept."""

    def __init__(self, cwd, env, roots=None):
        self.proc = subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[str] = []
        self.roots = roots
        self._q: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self._id = 0

    def _pump(self):
        for raw in self.proc.stdout:
            self._q.put(raw.decode("utf-8"))
        self._q.put(None)

    def send(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> dict:
        self._id += 1
        msg = {"jsonrpc": "2.0", "id": self._id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        while True:
            line = self._q.get(timeout=TIMEOUT)
            assert line is not None, "server closed stdout"
            self.lines.append(line)
            data = json.loads(line)
            if data.get("method") == "roots/list" and "id" in data:  # a server-to-client request
                self.send({"jsonrpc": "2.0", "id": data["id"],
                           "result": {"roots": [{"uri": r.as_uri()} for r in self.roots or []]}})
                continue
            if data.get("id") == self._id:
                return data

    def close(self) -> tuple[str, str]:
        self.proc.stdin.close()
        rest = self.proc.stdout.read()  # the pump may hold lines already; drain both
        self.proc.wait(timeout=TIMEOUT)
        while True:
            try:
                line = self._q.get(timeout=TIMEOUT)  # the pump's None (its EOF) ends it: 1 s lost lines under load
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
        return (rest or b"").decode(), self.proc.stderr.read().decode()


def test_stdio_jsonrpc_only_on_stdout(isolated_home, project, tmp_path):
    # a malformed memory file is there before the server starts
    layer = project_layer_dir(isolated_home, project)
    layer.mkdir(parents=True)
    (layer / "broken.md").write_bytes(b"---\nname: [unclosed\n---\n\xff\xfe")
    env = dict(os.environ, PYTHONWARNINGS="always", MEMDIR_SEARCH_VECTORS="off")
    env.pop("MEMDIR_PROJECT", None)
    session = RawSession(cwd=tmp_path, env=env, roots=[project])  # launch dir is not the project: roots are
    try:
        init = session.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {"roots": {"listChanged": True}},
            "clientInfo": {"name": "raw-test", "version": "0"}})
        assert init["result"]["serverInfo"]["name"] == "memdir"
        assert "call memory_list for the index" in init["result"]["instructions"]
        session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = session.request("tools/list")["result"]["tools"]
        assert len(tools) == 11 and tools[0]["name"] == "memory_write"
        assert tools[6]["annotations"]["destructiveHint"] is True

        write = session.request("tools/call", {"name": "memory_write", "arguments": {
            "name": "deploy-key", "description": "Where the deploy token lives", "type": "reference",
            "body": "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 in the vault"}})
        text = write["result"]["content"][0]["text"]
        assert write["result"]["isError"] is False
        assert text.startswith("Memory created: deploy-key (project)") and "redacted" in text
        read = session.request("tools/call", {"name": "memory_read", "arguments": {"name": "deploy-key"}})
        body = read["result"]["content"][0]["text"]
        assert "[REDACTED:github-token]" in body and "ghp_abcdef" not in body
        listed = session.request("tools/call", {"name": "memory_list", "arguments": {}})
        assert "broken.md" in listed["result"]["content"][0]["text"]  # reported, not fatal
        found = session.request("tools/call", {"name": "memory_search", "arguments": {"query": "deploy token"}})
        found_text = found["result"]["content"][0]["text"]
        if found["result"]["isError"]:
            assert "search is not available" in found_text
        else:
            assert found_text.splitlines()[1].startswith("- deploy-key (type: reference; layer: project)")
        bad = session.request("tools/call", {"name": "memory_delete_all", "arguments": {"confirm": False}})
        assert bad["result"]["isError"] is True
    finally:
        tail, stderr = session.close()
    assert session.lines and not tail.strip()
    for line in session.lines:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
    # the memory went to the project from the client's roots, not the launch directory
    assert (layer / "deploy-key.md").is_file()
    assert not project_layer_dir(isolated_home, tmp_path).exists()
    # roots are asked through the SDK's current API: no deprecation warning, even with every warning shown
    assert "MCPDeprecationWarning" not in stderr and "deprecated" not in stderr


def test_malformed_jsonrpc_gets_its_error_reply(isolated_home, project):
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off")
    session = RawSession(cwd=project, env=env)
    try:
        session.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                       "clientInfo": {"name": "raw-test", "version": "0"}})
        session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        sent = ['{"jsonrpc": "2.0", "id": 7, "method": "tools/list"',            # cut short: not JSON
                '{"jsonrpc": "1.0", "id": 8, "method": "tools/list"}',
                '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": "str"}',
                '{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}',
                '[{"jsonrpc": "2.0", "id": 10, "method": "tools/list"}]',
                '{"jsonrpc": "2.0", "id": 11, "method": "tools/list"}']          # control: a good request
        for line in sent:
            session.proc.stdin.write(line.encode() + b"\n")
        session.proc.stdin.flush()
        replies = [json.loads(session._q.get(timeout=TIMEOUT)) for _ in sent]
    finally:
        session.close()
    assert [(r["id"], r["error"]["code"]) if isinstance(r, dict) and "error" in r else r for r in replies[:5]] == [
        (None, -32700), (8, -32600), (9, -32602), (None, -32600),
        [{"jsonrpc": "2.0", "id": 10, "error": {"code": -32600,
                                               "message": "Invalid Request: batches are not supported"}}]]
    assert replies[5]["id"] == 11 and len(replies[5]["result"]["tools"]) == 11


def test_sdk_stdio_client(isolated_home, project):
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off")
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                   cwd=str(project))

    async def main():
        async with Client(params, mode="legacy") as client:
            r = await client.call_tool("memory_write", {"name": "lang", "description": "Answers in English",
                                                        "type": "user", "body": "", "scope": "user"})
            assert r.content[0].text == "Memory created: lang (user)"
            r = await client.call_tool("memory_write", {"name": "ci", "description": "CI runs on push",
                                                        "type": "project", "body": ""})
            assert r.content[0].text == "Memory created: ci (project)"

    anyio.run(main)
    assert (project_layer_dir(isolated_home, project) / "ci.md").is_file()
    assert (isolated_home / "_user" / "lang.md").is_file()


def test_hostile_messages_get_a_reply_and_the_server_lives_on(isolated_home, project):
    from memdir.integrations.mcp.wire import MAX_LINE_CHARS
    from memdir.search.tokenize import MAX_QUERY_CHARS

    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off")
    session = RawSession(cwd=project, env=env)
    try:
        session.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                       "clientInfo": {"name": "raw-test", "version": "0"}})
        session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        deep = "[" * 100_000 + "]" * 100_000
        sent = ['{"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "memory_search", '
                '"arguments": {"query": ' + deep + '}}}',
                '{"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "memory_search", '
                '"arguments": {"query": "\\ud800x"}}}',
                '{"jsonrpc": "2.0", "id": null, "method": "tools/list"}',
                '{"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {"name": "memory_search", '
                '"arguments": {"query": "' + "x" * (MAX_LINE_CHARS + 10) + '"}}}',
                json.dumps({"jsonrpc": "2.0", "id": 23, "method": "tools/call",
                            "params": {"name": "memory_search", "arguments": {"query": "port " * MAX_QUERY_CHARS}}}),
                '{"jsonrpc": "2.0", "id": 24, "method": "tools/list"}']          # control: a good request
        for line in sent:
            session.proc.stdin.write(line.encode() + b"\n")
        session.proc.stdin.flush()
        replies = [json.loads(session._q.get(timeout=TIMEOUT)) for _ in sent]
        alive = session.proc.poll() is None
    finally:
        session.close()
    # before: RecursionError killed the server (exit 1); no reply to the surrogate or the null id
    assert alive
    assert [(r["id"], r["error"]["code"]) for r in replies[:4]] == [
        (None, -32700), (21, -32602), (None, -32600), (22, -32600)]
    assert "nested too deeply" in replies[0]["error"]["message"]
    assert "surrogate" in replies[1]["error"]["message"]
    assert f"at most {MAX_LINE_CHARS}" in replies[3]["error"]["message"]
    assert replies[4]["id"] == 23 and replies[4]["result"]["isError"]
    assert f"at most {MAX_QUERY_CHARS}" in replies[4]["result"]["content"][0]["text"]
    assert replies[5]["id"] == 24 and len(replies[5]["result"]["tools"]) == 11


@pytest.mark.parametrize("missing", ["anyio", "mcp", "mcp_types"])
def test_memdir_mcp_without_the_extra_names_it(missing):
    """Without the mcp extra (any of its packages), `memdir mcp` says what to install — no traceback."""
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            "from memdir.integrations.cli.main import main\n"
            "sys.exit(main(['mcp']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    from memdir.version import install_command

    assert f"memdir mcp needs the 'mcp' package, which is not installed: {install_command('mcp')}" in done.stderr
    assert "Traceback" not in done.stderr
