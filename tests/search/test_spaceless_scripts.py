"""A word inside a sentence of Thai, Lao, Myanmar or Khmer is found, as a word of Chinese is (break13).

These scripts write no space between words: a sentence was one token, so ``memdir search กรุงเทพ`` (Bangkok)
found nothing of "เซิร์ฟเวอร์ฐานข้อมูลอยู่ที่กรุงเทพ" (the database server is in Bangkok), nor ``ភ្នំពេញ`` (Phnom Penh)
the Khmer note, nor ``ရန်ကုန်`` (Yangon) the Myanmar one: only the whole sentence found its memory. The tokenizer
splits their runs into character bigrams as it does CJK's (:data:`memdir.vocabulary.SPACELESS_RANGES`). Through
the API, the CLI, the prompt hook and the MCP SDK's client, beside a control. Vectors off.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search.tokenize import tokens

from .surfaces import cli_search, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("bangkok-db", "Thai note", "project", "เซิร์ฟเวอร์ฐานข้อมูลอยู่ที่กรุงเทพ")
    mem.write("chiang-mai", "Thai note two", "project", "สำนักงานอยู่ที่เชียงใหม่")
    mem.write("phnom-penh", "Khmer note", "project", "ម៉ាស៊ីនមេនៅភ្នំពេញ")
    mem.write("yangon", "Myanmar note", "project", "ဆာဗာသည်ရန်ကုန်တွင်ရှိသည်")
    return mem


def test_a_run_is_read_in_bigrams():
    assert "ทพ" in tokens("อยู่ที่กรุงเทพ") and set(tokens("กรุงเทพ")) <= set(tokens("อยู่ที่กรุงเทพ"))
    assert tokens("Bangkok กรุงเทพ") == ["bangkok", *tokens("กรุงเทพ")]  # a Latin word beside it as before
    assert tokens("日本語") == ["日本", "本語"]  # control: CJK as before


def test_search_finds_a_word_inside_a_sentence(store):
    def found(query):
        return [h.name for h in store.search(query)]

    assert found("กรุงเทพ") == ["bangkok-db"]  # was: nothing
    database = [(h.name, round(h.score, 2)) for h in store.search("ฐานข้อมูล")]  # was: nothing
    assert database == [("bangkok-db", 1.0), ("chiang-mai", 0.03)]  # the second shares the pair 'าน' alone: weak
    assert found("เชียงใหม่") == ["chiang-mai"]  # was: nothing
    assert found("ភ្នំពេញ") == ["phnom-penh"] and found("ရန်ကုန်") == ["yangon"]  # were: nothing
    assert found("ภูเก็ต") == []  # control: Phuket, held by no memory


@pytest.mark.slow
def test_the_cli_and_mcp_find_it(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert [name for name, _ in cli_search(env, "กรุงเทพ")] == ["bangkok-db"]
    assert cli_search(env, "ภูเก็ต") == []  # control
    thai, control = mcp_search(isolated_home, project, "เชียงใหม่", "ภูเก็ต")
    assert "chiang-mai" in thai and "bangkok-db" not in thai
    assert "chiang-mai" not in control and "bangkok-db" not in control
