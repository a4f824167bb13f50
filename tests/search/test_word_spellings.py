"""A word written two ways is one word to search (words46), each case with its control in the same store.

* A name written in syllables is also the syllables joined: ``Hà Nội`` is ``hanoi`` (:mod:`memdir.search.syllables`).
* ``people`` is the plural of ``person`` (:data:`memdir.text.words.IRREGULAR_PLURALS`).
* A number with ``k`` written on is also its thousands: ``10k`` is ``10000`` and ``10,000``; ``2k`` is ``2000``
  (``10k`` stays a term too).
* ``re-run`` and ``rerun`` meet (the compound's whole).
* A French elision is the word after it: ``c'est`` holds no ``c`` (the C language is not asked, nor found).
* A query's own span (``18.17.x``, ``^18.17``) finds the memory holding ``18.17.2``.
* An upgrade's ``to`` is no range: "upgrade 18.17.1 to 18.17.3" holds neither ``18.17.2`` nor a span (control:
  ``18.17.3`` finds it); "ports 8000 to 8010" holds no ``8005``.
* An IPv4-mapped address written long (``0:0:0:0:0:ffff:10.0.0.13``) is its IPv4 address, ``ffff`` and ``0`` no words.
* A dotted number of 100,000 digits is compared, not refused (``int()`` raised past 4,300 digits: a memory of one
  broke its search and the tokenizer), in linear time.

Polish case endings are not read (``Gdańsku`` is no ``Gdańsk``): no light rule is safe. Most case forms carry no
Polish letter to choose a Polish reading by (``Warszawie``, ``Krakowie``, ``serwerze``: read as English, Latin script
alike), a suffix cut misses the stem's own change (``Polska``/``Polsce``, ``Wisła``/``Wiśle``, ``Praga``/``Pradze``,
``Kraków``/``Krakowie``) and joins words apart (``mama``/``mam``, "I have"); Snowball's Polish stemmer, given the
language, still reads ``Kraków`` ``krak`` and ``Krakowie`` ``krakow``, ``Polska`` ``polsk`` and ``Polsce`` ``polsc``.
Vectors off, real SQLite in a temp home, the CLI as a subprocess, the MCP SDK's client on the real server.
"""

from __future__ import annotations

import time

import pytest

from memdir import Memory
from memdir.search.tokenize import VERSION_JOIN as J
from memdir.search.tokenize import query_terms, tokens
from memdir.search.versions import clashes

from .ranked import top
from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("trip", "Trip notes", "project", "The team flew to Hà Nội for the offsite in May.")
    mem.write("hanoi-office", "Office hours", "project", "The Hanoi office opens at nine.")
    mem.write("hamburg", "Hamburg trip", "project", "The team flew to Hamburg for the kickoff.")
    mem.write("on-call", "On-call rota", "project", "Two people are on call each week.")
    mem.write("orjson", "JSON parsing", "project", "Parse JSON with orjson in the API.")
    mem.write("rate", "Rate limit", "project", "The API rate limit is 10k requests per hour.")
    mem.write("batch", "Batch size", "project", "Imports write 2000 rows a batch.")
    mem.write("door", "Door ten", "project", "Gate 10 of the warehouse is closed.")
    mem.write("flaky", "Flaky tests", "project", "Re-run the flaky tests once before a release.")
    mem.write("restore", "Restore", "project", "Rerun migrations after a restore.")
    mem.write("c-flags", "C compiler flags", "project", "The c compiler builds with -O2 -Wall.")
    mem.write("french", "Note en français", "project", "C'est la vie du déploiement.")
    mem.write("node-ci", "Node in CI", "project", "CI runs node 18.17.2 on every push.")
    mem.write("node-local", "Node locally", "project", "Laptops run node 20.11.1 locally.")
    mem.write("upgrade", "Node upgrade", "project", "Upgrade node 18.17.1 to 18.17.3 next sprint.")
    mem.write("ports", "Open ports", "project", "Ports 8000 to 8010 are open on the box.")
    mem.write("mapped", "Mapped host", "project", "The DB answers at 0:0:0:0:0:ffff:10.0.0.13 on the dual stack.")
    mem.write("cache-host", "Cache host", "project", "The cache host is 10.0.0.14.")
    mem.write("plain-host", "Plain host", "project", "The queue host is 10.0.0.13.")
    return mem


def names(mem, query: str) -> list[str]:
    return [name for name, _ in top(mem, query)]


def test_a_name_in_syllables_is_also_joined(store):
    assert tokens("Hà Nội") == ["ha", "noi", "hanoi"] and tokens("Đà Nẵng") == ["da", "nang", "danang"]
    assert tokens("Release Notes") == ["releas", "note"]  # control: no marks, no join
    assert names(store, "hanoi") == ["hanoi-office", "trip"]  # was hanoi-office alone
    assert names(store, "Hà Nội") == ["trip", "hanoi-office"]  # the other way
    assert "hamburg" not in names(store, "hanoi") and names(store, "hamburg")[:1] == ["hamburg"]  # control


def test_people_are_persons(store):
    assert tokens("people") == tokens("person") == tokens("persons") == ["person"]
    assert names(store, "person") == ["on-call"]  # was nothing
    assert "orjson" not in names(store, "person") and names(store, "orjson") == ["orjson"]  # control


def test_a_number_with_k_is_its_thousands(store):
    assert tokens("10k") == ["10k", "10", "10000"] and tokens("2K") == ["2k", "2", "2000"] and tokens("0k") == ["0k", "0"]
    for query in ("10000", "10,000", "10k"):
        assert names(store, query)[:1] == ["rate"], query  # 10000, 10,000 found nothing
    assert names(store, "2k")[:1] == ["batch"] and "rate" not in names(store, "2k")
    assert "door" not in names(store, "10000") and names(store, "gate 10")[:1] == ["door"]  # control: 10 alone


def test_rerun_and_re_run_meet(store):
    assert names(store, "rerun")[:2] == ["restore", "flaky"] or names(store, "rerun")[:2] == ["flaky", "restore"]
    assert set(names(store, "re-run")) >= {"flaky", "restore"}


def test_a_french_elision_holds_no_letter(store):
    assert tokens("C'est la vie") == ["est", "la", "vie"] and query_terms("c'est") == ["est"]
    assert tokens("O'Brien") == ["o", "obrien", "brien"]  # control: a name's particle stays
    assert "c-flags" not in names(store, "c'est")
    assert names(store, "c")[:1] == ["c-flags"] and "french" not in names(store, "c")  # was french beside it


def test_a_search_of_an_elision_alone_finds_the_note_writing_it(store):
    """ux49: ``c'est`` reads as ``est``, a function word, and a search of it alone found nothing, where main found the
    French note writing it. A typed search of function words that writes an elision asks those words
    (:func:`memdir.search.weighing.elided_typed`). Controls: beside a content word the elided one does not pull the
    French note in; function words with no elision still find nothing (break13); the C language is not asked."""
    assert names(store, "c'est") == ["french"]
    assert names(store, "C’est") == ["french"]  # a typographic apostrophe, a capital
    assert "french" not in names(store, "c'est node") and names(store, "c'est node")[:1] in (["node-ci"], ["node-local"])
    assert names(store, "la") == [] and names(store, "est") == []  # no elision written: padding, as before
    assert "c-flags" not in names(store, "c'est")


def test_a_query_span_finds_the_version_it_covers(store):
    for query in ("18.17.x", "^18.17"):
        found = names(store, query)
        assert sorted(found) == ["node-ci", "upgrade"], (query, found)  # both write an 18.17; not node 20.11.1
    found = names(store, "node 18.17.x")  # control: node alone finds node-local, below those of 18.17
    assert found.index("node-local") > found.index("node-ci") and found.index("node-local") > found.index("upgrade")


def test_an_upgrade_to_is_no_range(store):
    assert tokens("Upgrade node 18.17.1 to 18.17.3") == [
        "upgrad", "node", "18", f"18{J}17", f"18{J}17{J}1", "to", "18", f"18{J}17", f"18{J}17{J}3"]  # no span
    assert "upgrade" not in names(store, "18.17.2") and names(store, "18.17.2")[:1] == ["node-ci"]
    assert names(store, "18.17.3")[:1] == ["upgrade"]  # control: its own number
    assert "ports" not in names(store, "8005") and names(store, "8010")[:1] == ["ports"]  # no span, its bounds


def test_a_long_ipv4_mapped_address_is_its_ipv4_address(store):
    dotted = f"10{J}0{J}0{J}13"
    assert query_terms("0:0:0:0:0:ffff:10.0.0.13") == [dotted] == query_terms("0000:0000:0000:0000:0000:FFFF:10.0.0.13")
    held = tokens("at 0:0:0:0:0:ffff:10.0.0.13")
    assert "ffff" not in held and "0" not in held and held[-1] == dotted
    assert sorted(names(store, "10.0.0.13")) == ["mapped", "plain-host"]
    assert sorted(names(store, "0:0:0:0:0:ffff:10.0.0.13")) == ["mapped", "plain-host"]
    assert "cache-host" not in names(store, "0:0:0:0:0:ffff:10.0.0.13") and names(store, "10.0.0.14") == ["cache-host"]


def test_a_number_of_unbounded_digits_is_compared_in_linear_time(isolated_home, project):
    for size in (10_000, 100_000):
        big = "9" * size
        held = tokens(f"node 1.2.{big} and 1.2.5")
        start = time.perf_counter()
        assert clashes(query_terms("1.2.3"), held) == (f"1{J}2{J}3",)  # both its siblings above it
        assert clashes(query_terms(f"1.2.{big}"), held) == ()  # control: held
        assert time.perf_counter() - start < 0.5, size
    assert tokens("v2.3.1-rc" + "0" * 5000 + "7")[-1] == "rc7"  # a pre-release's number: int() raised
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("huge", "Huge build", "project", f"Build 1.2.{'9' * 5000} and 1.2.5 shipped.")
    mem.write("small", "Small build", "project", "Build 1.2.3 shipped.")
    assert names(mem, "1.2.3")[:1] == ["small"]  # was ValueError


@pytest.mark.slow
def test_the_cli_mcp_and_prompt_hook_read_them_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert [n for n, _ in cli_search(env, "hanoi")] == ["hanoi-office", "trip"]
    assert [n for n, _ in cli_search(env, "10,000")][:1] == ["rate"]
    assert "c-flags" not in [n for n, _ in cli_search(env, "c'est")]
    hanoi, people, mapped = mcp_search(isolated_home, project, "Hà Nội", "person", "0:0:0:0:0:ffff:10.0.0.13")
    assert "trip" in hanoi and "hanoi-office" in hanoi and "hamburg" not in hanoi
    assert "on-call" in people and "orjson" not in people
    assert "mapped" in mapped and "plain-host" in mapped and "cache-host" not in mapped
    # the prompt hook recalls, and keeps only what stands out (hanoi-office alone for "hanoi"); a word one memory holds:
    assert block_names(hook_block(project, env, "what is the rate limit, 10,000 an hour?", session="s2")) == ["rate"]
    assert block_names(hook_block(project, env, "who is the person on call?", session="s3")) == ["on-call"]


def test_an_index_of_schema_33_is_tokenized_again(store):
    from memdir.search import index

    assert names(store, "hanoi") == ["hanoi-office", "trip"]  # the index made and synced
    conn = index.connect(store.home)
    ids = dict(conn.execute("SELECT name, id FROM docs WHERE name IN ('trip', 'french')").fetchall())
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("the team flew to ha noi for the offsit in may", ids["trip"]))
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("c est la vie du deploi", ids["french"]))
    conn.execute("PRAGMA user_version = 33")
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    bodies = dict(conn.execute("SELECT rowid, body FROM fts WHERE rowid IN (?, ?)", tuple(ids.values())).fetchall())
    assert "hanoi" in bodies[ids["trip"]].split() and "c" not in bodies[ids["french"]].split()
    assert names(store, "hanoi") == ["hanoi-office", "trip"] and "french" not in names(store, "c")
    assert names(store, "vie") == ["french"]  # control: the row is there
