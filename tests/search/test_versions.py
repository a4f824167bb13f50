"""A version number is told from its neighbours and found by its leading parts (vers19, issue 28 §1).

A probe found ``v2.3`` and ``v2.4`` both read as the term ``v2`` alone (a one-digit group of a dotted number is no
term), so a memory on v2.3.1 ranked level with one on v2.4; ``2.3`` and ``sdk 2.3`` did not find "v2.3.1", and
``Postgres 16.4`` was ``postgres 16``. Joining the digits (``v2.4`` → ``v24``) was tried and reverted: ``v1.0`` is
``v10``, ``v10.0.x`` ``v100``. memdir.search.versions gives a dotted number its leading parts of two groups or more,
one term each, joined by a character no word or number gives a term. Checked through the API, the CLI, the MCP
server's memory_search and the prompt hook, each with controls beside the memory found; an index of schema 20 is
tokenized again.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.relevance import THRESHOLD
from memdir.search.tokenize import VERSION_JOIN, tokens

from .ranked import top
from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

J = VERSION_JOIN


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("sdk-231", "The payments SDK v2.3.1 retries idempotent calls", "project", "Pinned in requirements.txt.")
    mem.write("sdk-24", "The payments SDK v2.4 dropped the retry flag", "project", "Use the client option instead.")
    mem.write("pg-164", "Staging runs PostgreSQL 16.4.2", "project", "Upgraded in March.")
    mem.write("pg-15", "The reporting replica still runs PostgreSQL 15", "project", "Upgrade planned.")
    mem.write("argocd", "Deploys go through ArgoCD", "project", "The app-of-apps lives in infra/.")
    return mem


def test_a_dotted_number_is_also_its_leading_parts():
    assert tokens("v2.3") == ["v2", f"2{J}3"] and tokens("v2.4") == ["v2", f"2{J}4"]  # were both ["v2"]
    assert tokens("SDK v2.3.1") == ["sdk", "v2", f"2{J}3", f"2{J}3{J}1"]  # 20's v231 231 31 gone (vers20)
    assert tokens("sdk 2.3") == ["sdk", f"2{J}3"] and tokens("Postgres 16.4") == ["postgr", "16", f"16{J}4"]
    assert tokens("v2.3.1-rc1") == ["v2", "rc", f"2{J}3", f"2{J}3{J}1", f"2{J}3{J}1{J}rc1", "rc1"]  # was ["v2"]: rc kept too
    assert tokens("gateway 10.0.0.1") == ["gateway", "10", f"10{J}0", f"10{J}0{J}0", f"10{J}0{J}0{J}1"]
    assert tokens("٢.٣") == tokens("２.３") == [f"2{J}3"]  # other digits as in words: ٢.٣ and ２.３ are 2.3
    assert tokens("ratio 0.5") == ["ratio", f"0{J}5"] and tokens("pi is 3.14") == ["pi", "is", f"3{J}14"]
    assert tokens("on 2024.01.15") == ["on", "2024", "15", "20240115", "0115"]  # a date: its groups, as before
    assert tokens("02.11.2026") == ["11", "2026", "20261102", "02112026", "112026"]  # and its ISO digits (vers20)
    assert tokens("Chrome 120.0.6099.109")[:3] == ["chrome", "120", f"120{J}0"]  # control: four groups, a version
    assert f"120{J}0{J}6099" in tokens("Chrome 120.0.6099.109") and f"1{J}10{J}2" in tokens("1.10.2")
    # no collision with a word or another number: the reverted v24 design's cases
    assert not set(tokens("v1.0")) & set(tokens("v10 version 10 1 0 10"))
    assert not set(tokens("v10.0.1")) & set(tokens("V100 100 v100"))
    assert not set(tokens("2.3")) & set(tokens("23 2 3 2-3 2_3 2/3"))
    # controls: a slash, a list of nine and a name's digits are no version
    assert tokens("1/2 cup") == ["1", "2", "cup"] and tokens("1.2.3.4.5.6.7.8.9") == []
    assert tokens("python3.11") == ["python3", "python", f"3{J}11"]  # a name's version (vers20)


def test_the_index_reads_a_joined_term_whole(store):
    assert top(store, "2.3.1") == [("sdk-231", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    terms = {row[0] for row in conn.execute("SELECT term FROM fts_terms")}
    assert {f"2{J}3", f"2{J}3{J}1", f"2{J}4", f"16{J}4", f"16{J}4{J}2"} <= terms
    assert "2" not in terms and "3" not in terms and "v2" in terms  # control: FTS5 split none of them


def test_a_version_finds_its_memory_and_ranks_its_neighbour_below(store):
    assert top(store, "2.3") == [("sdk-231", 1.0)]  # was: nothing
    assert top(store, "2.4") == [("sdk-24", 1.0)]  # control: the other one
    assert top(store, "v2.3") == [("sdk-231", 1.0)]  # was: both at 0.99; vers19: sdk-24 at 0.04 by v2
    assert top(store, "v2.4") == [("sdk-24", 1.0)]
    assert top(store, "sdk 2.3") == [("sdk-231", 1.0), ("sdk-24", 0.04)]  # was: both at 0.03; two groups never clash
    assert [hit.why["terms"] for hit in store.search("sdk v2.3")] == [["sdk", "2.3"], ["sdk"]]  # as written
    assert top(store, "16.4") == [("pg-164", 1.0)]
    assert top(store, "Postgres 16.4") == [("pg-164", 1.0), ("pg-15", 0.02)]  # pg-15 by postgres alone
    assert top(store, "postgres 15") == [("pg-15", 1.0), ("pg-164", 0.02)]  # control: 15 is no 16.4's part
    assert sorted(top(store, "v2")) == [("sdk-231", 0.99), ("sdk-24", 0.99)]  # control: the bare major holds both alike
    assert top(store, "2.5") == []  # control: no memory holds it (was: nothing either, "2" and "5" no terms)
    # a version no memory holds: nothing (was 1.0, then pg-164 at 0.55 by the major 16 alone; search41: a query's
    # dotted number is that number, exact, its major and shorter leading parts no terms of the query)
    assert top(store, "16.5") == []
    assert top(store, "16") == [("pg-164", 1.0)]  # control: the major asked alone finds the 16.4.2 memory
    assert top(store, "v2.5") == []  # vers20: a query's v2 of v2.5 is dropped (its 2.5 says it); was both at 0.43
    for query in ("2.3", "v2.3", "sdk 2.3", "Postgres 16.4"):
        found = top(store, query)
        assert found[0][1] == 1.0 and all(score < THRESHOLD for _, score in found[1:])  # the neighbour below
        assert "argocd" not in dict(found)  # nothing unrelated padded in


def test_every_door_reads_a_version_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "2.3") == [("sdk-231", 1.0)]
    assert cli_search(env, "sdk 2.3") == [("sdk-231", 1.0), ("sdk-24", 0.04)]
    assert cli_search(env, "Postgres 16.4") == [("pg-164", 1.0), ("pg-15", 0.02)]
    assert cli_search(env, "2.5") == []  # control: nothing padded in
    found, other, nothing = mcp_search(isolated_home, project, "2.3", "v2.4", "2.5")
    assert "sdk-231" in found and "sdk-24" not in found
    assert "sdk-24" in other and "sdk-231" not in other  # vers20: v2.4 no longer lists v2.3.1 by v2
    assert "sdk-231" not in nothing and "sdk-24" not in nothing
    assert block_names(hook_block(project, env, "what changed in the payments SDK 2.3?")) == ["sdk-231"]


def test_an_index_of_schema_20_reads_its_versions_again(store):
    assert top(store, "2.3") == [("sdk-231", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'sdk-231'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", ("the payment sdk v2 v231 231 31 retri", row))
    conn.execute("PRAGMA user_version = 20")  # 20's terms: no 2.3 of its own
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert f"2{J}3" in conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    assert top(store, "2.3") == [("sdk-231", 1.0)]
    assert top(store, "ArgoCD") == [("argocd", 1.0)]  # control: the other rows as before


def test_a_version_beside_cjk_letters_is_one(isolated_home, project):
    """break20: a version written against CJK letters (no space in Japanese, Chinese; a Korean particle) gave no
    version terms — the rule read ン, を, 发 as a name's letters (python3.11) — so '2.3', which is the term 2⋅3
    alone since vers19, found none of them (before vers19 it met their 2 and 3)."""
    assert f"2{J}3{J}1" in tokens("バージョン2.3.1を使う") and f"2{J}3" in tokens("版本v2.3.1发布")
    assert f"2{J}3" in tokens("버전 2.3.1을 사용") and f"2{J}3" in tokens("版本2.3.1")  # a version ending the text
    assert f"1{J}5" in tokens("用1.5升") and tokens("python3.11") == ["python3", "python", f"3{J}11"]  # a name's
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("ja-231", "SDKはバージョン2.3.1を使う", "project", "固定済み。")
    mem.write("zh-24", "支付版本v2.4发布", "project", "重试参数已删除。")
    mem.write("argocd", "Deploys go through ArgoCD", "project", "The app-of-apps lives in infra/.")
    assert top(mem, "2.3") == [("ja-231", 1.0)]  # was []
    assert top(mem, "2.4") == [("zh-24", 1.0)]  # was []
    assert top(mem, "ArgoCD") == [("argocd", 1.0)]  # control


def test_a_decimal_with_its_unit_written_on_is_one(isolated_home, project):
    """break20: since vers19 '1.5' is the term 1⋅5 alone, but a number with its unit written on (1.5GB, 2.5ms, 0.5s,
    1.5x) was no version — letters after it read as a name's — so '1.5' and '2.5' found none of them (before vers19
    they met by the digits). Since vers20 its digits are no terms of their own: '5' finds neither."""
    assert tokens("cache 1.5GB") == ["cach", "gigabyt", f"1{J}5"]  # vers20: no 1, 5gb, 5
    assert f"2{J}5" in tokens("2.5ms latency") and f"2{J}3{J}1" in tokens("v2.3.1a")
    assert tokens("python3.11") == ["python3", "python", f"3{J}11"]  # a name's version (vers20)
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("cache", "The build cache holds 1.5GB", "project", "Pruned weekly.")
    mem.write("latency", "The p99 latency is 2.5ms on staging", "project", "Measured with wrk.")
    mem.write("argocd", "Deploys go through ArgoCD", "project", "The app-of-apps lives in infra/.")
    assert top(mem, "1.5") == [("cache", 1.0)]  # was []
    assert top(mem, "2.5") == [("latency", 1.0)]  # was []
    assert top(mem, "5") == []  # vers20: a bare 5 is no 1.5GB's, nor 2.5ms's (test_version_forms)
    assert top(mem, "ArgoCD") == [("argocd", 1.0)]  # control
