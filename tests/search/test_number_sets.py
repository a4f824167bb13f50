"""Last session's leftovers on numbers and symbols (left44a), each with its control.

1. A memory writing a number as a set covers the numbers in it (:mod:`memdir.search.ranges`,
   :func:`memdir.search.versions.covers`): ``10.0.0.1/24`` (a host address written with its network's mask) clashed
   with a query for ``10.0.0.13`` as another host, and ``^18.17.0`` with ``18.17.2`` as another release. A network
   (CIDR on any address, or a dotted mask written right after it: ``netmask 255.255.255.0``) and npm's, PEP 440's
   and RubyGems' ranges (caret, tilde, ``~=``, x-ranges, comparators, hyphen ranges) are read as their span; a mask
   written elsewhere is not (which address it goes with is not written).
2. An IPv4-mapped IPv6 address (``::ffff:10.0.0.13``) is its IPv4 address: ``ffff`` is no word, ``::ffff:a00:d``
   the same host (:mod:`memdir.search.ipv6`); other IPv6 addresses as before.
3. An emoji subdivision flag (a black flag, tag characters and CANCEL TAG: Scotland, Wales, England) is one term
   each; the tags were read as absent (the write dropped them too), so both were the plain black flag
   (:data:`memdir.text.printable.TAG_FLAGS`, :mod:`memdir.search.emoji`).

Index schema 33; an index of 32 is tokenized again in place. Vectors off, real SQLite in a temp home.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.emoji import EMOJI_MARK
from memdir.search.emoji import written as written_emoji
from memdir.search.ranges import span_terms
from memdir.search.tokenize import VERSION_JOIN, query_terms, tokens
from memdir.search.versions import RANGE_MARK, clashes, covers
from memdir.text.printable import TAG_FLAGS, one_line, printable, without_hidden

from .ranked import top

J = VERSION_JOIN


def _clashes(query: str, memory: str) -> list[str]:
    return [t.replace(J, ".") for t in clashes(query_terms(query), set(tokens(memory)))]


def _spans(text: str) -> list[str]:
    return [t.replace(J, ".").replace(RANGE_MARK, "|") for _, terms in span_terms(text) for t in terms]


def _flag(code: str) -> str:
    return "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in code) + "\U000e007f"


SCOTLAND, WALES, ENGLAND = _flag("gbsct"), _flag("gbwls"), _flag("gbeng")


def test_a_network_or_range_written_covers_the_number_in_it():
    # the reported pair: a host address with its mask, npm's caret and tilde
    assert _clashes("10.0.0.13", "Redis at 10.0.0.1/24") == []  # was ["10.0.0.13"]
    assert _clashes("node 18.17.2", "node ^18.17.0") == [] and _clashes("node 18.20.1", "node ^18.17.0") == []
    assert _clashes("node 18.17.2", "node ~18.17.0") == []
    # the same kind: a mask written on, x-ranges, comparators, a hyphen range, PEP 440's compatible release
    for memory in ("inet 10.0.0.1 netmask 255.255.255.0", "10.0.0.1/255.255.255.0", "hosts 10.0.0.1/28"):
        assert _clashes("10.0.0.13", memory) == [], memory
    for memory in ("node 18.17.x", "node 18.x", "node >=18.17 <19", "node >= 18.17.0", "node 18.17.0 - 18.20.0",
                   "node ~=18.17.0", "node ^18.17.x || ^20"):
        assert _clashes("node 18.17.2", memory) == [], memory
    # fix45s: a sibling written apart from the span still clashes, a span elsewhere in the memory no excuse
    assert _clashes("database 10.20.30.41", "VPN subnet is 10.0.0.0/8; primary database host is 10.20.30.40") \
        == ["10.20.30.41"]
    assert _clashes("python 3.11.5", "prod runs python 3.11.4; the library supports python >=3.9") == ["3.11.5"]
    for memory in ("Redis at 10.0.0.1/24, cache on 10.0.0.12", "inet 10.0.0.1 netmask 255.255.255.0, gw 10.0.0.12",
                   "hosts 10.0.0.12 and 10.0.0.1/28"):
        assert _clashes("10.0.0.13", memory) == ["10.0.0.13"], memory
    for memory in ("node 18.17.x, CI on 18.17.1", "node >= 18.17.0, CI on 18.17.1", "node ^18.17.x || ^20, CI on 18.17.1"):
        assert _clashes("node 18.17.2", memory) == ["18.17.2"], memory
    # arrows are no comparators (an upgrade, a fat arrow): the sibling clashes; ">=" beside them still reads
    for memory in ("we upgraded node 18.17.0 -> 18.19.1", "node => 18.19.1, CI on 18.19.0", "lodash (=> 18.19.1) 18.19.0"):
        assert _clashes("node 18.19.4", memory) == ["18.19.4"], memory
    assert _clashes("node 18.19.4", "node >= 18.19.1") == []
    # controls, in the same forms: a set the number is not in, beside a sibling, still clashes
    assert _clashes("10.0.0.13", "Redis at 10.0.0.1/29, cache on 10.0.0.12") == ["10.0.0.13"]  # .0-.7
    assert _clashes("10.0.0.13", "inet 10.0.0.1\nmask: 255.255.255.0, gw 10.0.0.12") == ["10.0.0.13"]  # elsewhere
    assert _clashes("node 18.18.2", "node ~18.17.0, CI on 18.18.1") == ["18.18.2"]  # tilde: below 18.18.0
    assert _clashes("node 18.17.2", "node ^18.17.5") == ["18.17.2"]  # caret: from 18.17.5 up
    assert _clashes("node 18.17.2", "node 18.16.x, CI on 18.17.1") == ["18.17.2"]
    assert _clashes("node 18.17.2", "node >=18.16 <18.17, CI on 18.17.1") == ["18.17.2"]
    assert _clashes("node 18.17.2", "node 18.17.1") == ["18.17.2"]  # the sibling alone, as before
    assert _clashes("python 3.11.4", "python 3.11.2, the suite runs in <5 min") == ["3.11.4"]  # another major's bound
    assert _clashes("10.0.0.13", "retries 10–20 on 10.0.0.12") == ["10.0.0.13"]  # a count, no range of addresses


def test_the_spans_each_notation_names():
    assert _spans("10.0.0.1/24") == ["|ge10.0.0.0|le10.0.0.255|at10.0.0.1"]  # the host address it is written on
    assert _spans("net 10.0.0.0/24.") == ["|ge10.0.0.0|le10.0.0.255"] == _spans("net 10.0.0.0/24 (http://x/y)")
    assert _spans("inet 10.0.0.1 netmask 255.255.255.240") == ["|ge10.0.0.0|le10.0.0.15|at10.0.0.1"]
    assert _spans("^18.17.0 ^0.2.3 ^0.0.3 ^1.2.x") == ["|ge18.17.0|lt19", "|ge0.2.3|lt0.3", "|ge0.0.3|lt0.0.4",
                                                     "|ge1.2|lt2"]
    assert _spans("~18.17.0 ~18 ~=2.2 ~> 1.4.5") == ["|ge18.17.0|lt18.18", "|ge18|lt19", "|ge2.2|lt3",
                                                    "|ge1.4.5|lt1.5"]
    assert _spans("18.17.x 18.* ==3.11.*") == ["|ge18.17|lt18.18", "|ge18|lt19", "|ge3.11|lt3.12"]
    assert _spans(">=3.8,<4 and >3 || <2") == ["|ge3.8|lt4", "|gt3|", "||lt2"]
    assert _spans("1.2.3 - 2.3.4, 10.0.0.10-10.0.0.20") == ["|ge1.2.3|le2.3.4", "|ge10.0.0.10|le10.0.0.20"]
    assert covers(f"{RANGE_MARK}ge18{J}17{J}0{RANGE_MARK}lt19", f"18{J}20{J}1")
    assert not covers(f"{RANGE_MARK}ge18{J}17{J}0{RANGE_MARK}lt19", f"19{J}0{J}0")
    # controls: no set written
    for plain in ("10.0.0.1 and 255.255.255.0", "2.3.1-4.el8", "2026-12-04", "10–20 retries", "1.2 - 3", "a 10.0.0.1/33 b 10.0.0.1/255.0.255.0",
                  "x<5, make-ship, v2.3", "10.0.0.12", "http://10.0.0.5/16/status", "see http://10.0.0.5/16",
                  "GET /10.0.0.0/24", "10.0.0.0/24/x", "node 18.17.0 -> 18.19.1", "(=> 4.17.21)", "a => 4.17.21"):
        assert _spans(plain) == [], plain


def test_a_query_asks_the_numbers_of_its_range_not_its_span():
    assert query_terms("node ^18.17.0") == ["node", f"18{J}17{J}0"]
    assert f"{RANGE_MARK}ge18{J}17{J}0{RANGE_MARK}lt19" in tokens("node ^18.17.0")  # control: a memory holds it


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("redis-net", "Redis network", "project", "Redis runs at 10.0.0.1/24; the old box was in the next rack.")
    mem.write("redis-old", "Redis old host", "project", "Redis ran at 10.0.0.12 before the move.")
    mem.write("node-range", "Node range", "project", "The tools support node ^18.17.0, tested on its first release.")
    mem.write("mapped", "Dual-stack client", "project", "The socket sees the client as ::ffff:10.0.0.13 in its logs.")
    mem.write("scotland", "Edinburgh office", "project", f"The Edinburgh channel is marked {SCOTLAND} in Slack.")
    mem.write("wales", "Cardiff office", "project", f"The Cardiff channel is marked {WALES} in Slack.")
    mem.write("pirate", "Black flag", "project", "The incident channel is marked \U0001f3f4 in Slack.")
    return mem


def test_the_covering_memory_is_not_weakened_and_the_sibling_is(store):
    # main: redis-net 0.004 beside redis-old (clashed), node-range 0.055
    assert top(store, "Redis 10.0.0.13") == [("mapped", 0.08), ("redis-net", 0.04), ("redis-old", 0.0)]
    assert top(store, "node 18.17.2") == [("node-range", 0.55)]
    assert top(store, "Redis 10.0.0.12") == [("redis-old", 1.0), ("redis-net", 0.04)]  # control: held, and covered


def test_an_ipv4_mapped_address_is_its_ipv4_address(store):
    assert tokens("::ffff:10.0.0.13") == tokens("10.0.0.13") == tokens("::FFFF:a00:d")  # no ffff
    assert query_terms("[::ffff:10.0.0.13]:8080") == [f"10{J}0{J}0{J}13", "8080"]
    assert top(store, "10.0.0.13")[0] == ("mapped", 1.0)
    assert top(store, "::ffff:a00:d")[0] == ("mapped", 1.0) and top(store, "::ffff:10.0.0.13")[0] == ("mapped", 1.0)
    assert top(store, "ffff") == []  # was the memory, by the word
    assert "ffff" in tokens("mask ffff") and tokens("fe80::1")[0] == "fe80"  # controls: other text as before


def test_a_subdivision_flag_is_one_term_and_kept_by_the_write(store):
    assert one_line(f"x {SCOTLAND} y") == f"x {SCOTLAND} y" and printable(f"{WALES}\n") == f"{WALES}\n"
    assert without_hidden(ENGLAND) == ENGLAND and len(TAG_FLAGS) == 3
    # controls: a run of tags of no such flag goes (ASCII smuggling), as does a tag alone
    assert one_line(_flag("usca")) == "\U0001f3f4" and one_line("a\U000e0041b") == "ab"
    assert one_line(f"{SCOTLAND[:-1]}") == "\U0001f3f4"  # no CANCEL TAG: no flag
    [scot], [wales], [black] = tokens(SCOTLAND), tokens(WALES), tokens("\U0001f3f4")
    assert len({scot, wales, black}) == 3 and written_emoji(scot) == SCOTLAND
    assert scot == f"{EMOJI_MARK}1f3f4xe0067xe0062xe0073xe0063xe0074xe007f"
    assert SCOTLAND in store.read("scotland").record.body
    assert top(store, SCOTLAND) == [("scotland", 1.0)] and top(store, WALES) == [("wales", 1.0)]
    assert top(store, "\U0001f3f4") == [("pirate", 1.0)]  # control: the plain black flag its own


def test_an_index_of_schema_32_is_tokenized_again(store):
    assert top(store, WALES) == [("wales", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    ids = dict(conn.execute("SELECT name, id FROM docs WHERE name IN ('mapped', 'redis-net')").fetchall())
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?",
                 (f"the socket see the client as ffff 10 10{J}0 10{J}0{J}0 10{J}0{J}0{J}13 in it log", ids["mapped"]))
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("redi run at", ids["redis-net"]))
    conn.execute("PRAGMA user_version = 32")
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    bodies = dict(conn.execute("SELECT rowid, body FROM fts WHERE rowid IN (?, ?)", tuple(ids.values())).fetchall())
    assert "ffff" not in bodies[ids["mapped"]].split()
    assert f"{RANGE_MARK}ge10{J}0{J}0{J}0{RANGE_MARK}le10{J}0{J}0{J}255{RANGE_MARK}at10{J}0{J}0{J}1" in bodies[ids["redis-net"]].split()
    assert top(store, "ffff") == [] and top(store, "Cardiff")[0] == ("wales", 1.0)  # control: the other rows
