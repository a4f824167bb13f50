"""A query word no memory holds is read as the near form memories write (issue 28).

The stemmer leaves an agent noun apart from its verb (``logger``/``logging``, ``parser``/``parsing``) and a
product's long name apart from its short one (``PostgreSQL``/``Postgres``). memdir.search.terms.near_forms reads
such a word as the form the store holds, on every path (memdir.search.ranking.ranked): only when no memory holds
the word itself, and an agent noun only where a memory writes the verb with -ing or -ed in the same spelling, so
``better`` is not ``bet``, and ``server`` stays ``server`` where memories say it. Each case has a memory that must
be found beside one that must not, through search and recall.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.search.tokenize import agent_verb

from ..conftest import run_cli


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
    return mem


def names(mem, query):
    return [hit.name for hit in mem.search(query)]


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_an_agent_noun_is_read_as_its_verb_only_as_a_candidate():
    assert agent_verb("logger") == ("log", "logg")
    assert agent_verb("parser") == agent_verb("parsers") == ("pars", "pars")
    assert agent_verb("editor") == ("edit", "edit")
    assert agent_verb("better") == ("bet", "bett")  # a candidate: the store decides (see below)
    assert agent_verb("computer") is None  # the stemmer joins it with "computing" already
    assert agent_verb("user") is None  # shorter than AGENT_MIN
    assert agent_verb("table") is None


def test_an_agent_noun_finds_the_memory_writing_its_verb(store):
    assert names(store, "logger") == ["logging"]
    assert names(store, "parser") == names(store, "date parsers") == ["dates"]
    assert recalled(store, "which logger do we use") == ["logging"]
    assert recalled(store, "write a date parser") == ["dates"]
    # control: a word whose verb no memory writes with -ing or -ed ("bet", never "betting") stays itself
    assert (names(store, "better"), recalled(store, "better")) == ([], [])
    assert (names(store, "bet"), recalled(store, "bet")) == (["bet-rule"], ["bet-rule"])


def test_a_word_the_store_holds_is_never_read_as_a_near_form(store):
    assert (names(store, "server"), recalled(store, "server")) == (["web-server"], ["web-server"])
    assert names(store, "served") == ["cdn"]  # control: the verb finds its own memory


def test_a_long_name_finds_the_short_one_and_not_a_shorter_word(store):
    assert (names(store, "postgresql"), recalled(store, "postgresql host")) == (["pg-host"], ["pg-host"])
    assert (names(store, "postgres"), recalled(store, "postgres")) == (["pg-host"], ["pg-host"])
    assert names(store, "post office") == ["post-office"]  # control: "post" is a word of its own


def test_nonsense_and_chat_still_find_nothing(store):
    for query in ("blorfinator", "thanks, that works", "docker"):
        assert (query, names(store, query), recalled(store, query)) == (query, [], [])
    assert names(store, "structlog") == ["logging"]  # control: the store answers a word it holds


@pytest.mark.slow
def test_the_cli_and_the_prompt_hook_read_near_forms(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = json.loads(run_cli("search", "logger", "--json", env=env).stdout)["results"]
    control = json.loads(run_cli("search", "better", "--json", env=env).stdout)["results"]
    assert ([r["name"] for r in found], control) == (["logging"], [])

    def hook(prompt):
        payload = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                              "prompt": prompt})
        done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                              input=payload.encode(), capture_output=True, timeout=60,
                              env=dict(os.environ, **env))
        return done.stdout.decode("utf-8")

    assert "## logging" in json.loads(hook("which logger do we use"))["hookSpecificOutput"]["additionalContext"]
    assert hook("is it better now") == ""
