"""One word however it is spelled (issue 28, items 1 and 6): search returns every memory sharing a content word
with the query after normalization, and pads nothing in.

- German writes an umlaut out: "Müller" is "Mueller", "Göthe" "Goethe". A memory writing "Mueller" was not found
  by "Müller" (nor "Göthe" by "Goethe"). A word written with an umlaut is now read as both spellings
  (:func:`memdir.text.fold.umlauts_spelled`), either one the word (:func:`memdir.search.compounds.joined_parts`);
  a word written without one is only itself, so "blue", "queue", "shoes" or "aerial" are never read as umlauts.
- A plural in parentheses: "entry(ies)" also found the memory writing "i.e." (its "ies" read as the word "ie"), and
  "process(es)" carried a word "es". The inflection is now the word's (``file(s)`` is ``file``).

Each case through the Python API, the CLI, the real prompt hook and the MCP SDK's client, beside a control in the
same store.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.tokenize import compound_groups, query_terms, tokens
from memdir.text.fold import umlauts_spelled

from ..conftest import run_cli
from .surfaces import hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("billing-contact", "Who approves invoices", "project", "Herr Mueller approves every invoice over 5k.")
    mem.write("build-owner", "Who owns the build farm", "project", "Frau Schröder owns the build farm.")
    mem.write("quote", "The quote on the wall", "user", "A line from Göthe hangs in the hallway.")
    mem.write("theme", "Default theme colours", "user", "The blue theme is the default; queue badges are true red.")
    mem.write("fonts", "Chart fonts", "user", "Charts use Arial at 11 pt.")
    mem.write("flower", "Plant notes", "user", "The Blüte of the cherry lasts a week.")
    mem.write("uploads", "Upload limits", "project", "Each upload may hold file(s) up to 10 MB; failed "
              "process(es) retry twice; rejected entry(ies) are logged.")
    mem.write("latin", "Latin abbreviations", "feedback", "Write i.e. and e.g. only in parentheses.")
    mem.write("search-cluster", "Search cluster", "project", "The ES cluster runs three nodes.")
    return mem


# ---------------------------------------------------------------- German umlauts written out

# (query, the memory it must find): each spelling of the word, the memory writing another.
UMLAUTS = [("Müller", "billing-contact"), ("Mueller", "billing-contact"), ("Schroeder", "build-owner"),
           ("Schröder", "build-owner"), ("Schroder", "build-owner"), ("Goethe", "quote"), ("Göthe", "quote"),
           ("Gothe", "quote"), ("Bluete", "flower")]
# Words whose ae, oe or ue is no umlaut: each finds its own memory only, never one of an umlaut.
NOT_UMLAUTS = [("blue", "theme"), ("queue", "theme"), ("true", "theme"), ("aerial", None), ("shoes", None),
               ("canoe", None), ("does", None)]


def test_a_word_with_an_umlaut_reads_as_both_spellings_and_no_other_word_does():
    assert umlauts_spelled("Müller") == "mueller" and umlauts_spelled("GÖTHE") == "goethe"
    assert umlauts_spelled("Größe") == "groesse" and umlauts_spelled("Mu\u0308ller") == "mueller"  # NFD too
    assert [umlauts_spelled(w) for w in ("Mueller", "blue", "queue", "blü", "Zürich")] == [None, None, None, None,
                                                                                           "zuerich"]
    assert tokens("Müller") == ["muller", "mueller"] and compound_groups("Müller") == {"mueller": ("muller",)}
    assert tokens("Mueller") == ["mueller"] and tokens("Muller") == ["muller"]  # as written: one spelling each
    assert [tokens(w) for w in ("blue", "queue", "does", "shoes", "canoe", "aerial")] == [
        ["blue"], ["queue"], ["doe"], ["shoe"], ["cano"], ["aerial"]]  # control: no umlaut read into them
    assert tokens("blü") == ["blu"] and tokens("Straße") == tokens("Strasse") == ["strass"]
    assert compound_groups("back-off") == {"backoff": ("back", "off")}  # control: a compound's group as before


@pytest.mark.slow
def test_every_spelling_of_an_umlaut_finds_the_memory_and_no_other(store):
    for query, name in UMLAUTS:
        hits = store.search(query)
        assert (query, [h.name for h in hits], hits[0].score >= 0.9) == (query, [name], True), \
            [(h.name, h.score) for h in hits]
    for query, name in NOT_UMLAUTS:
        assert (query, [h.name for h in store.search(query)]) == (query, [name] if name else [])
    assert [h.name for h in store.search("blü")] == []  # a short word is not written out: no "blue"
    assert "## billing-contact " in store.recall("who is Herr Müller?")
    assert "## build-owner " in store.recall("ask Schroeder about the build farm")


@pytest.mark.slow
def test_the_cli_the_prompt_hook_and_mcp_read_an_umlaut_written_out(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    for query, name in UMLAUTS[:5]:
        found = json.loads(run_cli("search", query, "--json", env=env).stdout)["results"]
        assert (query, [r["name"] for r in found]) == (query, [name])
    found = json.loads(run_cli("search", "aerial blue", "--json", env=env).stdout)["results"]
    assert [r["name"] for r in found] == ["theme"]  # control: Arial and the Blüte are not found
    block = hook_block(project, env, "who is Herr Müller?", "u")
    assert "## billing-contact " in block and "build-owner" not in block
    assert hook_block(project, env, "what does an aerial canoe cost?", "n") == ""  # control: nothing mangled
    found, other = mcp_search(isolated_home, project, "Müller invoices", "aerial")
    assert "billing-contact" in found and "build-owner" not in found
    assert "fonts" not in other  # control: aerial is no Arial


# ---------------------------------------------------------------- a plural in parentheses

PLURALS = ["file(s)", "file", "files", "processes", "process(es)", "entries", "entry", "entry(ies)"]


def test_a_plural_in_parentheses_is_the_word_s():
    assert [tokens(w) for w in ("file(s)", "process(es)", "entry(ies)", "child(ren)", "FILE(S)")] == [
        ["file"], ["process"], ["entri"], ["child"], ["file"]]
    assert tokens("file(s)") == tokens("files") and tokens("entry(ies)") == tokens("entries")
    assert query_terms("entry(ies)") == ["entri"] and query_terms("process(es)") == ["process"]  # no "ie", "es"
    assert tokens("client.search(es)") == ["client", "search", "es"]  # control: a call's argument stays
    assert tokens("f(x)") == ["f", "x"] and tokens("the ES cluster") == ["the", "es", "cluster"]


@pytest.mark.slow
def test_a_plural_in_parentheses_finds_and_is_found_by_the_word_and_nothing_else(store, isolated_home):
    for query in PLURALS:
        hits = store.search(query)
        assert (query, [h.name for h in hits], hits[0].score >= 0.9) == (query, ["uploads"], True), \
            [(h.name, h.score) for h in hits]
    other = Memory.open(home=isolated_home / "other", actor="human", search_vectors="off")
    other.write("logs", "Log files", "user", "Old log files are gzipped nightly.")
    other.write("entries", "Ledger entries", "user", "Each entry is signed.")
    assert [h.name for h in other.search("file(s)")] == ["logs"]  # the query's "(s)": found as files
    assert [h.name for h in other.search("entry(ies)")] == ["entries"]
    assert [h.name for h in store.search("i.e.")] == ["latin"]  # control: the memory of i.e. by its own word
    assert [h.name for h in store.search("ES")] == ["search-cluster"]  # and the ES cluster by its own


@pytest.mark.slow
def test_the_cli_the_prompt_hook_and_mcp_read_a_plural_in_parentheses(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    for query in ("entry(ies)", "process(es)", "files"):
        found = json.loads(run_cli("search", query, "--json", env=env).stdout)["results"]
        assert (query, [r["name"] for r in found]) == (query, ["uploads"])  # before: also latin for entry(ies)
    block = hook_block(project, env, "how big may the upload file(s) be?", "p")
    assert "## uploads " in block and "latin" not in block and "search-cluster" not in block
    found, = mcp_search(isolated_home, project, "entry(ies)")
    assert "uploads" in found and "latin" not in found


@pytest.mark.slow
def test_an_index_of_schema_10_reads_its_umlauts_and_plurals_again(store):
    assert [h.name for h in store.search("Schröder")] == ["build-owner"]  # the index made and synced
    conn = index.connect(store.home)
    owner, uploads = (conn.execute("SELECT id FROM docs WHERE name = ?", (n,)).fetchone()[0]
                      for n in ("build-owner", "uploads"))
    conn.execute("UPDATE fts SET body = 'frau schroder own the build farm' WHERE rowid = ?", (owner,))  # schema 10's
    conn.execute("UPDATE fts SET body = 'file s entri ie' WHERE rowid = ?", (uploads,))
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (owner,))
    conn.execute("PRAGMA user_version = 10")
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # in place: the vector kept
    body = conn.execute("SELECT body FROM fts WHERE rowid = ?", (owner,)).fetchone()[0]
    assert body == "frau schroder schroeder own the build farm"
    assert " ie " not in conn.execute("SELECT body FROM fts WHERE rowid = ?", (uploads,)).fetchone()[0]
    assert [h.name for h in store.search("Schroeder")] == ["build-owner"]
