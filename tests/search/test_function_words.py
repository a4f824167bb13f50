"""Function words never match (issue 28): CJK grammar, chat interjections, and the near forms search reads alike.

A Korean or Japanese thank-you shares its grammatical ending with a memory's sentences, and "um" or "lol"
beside a strong keyword diluted it: each is a function word of the query (memdir.text.words,
memdir.search.tokenize). Every path ranks through memdir.search.ranking.ranked; the API's search and recall,
the CLI and the prompt hook are checked here, each with a control that must be found in the same store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.search.tokenize import is_stopword, query_terms, tokens

from ..conftest import run_cli, run_prompt_hook


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("ko-note", "배포는 금요일에 하지 않습니다", "project", "금요일 배포 금지 규칙")
    mem.write("ja-note", "ステージングのデータベースは毎晩リセットされます", "project",
              "リセットは午前3時にあります。バックアップがあります。")
    mem.write("zh-note", "日志系统使用结构化日志格式", "project", "我们的日志是结构化的")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 because of a clash.")
    mem.write("logging", "Use structlog for logging, JSON lines in production", "project",
              "Each log line carries request_id.")
    mem.write("redis-ttl", "Redis session keys expire after 30 minutes", "project",
              "The TTL is set by SESSION_TTL; a key expires unless touched.")
    mem.write("replica", "The read replica follows the primary with a 2 s lag", "project",
              "Reports read from the replica, writes go to the primary.")
    return mem


def names(mem, query):
    return [hit.name for hit in mem.search(query)]


CJK_CHAT = ["알겠습니다", "고맙습니다", "했습니다", "감사합니다", "합니다", "ありがとうございます", "はい、わかりました",
            "好的", "我知道了", "是的"]


@pytest.mark.slow
def test_cjk_chit_chat_finds_nothing_beside_the_content_words_that_find_it(store):
    for chat in CJK_CHAT:
        assert (chat, names(store, chat), store.recall(chat)) == (chat, [], "")
    assert names(store, "배포") == ["ko-note"]  # control: the content words of the same memories
    assert names(store, "금요일") == ["ko-note"]
    # db-port's name says "db", a form of the lexicon's concept of a database: a search meets it too (search35)
    assert names(store, "データベース") == ["ja-note", "db-port"]
    assert names(store, "日志") == ["zh-note", "logging"]  # "logging" names 日志's concept in English (search35)


def test_cjk_grammar_is_a_stopword_and_content_bigrams_are_not():
    assert [t for t in tokens("고맙습니다") if is_stopword(t)] == ["습니", "니다"]
    assert query_terms("배포합니다") == ["배포", "포합"]  # 합니 (ㅂ before 니) and 니다 are the ending
    assert query_terms("わかりました") == ["わか", "かり"]  # りま (a verb stem before ます), まし, した
    assert query_terms("结构化的日志") == ["结构", "构化", "化的", "的日", "日志"]  # pairs with 的 are kept
    assert query_terms("的 日志") == ["日志"]  # 的 alone is grammar
    assert not is_stopword("배포") and not is_stopword("学習") and not is_stopword("학습")


@pytest.mark.slow
def test_a_filler_word_does_not_dilute_a_full_match(store):
    plain = store.search("replica primary")
    assert [h.name for h in plain] == ["replica"] and plain[0].score >= 0.99
    for query in ["uh replica primary", "hey replica primary", "replica primary lol", "um replica primary",
                  "replica primary pls"]:
        filled = store.search(query)
        assert (query, [(h.name, h.score) for h in filled]) == (query, [("replica", plain[0].score)])


@pytest.mark.slow
def test_an_interjection_or_the_pronoun_one_is_a_function_word(store):
    for query, bare, found in [("um postgres", "postgres", "db-port"), ("hey postgres", "postgres", "db-port"),
                               ("postgres lol", "postgres", "db-port"), ("the postgres one", "postgres", "db-port"),
                               ("hmm structlog", "structlog", "logging"), ("structlog one", "structlog", "logging")]:
        hits = [(h.name, h.score) for h in store.search(query)]
        assert hits == [(h.name, h.score) for h in store.search(bare)] and hits[0][0] == found
        assert hits[0][1] >= 0.99
        if not query.startswith("the "):  # a prompt of keywords and interjections reads as keywords
            assert f"## {found} " in store.recall(query)


@pytest.mark.slow
def test_chat_alone_still_finds_nothing(store):
    for chat in ["thanks, that works", "ok cool", "zxqvbnm", "ok", "lol", "hmm ok thanks"]:
        assert (chat, names(store, chat), store.recall(chat)) == (chat, [], "")
    assert names(store, "structlog") == ["logging"]  # control


@pytest.mark.slow
def test_near_forms_meet(store):
    for query, found in [("expiry", "redis-ttl"), ("prod structlog", "logging"), ("database port", "db-port"),
                         ("5,433", "db-port"), ("dev postgres", "db-port")]:
        assert (query, names(store, query)[:1]) == (query, [found])
    assert names(store, "expiry") == ["redis-ttl"]  # control: the near form pads in no other memory


def test_grouped_numbers_and_short_forms_tokenize_as_one_word():
    assert tokens("port 5,433 of 10,000,000") == ["port", "5433", "of", "10000000"]
    assert tokens("1,2,3 and 10,20") == ["1", "2", "3", "and", "10", "20"]  # a list is no number
    assert tokens("prod DB envs") == tokens("production database environments")
    assert tokens("config repo") == tokens("configuration repository")


@pytest.mark.slow
def test_the_cli_and_the_prompt_hook_agree(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}
    found = json.loads(run_cli("search", "고맙습니다", "--json", env=env).stdout)["results"]
    control = json.loads(run_cli("search", "um postgres", "--json", env=env).stdout)["results"]
    assert found == [] and [r["name"] for r in control] == ["db-port"]

    def hook(prompt):
        return run_prompt_hook(project, prompt, env)

    assert hook("고맙습니다") == ""
    assert "## db-port" in json.loads(hook("postgres port lol"))["hookSpecificOutput"]["additionalContext"]


_HOOK = """
import io, json, sys
from memdir.integrations.claude_code import hooks
out = hooks.run("UserPromptSubmit", stdin=io.StringIO(json.dumps(
    {"session_id": sys.argv[2], "cwd": sys.argv[1], "hook_event_name": "UserPromptSubmit", "prompt": sys.argv[3]})))
print(json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else "")
"""


@pytest.mark.slow
def test_setup_beside_a_memory_s_distinctive_name_is_a_task_word(store, project):
    """Leftover 5: "hmm structlog setup?" recalled nothing through the prompt hook: ``setup``, a word no memory
    holds, weighed more than ``structlog`` and kept the prompt from naming the logging memory. It is a task
    word (:data:`memdir.search.weighing.GENERIC`), as ``set`` is."""
    def hook(prompt: str) -> str:
        done = subprocess.run([sys.executable, "-c", _HOOK, str(project), f"s-{prompt}", prompt],
                              capture_output=True, text=True, timeout=120, env=dict(os.environ,
                                                                                    MEMDIR_SEARCH_VECTORS="off"))
        assert done.returncode == 0, done.stderr
        return done.stdout

    recalled = hook("hmm structlog setup?")
    assert "## logging " in recalled and "Each log line carries request_id." in recalled  # before: nothing
    assert "## db-port " not in recalled and "## redis-ttl " not in recalled  # only the memory it names
    assert hook("hmm setup?").strip() == ""  # control: the task word alone names no memory
    assert [h.name for h in store.search("structlog setup")] == ["logging"]
    assert store.recall("structlog zebra") == ""  # a content word no memory holds still holds a prompt back
