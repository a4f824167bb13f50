"""A variation selector stuck to a word is read as absent by search, in memories and queries alike.

An emoji-aware keyboard or a paste leaves U+FE0F (draw as a picture) or U+FE0E (draw as text) after a word:
``staging\\ufe0f`` looks like "staging", but a regex reads a selector as a combining mark, so it was a term of its
own and ``memdir search 'staging\\ufe0f'`` found nothing beside a memory saying "staging"; a memory writing
"canary\\ufe0f" was not found by "canary". The ideographic selectors (U+E0100–E01EF, a glyph variant of the Han
character before them) broke a CJK run: ``葛\\U000e0100城`` was 葛 + 城, never the bigram 葛城. The rule:
:data:`memdir.text.printable.VARIATION_SELECTORS` in :func:`memdir.text.printable.without_hidden`, the
tokenizer's one rule of hidden characters. Index schema 19 (18 re-tokenized in place). Through the API, the CLI and
the MCP SDK's client, beside controls. Vectors off.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.tokenize import tokens

from .surfaces import cli_search, lexical_env, mcp_search

EMOJI, TEXT, IDEOGRAPHIC = "\ufe0f", "\ufe0e", "\U000e0100"


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("staging-host", "Staging host", "project", "The staging host is stage-7.internal, behind the bastion.")
    mem.write("canary-pool", "Deploy order", "project", f"Deploys go to the canary{EMOJI} pool 🚀{EMOJI} first.")
    mem.write("katsuragi", "Warehouse", "project", f"倉庫は葛{IDEOGRAPHIC}城にある")
    mem.write("redis-port", "Redis port", "project", "Redis listens on port 6380 in every environment.")
    return mem


def test_a_selector_is_no_part_of_a_word():
    assert tokens(f"staging{EMOJI}") == tokens(f"staging{TEXT}") == tokens("staging") == ["stage"]
    assert tokens(f"stag{EMOJI}ing host") == ["stage", "host"]
    assert tokens(f"葛{IDEOGRAPHIC}城") == tokens("葛城") == ["葛城"]  # was: 葛, 城
    assert tokens("mongol\u180bian") == ["mongolian"]  # a Mongolian free variation selector, as FE0F
    # control: an emoji with its selector is the emoji alone, no part of a word (its own term since search41)
    assert tokens(f"🚀{EMOJI} deploy") == tokens("🚀 deploy") == ["\ue0011f680", "deploy"]
    # control: a joiner a script joins with still breaks a word, as before (a Persian plural: its noun is a term);
    # one between Latin letters shows as nothing and is read as absent, as a selector is (break46a)
    persian = "\u06cc\u0627\u062f\u062f\u0627\u0634\u062a"
    assert tokens(f"{persian}\u200c\u0647\u0627") == [persian, "\u0647\u0627"]
    assert tokens("na\u200dive") == tokens("naive") == ["naiv"]


def test_search_reads_a_selector_as_absent_through_the_api(store):
    def found(query):
        return [h.name for h in store.search(query)]

    assert found(f"staging{EMOJI}") == ["staging-host"]  # was: nothing
    assert found("canary") == ["canary-pool"]  # was: nothing (the memory's term was canary+FE0F)
    assert found(f"canary{TEXT}") == ["canary-pool"]
    assert found("葛城") == ["katsuragi"] and found(f"葛{IDEOGRAPHIC}城") == ["katsuragi"]  # were: nothing, weak
    assert found(f"redis{EMOJI}") == ["redis-port"]  # control: the other memories stay out of each answer
    assert found(f"bastion{EMOJI} staging") == ["staging-host"]
    assert found(f"kafka{EMOJI}") == []  # control: a word no memory holds finds nothing


@pytest.mark.slow
def test_the_cli_and_mcp_read_a_selector_as_absent(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, f"staging{EMOJI}") == [("staging-host", 1.0)]
    assert cli_search(env, "canary") == [("canary-pool", 1.0)]
    assert cli_search(env, f"kafka{EMOJI}") == []  # control beside the hits: nothing padded in
    staging, canary, nonsense = mcp_search(isolated_home, project, f"staging{EMOJI}", "canary", f"kafka{EMOJI}")
    assert "staging-host" in staging and "redis-port" not in staging and "canary-pool" not in staging
    assert "canary-pool" in canary and "staging-host" not in canary
    assert "staging-host" not in nonsense and "canary-pool" not in nonsense


def test_an_index_of_schema_18_reads_its_words_again(store):
    assert [h.name for h in store.search("redis")] == ["redis-port"]  # the index made and synced
    conn = index.connect(store.home)
    canary = conn.execute("SELECT id FROM docs WHERE name = 'canary-pool'").fetchone()[0]
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", (f"deploy go to the canary{EMOJI} pool first", canary))
    conn.execute("PRAGMA user_version = 18")  # 18's terms: the selector inside the word
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert EMOJI not in conn.execute("SELECT body FROM fts WHERE rowid = ?", (canary,)).fetchone()[0]
    assert [h.name for h in store.search("canary")] == ["canary-pool"]
    assert [h.name for h in store.search("redis")] == ["redis-port"]  # control: the other rows as before


def test_a_format_control_no_list_names_is_no_part_of_a_word():
    # U+1BCA0 (shorthand format control, Cf) was kept by search's list and split "staging" in two
    assert tokens("stag\U0001bca0ing host") == tokens("staging host") == ["stage", "host"]
    assert tokens("stag\u2028ing") != tokens("staging")  # control: a line break parts the word


def test_an_index_of_schema_29_reads_a_format_control_as_absent_again(store):
    store.write("deploy-gate", "Deploy gate", "project", "Deploys wait for the gat\U0001bca0ekeeper job.")
    assert [h.name for h in store.search("gatekeeper")] == ["deploy-gate"]
    conn = index.connect(store.home)
    gate = conn.execute("SELECT id FROM docs WHERE name = 'deploy-gate'").fetchone()[0]
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("deploy wait for the gat ekeeper job", gate))
    conn.execute("PRAGMA user_version = 29")  # 29's terms: the control a break between two words
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT body FROM fts WHERE rowid = ?", (gate,)).fetchone()[0] == "deploy wait for the gatekeep job"
    assert [h.name for h in store.search("gatekeeper")] == ["deploy-gate"]
    assert [h.name for h in store.search("redis")] == ["redis-port"]  # control: the other rows as before
