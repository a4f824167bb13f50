"""When a value that reads as a forgotten one is a correction of a link's address (DESIGN §5; tomb41).

A tombstone compares the words a reader sees (:mod:`memdir.tombstones.reading`), and a reader does not see a
link's address: ``[wiki](http://v1)`` and ``[wiki](http://v2)`` both read ``wiki``. Read so alone, a correction that
changes only where a link leads read as "the same words" and was refused, although the same correction in plain text
(``wiki http://v1`` → ``wiki http://v2``) is another fact and accepted. Reading the address as words again is no
answer: a forgotten body with a link *added* then reads as other words and comes back (tomb41's first try). The
rule, all of it here:

    A value that matches a tombstone only through a reading that sees through markup (:func:`corrects`: the
    value read as seen, or a tombstone whose digests were made of the words seen) is a correction, not the forgotten
    value, when **both** hold:

    1. the forgotten part held a hidden address (:func:`memdir.tombstones.reading.hidden_addresses`: a Markdown
       link's or image's destination, a reference definition's, an HTML ``href``/``src``) that the new value does
       not hold **anywhere** — not as a hidden address, not as a shown one (``<http://v1>``, bare ``http://v1``,
       ``&#x68;ttp://v1``), not as any blank-separated token of the text as written or as seen
       (:meth:`Written.held`); and
    2. the new value holds a hidden address of its own that the forgotten part did not hold — the address was
       *replaced*, not merely dropped; and
    3. every clause of the forgotten part that states something holds a hidden address
       (:func:`memdir.tombstones.match.linked`, clauses: :func:`clauses`): a correction changes what the reader
       learns, and a new address changes only what is said of what it links. ``The runbook on the [wiki](http://v1)
       lists every step`` is all said of the linked wiki; in ``Deploy with make ship, see [docs](http://v1)`` the
       clause ``Deploy with make ship`` links nothing, and with the docs moved the forgotten instruction would come
       back word for word (tomb42: it was accepted as a correction). A clause of fewer than
       :data:`memdir.tombstones.match.MIN_FACT_WORDS` content words (``see the docs``) states nothing of its own.
       The description's clauses are read from the description in clear; a body's are known only as
       :attr:`memdir.tombstones.match.Tombstone.body_linked` (kept since tomb42): a tombstone kept before takes its
       body as not linked, so its body's address, and the whole value's, is corrected by no value (it blocks as it
       did before tomb41), its description's still is.

The old address shown beside a new one (``[wiki](http://v2) (was http://v1)``) is held (rule 1 fails): the value is
refused as the forgotten one (tomb42's decision). A reader, and the model reading the prompt, sees the forgotten
words and ``http://v1`` beside them, which is what was forgotten; whether "was" retires the old address or a
"mirror at" keeps it is intent no rule here reads, and a person can lift the tombstone. Its refusal says why after
how the value matched (:data:`SHOWN`: "the forgotten fact restated, with the old link address still shown beside the
new one"), as does one of rule 3 (:data:`UNLINKED`); the correction without the old address is accepted.

So ``[wiki](http://v1)`` → ``[wiki](http://v2)``, ``<a href="http://v2">wiki</a>``, ``![x](b.png)`` for
``![x](a.png)`` are corrections; and each of these is still the forgotten value: a link or markup added to it
(no forgotten address missing), the same address wrapped another way (``[x](<http://v1>)``, ``<a href>``,
``<http://v1>``, bare: the address is held), and the link dropped with nothing in its place (the reader sees the
forgotten words and no other address: rule 2 — a decision; plain text that drops a shown address drops words and is
accepted by the word rules themselves). A match under the text as written on both sides (a tombstone's digest of
reading 1 and the value read as written) is never a correction here: the addresses were words of both.

The address *shown* (``wiki <http://v1>``, ``wiki http://v1`` for a forgotten ``wiki [link](http://v1)``) reads as
other words than the forgotten value seen, so a tombstone also keeps its digests of the words as written when they
differ (:attr:`memdir.tombstones.match.Tombstone.written_words_digest`, ``written_body_digest``): the value read as
written is the forgotten one read so, the address among the words of both.

"The forgotten part" is the rule's: the whole value for "the same words", the body for "the forgotten body", the
description for the description's rules (restated, reworded). A tombstone keeps the digests of the hidden addresses
of its description and of its body (:func:`digests`: 16 hex of SHA-256 of the address normalized, never in clear, as
its body is not), stored only when there are some (``description_addresses``, ``body_addresses``: absent, none). A
tombstone stored before they were kept has neither: its description's are read from the description it keeps in
clear, its body's are not known and taken as none (rule 1 never holds for its body: it blocks as it did). Its digests
of reading 1 kept its addresses as words, so it rarely matches a changed address through them anyway.

An address is compared normalized (:func:`normal`): character references read, the text normalized as a value is
(:func:`memdir.text.values.normalize_value`: case-folded, …), punctuation and brackets around it and one trailing
``/`` dropped — ``HTTP://V1/`` is ``http://v1``; ``http://v10`` is another address.

Pure, standard library only (``html`` is loaded when an address is read).
"""

from __future__ import annotations

import re

from ..paths import sha256
from ..text.values import normalize_value
from .reading import hidden_addresses, hidden_spans, seen

_AROUND = "<>()[]{}\"'`*_~.,;:!?"  # what wraps or ends a token around an address
_SCHEME = re.compile(r"[a-z][a-z0-9+.\-]*://")
_TOKEN_GAP = re.compile(r"[\s\"'<>]+")


def normal(address: str) -> str:
    """``address`` as addresses are compared, one spelling for one place: character references read
    (:func:`html.unescape`) and percent-escapes decoded (:func:`urllib.parse.unquote`: ``%76%31`` is ``v1``),
    normalized as a value (:func:`memdir.text.values.normalize_value`), the characters of :data:`_AROUND` at
    either end dropped, then the parts that name no other place: a ``scheme://`` or a leading ``//`` (``http``,
    ``https`` and none alike), a fragment (``#top``; an address of a fragment alone keeps it), a default port
    (``:80``, ``:443``), an empty query and one trailing ``/``. ``""`` for an address of nothing else (break41:
    each of these spellings read as another address, so a forgotten link came back as a "correction")."""
    if "&" in address:
        import html

        address = html.unescape(address)
    if "%" in address:
        from urllib.parse import unquote

        address = unquote(address)
    address = normalize_value(address).strip(_AROUND)
    scheme = _SCHEME.match(address)
    if scheme or address.startswith("//"):
        address = address[scheme.end() if scheme else 2:]
        host, slash, rest = address.partition("/")
        host = host.removesuffix(":80").removesuffix(":443")
        address = f"{host}{slash}{rest}"
    if "#" in address[1:]:
        address = address[:address.index("#", 1)]
    address = address.removesuffix("?").strip(_AROUND)
    return address[:-1] if address.endswith("/") and not address.endswith("//") else address


def _key(address: str) -> str:
    return sha256(address.encode("utf-8")).hexdigest()[:16]


def digests(text: str) -> tuple[str, ...]:
    """The digests a tombstone keeps of ``text``'s hidden addresses (:func:`memdir.tombstones.reading.hidden_addresses`,
    :func:`normal`): 16 hex characters of SHA-256 each, sorted, each once; ``()`` when it holds none."""
    return tuple(sorted({_key(a) for a in map(normal, hidden_addresses(text)) if a}))


def forgotten(stone, part: str) -> frozenset[str]:
    """The address digests of ``stone``'s forgotten ``part`` (``"value"``, ``"description"`` or ``"body"``):
    those it keeps (:attr:`memdir.tombstones.match.Tombstone.description_addresses`, ``.body_addresses``); for a
    tombstone kept before them, its description's read from the description in clear and its body's none."""
    own = stone.description_addresses
    description = frozenset(own if own is not None else digests(stone.description))
    body = frozenset(stone.body_addresses or ())
    return {"value": description | body, "description": description, "body": body}[part]


class Written:
    """The addresses of a value being written (``description`` and ``body``), read when first asked: most values
    match no tombstone and are never read here."""

    def __init__(self, description: str, body: str):
        self.text = f"{description}\n{body}"
        self._own: frozenset[str] | None = None
        self._held: frozenset[str] | None = None

    def own(self) -> frozenset[str]:
        """The digests of the value's hidden addresses (:func:`digests`)."""
        if self._own is None:
            self._own = frozenset(digests(self.text))
        return self._own

    def held(self) -> frozenset[str]:
        """The digests of every address the value holds anywhere: its hidden ones, and each token (apart by blanks,
        quotes and angle brackets: ``src="http://v1">`` of a tag read as words holds ``http://v1``) of the text as
        written and as seen (:func:`memdir.tombstones.reading.seen`: ``&#x68;ttp://v1``, markup
        around it), normalized (:func:`normal`), and of such a token's tail from a scheme on (``wiki:http://v1``)."""
        if self._held is None:
            tokens = set(_TOKEN_GAP.split(self.text)) | set(_TOKEN_GAP.split(seen(self.text)))
            tails = {token[m.start():] for token in tokens for m in _SCHEME.finditer(token.lower())}
            self._held = self.own() | {_key(a) for a in map(normal, tokens | tails) if a}
        return self._held

    def corrects(self, forgotten_addresses: frozenset[str], linked: bool = True) -> bool:
        """True when this value, read as seen and found the same as a forgotten part holding
        ``forgotten_addresses`` (:func:`forgotten`), is a correction of an address (the module docstring's rule):
        one of them is held nowhere in the value, the value holds a hidden address they do not, and ``linked``
        (:func:`linked` of that part: every clause of it that states something holds a hidden address)."""
        return self.not_corrected(forgotten_addresses, linked) is None

    def not_corrected(self, forgotten_addresses: frozenset[str], linked: bool = True) -> str | None:
        """Why this value, read as seen and found the same as a forgotten part holding ``forgotten_addresses``,
        is no correction of an address though it holds a new hidden address, as a refusal adds it to how the value
        matched (:data:`SHOWN`: an old address is held only shown, as text; :data:`UNLINKED`: rule 3); ``""`` when it
        holds no hidden address the part did not, the part held none, or it still links every old one (no address
        was changed, a link was added: the match says all); None when it is a correction
        (:meth:`corrects`)."""
        if not forgotten_addresses or not self.own() - forgotten_addresses:
            return ""
        if forgotten_addresses <= self.held():  # kept as a link: a link added, which the match says
            return "" if forgotten_addresses <= self.own() else SHOWN
        return None if linked else UNLINKED


# Why a value with a new hidden address is still the forgotten one (Written.not_corrected), as a refusal says it
# after how the value matched: "the forgotten fact restated, with the old link address still shown beside the new one".
SHOWN = "with the old link address still shown beside the new one"
UNLINKED = "only a link's address changed and the words outside links are the forgotten ones"

# Where a clause ends: a mark of punctuation before a blank or the end, a line break, or a dash: an em dash or a
# horizontal bar however written (``ship—see``), an en dash, a hyphen or two hyphens with blanks on both sides
# (``ship – see``, ``ship - see``, ``ship -- see``; not ``3–5``, ``make-ship``).
# (A run of blanks is tried from its first blank only: from each one of a long run, quadratic.)
_CLAUSE_END = re.compile(r"[.,;:!?\u2026]+(?=\s|$)|\n|(?<![ \t])[ \t]*[\u2014\u2015]+[ \t]*"
                         r"|(?<![ \t])[ \t]+(?:\u2013|--?)[ \t]+")
_ASIDE = re.compile(r"\([^()\n]*\)")  # a remark in parentheses on its line (a link's markup masked first)


def _masked(text: str) -> str:
    """``text`` with the markup of each hidden address (:func:`hidden_spans`) as NULs, its length kept."""
    for start, end, _ in hidden_spans(text):
        text = text[:start] + "\x00" * (end - start) + text[end:]
    return text


def _clause_spans(masked: str) -> list[tuple[int, int, int]]:
    """``(start, end, end of its mark)`` of each clause of a :func:`_masked` text (:func:`clauses`), blank ones too."""
    out, at = [], 0
    for mark in [*_CLAUSE_END.finditer(masked), None]:
        end = mark.start() if mark is not None else len(masked)
        out.append((at, end, mark.end() if mark is not None else end))
        at = out[-1][2]
    return out


def clauses(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into clauses, each with whether it holds a hidden address (:func:`hidden_spans`): a clause ends at
    a mark of punctuation followed by a blank or the end (``.``, ``,``, ``;``, ``:``, ``!``, ``?``, ``…``; not the
    dots of ``v1.example`` or ``3.5``), at a line break or at a dash (an em dash, U+2015, and an en dash or one or
    two hyphens between blanks: ``Deploy with make ship — see [docs](http://x)`` is two clauses; not ``3–5``), never
    inside the markup of a hidden address (a link's text ``[Deploy, then test](http://x)`` is one piece with it).
    ``(clause text as written, holds an address)``, in order, blank ones left out. Pure; never raises."""
    masked = _masked(text)
    return [(text[start:end], "\x00" in masked[start:end]) for start, end, _ in _clause_spans(masked)
            if text[start:end].strip()]


def without_shown(text: str, forgotten_addresses: frozenset[str]) -> str:
    """``text`` without each remark that shows one of ``forgotten_addresses`` (digests, :func:`forgotten`) as text
    and holds no hidden address: a remark in parentheses (``[wiki](http://v2) (was http://v1)``), else the clause
    holding it with its mark (``[wiki](http://v2), formerly <http://v1>``, ``— was http://v1``; :func:`clauses`). An
    address is shown when a token of the remark (apart by blanks, quotes and angle brackets, as :meth:`Written.held`
    reads) is it, :func:`normal`. What a tombstone compares again (:func:`memdir.tombstones.match.match`): the
    value but for the old address shown beside the new one is the forgotten value, however short (tomb42 refused
    it only where the forgotten fact restated could be told, three words or more). ``text`` itself when it shows
    none. Pure; never raises."""
    def shows(piece: str) -> bool:
        tokens = set(_TOKEN_GAP.split(piece))
        tokens |= {token[m.start():] for token in tokens for m in _SCHEME.finditer(token.lower())}
        return any(_key(a) in forgotten_addresses for a in map(normal, tokens) if a)

    masked = _masked(text)
    cut = [(m.start(), m.end()) for m in _ASIDE.finditer(masked) if "\x00" not in m.group() and shows(m.group())]
    for start, end, mark_end in _clause_spans(masked):
        piece = masked[start:end]
        if "\x00" not in piece and not any(a < end and start < b for a, b in cut) and shows(piece):
            cut.append((start, mark_end))
    if not cut:
        return text
    out, at = [], 0
    for start, end in sorted(cut):
        out.append(text[at:max(start, at)])
        at = max(at, end)
    return "".join(out) + text[at:]


def shorn(stones, description: str, body: str) -> tuple[str, str] | None:
    """``(description, body)`` of a value without the remarks showing an address one of ``stones`` forgot
    (:func:`without_shown`, :func:`forgotten` of each stone's value), or None when it shows none: what
    :func:`memdir.tombstones.match.match` compares again, the refusal saying :data:`SHOWN` when the value replaced the
    link's address (``[wiki](http://v2) (was http://v1)`` for a forgotten ``[wiki](http://v1)``)."""
    gone = frozenset().union(*(forgotten(stone, "value") for stone in stones))
    value = without_shown(description, gone), without_shown(body, gone)
    return value if gone and value != (description, body) else None


__all__ = ["SHOWN", "UNLINKED", "Written", "clauses", "digests", "forgotten", "normal", "shorn", "without_shown"]
