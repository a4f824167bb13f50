"""A query word no memory holds is read as the shorter name memories write (issue 28).

The stemmer leaves a product's long name apart from its short one (``PostgreSQL``/``Postgres``).
memdir.search.terms.near_forms reads such a word as the form the store holds, on every path
(memdir.search.ranking.ranked): only when no memory holds the word itself, so ``server`` stays ``server`` where
memories say it. An -er noun is never read as a verb the memories write (``banner`` is not "banned", ``header``
not "heading": spelling cannot tell them from ``logger``/"logging"). Each case has a memory that must be found
beside one that must not, through search and recall.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory

from ..conftest import run_cli, run_prompt_hook


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("logging", "Use structlog for logging, JSON lines in production", "project", "Each line carries request_id.")
    mem.write("bet-rule", "Never bet on a flaky test passing on retry", "project", "A retry hides the race.")
    mem.write("pg-host", "Postgres runs on db1", "project", "Backups at 02:00.")
    mem.write("post-office", "The post office opens at nine", "project", "Parcels go out at five.")
    mem.write("web-server", "The web server restarts nightly", "project", "A cron job at 03:00.")
    mem.write("cdn", "Static files are served from the CDN", "project", "Cache for a day.")
    mem.write("dates", "Parsing of dates goes through pendulum", "project", "Never datetime.strptime.")
    mem.write("spam", "Spam accounts get banned after 3 reports", "project", "Reviewed weekly.")
    mem.write("docs-style", "Every docs page starts with one H1 heading", "project", "Why: the nav.")
    return mem


def names(mem, query):
    return [hit.name for hit in mem.search(query)]


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_an_er_noun_is_not_read_as_a_verb_the_memories_write(store):
    # was: banner found "banned" (spam) and header "heading" at 1.00, and the prompt hook injected them
    for query, prompt in (("banner", "update the banner"), ("header", "add a request header"),
                          ("better", "is it better now")):
        assert (query, names(store, query), recalled(store, prompt)) == (query, [], [])
    # control: the words the memories write find them
    assert (names(store, "banned"), recalled(store, "who gets banned")) == (["spam"], ["spam"])
    assert names(store, "heading") == ["docs-style"] and names(store, "bet") == ["bet-rule"]


def test_a_word_the_store_holds_is_never_read_as_a_near_form(store):
    assert (names(store, "server"), recalled(store, "server")) == (["web-server"], ["web-server"])
    assert names(store, "served") == ["cdn"]  # control: the verb finds its own memory


def test_a_long_name_finds_the_short_one_and_not_a_shorter_word(store):
    assert (names(store, "postgresql"), recalled(store, "postgresql host")) == (["pg-host"], ["pg-host"])
    assert (names(store, "postgres"), recalled(store, "postgres")) == (["pg-host"], ["pg-host"])
    assert names(store, "post office") == ["post-office"]  # control: "post" is a word of its own


def test_nonsense_and_chat_still_find_nothing(store):
    # a word running on past a held one is another word (was: listensomething, postgresqlx found pg-host at 1.00)
    for query in ("blorfinator", "thanks, that works", "docker", "postgresqlx", "postgresqlserver"):
        assert (query, names(store, query), recalled(store, query)) == (query, [], [])
    assert names(store, "structlog") == ["logging"]  # control: the store answers a word it holds


@pytest.mark.slow
def test_the_cli_and_the_prompt_hook_read_near_forms(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = json.loads(run_cli("search", "postgresql", "--json", env=env).stdout)["results"]
    control = json.loads(run_cli("search", "banner", "--json", env=env).stdout)["results"]
    assert ([r["name"] for r in found], control) == (["pg-host"], [])

    def hook(prompt):
        return run_prompt_hook(project, prompt, env)

    assert "## pg-host" in json.loads(hook("which postgresql host is it"))["hookSpecificOutput"]["additionalContext"]
    assert hook("update the banner") == ""
