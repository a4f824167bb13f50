"""Tombstones: forgotten values that may not come back (DESIGN §5).

Deleting or forgetting a memory leaves a tombstone of its *value* — the
description and body — and its name. Every write path (agent tools, CLI,
consolidation, restore, approve) asks :func:`check` before it writes, and a
value that matches is refused until a person lifts the tombstone.

What matches a tombstone (:func:`match`), from strictest to loosest:

1. **the same value**: the SHA-256 of the normalized value (NFKC,
   case-folded, invisible characters removed, blank-like characters read as a
   space, accents and other combining marks on Latin and Greek letters dropped
   (``Deplöy``, ``De\u0301ploy``), digits of any script read as ASCII digits
   (``١٤:٠٠``, ``१४:००``), whitespace collapsed, and a word made with letters
   drawn like those of another script read in one script: :func:`normalize_value`,
   :mod:`memdir.text.lookalike`) — so case, spacing, accents, full-width,
   zero-width, other digits and look-alike variants are the same value
   (``14h00`` for ``14:00`` is another spelling, not folded);
2. **the same words**: the value's word sequence (punctuation and markup
   dropped) — a trailing period, ``**bold**``, ``<b>pass</b>word`` or a link
   added does not make a new fact (the words a reader sees: :mod:`.reading`), but
   a link's address *replaced* does (``[wiki](http://v1)`` → ``[wiki](http://v2)``:
   a correction by :mod:`.addresses`, which rules 2 to 5 all ask), and the address
   shown (``wiki <http://v1>``) matches the forgotten words as written;
3. **the forgotten fact restated**: the new description's words are the
   forgotten description's (its body dropped or replaced), or the forgotten
   description's words (at least :data:`MIN_FACT_WORDS`) appear, in order and
   together, anywhere in the new value — with words around it;
4. **the forgotten fact reworded**: the new description's content words
   (fillers like *the*, *is*, *of* aside; at least :data:`MIN_FACT_WORDS`)
   are the forgotten description's, turned around one point
   (``pg-main-01 is the production database`` for ``The production database
   is pg-main-01``) — a rotation, not any order, so ``Build runs before
   lint`` is not ``Lint runs before build``; and, when the forgotten description holds no word of
   order or direction (:data:`_ORDER_WORDS`: *before*, *after*, *over*, *than*, *to* …) and no
   negation, the same content words with one block of them moved (``Deploy window is Tuesday 14:00
   UTC`` for ``The deploy window is 14:00 UTC Tuesday``) — one move, so a subject and an object
   trading places (``Frontend depends on backend API`` → ``Backend API depends on frontend``) is
   still another fact. Rules 3 and 4 read a short form as its long word (``DB`` as ``database``, ``prod`` as
   ``production``) and a unit after a number as its word (``90d`` as ``90 day``: :func:`.reading.long_forms`).

5. **the forgotten body**: the new body's word sequence is the forgotten body's, under any description
   (a forgotten fact's text brought back under a new one-line summary, its own first line included, or split
   into a summary and the rest: :func:`body_keys`) — kept only for a body of at
   least :data:`MIN_BODY_WORDS` different content words (:func:`body_digest`), so a short generic body (``yes``,
   ``See the runbook.``) forgets nothing on its own and the next memory may say it again.

A **qualified** fact is not the forgotten one either: the forgotten
description with one or two words put right before it, nothing between them
(``Test database port is 5433`` after forgetting ``Database port is 5433``),
says something of another subject, so :func:`match` lets it through and
:func:`qualified` names the tombstone it is close to, for a warning. Words
that only frame a fact (``Note:``, ``Remember``, ``Always``, ``Please``:
:data:`_FRAMING`) or a punctuation mark between them keep it a restatement.

A correction is not a near-duplicate: changing a number, a name or a word
(``5433`` → ``5434``, Jest → Vitest, a link's address: :mod:`.addresses`), saying the opposite (``not``,
``never``, ``no longer``: negations are content words) or reversing a
relation gives a different fact, which is accepted — also when it quotes the
old words after a negation ("Do not use pnpm …", "It is wrong that …") or
before one ("… 5433 no longer"). Consolidation also refuses a forgotten *name*.

Words (:func:`memdir.tombstones.reading.words`): of the text a reader sees, its markup seen through (HTML tags and
comments, Markdown emphasis, links and code marks, character references: :func:`memdir.tombstones.reading.seen`),
NFKC, case-folded runs of letters and digits; each CJK character is a
word of its own; and the signs that change a fact (``>=``, ``C++``, ``C#``,
``UTC+3``, ``-1``) — so a correction that changes only a sign is accepted,
while list, heading and quote markup still add no word. The tombstone keeps the forgotten description in clear (to
show a person what was forgotten) and only digests of the full value and of the body's words (rule 5): a body's
words are never kept in clear, so the held-back sieve (:func:`needed_runs`) reads the description's words alone and
the body's rule is a digest looked up (:func:`body_digest`, :func:`by_body`). A tombstone keeps the reading its
digests were made with (:attr:`Tombstone.reading`), and those of the words as written when they differ; a value
is compared under every reading, as written and as seen (:data:`memdir.tombstones.reading.READINGS`), so markup
hides no forgotten fact (a comment, an attribute) and a tombstone of an earlier reading still blocks: a stored
digest is never made again.

What a refusal says is :mod:`memdir.tombstones.refusals` (:func:`~.refusals.refusal`, :func:`~.refusals.caution`,
:func:`~.refusals.outcome`); a refused write raises :class:`TombstoneRefused` carrying the tombstone and how it
matched, so no caller composes or parses that text again. That module and :mod:`memdir.tombstones.addresses` load only when a
value is refused or found the same as a forgotten one: the hooks and every write read tombstones, most values match none.

Where tombstones are kept (a layer's ``.memdir/tombstones.json``, the team
layer's one file each) is :mod:`memdir.tombstones.stones`.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from functools import lru_cache

from ..errors import TombstoneRefused
from ..paths import sha256
from ..text.values import normalize_value, value_of
from ..text.words import CHAT_WORDS, FUNCTION_WORDS, NEGATIONS
from .reading import (
    READING,
    TWO_WAYS,
    long_forms,
    plain_words,
    read,
    readings_for,
    seen,
    words,
)
from .sieving import holds_runs, sieve

MIN_FACT_WORDS = 3  # a shorter description ("Use pnpm") is only matched by rules 1 and 2
# Content words (fillers aside) a body needs for its own digest (rule 5): "yes", "See the runbook." or "Use pnpm,
# not npm." say too little to forget on their own; a body that states a fact in a sentence or more is specific.
MIN_BODY_WORDS = 6
NEGATION_REACH = 3  # words before a restated fact in which a negation makes it a correction
# Words right after a quoted fact that retract it ("… listens on 5433 no longer").
_RETRACTIONS = frozenset("longer anymore wrong false incorrect untrue outdated obsolete".split())
# Words whose place in a fact says which way it goes (rule 4 moves no block across them).
_ORDER_WORDS = frozenset("""before after over under above below than to from into onto until since then first
last prefer preferred instead rather versus vs precedes follows replaces replaced more less greater fewer
先 后 後 前 再""".split()) | frozenset(("<", ">", "<=", ">=", "!=", "=="))
# Words that carry no fact of their own (rule 4): the function words (memdir.text.words) but the
# negations — "not" and "never" make a correction — and _FACT_WORDS, function words that still carry part
# of a fact here (a question, a quantity, a contrast, a direction; "shall" never was filler), plus "such".
_FACT_WORDS = frozenset("what when where which who why how all any but into about shall".split())
_FILLER = FUNCTION_WORDS - NEGATIONS - _FACT_WORDS | {"such"}
QUALIFIER_WORDS = 2  # words right before a forgotten fact that make it another fact's ("Test database …")
# Words before a fact that frame it rather than qualify its subject: a restatement still.
_FRAMING = frozenset("""note notes nb ps fyi tip remember reminder recall important again always still really
actually confirmed update updated correction fact info todo warning caution""".split()) | CHAT_WORDS


def _digest(text: str) -> str:
    return sha256(text.encode("utf-8")).hexdigest()


def _words_digest(description: str, body: str, reading: int = READING) -> str:
    return _digest(" ".join(words(f"{description}\n{body}", reading)))


def body_digest(description: str, body: str, reading: int = READING) -> str | None:
    """The digest of ``body``'s word sequence alone (rule 5 of the module docstring), a first line restating
    ``description`` (the memory's own) left out — a file written whole (the memory tool's ``create``, a file
    without frontmatter) starts its body with the description line, and the forgotten text under a new first line
    is the same body —, or None when it holds fewer than :data:`MIN_BODY_WORDS` different content words (fillers aside;
    ``body body body …`` holds one): such a body is not specific enough to forget on its own. A body is never kept in clear by a tombstone, only this
    digest. ``reading``: of the words (:mod:`.reading`; today's by default)."""
    seq, own = plain_words(body, reading), plain_words(description, reading)
    if own and plain_words(body.split("\n", 1)[0], reading) == own:
        seq = seq[len(own):]
    if len({w for w in seq if w not in _FILLER}) < MIN_BODY_WORDS:
        return None
    return _digest(" ".join(seq))


def body_keys(description: str, body: str, reading: int = READING) -> dict[str, tuple[str, ...] | None]:
    """The body digests (:func:`body_digest`'s) a value may hold a forgotten body under (rule 5), each with the words a
    tombstone's forgotten description must be for it to count (None: any): the body read as :func:`body_digest`
    reads it; the body whole, a first line restating its own description kept (the forgotten body word for word
    under its own first line as description); the description and body together (the forgotten text split into
    a one-line summary, its first line, and the rest); and the body after its first line, for a tombstone whose
    forgotten description is that line (the body of a file written whole, its first line its description,
    brought back under another) — each of these came back before (break38). A digest is of a word sequence: only
    a value holding the forgotten body's words, in order and nothing else, has one equal to a tombstone's.
    ``reading``: of the words (:mod:`.reading`; today's by default)."""
    seq, own = plain_words(body, reading), plain_words(description, reading)
    keys: dict[str, tuple[str, ...] | None] = {}
    if "\n" in body and (first := plain_words(body.split("\n", 1)[0], reading)):
        if first == own:  # body_digest's reading
            keys[_digest(" ".join(seq[len(own):]))] = None
        elif seq[:len(first)] == first:  # the line a tombstone's description may be
            keys[_digest(" ".join(seq[len(first):]))] = first
    keys[_digest(" ".join(seq))] = None
    keys[_digest(" ".join(own + seq))] = None
    return keys


class _Corrections:
    """Whether the value ``description`` + ``body`` corrects a forgotten part's address (:mod:`.addresses`, loaded and
    the value read when first asked: only a value found the same as a forgotten one is)."""

    __slots__ = ("_value", "_written")

    def __init__(self, description: str, body: str):
        self._value = (description, body)
        self._written = None

    def not_corrected(self, stone: Tombstone, part: str) -> str | None:
        """:meth:`memdir.tombstones.addresses.Written.not_corrected` of ``stone``'s forgotten ``part`` (``"value"``,
        ``"description"`` or ``"body"``: :func:`memdir.tombstones.addresses.forgotten`): None when the value
        corrects its address, else what a refusal adds to how it matched (``""``: nothing)."""
        from . import addresses

        if self._written is None:
            self._written = addresses.Written(*self._value)
        return self._written.not_corrected(addresses.forgotten(stone, part), _part_linked(stone, part))


def forgotten_body(stones, description: str, body: str, written: _Corrections | None = None):
    """The first of ``stones`` whose forgotten body ``description`` + ``body`` holds (rule 5, :func:`body_keys`,
    under every reading: :data:`memdir.tombstones.reading.READINGS`), or None, but for a correction of an address
    of that body (:mod:`memdir.tombstones.addresses`; ``written``: the value's :class:`_Corrections`). A stone
    found comes with why (``the forgotten body``, and why a new address in it is no correction when it holds one:
    :meth:`~.addresses.Written.not_corrected`): ``(stone, why)``."""
    keys: dict[int, dict] = {}
    written = written or _Corrections(description, body)
    for stone in stones:
        for digest, made in _body_digests(stone):
            for reading in readings_for(description, body):
                if reading not in keys:
                    keys[reading] = body_keys(description, body, reading)
                if digest in keys[reading]:
                    need = keys[reading][digest]
                    if need is not None and plain_words(stone.description, reading) != need:
                        continue
                    note = written.not_corrected(stone, "body") if max(reading, made) >= 2 else ""
                    if note is not None:
                        return stone, _told("the forgotten body", note)
    return None


def bodies_held(bodies: dict[str, list], description: str, body: str) -> list:
    """The tombstones of ``bodies`` (:func:`by_body`) whose body digest ``description`` + ``body`` may hold
    (:func:`body_keys`, under every reading: :data:`memdir.tombstones.reading.READINGS`): the ones :func:`match`
    is to ask of a file's value, in the order found. A dict lookup per key."""
    out: list = []
    for reading in readings_for(description, body):
        for key in body_keys(description, body, reading):
            out += [stone for stone in bodies.get(key, ()) if stone not in out]
    return out


def by_body(stones) -> dict[str, list]:
    """``stones`` that keep a body digest, by it (rule 5): what a file's body is looked up in, a dict lookup where
    the description's rules need a sieve (:func:`needed_runs`)."""
    out: dict[str, list] = {}
    for stone in stones:
        for digest, _ in _body_digests(stone):
            out.setdefault(digest, []).append(stone)
    return out


def _words_digests(stone) -> list[tuple[str, int]]:
    """``stone``'s digests of the value's words, each with the reading it was made with."""
    return [(d, r) for d, r in ((stone.words_digest, stone.reading or 1), (stone.written_words_digest, 1)) if d]


def _body_digests(stone) -> list[tuple[str, int]]:
    """``stone``'s digests of the body's words (rule 5), each with the reading it was made with."""
    return [(d, r) for d, r in ((stone.body_digest, stone.reading or 1), (stone.written_body_digest, 1)) if d]


def _joined(seq) -> str:
    return "\x1f" + "\x1f".join(seq) + "\x1f"


@lru_cache(maxsize=4096)
def _fact(description: str) -> tuple[str, str, int, str]:
    """Of a forgotten description: its ``\\x1f``-joined words, its content
    words doubled (so a rotation of them is a substring), how many
    content words it has, and its words run together (a blank dropped between two of them —
    a one-line field drops a Hangul filler — makes no new fact)."""
    seq = long_forms(words(description), description)
    content = tuple(w for w in seq if w not in _FILLER)
    return _joined(seq), _joined(content + content), len(content), "".join(seq)


def needed_runs(description: str) -> frozenset[str] | None:
    """The runs of ASCII letters and digits that every value :func:`match` finds the same as a tombstone of
    ``description`` holds, its blanks and punctuation aside: those of its content words (its words when all
    are fillers) — each rule asks for them, in the value's words, as words or run together (``data base`` for
    ``database``). A cheap sieve before a file is parsed (:func:`memdir.gateway.deletion.holders_of`); None when
    it cannot say (no word, a word not ASCII once normalized). A word written two ways (``db``, ``database``; a unit:
    :data:`~.reading.TWO_WAYS`) is asked for in neither form: a matching value may hold the other."""
    seq = long_forms(words(description), description)
    chosen = [w for w in seq if w not in _FILLER] or list(seq)
    if not chosen or not all(w.isascii() for w in chosen):
        return None
    return frozenset(run for w in chosen if w not in TWO_WAYS for run in re.findall(r"[a-z0-9]+", w)) or None


def value_runs(description: str, body: str) -> tuple[frozenset[str], ...] | None:
    """The runs of ASCII letters and digits a value matching the tombstone of ``description`` + ``body`` holds, as
    alternatives: :func:`needed_runs` of the description, and, when the body is specific enough to be forgotten on
    its own (:func:`body_digest`, rule 5), those of the body read as a description, a first line restating
    ``description`` left out as :func:`body_digest` leaves it (a value holding the forgotten body holds all its
    words). A text holding none of the alternatives holds no such value (:func:`holds_any`). For
    a value in hand (a delete looking for another memory that holds it): a tombstone keeps no body in clear, so a
    tombstone's sieve is :func:`needed_runs` and its body a digest looked up (:func:`by_body`). None when it cannot
    say."""
    runs = needed_runs(description)
    if runs is None:
        return None
    if body_digest(description, body) is None:
        return (runs,)
    first, _, rest = body.partition("\n")
    if rest and plain_words(first) == plain_words(description):  # the body as body_digest reads it (break38)
        body = rest
    in_body = needed_runs(body)
    return None if in_body is None else (runs, in_body)


def holds_any(text: str, alternatives: tuple[frozenset[str], ...] | None) -> bool:
    """Whether ``text`` holds every run of one of ``alternatives`` (:func:`value_runs`; None: it may)."""
    if alternatives is None:
        return True
    passes = sieve(text)
    return any(passes(runs) for runs in alternatives)


@dataclass(frozen=True)
class Tombstone:
    """A forgotten value: ``digest`` of the normalized value, ``words_digest``
    of its word sequence (None for tombstones written before it existed), the
    forgotten ``description`` in clear, the memory's ``name``, who forgot it
    (``actor``), why and when (``ts``, ISO-8601 UTC). ``team`` is True for a
    tombstone read from the team layer, whose files keep no actor, reason or
    time (:class:`memdir.tombstones.stones.TombstoneDir`); it is where the
    tombstone was read, never stored, and ``file`` the path of its file. ``scope`` is the scope of the layer
    it was read from (``user``, ``project``, ``team``; None for one not read from a layer), never stored: the
    ``--scope`` of the command that lifts it (:func:`~.refusals.lift_command`), since one value forgotten in two layers
    is one id in each. ``action``: the journal's action of the change that made it (``delete``, ``forget``,
    ``prune``, ``clear``), so a listing says the act as the journal does; None when not known. ``body_digest``:
    of the body's words alone (:func:`body_digest`; rule 5), None for a body too short to be specific and for
    tombstones written before it existed (those match by the rules 1 to 4 as they always did). ``reading``: the
    reading of words (:mod:`memdir.tombstones.reading`) ``words_digest`` and ``body_digest`` were made with, None
    for a tombstone stored before readings were kept (reading 1); a value is compared under every reading
    (:data:`memdir.tombstones.reading.READINGS`), whichever it was. ``description_addresses``, ``body_addresses``:
    digests of the hidden link addresses of each (:mod:`memdir.tombstones.addresses`); None: none, or kept before.
    ``written_words_digest``, ``written_body_digest``: the digests of reading 1 (the words as written, a link's address
    among them), kept beside those of :attr:`reading` when they differ; None: alike, or kept before them.
    ``body_linked``: True when every clause of the body that states something holds a hidden address (:func:`linked`;
    an empty body too), kept only then and only for a value holding a hidden address; None: a clause of the body
    states something without one, the value holds no hidden address, or kept before it (tomb42) — its body's address
    is then corrected by no value (:mod:`memdir.tombstones.addresses`, rule 3)."""

    id: str
    name: str
    digest: str
    description: str
    actor: str
    reason: str | None
    ts: str
    words_digest: str | None = None
    team: bool = field(default=False, compare=False)
    file: str | None = field(default=None, compare=False)  # a team tombstone's file (git knows who and when)
    scope: str | None = field(default=None, compare=False)
    action: str | None = field(default=None, compare=False)  # the journal's word for the act: delete, forget, …
    body_digest: str | None = None
    # A team tombstone this machine read whose file has left the repository with no lift here (a `git revert` of
    # the forget, a teammate's lift, a branch without it): still in force here (TombstoneDir.all), never stored.
    vanished: bool = field(default=False, compare=False)
    reading: int | None = None
    description_addresses: tuple[str, ...] | None = None
    body_addresses: tuple[str, ...] | None = None
    written_words_digest: str | None = None
    written_body_digest: str | None = None
    body_linked: bool | None = None

    def stored(self) -> dict:
        """The fields a tombstone file keeps: all but :attr:`team`, :attr:`file`, :attr:`scope` and
        :attr:`vanished`; :attr:`action`, :attr:`body_digest`, :attr:`reading`, :attr:`body_linked` and the written digests only when
        known (a tombstone made before they were kept has none; a short body has no digest of its own; a value read
        alike as written has no written digests), the address digests only when there are some (as a list)."""
        known = ("action", "body_digest", "reading", "written_words_digest", "written_body_digest", "body_linked")
        out = {k: v for k, v in asdict(self).items() if k not in ("team", "file", "scope", "vanished")
               and (k not in known or v is not None)}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items() if v or not k.endswith("_addresses")}


ID_FORM = re.compile(r"^t-[0-9a-f]{12}\Z")  # a tombstone's id, as make() gives it (also a file name where they travel)


def make(name: str, description: str, body: str, actor: str, reason: str | None,
         ts: datetime | None = None, action: str | None = None) -> Tombstone:
    """The tombstone of a value (not yet stored), dated ``ts`` (default now; a delete gives its journal's
    clock, :meth:`memdir.layer.journal.Journal.clock`, never before the layer's last event), made by the journal
    action ``action`` (``delete``, ``forget``, …; None: not known). Its id is
    ``t-`` + 12 hex of the value digest, so the same value always gets the same id."""
    from . import addresses

    key = _digest(value_of(description, body))
    now = (ts or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    words_seen, body_seen = _words_digest(description, body), body_digest(description, body)
    # As written too, when that reads otherwise (a link's address is words there): `wiki <http://v1>` for a
    # forgotten `[wiki](http://v1)` shows the address the tombstone forgot.
    written = (_words_digest(description, body, 1), body_digest(description, body, 1)) \
        if len(readings_for(description, body)) > 1 else (None, None)
    held = addresses.digests(description), addresses.digests(body)
    return Tombstone(id="t-" + key[:12], name=name, digest=key, description=description, actor=actor,
                     reason=reason, ts=now, words_digest=words_seen, action=action, body_digest=body_seen,
                     reading=READING, description_addresses=held[0] or None, body_addresses=held[1] or None,
                     written_words_digest=written[0] if written[0] != words_seen else None,
                     written_body_digest=written[1] if written[1] != body_seen else None,
                     body_linked=True if any(held) and linked(body) else None)


@lru_cache(maxsize=4096)
def linked(text: str) -> bool:
    """True when every clause of ``text`` (:func:`memdir.tombstones.addresses.clauses`) that states something holds
    a hidden address: a clause without one of fewer than :data:`MIN_FACT_WORDS` content words (fillers aside,
    read as seen: ``see the docs``, ``Runbook``) states nothing of its own. ``Deploy with make ship, see
    [docs](http://x)`` is not linked (``Deploy with make ship``); ``The runbook on the [wiki](http://x) lists every
    step.`` is, and so is a text of no clause. Rule 3 of :mod:`memdir.tombstones.addresses`."""
    from . import addresses

    return all(held or len({w for w in words(clause) if w not in _FILLER}) < MIN_FACT_WORDS
               for clause, held in addresses.clauses(text))


def _part_linked(stone, part: str) -> bool:
    """:func:`linked` of ``stone``'s forgotten ``part`` (``"value"``, ``"description"``, ``"body"``): its description's
    read from the description in clear, its body's what it keeps (:attr:`Tombstone.body_linked`; not kept: not)."""
    if part == "body":
        return stone.body_linked is True
    return linked(stone.description) and (part == "description" or stone.body_linked is True)


def _told(why: str, note: str) -> str:
    return f"{why}, {note}" if note else why


def _restated(fact: str, seq: tuple[str, ...], joined: str, description: str = "") -> bool:
    """True when the forgotten ``fact`` (``\x1f``-joined words) occurs in the
    value (``joined``) not right after a negation: "Do not use pnpm …" or
    "We no longer use pnpm …" corrects a forgotten "Use pnpm …", it does not
    restate it. An occurrence that qualifies the fact (:func:`_qualifies`, ``description``
    being the new one) is not a restatement either."""
    size = fact.count("\x1f") - 1
    start = joined.find(fact)
    while start >= 0:
        before = joined.count("\x1f", 0, start)  # words before the match
        after = seq[before + size: before + size + NEGATION_REACH]
        if not (NEGATIONS.intersection(seq[max(0, before - NEGATION_REACH): before])
                or _RETRACTIONS.intersection(after) or _qualifies(seq, before, size, description)):
            return True
        start = joined.find(fact, start + 1)
    return False


def _qualifies(seq: tuple[str, ...], before: int, size: int, description: str) -> bool:
    """True when the fact found at word ``before`` (``size`` words) of the value ``seq`` is the whole new
    ``description`` after one or two qualifying words (not :data:`_FRAMING`, not function words) with
    only spaces between them and the fact: "Test database port is 5433", not "Note: database port is 5433"."""
    written = words(description)
    own = long_forms(written, description)  # as seq reads it (_fact_found)
    if not 1 <= before <= QUALIFIER_WORDS or before + size != len(own) or own != seq[:len(own)]:
        return False
    qualifier = own[:before]
    if any(w in _FRAMING or w in FUNCTION_WORDS or not w.isalnum() for w in qualifier):
        return False
    text = read(description)
    found = re.search(r"\W+".join(re.escape(w) for w in written[:before + 1]), text)
    return found is not None and not re.search(r"[^\w\s]", found.group())


def _moved(forgotten: str, own: tuple[str, ...]) -> bool:
    """True when the content words ``own`` are the ``forgotten`` description's with one block of them
    moved (two neighbouring blocks traded places), and that description holds no word of order or
    direction (:data:`_ORDER_WORDS`) nor a negation, whose place says what the fact is."""
    seq = long_forms(words(forgotten), forgotten)
    if _ORDER_WORDS.intersection(seq) or NEGATIONS.intersection(seq):
        return False
    content = [w for w in seq if w not in _FILLER]
    if len(content) != len(own):
        return False
    start, end = 0, len(own)
    while start < end and content[start] == own[start]:
        start += 1
    while end > start and content[end - 1] == own[end - 1]:
        end -= 1
    rest, mine = content[start:end], list(own[start:end])
    if not rest:
        return True
    return any(mine == rest[cut:] + rest[:cut] for cut in range(1, len(rest)))


def match(stones, description: str, body: str, *, name: str | None = None,
          actor: str | None = None, title: str | None = None) -> tuple[Tombstone, str] | None:
    """The first tombstone in ``stones`` that ``description`` + ``body``
    matches, with why (see the module docstring), or None. For ``actor``
    ``extracted`` (consolidation) or ``import``, a forgotten ``name``
    matches too: a proposal or a re-import cannot bring a forgotten memory
    back under its old name (its source text may differ from the edited
    value that was forgotten). A ``title`` is read as a description too (``… in the title``): the index shows
    it in the description's place, so a forgotten fact moved into the title of a memory with another
    description came back into the prompt (break33)."""
    if not stones:
        return None
    found = _match(stones, description, body, name, actor)
    if found is None and title and title != description:
        found = _match(stones, title, body, None, None)
        if found is not None:
            found = (found[0], found[1] + " in the title")
    return found


def _match(stones, description: str, body: str, name: str | None, actor: str | None,
           written: _Corrections | None = None) -> tuple[Tombstone, str] | None:
    """:func:`match` of one description (the rules of the module docstring); ``written``: the value's
    :class:`_Corrections` when this is the value but for the old addresses it shows (:func:`_shown_cut`)."""
    key = _digest(value_of(description, body))
    for stone in stones if written is None else ():
        if stone.digest == key:
            return stone, "the same value"
    # The value as each reading reads it (memdir.tombstones.reading.READINGS): seen through its markup, and as
    # written (what a comment or an attribute hides from a renderer's reader the model still reads); one reading
    # when they agree (text without markup).
    # A match read as seen is passed over when it corrects a link's address (memdir.tombstones.addresses).
    read_as, seq_digests, cut, written = {}, {}, written is None, written or _Corrections(description, body)
    readings = readings_for(description, body)
    for reading in readings:
        seq = words(f"{description}\n{body}", reading)
        seq_digests.setdefault(_digest(" ".join(seq)), set()).update((reading,) if len(readings) > 1 else (1, reading))
        if all(seq != other[0] for other in read_as.values()):
            read_as[reading] = (seq, words(description, reading))
    for stone in stones:
        for digest, made in _words_digests(stone):
            found_in = seq_digests.get(digest, ())
            if not found_in:
                continue
            as_written = made < 2 and 1 in found_in  # the value's words as written, the stone's too
            note = "" if as_written else written.not_corrected(stone, "value")
            if note is not None:
                return stone, _told("the same words", note)
    if any(_body_digests(stone) for stone in stones):
        found = forgotten_body(stones, description, body, written)
        if found is not None:
            return found
    for seq, own_seq in read_as.values():
        found = _fact_found(stones, description, seq, own_seq, written)
        if found is not None:
            return found
    if cut and len(readings) > 1 and any(s.description_addresses or s.body_addresses for s in stones):
        # the value but for the old address shown beside the new one, matched again
        from .addresses import shorn

        value = shorn(stones, description, body)
        if value and (found := _match(stones, *value, None, None, written)) is not None:
            return found
    if name is not None and actor in ("extracted", "import"):
        for stone in stones:
            if stone.name == name:
                return stone, "a forgotten name"
    return None


def _fact_found(stones, description: str, seq: tuple[str, ...], own_seq: tuple[str, ...], written):
    """The first of ``stones`` whose forgotten fact the value (its words ``seq``, its description's ``own_seq``,
    under one reading) restates or rewords (rules 3 and 4), with why, but for a correction of an address the
    forgotten description held (``written``: the value's :class:`_Corrections`); None."""
    seq, own_seq = long_forms(seq, "\n".join(written._value)), long_forms(own_seq, description)
    joined = _joined(seq)
    own = tuple(w for w in own_seq if w not in _FILLER)
    own_joined, own_content, squeezed = _joined(own_seq), _joined(own), "".join(own_seq)
    for stone in stones:
        fact, doubled, content_words, run_together = _fact(stone.description)
        why = None
        if (fact == own_joined or run_together == squeezed) and own_seq or fact.count("\x1f") - 1 >= MIN_FACT_WORDS \
                and _restated(fact, seq, joined, description):
            why = "the forgotten fact restated"
        elif content_words >= MIN_FACT_WORDS and len(own) == content_words and (
                own_content in doubled or _moved(stone.description, own)):
            why = "the forgotten fact reworded"
        note = written.not_corrected(stone, "description") if why else None
        if note is not None:
            return stone, _told(why, note)
    return None


def qualified(stones, description: str, body: str) -> tuple[Tombstone, str] | None:
    """The first tombstone of ``stones`` whose forgotten fact ``description`` qualifies (the module
    docstring: "Test database port is 5433" for "Database port is 5433"), with why (``the forgotten fact
    qualified``), when :func:`match` finds none; else None. A write it finds is let through, warned."""
    if not stones or match(stones, description, body) is not None:
        return None
    own = long_forms(words(description), description)
    for stone in stones:
        fact = long_forms(words(stone.description), stone.description)
        size = len(fact)
        if size >= MIN_FACT_WORDS and 1 <= len(own) - size <= QUALIFIER_WORDS and own[-size:] == fact \
                and _qualifies(own, len(own) - size, size, description):
            return stone, "the forgotten fact qualified"
    return None


def check(stones, description: str, body: str, *, name: str | None = None, actor: str | None = None,
          title: str | None = None) -> None:
    """Refuse what :func:`match` finds. Raises :class:`TombstoneRefused`
    (its message :func:`refusal`; ``stone`` and ``why`` set)."""
    found = match(stones, description, body, name=name, actor=actor, title=title)
    if found is not None:
        stone, why = found
        from .refusals import refusal

        raise TombstoneRefused(refusal(stone, why), stone.id, stone=stone, why=why)


__all__ = ["ID_FORM", "MIN_BODY_WORDS", "MIN_FACT_WORDS", "QUALIFIER_WORDS", "Tombstone", "READING", "body_digest",
           "body_keys", "bodies_held", "by_body", "check", "forgotten_body", "holds_any", "holds_runs", "make", "match",
           "needed_runs", "normalize_value", "plain_words", "qualified", "seen", "sieve", "value_of", "value_runs",
           "words"]
