"""Partial edits of a memory's body: replace one unique piece of text, or insert lines.

A model that changes one line of a memory should not have to send the whole
memory back (and risk dropping the rest): :class:`BodyEdit` says what to
change — ``old`` → ``new`` where ``old`` occurs exactly once, or ``text``
inserted after line ``line`` (0: before the first) — and :func:`edit` applies
it to the memory's current body and writes the result through
:func:`memdir.gateway.changes.write`, so an edit is journaled, redacted,
tombstone-checked and fenced like every other write. The body is read and
written under compare-and-set: an edit is never applied to a body that
changed since it was read (it is read again and re-applied, or refused).

The rules are those of the Claude API's memory tool (``memory_20250818``,
``str_replace`` and ``insert``), which the ``memory_edit`` tool and the
``/memories`` backend (:mod:`memdir.tools.memory_directory`) both use.
"""

from __future__ import annotations

import unicodedata
from contextlib import nullcontext
from dataclasses import dataclass

from ..errors import Conflict, InvalidInput, NotFound
from ..layer.layer import Layer
from ..results.writes import WriteResult
from ..text.names import asked_name, normalize_name
from ..tombstones.match import Tombstone
from ..vocabulary import MOST_DIGITS
from .changes import write
from .fields import MemoryChange

ATTEMPTS = 3  # reads of the body an edit makes when another writer keeps changing it


def _said(value) -> str:
    """``repr(value)``, or how big it is when Python will not write it (an ``int`` of more than 4,300 digits)."""
    try:
        return repr(value)
    except ValueError:
        return f"a number of more than {MOST_DIGITS} digits"


@dataclass(frozen=True)
class BodyEdit:
    """One partial edit of a body: ``old`` and ``new`` (replace the one
    occurrence of ``old``, which must not be empty; ``new`` may be), or
    ``line`` and ``text`` (insert ``text``'s lines after line ``line``,
    counted from 1; 0 inserts before the first). ``quoted``: ``old`` (and
    ``new``) may be copied from a body shown quoted (:func:`memdir.text.fence.quoted`:
    ``memory_read``): ``old`` is also read as shown there — without its quote
    marks (:func:`memdir.text.fence.unquoted`) and escapes
    (:func:`memdir.text.fence.unescaped`) — and when that reading is what the
    body holds, ``new`` is read the same way; when both ``old`` as written and
    its shown reading are in the body, the edit is refused as ambiguous (a
    body line ``> note`` reads as ``> > note``). Raises
    :class:`InvalidInput` for a mix of both, or neither."""

    old: str | None = None
    new: str | None = None
    line: int | None = None
    text: str | None = None
    quoted: bool = False  # old and new may be copied as memory_read shows a body (each line after "> ")

    def __post_init__(self) -> None:
        replacing = self.old is not None or self.new is not None
        inserting = self.line is not None or self.text is not None
        if replacing == inserting:
            raise InvalidInput("an edit either replaces text (old and new) or inserts lines (line and text)")
        if replacing:
            if not isinstance(self.old, str) or not isinstance(self.new, str):
                raise InvalidInput("a replacement needs old and new, both text")
            if not self.old:
                raise InvalidInput("old must not be empty: give the exact text to replace")
        else:
            if isinstance(self.line, bool) or not isinstance(self.line, int) or self.line < 0:
                raise InvalidInput(f"line must be a whole number ≥ 0 (got {_said(self.line)})")
            if self.line >= 10 ** MOST_DIGITS:  # no body has that many lines, and Python writes no such int out
                raise InvalidInput(f"line must be a whole number of at most {MOST_DIGITS} digits (got a larger one)")
            if not isinstance(self.text, str):
                raise InvalidInput("an insertion needs text")

    @property
    def mode(self) -> str:
        """``str_replace`` or ``insert`` (the memory tool's command names)."""
        return "insert" if self.line is not None else "str_replace"

    def apply(self, body: str, name: str) -> tuple[str, int]:
        """``body`` (of memory ``name``, for the messages) with this edit made,
        and the number (from 1) of the first line it changed. ``old`` written in another Unicode form than
        the body (NFC/NFD) is the text: both are read composed. Raises
        :class:`InvalidInput` when ``old`` is not in ``body``, is there more
        than once (the lines it starts on are named), or ``line`` is past the
        last line."""
        if self.mode == "insert":
            lines = body.split("\n") if body else []
            if self.line > len(lines):
                raise InvalidInput(f"line {self.line} is past the end of {name!r}: it must be from 0 to {len(lines)}")
            inserted = self.text.rstrip("\n").split("\n")
            return "\n".join(lines[: self.line] + inserted + lines[self.line:]), self.line + 1
        old, new = (self.old, self.new) if not self.quoted else _as_stored(body, self.old, self.new, name)
        if not unicodedata.is_normalized("NFC", body) or not unicodedata.is_normalized("NFC", old):
            # One text in two Unicode forms (a macOS client's decomposed é, another's composed one): the edit is
            # read and made on the composed form of each, which is the same text (break13).
            body, old, new = (unicodedata.normalize("NFC", text) for text in (body, old, new))
        spans = [(at, at + len(old)) for at in _starts(body, old)]
        if not spans:
            spans, new = _as_shown(body, old, new, self.quoted)
        if not spans:
            raise InvalidInput(f"no replacement was made: the old text does not appear verbatim in {name!r}")
        if len(spans) > 1:
            lines = ", ".join(str(body.count("\n", 0, at) + 1) for at, _ in spans)
            raise InvalidInput(f"no replacement was made: the old text appears {len(spans)} times in {name!r} "
                               f"(at lines {lines}); give more of the surrounding text so it is unique")
        (start, end), = spans
        return body[:start] + new + body[end:], body.count("\n", 0, start) + 1


def _starts(body: str, text: str) -> list[int]:
    """Where each occurrence of ``text`` in ``body`` starts (overlapping ones too)."""
    starts, at = [], body.find(text)
    while at != -1:
        starts.append(at)
        at = body.find(text, at + 1)
    return starts


def _as_shown(body: str, old: str, new: str, quoted: bool) -> tuple[list[tuple[int, int]], str]:
    """``(spans, new)`` for an ``old`` that is not in ``body`` verbatim but is a copy of the body as a tool showed
    it: every span ``(start, end)`` of ``body`` that reads as ``old`` there, and ``new`` read the same way. A view
    (the memory tool's ``view``, ``memory_read``) shows a body printable (:func:`memdir.text.printable.printable`:
    a zero-width space, a soft hyphen, a bidi mark or an escape sequence a person's file holds is not shown) and
    read as data (:func:`memdir.text.fence.escape_stored`: ``{{`` as ``{ {``, a fence tag as ``&lt;…&gt;``), the
    memory tool's a line break other than ``\n`` as its escape (:func:`memdir.text.printable.breaks_shown`), so
    the model's copy of a line holding one never matched and the edit it asked for was refused (break39: a line
    ``foo\u200bbar`` viewed as ``foobar``). ``old`` is read as written, without its quote marks when
    ``quoted`` (:func:`memdir.text.fence.unquoted`), unescaped (:func:`memdir.text.fence.unescaped`) and with its
    breaks read back (:func:`memdir.text.printable.breaks_read`), or as a write stores it (a fence tag escaped:
    :func:`memdir.text.fence.escape_fence_tags`, so the model's own text is found again): each in the body, then each as printable against
    the body as printable; the first reading found is the one. A match takes the hidden characters inside it with it (the gateway
    drops them from what it writes). No span when ``old`` shows nothing."""
    from ..text.fence import escape_fence_tags, unescaped, unquoted
    from ..text.printable import breaks_read, printable, printable_map

    readings = [(old, new)]
    if (stored := escape_fence_tags(old)) != old:  # as the gateway stored it: the model's own </memory_context>
        readings.append((stored, new))
    if quoted and (bare := unquoted(old)) not in (None, old):  # memory_read's "> " marks
        readings.append((bare, unquoted(new) if unquoted(new) is not None else new))
    for text, replacement in list(readings):
        if (reading := unescaped(text)) is not None:
            readings.append((reading, unescaped(replacement) or replacement))
    for text, replacement in list(readings):
        if (reading := breaks_read(text)) != text:  # the memory tool's view shows a body's U+2028 as \u2028
            readings.append((reading, breaks_read(replacement)))
    for text, replacement in readings[1:]:
        if starts := _starts(body, text):
            return [(at, at + len(text)) for at in starts], replacement
    shown, where = printable_map(body)
    if where is None:
        return [], new
    for text, replacement in readings:
        piece = printable(text)
        if not piece or (piece == text and shown == body):
            continue
        if starts := _starts(shown, piece):
            ends = [where[at + len(piece) - 1] for at in starts]
            return [(where[at], end + (2 if body.startswith("\r\n", end) else 1))
                    for at, end in zip(starts, ends)], replacement
    return [], new
    for text, replacement in ((old, new), (reading, reading and (unescaped(new) or new))):
        piece = printable(text) if text else ""
        if not piece or (text == old and piece == old and shown == body):
            continue
        starts = _starts(shown, piece)
        if starts:
            last = [at + len(piece) - 1 for at in starts]
            return [(where[at], where[end] + (2 if body.startswith("\r\n", where[end]) else 1))
                    for at, end in zip(starts, last)], replacement
    return [], new


def _lines_of(body: str, text: str) -> list[int]:
    """The lines (from 1) on which each occurrence of ``text`` in ``body`` starts."""
    starts, at = [], body.find(text)
    while at != -1:
        starts.append(body.count("\n", 0, at) + 1)
        at = body.find(text, at + 1)
    return starts


def _as_stored(body: str, old: str, new: str, name: str) -> tuple[str, str]:
    """``(old, new)`` as the body stores them, for an edit copied from ``memory_read``'s quoted,
    escaped view (:class:`BodyEdit` ``quoted``): ``old`` read as shown (marks, then escapes, taken
    off) when that is what the body holds and ``old`` as written is not, ``new`` then read the same
    way where it was written so. Raises :class:`InvalidInput` when both readings are in the body."""
    from ..text.fence import unescaped, unquoted

    bare = unquoted(old)
    readings = [r for r in ((bare if bare != old else None), unescaped(bare if bare is not None else old))
                if r is not None]
    shown = next((r for r in readings if r in body), None)
    if shown is None:
        return old, new
    if old in body:
        raise InvalidInput(f"no replacement was made: the old text is in {name!r} as written (at line "
                           f"{', '.join(map(str, _lines_of(body, old)))}) and as memory_read shows it (at line "
                           f"{', '.join(map(str, _lines_of(body, shown)))}); copy it from memory_read with more of "
                           "the surrounding lines so it is unique")
    if bare is not None and bare != old:
        new = unquoted(new) if unquoted(new) is not None else new
    return shown, (unescaped(new) or new) if shown != bare else new


@dataclass(frozen=True)
class EditResult(WriteResult):
    """What an edit did: the write's result, and ``line``, the number (from 1)
    of the first line of the body the edit changed."""

    line: int = 1


def check_body_fits(body: str, limit: int | None, subject: str) -> None:
    """Refuse a body over ``limit`` characters (None: no limit) where a cut would be a lie: an edit, or
    a file a model creates whole (the memory tool's ``create``). Raises :class:`InvalidInput` saying
    ``subject`` ("the edit would make 'x''s body") is so many characters and nothing was changed."""
    if limit is not None and len(body.strip()) > limit:
        raise InvalidInput(f"{subject} {len(body.strip())} characters, over the {limit}-character limit; "
                           "nothing was changed (shorten it, or split the memory)")


def edited_body(layer: Layer, name: str, change: BodyEdit) -> tuple[str, str, int, str]:
    """The body memory ``name`` of ``layer`` would have after ``change``:
    ``(name as stored, new body, first changed line, digest read)``. Raises
    :class:`NotFound`, :class:`InvalidInput` (:meth:`BodyEdit.apply`), and
    for a result over the body limit (``limit_body``): an edit never cuts."""
    stored, _before, body, line, digest = _edited(layer, name, change)
    return stored, body, line, digest


def _edited(layer: Layer, name: str, change: BodyEdit) -> tuple[str, str, str, int, str]:
    """:func:`edited_body` with the body as it was read: ``(name, body read, new body, line, digest)``."""
    key = normalize_name(name).name
    entry = layer.scan().entries.get(key)
    if entry is None:
        raise NotFound(f'memory not found: {asked_name(name, key)} in the {layer.scope} layer')
    body, line = change.apply(entry.record.body, entry.record.name)
    check_body_fits(body, layer.settings.limit_body, f"the edit would make {entry.record.name!r}'s body")
    return entry.record.name, entry.record.body, body, line, entry.digest


def _above(body: str, change: BodyEdit) -> list[str] | None:
    """The lines an insert goes after (its anchor), None for a replacement (anchored by its own text)."""
    return (body.split("\n") if body else [])[: change.line] if change.mode == "insert" else None


def edit(layer: Layer, name: str, change: BodyEdit, *, actor: str, session: str | None = None,
         guard: list[Tombstone] = (), reason: str | None = None) -> EditResult:
    """Make ``change`` to the body of memory ``name`` of ``layer`` and write
    it through :func:`memdir.gateway.changes.write` (as ``actor``, for agent
    session ``session``, checked against ``guard``'s tombstones too), with the
    digest it was read at. When another writer changed the memory in between, the edit is made again
    on the new body, read and written holding the layer's lock (:meth:`memdir.layer.layer.Layer.locked`),
    so no memdir writer can come between: an edit is never lost to contention (40 inserts at once
    through one memory tool lost 4-13 of them to "changed since it was read" when every attempt raced).

    Made again only where it means what it meant when it was read, so that nothing lands silently
    elsewhere: a replacement is anchored by its own text (still there once, or refused as any
    replacement is); an insert by the lines above it — made again when the body's first ``line``
    lines are as they were read (the other writer changed only what lies below: 40 inserts after
    line 1 all land there), refused with :class:`Conflict` when one of them changed (a line
    inserted above would shift where its number points: the caller views it again). The memory
    tool sends no digest of the view its line numbers come from, so this anchors to the body the
    command found, as a command given after the other writer's would be. Only a writer that does
    not take the lock (an editor saving the file) can change the memory under a locked attempt, up
    to :data:`ATTEMPTS` reads in all. The other fields are kept. Raises :class:`NotFound`,
    :class:`InvalidInput` (:func:`edited_body`), :class:`TombstoneRefused`, :class:`Refused` (a
    superseded memory), :class:`Conflict` (lines above an insert changed; still changing after the
    last attempt), :class:`LockTimeout`."""
    anchor = None
    for attempt in range(ATTEMPTS):
        # The first read is made without the lock (most edits meet no other writer); the next ones hold it.
        with layer.locked() if attempt else nullcontext():
            stored, before, body, line, digest = _edited(layer, name, change)
            if attempt == 0:
                anchor = _above(before, change)
            elif _above(before, change) != anchor:
                raise Conflict(f"memory {stored!r} changed above line {change.line} since it was read; the insert "
                               "was not made: view it again for its line numbers")
            try:
                result = write(layer, MemoryChange(stored, body=body, expect_digest=digest, reason=reason),
                               actor=actor, session=session, guard=guard)
            except Conflict:
                if attempt == ATTEMPTS - 1:
                    raise
                continue
        return EditResult(**{**vars(result), "line": line})
    raise AssertionError("unreachable")


__all__ = ["ATTEMPTS", "BodyEdit", "EditResult", "check_body_fits", "edit", "edited_body"]
