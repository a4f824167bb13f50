"""Pages of a query over many memories it fits alike show each memory once (break11).

300 memories written alike ("Deploy step NNN uses kubectl rollout.") are one tie for "kubectl rollout"; their order
is the one order of ties (:func:`memdir.search.ties.order_key`: updated, then BM25, then name), but each page ranked
a pool of rows of its own size (``4 · (k + offset)``) taken in BM25's order, where the tie has no order: paging
through them 5 at a time showed 300 results of which 247 distinct (53 twice, 53 never). A page whose last memory is
tied with the last row ranked is now ranked on a larger pool (:func:`memdir.search.ranking.search`). Through the
Python API, the CLI (``--offset``) and the MCP SDK's client (``offset``), beside a control query. Real SQLite and
memory files, vectors off.
"""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memdir import Memory

from memdir.integrations.mcp.server import MemoryServer, build_server

from ..conftest import run_cli
from .surfaces import lexical_env

COUNT = 120


@pytest.fixture
def alike(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    layer = mem.session.layers("project")[0].path
    layer.mkdir(parents=True, exist_ok=True)
    for i in range(COUNT):  # files written by hand: one tie however fast the machine (no updated time)
        (layer / f"step-{i:03d}.md").write_text(f"---\nname: step-{i:03d}\ndescription: Deploy step\ntype: project\n"
                                                f"---\n\nThe deploy step uses kubectl rollout.\n")
    mem.write("pg-port", "Dev postgres port", "project", "The dev postgres listens on 5433.")
    return mem


def _pages(page) -> list[str]:
    seen, offset = [], 0
    while offset <= 1000:
        names = page(offset)
        if not names:
            return seen
        seen += names
        offset += len(names)
    return seen


@pytest.mark.slow
def test_paging_through_a_tie_shows_each_memory_once_on_every_path(alike, isolated_home, project):
    everyone = [f"step-{i:03d}" for i in range(COUNT)]
    for k in (5, 20):
        seen = _pages(lambda offset: [r.name for r in alike.search("kubectl rollout", k=k, offset=offset)])
        assert (k, seen) == (k, everyone)  # the one order of a tie: by name; before: 53 of 300 twice
    assert [r.name for r in alike.search("postgres")] == ["pg-port"]  # control

    env = lexical_env(isolated_home, project)

    def cli_page(offset):
        out = run_cli("search", "kubectl rollout", "-k", "40", "--offset", str(offset), "--json", env=env)
        return [r["name"] for r in json.loads(out.stdout)["results"]]

    assert _pages(cli_page) == everyone

    async def mcp_pages():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            seen: list[str] = []
            while len(seen) <= 1000:  # each page from where the last one ended, as the tool's text says to
                text = (await client.call_tool("memory_search", {"query": "kubectl rollout", "k": 30,
                                                                 "offset": len(seen)})).content[0].text
                names = [line[2:].split(" ")[0] for line in text.splitlines() if line.startswith("- ")]
                if not names:
                    return seen
                seen += names
            return seen

    assert anyio.run(mcp_pages) == everyone
