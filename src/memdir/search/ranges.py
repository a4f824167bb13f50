"""Numbers written as a set of numbers (left44a): a network, a version range. What a memory's number covers.

A memory that writes ``10.0.0.1/24``, ``^18.17.0`` or ``18.x`` states every number of that set: asked for
``10.0.0.13`` or ``18.17.2``, it holds another value of the number's shape (``10.0.0.1``, ``18.17.0``) and read as a
sibling it clashed (:func:`memdir.search.versions.clashes`), though it covers the number asked. Here each such
notation of a text is read as the span it names, one term (:func:`span_terms`), which a memory's row keeps beside
its numbers' (:meth:`memdir.search.rowwords.Row.numbers`) and :func:`memdir.search.versions.covers` reads:

* **a network** (CIDR, RFC 4632): an IPv4 address with its prefix length (``10.0.0.1/24``, ``10.0.0.0/24``: the
  addresses ``10.0.0.0`` to ``10.0.0.255``), or with its mask written dotted right after it (``10.0.0.1/255.255.255.0``,
  ``inet 10.0.0.1 netmask 255.255.255.0``, ``10.0.0.1 mask 255.255.255.0``; a mask of contiguous ones only). A mask
  written elsewhere in the text (on another line, after other words) names no network of an address: which address
  it goes with is not written, and a memory listing several hosts would cover them all. Nor does an address in a
  URL (``http://10.0.0.5/16/status``: a slash before the address or after its suffix);
* **npm's ranges** (node-semver), PEP 440's and RubyGems': a caret (``^18.17.0``: ``>=18.17.0 <19.0.0``; ``^0.2.3``:
  ``<0.3.0``; ``^0.0.3``: ``<0.0.4``), a tilde (``~18.17.0``, ``~18.17``: ``<18.18.0``; ``~18``: ``<19``), a
  compatible release (``~=2.2``, ``~> 2.2``: ``<3``; ``~=1.4.5``: ``<1.5``), an x-range (``18.17.x``, ``18.x``,
  ``18.*``, ``==3.11.*``), comparators (``>=18.17 <19``, ``>=3.8,<4``, ``>= 18.17.0``, ``≥ 18``, each side of
  ``||`` its own; an arrow, ``->`` or ``=>``, is none: "18.17.0 -> 18.19.1" is an upgrade), and a hyphen range of dotted numbers (``1.2.3 - 2.3.4``, ``10.0.0.10–10.0.0.20``; not ``10–20``).

A span's term is :data:`memdir.search.versions.RANGE_MARK`, its lower bound, the mark again and its upper bound, each
bound its comparison (``ge``, ``gt``, ``le``, ``lt``) and groups joined by
:data:`memdir.search.versions.VERSION_JOIN` (``^18.17.0`` → ``⊂ge18⋅17⋅0⊂lt19⋅0⋅0``, ⊂ standing for the mark), or
nothing for a side without a bound (``>=18.17.0`` → ``⊂ge18⋅17⋅0⊂``): letters, digits and private-use characters, one
token to FTS5's ``unicode61`` and no word's. A query writes none (:func:`memdir.search.tokenize.query_tokens` drops
them): a query's range asks its numbers as written. Pure, standard library only.
"""

from __future__ import annotations

import re
from functools import cache

from .versions import RANGE_MARK, VERSION_JOIN

_D = r"\d{1,9}"  # a group of a number: nine digits at most (int() refuses over 4,300; no version has ten)
_NUMBER = rf"{_D}(?:\.{_D}){{0,3}}"
_QUAD = r"\d{1,3}(?:\.\d{1,3}){3}"
_BEFORE = r"(?<![\w.\-])"  # no word, dot or hyphen before a number (v is a version's: v18.17 is read)
_AFTER = r"(?![\w]|\.\d)"  # no letter, digit or dot-and-digit after it (a sentence's full stop may end it)
_OP = r"(?:>=|<=|=<|≥|≤|>|<)"  # not => nor -> (arrows: "18.17.0 -> 18.19.1" is an upgrade, no bound; fix45s)


_PATTERNS = {
    # not in a URL (http://10.0.0.5/16/status: no /16 network): no slash before the address or after the suffix
    "network": (rf"(?<![\w.\-/])({_QUAD})(?:/(\d{{1,2}})|(?:/|[ \t]+(?:netmask|mask)[ \t:]+)({_QUAD}))(?![\w/]|\.\d)",
                re.IGNORECASE),
    "caret": (rf"(?<![\w.])(\^|~>|~=|~)[ \t]*v?({_D}(?:\.{_D}){{0,2}})((?:\.[xX*])*){_AFTER}", 0),
    "wild": (rf"{_BEFORE}v?({_D}(?:\.{_D}){{0,2}})((?:\.[xX*])+)(?![\w*])", 0),
    "bounds": (rf"(?<![\w<>=!~^\-]){_OP}[ \t]*v?{_NUMBER}{_AFTER}(?:[ \t]*,?[ \t]*{_OP}[ \t]*v?{_NUMBER}{_AFTER})*", 0),
    "bound": (rf"({_OP})[ \t]*v?({_NUMBER})", 0),
    "hyphen": (rf"{_BEFORE}v?({_NUMBER})([ \t]+-[ \t]+|[ \t]*[–—][ \t]*|-|\.\.)v?({_NUMBER}){_AFTER}", 0),
}


@cache
def _pattern(name: str) -> re.Pattern:
    """One notation of the module docstring (:data:`_PATTERNS`), compiled on the first text that may hold it
    (:func:`span_terms`' fast tests: the prompt hook tokenizes every prompt, most of them holding none)."""
    return re.compile(*_PATTERNS[name])


def span_terms(text: str) -> list[tuple[int, list[str]]]:
    """``(where a notation ends, its span's term)`` for each network and version range ``text`` writes (the module
    docstring), in order: ``"node ^18.17.0"`` → ``[(13, ["⊂ge18⋅17⋅0⊂lt19⋅0⋅0"])]``. ``[]`` for a text holding
    none (a fast test first: no ``/ ^ ~ < > ≥ ≤ - – — x X *`` beside a digit's neighbours). Pure."""
    if not any(c in text for c in "/^~<>≥≤*xX-–—.") or not any(c.isdigit() for c in text):
        return []
    out: list[tuple[int, str]] = []
    for m in _pattern("network").finditer(text) if "/" in text or "mask" in text.lower() else ():
        span = _network(m.group(1), m.group(2), m.group(3))
        if span:
            out.append((m.end(), span))
    for m in _pattern("caret").finditer(text) if "^" in text or "~" in text else ():
        groups = [int(g) for g in m.group(2).split(".")]
        out.append((m.end(), _term("ge", groups, "lt", _caret(m.group(1), groups, bool(m.group(3))))))
    for m in _pattern("wild").finditer(text) if ".x" in text or ".X" in text or ".*" in text else ():
        if not text[:m.start()].rstrip(" \t").endswith(("^", "~", "~=", "~>")):  # ^18.x: the caret's
            groups = [int(g) for g in m.group(1).split(".")]
            out.append((m.end(), _term("ge", groups, "lt", [*groups[:-1], groups[-1] + 1])))
    for m in _pattern("bounds").finditer(text) if any(c in text for c in "<>≥≤") else ():
        low, high = [], []
        for op, number in _pattern("bound").findall(m.group(0)):
            groups, op = [int(g) for g in number.split(".")], {"=<": "<=", "≥": ">=", "≤": "<="}.get(op, op)
            if op[0] == ">":
                low = ["ge" if op == ">=" else "gt", groups]
            else:
                high = ["le" if op == "<=" else "lt", groups]
        out.append((m.end(), _term(*(low or ("", [])), *(high or ("", [])))))
    for m in _pattern("hyphen").finditer(text) if " - " in text or "–" in text or "—" in text or ".." in text \
            or ("-" in text and "." in text) else ():
        low, high = ([int(g) for g in m.group(i).split(".")] for i in (1, 3))
        if low < high and len(low) > 1 and len(high) > 1 and (m.group(2) != "-" or len(low) == len(high)):
            # 1.2.3 - 2.3.4, 10.0.0.10-10.0.0.20; not 10–20 (a count), 2.3.1-4.el8 (a package's release)
            out.append((m.end(), _term("ge", low, "le", high)))
    return [(end, [term]) for end, term in sorted(set(out))]


def _term(low_op: str, low: list[int], high_op: str, high: list[int]) -> str:
    """A span's term (the module docstring): ``("ge", [18, 17, 0], "lt", [19, 0, 0])`` → ``⊂ge18⋅17⋅0⊂lt19⋅0⋅0``."""
    side = lambda op, groups: op + VERSION_JOIN.join(map(str, groups)) if op else ""
    return RANGE_MARK + side(low_op, low) + RANGE_MARK + side(high_op, high)


def _caret(sign: str, groups: list[int], wild: bool) -> list[int]:
    """The upper bound (not held) of a caret, tilde or compatible release on ``groups`` (``wild``: an x-range after
    them, ``^1.2.x``): node-semver's caret raises the first group not zero (the last written when all are), its tilde
    the second when two are written, else the first; ``~=`` and ``~>`` raise the one before the last written."""
    if sign == "^":
        at = next((i for i, g in enumerate(groups) if g), len(groups) - 1)
    elif sign == "~":
        at = 1 if len(groups) >= 2 else 0
    else:
        at = max(len(groups) - 2, 0) if not wild else len(groups) - 1
    return [*groups[:at], groups[at] + 1]


def _network(address: str, length: str | None, mask: str | None) -> str:
    """The span of the network an IPv4 ``address`` names with its prefix ``length`` (``"24"``) or its dotted
    ``mask`` (``255.255.255.0``, contiguous ones only): its first and last addresses, both held; ``""`` for no
    network (a group over 255, a length over 32, a mask not contiguous). An address that is not the first is
    written after them, ``at`` and its groups (``10.0.0.1/24`` → ``⊂ge10⋅0⋅0⋅0⊂le10⋅0⋅0⋅255⊂at10⋅0⋅0⋅1``): a number
    the network writes, no sibling that clashes (:func:`memdir.search.versions.clashes`)."""
    groups = [int(g) for g in address.split(".")]
    if any(g > 255 for g in groups):
        return ""
    if mask is not None:
        parts = [int(g) for g in mask.split(".")]
        if any(g > 255 for g in parts):
            return ""
        bits = f"{sum(g << (24 - 8 * i) for i, g in enumerate(parts)):032b}"
        if "01" in bits:
            return ""
        size = bits.count("1")
    else:
        size = int(length)
        if size > 32:
            return ""
    value = sum(g << (24 - 8 * i) for i, g in enumerate(groups))
    first = value & ~((1 << (32 - size)) - 1) & 0xFFFFFFFF
    last = first | ((1 << (32 - size)) - 1)
    quad = lambda v: [(v >> s) & 255 for s in (24, 16, 8, 0)]
    at = RANGE_MARK + "at" + VERSION_JOIN.join(map(str, groups)) if value != first else ""  # 10.0.0.1/24: its host
    return _term("ge", quad(first), "le", quad(last)) + at


__all__ = ["span_terms"]
