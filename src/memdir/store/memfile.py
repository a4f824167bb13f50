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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any

import yaml

from .errors import InvalidInput
from .names import normalize_name
from .vocabulary import ORIGINS, STATUSES, TYPE_IMPORTANCE, TYPES


_KNOWN_ORDER = (
    "name", "title", "description", "type", "pinned", "disabled", "importance",
    "created", "updated", "last_read", "reads", "origin", "status",
    "valid_from", "valid_until", "supersedes", "superseded_by",
)
_TIME_KEYS = ("created", "updated", "last_read", "valid_from", "valid_until")
_ALIASES = {"lastRead": "last_read", "lastread": "last_read", "validFrom": "valid_from",
            "validUntil": "valid_until", "supersededBy": "superseded_by"}
_NULLS = ("", "~", "null", "Null", "NULL")

try:  # the C loader/dumper are several times faster; the pure ones are identical in output
    _Loader = yaml.CSafeLoader
    _DumperBase = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader
    _DumperBase = yaml.SafeDumper


class MalformedMemory(InvalidInput):
    """A file that cannot be read as a memory; ``str()`` is the reason."""


@dataclass(frozen=True)
class MemoryRecord:
    """A memory as stored in one file.

    ``scope`` is not stored in the file: it is the layer the file lives in.
    Times are timezone-aware UTC datetimes; ``extra`` keeps unknown frontmatter
    keys, in order, so a rewrite does not drop what another tool wrote.
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

    @property
    def display_title(self) -> str:
        """The title when there is one, else the name."""
        return self.title or self.name

    @property
    def effective_importance(self) -> int:
        """Explicit importance, else the type default (feedback 8, user 7,
        project 6, reference 4; seed-behaviour §A5)."""
        return self.importance if self.importance is not None else TYPE_IMPORTANCE.get(self.type, 4)

    def with_(self, **changes) -> "MemoryRecord":
        """A copy with ``changes``."""
        return replace(self, **changes)


@dataclass(frozen=True)
class ParsedFile:
    """A parsed file: the record plus how it was read (``fallback`` = not valid
    YAML, read line by line; ``no_frontmatter`` = plain Markdown)."""

    record: MemoryRecord
    fallback: bool = False
    no_frontmatter: bool = False


# ---------------------------------------------------------------- times


def format_time(value: datetime) -> str:
    """ISO-8601 UTC with a ``Z``: ``2026-11-02T09:14:00Z``; microseconds only
    when the time has them (valid-time edges set by a supersede)."""
    value = value.astimezone(timezone.utc)
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ" if value.microsecond else "%Y-%m-%dT%H:%M:%SZ")


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
    the day before, local time)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.astimezone()
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
        return parsed if parsed.tzinfo else parsed.astimezone()
    except (ValueError, OverflowError, OSError):
        return None


# ---------------------------------------------------------------- serialize


class _Dumper(_DumperBase):
    def ignore_aliases(self, data):  # never `&id001`/`*id001`: equal times are written out twice
        return True


def _represent_time(dumper, value: datetime):
    return dumper.represent_scalar("tag:yaml.org,2002:timestamp", format_time(value))


_Dumper.add_representer(datetime, _represent_time)


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
    for key in ("created", "updated", "last_read"):
        if getattr(record, key) is not None:
            data[key] = getattr(record, key)
    if record.reads:
        data["reads"] = record.reads
    if record.origin:
        data["origin"] = record.origin
    data["status"] = record.status
    for key in ("valid_from", "valid_until", "supersedes", "superseded_by"):
        if getattr(record, key) is not None:
            data[key] = getattr(record, key)
    for key, value in record.extra:
        if key not in data:
            data[key] = value
    head = yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1 << 30,
        default_flow_style=False,
    )
    body = record.body.strip()
    return f"---\n{head}---\n\n{body}\n" if body else f"---\n{head}---\n"


# ---------------------------------------------------------------- parse


def _split(text: str) -> tuple[str, str] | None:
    """(frontmatter, body) or None when the text does not open with ``---``."""
    if not text.startswith("---\n") and text != "---":
        return None
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1:])
    raise MalformedMemory("frontmatter opened with --- but never closed")


def _scalar_text(node) -> str | None:
    """The text of a scalar node; None for a YAML null (plain ``~``/``null``/empty)."""
    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.style in (None, "") and node.value in _NULLS:
        return None
    return node.value


def _read_yaml(front: str) -> dict[str, Any]:
    """Frontmatter as {key: node-or-value}: known keys keep their YAML node."""
    try:
        root = yaml.compose(front, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise MalformedMemory(f"frontmatter is not valid YAML: {str(exc).splitlines()[0]}") from None
    if root is None:
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise MalformedMemory("frontmatter is not a YAML mapping")
    out: dict[str, Any] = {}
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        out[key_node.value] = value_node
    return out


def _read_lines(front: str) -> dict[str, Any]:
    """Fallback for frontmatter that is not valid YAML: plain ``key: value``
    lines, one level of nesting (``metadata:`` then indented lines)."""
    out: dict[str, Any] = {}
    parent: dict[str, Any] | None = None
    for line in front.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line[:1] in (" ", "\t")
        key, sep, value = line.strip().partition(":")
        if not sep or not key:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if indented and parent is not None:
            parent[key.strip()] = value
        elif not value:
            parent = {}
            out[key.strip()] = parent
        else:
            parent = None
            out[key.strip()] = value
    return out


def _as_written(value: Any, lines: list[str]) -> str | None:
    """The text a person reads on the line, for a one-line plain scalar YAML
    would change: a leading ``!`` read as a tag, a `` #`` read as a comment."""
    text = _text(value)
    if (isinstance(value, yaml.ScalarNode) and value.style in (None, "")
            and value.start_mark.line == value.end_mark.line and value.start_mark.line < len(lines)):
        raw = lines[value.start_mark.line][value.start_mark.column:].rstrip()
        if raw and raw != text and (raw.startswith("!") or " #" in raw):
            return raw
    return text


def _text(value: Any) -> str | None:
    if isinstance(value, yaml.Node):
        return _scalar_text(value)
    if value is None:
        return None
    return str(value)


def _construct(node: Any) -> Any:
    """A Python value for an unknown key, with dates and yes/no kept as text."""
    if not isinstance(node, yaml.Node):
        return node
    if isinstance(node, yaml.ScalarNode):
        text = _scalar_text(node)
        if text is None:
            return None
        if node.style in (None, ""):
            if text in ("true", "True", "TRUE"):
                return True
            if text in ("false", "False", "FALSE"):
                return False
            if re.fullmatch(r"[-+]?\d+", text):
                return int(text)
        return text
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item) for item in node.value]
    if isinstance(node, yaml.MappingNode):
        return {str(_construct(k)): _construct(v) for k, v in node.value}
    return None


def _flag(value: Any) -> bool:
    text = _text(value)
    return text is not None and text.strip().lower() == "true"


def _int(value: Any) -> int | None:
    text = _text(value)
    if text is None or not re.fullmatch(r"\s*\d{1,9}\s*", text):
        return None
    return int(text)


def _first_heading(body: str) -> str:
    for line in body.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip()
    for line in body.split("\n"):
        if line.strip():
            return line.strip().lstrip(">").strip()
    return ""


def _type_from_stem(stem: str) -> str:
    """Claude Code names files ``feedback_x.md``, ``project_y.md``…: with no
    ``type`` key, the prefix is what a person reads; else ``reference`` (seed)."""
    head = re.split(r"[_\-]", stem.lower(), maxsplit=1)[0]
    return head if head in TYPES else "reference"


def parse(text: str, stem: str) -> ParsedFile:
    """Parse the text of a file whose stem is ``stem`` into a record.

    The record's ``name`` is always the normalized file stem (the file name is
    the key). A frontmatter ``name`` that differs is kept as ``title`` when the
    file has none. Raises :class:`MalformedMemory` with the reason when the file
    is not a usable memory (empty, unclosed frontmatter, no description, unknown
    type or status, a stem that is not a name).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise MalformedMemory("file is empty")
    try:
        name = normalize_name(stem).name
    except InvalidInput as exc:
        raise MalformedMemory(f"file name is not a memory name: {exc}") from None
    split = _split(text)
    if split is None:
        body = text.strip()
        description = _first_heading(body)
        if not description:
            raise MalformedMemory("no frontmatter and no text to describe it")
        return ParsedFile(MemoryRecord(name=name, description=description[:500], body=body),
                          no_frontmatter=True)
    front, body = split
    fallback = False
    try:
        data = _read_yaml(front)
    except MalformedMemory:
        data = _read_lines(front)
        fallback = True
        if not data:
            raise
    for alias, key in _ALIASES.items():
        if alias in data and key not in data:
            data[key] = data.pop(alias)
    meta = data.get("metadata")
    meta_map: dict[str, Any] = {}
    if isinstance(meta, yaml.MappingNode):
        meta_map = {k.value: v for k, v in meta.value if isinstance(k, yaml.ScalarNode)}
    elif isinstance(meta, dict):
        meta_map = meta

    lines = front.split("\n")
    description = (_as_written(data.get("description"), lines) or "").strip()
    if not description:
        raise MalformedMemory("description is missing or empty")
    type_text = _text(data.get("type")) or _text(meta_map.get("type")) or _type_from_stem(stem)
    type_text = type_text.strip().lower()
    if type_text not in TYPES:
        raise MalformedMemory(f"type {type_text!r} is not one of {', '.join(TYPES)}")
    status = (_text(data.get("status")) or "active").strip().lower()
    if status not in STATUSES:
        raise MalformedMemory(f"status {status!r} is not one of {', '.join(STATUSES)}")
    origin = (_text(data.get("origin")) or "").strip().lower() or None
    if origin not in ORIGINS:
        origin = None
    title = (_as_written(data.get("title"), lines) or "").strip() or None
    declared = (_as_written(data.get("name"), lines) or "").strip()
    if not title and declared and declared != name:
        try:
            declared_norm = normalize_name(declared)
        except InvalidInput:
            declared_norm = None
        if declared_norm is None or declared_norm.name != name or declared_norm.title:
            title = declared
    importance = _int(data.get("importance"))
    if importance is not None and not 1 <= importance <= 10:
        importance = None
    extra = tuple(
        (key, _construct(value)) for key, value in data.items()
        if key not in _KNOWN_ORDER and key not in _ALIASES
    )
    record = MemoryRecord(
        name=name,
        description=description,
        type=type_text,
        body=body.strip(),
        title=title,
        pinned=_flag(data.get("pinned")),
        disabled=_flag(data.get("disabled")),
        importance=importance,
        created=parse_time(_text(data.get("created"))),
        updated=parse_time(_text(data.get("updated")) or _text(meta_map.get("modified"))),
        last_read=parse_time(_text(data.get("last_read"))),
        reads=_int(data.get("reads")) or 0,
        origin=origin,
        status=status,
        valid_from=parse_time(_text(data.get("valid_from"))),
        valid_until=parse_time(_text(data.get("valid_until")), end_of_day=True),
        supersedes=(_text(data.get("supersedes")) or None),
        superseded_by=(_text(data.get("superseded_by")) or None),
        extra=extra,
    )
    return ParsedFile(record, fallback=fallback)
