"""``memdir mcp`` against clients and environments that misbehave (break round 26): a client that stops
reading mid-stream, one that sends its calls and closes stdin, a 5 MB argument, the server started with
stdin or stdout closed. Real server processes over real pipes; the SDK's client where a client's view counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from memdir.paths import project_layer_dir

pytestmark = pytest.mark.slow  # real server processes

INIT = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def _env() -> dict:
    return dict(os.environ, MEMDIR_SEARCH_VECTORS="off")


def _call(id: int, name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def _write(n: int) -> dict:
    return _call(100 + n, "memory_write", {"name": f"pipe-{n}", "description": f"Pipelined write number {n}",
                                           "type": "project", "body": f"body {n}"})


def _server(project, close: int | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp"], cwd=project, env=_env(),
                            stdin=subprocess.PIPE if close != 0 else None,
                            stdout=subprocess.PIPE if close != 1 else None, stderr=subprocess.PIPE,
                            preexec_fn=(lambda: os.close(close)) if close is not None else None)


def _names(home, project) -> set[str]:
    return {p.stem for p in project_layer_dir(home, project).glob("*.md") if p.name != "MEMORY.md"}


def test_calls_sent_then_stdin_closed_all_get_their_reply(isolated_home, project):
    calls = [_write(n) if n % 2 == 0 else _call(100 + n, "memory_read", {"name": f"pipe-{n - 1}"})
             for n in range(400)]
    proc = _server(project)
    out, err = proc.communicate("".join(json.dumps(m) + "\n" for m in INIT + calls).encode(), timeout=600)
    replies = [json.loads(line) for line in out.decode().splitlines()]
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()[-2000:]
    # before: the SDK cancelled the calls still running at stdin's end: 175 of 400 replies missing, their writes done
    assert sorted(r["id"] for r in replies) == [1, *range(100, 500)]
    assert not any(r.get("error") or r["result"].get("isError") for r in replies)
    read = next(r for r in replies if r["id"] == 499)["result"]["content"][0]["text"]
    assert "Pipelined write number 398" in read
    assert _names(isolated_home, project) == {f"pipe-{n}" for n in range(0, 400, 2)}


def test_a_client_that_stops_reading_ends_the_server_quietly(isolated_home, project):
    proc = _server(project)
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in INIT).encode())
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1  # control: the client was heard and answered
    proc.stdout.close()  # the client stops reading (it exited, its end of the pipe closed)
    proc.stdin.write("".join(json.dumps(_write(n)) + "\n" for n in range(20)).encode())
    proc.stdin.flush()
    time.sleep(1)
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=120) == 0
    err = proc.stderr.read().decode()
    assert "Traceback" not in err, err[-2000:]
    assert "the client closed its end of the connection (Broken pipe); stopping" in err
    done = subprocess.run([sys.executable, "-m", "memdir.cli", "verify"], cwd=project, env=_env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout  # what ran before the server stopped is whole


def test_a_server_started_with_stdout_closed_never_writes_the_wire_into_a_file_it_opens(isolated_home, project):
    proc = _server(project, close=1)
    out = proc.communicate("".join(json.dumps(m) + "\n" for m in [*INIT, _write(0)]).encode(), timeout=120)[1]
    # before: fd 1 was the first thing opened (the warm search socket): the wire wrote into it and died
    assert proc.returncode == 0 and b"Traceback" not in out, out.decode()[-2000:]
    assert _names(isolated_home, project) == {"pipe-0"}


def test_a_server_started_with_stdin_closed_ends_at_once(isolated_home, project):
    proc = _server(project, close=0)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()[-2000:]  # before: exit 1, EINVAL
    assert out == b""  # nothing was asked, nothing said


def test_a_five_megabyte_argument_gets_its_error_and_the_session_lives_on(isolated_home, project):
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=_env(),
                                   cwd=str(project))
    seen: dict = {}

    async def main():
        async with Client(params, mode="legacy") as client:
            with anyio.fail_after(120):  # before: no reply ever came (the error's id was null)
                try:
                    await client.call_tool("memory_write", {"name": "big", "description": "Five megabytes",
                                                            "type": "project", "body": "x" * (5 << 20)})
                except MCPError as exc:
                    seen["error"] = str(exc)
                done = await client.call_tool("memory_write", {"name": "small", "description": "A small one",
                                                               "type": "project", "body": "fits"})
                seen["after"] = done.content[0].text

    anyio.run(main)
    assert seen["error"].startswith("Invalid Request: a message of 52")
    assert seen["after"] == "Memory created: small (project)"  # control
    assert _names(isolated_home, project) == {"small"}


@pytest.mark.parametrize(("head", "tail", "id"), [
    ('{"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {', 'x"}}}\n', 22),  # Python SDK order
    ('{"method": "tools/call", "params": {"arguments": {"body": "', 'x"}}, "jsonrpc": "2.0", "id": 7}\n', 7),  # TS
    ('{"method": "tools/call", "params": {"arguments": {"body": "', 'x", "id": 7}}}\n', None),  # a nested id
    ('{"method": "tools/call", "params": {"arguments": {"body": "', 'x\\", \\"id\\": 7}"}}}\n', None),  # in a string
    ('{"id": "req-9", "method": "x", "params": {', '}}\n', "req-9"),
    ('{"id": null, "method": "x", "params": {', '}}\n', None),
])
def test_the_id_of_a_message_too_long_to_parse(head, tail, id):
    from memdir.integrations.mcp.wire import line_id

    assert line_id(head, tail) == id


@pytest.mark.parametrize(("arguments", "kind"), [('{"name": "s", "description": "d"}', "a string"),
                                                  (["name", "s"], "an array"), (7, "a number")])
def test_tool_arguments_that_are_not_an_object_say_so(arguments, kind):
    from memdir.integrations.mcp.wire import check_line

    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "memory_write", "arguments": arguments}}
    reply = check_line(json.dumps(call))
    # before: the SDK's "Invalid request parameters" with empty data, nothing saying what was wrong
    assert reply == {"jsonrpc": "2.0", "id": 5, "error": {"code": -32602, "message": (
        f"Invalid params: tools/call arguments must be a JSON object, not {kind} (send {{\"name\": …}}, not a "
        "string of JSON)")}}
    call["params"]["arguments"] = {"name": "s", "description": "d"}
    assert check_line(json.dumps(call)) is None  # control: an object goes on to the SDK


def test_replies_past_what_the_pipe_holds_arrive_whole_after_the_client_reads_again(isolated_home, project):
    # Replies go to the pipe from the event loop while it takes them at once, at most PIPE_BUF bytes a write, the
    # rest from a worker thread (wire.GuardedStreams.write): a tools/list reply over 4,096 bytes, then 200 reads
    # of ≈ 2 KB (≈ 430 KB) against a 64 KB pipe the client leaves unread for a second: every reply arrives, each
    # one whole line of JSON, none cut into or by another.
    body = "".join(f"line {n} of the long memory, with words enough to fill it. " for n in range(200))
    proc = _server(project)
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in
                             [*INIT, _call(2, "memory_write", {"name": "long", "description": "A long memory",
                                                               "type": "project", "body": body}),
                              {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}]).encode())
    proc.stdin.flush()
    first = [proc.stdout.readline() for _ in range(3)]
    assert [json.loads(line)["id"] for line in first] == [1, 2, 3]  # control: written, answered
    assert len(first[2]) > 4096 and len(json.loads(first[2])["result"]["tools"]) == 11
    proc.stdin.write("".join(json.dumps(_call(10 + n, "memory_read", {"name": "long"})) + "\n"
                             for n in range(200)).encode())
    proc.stdin.flush()
    time.sleep(1)  # the server fills the pipe and waits with the rest
    lines = [proc.stdout.readline() for _ in range(200)]
    proc.stdin.close()
    assert proc.wait(timeout=120) == 0
    replies = [json.loads(line) for line in lines]
    assert sorted(r["id"] for r in replies) == list(range(10, 210))
    texts = {r["result"]["content"][0]["text"] for r in replies}
    assert sum(map(len, lines)) > 4 * 65536 and len(texts) == 1  # every reply the same whole text
    assert "line 34 of the long memory" in texts.pop()
