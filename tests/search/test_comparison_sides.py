"""A memory states a comparison when it states its sides: the comparison word is no word it must write
(:func:`memdir.search.comparison.comparison_terms`). Before, one memory writing "vs" (a note named
redis-vs-memcached) made "vs" a word the store holds, so "pip vs uv" no longer counted as stated by the note
"Install dependencies with uv sync, not pip install" (held 0.67 < 0.9): recall, the prompt hook and MCP hid the
project's own answer while a typed search listed it at 0.97 (break10)."""

from __future__ import annotations

import pytest

from memdir.search import relevance
from memdir.search.comparison import comparison_terms
from memdir.search.tokenize import query_terms

from .densestub import dense_as, notes_store
from .surfaces import block_names, hook_block, lexical_env, mcp_search

NOTES = [
    ("install-deps", "Install dependencies with uv sync, not pip install",
     "The repo uses uv; run uv sync after pulling."),
    ("python-version", "The service runs on Python 3.12; don't use 3.13 features yet", "The CI image pins 3.12."),
    ("redis-vs-memcached", "We chose Redis vs Memcached for the session cache for persistence", "Decided in March."),
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
]
COSINES = {"install-deps": 0.88, "python-version": 0.86, "redis-vs-memcached": 0.84, "pg-port": 0.82}


def test_the_comparison_words_of_a_query():
    assert comparison_terms(query_terms("pip vs uv")) == {"vs"}
    assert comparison_terms(query_terms("what is the difference between pip and uv?")) == {"differ"}
    assert comparison_terms(query_terms("RDB versus AOF")) == {"versus"}
    assert comparison_terms(query_terms("Was ist der Unterschied? Wie unterscheiden sie sich?")) == {
        "unterschi", "unterscheiden"}
    assert comparison_terms(query_terms("RDBとAOFの違いは？")) == {"違い"}
    assert comparison_terms(query_terms("MySQL 和 PostgreSQL 有什么区别？")) == {"区别"}
    assert comparison_terms(query_terms("pip install uv")) == frozenset()  # control: no comparison word


@pytest.mark.parametrize("query, name", [("pip vs uv", "install-deps"), ("python 3.12 vs 3.13", "python-version"),
                                         ("what's the difference between uv and pip?", "install-deps"),
                                         ("redis vs memcached", "redis-vs-memcached")])
def test_a_memory_stating_both_sides_answers_a_comparison_though_another_writes_vs(isolated_home, project,
                                                                                    monkeypatch, query, name):
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, COSINES)
    assert [m.name for m in mem.recall_result(query).memories] == [name]
    assert [h.name for h in mem.search(query, min_score=relevance.THRESHOLD)] == [name]


def test_a_comparison_naming_one_side_still_recalls_nothing(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, COSINES)
    assert mem.recall_result("Postgres vs MySQL").memories == ()  # pg-port names one side only
    assert mem.recall_result("uv vs poetry").memories == ()  # install-deps names one side only
    # control: a question on one thing recalls its note, nearest to it in meaning (COSINES put pg-port farthest of all,
    # where the words alone would not carry it: relevance.outranked)
    dense_as(monkeypatch, mem, {**COSINES, "pg-port": 0.90})
    assert [m.name for m in mem.recall_result("which port does the dev postgres use?").memories] == ["pg-port"]


@pytest.mark.slow
def test_the_prompt_hook_answers_pip_vs_uv_and_mcp_lists_it_first(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    assert mem.search("pip")  # the index is built
    env = lexical_env(isolated_home, project)
    assert block_names(hook_block(project, env, "pip vs uv", session="a")) == ["install-deps"]
    assert hook_block(project, env, "uv vs poetry", session="b") == ""  # control: one side only
    (pip_uv,) = mcp_search(isolated_home, project, "pip vs uv")  # a typed search listed it before too
    assert pip_uv.splitlines()[1].startswith("- install-deps ")
