"""A query word that no memory holds does not crush a full match of the rest in an explicit search (issue 28,
audit 19): `search "changelog entry"` scored the changelog memory 0.06 beside 1.0 for `search "changelog"`.

Such a word cannot be found in any memory, so the memory holding every other content word is *complete* in a
search to the share of the query's content words the store knows (memdir.search.relevance._complete): 0.5 for
one of two. Recall keeps requiring every word ("s3 glacier" with no memory on Glacier needs nothing, by the
recall evaluation's labels), and a query most of whose words the store lacks is not made strong by the one it
knows. The API, the CLI and the MCP tool all rank through memdir.search.ranking.ranked.
"""

from __future__ import annotations

import json
import os
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

from memdir import Memory

from ..conftest import run_cli


@pytest.fixture
def four(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("timeout", "Gateway timeout set to 30s", "project", "getGatewayTimeout() reads GATEWAY_TIMEOUT_MS.")
    mem.write("changelog", "Every PR adds a line to CHANGELOG.md under Unreleased", "feedback",
              "**Why:** release notes are generated from it.\n**How to apply:** add the line in the same PR.")
    mem.write("retry-policy", "HTTP client retries three times with exponential backoff", "project",
              "Uploads retry on 503.")
    mem.write("lunch", "Team lunch is on Fridays", "reference", "Pizza.")
    return mem


def scored(results):
    return [(r.name, round(r.score, 2)) for r in results]


@pytest.mark.slow
def test_a_word_no_memory_holds_leaves_the_rest_a_match_above_the_threshold(four):
    assert scored(four.search("changelog")) == [("changelog", 1.0)]  # control: the word alone
    for query in ("changelog entry", "changelog file", "changelog format"):
        assert (query, scored(four.search(query))) == (query, [("changelog", 0.55)])  # was 0.06
    assert scored(four.search("backoff strategy")) == [("retry-policy", 0.55)]  # was 0.06
    assert scored(four.search("gateway timeout value")) == [("timeout", 0.98)]  # two of three known; was 0.40
    assert scored(four.search("gateway timeout")) == [("timeout", 1.0)]  # control


@pytest.mark.slow
def test_words_the_store_holds_in_other_memories_or_mostly_lacks_stay_weak(four):
    # Both words are known, each in another memory: neither memory holds the query; listed, under the threshold.
    assert scored(four.search("timeout lunch")) == [("timeout", 0.07), ("lunch", 0.07)]
    # Two of three words are in no memory: the one known word does not make its memory strong.
    assert scored(four.search("kubernetes ingress changelog")) == [("changelog", 0.04)]
    assert four.search("kubernetes ingress") == []  # nothing known: nothing listed
    # A word the body alone mentions is no match of what the memory is about: "pizza" is the lunch memory's body.
    assert scored(four.search("pizza party")) == [("lunch", 0.06)]
    assert scored(four.search("pizza")) == [("lunch", 1.0)]  # control
    # Recall is not an explicit search: a word no memory holds still counts against the memory there.
    assert four.recall("changelog entry") == ""
    assert "## changelog " in four.recall("changelog")  # control: the same store recalls it


@pytest.mark.slow
def test_the_cli_and_the_mcp_tool_give_the_same_score(four, project):
    out = run_cli("--project", project, "search", "changelog entry", "--json",
                  env={"MEMDIR_SEARCH_VECTORS": "off"})
    assert out.returncode == 0, out.stderr
    assert [(r["name"], round(r["score"], 2)) for r in json.loads(out.stdout)["results"]] == [("changelog", 0.55)]
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"],
                                   env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"), cwd=str(project))
    texts = []

    async def main():
        async with Client(params, mode="legacy") as client:
            for query in ("backoff strategy", "backoff"):
                texts.append((await client.call_tool("memory_search", {"query": query})).content[0].text)

    anyio.run(main)
    assert [line for line in texts[0].splitlines() if line.startswith("- ")] == [
        "- retry-policy (type: project; layer: project) relevance 0.55 — "
        "HTTP client retries three times with exponential backoff"], texts[0]
    assert "retry-policy (type: project; layer: project) relevance 1.00" in texts[1], texts[1]  # control
