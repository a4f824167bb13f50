"""A prompt in another script naming a concept that an English memory's head names (issue 28 item 2, hits36).

"機能フラグはどうやって追加する？" beside a memory titled "Feature flags are read from LaunchDarkly…": no memory holds the
bigrams of 機能フラグ, so they weighed as straddling pairs (soft, :func:`memdir.search.weighing.soft_terms`) and a
soft term never stood in (:func:`memdir.search.concepts.met`): the concept was never met. A form the prompt holds whole
is a word, not a straddle: it stands in at the weight the query gives it. And a general question ("…どうやって出す？",
"怎么部署到预发布环境？") whose memory shares no word with it but meets its words by their concept is read by the words
so met (:func:`memdir.search.relevance.general_held` on the lifted evidence): a memory sharing a word is not (the
general-question rule still holds "how do I set an expiry on a Redis key?" off the note on Redis sessions).
"""

from __future__ import annotations

import pytest

from memdir.search import concepts, weighing
from memdir.search.tokenize import query_terms

from .evalstore import eval_store, needs_vectors


def test_an_unheld_cjk_form_stands_in_at_its_weight():
    terms = query_terms("機能フラグはどうやって追加する？")
    counts = {"追加": 2, "する": 5}  # no memory holds a bigram of 機能フラグ
    heads = {1: tuple(query_terms("Feature flags are read from LaunchDarkly")),
             2: tuple(query_terms("Dev PostgreSQL listens on 5433"))}
    weights = weighing.term_weights(terms, counts, 40)
    got = concepts.met(heads, terms, counts, 40)
    assert got == {1: {t: weights[t] for t in ("機能", "能フ", "フラ", "ラグ")}}  # at their softened weight
    assert weights["機能"] == pytest.approx(weighing.SOFT_WEIGHT * weighing.term_weights(["機能"], {}, 40, frozenset({"機能"}))["機能"])
    # control: a straddling pair no memory holds and no form holds ("グは") stands in nowhere
    assert "グは" in terms and all("グは" not in stand for stand in got.values())


@pytest.fixture(scope="module")
def evalstore(tmp_path_factory):
    return eval_store(tmp_path_factory.mktemp("conceptforeign"))


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


@needs_vectors
def test_a_general_question_met_by_its_concept_alone_is_recalled(evalstore):
    assert recalled(evalstore, "デプロイ前にステージング環境で確認したい、どうやって出す？") == ["staging-deploy"]
    assert "staging-deploy" in recalled(evalstore, "怎么部署到预发布环境？")
    # controls in the same store: a general question whose memory shares its words keeps the general rule's bar
    assert recalled(evalstore, "how do I set an expiry on a Redis key?") == []
    assert "redis-sessions" not in recalled(evalstore, "Redis 的过期时间怎么设置？")


@needs_vectors
def test_a_memory_meeting_the_words_by_their_concept_alone_is_barred_on_them(evalstore):
    # the Chinese note on production release days (生产环境发布) shares no word with the prompt; it meets "production
    # release" by its concepts, and standing first among its script's memories it is agreed on the words so met
    assert recalled(evalstore, "schedule the production release for Friday evening") == ["zh-deploy"]
    # controls in the same store: prompts whose words the note meets by the same concepts (production; production
    # release, asked in general) but that it does not answer recall nothing
    assert recalled(evalstore, "is the production database backed up every night?") == []
    assert recalled(evalstore, "what does a production release checklist usually contain?") == []


def test_behind_a_toggle_is_a_feature_flag(isolated_home, project, monkeypatch):
    # "behind a toggle" is how a change gated by a feature flag is written; "toggle" alone is a UI switch (lexicon)
    from memdir import Memory

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("feature-flags", "Feature flags are read from LaunchDarkly; the local fallback is flags.yaml", "project",
              "New flags must default to off in flags.yaml and be removed within two releases after full rollout.")
    mem.write("pg-port", "Dev PostgreSQL listens on 5433", "project", "Not the default 5432: set PGPORT=5433.")
    assert recalled(mem, "put the new onboarding screen behind a toggle") == ["feature-flags"]
    # controls in the same store: a toggle that is a UI switch recalls nothing, another memory's words recall it
    assert recalled(mem, "add a dark mode toggle to the settings page") == []
    assert recalled(mem, "which port does the dev postgres listen on?") == ["pg-port"]
