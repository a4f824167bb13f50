"""The three other doors to search, for the tests that check a case reads alike through each: the CLI
(``memdir search --json`` in a subprocess), the MCP server's ``memory_search`` tool (the MCP SDK's client on
the real server) and the Claude Code prompt hook (its subprocess). Each returns what a caller sees, so the
tests state right values in one shape.
"""

from __future__ import annotations

import json

import anyio

from tests.conftest import run_cli, run_prompt_hook


def lexical_env(home, project) -> dict[str, str]:
    """The environment of a subprocess reading ``home`` from ``project`` with vectors off (words alone)."""
    return {"MEMDIR_HOME": str(home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}


def cli_search(env: dict[str, str], query: str) -> list[tuple[str, float]]:
    """``memdir search QUERY --json`` run in ``env``: ``[(name, score rounded to 2 places), …]``, best first.
    Raises ``AssertionError`` with the CLI's stderr when it prints no JSON."""
    out = run_cli("search", query, "--json", env=env)
    assert out.stdout, (query, out.stderr)
    return [(r["name"], round(r["score"], 2)) for r in json.loads(out.stdout)["results"]]


def mcp_search(home, project, *queries: str) -> list[str]:
    """Each query through one MCP session's ``memory_search`` tool: the tool's text for each (its content blocks
    joined), in order. Raises ``AssertionError`` with the result when a call comes back as an error."""
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server

    async def calls():
        out = []
        async with Client(build_server(MemoryServer(home=home, project=project))) as client:
            for query in queries:
                result = await client.call_tool("memory_search", {"query": query})
                assert not result.is_error, (query, result)
                out.append("".join(c.text for c in result.content))
        return out

    return anyio.run(calls)


def hook_block(project, env: dict[str, str], prompt: str, session: str = "s1") -> str:
    """The prompt hook's injected block for ``prompt`` in ``session`` ("" when it injects nothing)."""
    out = run_prompt_hook(project, prompt, env, session=session)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""


def block_names(block: str) -> list[str]:
    """The memories a recall block shows, in order (its ``## name …`` headings)."""
    return [line[3:].split(" ")[0] for line in block.splitlines() if line.startswith("## ")]
