"""A number written with dots (a version, ``v2.3.1``) as the terms of its leading parts (vers19, issue 28).

``v2.3`` and ``v2.4`` were both the term ``v2`` alone (a one-digit group of a dotted number is no term of its own:
``port 2`` is no ``v3.2.1``), so a memory on v2.3.1 could not be told from one on v2.4, and a query ``2.3`` met a
"v2.3.1" only by chance. Joining the digits (``v2.4`` → ``v24``) collides with other numbers (``v1.0`` is ``v10``,
``v10.0.x`` ``v100``). Here each leading run of two groups or more is one term, its groups joined by
:data:`VERSION_JOIN`, a character no word or number gives a term: ``v2.3.1`` → ``2⋅3``, ``2⋅3⋅1`` (⋅ standing for
it), beside its first word's terms (``v2``, ``16``, a name written on it: ``python3`` of ``python3.11``). Its later
groups are no numbers of their own, nor are its digits run together (vers20: ``5`` found "1.5GB", ``11`` "python
3.11", and ``v3.21.0`` met ``v32.1.0`` at 0.95 by ``v3210``; :func:`word_terms`). Memories and queries alike
(:func:`memdir.search.tokenize.tokens`); a query drops a version's mark and major (``v2`` of ``v2.3``:
:func:`marked_majors`), so ``v2.3`` finds "v2.3.1", "r2.3" and "the 2.3.x line" alike and not "v2.4". The terms
weigh as any other (:func:`memdir.search.weighing.term_weights`); a version no memory holds (``16.5``) is a partial
match of its major's memory. A date written with dots is no version (``02.11.2026`` meets ``2026-11-02``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ..text.fold import fold
from ..vocabulary import CJK_RANGES, SPACELESS_RANGES

# A version or other number written with dots (v2.3.1, 16.4, 2.3.1-rc1, 10.0.0.1, 0.5): its groups of
# digits, no dot, letter or digit before it but a name's letters written against it (a v, r2.3, python3.11, py3.12,
# node20.1, log4j2.17: vers20; not with letters after it, m5.2xlarge), no digit or dot-and-digit after it (a suffix after a hyphen or a plus is the
# version's: -rc1, +build; so is .x; so are letters after it: rc1 of 2.3.1rc1, a unit, 1.5GB, 2.5ms, 0.5s, 1.5x, as
# written apart, "1.5 GB": break20). Not 02/11/2026 (a slash).
# Digits of other scripts are read as ASCII (text.fold, as in words: ٢.٣ is 2.3). A letter of a script written
# without spaces (CJK, Thai: vocabulary) is no part of the number beside it: "バージョン2.3.1を使う" holds 2.3.1.
_WORD = f"[^\\W{CJK_RANGES}{SPACELESS_RANGES}]"  # a letter, digit or _ of a script written with spaces
_LETTER = f"[^\\W\\d_{CJK_RANGES}{SPACELESS_RANGES}]"  # a letter of such a script
_VERSION = rf"(?<!\.)(?<!{_WORD})(?=\w*\.\d)(?:{_WORD}*{_LETTER})?(\d+(?:\.\d+)+)(?![\d_]|\.\d)"


@lru_cache(maxsize=1)
def _version() -> re.Pattern:
    """:data:`_VERSION` compiled, on the first text holding a dot before a digit (:func:`dotted_versions`' fast
    test): the prompt hook and a write load this module with the tokenizer, and most prompts hold none (its
    character classes of the scripts written without spaces: ≈ 3 M instructions, hot46)."""
    return re.compile(_VERSION)


class Version(NamedTuple):
    """A number written with dots in a text (:func:`dotted_versions`): where it starts (its name's letters too:
    ``python3.11`` from the ``p``), where its first dot is and where it ends (offsets in the text; after its
    pre-release: ``2.3.1.rc1`` ends after ``rc1``), its terms, and
    whether its digits are also run together as a number written in groups is (``joined``: each group after the
    first of three digits or more, a phone number written with dots, ``555.010.2030``), its first group's digits
    (``major``, ``16`` of ``postgres16.4``) and the letter that marks it as a version, if any (``mark``: the ``v`` of
    ``v2.3``, the ``r`` of ``r2.3``, folded; else "")."""

    start: int
    dot: int
    end: int
    terms: list[str]
    joined: bool
    major: str
    mark: str


_MARKS = ("v", "r")  # a version's mark: v2.3, r2.3 (a release)

# A pre-release written after a version, as PEP 440 ("Pre-releases", "Developmental releases") and SemVer §9 write
# it: its label, written on or apart by a dot or a hyphen (2.3.1rc1, 2.3.1.rc1, 2.3.1-rc1, 1.0.0-beta.2,
# 1.0.0.beta2, python3.11rc1), and its number, written on or apart by a dot or a hyphen, or none (1.0.0-beta); a
# label of one letter (a1, b2, c1) only with its number (1.5b is a size, v2.3.1a a letter). Nothing of a word or of
# another dotted part after it (2.3.1.rc1.tar.gz, 2.3.1-beta-linux: no pre-release, read as before).
_PRE_RELEASE = (r"[.\-]?(?:(alpha|beta|rc|preview|pre|dev|post)|([abc])(?=[.\-]?\d))[.\-]?(\d+)?"
                r"(?![^\W_]|[.\-][^\W_])")
# ... and one written apart from its version by a space (2.3.1 rc1, 2.3.1 beta.2, Python 3.11 RC1): only a label that
# is a word with its number (a space before "dev", "b2" or "rc 1" is too often another word: "v2.3 dev server").
_APART = r"[ \t](alpha|beta|rc|preview|pre|dev|post)()[.\-]?(\d+)(?![^\W_]|[.\-][^\W_])"


@lru_cache(maxsize=1)
def _pre_releases() -> tuple[re.Pattern, re.Pattern]:
    """:data:`_PRE_RELEASE` and :data:`_APART` compiled (case-insensitive), on the first version found."""
    return re.compile(_PRE_RELEASE, re.IGNORECASE), re.compile(_APART, re.IGNORECASE)


_DOT_DIGIT = re.compile(r"\.\d")  # the fast test of dotted_versions (\d: any script's digits, as _VERSION's)
_SPELLED = {"alpha": "a", "beta": "b", "c": "rc", "pre": "rc", "preview": "rc"}  # PEP 440's normal spellings

VERSION_JOIN = "\ue000"
"""What joins the groups of a version's leading parts into one term (``v2.3.1`` → ``2\ue0003``,
``2\ue0003\ue0001``): a private-use character (U+E000), which no text gives a term (no letter or digit to
:func:`memdir.search.tokenize.segments`) and SQLite's FTS5 ``unicode61`` tokenizer reads as part of a token (its
categories ``L* N* Co``), so such a term is never a word's or another number's: ``v1.0`` is no ``v10``, ``v10.0``
no ``V100``, ``2.3`` no ``23``."""


ADDRESS_MARK = "\ue002"
"""What begins an IPv6 address's term (U+E002, private use: no text gives it a term; FTS5 keeps it in the token):
:mod:`memdir.search.ipv6`'s, held here with the other marks so a reader of terms (:mod:`memdir.search.why`) tells
an address's term apart without loading that module."""

RANGE_MARK = "\ue003"
"""What begins a network's or a version range's term and parts its bounds (U+E003, private use:
:mod:`memdir.search.ranges`; ``^18.17.0`` → ``\ue003ge18⋅17⋅0\ue003lt19⋅0⋅0``): read by :func:`covers`."""


def dotted_versions(text: str, most: int) -> list[Version]:
    """Each number of ``text`` written with dots (:data:`_VERSION`) of at most ``most`` groups (a longer run is a
    list), in order: its terms are each of its leading runs of two groups or more, the groups' digits as written
    joined by :data:`VERSION_JOIN` (``v2.3.1`` → ``2⋅3``, ``2⋅3⋅1``; ``16.4`` → ``16⋅4``; ``python3.11`` →
    ``3⋅11``; ``10.0.0.1`` → ``10⋅0``, ``10⋅0⋅0``, ``10⋅0⋅0⋅1``), and a pre-release after it
    (:data:`_PRE_RELEASE`; written apart by a space, :data:`_APART`) the whole joined with its one spelling
    (:func:`pre_release`: ``2.3.1rc1``, ``2.3.1.rc1``, ``2.3.1-rc.1``, ``2.3.1 rc1`` → ``2⋅3⋅1⋅rc1``, ``rc1``; ``python3.11rc1`` → ``3⋅11``, ``3⋅11⋅rc1``,
    ``rc1``), the version then ending after it; the label a word (not ``b`` of ``1.0b2``), the label with its
    number is a term too, in every form alike (``rc1``, ``beta2`` of ``1.0.0-beta.2``). A query's ``2.3`` so meets a memory's ``v2.3.1`` (and ``2.3.4``, ``r2.3``, ``2.3.1rc1``),
    ``2.3.1rc1`` meets ``2.3.1.rc1`` whole and ``2.3.1rc2`` by its version alone, and ``v2.3`` meets ``v2.4`` by
    the bare ``v2`` alone.
    A date is no version (:func:`_dated`: ``02.11.2026`` meets ``2026-11-02`` by its groups and their joins,
    written any way). Pure."""
    out: list[Version] = []
    if "." not in text or not _DOT_DIGIT.search(text):  # no dot before a digit: no version (ASCII's or another script's)
        return out
    for match in _version().finditer(text):
        groups = fold(match.group(1)).split(".")
        name = fold(text[match.start():match.start(1)])
        pre_release_, apart = _pre_releases()
        pre = pre_release_.match(text, match.end()) or apart.match(text, match.end())
        if name and name not in _MARKS and match.end() < len(text) and text[match.end()].isalpha() \
                and not (pre and pre.group(3)):
            continue  # m5.2xlarge, e2.1b: a name's digits and a size, no version (a name's version ends: python3.11,
            # python3.11rc1: a pre-release with its number)
        if len(groups) <= most and not _dated(groups):
            terms = [VERSION_JOIN.join(groups[:n]) for n in range(2, len(groups) + 1)]
            if pre:  # 2.3.1.rc1: 2⋅3⋅1⋅rc1, and its label's word with its number (rc1) when the label is a word
                terms.append(terms[-1] + VERSION_JOIN + pre_release(pre))
                if pre.group(1) and pre.group(3):
                    terms.append(fold(pre.group(1)) + _digits(fold(pre.group(3))))
            joined = len(groups) > 2 and all(len(g) >= 3 for g in groups[1:])
            out.append(Version(match.start(), match.start(1) + len(groups[0]), pre.end() if pre else match.end(),
                               terms, joined, groups[0], name if name in _MARKS else ""))
    return out


def pre_release(match: re.Match) -> str:
    """A match of :data:`_PRE_RELEASE` as one spelling: its label folded, in PEP 440's normal form (``alpha`` →
    ``a``, ``beta`` → ``b``, ``c``, ``pre``, ``preview`` → ``rc``), and its number without leading zeros, ``0``
    when none is written (PEP 440's implicit number): ``-rc.1``, ``.rc1``, ``RC1`` → ``rc1``; ``-beta.2``,
    ``b2`` → ``b2``; ``-beta`` → ``b0``. Pure."""
    label = fold(match.group(1) or match.group(2))
    return _SPELLED.get(label, label) + _digits(fold(match.group(3) or "0"))


def word_terms(version: Version, at: int, terms: tuple[str, ...]) -> tuple[str, ...]:
    """The ``terms`` a word of the text starting at offset ``at`` inside ``version`` keeps: the first group's (its
    name's, ``v2``, ``python3``, ``16``) but a lone digit (``2`` of ``2.3.x``: ``port 2`` is no ``v2.3``), none of a
    later group's beginning with a digit (its number, or the number with its unit or suffix written on: ``5``,
    ``5gb`` of ``1.5GB``, ``11`` of ``3.11``, ``1rc1`` of ``2.3.1rc1``; vers20: a bare ``5`` was ``1.5GB``'s, a bare
    ``11`` ``python 3.11``'s), nor any holding a digit of a pre-release after it (``rc1`` of ``2.3.1.rc1``, ``1`` of
    ``2.3.1-rc.1``: vers22, they were terms only written so) — the version's terms say them, its unit's or suffix's
    words are kept (``gigabyt``, ``rc``, ``beta``). A name written on it gives its major too, of two digits or more (``postgres16.4`` → ``16``, as
    ``Postgres 16.4`` does: ``16.4`` finds it whole). Pure."""
    if at < version.dot:
        kept = tuple(t for t in terms if not (len(t) == 1 and t.isdigit()))
        if at == version.start < version.dot - len(version.major) and len(version.major) > 1 \
                and version.major not in kept:
            kept = (*kept, version.major)
        return kept
    return tuple(t for t in terms if not any(c.isdigit() for c in t))


def marked_majors(text: str, most: int) -> list[str]:
    """The term a version's mark and major make (``v2`` of ``v2.3``, ``r2.3``; :data:`_MARKS`), once for each
    version of ``text`` so written: what a query drops, its version's leading parts saying it (vers20: ``v2.3``
    found "the 2.3.x line", "r2.3" and "2.3.1-rc.1" at 0.03, which hold no ``v2``, and listed "v2.4" by it).
    A text holding no such version gives ``[]``. Pure."""
    return [version.mark + version.major for version in dotted_versions(text, most) if version.mark]


def query_prefixes(text: str, most: int) -> list[str]:
    """The terms a query drops of each number it writes with dots (search41): its leading parts shorter than the
    whole (``10⋅0``, ``10⋅0⋅0`` of ``10.0.0.10``; of a pre-release, those shorter than its version: ``2⋅3`` of
    ``2.3.1rc1``, its ``2⋅3⋅1`` kept) and its bare major of two digits or more (``10``, ``16`` of ``16.5``). A memory
    holding ``10.0.0.1`` shares only those with a query ``10.0.0.10``: another host, listed at 0.76 by them before. A
    query's dotted number is one term, exact; a memory's keeps its leading parts, so a query written shorter still
    finds the longer ones (``2.3`` finds ``v2.3.1``, ``10.0.0`` both hosts). Once for each number so written; a text
    holding none gives ``[]``. Pure."""
    out: list[str] = []
    for version in dotted_versions(text, most):
        parts = [t for t in version.terms if t[:1].isdigit() and not any(c.isalpha() for c in t)]  # no rc1, 2⋅3⋅1⋅rc1
        out += parts[:-1]  # the last is the whole number, its pre-release aside
        if len(version.major) > 1 and version.major.isdigit():
            out.append(version.major)
    return out


def clashes(asked: list[str] | tuple[str, ...], held) -> tuple[str, ...]:
    """The dotted numbers of a query (its ``asked`` terms; those of :func:`dotted_versions`' digits alone, joined by
    :data:`VERSION_JOIN`) that a memory holding the terms ``held`` (a set or other container of its head's and
    body's terms, or of those of its dotted numbers alone: :meth:`memdir.search.rowwords.Row.numbers`) contradicts (num42): it holds not the number but another of its shape that the query does not
    ask, a sibling: three groups or more, as many, all but the last the same (``10.0.0.12`` for ``10.0.0.13``,
    ``18.17.1`` for ``18.17.2``). Two groups (``3.10`` for ``3.12``, ``20.04`` for ``20.11``) and numbers apart
    before their last group (``0.0.0.0``, ``172.16.0.5``, ``1.1.1.1`` for ``10.0.0.13``) are no clash: such a
    memory is as often about another thing ("python 3.10 or newer", "node 20 on ubuntu 20.04", a bind address) and a
    person asking plainly for it must find it (break43).
    A shorter query (``10.0.0``, ``18.17``) is held by the longer numbers' leading parts; a shorter number held
    (``18.17`` for ``18.17.2``) or one of another major (``3.11.4``, ``20.1.0``) is no clash, nor a pre-release's
    terms (``2⋅3⋅1⋅rc1``). A memory holding the number and another (``10.0.0.12`` and ``.13``) holds it: no clash.
    Nor does a memory that covers the number: two values of its shape on either side of it (a range,
    ``10.0.0.10–10.0.0.20`` or ``>=18.17.0 <18.18.0``, for ``10.0.0.13``, ``18.17.2``), or an IPv4 network address
    it lies in, read as the address's leading groups before its trailing zeros (``10.0.0.0/24`` for ``10.0.0.13``;
    ``10.1.0.0`` not), or a network or version range it writes that holds the number (:func:`covers`, the terms of
    :data:`RANGE_MARK` among ``held``: ``10.0.0.1/24``, ``inet 10.0.0.1 netmask 255.255.255.0`` for ``10.0.0.13``;
    ``^18.17.0`` for ``18.17.2`` and ``18.20.1``, ``~18.17.0`` for ``18.17.2``, not ``18.18.0``; ``18.17.x``,
    ``18.x``, ``>=18.17 <19``: left44a) when each sibling the memory holds is a number that span writes (a bound of
    it, or a network's address: ``^18.17.0`` for ``18.17.2``; ``10.0.0.1/24`` for ``10.0.0.13``). A sibling written
    apart from the span still clashes, a span elsewhere in the memory no excuse (fix45s: "VPN subnet 10.0.0.0/8;
    database host 10.20.30.40" for ``10.20.30.41``, "runs python 3.11.4; supports >=3.9" for ``3.11.5``). In the
    order of ``asked``; ``()`` when none. Pure."""
    numbers = [t for t in asked if VERSION_JOIN in t and t.replace(VERSION_JOIN, "").isdecimal()]
    if not numbers:
        return ()
    asked_set = set(asked)
    others = [_groups(t) for t in held if VERSION_JOIN in t and t not in asked_set
              and t.replace(VERSION_JOIN, "").isdecimal()]
    spans = [t for t in held if t[:1] == RANGE_MARK]
    return tuple(t for t in numbers if t not in held and _contradicted(_groups(t), others)
                 and not _spanned(_groups(t), others, [span for span in spans if covers(span, t)]))


def _spanned(number: list[str], others: list[list[str]], spans: list[str]) -> bool:
    """True when ``spans`` (the memory's spans that cover ``number``) write every sibling of ``number`` among
    ``others`` (:func:`clashes`): each is a bound of one of them or the address its network is written on."""
    written = {_value(side[2:].split(VERSION_JOIN)) for span in spans
               for side in span[1:].split(RANGE_MARK) if side}
    return bool(spans) and all(_value(o) in written for o in others if _same_shape(number, o))


def covers(span: str, number: str) -> bool:
    """True when the network or version range of ``span`` (a term of :data:`RANGE_MARK`: :mod:`memdir.search.ranges`)
    holds the dotted ``number`` (a term of :data:`VERSION_JOIN`), compared group by group as numbers, a number
    of fewer groups before one that continues it (``18.17`` < ``18.17.0``): ``⊂ge18⋅17⋅0⊂lt19⋅0⋅0`` (``^18.17.0``)
    holds ``18⋅20⋅1``, not ``19⋅0⋅0``. A span of a network (four groups a side) holds numbers of four groups only,
    and a span holds only numbers of the major one of its bounds writes (``<5`` of "in <5 min" is no range of
    ``3.11.4``; ``>=18.17 <19`` holds ``18.17.2``); a network's written address after them (``⊂at10⋅0⋅0⋅1``) holds
    nothing of itself. False for a term that is no span. Pure."""
    value = _value(_groups(number))
    sides = span[1:].split(RANGE_MARK)
    if len(sides) not in (2, 3) or sides[2:] and not sides[2].startswith("at"):
        return False
    sides = sides[:2]
    held, major = True, False
    for side in sides:
        if not side:
            continue
        op, bound = side[:2], _value(side[2:].split(VERSION_JOIN))
        major = major or bound[0] == value[0]
        if op == "le" and len(bound) == 4 and len(value) != 4:
            return False  # a network's addresses
        held = held and (value >= bound if op == "ge" else value > bound if op == "gt"
                         else value <= bound if op == "le" else value < bound)
    return held and major


def _contradicted(number: list[str], others: list[list[str]]) -> bool:
    """True when some of ``others`` (the dotted numbers a memory holds, as groups) is of ``number``'s shape and
    none of them covers it (:func:`clashes`): no two of its shape lie on either side of it, and no IPv4 network
    address among them holds it."""
    alike = [o for o in others if _same_shape(number, o)]
    if not alike:
        return False
    value = _value(number)
    # the bounds of a range may part earlier than siblings do (">=18.17.0 <18.18.0"): same length and major
    values = [_value(o) for o in others if len(o) == len(number) and o[0] == number[0]]
    if any(v < value for v in values) and any(v > value for v in values):
        return False  # a range around it
    return not any(_network_holds(o, number) for o in alike)


def _network_holds(network: list[str], address: list[str]) -> bool:
    """True when ``network`` is an IPv4 network address (four groups, the last zero) whose groups before its
    trailing zeros lead ``address`` (``10.0.0.0`` holds ``10.0.0.13``, and ``10.5.1.2`` too, as ``10.0.0.0/8``
    would: the mask is not read)."""
    if len(network) != 4 or len(address) != 4 or network[-1] != "0":
        return False
    lead = list(network)
    while lead and lead[-1] == "0":
        lead.pop()
    return bool(lead) and address[:len(lead)] == lead


def _digits(run: str) -> str:
    """A run of digits as the number it writes, leading zeros dropped (``007`` → ``7``, ``0`` → ``0``); a string
    operation, linear in any length (``int()`` refuses a run of over 4,300 digits: a memory of one crashed)."""
    return run.lstrip("0") or "0"


def _value(groups: list[str]) -> tuple[tuple[int, str], ...]:
    """Dotted ``groups`` of digits as a key that orders them as numbers, group by group, a number of fewer groups
    before one that continues it (``18.17`` < ``18.17.0``): each group its length and digits without leading zeros.
    Linear in the digits, whatever their number (no ``int()``: a 100,000-digit group is compared, not refused)."""
    return tuple((len(d), d) for d in map(_digits, groups))


def _groups(term: str) -> list[str]:
    """A dotted number's term as its groups of digits (``10⋅0⋅0⋅12`` → ``["10", "0", "0", "12"]``)."""
    return term.split(VERSION_JOIN)


def _same_shape(one: list[str], other: list[str]) -> bool:
    """True when two dotted numbers (their groups) are siblings (:func:`clashes`): three groups or more, as many,
    all but the last the same."""
    return len(one) == len(other) >= 3 and one[:-1] == other[:-1]


def written(term: str) -> str:
    """``term`` as a person reads it: a version's part with its dots (``2\ue0003`` → ``2.3``), any other term as it
    is. What a result shows it was found by (:func:`memdir.search.why.why`). Pure."""
    return term.replace(VERSION_JOIN, ".")


def _dated(groups: list[str]) -> bool:
    """True when the digit ``groups`` of a dotted number are a date: three, a year of four digits first or last and
    two of one or two digits (``2024.01.15``, ``02.11.2026``; not ``1.10.2``, ``120.0.6099.109``)."""
    if len(groups) != 3:
        return False
    year, *rest = groups if len(groups[0]) == 4 else groups[::-1]
    return len(year) == 4 and all(len(g) <= 2 for g in rest)


__all__ = ["RANGE_MARK", "VERSION_JOIN", "Version", "clashes", "covers", "dotted_versions", "marked_majors", "pre_release", "query_prefixes", "word_terms", "written"]
