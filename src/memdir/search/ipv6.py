"""IPv6 addresses as search terms (search42): ``fe80::1`` is one address, not the words ``fe80``, ``fe`` and ``1``.

A colon is a break between words, so an IPv6 address was its hexadecimal groups as words: a search of ``fe80::1``
listed the memory holding ``fe80::1ff:fe23:4567:890a`` at 1.0 by ``fe80``, ``fe`` and ``1``. Here an address
(:func:`addresses`) is read as dotted IPv4 numbers are (:mod:`memdir.search.versions`):

* its eight groups, written out (``::`` expanded, leading zeros dropped, lower case: ``2001:0DB8::1`` is
  ``2001:db8:0:0:0:0:0:1``), are one term, and each of its leading runs of groups is a term too (``fe80``,
  ``fe80⋅0``…), :data:`ADDRESS_MARK` before them, the groups joined by
  :data:`memdir.search.versions.VERSION_JOIN`: letters, digits and private-use characters, one token to FTS5's
  ``unicode61``, no word's;
* in a memory, its later groups are no words of their own (``1ff``, ``4567``); its first stays one (``fe80``
  finds the link-local addresses, as ``16`` finds ``16.4``);
* a query's address is that address, exact: a query drops the leading runs and the first group's word
  (:attr:`Address.dropped`), so ``fe80::1`` finds the memory holding ``fe80::1`` (written so or in full) and not
  ``fe80::1ff:…``;
* a query's address ending in ``::`` (``fe80::``, ``2001:db8::``) is a prefix, as people write a network: the run
  of the groups it writes, which every address under it holds (``fe80::`` finds both, ``2001:db8::`` every address
  of that network). A query written with the groups in full is no prefix (``fe80:0:0:0:0:0:0:0`` is that address).

An address in brackets before a port (``[2001:db8::1]:8080``, as URLs write it) is its address; the port stays
its number. What is an address: hexadecimal groups of one to four digits joined by colons, eight of them or fewer
with one ``::`` standing for the rest, holding a digit (``dead::beef``, ``std::vector``, ``a::b`` are code, not
addresses), no word character, colon-and-group or dot-and-digit on either side (a MAC address ``00:1a:2b:3c:4d:5e``,
a time ``12:30:45`` and an IPv4 tail, ``64:ff9b::10.0.0.1``, are read as before: its IPv4 address dotted).

An IPv4-mapped address (RFC 4291 §2.5.5.2: ``::ffff:10.0.0.13``, the IPv4 host as a dual-stack socket shows it) is
its IPv4 address (left44a): written dotted, it is that dotted number and ``ffff`` is no word (a search of
``10.0.0.13`` finds it, and ``::ffff:10.0.0.13`` asks ``10.0.0.13`` alone, as a memory writing it plainly holds);
written in hexadecimal (``::ffff:a00:d``), it is the same terms, ``10.0.0.13`` (:func:`memdir.search.versions.written`
shows it so), a query's exact as a dotted number's is (its leading runs dropped). Pure, standard library only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .versions import ADDRESS_MARK, VERSION_JOIN

_GROUP = r"[0-9A-Fa-f]{1,4}"


@lru_cache(maxsize=1)
def _address() -> re.Pattern:
    """What an address is (see the module), compiled on the first text that may hold one (:func:`addresses`' fast
    test): the prompt hook and a write load this module with the tokenizer, and most texts hold none (≈ 1.5 M
    instructions a process, benchmarks/bench_hooks.py --fresh --instructions)."""
    return re.compile(rf"(?<![\w:.])(?:(?:{_GROUP}:){{7}}{_GROUP}|(?:{_GROUP}(?::{_GROUP}){{0,6}})?::"
                      rf"(?:{_GROUP}(?::{_GROUP}){{0,6}})?)(?![\w]|:[0-9A-Fa-f:]|\.\d)")


@lru_cache(maxsize=1)
def _mapped() -> re.Pattern:
    """The ``::ffff:`` before an IPv4 address written dotted (``::ffff:10.0.0.13``): what an IPv4-mapped address adds
    to its IPv4 host (the module docstring), compiled on the first text holding ``::``."""
    return re.compile(r"(?<![\w:.])(?P<zeros>(?:0{1,4}|:)(?::0{1,4}|:){0,5}):ffff:(?=\d{1,3}(?:\.\d{1,3}){3}(?!\w|\.\d))",
                      re.IGNORECASE)


def _mapped_zeros(zeros: str) -> bool:
    """True when ``zeros`` (what :func:`_mapped` read before ``:ffff:``) writes the five zero groups of an
    IPv4-mapped address: ``:`` (of ``::ffff:``), ``0:0:0:0:0``, ``0000:0000:0000:0000:0000``, ``0::0`` (one ``::``
    standing for the groups not written); not four groups without a ``::`` (``0:0:0:0:ffff:``: seven groups)."""
    full = zeros + ":ffff"
    if full.count("::") > 1 or ":::" in full:
        return False
    if "::" in full:  # the groups left out are zeros: at least one
        head, tail = full.split("::")
        groups = (head.split(":") if head else []) + tail.split(":")
        return len(groups) <= 5 and all(groups)
    return len(full.split(":")) == 6


class Address(NamedTuple):
    """An IPv6 address in a text (:func:`addresses`): where it starts and ends (offsets), where its first group ends
    (its start when it begins with ``::``), its terms as a memory holds them (each leading run of its eight groups,
    the whole last), the one a query asks (``asked``: the whole, or the run it writes before a trailing ``::``) and
    the terms a query drops (``dropped``: the other runs)."""

    start: int
    first_end: int
    end: int
    terms: list[str]
    asked: str
    dropped: list[str]


def _term(groups: list[str]) -> str:
    return ADDRESS_MARK + VERSION_JOIN.join(groups)


def addresses(text: str) -> list[Address]:
    """Each IPv6 address of ``text`` (see the module), in order: ``"gw fe80::1"`` → one :class:`Address` whose
    ``terms`` are ``fe80``, ``fe80⋅0``, … ``fe80⋅0⋅0⋅0⋅0⋅0⋅0``, ``fe80⋅0⋅0⋅0⋅0⋅0⋅0⋅1`` (each after
    :data:`ADDRESS_MARK`; ⋅ standing for :data:`memdir.search.versions.VERSION_JOIN`), ``asked`` the last. An
    IPv4-mapped one is its IPv4 address (the module docstring): ``::ffff:a00:d`` → the terms ``10⋅0``, ``10⋅0⋅0``,
    ``10⋅0⋅0⋅13``; the ``::ffff:`` of ``::ffff:10.0.0.13`` an :class:`Address` of no terms (its words none, the
    dotted number after it read as any is). ``[]`` for a text holding none (a fast test first: no ``::`` and fewer
    than six colons). Pure."""
    if "::" not in text and text.count(":") < 6:
        return []
    out: list[Address] = [Address(m.start(), m.start(), m.end(), [], "", []) for m in _mapped().finditer(text)
                          if _mapped_zeros(m.group("zeros"))] if "ff:" in text or "FF:" in text else []
    for match in _address().finditer(text):
        written = match.group(0)
        if not any(c.isdigit() for c in written):
            continue  # dead::beef, std::vector: code
        head, _, tail = written.partition("::")
        before = head.split(":") if head else []
        after = tail.split(":") if tail else []
        if "::" in written and len(before) + len(after) > 7:
            continue
        groups = [g.lower().lstrip("0") or "0" for g in (before + ["0"] * (8 - len(before) - len(after)) + after)]
        if groups[:6] == ["0"] * 5 + ["ffff"]:  # ::ffff:a00:d is 10.0.0.13
            quad = [str(part) for g in groups[6:] for part in divmod(int(g, 16), 256)]
            terms = [quad[0]] * (len(quad[0]) > 1) + [VERSION_JOIN.join(quad[:n]) for n in range(2, 5)]  # as dotted
            out.append(Address(match.start(), match.start(), match.end(), terms, terms[-1], terms[:-1]))
            continue
        terms = [_term(groups[:n]) for n in range(1, 9)]
        prefix = "::" in written and not tail and before
        asked = _term(groups[:len(before)]) if prefix else terms[-1]
        first = match.start() + (len(before[0]) if before else 0)
        out.append(Address(match.start(), first, match.end(), terms, asked, [t for t in terms if t != asked]))
    return sorted(out) if len(out) > 1 else out


def written(term: str) -> str:
    """``term`` as a person reads it: an address's term as the address (``fe80⋅0⋅…⋅1`` → ``fe80::1``, its longest run
    of zero groups written ``::``), a leading run as its network (``fe80`` → ``fe80::``), any other term as it
    is. Pure."""
    if not term.startswith(ADDRESS_MARK):
        return term
    groups = term[1:].split(VERSION_JOIN)
    if len(groups) < 8:
        return ":".join(groups) + "::"
    best, at, run = 0, -1, 0
    for i, g in enumerate(groups):
        run = run + 1 if g == "0" else 0
        if run > best:
            best, at = run, i - run + 1
    if best < 2:
        return ":".join(groups)
    return ":".join(groups[:at]) + "::" + ":".join(groups[at + best:])


__all__ = ["ADDRESS_MARK", "Address", "addresses", "written"]
