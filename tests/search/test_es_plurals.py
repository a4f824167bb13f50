"""A noun ending in -s and its -es plural are one word (break11): "git aliases" did not find the memory on a git
alias ("alias" stems to ``alia``, "aliases" to ``alias``), nor "event buses" the one on the event bus (``bus``,
``buse``); likewise canvas, lens, gas, quiz, iris. Their plurals are read as the singular
(:data:`memdir.text.words.IRREGULAR_PLURALS`) in memories and queries alike. Through the Python API, the CLI, the
real prompt hook and the MCP SDK's client, beside a control in the same store. Real SQLite and files, vectors off.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.tokenize import tokens

from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("git-alias", "Git alias for status", "user", "The git alias st runs status -sb.", scope="user")
    mem.write("bus", "Event buses", "project", "Domain events go through two event buses: orders and billing.")
    mem.write("canvas", "Chart canvas", "project", "Charts draw on one canvas per panel.")
    mem.write("cases", "Test cases", "project", "Every bug fix adds test cases before the fix.")
    return mem


def test_the_es_plural_of_a_noun_in_s_is_the_noun():
    assert [tokens(w) == tokens(p) for w, p in (("alias", "aliases"), ("bus", "buses"), ("canvas", "canvases"),
                                                  ("lens", "lenses"), ("gas", "gases"), ("quiz", "quizzes"),
                                                  ("iris", "irises"))] == [True] * 7
    assert tokens("cases") == tokens("case") == ["case"] and tokens("bases") == ["base"]  # control: -se nouns


@pytest.mark.slow
def test_singular_and_plural_find_each_other_on_every_path(store, isolated_home, project):
    for query, name in (("git aliases", "git-alias"), ("git alias", "git-alias"), ("event bus", "bus"),
                        ("event buses", "bus"), ("canvases", "canvas"), ("test case", "cases")):
        hits = store.search(query)
        assert (query, hits[0].name, hits[0].score >= 0.9) == (query, name, True), [(h.name, h.score) for h in hits]
    env = lexical_env(isolated_home, project)
    found = cli_search(env, "aliases")
    assert (found[0][0], found[0][1] >= 0.9) == ("git-alias", True)  # before: nothing
    assert block_names(hook_block(project, env, "which git aliases do I have?", "a")) == ["git-alias"]
    assert block_names(hook_block(project, env, "which event bus carries orders?", "b")) == ["bus"]
    assert hook_block(project, env, "which lenses fit the camera?", "n") == ""  # control: nothing read into it
    aliases, control = mcp_search(isolated_home, project, "aliases", "quizzes")
    assert "git-alias" in aliases and "git-alias" not in control
