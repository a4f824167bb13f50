"""The Claude API's memory tool over memdir: a ``/memories`` directory of the session's layers.

The memory tool (``memory_20250818``; Anthropic's "memory tool" documentation,
and the ``anthropic`` SDK's ``BetaAbstractMemoryTool``) lets the model keep
files in a ``/memories`` directory with six commands: ``view``, ``create``,
``str_replace``, ``insert``, ``delete`` and ``rename``. Here that directory is
memdir's store as the session sees it::

    /memories                    the layers: user, team (when the repository has one), project
    /memories/<layer>            the memories of that layer (those memory_list shows)
    /memories/<layer>/<name>.md  one memory; its "file text" is the memory's body

:func:`run` executes one command (a mapping, as the API sends it) for a
:class:`~memdir.session.Session` and returns a
:class:`~memdir.tools.handlers.ToolOutput`. Every change goes through the
operations and the gateway like any other tool call — journaled with its
history, checked against the tombstones, secrets redacted, fence tags
escaped — and every text returned is escaped by the one rule for stored text and made
printable (:func:`answer`). ``create`` reads the file text as a person's
memory file (:func:`memdir.files.memfile.parse`: frontmatter, or plain
Markdown whose first heading or line becomes the description; a file that says no
``type`` gets its layer's, :func:`memdir.vocabulary.default_type`, and the answer says which);
``str_replace`` and ``insert`` are the gateway's partial edits
(:mod:`memdir.gateway.edits`) and, like ``create`` (a file is written whole
or not at all), refuse a body over the model writer's limit; ``delete``
tombstones the value (unless another memory holds it, and says which);
``rename`` renames within a layer (the old name is superseded, and gone from
the directory).

A path is read by :func:`place` and never touches the file system as given:
it must be ``/memories`` or below it, ``..`` is refused with the tool's own
words ("would escape /memories directory"), a memory file that is a symlink
is refused, and anything deeper than ``<layer>/<name>.md`` is no memory. The
texts of success and failure follow the SDK's reference handler, so a model
trained on it reads them as it expects.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import InvalidInput, MemdirError, NotFound
from ..files.memfile import MalformedMemory, parse
from ..gateway.edits import BodyEdit, check_body_fits
from ..gateway.fields import MemoryChange, body_limit
from ..gateway.writing import NAME_RULE
from ..layer.succession import successor
from ..operations import memories as operations
from ..operations.lookup import deleted, unreadable
from ..render.memories import kept_edit
from ..session import Session
from ..text.names import normalize_name
from ..text.printable import breaks_shown, visible
from ..vocabulary import SCOPES, TYPES, default_type
from .handlers import ToolOutput, answer
from .specs import MAX_LIST, NOT_SAID, as_json_type, said_type, too_many_digits

ROOT = "/memories"
SUFFIX = ".md"
NUMBER_WIDTH = 6  # line numbers right-aligned to six places, as the tool's reference handler shows them
COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")


@dataclass(frozen=True)
class Place:
    """Where a path points: the root (``scope`` None), a layer (``name``
    None) or one memory; ``path`` as the model wrote it, for the messages; ``written`` the memory's
    name as the path spells it (``로그-정책`` of ``로그-정책.md``, whose ``name`` is its hash): what a
    create or a rename writes, so the memory keeps that spelling as its title and is read by it."""

    path: str
    scope: str | None = None
    name: str | None = None
    written: str | None = None

    def canonical(self) -> str:
        """The path memdir names the place by (a name as stored)."""
        return "/".join(filter(None, (ROOT, self.scope, self.name and self.name + SUFFIX)))


def place(session: Session, path) -> Place:
    """The :class:`Place` ``path`` names among ``session``'s layers. Raises
    :class:`InvalidInput` for a path outside ``/memories`` (the tool's
    words: "Path must start with /memories", "would escape /memories
    directory"), deeper than a memory file, not ending in ``.md``, or a memory
    file that is a symlink; :class:`NotFound` for a layer the session does not
    have; :class:`ScopeError` for one it cannot use now (said why)."""
    if not isinstance(path, str):
        raise InvalidInput(f"path must be text, got {type(path).__name__}")
    raw, path = path, visible(path)  # named in every message as given: a NUL or an escape shown, never dropped
    if raw != ROOT and not raw.startswith(ROOT + "/"):
        raise InvalidInput(f"Path must start with {ROOT}, got: {path}")
    if "\\" in raw or "\x00" in raw:
        raise InvalidInput(f"Path {path} is not a path inside {ROOT}")
    parts = [part for part in raw[len(ROOT):].split("/") if part not in ("", ".")]
    if ".." in parts:
        raise InvalidInput(f"Path {path} would escape {ROOT} directory")
    if not parts:
        return Place(path)
    scope = parts[0]
    if scope not in session.scopes():
        if scope in SCOPES:
            session.check_scope(scope)  # says why this session cannot use it
        raise NotFound(f"The path {path} does not exist. Please provide a valid path. "
                       f"The layers are {', '.join(f'{ROOT}/{s}' for s in session.scopes())}.")
    if len(parts) == 1:
        return Place(path, scope)
    if len(parts) > 2 or not parts[1].lower().endswith(SUFFIX) or len(parts[1]) == len(SUFFIX):
        raise InvalidInput(f"The path {path} is not a memory: memories are files {ROOT}/<layer>/<name>{SUFFIX}, "
                           f"directly in their layer (e.g. {ROOT}/{scope}/db-port{SUFFIX})")
    written = parts[1][: -len(SUFFIX)]
    name = normalize_name(written).name
    if os.path.islink(session.layer_dir(scope) / (name + SUFFIX)):
        raise InvalidInput(f"Path {path} would escape {ROOT} directory via symlink")
    return Place(path, scope, name, written)



def run(session: Session, command) -> ToolOutput:
    """Run one memory-tool command (a mapping: ``command`` and its fields, as
    the API sends them) as ``session``'s actor. A :class:`MemdirError`
    becomes ``ToolOutput(is_error=True)`` whose text says what went wrong;
    anything else propagates."""
    try:
        if not isinstance(command, dict):
            raise InvalidInput(f"the memory tool's input must be a JSON object, got {type(command).__name__}")
        if not isinstance(command.get("command"), str) or command["command"] not in COMMANDS:
            raise InvalidInput(f"unknown memory tool command {command.get('command')!r}; "
                               f"the commands are {', '.join(COMMANDS)}")
        text = _COMMANDS[command["command"]](session, command)
    except MemdirError as exc:
        return ToolOutput(answer(str(exc)), True)
    return ToolOutput(answer(text))


_KINDS = {str: ("string", "text"), int: ("integer", "an integer")}


def _field(command: dict, key: str, kind: type):
    """Argument ``key`` of ``command`` read as JSON type ``kind`` (``str`` or ``int``) by the rule every tool
    argument follows (:func:`memdir.tools.specs.as_json_type`: ``"1"`` and ``1.0`` are 1, a bool is no
    integer). Raises :class:`InvalidInput` naming the command, the argument, the type and what was sent."""
    value = command.get(key)
    schema_type, said = _KINDS[kind]
    if value is None:
        raise InvalidInput(f"{command['command']}: {key} is required ({said})")
    read = as_json_type(schema_type, value)
    if read is None:
        raise InvalidInput(f"{command['command']}: {key} must be {said}, got {said_type(value)}")
    return read


def _memory(session: Session, command: dict, key: str = "path") -> Place:
    where = place(session, _field(command, key, str))
    if where.scope is None:
        raise InvalidInput(f"{command['command']}: {ROOT} itself is no file; give {ROOT}/<layer>/<name>{SUFFIX}")
    if where.name is None:
        raise InvalidInput(f"{command['command']}: {where.path} is a layer directory, not a file; "
                           f"give {where.path.rstrip('/')}/<name>{SUFFIX}")
    return where


def _stale(session: Session, where: Place, record, doing: str) -> str:
    """Why ``doing`` (view, create, edit, delete, rename, rename to) ``where`` is refused when it names a
    superseded memory (renamed or replaced): the same words from every command. The old name is out of
    the directory but stays with the memory's history, so nothing can be created or renamed there; the
    message names what this tool can do instead — the command on the memory's live end (the end of a
    chain of renames: a→b→c names c; :func:`memdir.layer.succession.successor`), or another name."""
    layer = session.layer(where.scope)
    found = successor(record, layer.scan().entries.get, layer.tombstones)
    live = Place(where.path, where.scope, found.name).canonical() if found and found.state == "active" else None
    text = f"Cannot {doing} {where.path}: it is the old name of a memory that was renamed or replaced"
    if live:
        text += f" (it is {live} now)"
    elif found is not None and found.state == "deleted":
        text += f" (by {found.name}, deleted since)"
    text += "; the name stays with that memory's history and cannot be reused"
    if doing in ("create", "rename to"):
        return text + (f" — choose another name, or change {live} with str_replace or insert" if live
                       else " — choose another name")
    if live:
        return text + f" — {'rename' if doing == 'rename' else doing} {live} instead"
    return text + (" — it is already gone" if doing == "delete" else
                   " — create the memory under another name")


def _superseded(session: Session, where: Place):
    """The scan entry's record of ``where`` when it is a superseded memory, else None."""
    entry = session.layer(where.scope).scan().entries.get(where.name)
    return entry.record if entry is not None and entry.record.status == "superseded" else None


def _missing(where: Place, exc: NotFound) -> NotFound:
    """The tool's words for ``exc``, a memory ``where`` names that cannot be read: a file that is there but
    is no readable memory (``exc.unreadable``: permission denied, too large, not UTF-8…) exists and cannot
    be read; any other is a path that does not exist. Each with the reason ``exc`` gives."""
    if exc.unreadable:
        return NotFound(f"The path {where.path} exists but cannot be read: {exc}", unreadable=exc.unreadable)
    return NotFound(f"The path {where.path} does not exist: {exc}")


def _size(count: int) -> str:
    """A size as the tool's listing shows it: 0B, 812B, 1.5K, 2M."""
    size, unit = float(count), "B"
    for bigger in ("K", "M"):
        if size < 1024:
            break
        size, unit = size / 1024, bigger
    return f"{int(size)}{unit}" if size == int(size) else f"{size:.1f}{unit}"


# ---------------------------------------------------------------- commands


def _view(session: Session, command: dict) -> str:
    where = place(session, _field(command, "path", str))
    if where.name is None:
        return _listing(session, where)
    try:
        record = operations.read(session, where.name, where.scope).record
    except NotFound as exc:
        raise _missing(where, exc) from None
    if record.status == "superseded":  # renamed or replaced: gone from the directory, as its listing shows
        raise NotFound(_stale(session, where, record, "view"))
    lines = record.body.split("\n")
    first, shown = 1, lines
    span = command.get("view_range")
    if span is not None:
        read = [as_json_type("integer", n) for n in span] if isinstance(span, list) else []
        if len(read) != 2 or None in read:  # True is no line number
            given = NOT_SAID if isinstance(span, list) and any(map(too_many_digits, span)) else visible(repr(span))
            raise InvalidInput(f"view_range must be two line numbers [start, end] (end -1: to the last line), got {given}")
        span = read
        if span[0] < 1 or (span[1] < span[0] and span[1] != -1):
            raise InvalidInput(f"view_range {span} is not a range of lines: [start, end] from line 1, end ≥ start "
                               "(end -1: to the last line)")
        if span[0] > len(lines):  # an empty view would read as an empty file
            raise InvalidInput(f"view_range {span} starts past the end of {where.path}: it has {len(lines)} "
                               f"line{'s' if len(lines) != 1 else ''} (view_range [1, -1] shows them all)")
        first = span[0]
        shown = lines[first - 1: len(lines) if span[1] == -1 else span[1]]
    numbered = [f"{str(first + i).rjust(NUMBER_WIDTH)}\t{breaks_shown(line)}" for i, line in enumerate(shown)]
    return f"Here's the content of {where.path} with line numbers:\n" + "\n".join(numbered)


def _listing(session: Session, where: Place) -> str:
    """The root's or a layer's entries, two levels deep as the tool lists a
    directory (``size<TAB>path``): each layer, and each memory (at most
    ``MAX_LIST`` a layer) with the size of its body and its description."""
    result = operations.list_memories(session, where.scope)
    lines = [f"Here're the files and directories up to 2 levels deep in {where.path}, excluding hidden items:"]
    for scope in (where.scope,) if where.scope else session.scopes():
        _, facts = session.layer(scope).facts_now()  # the body sizes the layer keeps: no file read for them
        rows = []
        for memory in (m for m in result.memories if m.scope == scope):
            kept = facts.get(memory.name)
            rows.append((kept.body_bytes if kept else 0, memory))
        lines.append(f"{_size(sum(size for size, _ in rows))}\t{ROOT}/{scope}/")
        lines += [f"{_size(size)}\t{ROOT}/{scope}/{memory.name}{SUFFIX}\t{memory.description}"
                  for size, memory in rows[:MAX_LIST]]
        if len(rows) > MAX_LIST:
            lines.append(f"(…and {len(rows) - MAX_LIST} more in {ROOT}/{scope}/, not listed here)")
        folder = str(session.layer_dir(scope))  # a file there that is no memory: there, and why it is not read
        lines += [f"?\t{ROOT}/{scope}/{os.path.basename(bad.path)}\t(there, but not a readable memory: {bad.error})"
                  for bad in result.malformed if os.path.dirname(bad.path) == folder][:MAX_LIST]
    return "\n".join(lines)


def _create(session: Session, command: dict) -> str:
    where = _memory(session, command)
    text = _field(command, "file_text", str)
    entry = session.layer(where.scope).scan().entries.get(where.name)
    if entry is not None and entry.record.status == "superseded":
        raise InvalidInput(_stale(session, where, entry.record, "create"))
    if entry is not None:
        raise InvalidInput(f"File {where.path} already exists (change it with str_replace or insert, "
                           "or delete it first)")
    if (there := unreadable(session.layer(where.scope), where.name)) is not None:
        raise InvalidInput(f"File {where.path} already exists but cannot be read: {there}")
    try:
        parsed = parse(text, where.name)
    except MalformedMemory as exc:
        raise InvalidInput(f"{where.path}: {exc}; write a first line that says what the memory is") from None
    record = parsed.record
    # A file is created whole or not at all: cut, it would not be the file the model wrote.
    check_body_fits(record.body, body_limit(session.settings, session.actor), f"the body of {where.path} would be")
    # A type the file says is the memory's (one outside the four is refused by the gateway, naming them);
    # a file that says none — plain text, or frontmatter without type: — gets its layer's, and is told so.
    type = record.type if parsed.type_said else default_type(where.scope)
    change = MemoryChange(where.written, record.description, type, record.body, title=record.title,
                          expect_digest=None)
    result = operations.write(session, change, where.scope)
    saved = Place(where.path, result.scope, result.name).canonical()
    text = f"File created successfully at: {saved}"
    if result.status == "candidate":
        text += " (as a candidate: it waits for a person's review before it is shown in later sessions)"
    said = [] if parsed.type_said else [(
        f"note: saved as type {type}, the default in {ROOT}/{where.scope}: the file says no type (to choose, begin "
        f"the file with frontmatter that says type: {', '.join(TYPES[:-1])} or {TYPES[-1]})")]
    return "\n".join([text, *said, *_notes(result)])


def _notes(result) -> list[str]:
    notes = [f"note: {kept}"] if (kept := kept_edit(result)) else []
    notes += [f"note: {warning}" for warning in result.warnings]
    if result.redactions:
        notes.append(f"note: {result.redactions} secret(s) were redacted before saving")
    return notes


def _edit(session: Session, command: dict, change: BodyEdit) -> str:
    where = _memory(session, command)
    stale = _superseded(session, where)
    if stale is not None:  # the gateway would say to reactivate it, which this tool cannot
        raise NotFound(_stale(session, where, stale, "edit"))
    try:
        result = operations.edit(session, where.name, change, where.scope)
    except NotFound as exc:
        gone = None if exc.unreadable else deleted([session.layer(where.scope)], where.name)
        if gone:  # what this tool can do: a new memory under the name (the deleted text stays refused)
            raise NotFound(f"The path {where.path} does not exist: {gone}; create {where.path} to write a new "
                           "memory there") from None
        raise _missing(where, exc) from None
    if result.status == "candidate":  # the agent's edit of a memory only a person changes: a proposal
        saved = Place(where.path, result.scope, result.name).canonical()
        return "\n".join([f"The edit of {where.path} was saved as a candidate ({saved}): it waits for a person's "
                          f"review; {where.path} is unchanged until it is approved.", *_notes(result)])
    if result.operation == "unchanged":  # e.g. an insert of text that was only control characters
        return "\n".join([f"The file {where.path} is unchanged: the edit left its text as it was.", *_notes(result)])
    if change.mode == "insert":
        return "\n".join([f"The file {where.path} has been edited.", *_notes(result)])
    body = operations.read(session, result.name, result.scope, count=False).record.body.split("\n")
    start, end = max(1, result.line - 2), min(len(body), result.line + 2)
    snippet = [f"{str(n).rjust(NUMBER_WIDTH)}\t{breaks_shown(body[n - 1])}" for n in range(start, end + 1)]
    return "\n".join(["The memory file has been edited. Here is the snippet showing the change (with line numbers):",
                      *snippet, *_notes(result)])


def _str_replace(session: Session, command: dict) -> str:
    return _edit(session, command, BodyEdit(old=_field(command, "old_str", str), new=_field(command, "new_str", str)))


def _insert(session: Session, command: dict) -> str:
    return _edit(session, command, BodyEdit(line=_field(command, "insert_line", int),
                                            text=_field(command, "insert_text", str)))


def _delete(session: Session, command: dict) -> str:
    where = place(session, _field(command, "path", str))
    if where.scope is None:
        raise InvalidInput(f"Cannot delete the {ROOT} directory itself")
    if where.name is None:
        raise InvalidInput(f"Cannot delete the layer directory {where.path}: delete its memories one by one "
                           "(each deletion is kept in its history)")
    stale = _superseded(session, where)
    if stale is not None:  # its successor holds the value
        raise NotFound(_stale(session, where, stale, "delete"))
    try:
        result = operations.delete(session, where.name, where.scope, reason="memory tool: delete")
    except NotFound as exc:
        raise _missing(where, exc) from None
    if result.tombstone:
        return (f"Successfully deleted {where.path} (its text is tombstoned: the same memory will not be saved "
                f"again unless the user allows it; tombstone {result.tombstone})")
    holder = f"{ROOT}/{result.kept_by.replace(':', '/', 1)}{SUFFIX}" if result.kept_by else "another memory"
    return f"Successfully deleted {where.path} (its text is not tombstoned: {holder} holds the same text)"


def _rename(session: Session, command: dict) -> str:
    old = _memory(session, command, "old_path")
    new = _memory(session, command, "new_path")
    if old.scope != new.scope:
        raise InvalidInput(f"Cannot move {old.path} to another layer ({new.scope}): a memory stays in its layer; "
                           f"rename it within {ROOT}/{old.scope}/")
    layer = session.layer(old.scope)
    if layer.scan().entries.get(old.name) is None:
        there = unreadable(layer, old.name)
        raise _missing(old, there) if there is not None else NotFound(f"The path {old.path} does not exist")
    for where, doing in ((old, "rename"), (new, "rename to")):
        stale = _superseded(session, where)
        if stale is not None:
            raise (NotFound if where is old else InvalidInput)(_stale(session, where, stale, doing))
    if new.name != old.name and layer.scan().entries.get(new.name) is not None:  # the same name: the gateway says so
        held = Place(new.path, new.scope, new.name).canonical()
        raise InvalidInput(f"The destination {new.path} already exists" + (  # DB Port.md is db-port.md: say so
            "" if held == new.path else f": it is {held} ({new.written!r} names it too: {NAME_RULE}); rename "
            f"{old.path} to another name, or change {held} itself instead"))
    result = operations.write(session, MemoryChange(new.written, rename_from=old.name), old.scope)
    return "\n".join([f"Successfully renamed {old.path} to {Place(new.path, result.scope, result.name).canonical()}",
                      *_notes(result)])


_COMMANDS = {"view": _view, "create": _create, "str_replace": _str_replace, "insert": _insert,
             "delete": _delete, "rename": _rename}
assert set(_COMMANDS) == set(COMMANDS)

__all__ = ["COMMANDS", "NUMBER_WIDTH", "Place", "ROOT", "answer", "place", "run"]
