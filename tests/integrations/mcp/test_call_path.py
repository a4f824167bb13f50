"""The work a tool call or a listing no longer repeats (issue 28: the MCP path around the search): ``tools/list``'s
wire form kept by the server (:class:`memdir.integrations.mcp.server.ToolsListed`), the tool specs kept per
Settings (:func:`memdir.tools.specs.get_tool`). Answers stay what the SDK's whole way gives: the SDK's client
against a real ``memdir mcp`` subprocess, and against the SDK's server in this process where a count is read."""

from __future__ import annotations

import os
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.server.runner import ServerRunner

from memdir.settings import Settings
from memdir.tools.specs import TOOL_NAMES, get_tool

pytestmark = pytest.mark.slow  # real server processes


def _dumped(tools) -> list[dict]:
    return [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]


def test_listings_of_a_real_server_are_the_sdk_ones_every_time(isolated_home, project):
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off")
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                   cwd=str(project))

    async def main():
        async with Client(params, mode="legacy") as client:
            first = _dumped((await client.list_tools()).tools)  # the SDK's whole way: nothing kept yet
            again = [_dumped((await client.list_tools()).tools) for _ in range(3)]  # the kept wire form
            paged = _dumped((await client.list_tools(cursor="x")).tools)  # params: the SDK's whole way again
            found = await client.call_tool("memory_search", {"query": " "})
            return first, again, paged, found

    first, again, paged, found = anyio.run(main)
    assert [tool["name"] for tool in first] == list(TOOL_NAMES)
    assert first[0]["inputSchema"]["properties"]["description"]["description"].startswith("one line, ≤ ")
    assert again == [first, first, first] and paged == first
    assert found.is_error and found.content[0].text == "Error: query is empty"  # a call after listings: answered


def test_the_server_serializes_a_listing_once_per_protocol_version(isolated_home, project, monkeypatch):
    from memdir.integrations.mcp.server import MemoryServer, build_server

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    serialized: list[str] = []  # the methods whose results the server's SDK shaped for the wire (checked, dumped)
    sdk_serialize = ServerRunner._serialize

    def counted(self, method, version, result):
        serialized.append(method)
        return sdk_serialize(self, method, version, result)

    monkeypatch.setattr(ServerRunner, "_serialize", counted)
    server = build_server(MemoryServer(isolated_home, project))

    async def main():
        async with Client(server, mode="legacy") as client:
            serialized.clear()
            lists = [_dumped((await client.list_tools()).tools) for _ in range(3)]
            listed = serialized.count("tools/list")
            paged = _dumped((await client.list_tools(cursor="x")).tools)
            found = await client.call_tool("memory_search", {"query": " "})
            return lists, listed, paged, found

    lists, listed, paged, found = anyio.run(main)
    assert listed == 1  # before: 3, the same eleven tools validated and dumped at each listing
    assert serialized.count("tools/list") == 2  # a listing with params goes the SDK's whole way (the control)
    assert serialized.count("tools/call") == 1  # and so does every other method
    assert lists[1] == lists[2] == lists[0] == paged and [t["name"] for t in paged] == list(TOOL_NAMES)
    assert found.content[0].text == "Error: query is empty"


def test_get_tool_states_the_limits_of_the_settings_it_is_given():
    small, large = Settings().replace(limit_body=2000), Settings().replace(limit_body=9000)
    body = lambda spec: spec.schema["properties"]["body"]["description"]
    assert body(get_tool("memory_write", small)) == "Markdown, ≤ 2000 characters (\"\" empties it)"
    assert get_tool("memory_write", small) is get_tool("memory_write", small)  # kept for the same Settings
    assert body(get_tool("memory_write", large)) == "Markdown, ≤ 9000 characters (\"\" empties it)"  # others': their own
    assert body(get_tool("memory_write", small)) == "Markdown, ≤ 2000 characters (\"\" empties it)"
    with pytest.raises(Exception, match="unknown tool 'memory_nope'; memory tools are: memory_write"):
        get_tool("memory_nope", small)


def _read_all(lines_of, data: bytes, chunk: int) -> list:
    """What ``lines_of`` (a reader of :mod:`memdir.integrations.mcp.wire`) yields for ``data`` written into a real
    pipe ``chunk`` bytes at a time by another thread."""
    import io
    import threading
    import types

    read_fd, write_fd = os.pipe()

    def feed():
        with os.fdopen(write_fd, "wb", buffering=0) as out:
            for start in range(0, len(data), chunk):
                out.write(data[start:start + chunk])

    writer = threading.Thread(target=feed)
    writer.start()
    reader = io.TextIOWrapper(os.fdopen(read_fd, "rb"), encoding="utf-8", errors="surrogateescape")
    guard = types.SimpleNamespace(gone=None)

    async def main():
        got = []
        async for line, too_long in lines_of(reader, guard):
            got.append((line, too_long))
        return got

    try:
        return anyio.run(main)
    finally:
        writer.join()
        reader.close()


def test_stdin_read_by_the_event_loop_yields_what_the_worker_thread_did():
    from memdir.integrations.mcp import wire

    with open(os.devnull) as null:
        assert wire._pipe_fd(null) is None  # not a pipe: the worker thread reads it, as before
    long = '{"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": {"q": "' + "é" * wire.MAX_LINE_CHARS + '"}}'
    data = ("\ufeff" + '{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n' + "\n" + "∂ü€ — 한국어 ok\r\n" + "lone\rcr\n"
            + "x" * wire.MAX_LINE_CHARS + "\n" + long + "\n" + "y" * (wire.MAX_LINE_CHARS + 1) + "\n"
            + '{"id": 2}').encode("utf-8") + b"\xff\xfe not utf-8\n" + b"last, no newline"
    threaded = _read_all(wire._threaded_lines, data, 1 << 16)
    assert [too_long for _, too_long in threaded if too_long] == [(len(long) + 1, 77), (wire.MAX_LINE_CHARS + 2, None)]
    assert threaded[0][0].startswith("\ufeff{") and threaded[3] == ("lone\n", None)  # the controls: what is read
    assert threaded[-1] == ("last, no newline", None) and threaded[-2][0] == '{"id": 2}\udcff\udcfe not utf-8\n'
    for chunk in (1, 7, 4096, 1 << 16):  # a character's bytes split across reads, a \r\n split, whole lines
        polled = _read_all(lambda reader, guard: wire._polled_lines(reader.fileno(), guard),
                           data if chunk > 1 else data[:300], chunk)
        assert polled == (threaded if chunk > 1 else _read_all(wire._threaded_lines, data[:300], 1))
