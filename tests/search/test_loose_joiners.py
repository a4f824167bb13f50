"""A ZWJ or ZWNJ no script joins with is read as absent, as a zero-width space is (break46a).

A query ``post<U+200D>gres`` shows as ``postgres``; a zero-width space in the same place was read as absent
(``post<U+200B>gres`` found the PostgreSQL memory), but a ZWJ or ZWNJ was read as a break between words, so the
query was ``post gres`` and found nothing — on every door (CLI, MCP, the prompt hook's recall). Between letters a
script joins (a Persian plural, an Indic half form, an emoji sequence) one still stays: the tokenizer reads it as it
did. Index schema 34; an index of 33 is tokenized again in place. Vectors off, real SQLite in a temp home.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.tokenize import tokens
from memdir.text.printable import without_hidden

from .ranked import top
from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

ZWJ, ZWNJ, ZWSP = "\u200d", "\u200c", "\u200b"


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    mem.write("style", "Indent with tabs", "feedback", "The linter enforces tabs in every file.")
    mem.write("gres", "Gres plugin", "project", "The gres plugin of the post office scheduler.")
    mem.write("notes", "Persian notes", "project", "\u06cc\u0627\u062f\u062f\u0627\u0634\u062a\u200c\u0647\u0627 are kept here.")
    return mem


def test_a_joiner_between_latin_letters_is_read_as_absent():
    assert without_hidden(f"post{ZWJ}gres") == "postgres" and without_hidden(f"post{ZWNJ}gres") == "postgres"
    assert tokens(f"post{ZWJ}gres") == tokens("postgres") == tokens(f"post{ZWSP}gres")  # was post, gre
    assert without_hidden(f"a{ZWJ}{ZWJ}b") == "ab" and without_hidden(f"kafka{ZWJ}") == "kafka"
    # controls: a joiner a script joins with stays, and the tokenizer reads it as before
    persian = "\u06cc\u0627\u062f\u062f\u0627\u0634\u062a\u200c\u0647\u0627"
    assert without_hidden(persian) == persian
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f466"
    assert without_hidden(family) == family and len(tokens(family)) == 1  # one term, its joiners in it
    assert without_hidden("\u0915\u094d\u200d\u0937") == "\u0915\u094d\u200d\u0937"


def test_a_query_with_a_joiner_finds_the_word_it_shows(store):
    assert top(store, f"post{ZWJ}gres") == [("db-port", 0.99)]  # was gres (post, gres: the plugin)
    assert top(store, f"post{ZWNJ}gres port") == top(store, "postgres port")
    assert top(store, "gres plugin") == [("gres", 1.0)]  # control: the other memory by its words
    assert top(store, "\u06cc\u0627\u062f\u062f\u0627\u0634\u062a\u200c\u0647\u0627")[0][0] == "notes"  # control


def test_an_index_of_schema_33_is_tokenized_again(store):
    layer = store.session.layer_path("project")
    path = f"{layer}/style.md"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:  # a hand edit: the write gateway drops such a joiner itself
        f.write(text.replace("linter", f"lin{ZWJ}ter"))
    assert top(store, "linter") == [("style", 1.0)]  # the index made and synced under 34
    conn = index.connect(store.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'style'").fetchone()[0]
    body = conn.execute("SELECT body FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", (body.replace("linter", "lin ter"), row))
    conn.execute("PRAGMA user_version = 33")  # 33's terms: lin, ter
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    body = conn.execute("SELECT body FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    assert "linter" in body.split() and "lin" not in body.split()
    assert top(store, "linter") == [("style", 1.0)]
    assert top(store, "postgres") == [("db-port", 0.99)]  # control: the other rows as before


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_read_it_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, f"post{ZWJ}gres") == [("db-port", 0.99)]
    assert cli_search(env, "gres plugin") == [("gres", 1.0)]  # control
    joined, control = mcp_search(isolated_home, project, f"post{ZWJ}gres", "tabs linter")
    assert "db-port" in joined and "gres (" not in joined
    assert "style" in control and "db-port" not in control
    block = hook_block(project, env, f"which port does dev post{ZWJ}gres listen on?")
    assert block_names(block) == ["db-port"]  # was nothing recalled
    assert block_names(hook_block(project, env, "which port does dev postgres listen on?", session="s2")) == ["db-port"]
