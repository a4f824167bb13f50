"""Fields of a write: validated, cut to their limits and sanitized before the gateway stores them.

One rule for every writer (:mod:`memdir.gateway.changes` calls :func:`prepare`;
consolidation calls it to report what a proposal would become): names are
normalized (:mod:`memdir.text.names`), one-line fields lose line breaks and
every field loses terminal escapes, controls and bidi overrides
(:mod:`memdir.text.printable`), secrets are redacted
(:mod:`memdir.text.redact`) and fence tags escaped (:mod:`memdir.text.fence`).
A description over ``limit_description`` loses nothing: it is shortened where a reader expects it
to stop, and its whole text starts the body (:func:`description_whole`, :func:`carried`); a later
description replaces that text, never stacks on it (:func:`recarried`).
What an update keeps of a field not given is :func:`inherit`. A free variant of a name (a candidate's,
``-v2``, ``-import``, a colliding name's ``-2``) is :func:`memdir.gateway.variants.free_name`, for every
writer (forwarded here).
What a write asks is one value, :class:`MemoryChange`, declared here once for every level
(the ``Memory`` facade, :mod:`memdir.operations.memories`, the gateway).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from datetime import datetime
from typing import Any

from ..errors import Conflict, InvalidInput, InvalidName
from ..files.frontmatter import MAX_FRONTMATTER_BYTES, MAX_INTEGER, oversize, split
from ..files.memfile import TYPES, MemoryRecord, format_time, serialize
from ..settings import Settings
from ..text.fence import escape_fence_tags
from ..text.fold import fold
from ..text.names import hidden_note, normalize_name, raw_name, same_name
from ..text.printable import clean_body, clean_line, trimmed_body
from ..text.redact import redact, redact_value
from ..vocabulary import CLEARABLE, default_type
from .variants import MAX_CANDIDATES, candidate_name, distinct_name, free_name  # noqa: F401  (forwarded: their callers' import)


@dataclass(frozen=True)
class MemoryChange:
    """One write of one memory, as a caller asks it: the value every writer builds (the CLI, the
    API, the tools, the panel, team proposals, consolidation, imports) and every level passes on
    unchanged (``Memory.write`` → :func:`memdir.operations.memories.write` →
    :func:`memdir.gateway.changes.write`). Who writes (the actor), the agent session id, which
    tombstones guard the write and the journal action come from the calling path, never from
    here: a payload cannot set them.

    A field left at its default (None) is not given: an update keeps the memory's value
    (:func:`inherit` for ``description``, ``type``, ``body``; the flags, ``title``,
    ``importance`` and the valid times likewise); a new memory needs a ``description`` and
    is of type ``project``.

    ``name`` the memory (a raw name, normalized by :func:`prepare`); ``description`` one line
    (``limit_description``), ``type`` of :data:`memdir.vocabulary.TYPES`, ``body`` Markdown
    (``""`` empties it), ``title`` one line; ``pinned`` / ``disabled`` (mute); ``importance`` an
    integer 1–10; ``status`` None or ``"candidate"`` (propose it for review); ``valid_from`` /
    ``valid_until`` aware datetimes, or text :func:`memdir.operations.memories.time_arg` reads
    (the gateway takes datetimes only); ``supersedes`` the name of the memory this one replaces;
    ``extra`` further frontmatter keys (a mapping, kept as ``(key, value)`` pairs; the keys of
    :class:`~memdir.files.memfile.MemoryRecord` are the gateway's own and dropped); ``reason``
    for the journal; ``expect_digest`` compare-and-set (False: no check; None: the memory must
    not exist; a digest: the file must hold it, else :class:`~memdir.errors.Conflict`);
    ``reactivate`` a superseded memory (only ``True`` counts); ``rename_from`` the memory to
    move to ``name``; ``clear`` the optional fields to empty (of :data:`CLEARABLE`);
    ``body_source`` where a body read from a stream came from (``stdin``), see :func:`inherit`.

    Every value is checked here, when the change is made, so no level below meets a malformed
    one: the text fields are text or None (their content is :func:`prepare`'s); ``pinned``,
    ``disabled`` and ``reactivate`` booleans (or None), never a word read as true or false;
    ``importance`` an integer 1–10; the valid times datetimes or text (never a number);
    ``status`` None, ``"active"`` or ``"candidate"``; ``expect_digest`` False, None or text;
    ``clear`` names of :data:`CLEARABLE`, none of them also given; ``rename_from`` and
    ``supersedes`` not both; ``extra`` plain frontmatter values (:func:`plain_value`). Raises
    :class:`InvalidInput` naming the field and what it must be.
    """

    name: str
    description: str | None = None
    type: str | None = None
    body: str | None = None
    title: str | None = None
    pinned: bool | None = None
    disabled: bool | None = None
    importance: int | None = None
    status: str | None = None
    valid_from: str | datetime | None = None
    valid_until: str | datetime | None = None
    supersedes: str | None = None
    extra: tuple[tuple[str, Any], ...] = ()
    reason: str | None = None
    expect_digest: str | None | bool = False
    reactivate: bool = False
    rename_from: str | None = None
    clear: tuple[str, ...] = ()
    body_source: str | None = None

    def __post_init__(self) -> None:
        extra = self.extra or ()
        if isinstance(extra, Mapping):
            extra = tuple(extra.items())
        elif not isinstance(extra, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in extra):
            raise InvalidInput(f"extra must be a mapping of frontmatter keys to values (got {type(extra).__name__})")
        for key, _ in extra:
            if not isinstance(key, str):
                raise InvalidInput(f"extra: a key must be text (got {type(key).__name__} {key!r})")
            if not _unicode(key):
                raise InvalidInput(f"extra: the key {key!r} is not valid Unicode text (undecodable bytes?)")
        extra = tuple((str.__str__(key), plain_value(value, f"extra[{key!r}]")) for key, value in extra)
        clear = self.clear or ()
        if not isinstance(clear, (list, tuple, set, frozenset)) or not all(isinstance(f, str) for f in clear):
            raise InvalidInput(f"clear must be a list of field names, of {', '.join(sorted(CLEARABLE))} "
                               f"(got {clear!r})")
        if set(clear) - CLEARABLE:
            raise InvalidInput(f"only {', '.join(sorted(CLEARABLE))} can be cleared (got {', '.join(clear)})")
        if not isinstance(self.name, str):
            raise InvalidInput(f"name must be text (got {type(self.name).__name__})")
        for label in ("description", "type", "body", "title", "status", "supersedes", "rename_from", "reason",
                      "body_source"):
            value = getattr(self, label)
            if value is not None and not isinstance(value, str):
                raise InvalidInput(f"{label} must be text (got {type(value).__name__})")
        for label in ("pinned", "disabled", "reactivate"):
            value = getattr(self, label)
            if value is not None and not isinstance(value, bool):  # "no" is a word, not False
                raise InvalidInput(f"{label} must be a boolean (True or False), got {type(value).__name__}")
        importance = self.importance
        if importance is not None and (isinstance(importance, bool) or not isinstance(importance, int)
                                       or not 1 <= importance <= 10):
            raise InvalidInput(f"importance must be an integer from 1 to 10 (got {importance!r})")
        for label in ("valid_from", "valid_until"):
            value = getattr(self, label)
            if value is not None and not isinstance(value, (str, datetime)):  # 12345 is not 1970
                raise InvalidInput(f"{label} must be a datetime or ISO-8601 text (got {type(value).__name__} "
                                   f"{value!r})")
        if self.status not in (None, "active", "candidate"):
            raise InvalidInput(f"status can be asked as 'candidate' only (got {self.status!r})")
        if self.expect_digest is not False and self.expect_digest is not None and not isinstance(
                self.expect_digest, str):
            raise InvalidInput(f"expect_digest must be a digest (text), None or False (got {self.expect_digest!r})")
        if self.rename_from is not None and self.supersedes:  # the rename's old name is what it supersedes
            raise InvalidInput("give rename_from or supersedes, not both: a rename supersedes the old name itself")
        for label in sorted(clear):
            if getattr(self, label) is not None:  # a value and its removal: which one was meant?
                raise InvalidInput(f"{label} is both given and cleared: give a value or clear it, not both")
        object.__setattr__(self, "extra", extra)
        object.__setattr__(self, "clear", tuple(clear))

    @classmethod
    def of(cls, name: str, description: str | None = None, type: str | None = None, body: str | None = None,
           **fields: Any) -> "MemoryChange":
        """The change a keyword call asks (``Memory.write(name, description, type, body, title=…)``).
        Raises :class:`InvalidInput` naming each keyword that is no field of a change (a misspelt
        ``importanse=5`` is refused, never dropped)."""
        known = [f.name for f in dataclass_fields(cls)]
        unknown = sorted(set(fields) - set(known))
        if unknown:
            raise InvalidInput(f"unknown field(s) for a write: {', '.join(unknown)} (a write takes "
                               f"{', '.join(known)}, and scope)")
        return cls(name, description, type, body, **fields)


MAX_EXTRA_DEPTH = 20  # levels of lists and mappings in one value of ``extra``; real frontmatter nests two or three
_PLAIN = "text, an integer, a finite number, true/false, null, or lists and mappings of those with text keys"


def plain_value(value: Any, where: str = "extra") -> Any:
    """``value`` as a frontmatter value memdir writes and reads back the same: text (valid Unicode),
    an integer within the signed 64-bit range (:data:`memdir.files.frontmatter.MAX_INTEGER`), a
    finite float, a boolean, None, or a list (a tuple becomes one) or a mapping with text keys of
    those, at most :data:`MAX_EXTRA_DEPTH` levels deep; a subclass of one (an ``IntEnum``) becomes
    its plain value. The one check of the values of :attr:`MemoryChange.extra`. Raises
    :class:`InvalidInput` naming where in it (``where``, e.g. ``extra['k'][0]``) the first value
    that is none of these is."""
    return _plain(value, where, where, 0)


def _plain(value: Any, where: str, top: str, depth: int) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        if not _unicode(value):
            raise InvalidInput(f"{where}: not valid Unicode text (undecodable bytes?)")
        return str.__str__(value)  # a str subclass (a StrEnum) as the text it holds: YAML knows no other
    if isinstance(value, int):
        if not -MAX_INTEGER - 1 <= value <= MAX_INTEGER:
            raise InvalidInput(f"{where}: an integer of {value.bit_length()} bits is outside the signed 64-bit "
                               "range a frontmatter number keeps; write it as text")
        return int.__int__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(f"{where}: {value!r} is not a finite number")
        return float.__float__(value)
    if isinstance(value, (list, tuple, Mapping)) and depth >= MAX_EXTRA_DEPTH:
        raise InvalidInput(f"{top}: nested deeper than {MAX_EXTRA_DEPTH} levels of lists and mappings")
    if isinstance(value, (list, tuple)):
        return [_plain(item, f"{where}[{index}]", top, depth + 1) for index, item in enumerate(value)]
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInput(f"{where}: a mapping key must be text (got {type(key).__name__} {key!r})")
            if not _unicode(key):
                raise InvalidInput(f"{where}: the key {key!r} is not valid Unicode text (undecodable bytes?)")
            out[str.__str__(key)] = _plain(item, f"{where}[{key!r}]", top, depth + 1)
        return out
    raise InvalidInput(f"{where}: a value of type {type(value).__name__} cannot be kept in frontmatter ({_PLAIN})")


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no file can hold it as UTF-8
        return False
    return True


MODEL_ACTORS = frozenset({"agent", "extracted"})  # writers whose bodies limit_body bounds (body_limit)


def _cut(value: str, limit: int, label: str, warnings: list[str]) -> str:
    if len(value) > limit:
        warnings.append(f"{label} cut from {len(value)} to {limit} characters")
        return value[:limit]
    return value


_SENTENCE_END = re.compile(r"[.!?;。！？；](?=\s|$)")


def shortened(text: str, limit: int) -> str:
    """``text`` (one line, over ``limit`` characters) cut to at most ``limit`` where a reader expects it
    to stop: after the last sentence ending in its second half; else at the last space there, with "…";
    else at ``limit − 1`` characters with "…" (a CJK line has no spaces). The one rule of a description
    made short: a write's (the whole text then starts the body), an import's drawn from its body."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit + 1) if limit // 2 <= m.end() <= limit]
    if ends:
        return text[:ends[-1]]
    space = text.rfind(" ", limit // 2, limit)
    return (text[:space].rstrip() if space > 0 else text[:limit - 1]) + "…"


def description_whole(settings: Settings, description, actor: str) -> str | None:
    """The whole text of a description over ``limit_description`` characters, as the body carries it
    (printable, secrets redacted, fence tags escaped); None for a description that fits, or none
    given. The limit keeps one index line short (the seed's ``memory_write`` cuts at 160 and loses
    the rest, reference/seed-behaviour.md); memdir keeps the rest in the body (issue 28). What a
    writer with a body limit (:func:`body_limit`: a model) carries is held to that limit too, so a
    long description is no way around it."""
    if not isinstance(description, str):
        return None
    text = _printable(description, "description", []).strip()
    if len(text) <= settings.limit_description:
        return None
    limit = body_limit(settings, actor)
    return sanitize(text if limit is None else text[:limit], {})


def carried(whole: str | None, body: str) -> str:
    """``body`` starting with ``whole`` (:func:`description_whole`) as its first paragraph, unless it
    already does (a second pass of the same write, an update repeating the description) or ``whole``
    is None."""
    if not whole or body == whole or body.startswith(whole + "\n\n"):
        return body
    return whole + "\n\n" + body if body else whole


def recarried(old: MemoryRecord | None, whole: str | None, body: str, limit: int,
              warnings: list[str] | None = None, written: Callable[[], str | None] | None = None) -> str:
    """``body`` of an update that gives a description, with the text an earlier write carried into it
    from ``old``'s description (:func:`carried`) replaced by ``whole`` (the new description's, or
    nothing when it fits), never stacked under it. That text is ``body``'s first paragraph (after
    ``whole``, when a given body already starts with it) only when it is longer than ``limit``
    (``limit_description``) and reads, shortened as the write shortened it, as ``old``'s description:
    any other paragraph is what someone wrote and stays — and only when it is, character for
    character, the first paragraph of the body memdir last wrote with that description (``written()``:
    :func:`memdir.layer.history.last_written_body`; a person's edit of it after the cut keeps the
    paragraph, with a note; without ``written`` or that version it stays too). The previous version
    keeps it (history); a note in ``warnings`` says it was replaced. ``old`` None (a new memory, or no
    description given): :func:`carried` alone."""
    if old is None or not old.description or not body:
        return carried(whole, body)
    rest = body[len(whole):].lstrip("\n") if whole and (body == whole or body.startswith(whole + "\n\n")) else body
    first, _, after = rest.partition("\n\n")
    if len(first) <= limit or "\n" in first or first == whole or shortened(first, limit) != old.description:
        return carried(whole, body)
    before = written() if written is not None else None
    if before is None or before.partition("\n\n")[0] != first:
        if warnings is not None:
            warnings.append("the previous description's whole text, which starts the body, was changed since it "
                            "was written there and is kept" + (" under the new one's" if whole else ""))
        return carried(whole, body)
    if warnings is not None:
        warnings.append("the previous description's whole text, which started the body, was replaced"
                        + (" by the new one's" if whole else "") + " (the previous version keeps it)")
    return carried(whole, after.lstrip("\n"))


def _printable(value: str, label: str, warnings: list[str], *, one_line: bool = True) -> str:
    """``value`` as the printable rule wants it (:mod:`memdir.text.printable`):
    a one-line field with its line breaks collapsed to spaces, any field
    without terminal escapes, control or bidi-override characters (a body
    keeps tabs and newlines, and its other line breaks become newlines); each change is a warning, but a
    line end of another system (``\\r\\n``, a lone ``\\r``) made ``\\n`` (:func:`clean_body`). Raises
    :class:`InvalidInput` for text that is not valid Unicode (lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{label} is not valid Unicode text (undecodable bytes?)") from None
    if not one_line:
        cleaned, breaks, count = clean_body(value)  # \r\n and lone \r line ends become \n unsaid
        if breaks:
            warnings.append(f"{breaks} line break character(s) in the {label} (form feed, vertical tab, "
                            "U+2028 …) made newlines")
        if count:
            warnings.append(f"{count} control or bidi character(s) removed from the {label}")
        return cleaned
    cleaned, breaks, count = clean_line(value)
    if breaks:
        warnings.append(f"{breaks} line break(s) in the {label} collapsed to spaces (it is one line)")
    if count:
        warnings.append(f"{count} control or bidi character(s) removed from the {label}")
    return cleaned


def reason_text(settings: Settings, reason: str | None) -> str | None:
    """A reason for the journal (a write, a delete, a lift, a decision, a layer's move) as a one-line
    field is kept: printable on one line, cut to the description limit
    (``limit_description``, 160 characters by default), secrets redacted: the one rule of every
    reason. None or empty → None; raises :class:`InvalidInput` for a reason that is not text."""
    if reason is None or reason == "":
        return None
    if not isinstance(reason, str):
        raise InvalidInput(f"reason must be text (got {type(reason).__name__})")
    text = _printable(reason, "reason", [])
    return sanitize(_cut(text, settings.limit_description, "reason", []), {}) or None


def check_valid_time(record: MemoryRecord, valid_from, valid_until, now, warnings: list[str]) -> None:
    """The valid-time rule of a write that sets ``valid_from`` or
    ``valid_until`` (aware datetimes; ``record`` the memory as it will be
    written): an empty interval (from at or after until) is refused with
    :class:`InvalidInput`; an end already past ``now`` is kept with a
    warning appended to ``warnings`` (the memory is expired at once)."""
    if valid_from is None and valid_until is None:
        return
    start, end = record.valid_from, record.valid_until
    if start is not None and end is not None and start >= end:
        raise InvalidInput(f"valid_from {format_time(start)} is not before valid_until {format_time(end)}: "
                           "the memory would never hold")
    if valid_until is not None and end is not None and end <= now:
        warnings.append(f"valid_until {format_time(end)} is already past: the memory is expired at once "
                        "(kept, but left out of the index and of recall)")


def check_readable(record: MemoryRecord, max_file_bytes: int | None = None) -> None:
    """Refuse to write ``record`` when its file, as :func:`memdir.files.memfile.serialize` writes it,
    is one the reader refuses: its frontmatter over the cap (:func:`memdir.files.frontmatter.oversize`,
    :data:`~memdir.files.frontmatter.MAX_FRONTMATTER_BYTES`), or the whole file over ``max_file_bytes``
    (the ``max_file_bytes`` setting; None: not checked): memdir never writes a file it cannot read back.
    Raises :class:`InvalidInput` saying how large it would be."""
    text = serialize(record)
    front, _ = split(text)
    size = oversize(front)
    if size is not None:
        raise InvalidInput(f"the frontmatter would be {size} bytes, over the {MAX_FRONTMATTER_BYTES}-byte cap memdir "
                           "reads back; nothing was written (long text belongs in the body, not in a frontmatter key)")
    size = len(text.encode("utf-8"))
    if max_file_bytes is not None and size > max_file_bytes:
        raise InvalidInput(f"the memory file would be {size} bytes, over the {max_file_bytes}-byte ceiling of a "
                           "memory file (max_file_bytes); nothing was written (split it into several memories)")


def sanitize(value: str, counts: dict, label: str = "", warnings: list[str] | None = None) -> str:
    """``value`` with secrets redacted and fence tags escaped; adds each
    redaction kind's count to ``counts`` and, given ``warnings``, says there
    when a fence tag of the ``label`` field was escaped (a write never changes
    text without saying so — issue 13)."""
    result = redact(value)
    for kind, count in result.counts.items():
        counts[kind] = counts.get(kind, 0) + count
    escaped = escape_fence_tags(result.text)
    if warnings is not None and escaped != result.text:
        warnings.append(f"memory_context/memory_recall/memory_pending tag(s) in the {label} escaped as &lt;…&gt; "
                        "(stored text never opens or closes the fence it is injected in)")
    return escaped


def sanitize_extra(extra: Mapping[str, Any], counts: dict) -> dict:
    """``extra`` (a change's further frontmatter keys, plain values: :func:`plain_value`) with the
    secrets in every text of its values redacted at any depth, as every field's are
    (:func:`memdir.text.redact.redact_value`); each kind's count is added to ``counts`` (the
    write's ``redactions``). Keys are kept as they are."""
    result = redact_value(dict(extra))
    for kind, count in result.counts.items():
        counts[kind] = counts.get(kind, 0) + count
    return result.text


def body_limit(settings: Settings, actor: str) -> int | None:
    """The most characters a body written by ``actor`` keeps: ``limit_body`` for what a model writes
    (:data:`MODEL_ACTORS`: the agent's tools, consolidation), None for a person's writes and imports,
    which keep the whole text up to the file-size ceiling (``max_file_bytes``, refused beyond it by
    :func:`check_readable`) — the one rule of the body limit (DESIGN §3, issue 25)."""
    return settings.limit_body if actor in MODEL_ACTORS else None


def uncut_body(settings: Settings, body, actor: str) -> str | None:
    """``body`` as :func:`prepare` keeps it (printable, secrets redacted) but whole, when the body limit
    (:func:`body_limit`: a model's write) cuts it; None when nothing is cut. What the tombstone check reads
    beside the cut body (:func:`memdir.gateway.forgotten.check_forgotten`): a forgotten body longer than the
    limit, written again under a new description, is still the forgotten body, where its first
    ``limit_body`` characters are not."""
    limit = body_limit(settings, actor)
    if limit is None or not isinstance(body, str) or len(body) <= limit:
        return None
    text = trimmed_body(_printable(body, "body", [], one_line=False))
    return trimmed_body(sanitize(text, {})) if len(text) > limit else None


def prepare(settings: Settings, name: str, description: str | None, type: str | None, body: str | None,
            title: str | None, *, actor: str) -> tuple[str, str | None, str | None, str | None, str | None, dict,
                                                       list[str]]:
    """Validate, cut and sanitize the text fields of a write by ``actor``.

    Returns (name, description, type, body, title, redaction counts, warnings).
    The body is cut (with a warning) only for a model's write (:func:`body_limit`).
    A description, type or body of None (not given) stays None: :func:`inherit` decides what it keeps.
    ``title`` is the one given, else the name as written when it differs
    from the normalized name by more than case (``C++ tips`` → name
    ``c-tips``, title ``C++ tips``), without a trailing ``.md``.
    Raises :class:`InvalidInput` for a bad name, type or an empty description, and
    :class:`InvalidName` for a name kept as the title that the title limit would cut
    (its own spelling could not find the memory again).
    """
    counts: dict[str, int] = {}
    warnings: list[str] = []
    if isinstance(name, str):
        name = sanitize(name, counts, "name", warnings)  # a secret in a name would end up in a file name
        # What a name may hold is the names' rule alone, as every read applies it (text.names: controls and
        # line breaks refused, what shows as nothing dropped and said here), never this module's cleaning.
        if note := hidden_note(name):
            warnings.append(note)
    normalized = normalize_name(name)
    if description is not None and (not isinstance(description, str) or not description.strip()):
        raise InvalidInput("description must not be empty (leave it out to keep the memory's)")
    if type is not None and type not in TYPES:
        raise InvalidInput(f"type must be one of {', '.join(TYPES)} (got {type!r})")
    if body is not None and not isinstance(body, str):
        raise InvalidInput("body must be a string")
    if title is not None and not isinstance(title, str):
        raise InvalidInput("title must be a string")
    written = raw_name(name)
    if note := name_note(name):
        warnings.append(note)
    # Stripped again after the cut and the escapes: a cut can end on a space, which the file
    # would not keep (the parser strips), so the write's answer and the file would differ (issue 13).
    whole = description_whole(settings, description, actor)
    if description is not None:
        description = _printable(description, "description", warnings).strip()
        if whole is not None:  # shortened, and its whole text starts the body: nothing is lost
            cut = shortened(description, settings.limit_description)
            limit = body_limit(settings, actor)
            kept = ("its whole text starts the body" if limit is None or len(description) <= limit
                    else f"its first {limit} characters start the body (limit_body)")
            warnings.append(f"description cut from {len(description)} to {len(cut)} characters (limit_description "
                            f"{settings.limit_description}); {kept}")
            description = cut
        description = sanitize(description, counts, "description", warnings).strip()
        if not description:
            raise InvalidInput("description must not be empty (it held only control characters)")
    if body is not None:
        body = trimmed_body(_printable(body, "body", warnings, one_line=False))
        limit = body_limit(settings, actor)
        rest = body  # the limit bounds the body given, not the description's text it starts with
        if whole and (body == whole or body.startswith(whole + "\n\n")):
            rest = body[len(whole):].lstrip("\n")
        rest = rest if limit is None else _cut(rest, limit, "body", warnings)
        body = trimmed_body(sanitize(carried(whole, rest), counts, "body", warnings))
    given = _printable(title or "", "title", warnings)
    title = given or kept_spelling(name)
    if title:
        title = sanitize(_cut(title, settings.limit_title, "title", warnings), counts, "title", warnings).strip()
    if not given and title and not same_name(name, normalized.name, title):
        # The name as written is kept as the title only to find the memory again by it: one the title
        # limit cuts could not be found by its own spelling, and two such names would share a file.
        raise InvalidName(
            f"memory name {written[:40] + '…' if len(written) > 40 else written!r} is too long "
            f"({len(written)} characters): names are kept as titles of at most {settings.limit_title} characters "
            "(limit_title) and this one would be cut; choose a shorter name and put the detail in the description")
    return normalized.name, description, type, body, title or None, counts, warnings


def kept_spelling(raw: str) -> str | None:
    """The title a memory named ``raw`` (a name as written) keeps of its spelling, or None: the hash
    slug's original (``部署流程`` of ``m-…``), else the name as written (:func:`memdir.text.names.raw_name`)
    when it differs from its normalized name by more than case (``C++ tips`` of ``c-tips``, ``café`` of
    ``cafe``; ``Dup`` of ``dup`` keeps none). The one rule of every write (:func:`prepare`) and of an
    import, whose sources name memories by file stems and keys (:mod:`memdir.importing.run`). Not cut to
    ``limit_title``. Raises :class:`InvalidName` as :func:`memdir.text.names.normalize_name` does."""
    normalized, written = normalize_name(raw), raw_name(raw)
    if normalized.title is not None:
        return normalized.title
    return written if written.lower() != normalized.name else None


def name_note(raw: str) -> str | None:
    """What a write of a new memory named ``raw`` says of its name, or None (``raw`` is its own
    normalized name, or differs by case only): the name it was normalized to, and whether ``raw`` is
    kept as the title. An update names the memory it updated instead
    (:func:`memdir.gateway.naming.check_same_name`). Raises :class:`InvalidName` as
    :func:`memdir.text.names.normalize_name` does."""
    normalized, written = normalize_name(raw), raw_name(raw)
    if normalized.title is not None:  # said as a Latin name's normalization is
        which = "no letters a-z or digits" if not re.search("[a-z0-9]", fold(written)) else "letters other than a-z"
        return (f"name {raw!r} has {which}; saved as {normalized.name!r} "
                f"with {written!r} as its title (either name finds it)")
    if normalized.name == written:
        return None
    return f"name {raw!r} was normalized to {normalized.name!r}" + (
        " (kept as the title)" if written.lower() != normalized.name else "")


def inherit(old: MemoryRecord | None, description: str | None, type: str | None, body: str | None,
            name: str | None = None, body_source: str | None = None, *, scope: str = "project"
            ) -> tuple[str, str, str]:
    """What a write keeps of the memory it updates or renames (``old``, a record, or None for a new
    memory) when a text field is not given (None): the one rule for every path (CLI, MCP, API, panel).

    Not given, an update or a rename keeps ``old``'s description, type and body; a new memory gets its
    layer's type (``scope``, the layer written: :func:`memdir.vocabulary.default_type`, ``user`` in the
    user layer, else ``project``) and an empty body, and must be given a description. A given value replaces: ``""`` as
    the body empties it (a description cannot be emptied). Returns (description, type, body); raises
    :class:`InvalidInput` for a new memory without a description (naming ``name``, the memory asked
    for, so a mistyped name reads as one).

    ``body_source`` names where a body read from a stream came from (``stdin``, ``--body-file F``): an
    empty (or white-space) one is refused with :class:`InvalidInput` when ``old`` has a body — a producer
    that failed in a pipe must not erase it; only a body given as such (``--body ''``, ``body=""``)
    empties it. For a new memory an empty stream is an empty body.
    """
    if old is None:
        if description is None:
            # named as each interface names it: ``description`` (library, tools), ``-d/--description`` (CLI)
            raise InvalidInput("{argument} is required for a new memory"
                               + (f" (there is no memory {name!r} to update)" if name else ""), argument="description")
        return description, type or default_type(scope), body or ""
    if description is None and not old.description:
        raise InvalidInput(f"memory {old.name!r} has no description; give one")
    if body_source and body is not None and not body.strip() and old.body:
        raise InvalidInput(f"{body_source} was empty; to empty the body say --body '' (body=\"\"). "
                           f"Nothing was written: memory {old.name!r} keeps its body")
    return (old.description if description is None else description, old.type if type is None else type,
            old.body if body is None else body)
