"""One word however it is spelled (issue 28, items 1 and 6): search returns every memory sharing a content word
with the query after normalization, and pads nothing in.

- Japanese writes one word in katakana or hiragana: a memory writing "カナダ" or "ドッカー" was not found by
  "かなだ" or "どっかー" (nor a hiragana one by its katakana). A query's kana term now also reads as its spelling
  in the other kana that memories write (:func:`memdir.text.fold.kana_spellings`, the one rule;
  :func:`memdir.search.compounds.in_other_kana`), one term with it; the text keeps its script, so hiragana is still
  read as grammar in a sentence, and the dakuten still make another word (ガイド is no カイト).

Each case through the Python API, the CLI, the real prompt hook and the MCP SDK's client, beside a control in the
same store.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search.tokenize import tokens
from memdir.text.fold import hiragana, kana_spellings, katakana
from memdir.text.names import normalize_name

from ..conftest import run_cli, run_prompt_hook
from .surfaces import lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("canada-office", "カナダ支社", "project", "カナダのオフィスはトロントにある。")
    mem.write("docker-ja", "ドッカーの設定", "project", "ドッカーは開発機でだけ使う。")
    mem.write("sushi-shop", "すしのみせ", "user", "すしは えきまえの みせで かう。")
    mem.write("kite", "カイトの色", "user", "カイトは赤い。")
    mem.write("naruto", "ナルトの巻", "user", "ナルトは全部読んだ。")
    return mem


# ---------------------------------------------------------------- katakana and hiragana

KANA = [("かなだ", "canada-office"), ("ｶﾅﾀﾞ", "canada-office"), ("どっかー", "docker-ja"), ("ﾄﾞｯｶｰ", "docker-ja"),
        ("スシ", "sushi-shop"), ("かいと", "kite")]


def test_a_kana_term_s_other_spelling_is_the_other_kana_small_kana_and_the_long_mark_kept():
    assert hiragana("カナダ") == hiragana("ｶﾅﾀﾞ") == "かなだ" and katakana("かなだ") == "カナダ"
    assert hiragana("ドッカー") == hiragana("ﾄﾞｯｶｰ") == "どっかー" and katakana("どっかー") == "ドッカー"  # ッ small
    assert hiragana("ァャッヵヶヽヾーヷ・漢") == "ぁゃっゕゖゝゞーヷ・漢"  # no hiragana (ヷ), not kana: as it is
    assert kana_spellings("カナ") == ("かな",) and kana_spellings("かー") == ("カー",)
    assert kana_spellings("イか") == ("いか", "イカ") and kana_spellings("部署") == () == kana_spellings("docker")
    assert tokens("ドッカー") == ["ドッ", "ッカ", "カー"]  # the text keeps its script: the index is as it was
    assert kana_spellings("がい") == ("ガイ",) and "カイ" not in kana_spellings("がい")  # a dakuten is no accent
    assert normalize_name("ソース").name == "m-0037410597"  # names: as they were


@pytest.mark.slow
def test_a_word_in_katakana_or_hiragana_finds_the_memory_writing_the_other(store):
    for query, name in KANA:
        hits = store.search(query)
        assert (query, [h.name for h in hits], hits[0].score >= 0.9) == (query, [name], True), \
            [(h.name, h.score) for h in hits]
    assert store.search("がいど") == []  # control: ガイド (guide) is no カイト (kite)
    assert "## docker-ja " in store.recall("どっかーの設定を教えて")
    assert "kite" not in store.recall("どっかーの設定を教えて")
    assert "## sushi-shop " in store.recall("スシのミセはどこ")  # katakana finds the memory writing hiragana
    assert "## canada-office " in store.recall("かなだのおふぃすはどこ")
    assert store.recall("これからどうなるのかな") == ""  # control: grammar in hiragana recalls no ナルト, no カナダ


@pytest.mark.slow
def test_the_cli_the_prompt_hook_and_mcp_read_one_kana_as_the_other(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    for query, name in KANA:
        found = json.loads(run_cli("search", query, "--json", env=env).stdout)["results"]
        assert (query, [r["name"] for r in found]) == (query, [name])
    assert json.loads(run_cli("search", "がいど", "--json", env=env).stdout)["results"] == []  # control
    out = run_prompt_hook(project, "どっかーの設定を教えて", env, session="k")
    block = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "## docker-ja " in block and "canada-office" not in block
    block = json.loads(run_prompt_hook(project, "スシのミセはどこ", env, session="s"))["hookSpecificOutput"]
    assert "## sushi-shop " in block["additionalContext"] and "kite" not in block["additionalContext"]
    assert run_prompt_hook(project, "これからどうなるのかな", env, session="n").strip() == ""  # control
    found, other = mcp_search(isolated_home, project, "かなだ", "がいど")
    assert "canada-office" in found and "docker-ja" not in found
    assert "kite" not in other and "canada-office" not in other  # control: nothing shares a word
