"""A word spelled the British or the American way is one word to search (break11): a memory on the "colour theme"
was found by "color theme" at 0.56 and recalled by no prompt, "organization", "behavior", "center", "license",
"gray" and "catalogue" found nothing of a memory writing "organisation", "behaviour", "centre", "licence", "grey" or
"catalog". The stemmer reads a British spelling as its American word (:func:`memdir.search.stemming.american`,
closed lists in :mod:`memdir.text.words`) in memories and queries alike; words spelled alike on both sides of the
ocean ("revise", "contour", "tour") are themselves. Each case through the Python API, the CLI, the real prompt hook
and the MCP SDK's client, beside a control in the same store. Real SQLite and memory files, vectors off.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.stemming import american
from memdir.search.tokenize import tokens

from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

# (query, the memory it must find first): each spelling of a word finds the memory writing the other one.
SPELLINGS = [("color theme", "theme"), ("colour theme", "theme"), ("retry behavior", "retries"),
             ("github organization", "org"), ("organisation", "org"), ("data center", "datacentre"),
             ("serialise", "json"), ("serializer", "json"), ("gray failover", "datacentre"),
             ("service catalogue", "catalog"), ("MIT license", "org"), ("initialization", "retries")]


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("theme", "UI colour theme", "project", "The UI colour palette uses the dark theme by default.")
    mem.write("retries", "Client retry behaviour", "project", "Retry behaviour is exponential backoff; initialise "
              "it with jitter.")
    mem.write("org", "GitHub organisation", "project", "The repos live in the acme-labs organisation; licence is MIT.")
    mem.write("datacentre", "Primary data centre", "project", "Primary data centre is Frankfurt; grey failover in "
              "Dublin.")
    mem.write("json", "JSON serializer", "project", "Use orjson as the serializer for API responses.")
    mem.write("catalog", "Service catalog", "project", "The service catalog lists each team's dependencies.")
    mem.write("docs", "Revising docs", "project", "Revise the docs before each tour of the contour maps.")
    return mem


def test_a_british_spelling_is_its_american_word_and_no_other_word_is():
    assert [american(w) for w in ("colour", "coloured", "favourite", "behavioural", "organisation", "serialiser",
                                  "initialising", "centre", "centred", "centres", "licence", "grey", "catalogue")] == [
        "color", "colored", "favorite", "behavioral", "organization", "serializer", "initializing", "center",
        "centered", "centers", "license", "gray", "catalog"]
    assert tokens("colour") == tokens("color") == ["color"]
    assert tokens("organisation") == tokens("organization") == tokens("organise") == ["organiz"]
    assert tokens("serialiser") == tokens("serializer") and tokens("centred") == tokens("centered")
    # control: words spelled so on both sides, and words that only end alike, are themselves
    assert [american(w) for w in ("revise", "revision", "promise", "advise", "contour", "tour", "four", "hour",
                                  "flour", "our", "analyse", "paralyse", "acre", "genre")] == [
        "revise", "revision", "promise", "advise", "contour", "tour", "four", "hour", "flour", "our", "analyse",
        "paralyse", "acre", "genre"]
    assert tokens("revise") == tokens("revision") == ["revis"]  # a pair that met still meets


@pytest.mark.slow
def test_each_spelling_finds_the_memory_writing_the_other_through_the_api(store):
    for query, name in SPELLINGS:
        hits = store.search(query)
        assert (query, hits[0].name, hits[0].score >= 0.9) == (query, name, True), [(h.name, h.score) for h in hits]
        assert (query, [m.name for m in store.recall_result(query).memories][:1]) == (query, [name])
    assert [h.name for h in store.search("contour")] == ["docs"]  # control: its own word finds it
    assert [h.name for h in store.search("revision")] == ["docs"]
    assert [h.name for h in store.search("colon")] == []  # control: no color read into colon
    assert [h.name for h in store.search("tor")] == []  # nor tour into Tor


@pytest.mark.slow
def test_the_cli_the_prompt_hook_and_mcp_read_both_spellings(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    for query, name in (("color theme", "theme"), ("organization", "org"), ("data center", "datacentre")):
        found = cli_search(env, query)
        assert (query, found[0][0], found[0][1] >= 0.9) == (query, name, True)
    assert cli_search(env, "contour") == [("docs", 1.0)]  # control
    assert block_names(hook_block(project, env, "which color theme does the UI use?", "c")) == ["theme"]
    assert block_names(hook_block(project, env, "where is the primary data center?", "d")) == ["datacentre"]
    assert hook_block(project, env, "what does a tor relay cost?", "n") == ""  # control: nothing read into tour
    color, licence, control = mcp_search(isolated_home, project, "retry behavior", "license", "acre")
    assert "retries" in color and "org" in licence
    assert "retries" not in control and "org" not in control


@pytest.mark.slow
def test_an_index_of_schema_16_reads_its_british_spellings_again(store):
    assert [h.name for h in store.search("colour")] == ["theme"]  # the index made and synced
    conn = index.connect(store.home)
    theme = conn.execute("SELECT id FROM docs WHERE name = 'theme'").fetchone()[0]
    conn.execute("UPDATE fts SET body = 'the ui colour palett use the dark theme by default' WHERE rowid = ?",
                 (theme,))  # schema 16's terms
    conn.execute("UPDATE fts SET description = 'ui colour theme' WHERE rowid = ?", (theme,))
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (theme,))
    conn.execute("PRAGMA user_version = 16")
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # in place: the vector kept
    assert conn.execute("SELECT body FROM fts WHERE rowid = ?", (theme,)).fetchone()[0] == \
        "the ui color palett use the dark theme by default"
    assert [h.name for h in store.search("color")] == ["theme"]
