"""A memory written in another script than the prompt that shares with it only the store's common words, carried by its
standing among its script's few memories alone, is not recalled (false37: "write a unit test for the slugify
function…" recalled the Chinese note on the test database, "test" in its name, though three English notes holding
"test" were nearer in meaning). :func:`memdir.search.relevance.commonly_held` marks it, :func:`~memdir.search.relevance.loaned`
and :func:`~memdir.search.relevance.bar` decide."""

from __future__ import annotations

import math

from memdir.search import ranking, relevance
from memdir.search.relevance import Evidence

from .densestub import dense_as, notes_store

SLUGIFY = "write a unit test for the slugify function covering unicode titles like 'Crème brûlée'"


def _ev(**kw) -> Evidence:
    # SLUGIFY and the Chinese note on the test database in the evaluation's store (evals/recall/false37.py's dump)
    base = {"coverage": 0.06, "head": 0.06, "mass": 1.2, "cosine": 0.814, "matched": ("test",), "gap": 0.011,
            "lead": -0.014, "missing": 3.9, "query": 3.93, "shared": ("test",), "kin": (0.030, 0.028), "common": True}
    base.update(kw)
    return Evidence(**base)


def test_another_scripts_note_sharing_only_common_words_is_not_returned_at_the_threshold():
    loaned = _ev()
    assert relevance.loaned(loaned)
    assert relevance.score(loaned) >= relevance.AGREED_THRESHOLD  # what its kin standing alone gave it
    assert relevance.bar(_ev(common=False)) == relevance.AGREED_THRESHOLD  # the kin bar it reached (kin_near)
    assert relevance.bar(loaned) == math.inf
    assert relevance.bar(loaned, min_score=0.2) == 0.2  # a caller asking for its own bar gets it
    assert not relevance.loaned(_ev(stand_in=True))  # its head names the prompt's concept: a word held
    assert not relevance.loaned(_ev(query=2.9))  # a short prompt: its one word is much of it
    assert not relevance.loaned(_ev(kin=None))  # the prompt's own script: crowded and thin decide there


NOTES = [
    ("no-mocks-db", "Integration tests must hit a real database, not mocks",
     "Do not mock the database layer in integration tests; use the pg fixture from tests/conftest.py."),
    ("test-names", "Test functions are named after the behaviour they check",
     "Name each test test_<behaviour>, never test_1; one assert per behaviour."),
    ("flaky-tests", "Flaky tests are quarantined with the flaky marker",
     "A test that fails once in ten runs gets @pytest.mark.flaky and an issue; never retry it in CI silently."),
    ("zh-test-db", "单元测试使用 SQLite 内存数据库，集成测试用 MySQL 容器",
     "单元测试跑在 SQLite 内存数据库上，速度快；集成测试通过 docker compose 启动 MySQL 8 容器。"),
    ("zh-deploy", "生产环境发布只在周二和周四下午进行", "生产环境的发布窗口是每周二和周四下午两点到五点。"),
    ("zh-logging", "日志里不能打印用户手机号和身份证号", "任何日志都不能包含用户的手机号、身份证号或银行卡号，必须先脱敏。"),
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
]
COSINES = {"no-mocks-db": 0.83, "test-names": 0.825, "flaky-tests": 0.82, "zh-test-db": 0.815, "zh-deploy": 0.785,
           "zh-logging": 0.78, "pg-port": 0.80}


def _recalled(mem, cos, prompt):
    hits, _terms, _scope = ranking.ranked(mem.session, prompt, pool=50, min_score=0.0)
    note = next(h for h in hits if h.memory.name == "zh-test-db")
    return note.evidence, [m.name for m in mem.recall_result(prompt).memories]


def test_the_chinese_note_sharing_test_is_not_recalled_while_three_english_notes_holding_it_are_nearer(
        isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    cos = dense_as(monkeypatch, mem, COSINES)
    ev, names = _recalled(mem, cos, SLUGIFY)
    assert ev.shared == ("test",) and ev.kin is not None and ev.common  # three English notes hold "test", nearer
    assert relevance.score(ev) >= relevance.AGREED_THRESHOLD  # its standing among the Chinese notes alone
    assert names == []
    # the control: with two English notes holding "test" nearer (the third now farther than it), the same note is
    # what its kin standing makes it: recalled
    cos[cos.ids["flaky-tests"]] = 0.79
    ev, names = _recalled(mem, cos, SLUGIFY)
    assert not ev.common and names == ["zh-test-db"]
