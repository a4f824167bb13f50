"""A name or word that a function word of another language folds or stems onto is still searched for (issue 28,
kind 1: accents folded, São/Sao). ``cómo`` folds to ``como``; French ``dans`` and German ``als`` stem to
``dan``, ``al``; Portuguese ``são`` folds to ``sao``: before memdir.search.stopwords.STAY_TERMS each was a
stopword, and a search of "Dan", "São", "Lake Como", "io" or "von" alone found nothing beside the memory holding it,
through the API, the CLI, the MCP tool and the prompt hook. Control: a function word alone still finds nothing, and
each word finds its own memory, not the others."""

from __future__ import annotations

from functools import partial

import pytest

from memdir import Memory
from memdir.search.stopwords import STAY_TERMS, is_stopword
from memdir.search.tokenize import query_terms
from tests.search.surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

NOTES = {
    "billing-owner": ("Billing owner", "Ask Dan about the billing exports before the quarter closes."),
    "brazil-dc": ("Brazil datacenter", "Our São Paulo datacenter hosts the read replicas."),
    "offsite": ("Offsite", "The offsite is at Lake Como in May; book rooms early."),
    "icons": ("Icons", "Al reviews the icon set before every release."),
    "bytecode": ("Bytecode", "The IL bytecode dump of the plugin goes to /tmp/il-dump."),
    "standup": ("Standup", "Standup is at half past nine in the small room."),
    "loader": ("Loader", "Wrap reads with io.TextIOWrapper in the loader."),
    "kiosk": ("Kiosk", "Press Del twice to reset the kiosk."),
    "batch": ("Batch cluster", "The von Neumann cluster hosts the batch jobs."),
}


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    for name, (description, body) in NOTES.items():
        mem.write(name, description, "project", body)
    return mem


def test_the_words_are_terms_and_the_function_words_still_are_not():
    assert query_terms("São") == ["sao"] and query_terms("Dan") == ["dan"]
    assert not any(is_stopword(term) for term in ("como", "al", "dan", "sao", "io", "del", "von"))
    assert STAY_TERMS == {"como", "al", "dan", "sao", "io", "del", "von"}
    assert is_stopword("il")  # Italian's article: "di il la" finds nothing (test_romance_function_words)
    assert all(is_stopword(term) for term in ("the", "le", "und", "que", "pleas"))  # control: still dropped
    assert query_terms("le serveur dans staging") == ["serveur", "dan", "stage"]  # "dans": what it costs French


@pytest.mark.parametrize("query, name", [("Dan", "billing-owner"), ("dan", "billing-owner"), ("São", "brazil-dc"),
                                         ("sao", "brazil-dc"), ("SAO", "brazil-dc"), ("como", "offsite"),
                                         ("Lake Como", "offsite"), ("al", "icons"), ("IL", "bytecode"),
                                         ("io", "loader"), ("del key", "kiosk"),
                                         ("Del", "kiosk"), ("von", "batch")])
def test_each_word_alone_finds_its_memory_and_no_other(store, query, name):
    assert [hit.name for hit in store.search(query)] == [name]


def test_function_words_and_thanks_still_find_nothing(store):
    for query in ("the", "und", "que", "le la", "thanks, that works"):
        assert [hit.name for hit in store.search(query)] == [], query
    assert [hit.name for hit in store.search("standup")] == ["standup"]  # control
    # the cost, as memdir.text.words states it for every such word: French "dans" is read as the name
    assert [hit.name for hit in store.search("dans le")] == ["billing-owner"]


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_find_them(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    cli = partial(cli_search, env)
    assert [n for n, _ in cli("São")] == ["brazil-dc"] and [n for n, _ in cli("Dan")] == ["billing-owner"]
    assert cli("the") == []  # control
    sao, dan, como = mcp_search(isolated_home, project, "Sao", "dan", "Como")
    assert "brazil-dc" in sao and "billing-owner" not in sao
    assert "billing-owner" in dan and "brazil-dc" not in dan
    assert "offsite" in como and "icons" not in como
    assert block_names(hook_block(project, env, "ask Dan for the billing exports", "s1")) == ["billing-owner"]
    assert block_names(hook_block(project, env, "move the São Paulo replicas", "s2")) == ["brazil-dc"]
    assert hook_block(project, env, "thanks, that works", "s3") == ""  # control
