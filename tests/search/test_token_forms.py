"""Obvious forms of one number or name are one token, in memories and queries alike (issue 28, item 1).

An audit (aud2 12, 16, 10) found ``A100s`` at 0.04 beside a memory writing "A100", ``429s`` at 0.06 beside "429",
``100 req`` tied between "100 requests per minute" and a memory whose only "100" is inside "A100", ``9:00`` weak
for "09:00", ``90d`` at 0.06 for "90 days" (while ``7d`` found "7 days" in a title), ``tz info`` missing
"tzinfo", and a query pasted with terminal colours (``ESC[31mkafka ESC[0m retention``) at 0.04 on every path.

Decided: digits written against the letters before them are part of a name, not a number of their own: ``100``
does not find a memory holding only "A100" (nor ``3`` "S3", ``256`` "sha256"), as "3 replicas" is no "S3"; the
name itself still finds it, and digits written apart by a hyphen stay a number (``sha-256``; one digit alone,
``gpt-4``'s 4, is no term: tests/search/test_acronym_plurals.py). Each
case is asked with its right value and a control in the same store, both directions (the short form in the memory
and in the query), through the API and the CLI; the escape sequences also through the MCP tool and the real
prompt hook.
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from memdir import InvalidInput, Memory
from memdir.search import index
from memdir.search.compounds import spaced_pairs
from memdir.search.tokenize import compound_groups, document_text, tokens
from tests.conftest import run_cli
from tests.search.ranked import assert_cases, top
from tests.search.surfaces import cli_search, hook_block, lexical_env, mcp_search

RED = "\x1b[31mkafka\x1b[0m retention"  # a query pasted from a coloured terminal


# ---------------------------------------------------------------- the tokenizer


def test_a_name_s_digits_are_no_number_of_their_own():
    assert tokens("A100") == ["a100"] and tokens("S3 bucket") == ["s3", "bucket"]  # one letter is no word either
    assert tokens("python3") == ["python3", "python"] and tokens("sha256") == ["sha256", "sha"]
    assert compound_groups("python3") == {"python3": ("python", "3")}  # "Python 3" one after another is python3
    assert tokens("gpt-4") == ["gpt4", "gpt"]  # a one-digit part is no number either: "GPT 4" is gpt4 (spaced_pairs)
    assert tokens("sha-256") == ["sha256", "sha", "256"]  # control: a hyphen writes a longer number apart
    assert tokens("3 replicas") == ["3", "replica"]  # control: a number alone is a number


def test_plurals_units_and_a_leading_zero_after_digits():
    assert tokens("A100s") == tokens("A100") and tokens("429s") == tokens("429") == ["429"]
    assert tokens("90d") == ["90d", "90", "day"] and set(tokens("90 days")) <= set(tokens("90d"))
    assert tokens("100ms") == ["100ms", "100", "millisecond"]
    assert tokens("100/min") == tokens("100 mins") == ["100", "minut"] == tokens("100 minutes")
    assert tokens("min replicas") == ["min", "replica"]  # control: "min" after no number may be "minimum"
    assert tokens("7 d") == ["7", "d"]  # control: a one-letter unit only joined to its number
    assert tokens("9:00") == tokens("09:00") == ["9", "00"]
    assert tokens("2026-02-03") == ["20260203", "2026", "0203"]  # the whole as written; its 2 and 3 no number alone
    assert tokens("010-2030")[1:] == ["010", "2030"]  # control: three digits led by a zero stay (a phone group)


def test_two_words_written_apart_meet_their_joined_form():
    assert spaced_pairs("tz info") == {"tzinfo": ("tz", "info")}
    assert spaced_pairs("python 3") == {"python3": ("python", "3")}
    assert spaced_pairs("a 100") == {} and spaced_pairs("3 python") == {}  # controls: a function word, a number first


def test_terminal_escape_sequences_are_no_part_of_a_word():
    assert tokens(RED) == ["kafka", "retent"] == tokens("kafka retention")
    assert document_text("\x1b[1;33mKafka\x1b[0m topics \x9b2Jkeep") == "kafka topic keep"  # C1 CSI too
    assert tokens("\x1b]0;title\x07staging") == ["stage"]  # an OSC string dropped whole
    assert tokens("31m kafka") == ["31m", "31", "kafka"]  # control: the same characters typed are words (m no term alone)


# ---------------------------------------------------------------- search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("gpu-quota", "Each team gets 4 A100 GPUs on the training cluster", "reference", "Ask infra.")
    mem.write("rate-limits", "The public API is rate-limited to 100 requests per minute per key", "project",
              "Clients get 429 with Retry-After.")
    mem.write("oncall-rota", "On-call rotation switches every Monday at 09:00 CET", "project", "Page Marta.")
    mem.write("backups", "Backups go to the S3 bucket acme-backups-eu", "project",
              "A lifecycle rule moves objects to Glacier after 90 days.")
    mem.write("kafka-retention", "Kafka topics keep events for 7 days", "project", "Set with retention.ms.")
    mem.write("dates", "Never use naive datetimes; always attach tzinfo", "feedback", "Use timezone.utc.")
    mem.write("tz-policy", "Store all timestamps in UTC", "feedback", "Convert only in the UI layer.")
    # the short forms written in the memory, found by the long ones
    mem.write("inference-gpus", "We ordered eight H100s for inference", "project", "Delivery in March.")
    mem.write("crawler", "The crawler backs off on 429s from GitHub", "project", "Exponential.")
    mem.write("standup", "Standup starts at 9:30 in room four", "project", "Remote people dial in.")
    mem.write("token-ttl", "Refresh tokens expire after 30d", "project", "Access tokens after 15 mins.")
    mem.write("ci-time", "The nightly build takes 31m on the shared runners", "project", "Cache hits cut it.")
    return mem


CASES = [  # (query, the memory it finds first, at 0.9 or more; a memory it must not find: listed weak at most)
    ("A100", "gpu-quota", "rate-limits"), ("A100s", "gpu-quota", "rate-limits"),
    ("429s", "crawler", "gpu-quota"),  # its description says 429s; rate-limits only in its body (below)
    ("100 req", "rate-limits", "gpu-quota"),
    ("100/min", "rate-limits", "gpu-quota"), ("9:00", "oncall-rota", "standup"), ("90d", "backups", "token-ttl"),
    ("7d", "kafka-retention", "backups"), ("H100", "inference-gpus", "gpu-quota"),
    ("09:30", "standup", "oncall-rota"), ("30 days", "token-ttl", "backups"), ("15 minutes", "token-ttl", "standup"),
    ("tz info", "dates", "standup"), (RED, "kafka-retention", "ci-time"),
]


@pytest.mark.slow
def test_each_form_finds_its_memory_first_and_not_the_other(store):
    assert_cases(store, CASES)
    assert {n for n, s in top(store, "429") if s >= 0.9} == {"rate-limits", "crawler"}  # 429s holds 429
    assert [n for n, s in top(store, "429s") if s >= 0.9] == ["crawler", "rate-limits"]  # the head before the body
    # the decision: a bare number does not find the name holding its digits, not even weakly; the name does
    assert [n for n, _ in top(store, "100")] == ["rate-limits"]
    assert [n for n, _ in top(store, "100 req")] == ["rate-limits"] and top(store, "A100s") == [("gpu-quota", 1.0)]
    assert top(store, "A100")[:1] == [("gpu-quota", 1.0)]
    assert [n for n, _ in top(store, "3")] == [] and top(store, "S3")[:1] == [("backups", 1.0)]
    # "tz info" finds tzinfo first; the memory holding only "tz" (its name's part) below it
    found = dict(top(store, "tz info"))
    assert found["dates"] > found.get("tz-policy", 0)
    with pytest.raises(InvalidInput, match=r"^query is empty \(.*U\+001B\)$"):  # escape codes alone are no words,
        top(store, "\x1b[31m\x1b[0m")  # so no query (break46a): not "31m" of ci-time
    assert top(store, "31m")[:1] == [("ci-time", 1.0)]  # control: typed, it is one


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_agree(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    cli = partial(cli_search, env)

    assert cli("A100s") == [("gpu-quota", 1.0)] and {n for n, _ in cli("429s")} == {"rate-limits", "crawler"}
    assert cli("100") == [("rate-limits", 1.0)]  # control: not gpu-quota's A100
    assert cli("09:00")[:1] == [("oncall-rota", 1.0)] and cli("90d")[:1] == [("backups", 1.0)]
    assert cli(RED)[:1] == [("kafka-retention", 1.0)]
    empty = run_cli("search", "\x1b[31m\x1b[0m", "--json", env=env)  # escape codes alone: no query (break46a)
    assert empty.returncode == 1 and json.loads(empty.stdout) == {
        "error": "query is empty (it holds only characters that show as nothing, such as U+001B)",
        "kind": "InvalidInput"}

    (found,) = mcp_search(isolated_home, project, RED)
    assert "kafka-retention" in found.splitlines()[1] and "relevance 1.00" in found.splitlines()[1]

    recalled = partial(hook_block, project, env)

    colored = recalled("why did \x1b[31mkafka\x1b[0m retention drop events?", "s1")
    assert "## kafka-retention" in colored and "## ci-time" not in colored
    assert recalled("why did kafka retention drop events?", "s2") == colored  # as typed without colours
    assert recalled("\x1b[31m\x1b[0m", "s3") == ""  # control: nothing fits, nothing is injected


@pytest.mark.slow
def test_an_index_of_schema_8_is_tokenized_again_and_keeps_its_vectors(store):
    store.search("A100")
    conn = index.connect(store.home)
    rowid = conn.execute("SELECT id FROM docs WHERE name = 'gpu-quota'").fetchone()[0]
    conn.execute("INSERT INTO vectors VALUES (?, 'd', 'm', x'00')", (rowid,))
    old = "each team get 4 a100 a 100 gpus on the train cluster"  # what schema 8 stored: A100 held a bare 100
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", (old, rowid))
    conn.execute("PRAGMA user_version = 8")
    index.close_all()
    conn = index.connect(store.home)  # the upgrade runs as the index is opened
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # not rebuilt: kept
    assert " 100 " not in conn.execute("SELECT description FROM fts WHERE rowid = ?", (rowid,)).fetchone()[0]
    assert [r.name for r in store.search("100")] == ["rate-limits"]
    assert top(store, "A100s")[:1] == [("gpu-quota", 1.0)]  # control: the name still finds it
