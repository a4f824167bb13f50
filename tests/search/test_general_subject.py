"""A question asking what a thing is or does is answered by a memory about that thing (issue 28, recall32).

"what is p99 latency?" asks what anyone could look up; the note on the latency dashboard, whose body lists a p99
panel, holds every word of it and is still no answer, nor is the release note, whose body runs
``git push --tags``, one to "what does `git push --tags` do?". A memory answers such a question when its head (name,
title, description: what it is about) holds the whole of it (:func:`memdir.search.general.not_its_subject`).
Controls in the same store and meaning: a question on the project's dashboard, and what-questions whose words the
head holds ("what does make deploy-staging do?")."""

from __future__ import annotations

import pytest

from memdir.search import general, ranking, relevance
from memdir.search.general import asks_what_a_thing_is, not_its_subject, subject_share

from .densestub import dense_as, notes_store


@pytest.mark.parametrize(("query", "asks"), [
    ("what is p99 latency, intuitively?", True),
    ("what does `git push --tags` do?", True),
    ("Was ist structlog?", True),
    ("what is a feature flag?", True),  # a kind: asks_what_it_is answers it already, by no memory at all
    ("what's an acceptable size for a pull request?", False),  # a norm: the project's convention
    ("what is port 5434 used for?", False),  # its purpose here, not what it is
    ("what does our release workflow do?", False),  # pointing at the project's own
    ("where do I see p99 latency?", False),  # not a what-question
    ("指数バックオフとは何ですか？", True),  # the Japanese, Chinese and Korean what-is forms (false35)
    ("什么是幂等性？", True),
    ("멱등성이란 무엇인가요?", True),
    ("测试数据库是什么？", False),  # "X是什么": what the project's X is as often; the general rule alone reads it
    ("멱등성이 뭐야?", False),
    ("Redis 的过期时间怎么设置？", False),  # a how-to form: asks to do something
    ("このコードは何ですか？", False),  # pointing at a thing of the conversation
])
def test_what_a_thing_is(query, asks):
    assert asks_what_a_thing_is(query) is asks


def test_its_subject_is_the_whole_question_in_the_head():
    assert not_its_subject(0.31) and not_its_subject(0.999)
    assert not not_its_subject(1.0)  # control: the head holds every word


def test_a_question_in_bigrams_asks_its_head_for_a_share():
    # the pairs straddling "とは何ですか" are in no head: a Chinese, Japanese or Korean what-is asks CJK_SUBJECT
    assert subject_share("指数バックオフとは何ですか？") == general.CJK_SUBJECT == 0.75
    assert subject_share("什么是幂等性？") == general.CJK_SUBJECT
    assert subject_share("what is p99 latency?") == 1.0  # control: English words, all of them
    assert subject_share("how do I add a panel?") is None  # not a what-question
    assert not_its_subject(0.74, general.CJK_SUBJECT) and not not_its_subject(0.895, general.CJK_SUBJECT)


NOTES = [  # the evaluation's notes (evals/recall/memories)
    ("grafana-dash", "API latency dashboard is Grafana board 'api-latency' (uid k3f9)",
     ("Latency and error rates of the public API: https://grafana.internal/d/k3f9/api-latency Panels: p50/p95/p99 "
      "per route, 5xx rate, saturation of the worker pool. On-call checks this first when a request is slow.")),
    ("release-tagging", "Releases are cut by pushing a vX.Y.Z tag; the workflow publishes to PyPI",
     ("To release: bump `version` in pyproject.toml, update CHANGELOG.md, commit, then `git tag v1.4.2 && git push "
      "--tags`. The `release.yml` workflow builds the sdist and wheel and uploads them with trusted publishing; no "
      "API token is stored anywhere.")),
    ("staging-deploy", "Staging deploys with `make deploy-staging` from the ops repo",
     ("Staging is deployed from the ops repository, not from this one: `cd ../ops && make deploy-staging "
      "SERVICE=api`. It needs the VPN and the `deployer` AWS profile.")),
]


def test_what_a_thing_is_recalls_no_note_naming_it_in_passing(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    # The evaluation's standing of the dashboard note for the p99 question: the nearest, lead 0.037.
    cosines = dense_as(monkeypatch, mem, {"grafana-dash": 0.872, "release-tagging": 0.835, "staging-deploy": 0.80})
    general = "what is p99 latency?"
    (hit,) = [h for h in ranking.ranked(mem.session, general, pool=12, min_score=0.0)[0]
              if h.memory.name == "grafana-dash"]
    assert hit.evidence.defines and relevance.lexical(hit.evidence) >= relevance.THRESHOLD  # words alone reach it
    assert mem.recall_result(general).memories == ()
    assert mem.search(general, min_score=relevance.THRESHOLD) == []
    # control in the same store and meaning: the same words asked of the project's dashboard
    assert [m.name for m in mem.recall_result("where do I see p99 latency?").memories] == ["grafana-dash"]
    cosines.update({cosines.ids["release-tagging"]: 0.872, cosines.ids["grafana-dash"]: 0.835})
    assert mem.recall_result("what does `git push --tags` do?").memories == ()
    # control: a what-question whose every word a note's head holds is that note's
    cosines.update({cosines.ids["staging-deploy"]: 0.872, cosines.ids["release-tagging"]: 0.835})
    assert [m.name for m in mem.recall_result("what does make deploy-staging do?").memories] == ["staging-deploy"]


JA_NOTES = [  # the evaluation's Japanese note and two English ones (evals/recall/memories)
    ("ja-api-rate", "外部決済APIのレート制限は1秒あたり20リクエスト",
     ("決済プロバイダのAPIは1秒あたり20リクエストまで。超えるとHTTP 429が返る。\n"
      "リトライは指数バックオフで最大5回。`payments/client.py` の `RateLimiter` を必ず通すこと。")),
    NOTES[0], NOTES[2],
]


def test_japanese_what_is_recalls_no_note_naming_it_in_its_body(isolated_home, project, monkeypatch):
    """"指数バックオフとは何ですか？" ("what is exponential backoff?") asks what anyone could look up; the note on the
    payment API's rate limit says in its body that retries back off exponentially, holds every word of the question
    (words alone 0.99 in the evaluation) and was recalled (evals/recall/false35.py). Control in the same store and
    meaning: the same form asked of what the note's head is about (its head holds 0.895 of that question: the pairs
    of "何ですか" are in no head)."""
    mem = notes_store(isolated_home, project, JA_NOTES)
    # The evaluation's standing of the note for the question: the nearest, lead 0.033.
    dense_as(monkeypatch, mem, {"ja-api-rate": 0.828, "grafana-dash": 0.795, "staging-deploy": 0.79})
    question = "指数バックオフとは何ですか？"
    (hit,) = [h for h in ranking.ranked(mem.session, question, pool=12, min_score=0.0)[0]
              if h.memory.name == "ja-api-rate"]
    assert hit.evidence.general and hit.evidence.defines
    assert relevance.lexical(hit.evidence) >= relevance.THRESHOLD  # its words alone reach the bar
    assert mem.recall_result(question).memories == ()
    assert mem.search(question, min_score=relevance.THRESHOLD) == []
    # control: what the note's head is about, asked the same way, is that note's
    assert [m.name for m in mem.recall_result("外部決済APIのレート制限とは何ですか？").memories] == ["ja-api-rate"]
