"""A tool result never carries a lone surrogate (left32): ``memory_search`` echoed its query, and a query
holding ``"\\ud800"`` (valid JSON) came back with it to an in-memory MCP client, where stdio's encoder would
have refused the whole reply. The rule is :func:`memdir.text.printable.well_formed`, applied where every tool
result is worded (:func:`memdir.tools.handlers.run_tool`). Since text38 an echo (:func:`memdir.text.printable.visible`)
shows a lone surrogate as its escape ``\\ud800``, as it shows every hidden character, before that rule sees it."""

from __future__ import annotations

import anyio
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.text.printable import well_formed


def _surrogates(text: str) -> list[str]:
    return [c for c in text if "\ud800" <= c <= "\udfff"]


def test_well_formed_replaces_lone_surrogates_and_joins_pairs():
    assert well_formed("x\ud800y") == "x\ufffdy"
    assert well_formed("\udc00") == "\ufffd"
    assert well_formed("a\ud83d\ude00b") == "a\U0001f600b"  # a pair is the character it stands for
    assert well_formed("port 5433 — 港") == "port 5433 — 港"  # control: valid text as it is


def test_a_tool_result_echoing_a_lone_surrogate_replaces_it(isolated_home, project, person, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")  # words alone: both searches say the same basis
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            lone = await client.call_tool("memory_search", {"query": "postgresql\ud800"})
            plain = await client.call_tool("memory_search", {"query": "postgresql"})
            return lone.content[0].text, plain.content[0].text

    lone, plain = anyio.run(main)
    assert lone.splitlines()[0] == "1 result(s) for 'postgresql\\ud800':"  # echoed as typed, escaped
    assert _surrogates(lone) == []
    assert lone.encode("utf-8")  # what stdio would send
    # Control: the same search without the surrogate finds the same memory, its query said as given.
    assert plain.splitlines()[0] == "1 result(s) for 'postgresql':"
    assert lone.splitlines()[1:] == plain.splitlines()[1:]


def test_the_memory_tool_words_its_results_by_the_same_rule(mem):
    # The Anthropic memory tool's commands (memdir.tools.memory_directory) echo a path the same way.
    from memdir.tools.memory_directory import run

    lone = run(mem.session, {"command": "view", "path": "/memories/\ud800"})
    assert (lone.is_error, lone.text) == (True, ("The path /memories/\\ud800 does not exist. Please provide a valid "
                                                 "path. The layers are /memories/user, /memories/project."))
    plain = run(mem.session, {"command": "view", "path": "/memories/nope"})  # control: the same words
    assert _surrogates(lone.text) == []
    assert plain.text == lone.text.replace("\\ud800", "nope")
