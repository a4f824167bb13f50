"""How a tombstone reads a value's words (DESIGN §5): the words a reader sees, markup seen through, and which
reading a stored digest was made with.

A tombstone compares words (:mod:`memdir.tombstones.match`: "the same words", the forgotten fact restated or
reworded, the forgotten body), and words are what a reader sees: markup that changes no word a reader sees
makes no other fact (tomb40: ``<b>pass</b>word``, ``pass<span>word</span>``, ``[staging host](http://x)`` or
``&#x70;assword`` brought a forgotten value back, read as other words). :func:`seen` is that reading:

* **HTML comments** (``<!-- … -->``) go whole: a reader sees nothing of them;
* **HTML tags** of the elements a person marks text up with (:data:`_INLINE`: ``<b>``, ``<span class="x">``,
  ``</em>`` …) go, joining what they stood between (``<b>pass</b>word`` is ``password``); those that break a
  line or a block (:data:`_BLOCK`: ``<br>``, ``<p>``, ``<li>`` …) are read as a space. Only known element
  names, a one-letter one in capitals only when the text closes it (``<B>pass</B>word``): ``Vec<u8>``,
  ``Array<T>`` or ``map<U>`` are code, read as written (a correction from ``Vec<u8>`` to ``Vec<u16>`` stays a correction); an autolink ``<https://x>``
  shows its address and keeps it;
* **Markdown links and images** keep their text and drop their address and title (``[staging host](http://x
  "t")``, ``![alt](a.png)``, ``[text][ref]``); a link reference definition line (``[ref]: http://x``) is not
  shown and goes;
* **Markdown emphasis** (``*``, ``**``, ``***``, ``~~`` in pairs on a line) goes, joining what it stood
  between as a renderer does (``**pass**word``, ``p*ass*word``); a lone ``*`` (``2*60``) is a character;
* **inline code** backticks (paired on a line) go (``\\`pass\\`word``), and a code fence's line (its
  backticks or tildes and its info string) goes;
* **character references** (``&amp;``, ``&#x70;``, ``&nbsp;``) are read as their character
  (:func:`html.unescape`), after the tags: ``&lt;b&gt;`` shows ``<b>`` and is read so.

A value is read both ways (:data:`READINGS`), and a tombstone matching either reading matches: what a renderer
hides from its reader (a comment, a tag's attribute, a link's address or title) is still read by a model given the
raw text, so seeing through markup must never hide a forgotten fact in it (``<!-- the forgotten fact -->``).

The same double reading is the migration of stored digests. Changing a reading changes the digests a tombstone
keeps (``words_digest``, ``body_digest``), and a tombstone keeps no body in clear to make them again. A tombstone
stores the reading its digests were made with (:attr:`memdir.tombstones.match.Tombstone.reading`; absent: one
stored before readings were kept, reading 1), and since every value is read under every reading, a tombstone of
reading 1 is matched as it always was (the value as written) and also by the value seen through its markup —
the forgotten value as written and the new one as seen are the same words whenever the forgotten one held no
markup the readings tell apart, which is how a tombstone of an earlier memdir blocks a forgotten fact dressed in
markup. Readings:

1. the words of the text as written (memdir before tomb40: a tag's name and a link's address were words);
2. the words a reader sees (:func:`seen`).

Pure, standard library only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.values import normalize_value
from ..text.words import BIT_UNITS, SHORT_FORMS, UNITS
from ..vocabulary import CJK_RANGES

READING = 2
"""The reading of words a tombstone made now stores its digests with (the module docstring's list)."""
READINGS = (2, 1)
"""Every reading a value is compared under, today's first (the module docstring)."""

# Signs that change a fact, so they are words too: comparisons (">= 18", "< 5"), "++" and "#" after a letter
# (C++, C#), "+" before anything ("UTC+3", "chmod +x") and "-" starting a word ("retry -1", "chmod -x") —
# not a list's "- " or "+ ", a heading's "#", a quote's ">" or the hyphen inside "staging-7".
_SIGNS = r"[<>!=]=|[<>](?=\s?\d)|(?<=[^\W\d_])(?:\+\+|#)|\+(?=\S)|(?:(?<=\s)|^)-(?=\w)"
_WORD = f"[{CJK_RANGES}]|[^\\W_{CJK_RANGES}]+|{_SIGNS}"  # compiled on first use (the class is large): see _pattern

# Elements whose tags only mark text up: they join what they stand between (a one-letter name: lower case only).
_INLINE = ("abbr|acronym|bdi|bdo|big|blink|cite|code|del|dfn|em|font|ins|kbd|mark|nobr|samp|small|span|strike"
           "|strong|sub|sup|tt|var|wbr")
# Elements that break a line or a block: read as a space.
_BLOCK = ("address|article|aside|blockquote|br|center|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header"
          "|hr|img|li|main|nav|ol|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul")
_TAG_REST = r"(?=[\s/>])(?:\s[^<>\n]*)?/?>"  # attributes on the tag's line, a self-closing slash
_INLINE_TAG = f"</?(?:(?i:{_INLINE})|[abiqsu]){_TAG_REST}"
_CAPITAL_CLOSE = r"</([ABIQSU])>"  # a one-letter tag in capitals is markup when the text closes it (code never does)
_BLOCK_TAG = f"</?(?:(?i:{_BLOCK})|p){_TAG_REST}"
_COMMENT = r"<!--.*?-->"
_FENCE_LINE = r"(?m)^[ \t]{0,3}(?:`{3,}|~{3,})[^\n]*$"
_REFERENCE_LINE = r"(?m)^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*(\S+)[^\n]*$"
# A link or image: its text kept, its address (one level of parentheses inside it) and title dropped.
_LINK = r"!?\[([^\]\n]*)\]\(((?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
_REFERENCE_LINK = r"!?\[([^\]\n]+)\]\[[^\]\n]*\]"
_EMPHASIS = r"(\*{1,3}|~~)(?=[^\s*~])([^\n]*?[^\s*~])\1"
_CODE = r"(`+)(?=[^`\n])([^\n]*?[^`\n])\1(?!`)"


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, ...]:
    return tuple(re.compile(p, re.DOTALL if p is _COMMENT else 0) for p in (
        _COMMENT, _FENCE_LINE, _REFERENCE_LINE, _INLINE_TAG, _BLOCK_TAG, _LINK, _REFERENCE_LINK, _EMPHASIS, _CODE))


@lru_cache(maxsize=1)
def _word_pattern() -> re.Pattern:
    return re.compile(_WORD)


_MARKS = "<[*~`&"  # what every markup seen() reads through starts with


def seen(text: str) -> str:
    """``text`` as a reader sees it, its markup seen through (the module docstring's list): HTML comments and
    tags, Markdown links, emphasis and code marks gone, character references read. Text holding none of
    ``< [ * ~ ` &`` is returned as it is. Pure; never raises."""
    if not any(c in text for c in _MARKS):
        return text
    comment, fence, reference, inline, block, link, ref_link, emphasis, code = _patterns()
    if "<" in text:
        text = comment.sub("", text) if "<!--" in text else text
        text = block.sub(" ", inline.sub("", text))
        closed = "".join(sorted(set(re.findall(_CAPITAL_CLOSE, text))))
        if closed:
            text = re.sub(f"</?[{closed}]{_TAG_REST}", "", text)
    if "`" in text or "~" in text:
        text = fence.sub("", text)
    if "[" in text:
        text = ref_link.sub(r"\1", link.sub(r"\1", reference.sub("", text)))
    for _ in range(3):  # nested pairs (***a*** read as **a** then a)
        if "*" not in text and "~~" not in text:
            break
        text, count = emphasis.subn(r"\2", text)
        if not count:
            break
    if "`" in text:
        text = code.sub(r"\2", text)
    if "&" in text:
        import html  # late: most text holds no reference

        text = html.unescape(text)
    return text


_TAG = re.compile(r"<[A-Za-z][^<>]*>")
# The attributes whose value is an address (HTML's URL-valued attributes, current and obsolete, and SVG's
# xlink:href): never shown to a reader, as an attribute's value is not. Not alt or title: text, not an address.
_ADDRESS_ATTRIBUTE = re.compile(r"""(?i)\s(href|src|srcset|cite|longdesc|usemap|lowsrc|dynsrc|background|ping|itemid"""
                                r"""|itemtype|action|formaction|data|poster|codebase|classid|archive|manifest|icon"""
                                r"""|profile|xlink:href)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""")
_ADDRESS_LISTS = frozenset(("ping", "itemtype", "archive"))  # addresses apart by blanks (archive: or commas)
# A style attribute's CSS: each url() in it (background: url(http://x/bg.png)) is an address a reader never sees.
_STYLE = re.compile(r"""(?i)\sstyle\s*=\s*("[^"]*"|'[^']*')""")
_CSS_URL = re.compile(r"""(?i)url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)""")


def _srcset(value: str) -> list[str]:
    """The addresses of a ``srcset`` value (HTML's image candidate strings: ``a.png 1x, b.png 2x``): each
    candidate's address, its width or density descriptor dropped; an address may end in commas, then dropped."""
    out, at = [], 0
    while True:
        at += len(value[at:]) - len(value[at:].lstrip(" \t\n\r\f,"))
        if at >= len(value):
            return out
        address = re.match(r"\S+", value[at:]).group()
        at += len(address)
        if address.endswith(","):
            out.append(address.rstrip(","))
            continue
        out.append(address)
        comma = value.find(",", at)
        at = len(value) if comma < 0 else comma


def _attribute_addresses(name: str, value: str) -> list[str]:
    """The addresses one address attribute holds: ``srcset``'s candidates, the blank-separated lists
    (:data:`_ADDRESS_LISTS`), else the value whole, blanks around it dropped."""
    name = name.lower()
    if name == "srcset":
        return _srcset(value)
    if name in _ADDRESS_LISTS:
        return re.split(r"[\s,]+" if name == "archive" else r"\s+", value.strip())
    return [value.strip()]


def _hidden_tags(text: str) -> list[re.Match]:
    """The tags of ``text`` that :func:`seen` reads through (an inline or block element's, a one-letter one in
    capitals that the text closes): those whose attributes a reader does not see."""
    inline, block = _patterns()[3], _patterns()[4]
    closed = set(re.findall(_CAPITAL_CLOSE, text))
    capital = re.compile(f"</?[{''.join(sorted(closed))}]{_TAG_REST}") if closed else None
    return [tag for tag in _TAG.finditer(text) if inline.fullmatch(tag.group()) or block.fullmatch(tag.group())
            or (capital is not None and capital.fullmatch(tag.group()))]


def hidden_spans(text: str) -> list[tuple[int, int, str]]:
    """The link addresses in ``text`` that :func:`seen` hides from its reader, each with the span of the markup
    that holds it (``(start, end, address)``, character offsets into ``text``, in the order found; an address as
    written, its quotes dropped): a Markdown link's or image's destination (``http://x`` of ``[text](http://x
    "title")``, ``<http://x>`` of ``[text](<http://x>)``; the span is the whole link), a link reference
    definition's (``[ref]: http://x``; its line) and the address attributes (:data:`_ADDRESS_ATTRIBUTE`: ``href``,
    ``src``, ``srcset``'s candidates, ``cite``, ``longdesc``, ``ping`` …, and each CSS ``url()`` of a ``style``
    attribute, ``<span style="background: url('http://x/bg.png')">``; the span is the tag) of a tag
    :func:`seen` reads through (``<a>``, ``<img>``, ``<q>``, ``<blockquote>``, ``<td>`` …). A tag it keeps
    (``<form action>``, ``<object data>``, ``<iframe src>``, ``<video poster>``: no element a person marks text up
    with) is read as words, its address among them, so that address is shown; an autolink (``<http://x>``) and a
    bare address are shown too. Pure; never raises."""
    if "](" not in text and "]:" not in text and "<" not in text:
        return []
    reference, link = _patterns()[2], _patterns()[5]
    found = [(m.start(), m.end(), m.group(2)) for m in link.finditer(text)]
    found += [(m.start(), m.end(), m.group(1)) for m in reference.finditer(text)]
    if "<" in text:
        found += [(tag.start(), tag.end(), address) for tag in _hidden_tags(text)
                  for m in _ADDRESS_ATTRIBUTE.finditer(tag.group())
                  for address in _attribute_addresses(m.group(1), m.group(2)[1:-1] if m.group(2)[:1] in "\"'"
                                                      else m.group(2))]
        found += [(tag.start(), tag.end(), "".join(url.groups("")).strip()) for tag in _hidden_tags(text)
                  for style in _STYLE.finditer(tag.group()) for url in _CSS_URL.finditer(style.group(1)[1:-1])]
    return [(start, end, address) for start, end, address in sorted(found, key=lambda f: f[0]) if address]


def hidden_addresses(text: str) -> list[str]:
    """The addresses of :func:`hidden_spans`, as written and in the order found (``[text](http://x)``,
    ``[ref]: http://x``, ``<a href="http://x">``, ``<img srcset="a.png 1x, b.png 2x">``). What a tombstone does
    with them is :mod:`memdir.tombstones.addresses`. Pure; never raises."""
    return [address for _, _, address in hidden_spans(text)]


def read(text: str, reading: int = READING) -> str:
    """``text`` normalized as a tombstone compares it (:func:`memdir.text.values.normalize_value`), read under
    ``reading`` (1: as written; 2 and later: :func:`seen` first)."""
    return normalize_value(seen(text) if reading >= 2 else text)


def words(text: str, reading: int = READING) -> tuple[str, ...]:
    """The words of ``text`` read under ``reading`` (:func:`read`): runs of letters and digits, each CJK
    character on its own, and the signs that change a fact (:data:`_SIGNS`: ``>=``, ``C++``/``C#``, ``+3``,
    ``-1``)."""
    return tuple(_word_pattern().findall(read(text, reading)))


_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BLANK_RUN = re.compile(r"\s+")


def plain_words(text: str, reading: int = READING) -> tuple[str, ...]:
    """:func:`words` of ``text``, read without :func:`memdir.text.values.normalize_value` when ``text`` (as
    ``reading`` sees it) is ASCII without control characters (but tab and line breaks): lower-cased, blanks
    collapsed, which is all the normalization does to such text (tests/tombstones/test_forgotten_body.py checks it
    on random text); the held-back check reads every file's body (:func:`memdir.tombstones.match.body_digest`), and
    the normalization took 9 in 10 parts of the time of a 1,600-character body's words."""
    if reading >= 2:
        text = seen(text)
    if text.isascii() and not _CONTROLS.search(text):
        return tuple(_word_pattern().findall(_BLANK_RUN.sub(" ", text.lower()).strip()))
    return tuple(_word_pattern().findall(normalize_value(text)))


def readings_for(*texts: str) -> tuple[int, ...]:
    """The readings of :data:`READINGS` that may read ``texts`` apart: all of them when one holds a character markup
    starts with, else today's alone (text without markup reads alike every way: no second pass)."""
    return READINGS if any(c in text for text in texts for c in _MARKS) else (READING,)


# A unit's long word (day, megabyte, megabit): what a unit after a number is read as (:func:`long_forms`), its plural
# too.
_UNIT_WORDS = frozenset(UNITS.values()) | frozenset(SHORT_FORMS[u] for u in ("kb", "mb", "gb", "tb")) \
    | frozenset(BIT_UNITS.values())
# A number and a unit of bits after it, case kept (text.words.BIT_UNITS: "50 Mb", "50Mb"; not "50 MB", "50 mb").
_BITS_WRITTEN = re.compile(r"(?<![\w.,])(?:[0-9]+[.,])?([0-9]+)\s?(" + "|".join(BIT_UNITS) + r")(?![\w])")
# Words written two ways (a short form every engineer writes and its long word: db, database; prod, production; a
# unit after a number: 90d, 90 days): the sieve (memdir.tombstones.match.needed_runs) asks for neither.
TWO_WAYS = frozenset(SHORT_FORMS) | frozenset(SHORT_FORMS.values()) | frozenset(UNITS) | _UNIT_WORDS \
    | frozenset(w + "s" for w in _UNIT_WORDS)
_JOINED_UNIT = re.compile(r"([0-9]+(?:[.,][0-9]+)?)([a-z]+)")


def _unit(word: str, joined: bool) -> str | None:
    """The long word of ``word`` read as a unit right after a number (``d``, ``days``, ``mb``, ``MiB`` →
    ``day``, ``day``, ``megabyte``, ``megabyte``), None when it is none; ``joined`` (``90d``): ``s`` is a plural
    there, no second, and a one-letter unit but ``s`` is one only joined (``7 d`` is no ``7 days``), as search
    reads them (:data:`memdir.text.words.UNITS`)."""
    if (word == "s") == joined and len(word) == 1:
        return None
    unit = UNITS.get(word) or SHORT_FORMS.get(word) or word
    if unit not in _UNIT_WORDS and unit.endswith("s") and unit[:-1] in _UNIT_WORDS:
        unit = unit[:-1]
    return unit if unit in _UNIT_WORDS else None


def _in_bits(text: str) -> frozenset[tuple[str, str]]:
    """The numbers of ``text`` (as written, case kept) with a unit of bits after them, each with that unit in lower
    case as :func:`words` reads them (a decimal's last digits): ``"50 Mb link, 1.5Gb"`` → ``{("50", "mb"), ("5",
    "gb")}``; none written with
    the same number in bytes too ("50 Mb or 50 MB": which is which is no longer known by words)."""
    if not text or "b" not in text:
        return frozenset()
    bits = {(m.group(1), m.group(2).lower()) for m in _BITS_WRITTEN.finditer(text)}
    if not bits:
        return frozenset()
    written = {(m.group(1), m.group(2).lower()) for m in re.finditer(r"([0-9]+)\s?([KkMmGgTt][Bb])(?!\w)", text)
               if m.group(2) not in BIT_UNITS}
    return frozenset(bits - written)


def long_forms(seq: tuple[str, ...], text: str = "") -> tuple[str, ...]:
    """The words ``seq`` (:func:`words`) with each short form of :data:`memdir.text.words.SHORT_FORMS` read as its
    long word (``db`` as ``database``, ``prod`` as ``production``, ``config`` as ``configuration``) and a unit
    after a number as its word in the singular (``90d``, ``90 days`` as ``90 day``; ``50MB``, ``50 megabytes`` as
    ``50 megabyte``), as search reads them: what rules 3 and 4 of :mod:`memdir.tombstones.match` compare, so "Staging
    DB port is 5433" restates a forgotten "The staging database port is 5433" (break46b: it came back through
    consolidation, import and the write tools). Digests (rules 1, 2 and 5) keep their words as written: a stored
    digest is never made again. ``text``: what ``seq`` was read from, as written: a unit of bits after a number there
    (:data:`memdir.text.words.BIT_UNITS`, case-sensitive: ``50 Mb``) is read as its word (``50 megabit``), no
    megabyte (recall47: "… 50 Mb" was refused as a forgotten "… 50 megabytes"); without it ``mb`` is a megabyte."""
    out: list[str] = []
    bits = _in_bits(text)
    for word in seq:
        joined = _JOINED_UNIT.fullmatch(word)
        if joined and (unit := _unit(joined.group(2), True)):
            out += [joined.group(1), _bit_word(joined.group(1), joined.group(2), bits) or unit]
        elif out and out[-1][-1:].isdigit() and (unit := _unit(word, False)):
            out.append(_bit_word(out[-1], word, bits) or unit)
        else:
            out.append(SHORT_FORMS.get(word, word))
    return tuple(out)


def _bit_word(number: str, unit: str, bits: frozenset[tuple[str, str]]) -> str | None:
    """The long word of ``unit`` (lower case) after ``number`` when ``bits`` (:func:`_in_bits`) say it was written
    in bits (``megabit``), else None."""
    return BIT_UNITS[unit[0].upper() + "b"] if (number, unit) in bits else None


__all__ = ["READING", "READINGS", "TWO_WAYS", "hidden_addresses", "hidden_spans", "long_forms", "plain_words", "read",
           "readings_for", "seen", "words"]
