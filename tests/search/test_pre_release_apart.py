"""A pre-release written apart from its version by a space (``2.3.1 rc1``) is the version's pre-release, as
``2.3.1rc1``, ``2.3.1.rc1`` and ``2.3.1-rc.1`` are (left23).

Before, ``2.3.1 rc1`` was the version and a word ``rc1`` of its own: no ``2⋅3⋅1⋅rc1``, so a query ``2.3.1rc1``
ranked a memory on "2.3.1 rc1" level with one on "2.3.1rc2" (both by the version alone) and ``2.3.1 rc1`` ranked
"2.3.1rc2" level with "2.3.1.rc1". Only a word label with its number is read so (``v2.3 dev server``: ``dev`` is a
word; ``2.3.1 rc 1``: two words). An index of schema 24 is tokenized again.
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
    ("apart", "Ship 2.3.1 rc1 to staging first", "Then canary."),
    ("rc2", "The 2.3.1rc2 build failed its smoke test", "Retag after the fix."),
    ("betaapart", "The mobile app is on 1.0.0 beta2", "TestFlight only."),
    ("beta3", "The tablet app is on 1.0.0-beta.3", "Internal testers."),
    ("devbox", "The v2.3 dev server runs on box7", "Ask ops for a login."),
    ("argocd", "Deploys go through ArgoCD", "The app-of-apps lives in infra/."),
]


@pytest.fixture
def store(isolated_home, project):
    return notes_store(isolated_home, project, MEMORIES)


def test_a_pre_release_written_apart_is_the_same_terms_as_written_on():
    rc1 = ["rc", f"2{J}3", f"2{J}3{J}1", f"2{J}3{J}1{J}rc1", "rc1"]
    for form in ("2.3.1 rc1", "2.3.1 RC1", "2.3.1 rc.1", "2.3.1 rc-1", "2.3.1rc1"):
        assert tokens(form) == rc1, form  # 2.3.1 rc1 was 2⋅3 2⋅3⋅1 rc1 rc: no 2⋅3⋅1⋅rc1
    assert tokens("1.0.0 beta2") == tokens("1.0.0-beta.2") == ["beta", f"1{J}0", f"1{J}0{J}0", f"1{J}0{J}0{J}b2",
                                                               "beta2"]
    assert tokens("Python 3.11 RC1") == ["python", "rc", f"3{J}11", f"3{J}11{J}rc1", "rc1"]
    # controls: a word after a version, a label apart from its number, a one-letter label, a file name: as before
    assert tokens("v2.3 dev server") == ["v2", f"2{J}3", "develop", "server"]
    assert tokens("2.3.1 rc 1") == [f"2{J}3", f"2{J}3{J}1", "rc", "1"]
    assert tokens("2.3 b2") == [f"2{J}3", "b2"]
    assert tokens("2.3.1 rc1.tar.gz") == [f"2{J}3", f"2{J}3{J}1", "rc1", "rc", "tar", "gz"]


def test_a_pre_release_written_apart_is_found_in_every_form_before_its_neighbour(store):
    for query in ("2.3.1rc1", "2.3.1.rc1", "2.3.1-rc.1", "2.3.1 rc1"):
        found = top(store, query)  # apart and rc2 were level, by the version alone
        assert found[0] == ("apart", 1.0) and dict(found)["rc2"] < 0.7, (query, found)
    found = top(store, "2.3.1rc2")  # control: the other release candidate
    assert found[0] == ("rc2", 1.0) and dict(found)["apart"] < 0.7
    above = sorted((name, score) for name, score in top(store, "2.3.1") if score >= THRESHOLD)
    assert above == [("apart", 0.99), ("rc2", 0.99)]  # control: the version holds both (one term: search41)
    for query in ("1.0.0b2", "1.0.0-beta.2", "1.0.0 beta2"):
        found = top(store, query)
        assert found[0] == ("betaapart", 1.0) and dict(found)["beta3"] < 0.7, (query, found)
    found = top(store, "v2.3 dev server")  # control: a dev server is no dev release
    assert found[0][0] == "devbox" and found[0][1] >= THRESHOLD
    assert top(store, "ArgoCD") == [("argocd", 1.0)]  # control


def test_the_cli_reads_a_pre_release_written_apart(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    found = cli_search(env, "2.3.1rc1")
    assert found[0] == ("apart", 1.0) and dict(found)["rc2"] < 0.7
    assert cli_search(env, "2.3.1rc2")[0] == ("rc2", 1.0)  # control


def test_an_index_of_schema_24_reads_a_pre_release_written_apart_again(store):
    assert top(store, "2.3.1rc1")[0] == ("apart", 1.0)  # the index made and synced
    conn = index.connect(store.home)
    row = conn.execute("SELECT id FROM docs WHERE name = 'apart'").fetchone()[0]
    conn.execute("UPDATE fts SET description = ? WHERE rowid = ?", (f"ship 2{J}3 2{J}3{J}1 rc1 rc stage first", row))
    conn.execute("PRAGMA user_version = 24")  # 24's terms: the pre-release written apart a word of its own
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert f"2{J}3{J}1{J}rc1" in conn.execute("SELECT description FROM fts WHERE rowid = ?", (row,)).fetchone()[0]
    found = top(store, "2.3.1rc1")
    assert found[0] == ("apart", 1.0) and dict(found)["rc2"] < 0.7
