"""A comparison word that stands for something else is no comparison (:mod:`memdir.search.comparison`): "VS" naming a
product ("how do I set up VS 2022 debugging" recalled nothing though the IDE note states it), a word inside a path
("src/vs/base"), Japanese 違います ("that's wrong"), "VS‑Code" written with another dash. Each kind beside the
comparisons that stay comparisons."""

from __future__ import annotations

import json

import pytest

from memdir.search.comparison import compares
from memdir.text.lookalike import DASHES, dashes

from ..conftest import run_cli
from .evalstore import needs_vectors


def _store_names_vs(spelling: str) -> bool:
    return spelling == "VS"


def _store_names_nothing(spelling: str) -> bool:
    return False


@pytest.mark.parametrize("query", ["how do I set up VS 2022 debugging", "how do I set up VS Community debugging",
                                   "VS 2022 debugger symbols", "configure (VS) for C++"])
def test_vs_the_store_writes_as_a_name_is_no_comparison(query):
    assert not compares(query, _store_names_vs)


@pytest.mark.parametrize("query", ["2023 vs 2024", "Pro vs Community", "postgres vs mysql", "X VS Y",
                                   "POSTGRES VS MYSQL", "VS 2022 vs VS 2019 debugging", "Redis vs. Memcached",
                                   "RDB versus AOF", "VS Code vs Vim"])
def test_vs_joining_two_sides_stays_a_comparison_in_a_store_naming_vs(query):
    """Lower-case "vs", a query all in capitals (shouted: its case names nothing) and a "vs" beside a named "VS"."""
    assert compares(query, _store_names_vs)


def test_upper_case_vs_is_a_comparison_where_the_store_names_no_vs():
    assert compares("how do I set up VS 2022 debugging", _store_names_nothing)
    assert compares("how do I set up VS 2022 debugging")  # nothing asked of the store: read as written
    assert compares("Pro VS Community", _store_names_nothing)
    assert not compares("Pro VS Community", _store_names_vs)  # the store's own name for it


def test_the_store_is_asked_only_for_a_query_writing_vs_in_capitals():
    asked = []

    def named(spelling: str) -> bool:
        asked.append(spelling)
        return True

    assert compares("what's the difference between Redis and Memcached?", named)
    assert compares("redis vs memcached", named)
    assert asked == []
    assert not compares("set up VS 2022", named)
    assert asked == ["VS"]


@pytest.mark.parametrize("query", ["vs", "vs?", "VS 2022", "versus", "what is vs", "Redis vs", "vs. Memcached",
                                   "which one? vs. the old one"])
def test_vs_without_a_side_on_each_hand_is_no_comparison(query):
    assert not compares(query)


@pytest.mark.parametrize("query", ["look in src/vs/base for the editor", "C:\\tools\\vs\\bin", "open differences.md",
                                   "run diff_tool.py", "see https://example.com/redis-vs-memcached",
                                   "the vs_code_version setting", "src/vs/baseの設定"])
def test_a_word_inside_a_path_or_identifier_is_no_comparison(query):
    assert not compares(query)


@pytest.mark.parametrize("query", ["src/vs/base vs src/vs/editor", "diff_tool vs meld", "v1.2 vs v1.3",
                                   "differences between config.yaml and config.toml", "src/vs/baseの違いは？"])
def test_a_path_stands_as_a_side_of_a_comparison(query):
    assert compares(query)


@pytest.mark.parametrize("query", ["それは違います", "違いました", "いいえ、違いません", "違う", "それは違うよ",
                                   "原因はキャッシュに違いありません", "手違いでした", "見当違いの設定", "設定の食い違い",
                                   "何か違う気がする"])
def test_japanese_wrong_and_must_be_are_no_comparison(query):
    assert not compares(query)


@pytest.mark.parametrize("query", ["RDBとAOFの違いは？", "違いを教えて", "AとBは何が違うの？", "どこが違うの？",
                                   "RDBとAOFはどう違いますか", "AとBに違いはありますか", "二つの違い"])
def test_japanese_difference_stays_a_comparison(query):
    assert compares(query)


@pytest.mark.parametrize("dash", list(DASHES))
def test_every_dash_reads_as_a_hyphen_before_code(dash):
    assert dashes(f"VS{dash}Code") == "VS-Code"
    assert not compares(f"how do I set up VS{dash}Code debugging")
    assert compares(f"Vim vs VS{dash}Code")  # control: a comparison still


def test_dashes_leave_other_characters():
    assert dashes("a-b ~ _ 一 ー") == "a-b ~ _ 一 ー"


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_of_vs_as_a_name(isolated_home, project):
    """``memdir recall`` in fresh processes, the real embedder: "VS 2022" names the IDE the note writes "(VS 2022)",
    so the question recalls it (nothing before); a real comparison in the same store still recalls nothing."""
    env = {"MEMDIR_SEARCH_VECTORS": "on"}
    writes = [("ide-setup", "IDE: Visual Studio 2022 Community (VS 2022) with the C++ workload",
               "Debugger symbols come from the symbol server set in Tools > Options > Debugging."),
              ("db-port", "Dev PostgreSQL listens on 5433", ""), ("ci", "CI runs on GitHub Actions", "")]
    for name, description, body in writes:
        done = run_cli("write", name, "-d", description, "-t", "project", *(("--body", body) if body else ()),
                       env=env, cwd=project)
        assert done.returncode == 0, done.stderr
    assert run_cli("reindex", env=env, cwd=project).returncode == 0

    def recalled(prompt: str) -> list[str]:
        done = run_cli("recall", prompt, "--json", env=env, cwd=project)
        assert done.returncode == 0, done.stderr
        return [m["name"] for m in json.loads(done.stdout)["memories"]]

    assert recalled("how do I set up Visual Studio 2022 debugging") == ["ide-setup"]  # control: the name spelled out
    assert recalled("how do I set up VS 2022 debugging") == ["ide-setup"]
    assert recalled("how do I set up VS Community debugging") == ["ide-setup"]
    assert recalled("VS 2022 and VS 2019 debugging") == ["ide-setup"]
    assert recalled("VS 2022 vs VS 2019 debugging") == []  # the same words compared: no note states it
