"""A past form the stemmer cannot bring to its verb is that verb (kinds19, issue 28: search finds the obvious).

Snowball reads "writes" and "writing" as write, but "wrote" and "written" as words of their own: `search
"written"` found nothing beside "Alice wrote the migration runbook", "overridden" nothing beside a memory on
overriding. memdir.text.words.IRREGULAR_VERBS holds the strong verbs a code base writes, read as their base by
memdir.search.stemming.stem in memories and queries alike. Checked through the API, the CLI, the MCP server's
memory_search and the prompt hook, each with a control beside the memory found; and an index of schema 19 is
tokenized again.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.stemming import stem
from memdir.search.stopwords import is_stopword
from memdir.text.words import IRREGULAR_VERBS, REQUEST_WORDS

from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("runbook-author", "Alice wrote the migration runbook", "project", "It lives in the wiki.")
    mem.write("flag-override", "Per-tenant settings override the global feature flags", "project",
              "The tenant table wins over flags.yaml.")
    mem.write("lockfile", "CI installs with a frozen lockfile", "project", "pnpm install --frozen-lockfile.")
    mem.write("queue-hang", "The export worker hangs when Redis is down", "project", "Restart it after Redis.")
    mem.write("build-cache", "Docker images build from the cache on main", "project", "Cache key is the lockfile hash.")
    return mem


def names(mem, query):
    return [hit.name for hit in mem.search(query)]


def test_a_past_form_stems_as_its_verb_and_a_word_of_its_own_stays():
    assert stem("wrote") == stem("written") == stem("writes") == stem("write") == "write"
    assert stem("overridden") == stem("overrode") == stem("overrides") == stem("overrid")
    assert stem("frozen") == stem("freezing") and stem("hung") == stem("hangs") and stem("ran") == stem("running")
    assert stem("left") == "left" and stem("saw") == "saw" and stem("gone") == "gone"  # words of their own
    assert not any(is_stopword(stem(form)) or is_stopword(stem(verb)) for form, verb in IRREGULAR_VERBS.items())
    assert not set(IRREGULAR_VERBS) & REQUEST_WORDS and not set(IRREGULAR_VERBS.values()) & REQUEST_WORDS


def test_a_past_form_finds_the_memory_written_with_another_form(store):
    assert names(store, "written") == ["runbook-author"]  # was: nothing
    assert names(store, "who writes runbooks") == ["runbook-author"]
    assert names(store, "overridden flags") == ["flag-override"]  # was: the memory only by "flags"
    assert names(store, "overrode") == ["flag-override"]  # was: nothing
    assert names(store, "freeze the lockfile") == ["lockfile", "build-cache"]  # lockfile in both, freeze in one
    assert names(store, "worker hung") == ["queue-hang"]
    assert names(store, "built images") == ["build-cache"]
    assert names(store, "saw") == [] and names(store, "sent") == []  # control: no memory holds them


def test_every_door_reads_a_past_form_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert [name for name, _ in cli_search(env, "written")] == ["runbook-author"]
    assert [name for name, _ in cli_search(env, "overrode")] == ["flag-override"]
    assert cli_search(env, "sent") == []  # control: nothing padded in
    written, nonsense = mcp_search(isolated_home, project, "written", "sent")
    assert "runbook-author" in written and "flag-override" not in written
    assert "runbook-author" not in nonsense and "flag-override" not in nonsense
    assert block_names(hook_block(project, env, "who has written the migration runbook?")) == ["runbook-author"]


def test_an_index_of_schema_19_reads_its_words_again(store):
    assert names(store, "written") == ["runbook-author"]  # the index made and synced
    conn = index.connect(store.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'runbook-author'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", ("alic wrote the migrat runbook", row))
    conn.execute("PRAGMA user_version = 19")  # 19's terms: wrote a word of its own
    conn.execute("DROP INDEX files_errors")  # nor had 19 the index of refused files (search.unread)
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert "wrote" not in conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'files_errors'").fetchone() == (1,)
    assert names(store, "written") == ["runbook-author"]
    assert names(store, "lockfile") == ["lockfile", "build-cache"]  # control: the other rows as before
