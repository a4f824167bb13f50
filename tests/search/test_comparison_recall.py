"""A question comparing things asks what they are in general (near-topic false recalls of the recall evaluation's
``near.jsonl``: "what's the difference between Redis and Memcached?" recalled the note on Redis sessions, 0.48 agreed;
"how do webhooks differ from polling?" the Stripe webhook note): at the relevance threshold only a memory stating the
query in one place is returned (:func:`memdir.search.relevance.bar`), on every path that ranks
(:func:`memdir.search.ranking.ranked`: recall, the prompt hook, CLI and MCP search)."""

from __future__ import annotations

import math

import pytest

from memdir.search.relevance import Evidence, bar, compares, returned

from .densestub import dense_as, notes_store
from .evalstore import cli_recaller, needs_vectors


@pytest.mark.parametrize("query", [
    "what's the difference between Redis and Memcached?", "how do webhooks differ from polling?",
    "Redis vs. Memcached", "RDB versus AOF", "Differences between UTC and GMT", "Was ist der Unterschied zwischen A und B?",
    "Wie unterscheiden sich A und B?", "MySQL 和 PostgreSQL 有什么区别？", "两者的差别", "RDBとAOFの違いは？", "둘의 차이가 뭐야?",
    "VS Code vs Vim", "Vim vs VS Code", "Unterschiede zwischen A und B", "두 버전이 차이나는 부분"])
def test_comparisons_in_five_languages(query):
    assert compares(query)


@pytest.mark.parametrize("query", [
    "use a different port for the dev database", "which Redis database holds the login sessions?",
    "show me the diff", "the vsync setting", "differential backups", "当前的区域设置", "違う", "",
    "which VS Code extensions do we use?", "set up vs-code debugging", "ＶＳ Ｃｏｄｅ", "設定の間違いを直して", "勘違いでした",
    "原因はキャッシュに違いない", "차이나 리전 배포", "차이나타운", "unterschiedliche Umgebungen einrichten",
    "vs"])  # "vs" alone joins no two sides (test_comparison_words)
def test_not_comparisons(query):
    assert not compares(query)


def _ev(**kw) -> Evidence:
    base = dict(coverage=0.29, head=0.29, mass=1.5, cosine=0.85, matched=("redi",), shared=("redi",), lead=0.03,
                gap=0.066, held=0.0, compared=True)
    base.update(kw)
    return Evidence(**base)


def test_a_comparison_returns_only_a_memory_stating_it():
    assert bar(_ev()) == math.inf and not returned(_ev(), 0.999)  # one side named: never at the threshold
    assert bar(_ev(held=0.9)) == 0.4 and returned(_ev(held=0.9), 0.48)  # stated in one place: the agreed bar
    assert bar(_ev(compared=False)) == 0.4 and returned(_ev(compared=False), 0.48)  # not a comparison: as before
    assert bar(_ev(), min_score=0.0) == 0.0  # ranking all (min_score under the threshold): the caller's bar
    assert returned(_ev(), 0.04, explicit=True)  # a typed search still lists a memory sharing its word


NOTES = [
    ("redis-sessions", "User sessions live in Redis db 3 with a 14-day TTL",
     "The web app stores login sessions in Redis database 3. Redis db 0 is the Celery broker."),
    ("redis-dbs", "What each Redis database holds",
     "The difference between Redis db 0 and db 3: db 0 is the Celery broker and db 3 holds the login sessions."),
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
]


def _store(isolated_home, project, monkeypatch, table: dict[str, float]):
    """The notes above, the dense side as ``table`` (name → cosine; the rest 0.80), the words read for real."""
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, table, rest=0.80)
    return mem


def test_a_near_topic_comparison_recalls_nothing_beside_a_question_that_needs_the_memory(
        isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, {"redis-sessions": 0.88, "redis-dbs": 0.84})
    needed = "which Redis database holds the login sessions?"
    assert "redis-sessions" in [m.name for m in mem.recall_result(needed).memories]  # control
    near = "which Redis databases hold the login sessions, versus Memcached?"
    assert [m.name for m in mem.recall_result(near).memories] == []  # the same words asked as a comparison
    assert "redis-sessions" in [h.name for h in mem.search("redis vs memcached")]  # a typed search lists it


def test_a_comparison_a_memory_states_is_recalled(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, {"redis-dbs": 0.90, "redis-sessions": 0.86})
    names = [m.name for m in mem.recall_result("what's the difference between redis db 0 and db 3?").memories]
    assert names[:1] == ["redis-dbs"]


def test_a_word_only_holding_a_comparison_word_recalls_as_before(isolated_home, project, monkeypatch):
    """ "VS Code" (as 間違い, a mistake, or 차이나 리전, China) is no comparison: the note it names is recalled."""
    mem = _store(isolated_home, project, monkeypatch, {})
    mem.write("editor-setup", "Editor: VS Code with the Ruff and Pylance extensions, format on save", "project",
              "Workspace settings live in .vscode/settings.json; the debugger launch config is in .vscode/launch.json.")
    cos = dense_as(monkeypatch, mem, {}, rest=0.80)
    ids = cos.ids
    cos[ids["editor-setup"]] = 0.88
    assert [m.name for m in mem.recall_result("how do I set up VS Code debugging").memories] == ["editor-setup"]
    cos[ids["editor-setup"]], cos[ids["redis-sessions"]] = 0.80, 0.88
    near = "which Redis databases hold the login sessions vs Memcached?"  # control: a comparison still is one
    assert [m.name for m in mem.recall_result(near).memories] == []
    assert "redis-sessions" in [m.name for m in mem.recall_result(near.replace(" vs Memcached", "")).memories]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_of_comparisons_on_the_eval_store(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, on the recall evaluation's store: comparisons of
    general things recall nothing (each recalled the note naming one side before), the questions needing those
    notes recall them."""
    recalled = cli_recaller(tmp_path)

    assert "redis-sessions" in recalled("which Redis database holds the login sessions?")  # controls
    assert "payment-webhooks" in recalled("how long can our Stripe webhook handler take before Stripe retries?")
    assert "timezone-utc" in recalled("store the created_at timestamp for new orders")
    for prompt in ("what's the difference between Redis and Memcached?", "how do webhooks differ from polling?",
                   "what's the difference between UTC and GMT?"):
        assert (prompt, recalled(prompt)) == (prompt, [])
