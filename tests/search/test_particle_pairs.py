"""A bigram of a hiragana before a katakana or a kanji (``に実`` of "30分に実行", ``のコ`` of "このコード") is a particle
or an inflection's end and the next word's first character, no word of a Japanese prompt: it weighs as soft as a
bigram of hiragana alone (:func:`memdir.search.weighing.soft_terms`, false33). Real words, real SQLite, vectors off."""

from __future__ import annotations

from .densestub import notes_store
from .test_conversation_pointer import NOTES

JA_BATCH = ("ja-batch", "夜間バッチは毎日午前3時に実行され、失敗するとSlackに通知される",
            ("売上集計の夜間バッチは毎日午前3時（JST）に cron で実行される。\n"
             "失敗した場合は #batch-alerts チャンネルに通知が飛ぶ。"))


def test_a_particle_before_a_word_is_no_word_of_a_japanese_prompt():
    """``に実`` of "30分に実行" is a particle and the next word's first character: soft (false33), as a bigram of
    hiragana alone is; the word's own bigram ``実行`` is not."""
    from memdir.search.weighing import soft_terms

    assert soft_terms(["cron", "に実", "実行", "のコ", "コー"]) == {"に実", "のコ"}
    assert soft_terms(["cron", "実行", "コー"]) == set()  # control: no particle pair, nothing soft


def test_a_general_cron_question_in_japanese_does_not_recall_the_batch_note(isolated_home, project):
    """"How do I write 'every hour at :30' in cron?" shares only "cron" and 実行 with the batch note once に実 is soft:
    a general question (:mod:`memdir.search.general`) its words no longer carry; a question on the batch itself
    still recalls it."""
    mem = notes_store(isolated_home, project, [*NOTES, JA_BATCH])
    assert mem.recall_result("cron で毎時30分に実行する書き方は？").memories == ()
    assert [m.name for m in mem.recall_result("夜間バッチは何時に実行される？").memories] == ["ja-batch"]


def test_a_hiragana_before_the_long_mark_is_inside_a_word():
    """ー (the long mark, in the katakana block) lengthens the hiragana before it: かー of どっかー is a word's own pair."""
    from memdir.search.weighing import soft_terms

    assert soft_terms(["docker", "かー"]) == set()
    assert soft_terms(["docker", "かカ"]) == {"かカ"}  # control: a katakana letter after it is a pair
