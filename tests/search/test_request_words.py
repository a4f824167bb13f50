"""Request words never dilute a match (issue 28, item 1: "Function words never dilute a match").

"remind me about alembic" scored the migrations memory 0.06 where "alembic" scored 1.0, "kafka info" 0.45
where "kafka stuff" scored 0.97, "帮我审查一下代码" 0.48 and "배포 알려줘" 0.11, and the prompt hook recalled
nothing for any of them; "ruff rules" tied the lint memory with a memory whose body says "lifecycle rule".
Words that ask for information or help (memdir.text.words.REQUEST_WORDS) weigh as generic words, and a
request around a few words reads as those keywords (memdir.search.weighing.reads_as_request). Each case is
checked through the API and the real prompt hook beside a control that must find nothing in the same store:
chit-chat and requests about something no memory holds.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search.weighing import is_generic, reads_as_request
from memdir.search.tokenize import query_terms, query_tokens

from ..conftest import run_cli, run_prompt_hook


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("migrations", "Database migrations run with Alembic", "project",
              "Autogenerate, then edit by hand; never edit an applied migration.")
    mem.write("mail", "Transactional e-mails are sent through Postmark", "project",
              "Templates live in the Postmark dashboard.")
    mem.write("kafka-retention", "Kafka topics keep events for 7 days", "project",
              "Retention is set with retention.ms on the orders topic; analytics reads from it.")
    mem.write("lint", "Run ruff before committing", "feedback", "The pre-commit hooks run ruff format and ruff check.")
    mem.write("backups", "Backups go to the S3 bucket acme-backups-eu", "project",
              "A lifecycle rule moves objects to Glacier after 90 days.")
    mem.write("zh-review", "代码审查至少需要两位审阅者", "feedback", "合并之前必须通过所有测试。")
    mem.write("ko-deploy", "배포는 금요일에 하지 않습니다", "project", "핫픽스만 예외입니다.")
    mem.write("jp-deploy", "本番環境へのデプロイは木曜日のみ", "project", "金曜日のデプロイは禁止です。")
    return mem


# (query, the memory it asks for): each a request around the one word that memory holds.
REQUESTS = [
    ("remind me about alembic", "migrations"),
    ("any notes on postmark?", "mail"),
    ("the whole alembic story", "migrations"),
    ("what do we know about kafka", "kafka-retention"),
    ("kafka info", "kafka-retention"),
    ("kafka details", "kafka-retention"),
    ("ruff rules", "lint"),
    ("帮我审查一下代码", "zh-review"),
    ("请帮我审查代码", "zh-review"),
    ("배포 알려줘", "ko-deploy"),
    ("배포에 대해 알려 주세요", "ko-deploy"),
    ("배포해 주세요", "ko-deploy"),  # a breaker's: the verb's 해 after its noun, then the request
    ("배포해주세요", "ko-deploy"),
    ("배포 알려줘요", "ko-deploy"),
    ("배포 관련해서 알려줘", "ko-deploy"),
    ("デプロイについて教えてください", "jp-deploy"),
]

# A search meets a memory whose head names the query's concept in another language (search35: 배포 is a deploy).
ALSO = {"デプロイについて教えてください": ("ko-deploy",)}

# Chit-chat and requests about what no memory holds: nothing, through search and recall alike.
NOTHING = ["tell me a joke", "remind me to drink water", "remind me later", "thanks, that works", "tell me more",
           "florbix", "帮我一下", "알려줘", "help me", "이해해 주세요"]


@pytest.mark.slow
def test_a_request_around_a_memory_s_word_finds_it_strongly_and_chit_chat_finds_nothing(store):
    for query, name in REQUESTS:
        hits = store.search(query)
        assert (query, hits[0].name, hits[0].score >= 0.9) == (query, name, True), [(h.name, h.score) for h in hits]
        # no memory holding only the request word; one naming the same thing in another language is listed after it
        assert (query, [h.name for h in hits]) == (query, [name, *ALSO.get(query, ())])
        assert f"## {name} " in store.recall(query)
    for query in NOTHING:
        assert (query, [h.name for h in store.search(query)], store.recall(query)) == (query, [], "")


@pytest.mark.slow
def test_a_request_word_alone_still_finds_the_memory_that_holds_it(store):
    """A generic word is no core word only beside others: "rules" alone is what is searched, and "ruff rules"
    does not tie the lint memory with the backups memory whose body holds "rule"."""
    assert [(h.name, h.score >= 0.9) for h in store.search("lifecycle rule")] == [("backups", True)]
    assert [h.name for h in store.search("ruff rules")] == ["lint"]
    assert [h.name for h in store.search("rules")] == ["backups"]


@pytest.mark.slow
def test_the_prompt_hook_recalls_for_a_request_and_nothing_for_chit_chat(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}

    def recalled(prompt: str, session: str) -> str:
        out = run_prompt_hook(project, prompt, env, session=session)
        return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""

    for i, (prompt, name) in enumerate([("remind me about alembic", "migrations"), ("帮我审查一下代码", "zh-review"),
                                        ("배포에 대해 알려 주세요", "ko-deploy")]):
        assert f"## {name} " in recalled(prompt, f"r{i}"), prompt  # before: nothing for each
    for i, prompt in enumerate(["tell me a joke", "remind me to drink water", "remind me later"]):
        assert recalled(prompt, f"n{i}") == "", prompt


@pytest.mark.slow
def test_the_cli_lists_the_memory_a_request_asks_for(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = json.loads(run_cli("search", "remind me about alembic", "--json", env=env).stdout)["results"]
    assert [(r["name"], r["score"] >= 0.9) for r in found] == [("migrations", True)]
    control = json.loads(run_cli("search", "tell me a joke", "--json", env=env).stdout)["results"]
    assert control == []


def test_a_cjk_request_is_cut_out_of_its_run_and_is_generic():
    assert query_tokens("帮我审查一下代码") == ["帮我", "审查", "一下", "代码"]  # no 我审, 查一, 下代
    assert query_terms("배포에 대해 알려 주세요") == ["배포", "대해", "알려", "주세"]
    assert query_terms("배포 알려줘") == ["배포", "알려", "려줘"]
    assert query_terms("请求超时") == ["请求", "求超", "超时"]  # 请 alone is no request: 请求 is "request"
    assert query_tokens("배포해줘") == ["배포", "해줘"]  # a Korean request ends a word: cut there
    assert query_tokens("알려진 문제") == ["알려", "려진", "문제"]  # control: 알려진 ("known") is a word, not 알려 + 진
    assert query_tokens("관련된 문서") == ["관련", "련된", "문서"]
    assert query_tokens("배포해 주세요") == ["배포", "해", "주세", "세요"]  # the verb's 해 after a noun
    assert query_tokens("피해 보상") == ["피해", "보상"]  # control: a two-syllable word ending in 해 is a noun
    assert [t for t in query_terms("remind me about the kafka details") if is_generic(t)] == ["remind", "detail"]
    assert not is_generic("kafka") and not is_generic("审查") and not is_generic("배포")


def test_a_request_around_a_few_words_reads_as_those_words():
    assert reads_as_request(query_tokens("remind me about alembic")) is True
    assert reads_as_request(query_tokens("帮我审查一下代码")) is True
    assert reads_as_request(query_tokens("remind me later")) is False  # filler is no topic
    assert reads_as_request(query_tokens("tell me more")) is False  # nothing but the request
    assert reads_as_request(query_tokens("tell me how the deploy job reads the cache key from the lockfile")) is False
    assert reads_as_request(query_tokens("run the tests")) is None  # no request: the sentence rule decides
