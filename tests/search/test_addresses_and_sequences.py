"""A hostile tester's three tokenization findings on main (break41 → search42), each with its control.

1. An IPv6 address is one term (:mod:`memdir.search.ipv6`): ``fe80::1`` listed the memory holding
   ``fe80::1ff:fe23:4567:890a`` at 1.0 by ``fe80``, ``fe`` and ``1``. A query's address is that address, exact
   (written in full or with ``::``, any case); one ending in ``::`` is a network, found in every address under it
   (``fe80::`` finds both), as ``10.0.0`` finds both IPv4 hosts. An address's later groups are no words
   (``4567`` is the Grafana port's, not the router's).
2. An emoji sequence joined by U+200D is one term (:mod:`memdir.search.emoji`): ``👨‍👩‍👦`` found ``👨‍👩‍👧`` at
   0.996 and ``👨`` found both families. A keycap is one (``#️⃣`` found nothing); a flag one; a skin tone still
   no part of the term (``👍🏿`` finds ``👍🏽``, by design).
3. A lone letter typed alone is a word of the search (:func:`memdir.search.weighing.letters_typed`): ``é`` and
   ``à`` found nothing though a memory holds them (search41 made them function words). A prompt's stay function
   words ("o que é isso" recalls nothing), and a search of other function words alone still finds nothing
   ("the", "de la el": break13, test_search_trust).

Index schema 32 (33 since left44a); an index of 31 is tokenized again in place when opened. Vectors off, real SQLite in a temp home,
the CLI and the prompt hook as subprocesses, the MCP SDK's client on the real server.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.emoji import EMOJI_MARK
from memdir.search.emoji import written as written_emoji
from memdir.search.ipv6 import ADDRESS_MARK, addresses
from memdir.search.ipv6 import written as written_address
from memdir.search.tokenize import VERSION_JOIN, query_terms, tokens

from .ranked import top
from .surfaces import block_names, cli_search, hook_block, lexical_env, mcp_search


def address(*groups: str) -> str:
    return ADDRESS_MARK + VERSION_JOIN.join(groups)


GW = address("fe80", "0", "0", "0", "0", "0", "0", "1")
PROXY = address("2001", "db8", "0", "0", "0", "0", "0", "1")
FAMILY_BOY = f"{EMOJI_MARK}1f468x200dx1f469x200dx1f466"


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("gateway", "Gateway address", "project", "The gateway answers at fe80::1 on eth0.")
    mem.write("router", "Router link-local", "project", "The router's link-local address is fe80::1ff:fe23:4567:890a.")
    mem.write("proxy", "Proxy endpoint", "project", "The proxy listens on [2001:db8::1]:8080 for clients.")
    mem.write("grafana", "Grafana port", "project", "Grafana listens on port 4567 locally.")
    mem.write("family-boy", "Team emoji", "project", "Our team signs off with 👨‍👩‍👦 in the chat.")
    mem.write("family-girl", "Other team emoji", "project", "The other team signs off with 👨‍👩‍👧 in the wiki.")
    mem.write("on-call", "On-call emoji", "project", "The on-call person is marked 👨 alone.")
    mem.write("approve", "Approval emoji", "project", "Approve a review with 👍🏽 in the thread.")
    mem.write("hash-key", "Phone menu", "project", "Press #️⃣ to reach the operator.")
    mem.write("berlin", "Berlin office", "project", "The Berlin office channel is marked 🇩🇪 in Slack.")
    mem.write("resposta", "Resposta", "project", "A resposta é sim, à tarde.")
    return mem


def test_an_ipv6_address_is_one_term_exact_in_a_query():
    assert query_terms("fe80::1") == [GW]  # was fe80, fe, 1
    assert query_terms("FE80:0000:0000:0000:0000:0000:0000:0001") == [GW]  # written in full, any case: the same
    assert query_terms("[2001:db8::1]:8080") == [PROXY, "8080"]  # in brackets before its port
    assert query_terms("fe80::") == [address("fe80")] and query_terms("2001:db8::/32") == [address("2001", "db8"), "32"]
    # a memory's: its first group a word (fe80 finds it), its leading runs, the whole; no 1ff, 4567, 890a
    held = tokens("at fe80::1ff:fe23:4567:890a.")
    assert held[:3] == ["at", "fe80", "fe"] and held[-1] == address("fe80", "0", "0", "0", "1ff", "fe23", "4567", "890a")
    assert address("fe80") in held and "4567" not in held and "1ff" not in held and len(held) == 11
    assert written_address(GW) == "fe80::1" and written_address(address("2001", "db8")) == "2001:db8::"
    # controls: a MAC address, a time, C++ and Rust paths are no addresses, read as before; an IPv4-mapped address is
    # its IPv4 address, the dotted number read as any is (left44a: test_number_sets)
    assert addresses("00:1a:2b:3c:4d:5e at 12:30:45, std::vector, dead::beef") == []
    assert [a.terms for a in addresses("::ffff:10.0.0.1")] == [[]]
    assert tokens("00:1a:2b:3c:4d:5e")[:2] == ["00", "1a"] and tokens("std::vector") == ["std", "vector"]


def test_an_address_finds_its_memory_and_not_its_neighbour(store):
    assert top(store, "fe80::1") == [("gateway", 1.0)]  # was router beside it at 1.0
    assert top(store, "fe80::1ff:fe23:4567:890a") == [("router", 1.0)]  # was gateway at 0.44
    assert sorted(top(store, "fe80::")) == [("gateway", 0.99), ("router", 0.99)]  # control: the network asked
    assert sorted(top(store, "fe80")) == [("gateway", 1.0), ("router", 1.0)]  # its first group a word
    assert top(store, "[2001:db8::1]:8080") == [("proxy", 1.0)] and top(store, "2001:db8::1") == [("proxy", 1.0)]
    assert top(store, "2001:0db8:0:0:0:0:0:1") == [("proxy", 1.0)]
    assert top(store, "4567") == [("grafana", 1.0)]  # not the router: its 4567 is the address's
    assert top(store, "fe80::2") == []  # control: no memory holds that address
    recalled = store.recall_result("which gateway answers at fe80::1?").memories  # main: router too
    assert [m.name for m in recalled] == ["gateway"]
    assert [hit.why["terms"] for hit in store.search("fe80::1")] == [["fe80::1"]]  # shown as written


def test_an_emoji_sequence_is_one_term():
    assert tokens("👨‍👩‍👦 then 👨") == [FAMILY_BOY, "then", f"{EMOJI_MARK}1f468"]  # was 1f468, 1f469, 1f466, …
    assert written_emoji(FAMILY_BOY) == "👨‍👩‍👦" and tokens("👨🏽‍💻") == tokens("👨‍💻")  # a tone no part of it
    assert tokens("#️⃣ 1️⃣") == [f"{EMOJI_MARK}23x20e3", f"{EMOJI_MARK}31x20e3"]  # a keycap one term
    assert tokens("🇩🇪🇫🇷") == [f"{EMOJI_MARK}1f1e9x1f1ea", f"{EMOJI_MARK}1f1ebx1f1f7"]  # each flag one
    assert tokens("🚀✅") == [f"{EMOJI_MARK}1f680", f"{EMOJI_MARK}2705"]  # control: emoji not joined stay apart


def test_a_sequence_finds_its_memory_and_not_its_parts(store):
    assert top(store, "👨‍👩‍👦") == [("family-boy", 1.0)]  # was family-girl beside it at 0.996
    assert top(store, "👨‍👩‍👧") == [("family-girl", 1.0)]
    assert top(store, "👨") == [("on-call", 1.0)]  # was both families too
    assert top(store, "👍🏿") == [("approve", 1.0)]  # control: a skin tone is ignored by design (👍🏽)
    assert top(store, "#️⃣") == [("hash-key", 1.0)]  # was nothing
    assert top(store, "🇩🇪") == [("berlin", 1.0)] and top(store, "🇫🇷") == []  # control: another flag


def test_a_lone_letter_typed_alone_is_found_and_never_recalled(store):
    assert top(store, "é") == [("resposta", 1.0)] and top(store, "à") == [("resposta", 1.0)]  # was nothing
    assert top(store, "É") == [("resposta", 1.0)] and top(store, "è") == []  # control: no memory holds è
    assert top(store, "e") == []  # control: a plain e is no é
    assert top(store, "the") == [] and top(store, "o que é isso") == []  # other function words alone: nothing
    assert top(store, "resposta") == [("resposta", 1.0)]  # control: the memory answers its words
    for nothing in ("é", "à", "o que é isso", "thanks, that works"):  # a prompt: never recalled, never padded
        assert [m.name for m in store.recall_result(nothing).memories] == [], nothing
    assert [m.name for m in store.recall_result("what is the resposta?").memories] == ["resposta"]  # control


def test_an_index_of_schema_31_is_tokenized_again(store):
    assert top(store, "fe80::1") == [("gateway", 1.0)]  # the index made and synced
    conn = index.connect(store.home)
    ids = dict(conn.execute("SELECT name, id FROM docs WHERE name IN ('gateway', 'family-boy')").fetchall())
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?", ("the gateway answer at fe80 fe 1 on eth0 eth", ids["gateway"]))
    conn.execute("UPDATE fts SET body = ? WHERE rowid = ?",
                 (f"our team sign off with {EMOJI_MARK}1f468 {EMOJI_MARK}1f469 {EMOJI_MARK}1f466 in the chat",
                  ids["family-boy"]))
    conn.execute("PRAGMA user_version = 31")  # 31's terms: an address's groups, a family's emoji apart
    index.close_all()
    conn = index.connect(store.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    bodies = dict(conn.execute("SELECT rowid, body FROM fts WHERE rowid IN (?, ?)", tuple(ids.values())).fetchall())
    assert GW in bodies[ids["gateway"]].split() and FAMILY_BOY in bodies[ids["family-boy"]].split()
    assert top(store, "fe80::1") == [("gateway", 1.0)] and top(store, "👨‍👩‍👦") == [("family-boy", 1.0)]
    assert top(store, "4567") == [("grafana", 1.0)]  # control: the other rows as before


@pytest.mark.slow
def test_the_cli_the_mcp_tool_and_the_prompt_hook_read_them_alike(store, isolated_home, project):
    env = lexical_env(isolated_home, project)
    assert cli_search(env, "fe80::1") == [("gateway", 1.0)]
    assert sorted(cli_search(env, "fe80::")) == [("gateway", 0.99), ("router", 0.99)]  # control: the network
    assert cli_search(env, "👨‍👩‍👦") == [("family-boy", 1.0)] and cli_search(env, "👨") == [("on-call", 1.0)]
    assert cli_search(env, "é") == [("resposta", 1.0)] and cli_search(env, "the") == []  # control
    gw, family, letter, grammar = mcp_search(isolated_home, project, "fe80::1", "👨‍👩‍👦", "à", "the")
    assert "gateway" in gw and "router" not in gw
    assert "family-boy" in family and "family-girl" not in family and "on-call" not in family
    assert "resposta" in letter and "resposta" not in grammar
    # recall: main recalled the router beside the gateway for both prompts (by fe80, fe, 1)
    assert block_names(hook_block(project, env, "which gateway answers at fe80::1?", "a")) == ["gateway"]
    assert block_names(hook_block(project, env, "who signs off with 👨‍👩‍👦?", "b")) == ["family-boy"]
    assert hook_block(project, env, "é", "c") == "" and hook_block(project, env, "o que é isso", "d") == ""
