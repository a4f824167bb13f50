"""A query word is read as another word the index holds by its spelling in one rule (issue 28, item 1).

memdir.search.spelling: a stem begins longer words only when the stemmer took at most an inflection off the
query word as written (``postgres`` finds "PostgreSQL"; ``changeling``, stem ``changel``, does not find
"changelog"; ``postgis``, stem ``postgi``, is no ``postg``); a word no memory holds is a longer spelling of a
shorter name only when it runs on by letters without a vowel (``postgresql``: "Postgres"; ``committee`` is not
"commit"). Was: each of these found the unrelated memory at relevance 1.00, and the prompt hook injected it.
Every must-not-find case has its must-find control in the same store, through the API, recall, the CLI, the
MCP tool and the prompt hook.
"""

from __future__ import annotations

import json

import anyio
import pytest

from memdir import Memory
from memdir.search import spelling

from ..conftest import run_cli, run_prompt_hook

MEMORIES = [
    ("pg-host", "Postgres runs on db1, version 16", "Backups at 02:00."),
    ("changes", "The changelog lists every release", "Keep a Changelog format."),
    ("release-version", "Bump the version in pyproject before a release", "Then tag."),
    ("commit-style", "Commit messages use the imperative mood", "One line summary."),
    ("secrets", "A secret never goes into git", "Use the vault."),
    ("cleanup", "We invest a day per sprint in cleanup", "Fridays."),
    ("web-server", "The web server restarts nightly", "Cron at 03:00."),
    ("on-call", "Every person on call has a pager", "Rotation weekly."),
    ("docs-rule", "Document every public function", "Docstrings with shapes."),
    ("sessions", "Sessions expire after 30 minutes", "Refresh after a week."),
    ("settings", "Config lives in settings.toml", "Never in env files."),
]

# (query, the memory it must find) and (query no memory fits, the memory it used to find at 1.00)
FOUND = [("postgresql", "pg-host"), ("postgres", "pg-host"), ("changelog", "changes"),
         ("committed", "commit-style"), ("secrets", "secrets"), ("investing", "cleanup"), ("servers", "web-server"),
         ("persons", "on-call"), ("documents", "docs-rule"), ("expiry", "sessions"), ("configs", "settings")]
NOT_FOUND = [("postgis", "pg-host"), ("changeling", "changes"), ("committee", "commit-style"),
             ("secretary", "secrets"), ("investigate", "cleanup"), ("serverless", "web-server"),
             ("persona", "on-call"), ("documentary", "docs-rule")]


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in MEMORIES:
        mem.write(name, description, "project", body)
    return mem


def top(mem, query):
    return [(hit.name, round(hit.score, 2)) for hit in mem.search(query)]


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_stem_begins_longer_words_only_as_the_query_writes_it():
    assert spelling.start("postgr", {"postgres"}) == "postgr"  # the stemmer took -es: begins postgresql
    assert spelling.start("postgresql", {"postgresql"}) == "postgresql"
    assert spelling.start("expiri", {"expiry"}) == "expir"  # a y written i: begins expires, expiration
    assert spelling.start("configur", {"config"}) == "configur"  # a short form written whole
    assert spelling.start("cach", {"caches"}) is None  # too short (four letters) to begin others
    assert spelling.start("postgi", {"postgis"}) == "postgi"  # was postg (as if postgi were postgy): Postgres
    assert spelling.start("changel", {"changeling"}) is None  # -ing cut: changel begins no word of its own
    assert spelling.start("logist", {"logistics"}) is None
    assert spelling.start("changel", {"changeling", "changel"}) == "changel"  # one form written as the stem
    assert spelling.starts(["postgr", "changel", "port"], {"postgr": {"postgres"}, "changel": {"changeling"}}) \
        == {"postgr": "postgr"}


def test_a_longer_spelling_runs_on_by_letters_without_a_vowel():
    assert spelling.runs_on("postgresql", "postgr")  # Postgres + ql
    assert spelling.runs_on("kubectlx", "kubectl")
    assert not spelling.runs_on("kubectl", "kube")  # a name under six letters is too many words' start
    for term, held in [("committe", "commit"), ("secretari", "secret"), ("investig", "invest"),
                       ("serverless", "server"), ("persona", "person"), ("documentari", "document"),
                       ("postgresqlx", "postgr"), ("listensomething", "listen"), ("postgresql", "postgresql")]:
        assert not spelling.runs_on(term, held), (term, held)


def test_a_different_word_sharing_a_long_start_finds_nothing(store):
    for query, was in NOT_FOUND:
        assert (query, top(store, query), recalled(store, query)) == (query, [], []), was
    for query, name in FOUND:  # controls in the same store: the words the memories write, and their forms
        assert (query, top(store, query)[:1], recalled(store, query)) == (query, [(name, 1.0)], [name])


def test_a_long_name_and_another_word_rank_the_memory_holding_both_first(store):
    hits = top(store, "postgresql version")
    assert hits[0] == ("pg-host", 1.0) and hits[1][0] == "release-version" and hits[1][1] < hits[0][1]
    assert recalled(store, "which postgresql version do we run") == ["pg-host"]
    # postgis is not postgresql: the Postgres memory holds "version" as the version memory does, and no more
    # (was: pg-host 1.00, release-version 0.05, and recalled)
    hits = dict(top(store, "postgis version"))
    assert hits["pg-host"] == hits["release-version"] < 0.5 and recalled(store, "postgis version") == []


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_read_spelling_alike(store, isolated_home, project, monkeypatch):
    from mcp import Client

    from memdir.integrations.mcp.server import MemoryServer, build_server

    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")

    def cli(query):
        out = run_cli("search", query, "--json", env=env)
        return [(r["name"], round(r["score"], 2)) for r in json.loads(out.stdout)["results"]]

    assert (cli("postgis"), cli("changeling"), cli("committee")) == ([], [], [])
    assert (cli("postgresql"), cli("changelog")) == ([("pg-host", 1.0)], [("changes", 1.0)])  # controls

    async def tool():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            return [(await client.call_tool("memory_search", {"query": q})).content[0].text
                    for q in ("changeling", "postgresql")]

    none, found = anyio.run(tool)
    assert "changes" not in none and "pg-host" not in none
    assert found.splitlines()[0] == "1 result(s) for 'postgresql':" and "pg-host" in found.splitlines()[1]

    def hook(prompt):
        return run_prompt_hook(project, prompt, env)

    assert hook("set up postgis for the maps") == "" and hook("the changeling in the story") == ""
    assert "## pg-host" in json.loads(hook("which postgresql host is it"))["hookSpecificOutput"]["additionalContext"]
