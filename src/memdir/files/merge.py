"""A memory file merged field by field: the team layer's git merge driver (DESIGN §11).

Two people who change different fields of one team memory — one the
description, the other the body — both also move ``updated:``; git's line
merge calls that a conflict, and a conflicted file leaves every agent's
context until someone settles it. :func:`merge` merges the way a memory is
built instead:

* the frontmatter key by key, three ways: a key one side changed takes that
  side's value (a key one side removed and the other left alone goes); both
  changed it alike, that value; both changed it differently, a conflict hunk
  of that key alone (``<<<<<<< ours (description)``…). memdir's own clock
  keys never conflict: ``updated`` and ``last_read`` take the later time,
  ``created`` the earlier, ``reads`` the larger count;
* the body with ``git merge-file`` (:func:`memdir.git.merge_file`): hunks
  only where both sides changed the same lines;
* one side retiring the memory (``status: superseded``: renamed or
  superseded) while the other changed it: the retiring keys are hunks, so
  the edit is not buried in a retired file unseen (a person chooses).

Each side is first read as the reader reads a memory file
(:func:`memdir.files.memfile.bytes_as_read`: a byte-order mark dropped, CRLF and CR line ends as LF), so line
ends alone never make a conflict — a side saved with CRLF merges field by field with one saved with LF — and
the result is written with LF, as memdir writes every file.

A side that is not a memory file memdir can split into blocks (no ``---``
frontmatter, a key twice, markers already in it, frontmatter
over its cap, merged keys that no longer read as YAML) is merged whole by
``git merge-file``: no text is ever dropped, and any conflict leaves markers
in the file, so the scan reports it and never injects it
(:mod:`memdir.files.conflicts`).

The driver is registered by ``memdir team init`` (:data:`ATTRIBUTE` in the
team directory's ``.gitattributes``, :func:`driver_command` in the clone's
``.git/config``) and run by git as ``memdir merge-file %O %A %B %P``
(:func:`merge_paths`: the result replaces ``%A``; exit 0 clean, 1 conflicts).
:func:`resolve_fields` settles the hunks of a conflicted file per field.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ..errors import StoreError
from ..git import merge_file
from .conflicts import Hunk, has_conflict, segments
from .frontmatter import MAX_FRONTMATTER_BYTES, MalformedMemory, read_yaml
from .fsio import read_bytes
from .memfile import bytes_as_read, parse_time

DRIVER = "memdir"  # the merge driver's name in .gitattributes and git config (merge.memdir.*)
ATTRIBUTE = f"*.md merge={DRIVER}"  # the .gitattributes line of the team directory
DRIVER_ARGS = "merge-file %O %A %B %P"  # git's placeholders: base, ours (the result), theirs, the path
DRIVER_LINE = f'git config merge.{DRIVER}.driver "memdir {DRIVER_ARGS}"'  # what a person runs in another clone
BODY = "body"  # the field name of the body in conflicts and in resolve_fields
MAX_BYTES = 16 * 1024 * 1024  # a side larger than this is merged whole by git (the file-size ceiling's top)
_LATER, _EARLIER, _LARGER = ("updated", "last_read"), ("created",), ("reads",)
_KEY = re.compile(r"([^\s#\-:'\"][^:]*|'[^']*'|\"[^\"]*\")[ \t]*:(?:[ \t]|$)")


@dataclass(frozen=True)
class Merged:
    """A merge's bytes and the fields left with conflict hunks, in file
    order (``body`` for the body; ``file`` when the sides were merged whole); ``ceiling``: the file-size
    ceiling (bytes, ``max_file_bytes``) a clean merge's ``data`` is over, else 0 — memdir would not read
    the file, so the driver reports it as a conflict rather than let the memory leave every context unsaid."""

    data: bytes
    conflicts: tuple[str, ...]
    ceiling: int = 0
    retired_by: str = ""  # "ours" | "theirs": the side that retired the memory while the other changed it
    retiring: tuple[str, ...] = ()  # the conflicts that side alone changed (status, valid_until, superseded_by…)

    @property
    def clean(self) -> bool:
        """Whether git may take the merge as done: no conflict hunk and not over the ceiling."""
        return not self.conflicts and not self.ceiling


def driver_command(program: str) -> str:
    """The ``merge.memdir.driver`` value that runs the driver with ``program``
    (a command line, e.g. this Python's ``python -m memdir``)."""
    return f"{program} {DRIVER_ARGS}"


def missing_program(command: str, root: str | os.PathLike) -> str | None:
    """The program a registered driver ``command`` runs when it is not there (an absolute or relative path
    that is no executable file: a virtualenv removed or rebuilt elsewhere; a bare name on no ``PATH``
    directory), else None — also for a command this cannot read (quoting, a leading ``VAR=value``), which
    git alone judges. git runs a driver it cannot start all the same and takes its failure for a conflict,
    leaving ``%A`` — ours alone, no marker — in the work tree: a file that passes for settled, whose
    ``git add`` drops the other side's text. ``root``: the clone's top, where git runs drivers."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or "=" in words[0]:
        return None
    program = words[0]
    if "/" in program or os.sep in program:
        path = os.path.join(os.fspath(root), os.path.expanduser(program))
        return None if os.path.isfile(path) and os.access(path, os.X_OK) else program
    return None if shutil.which(program) else program


def python_program(executable: str) -> str:
    """``executable -m memdir``, quoted for the shell git runs drivers in."""
    return f"{shlex.quote(executable)} -m memdir"


# ---------------------------------------------------------------- merging


def merge(base: bytes, ours: bytes, theirs: bytes) -> Merged:
    """``ours`` and ``theirs`` merged from ``base`` field by field (see the
    module docstring); ``base`` is empty when both sides added the file.
    Raises :class:`StoreError` only when git itself cannot merge."""
    # line ends as the reader reads them: CRLF against LF is no change of a field, so no whole-file conflict
    base, ours, theirs = (bytes_as_read(data) for data in (base, ours, theirs))
    sides = [_split(data) for data in (base, ours, theirs)]
    if None in sides:
        return _whole(base, ours, theirs)
    (base_keys, base_body), (our_keys, our_body), (their_keys, their_body) = sides
    blocks: list[str] = []
    conflicts: list[str] = []
    held, retired_by = _retirement_held(sides)
    for key in _key_order(base_keys, our_keys, their_keys):
        b, o, t = base_keys.get(key), our_keys.get(key), their_keys.get(key)
        chosen = _CONFLICT if key in held and o != t else _three_way(key, b, o, t)
        if chosen is _CONFLICT:
            conflicts.append(key)
            blocks.append(f"<<<<<<< ours ({key})\n{o or ''}=======\n{t or ''}>>>>>>> theirs ({key})\n")
        elif chosen is not None:
            blocks.append(chosen)
    head = "".join(blocks)
    if not conflicts:
        try:
            read_yaml(head)
        except MalformedMemory:  # two good halves that do not make one mapping: git decides, whole
            return _whole(base, ours, theirs)
    body = _three_way(BODY, base_body, our_body, their_body)
    if body is _CONFLICT:
        merged, count = merge_file(our_body.encode("utf-8"), base_body.encode("utf-8"), their_body.encode("utf-8"))
        body = merged.decode("utf-8", "surrogateescape")
        if count:
            conflicts.append(BODY)
            if not has_conflict(f"---\n{head}---\n{body}".encode("utf-8", "surrogateescape")):
                body = _hunk(our_body, their_body, f" ({BODY})")  # git's hunks fell inside a fenced code block
    data = f"---\n{head}---\n{body}".encode("utf-8", "surrogateescape")
    retiring = tuple(key for key in conflicts if key in held)
    return _shown(Merged(data, tuple(conflicts), retired_by=retired_by if retiring else "", retiring=retiring),
                  ours, theirs)


_CONFLICT = object()
_CLOCK = _LATER + _EARLIER + _LARGER


def _retirement_held(sides) -> tuple[frozenset[str], str]:
    """The keys by which one side retired the memory (``status: superseded``: a rename or a supersede moved
    its fact to another file) while the other side changed what it says (the body or any key but the clock
    keys): a merge that took both would bury that side's edit in a retired file, out of every index with no
    word said, so each such key is a conflict hunk and a person chooses (ours keeps it live with the edit,
    theirs retires it), with the side that retired it (``ours`` | ``theirs``). Empty (and "") when neither side
    or both retired it."""
    (base, base_body), *pairs = sides
    retired = [_status(keys) == "superseded" != _status(base) for keys, _ in pairs]
    if retired[0] == retired[1]:
        return frozenset(), ""
    (gone, _), (kept, kept_body) = pairs if retired[0] else pairs[::-1]
    edited = kept_body != base_body or any(
        kept.get(key) != base.get(key) for key in {*kept, *base} if key not in _CLOCK)
    side = "ours" if retired[0] else "theirs"
    if not edited:
        return frozenset(), side
    return frozenset(key for key in {*gone, *base} - set(_CLOCK) if gone.get(key) != base.get(key)), side


def _status(keys: dict[str, str]) -> str:
    block = keys.get("status")
    return block.split(":", 1)[1].strip().strip("'\"").lower() if block else "active"


def _three_way(key: str, base: str | None, ours: str | None, theirs: str | None):
    """The merged text of one field (None: the field goes), or :data:`_CONFLICT`."""
    if ours == theirs:
        return ours
    if ours == base:
        return theirs
    if theirs == base:
        return ours
    if ours is not None and theirs is not None and key in _CLOCK:
        rank = _rank(key, ours), _rank(key, theirs)
        if None not in rank:
            later = rank[1] > rank[0]
            return theirs if later == (key not in _EARLIER) else ours
    return _CONFLICT


def _rank(key: str, block: str):
    value = block.split(":", 1)[1].strip().strip("'\"")
    if key in _LARGER:
        return int(value) if value.isdigit() else None
    return parse_time(value)


def _key_order(*sides: dict[str, str]) -> list[str]:
    """Ours' keys in ours' order, then keys only theirs has, in theirs' order."""
    base, ours, theirs = sides
    order = list(ours)
    order += [key for key in theirs if key not in ours]
    order += [key for key in base if key not in order]  # removed on a side: _three_way decides
    return order


def _split(data: bytes) -> tuple[dict[str, str], str] | None:
    """(frontmatter blocks by key, body after the closing ``---`` line) of a
    memory file memdir can merge by field; ``({}, "")`` for an empty file (no
    base); None for anything to merge whole (see the module docstring)."""
    if not data:
        return {}, ""
    if len(data) > MAX_BYTES or has_conflict(data):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0 or end > MAX_FRONTMATTER_BYTES:
        return None
    blocks: dict[str, str] = {}
    key = None
    for line in text[4:end + 1].splitlines(keepends=True):
        match = _KEY.match(line)
        if match:  # a key at the left edge opens a block; indented lines, list items, comments continue it
            key = match.group(1).strip("'\"")
            if key in blocks:
                return None
            blocks[key] = line
        elif key is None:
            return None  # text before the first key: merged whole
        else:
            blocks[key] += line
    try:  # the blocks must be what YAML reads: the same keys, each once
        values, _, twice = read_yaml(text[4:end + 1])
    except MalformedMemory:
        return None
    if twice or list(values) != list(blocks):
        return None
    return blocks, text[end + 5:]


def _whole(base: bytes, ours: bytes, theirs: bytes) -> Merged:
    merged, count = merge_file(ours, base, theirs)
    return _shown(Merged(merged, ("file",) if count else ()), ours, theirs)


def _hunk(ours, theirs, label: str = ""):
    """One conflict hunk of the two sides whole (both str or both bytes), each ending its last line."""
    text = isinstance(ours, str)
    nl = "\n" if text else b"\n"
    mine, other = (side if side.endswith(nl) or not side else side + nl for side in (ours, theirs))
    hunk = f"<<<<<<< ours{label}\n{{}}=======\n{{}}>>>>>>> theirs{label}\n"
    if text:
        return hunk.format(mine, other)
    start, middle, end = (part.encode("utf-8") for part in hunk.split("{}"))
    return start + mine + middle + other + end


def _shown(merged: Merged, ours: bytes, theirs: bytes) -> Merged:
    """``merged`` when it has no conflict or its markers read as a conflict
    (:func:`memdir.files.conflicts.has_conflict`); else the two sides whole in one
    hunk. Markers git wrote inside what reads as fenced code (a body's code block
    both sides changed, a fence opened in the frontmatter) read as text: the file
    would pass for a settled memory, be injected and called settled by ``team status``
    while git holds it unmerged, and be committed with the markers in it."""
    if not merged.conflicts or has_conflict(merged.data):
        return merged
    return Merged(_hunk(ours, theirs), ("file",))


def merge_sides(base: bytes, ours: bytes, theirs: bytes) -> Merged:
    """:func:`merge`, or when even git cannot merge, both sides in one conflict hunk (never ours alone: a
    file without markers would pass for settled). Never raises."""
    try:
        return merge(base, ours, theirs)
    except (StoreError, ValueError, RecursionError):
        return Merged(_hunk(ours, theirs), ("file",))


def merge_paths(base: Path, ours: Path, theirs: Path, max_file_bytes: int | None = None) -> Merged:
    """The driver: merge the files git names (``%O %A %B``) and write the
    result over ``ours``, as git expects. A side over :data:`MAX_BYTES` is
    merged whole; when even git cannot merge, the result is both sides in one
    conflict hunk (never ours alone: a file without markers would pass for
    settled). A clean result over ``max_file_bytes`` (the merging person's file-size ceiling; None: not
    checked) is written whole — both sides' text kept — with :attr:`Merged.ceiling` set, so the driver exits
    non-zero and git stops the merge as a conflict: a file memdir would list as too large and never read is
    never committed by a merge unseen (the team43 runbook: 239 KB plus 12 KB on each side made 264,829 bytes).
    Raises :class:`StoreError` (a file unreadable or unwritable)."""
    data = [read_bytes(path) for path in (base, ours, theirs)]
    if any(side is None for side in data):
        raise StoreError("the merge driver was given a path that is not a regular file")
    merged = merge_sides(*data)
    if max_file_bytes is not None and not merged.conflicts and len(merged.data) > max_file_bytes:
        merged = Merged(merged.data, (), max_file_bytes)
    try:
        Path(ours).write_bytes(merged.data)
    except OSError as exc:
        raise StoreError(f"cannot write the merge result to {ours}: {exc.strerror or exc}") from None
    return merged


# ---------------------------------------------------------------- settling


def conflicting_fields(data: bytes) -> list[str | None]:
    """The field of each conflict hunk of ``data``, in order: a frontmatter
    key, :data:`BODY`, or None for a hunk over several keys or across the
    frontmatter's end (git's whole-file merge). Raises ValueError for markers
    that do not make whole hunks (:func:`memdir.files.conflicts.segments`)."""
    return [field for field, part in _fields(segments(data)) if isinstance(part, Hunk)]


def conflict_hunks(data: bytes) -> list[tuple[str | None, Hunk]]:
    """Each conflict hunk of ``data`` with its field (as :func:`conflicting_fields` names them), in order,
    to show both sides before a person chooses. Raises ValueError as :func:`conflicting_fields`."""
    return [(field, part) for field, part in _fields(segments(data)) if isinstance(part, Hunk)]


def hunk_value(key: str | None, text: bytes) -> str:
    """What one side of a conflict hunk of field ``key`` (as :func:`conflict_hunks` names it) says, for a person
    to read before choosing: its text stripped, a frontmatter key's own ``key:`` left out (``description: X`` →
    ``X``); the body, or a hunk of several keys (``key`` None), as it is. Bytes not UTF-8 are replaced."""
    value = text.decode("utf-8", "replace").strip()
    if key and key != BODY and value.startswith(f"{key}:"):
        value = value[len(key) + 1:].strip()
    return value


def resolve_fields(data: bytes, choices: Mapping[str, str], default: str | None = None) -> bytes:
    """``data`` with each conflict hunk replaced by the side ``choices``
    names for its field (``{"description": "theirs", "body": "ours"}``), else
    ``default`` (``ours`` | ``theirs``). Raises ValueError naming the fields
    left without a side, a field chosen that has no conflict, a side that is
    neither, or markers that do not make whole hunks."""
    for side in (*choices.values(), *([default] if default else [])):
        if side not in ("ours", "theirs"):
            raise ValueError(f"side must be ours or theirs (got {side!r})")
    parts = _fields(segments(data))
    fields = {field for field, part in parts if isinstance(part, Hunk)}
    unknown = sorted(set(choices) - fields)
    if unknown:
        raise ValueError(f"no conflict in {', '.join(unknown)} (conflicting: {_names(fields)})")
    out, open_fields = [], []
    for field, part in parts:
        if isinstance(part, bytes):
            out.append(part)
            continue
        side = choices.get(field) if field is not None else None
        side = side or default
        if side is None:
            open_fields.append(field)
        else:
            out.append(getattr(part, side))
    if open_fields:
        raise ValueError(f"still conflicting: {_names(open_fields)}")
    return b"".join(out)


def _names(fields) -> str:
    names = sorted({field or "(several fields; choose --ours or --theirs for the whole file)" for field in fields})
    return ", ".join(names)


def _fields(parts: list) -> list[tuple[str | None, bytes | Hunk]]:
    """Each segment with the field it belongs to (None for text outside hunks, or a hunk of no one field)."""
    out: list[tuple[str | None, bytes | Hunk]] = []
    state = "start"  # start → head (inside the frontmatter) → body
    for part in parts:
        if isinstance(part, bytes):
            for line in part.splitlines():
                if state == "start":
                    state = "head" if line == b"---" else "body"
                elif state == "head" and line == b"---":
                    state = "body"
            out.append((None, part))
            continue
        lines = (part.ours + part.theirs).decode("utf-8", "replace").splitlines()
        if state == "body":
            out.append((BODY, part))
            continue
        keys = {m.group(1).strip("'\"") for m in map(_KEY.match, lines) if m}
        crossing = state != "head" or "---" in lines
        out.append((keys.pop() if len(keys) == 1 and not crossing else None, part))
    return out


__all__ = ["ATTRIBUTE", "BODY", "DRIVER", "DRIVER_ARGS", "DRIVER_LINE", "MAX_BYTES", "Merged", "conflict_hunks", "conflicting_fields",
           "driver_command", "hunk_value", "merge", "merge_paths", "merge_sides", "missing_program", "python_program", "resolve_fields"]
