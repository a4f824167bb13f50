"""A version in its other forms, a date in its other orders, and a decimal's digits (vers20, issue 28 §1).

Since vers19 a dotted version is its leading parts (``2.3.1`` → ``2⋅3``, ``2⋅3⋅1``), but a probe found the forms
around it broken: a version with a name written on (``python3.11``, ``postgres16.4``, ``node20.1``, ``r2.3``) was
the name's digits, so ``3.11`` found "Use python3.11" at 0.57 and ``16.4`` found no "postgres16.4"; ``v2.3`` found
"r2.3", "the 2.3.x line" and "2.3.1-rc.1" at 0.03 (they hold no ``v2``) and listed "v2.4" by it; the digits of a
version's later groups and its digits run together were terms, so ``5`` found "1.5GB", ``3.12`` three memories at
0.38 (by the ``12`` of two dates) and ``v3.21.0`` "v32.1.0" at 0.95 (both ``v3210``); a date written year last met
its ISO form only by its year and month, level with the next day. Each checked with a control beside it, through
the API, the CLI, the MCP server's memory_search and the prompt hook; an index of schema 22 is tokenized again.

The decision on a decimal: a bare ``5`` is a number, not the 5 of "1.5 GB" (nor the 11 of "Python 3.11"); ``1.5``,
``1.5 GB`` and ``1.5GB`` find it, written either way.
"""

from __future__ import annotations

import pytest

from memdir.search import index
from memdir.search.relevance import THRESHOLD
from memdir.search.tokenize import VERSION_JOIN, query_terms, tokens

from .densestub import notes_store
from .ranked import top
from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search

J = VERSION_JOIN

MEMORIES = [
    ("py311", "Use python3.11 for the build", "Set in the CI image."),
    ("py312", "The lint job pins python3.12", "Ruff needs it."),
    ("pg164", "Staging runs postgres16.4", "Upgraded in March."),
    ("node201", "CI images ship node20.1", "From the base image."),
    ("rc1", "Ship v2.3.1rc1 to staging first", "Then canary."),
    ("rcdot", "The 2.3.1-rc.1 tag failed its smoke test", "Retag after the fix."),
    ("beta", "The mobile app is on 1.0.0-beta.2", "TestFlight only."),
    ("r23", "The r2.3 branch holds the hotfix", "Cherry-pick from main."),
    ("x23", "Docs cover the 2.3.x line", "Older lines are archived."),
    ("v24", "The v2.4 release dropped the retry flag", "Use the client option."),
    ("freeze", "The code freeze starts 2026-12-04", "No merges after noon."),
    ("audit", "The security audit is on 2026-12-05", "Bring the SOC2 folder."),
    ("a321", "Agent v3.21.0 is deployed to prod", "Rolled out Monday."),
    ("a3210", "Agent v32.1.0 is in beta", "Opt-in only."),
    ("err321", "Error 321 means the token expired", "Refresh it."),
    ("cache", "The build cache holds 1.5GB", "Pruned weekly."),
    ("disk", "The disk quota is 1.5 GB per user", "Ask ops for more."),
    ("retries", "The client retries 5 times before failing", "Backoff doubles."),
    ("argocd", "Deploys go through ArgoCD", "The app-of-apps lives in infra/."),
]


@pytest.fixture
def store(isolated_home, project):
    return notes_store(isolated_home, project, MEMORIES)


def names(found: list[tuple[str, float]]) -> set[str]:
    return {name for name, _ in found}


def test_a_version_with_a_name_written_on_is_its_version():
    assert tokens("python3.11") == ["python3", "python", f"3{J}11"]  # was python3 python 11
    assert tokens("postgres16.4") == ["postgres16", "postgr", "16", f"16{J}4"]  # was postgres16 postgr 4
    assert tokens("node20.1") == ["node20", "node", "20", f"20{J}1"] and tokens("r2.3") == ["r2", f"2{J}3"]
    assert tokens("log4j2.17.1")[-2:] == [f"2{J}17", f"2{J}17{J}1"]
    assert tokens("Python 3.11") == ["python", f"3{J}11"]  # as written apart: no 11 of its own
    assert tokens("3.11") == [f"3{J}11"] and tokens("python 3") == ["python", "3"]  # controls: a number alone
    assert tokens("m5.2xlarge") == ["m5", "2xlarge", "2", "xlarg"]  # control: a name's digits and a size, as before


def test_a_version_with_a_name_written_on_is_found_by_its_number(store):
    assert top(store, "3.11") == [("py311", 1.0)]  # was 0.57
    assert top(store, "3.12") == [("py312", 1.0)]  # control; was py312, freeze, audit at 0.38
    assert top(store, "16.4") == [("pg164", 1.0)]  # was []
    assert top(store, "node 20.1") == [("node201", 1.0)]  # was 0.6
    for query in ("python 3.11", "python3.11", "Python 3.11"):
        found = top(store, query)
        assert found[0] == ("py311", 1.0) and dict(found)["py312"] < THRESHOLD, query  # by python alone


def test_a_pre_release_or_other_form_is_found_by_its_version(store):
    assert tokens("v2.3.1rc1") == ["v2", "rc", f"2{J}3", f"2{J}3{J}1", f"2{J}3{J}1{J}rc1", "rc1"]  # was v2 3 1rc1 1 rc ...
    assert tokens("2.3.x") == [f"2{J}3", "x", f"\ue003ge2{J}3\ue003lt2{J}4"]  # and its span (left44a: search.ranges)
    assert tokens("1.0.0-beta.2")[:3] == ["beta", f"1{J}0", f"1{J}0{J}0"]
    assert query_terms("v2.3") == [f"2{J}3"] and query_terms("v2") == ["v2"]  # a query's v2 of v2.3 dropped
    assert tokens("v2.3") == ["v2", f"2{J}3"]  # control: a memory keeps it ("v2" finds it)
    found = top(store, "2.3.1")
    assert names(found[:2]) == {"rc1", "rcdot"} and found[1][1] == 0.99 and "v24" not in names(found)
    found = top(store, "v2.3")  # was rc1 alone at 1.0, v24 0.06, the others 0.03 or absent (r2.3)
    assert names(found) == {"rc1", "rcdot", "r23", "x23"} and min(score for _, score in found) >= 0.9
    assert names(top(store, "2.3")) == {"rc1", "rcdot", "r23", "x23"}
    assert top(store, "2.4") == top(store, "v2.4") == [("v24", 1.0)]  # control: no 2.3 of any form
    assert top(store, "1.0.0") == [("beta", 1.0)]  # was 0.92
    assert sorted(top(store, "v2")) == [("rc1", 0.99), ("v24", 0.99)]  # control: the major as written


def test_a_date_is_no_version_and_finds_its_day_written_any_way(store):
    for date in ("2026/12/04", "12/04/2026", "04.12.2026", "2026-12-04", "4.12.2026"):
        assert not any(J in t for t in tokens(date)) and "20261204" in tokens(date), date
    assert "20260412" in tokens("12/04/2026") and "20260412" not in tokens("04.12.2026")  # a slash: either order
    assert "20261225" in tokens("25/12/2026") and tokens("13.13.2026") == ["13", "13", "2026", "13132026", "132026"]
    for query in ("2026-12-04", "04.12.2026", "12/04/2026", "2026/12/04"):  # was 0.96 and 0.85 level with audit
        found = top(store, query)
        assert found[0][0] == "freeze" and found[0][1] >= 0.95 and dict(found)["audit"] < THRESHOLD, (query, found)
    found = top(store, "05.12.2026")  # control: the other day
    assert found[0] == ("audit", 1.0) and dict(found)["freeze"] < THRESHOLD


def test_a_version_s_digits_are_not_run_together(store):
    assert tokens("v3.21.0") == ["v3", f"3{J}21", f"3{J}21{J}0"]  # was also v3210 3210 210
    assert tokens("v32.1.0") == ["v32", "32", f"32{J}1", f"32{J}1{J}0"]  # was also v3210 3210 10
    assert "5550102030" in tokens("555.010.2030")  # control: a phone number written with dots keeps its run
    assert top(store, "v3.21.0") == [("a321", 1.0)]  # was a3210 at 0.95 beside it
    assert top(store, "v32.1.0") == [("a3210", 1.0)]  # was a321 at 0.89
    assert top(store, "321") == [("err321", 1.0)]  # control: a number is its memory's alone


def test_a_bare_digit_is_no_decimal_s_part(store):
    assert tokens("1.5GB") == ["gigabyt", f"1{J}5"] and tokens("1.5 GB") == [f"1{J}5", "gigabyt"]  # was 1 5gb 5 …
    assert top(store, "5") == [("retries", 1.0)]  # was cache at 0.99 beside it
    assert top(store, "5 times") == [("retries", 1.0)]  # was cache at 0.05 too
    for query in ("1.5", "1.5 GB", "1.5GB"):  # was disk at 0.13 for 1.5GB
        assert names(top(store, query)) == {"cache", "disk"} and min(s for _, s in top(store, query)) >= 0.95, query
    assert top(store, "ArgoCD") == [("argocd", 1.0)]  # control


def test_every_door_reads_the_forms_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "3.11") == [("py311", 1.0)]
    assert cli_search(env, "5") == [("retries", 1.0)]
    assert names(cli_search(env, "v2.3")) == {"rc1", "rcdot", "r23", "x23"}
    assert cli_search(env, "04.12.2026")[0][0] == "freeze"
    found, other, date, digit = mcp_search(isolated_home, project, "python 3.11", "3.12", "12/04/2026", "5")
    assert "py311" in found and "py312" in other and "py311" not in other
    assert "freeze" in date and date.index("freeze") < date.index("audit")
    assert "retries" in digit and "cache" not in digit and "disk" not in digit
    assert block_names(hook_block(project, env, "which python 3.11 flags does the build use?")) == ["py311"]
    assert block_names(hook_block(project, env, "what is in the 2.3.x docs?", session="s2")) == ["x23"]


def test_an_index_of_schema_22_reads_its_versions_again(store):
    assert top(store, "5") == [("retries", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'cache'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", ("the build cach hold 1 5gb 5 gigabyt 1\ue0005", row))
    conn.execute("PRAGMA user_version = 22")  # 22's terms: 1.5GB's 5
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert "5gb" not in conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    assert top(store, "5") == [("retries", 1.0)]
    assert names(top(store, "1.5")) == {"cache", "disk"}  # control: its version's term kept
