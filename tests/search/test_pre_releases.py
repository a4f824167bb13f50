"""A pre-release in its every form, a named version's pre-release, and a date either order reads (vers22).

Since vers20 ``2.3.1rc1`` and ``2.3.1-rc.1`` were the version's terms and the label's word ``rc``, but a probe of
main found the forms around them apart: a pre-release after a dot was a word of its own (``2.3.1.rc1`` held
``rc1``, ``1.0.0.beta2`` ``beta2``, which the other forms did not; ``2.3.1-rc.1`` a bare ``1``), so ``2.3.1rc1``
ranked "2.3.1rc2" level with "2.3.1.rc1" (both 1.0) and ``1.0.0-beta.2`` "1.0.0-beta.3" level with
"1.0.0.beta2"; a named version with a pre-release (``python3.11rc1``) was no version at all (the rule of
``m5.2xlarge``), so ``3.11`` did not find it and ``3.11rc1`` put "python3.11" (0.08) above it (0.03). Now every
form is the version's terms, the pre-release whole in one spelling (PEP 440: ``2⋅3⋅1⋅rc1``, ``1⋅0⋅0⋅b2``) and the
label with its number (``rc1``, ``beta2``). A date written with slashes or hyphens is each ISO date its calendar
reads (``04/12/2026``: 2026-04-12 and 2026-12-04; ``13/04/2026``: 2026-04-13 alone; ``31/04/2026``: none).
Checked through the API and the CLI, each with a control beside it; an index of schema 23 is tokenized again.
"""

from __future__ import annotations

import pytest

from memdir.search import index
from memdir.search.relevance import THRESHOLD
from memdir.search.tokenize import VERSION_JOIN, tokens

from .densestub import notes_store
from .ranked import top
from .surfaces import cli_search, lexical_env

J = VERSION_JOIN

MEMORIES = [
    ("rcdot", "Ship 2.3.1.rc1 to staging first", "Then canary."),
    ("rc2", "The 2.3.1rc2 build failed its smoke test", "Retag after the fix."),
    ("betadot", "The mobile app is on 1.0.0.beta2", "TestFlight only."),
    ("beta3", "The tablet app is on 1.0.0-beta.3", "Internal testers."),
    ("py311rc1", "The nightly job tests python3.11rc1", "Against the wheels."),
    ("py311", "Use python3.11 for the build", "Set in the CI image."),
    ("py312", "The lint job pins python3.12", "Ruff needs it."),
    ("move", "The office moves on 04/12/2026", "Pack the desks."),
    ("audit", "The audit is on 13/04/2026", "Bring the SOC2 folder."),
    ("retro", "The retro is on 2026-05-07", "Book the room."),
    ("argocd", "Deploys go through ArgoCD", "The app-of-apps lives in infra/."),
]


@pytest.fixture
def store(isolated_home, project):
    return notes_store(isolated_home, project, MEMORIES)


def above(found: list[tuple[str, float]]) -> list[str]:
    return [name for name, score in found if score >= THRESHOLD]


def test_a_pre_release_is_the_same_terms_in_every_form():
    rc1 = ["rc", f"2{J}3", f"2{J}3{J}1", f"2{J}3{J}1{J}rc1", "rc1"]
    for form in ("2.3.1rc1", "2.3.1.rc1", "2.3.1-rc.1", "2.3.1-rc1", "2.3.1.RC1", "2.3.1-rc.01"):
        assert tokens(form) == rc1, form  # 2.3.1.rc1 was 2⋅3 2⋅3⋅1 rc1 rc; 2.3.1-rc.1 also a bare 1
    beta2 = ["beta", f"1{J}0", f"1{J}0{J}0", f"1{J}0{J}0{J}b2", "beta2"]
    assert tokens("1.0.0.beta2") == tokens("1.0.0-beta.2") == beta2  # PEP 440's b2 of beta.2
    assert tokens("1.0.0b2") == [f"1{J}0", f"1{J}0{J}0", f"1{J}0{J}0{J}b2"]  # b is no word: no b2 of its own
    assert tokens("1.0.0-beta") == ["beta", f"1{J}0", f"1{J}0{J}0", f"1{J}0{J}0{J}b0"]  # PEP 440's implicit 0
    # controls: no pre-release, read as before
    assert tokens("2.3.1.rc1.tar.gz") == [f"2{J}3", f"2{J}3{J}1", "rc1", "rc", "tar", "gz"]  # a file name
    assert tokens("2.3.1 rc 1") == [f"2{J}3", f"2{J}3{J}1", "rc", "1"]  # label and number apart (2.3.1 rc1: one)
    assert tokens("v2.3.1a") == ["v2", f"2{J}3", f"2{J}3{J}1"] and tokens("1.5b") == [f"1{J}5"]  # a letter alone


def test_a_pre_release_is_found_in_every_form_before_its_neighbour(store):
    for query in ("2.3.1rc1", "2.3.1.rc1", "2.3.1-rc.1", "2.3.1-rc1"):
        found = top(store, query)  # was rcdot and rc2 both at 1.0 for three of them
        assert found[0] == ("rcdot", 1.0) and dict(found)["rc2"] < 0.7, (query, found)
    found = top(store, "2.3.1rc2")  # control: the other release candidate
    assert found[0] == ("rc2", 1.0) and dict(found)["rcdot"] < 0.7
    # control: the version holds both; they tie, and recency orders a tie (search.ties), so as a set
    assert sorted(top(store, "2.3.1")[:2]) == [("rc2", 0.99), ("rcdot", 0.99)]  # one term (search41)
    for query in ("1.0.0-beta.2", "1.0.0b2", "1.0.0.beta2"):  # 1.0.0-beta.2 was betadot and beta3 at 1.0
        found = top(store, query)
        assert found[0] == ("betadot", 1.0) and dict(found)["beta3"] < 0.7, (query, found)
    assert sorted(above(top(store, "rc1"))) == ["py311rc1", "rcdot"]  # rc1 in each form; was rcdot alone
    assert top(store, "ArgoCD") == [("argocd", 1.0)]  # control


def test_a_named_version_with_a_pre_release_is_its_version():
    assert tokens("python3.11rc1") == ["python3", "python", "rc", f"3{J}11", f"3{J}11{J}rc1", "rc1"]  # was 11rc1 11
    assert tokens("python3.11.rc1") == tokens("python3.11rc1")
    assert tokens("m5.2xlarge") == ["m5", "2xlarge", "2", "xlarg"] and tokens("e2.1b") == ["e2", "1b", "1"]  # sizes


def test_a_named_version_with_a_pre_release_is_found_by_its_version(store):
    assert sorted(top(store, "3.11")) == [("py311", 0.99), ("py311rc1", 0.99)]  # py311rc1 was not found
    found = top(store, "3.11rc1")  # was py311 at 0.08 above py311rc1 at 0.03
    assert found[0] == ("py311rc1", 1.0) and dict(found)["py311"] < THRESHOLD
    assert top(store, "3.12") == [("py312", 1.0)]  # control: neither 3.11 is found


def test_a_date_either_order_reads_is_both_its_iso_dates():
    assert [t for t in tokens("04/12/2026") if len(t) == 8 and t.startswith("2026")] == ["20260412", "20261204"]
    assert [t for t in tokens("13/04/2026") if t.startswith("2026") and len(t) == 8] == ["20260413"]  # one reads
    assert "20260413" in tokens("04/13/2026") and "20260413" in tokens("13-04-2026")  # the US order, hyphens
    assert {"20260412", "20261204"} <= set(tokens("04-12-2026"))  # was no ISO digits with hyphens
    assert "20260412" in tokens("2026-4-12") and "20260412" in tokens("2026/4/12")  # was 2026412 alone
    assert "20261204" in tokens("04.12.2026") and "20260412" not in tokens("04.12.2026")  # dots: the day first
    # no day the calendar has not: April 31, February 29 of 2026 (control: of 2028)
    assert not any(t.startswith("2026") and len(t) == 8 for t in tokens("31/04/2026") + tokens("29/02/2026"))
    assert "20280229" in tokens("29/02/2028")


def test_a_date_is_found_by_each_iso_date_it_reads(store):
    for query in ("2026-04-12", "2026-12-04", "12/04/2026", "04.12.2026"):
        found = top(store, query)
        assert found[0][0] == "move" and found[0][1] >= 0.85 and above(found) == ["move"], (query, found)
    for query in ("2026-04-13", "04/13/2026", "13.04.2026"):  # control: the other date
        found = top(store, query)
        assert found[0] == ("audit", 1.0) and above(found) == ["audit"], (query, found)
    assert above(top(store, "2026-04-11")) == [] and above(top(store, "2026-05-07")) == ["retro"]  # control


def test_the_cli_reads_the_forms_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    found = cli_search(env, "2.3.1-rc.1")
    assert found[0] == ("rcdot", 1.0) and dict(found)["rc2"] < 0.7
    found = cli_search(env, "3.11rc1")
    assert found[0] == ("py311rc1", 1.0) and dict(found).get("py311", 0) < THRESHOLD
    assert cli_search(env, "3.12") == [("py312", 1.0)]
    assert cli_search(env, "2026-12-04")[0][0] == "move" and cli_search(env, "2026-04-13")[0] == ("audit", 1.0)


def test_an_index_of_schema_23_reads_its_pre_releases_again(store):
    assert top(store, "2.3.1rc1")[0] == ("rcdot", 1.0)  # the index made and synced
    conn = index.connect(store.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'rc2'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", (f"the 2{J}3 2{J}3{J}1 rc rc2 build", row))
    conn.execute("PRAGMA user_version = 23")  # 23's terms: no pre-release whole
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert f"2{J}3{J}1{J}rc2" in conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    assert top(store, "2.3.1rc2")[0] == ("rc2", 1.0)
