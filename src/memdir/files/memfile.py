"""One memory file: the record, and parsing and serializing it (DESIGN §3).

A file is ``---\\n`` + YAML frontmatter + ``---\\n\\n`` + Markdown body + ``\\n``.
Writing always emits valid YAML from PyYAML's serializer: strings YAML would
retype (``no``, ``null``, dates, numbers, ``#``, ``: ``) are quoted, UTF-8 with
no BOM, ``\\n`` line ends, times as ISO-8601 UTC (``2026-11-02T09:14:00Z``).

Reading accepts what the seeds and Claude Code write: ``type`` at the top level
or under ``metadata:``, epoch-millisecond or ISO-8601 times (naive = UTC), CRLF,
a UTF-8 BOM, folded scalars, and — because about 2 % of real Claude Code
frontmatter is not valid YAML — a fallback that reads plain ``key: value``
lines. A file with no frontmatter at all is read under its file stem with its
first heading as description. Scalars are read from YAML's node tree, so
``name: no`` is the string ``no`` and ``pinned: "false"`` is false.

Foreign vocabulary is read, not refused (DESIGN §3): a type outside the four
is kept as written (it orders as ``reference``), a status outside memdir's is
kept in the file while the memory counts as active, a missing description
falls back to the title or the body's first line, and unknown keys are
written back byte for byte. Each such leniency is a note on the parsed file
(``doctor`` lists them). Refused whatever else: YAML anchors and aliases
(``&a``/``*a``, which can expand a few hundred bytes into gigabytes) and a
frontmatter over :data:`MAX_FRONTMATTER_BYTES`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from ..errors import InvalidInput
from ..paths import sha256
from ..text.names import normalize_name
from ..text.printable import display_title, one_line, trimmed_body
from ..text.values import value_of
from ..vocabulary import ORIGINS, STATUSES, TYPE_IMPORTANCE, TYPES
from .frontmatter import (
    MalformedMemory,
    as_written,
    construct,
    fallback_fix,
    first_heading,
    flag,
    items_written,
    integer,
    read_front,
    split,
    text_of,
)

_KNOWN_ORDER = (
    "name", "title", "description", "type", "pinned", "disabled", "importance",
    "created", "updated", "last_read", "reads", "origin", "status",
    "valid_from", "valid_until", "supersedes", "superseded_by",
)
_TIME_KEYS = ("created", "updated", "last_read", "valid_from", "valid_until")
_ALIASES = {"lastRead": "last_read", "lastread": "last_read", "validFrom": "valid_from",
            "validUntil": "valid_until", "supersededBy": "superseded_by"}

@dataclass(frozen=True)
class MemoryRecord:
    """A memory as stored in one file.

    ``scope`` is not stored in the file: it is the layer the file lives in.
    Times are timezone-aware UTC datetimes; ``extra`` keeps unknown frontmatter
    keys, in order, so a rewrite does not drop what another tool wrote, and
    ``extra_source`` their text as read (key, value read, text), so a rewrite
    that leaves a value alone writes its bytes back unchanged.
    ``written_status`` is a status outside memdir's vocabulary as the file
    wrote it (``draft``): the memory is ``active``, the file keeps the word.
    ``reads`` and ``last_read`` are usage, not content: a layer's records carry
    what :mod:`memdir.layer.usage` recorded (an older file's own values until
    then), and :func:`serialize` writes neither.
    ``file_stem`` is the stem of the file the record was read from when it is not
    the name (a file placed by hand: ``Upper.Case name.md``, ``feedback_x.md``),
    so the index links the file that is there (:func:`memdir.layer.index.index_line`);
    None for a file named ``<name>.md``. Not content: never written, never compared.
    """

    name: str
    description: str
    type: str = "reference"
    body: str = ""
    title: str | None = None
    pinned: bool = False
    disabled: bool = False
    importance: int | None = None
    created: datetime | None = None
    updated: datetime | None = None
    last_read: datetime | None = None
    reads: int = 0
    origin: str | None = None
    status: str = "active"
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    extra: tuple[tuple[str, Any], ...] = field(default=(), compare=True)
    extra_source: tuple[tuple[str, Any, str], ...] = field(default=(), compare=False, repr=False)
    written_status: str | None = field(default=None, compare=False)
    file_stem: str | None = field(default=None, compare=False, repr=False)

    @property
    def display_title(self) -> str:
        """The title when there is one, else the name, on one line (:func:`memdir.text.printable.display_title`)."""
        return display_title(self.title, self.name)

    @property
    def effective_importance(self) -> int:
        """Explicit importance, else the type default (feedback 8, user 7,
        project 6, reference 4; seed-behaviour §A5)."""
        return self.importance if self.importance is not None else TYPE_IMPORTANCE.get(self.type, 4)

    def with_(self, **changes) -> "MemoryRecord":
        """A copy with ``changes``."""
        return replace(self, **changes)


def duplicate_key(description: str | None, body: str | None) -> str:
    """What two memories must share to be exact duplicates (:mod:`memdir.gateway.duplicates`, issue 24
    §5): the same value, :func:`memdir.text.values.value_of` — the rule a tombstone's strictest match
    uses, so case, Unicode form (NFC/NFD), spacing and accents make no other copy."""
    return value_of(description or "", body or "")


_RUN = None  # re.compile(r"[a-z0-9]+"), made on first use: the hot path loads no re


def may_hold(data: bytes, stem: str, key: str) -> bool:
    """Whether the file ``<stem>.md`` of bytes ``data`` may hold a memory whose :func:`duplicate_key` is
    ``key``, without parsing it: False only when it cannot — a cheap sieve before :func:`parse` (a write
    looks for a copy of its text among files no one has read yet, issue 28 §7). The one case it decides:
    printable ASCII text and line breaks, no backslash (a YAML escape could spell any letter), under an
    ASCII stem. Every letter of such a file's value then comes from its text or its stem as written,
    lower-cased, and nothing :func:`parse` or :func:`memdir.text.values.normalize_value` does joins two
    words (line breaks become spaces, items are joined by ``"; "``, a cut only shortens); so ``key`` is not
    its value when ``key`` holds a character that is not ASCII, or a run of letters and digits that is in
    neither the text nor the stem. Any other file: True."""
    global _RUN
    hay = plain_text(data, stem)
    if hay is None:
        return True
    if not key.isascii():
        return False
    if _RUN is None:
        import re

        _RUN = re.compile(r"[a-z0-9]+")
    return all(run in hay for run in set(_RUN.findall(key)))


def plain_text(data: bytes, stem: str) -> str | None:
    """``<stem>\\n<text>`` lower-cased, for a file ``<stem>.md`` of bytes ``data`` whose memory's every letter
    comes from it as written (:func:`may_hold`'s one case: printable ASCII and line breaks, no backslash, an
    ASCII stem); None for any other file, of which nothing is known without :func:`parse`."""
    if not (data.isascii() and stem.isascii()) or b"\\" in data:
        return None
    text = data.decode("ascii")
    if not text.replace("\n", "").replace("\r", "").isprintable():  # a control (a tab, an escape) may be dropped
        return None
    return f"{stem}\n{text}".lower()


def text_digest(description: str | None, body: str | None) -> str:
    """SHA-256 hex of :func:`duplicate_key`: equal for exact duplicates, so a layer keeps it per file
    (:class:`memdir.files.scan.FileState`) and a write finds a copy without reading every memory."""
    return sha256(duplicate_key(description, body).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ParsedFile:
    """A parsed file: the record plus how it was read (``fallback`` = not valid
    YAML, read line by line; ``no_frontmatter`` = plain Markdown) and
    ``notes``: each leniency used (a foreign type or status, a description
    taken from elsewhere), for ``doctor``. ``type_said``: whether the file says its type (a ``type`` key,
    top level or under ``metadata``); False when the record's type is the default (:func:`type_from_stem`)."""

    record: MemoryRecord
    fallback: bool = False
    no_frontmatter: bool = False
    notes: tuple[str, ...] = ()
    type_said: bool = False


# ---------------------------------------------------------------- times


def format_time(value: datetime) -> str:
    """ISO-8601 UTC with a ``Z``: ``2026-11-02T09:14:00Z``; microseconds only
    when the time has them (valid-time edges set by a supersede)."""
    value = value.astimezone(timezone.utc)  # each part zero-padded (strftime writes year 1 as "1-01-02"), no strftime:
    fraction = f".{value.microsecond:06d}" if value.microsecond else ""  # a list formats 10,000 times or more
    return (f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:{value.minute:02d}:"
            f"{value.second:02d}{fraction}Z")


MIN_YEAR, MAX_YEAR = 1000, 9998
"""Years a time argument may name (:func:`time_note`): four digits, with
room for the end of a local day and any UTC offset at either end."""


def time_note(value: Any, parsed: datetime) -> tuple[str, str]:
    """``(refusal, note)`` for a time argument ``value`` read as ``parsed``
    (see :func:`parse_time`): a refusal when its year is outside
    :data:`MIN_YEAR`–:data:`MAX_YEAR`; a note when a local time without a zone
    does not exist (a daylight-saving gap) and was read one way. ``""`` when
    there is nothing to say."""
    if not MIN_YEAR <= parsed.astimezone(timezone.utc).year <= MAX_YEAR:
        return f"the year must be from {MIN_YEAR} to {MAX_YEAR} (got {value!r})", ""
    if isinstance(value, str) and "T" in value.strip().replace(" ", "T", 1) and not re.search(
            r"(Z|z|[+-]\d{2}(:?\d{2})?)$", value.strip()):
        try:
            naive = datetime.fromisoformat(value.strip().replace(" ", "T", 1))
        except ValueError:
            return "", ""
        if naive.tzinfo is None and parsed.astimezone().replace(tzinfo=None) != naive:
            return "", (f"{value} does not exist in local time (a daylight-saving gap); "
                        f"read as {parsed.astimezone().isoformat()}")
    return "", ""


def parse_time(value: Any, *, end_of_day: bool = False) -> datetime | None:
    """Read a time: ISO-8601 (``Z``, offsets, fractions), a date, or epoch
    milliseconds (seconds when the number is too small to be ms). Returns an
    aware datetime, or None for anything else; never raises.

    DESIGN §3: a time without a zone is local time (the ``TZ`` of this
    process), and a date alone means that whole local day — its first
    instant, or with ``end_of_day`` (a ``valid_until``) the first instant of
    the next local day, so the fact holds through the day's last second.
    ``TZ=America/Los_Angeles`` and ``2025-03-31`` as ``valid_until`` give
    ``2025-04-01T07:00:00Z``, not ``2025-03-31T00:00:00Z`` (expired at 17:00
    the day before, local time).

    A time that has no UTC instant (``0001-01-01T00:00:00+14:00``, or
    ``9999-12-31T23:59`` read in a zone west of UTC) reads as None, as any
    other time that does not read: every reader converts to UTC.
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, datetime):
        try:
            return _in_utc_range(value if value.tzinfo else value.astimezone())
        except (OverflowError, ValueError, OSError):
            return None
    text = str(value).strip()
    if not text:
        return None
    if re.fullmatch(r"\d{1,16}(\.\d+)?", text):
        number = float(text)
        if number <= 0:
            return None
        seconds = number / 1000 if number >= 1e11 else number
        try:
            return datetime.fromtimestamp(seconds, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text.replace(" ", "T", 1) if "T" not in text else text)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) and end_of_day:
            parsed += timedelta(days=1)  # naive: the next local midnight, whatever DST does that night
        return _in_utc_range(parsed if parsed.tzinfo else parsed.astimezone())
    except (ValueError, OverflowError, OSError):
        return None


def _in_utc_range(moment: datetime) -> datetime | None:
    """``moment`` when it has a UTC instant, else None (break36: a hand-edited
    ``created: 0001-01-01T00:00:00+14:00`` raised OverflowError out of list,
    search and doctor, where every reader turns times into UTC days)."""
    try:
        moment.astimezone(UTC)
    except (OverflowError, ValueError, OSError):
        return None
    return moment


# ---------------------------------------------------------------- serialize


@lru_cache(maxsize=1)
def _dumper():
    """PyYAML's safe dumper as memdir writes (libyaml's C one, several times faster, else the pure one: identical
    output): times in :func:`format_time`, never an alias. Made by the first write: PyYAML loads only where a file
    is read or written (:func:`memdir.files.frontmatter.read_yaml`)."""
    import yaml

    class Dumper(getattr(yaml, "CSafeDumper", None) or yaml.SafeDumper):
        def ignore_aliases(self, data):  # never `&id001`/`*id001`: equal times are written out twice
            return True

    Dumper.add_representer(datetime, _represent_time)
    return Dumper


def _represent_time(dumper, value: datetime):
    return dumper.represent_scalar("tag:yaml.org,2002:timestamp", format_time(value))


def serialize(record: MemoryRecord) -> str:
    """The exact text of ``record``'s file. Pure; deterministic for equal records."""
    data: dict[str, Any] = {"name": record.name}
    if record.title:
        data["title"] = record.title
    data["description"] = record.description
    data["type"] = record.type
    if record.pinned:
        data["pinned"] = True
    if record.disabled:
        data["disabled"] = True
    if record.importance is not None:
        data["importance"] = record.importance
    for key in ("created", "updated"):  # never reads/last_read: usage is not content (memdir.layer.usage)
        if getattr(record, key) is not None:
            data[key] = getattr(record, key)
    if record.origin:
        data["origin"] = record.origin
    data["status"] = record.written_status if record.status == "active" and record.written_status else record.status
    for key in ("valid_from", "valid_until", "supersedes", "superseded_by"):
        if getattr(record, key) is not None:
            data[key] = getattr(record, key)
    sources = {key: (value, text) for key, value, text in record.extra_source}
    verbatim = []
    for key, value in record.extra:
        if key in data:
            continue
        source = sources.get(key)
        if source is not None and source[0] == value:
            verbatim.append(source[1])  # unchanged: its bytes as the other tool wrote them
        else:
            data[key] = value
    import yaml

    head = yaml.dump(
        data, Dumper=_dumper(), sort_keys=False, allow_unicode=True, width=1 << 30,
        default_flow_style=False,
    ) + "".join(verbatim)
    body = trimmed_body(record.body)
    return f"---\n{head}---\n\n{body}\n" if body else f"---\n{head}---\n"


# ---------------------------------------------------------------- parse


def stem_type(stem: str) -> str | None:
    """The type a file's stem names (Claude Code names files ``feedback_x.md``, ``project_y.md``…), or
    None when its prefix is no type. The one rule of it: :func:`type_from_stem` reads a stored file by
    it, an import gives a file whose stem names none its layer's type
    (:func:`memdir.vocabulary.default_type`, :mod:`memdir.importing.run`)."""
    head = re.split(r"[_\-]", stem.lower(), maxsplit=1)[0]
    return head if head in TYPES else None


def type_from_stem(stem: str) -> str:
    """With no ``type`` key, a stored file's type: the one its stem names (:func:`stem_type`); else
    ``reference`` (seed). For :func:`parse`."""
    return stem_type(stem) or "reference"


def _read_front(front: str) -> tuple[dict[str, Any], dict[str, str], tuple[str, ...], bool]:
    """The frontmatter's keys (YAML, else line by line: ``fallback``), their sources, the keys written
    twice, with the foreign spellings of keys read as memdir's. Raises :class:`MalformedMemory`."""
    data, sources, twice, fallback = read_front(front)
    for alias, key in _ALIASES.items():
        if alias in data and key not in data:
            data[key] = data.pop(alias)
    return data, sources, twice, fallback


def as_read(text: str) -> str:
    """``text`` as :func:`parse` reads a memory file: a leading byte-order mark dropped, every ``\r\n`` and
    lone ``\r`` a ``\n``. Pure; text without either is returned as it is."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def bytes_as_read(data: bytes) -> bytes:
    """:func:`as_read` of a file's bytes, without decoding them (a ``\r`` byte is never part of a UTF-8
    sequence): what a merge compares, so line ends never make a conflict the reader would not see."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data else data


def declared_name(text: str) -> str | None:
    """The memory name the frontmatter of ``text`` declares — its ``name`` key read as :func:`parse` reads
    it (YAML in any style, quoted or not, else line by line), normalized — or None: no frontmatter, no
    name, not a memory name, frontmatter that cannot be read. For bytes whose file name is not known (a
    version a killed writer stored: :func:`memdir.layer.commit.cut_write`). Never raises."""
    parts = split(as_read(text))
    if parts is None:
        return None
    try:
        data = _read_front(parts[0])[0]
    except MalformedMemory:
        return None
    declared = one_line(as_written(data.get("name"), parts[0].split("\n")))
    try:
        return normalize_name(declared).name if declared else None
    except InvalidInput:
        return None


def name_of_file(filename: str) -> str | None:
    """The memory name a file called ``filename`` (``<stem>.md``) holds when it holds one: its stem
    normalized (:func:`memdir.text.names.normalize_name`: ``DB Port.md`` and ``db-port.md`` hold
    ``db-port``; a name spelled in NFC or NFD, ``café`` either way, holds ``cafe``) — :func:`parse`'s
    ``record.name``, known without reading the file (whether the file is a readable memory is the
    parse's to say). None when the stem is no memory name (the parse refuses such a file)."""
    try:
        return normalize_name(filename.removesuffix(".md")).name
    except InvalidInput:
        return None


def parse(text: str, stem: str) -> ParsedFile:
    """Parse the text of a file whose stem is ``stem`` into a record.

    The record's ``name`` is always the normalized file stem (the file name is
    the key, DESIGN §3). A frontmatter ``name`` written as words that differs is
    kept as ``title`` when the file has none, and so is a memory name the stem ends
    with (Claude Code names its files ``<type>_<name>.md``); another memory name
    (``pg-port`` in ``db-port.md``: the file was renamed) is not the memory's name
    nor its title, and a note says so. Title and description are read as one line
    (:func:`memdir.text.printable.one_line`). Raises :class:`MalformedMemory`
    with the reason when the file is not a usable memory (empty, unclosed
    frontmatter, YAML anchors or aliases, frontmatter over the cap, nothing to
    describe it by, a stem that is not a name).
    """
    text = as_read(text)
    if not text.strip():
        raise MalformedMemory("file is empty")
    try:
        normalized = normalize_name(stem)
    except InvalidInput as exc:
        raise MalformedMemory(f"file name is not a memory name: {exc}") from None
    name = normalized.name
    parts = split(text)
    if parts is None:
        body = text.strip()
        description = one_line(first_heading(body))
        if not description:
            raise MalformedMemory("no frontmatter and no text to describe it")
        # Claude Code adds no frontmatter to a file that has none: its type is in its name (project_x.md)
        return ParsedFile(MemoryRecord(name=name, description=description[:500], type=type_from_stem(stem), body=body,
                                       title=normalized.title, file_stem=None if stem == name else stem),
                          no_frontmatter=True)
    front, body = parts
    data, sources, twice, fallback = _read_front(front)
    meta = data.get("metadata")
    meta_map: dict[str, Any] = {}
    import yaml  # loaded already: read_yaml read the frontmatter

    if isinstance(meta, yaml.MappingNode):
        meta_map = {k.value: v for k, v in meta.value if isinstance(k, yaml.ScalarNode)}
    elif isinstance(meta, dict):
        meta_map = meta

    lines = front.split("\n")
    notes: list[str] = [f"frontmatter key {key!r} is written more than once: the last one is read" for key in twice]
    if fallback and (fix := fallback_fix(front)):  # the how of the fallback's note (scan.FALLBACK_NOTE)
        notes.append(fix)
    type_written = one_line(text_of(data.get("type")) or text_of(meta_map.get("type")))
    type_text = type_written.lower() if type_written.lower() in TYPES else type_written
    if not type_text:
        type_text = type_from_stem(stem)
    elif type_text not in TYPES:
        notes.append(f"type {type_text!r} is not one of {', '.join(TYPES)}: kept, ordered as reference")
    status_written = one_line(text_of(data.get("status")) or text_of(meta_map.get("status")))
    status = status_written.lower() or "active"
    written_status = None
    if status not in STATUSES:
        notes.append(f"status {status_written!r} is not one of {', '.join(STATUSES)}: kept, read as active")
        status, written_status = "active", status_written
    origin = (text_of(data.get("origin")) or "").strip().lower() or None
    if origin not in ORIGINS:
        origin = None
    title = one_line(items_written(data.get("title"), lines)) or None
    declared = one_line(as_written(data.get("name"), lines))
    stale = None  # a memory name other than the stem: the file was renamed (the stem is the name, DESIGN §3)
    if declared and declared != name:
        try:
            declared_norm = normalize_name(declared)
        except InvalidInput:
            declared_norm = None
        if (declared_norm is not None and declared_norm.name == declared and not declared_norm.title
                and not name.endswith("-" + declared)):  # not Claude Code's <type>_<name>.md (a title then)
            stale = declared
            notes.append(f"frontmatter name {declared!r} is not the file's name: read as {name!r} (the file name)")
        elif not title and (declared_norm is None or declared_norm.name != name or declared_norm.title):
            title = declared  # a name written as words (``Squash merges only``): how the memory is shown
    if not title and normalized.title:  # a hand-made 회의록.md: its file name is its only spelling (NFC)
        title = normalized.title
    description = one_line(items_written(data.get("description"), lines))
    if description and isinstance(data.get("description"), (yaml.SequenceNode, yaml.MappingNode)):
        notes.append("description written as a list: read as its items joined by '; '")
    if not description:
        description = title or stale or one_line(first_heading(body))[:500]
        if not description:
            raise MalformedMemory("no description, title or text to describe it")
        notes.append("no description: " + ("the title stands in" if title else "the name written in it stands in"
                                           if stale else "the body's first line stands in"))
    importance = integer(data.get("importance"))
    if importance is not None and not 1 <= importance <= 10:
        importance = None
    extra = tuple(
        (key, construct(value)) for key, value in data.items()
        if key not in _KNOWN_ORDER and key not in _ALIASES
    )
    extra_source = tuple((key, value, sources[key]) for key, value in extra if key in sources)
    record = MemoryRecord(
        name=name,
        description=description,
        type=type_text,
        body=trimmed_body(body),
        title=title,
        pinned=flag(data.get("pinned")),
        disabled=flag(data.get("disabled")),
        importance=importance,
        created=parse_time(text_of(data.get("created"))),
        updated=parse_time(text_of(data.get("updated")) or text_of(meta_map.get("modified"))),
        last_read=parse_time(text_of(data.get("last_read"))),
        reads=integer(data.get("reads")) or 0,
        origin=origin,
        status=status,
        valid_from=parse_time(text_of(data.get("valid_from"))),
        valid_until=parse_time(text_of(data.get("valid_until")), end_of_day=True),
        supersedes=(text_of(data.get("supersedes")) or None),
        superseded_by=(text_of(data.get("superseded_by")) or None),
        extra=extra,
        extra_source=extra_source,
        written_status=written_status,
        file_stem=None if stem == name else stem,
    )
    return ParsedFile(record, fallback=fallback, notes=tuple(notes), type_said=bool(type_written))
