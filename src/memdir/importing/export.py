"""memdir's memories out, as plain files a person or another tool reads (``memdir export``, issue 25).

:func:`export` writes the active memories (muted ones included) of the
session's layers — or of one — into a directory that is missing or empty,
in one of three formats:

* ``memdir``: ``<scope>/<name>.md``, each memory file's bytes as they are;
* ``claude-code``: ``<scope>/<name>.md`` with the frontmatter Claude Code's
  auto memory reads (``name``, ``description``, ``type``; ``title`` when there
  is one) and the body, and ``<scope>/MEMORY.md``, its index
  (``- [Title](name.md) — description``, landscape §2.3);
* ``jsonl``: ``memories.jsonl``, one JSON object per memory with every field
  (``scope`` and the frontmatter's own keys; times ISO-8601 UTC), read back by
  ``memdir import jsonl``.

``with_history``: every stored version of every memory the journal knows,
deleted ones included — ``<scope>/.history/<name>/v<N>.md`` (the version's
bytes) for the two folder formats (a hidden folder: an import of the export
passes over it), a ``history`` list in each JSON line (and one line per
memory that is no longer live, ``"live": false``). Candidates (they wait for
review) and superseded memories (their successor is exported) are left out
and counted; a file that is not a readable memory is reported. Each
export imported into an empty home gives the same memories, their text byte
for byte (``import dir`` of each scope's folder with ``--scope``, or ``import
jsonl``).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import InvalidInput, NotFound, StoreError
from ..files.fsio import atomic_write, full_disk
from ..files.memfile import MemoryRecord, format_time, serialize
from ..layer.history import history
from ..results import Result
from ..session import Session
from ..text.printable import clean_line
from ..vocabulary import EXPORT_FORMATS

FORMATS = EXPORT_FORMATS
_LEFT = {"candidate": "a candidate waiting for review (memdir review)",
         "superseded": "superseded (its successor is exported)"}


@dataclass(frozen=True)
class ExportReport(Result):
    """An export into ``directory`` in ``format``: ``exported`` (``scope:name`` of each memory
    written), ``left`` (``(scope:name or file, why)`` of what was not), ``files`` (how many files were
    written) and ``versions`` (how many past versions, with ``with_history``)."""

    directory: str
    format: str
    with_history: bool
    exported: tuple[str, ...]
    left: tuple[tuple[str, str], ...]
    files: int
    versions: int = 0


def _plain(record: MemoryRecord, scope: str) -> dict:
    """Every field of ``record`` as JSON values (the jsonl format's line, without its history)."""
    times = {key: format_time(getattr(record, key)) if getattr(record, key) else None
             for key in ("created", "updated", "valid_from", "valid_until")}
    return {"scope": scope, "name": record.name, "title": record.title, "description": record.description,
            "type": record.type, "body": record.body, "pinned": record.pinned, "disabled": record.disabled,
            "importance": record.importance, **times, "origin": record.origin, "status": record.status,
            "supersedes": record.supersedes, "superseded_by": record.superseded_by,
            "extra": {key: value for key, value in record.extra}}


def _claude_code(record: MemoryRecord) -> str:
    """``record`` as a Claude Code auto memory file: its name, title, description, type and body."""
    return serialize(MemoryRecord(name=record.name, description=record.description, type=record.type,
                                  body=record.body, title=record.title))


def _index_line(record: MemoryRecord) -> str:
    """The Claude Code index line of ``record`` (one line, whatever its text holds)."""
    title = clean_line(record.title or record.name)[0].replace("]", ")")
    return f"- [{title}]({record.name}.md) — {clean_line(record.description)[0]}"


def export(session: Session, directory: str | Path, *, scope: str | None = None, format: str = "memdir",
           with_history: bool = False) -> ExportReport:
    """Write the memories of ``scope`` (None: every layer of the session) into ``directory`` in
    ``format`` (:data:`FORMATS`); see the module docstring. The export is written into a new directory
    beside ``directory`` and renamed into place when whole: a failure leaves no partial export (the
    directory is as it was). A file of a layer that does not read is left out and reported in ``left``.
    Raises :class:`InvalidInput` (an unknown format, or a ``directory`` that exists and is not an empty
    directory), :class:`ScopeError`, :class:`StoreError` (the export could not be written)."""
    if format not in FORMATS:
        raise InvalidInput(f"unknown export format {format!r} (expected one of {', '.join(FORMATS)})")
    out = Path(directory).expanduser()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise InvalidInput(f"{str(out)!r} exists and is not an empty directory: export writes into a new one "
                           "(nothing was written)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.export-", dir=out.parent))
    except OSError as exc:
        raise StoreError(not_exported(out, None, exc)) from exc
    try:
        report = _export_into(session, staging, scope, format, with_history)
        os.rename(staging, out)  # replaces a missing or empty directory whole
    except BaseException as exc:  # nothing half-written is left behind, whatever went wrong
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, (OSError, StoreError)):  # a write refused (atomic_write's StoreError keeps the OSError)
            raise StoreError(not_exported(out, staging, exc)) from exc
        raise
    return replace(report, directory=str(out))


def not_exported(out: Path, staging: Path | None, exc: BaseException) -> str:
    """What a failed export says: into where, why (``the disk is full (ENOSPC)`` when it is:
    :func:`memdir.files.fsio.full_disk`), that nothing was exported, and whether a partial export was left —
    none when the staging directory ``staging`` (None: not made) is gone, else where it is, to remove."""
    code = full_disk(exc)
    if code is not None:
        why = f"the disk is full ({errno.errorcode[code]})" if code == errno.ENOSPC else \
            f"the disk quota is spent ({errno.errorcode[code]})"
    else:
        why = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    left = (f"a partial export was left in {str(staging)!r}: remove it" if staging is not None and staging.exists()
            else f"no partial export was left ({str(out)!r} is as it was)")
    return f"cannot write the export into {str(out)!r}: {why}: nothing was exported; {left}"


def _export_into(session: Session, out: Path, scope: str | None, format: str, with_history: bool) -> ExportReport:
    """:func:`export` into the new directory ``out``."""
    exported, left, lines = [], [], []
    files = versions = 0

    def put(path: Path, data: bytes) -> None:
        nonlocal files
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data, sync_dir=False, sync=False)
        files += 1

    for name_of_scope in session.scopes_for(scope):
        layer = session.layer(name_of_scope)
        try:
            found = layer.scan()
        except StoreError as exc:  # one unreadable layer never stops the others
            left.append((name_of_scope, str(exc)))
            continue
        left += [(str(bad.path), bad.error) for bad in found.malformed]
        live = []
        for key in sorted(found.entries):
            if (entry := found.entries.get(key)) is None:  # its file went since the listing: said, the rest go on
                left.append((f"{name_of_scope}:{key}", "not read: its file went while exporting"))
                continue
            record = entry.record
            if record.status in _LEFT:
                left.append((f"{name_of_scope}:{key}", _LEFT[record.status]))
                continue
            if format == "memdir":
                try:
                    data = entry.path.read_bytes()
                except OSError as exc:  # gone or unreadable since the scan: reported, the rest go on
                    left.append((str(entry.path), f"not read: {exc.strerror or exc}"))
                    continue
                put(out / name_of_scope / entry.path.name, data)
            elif format == "claude-code":
                put(out / name_of_scope / f"{key}.md", _claude_code(record).encode("utf-8"))
            else:
                lines.append({**_plain(record, name_of_scope), "live": True})
            live.append(record)
            exported.append(f"{name_of_scope}:{key}")
        if format == "claude-code" and live:
            put(out / name_of_scope / "MEMORY.md", ("\n".join(_index_line(r) for r in live) + "\n").encode("utf-8"))
        if not with_history:
            continue
        names = sorted({event.name for event in layer.journal.events() if event.name})
        past: dict[str, list] = {}
        for name in names:
            for version in history(layer, name):
                if version.digest is None:
                    continue
                try:
                    data = layer.journal.get_object(version.digest)
                except NotFound:
                    left.append((f"{name_of_scope}:{name} v{version.version}", "its stored bytes are missing"))
                    continue
                versions += 1
                if format == "jsonl":
                    past.setdefault(name, []).append({"version": version.version, "ts": version.ts,
                                                      "actor": version.actor, "action": version.action,
                                                      "text": data.decode("utf-8", "replace")})
                else:
                    put(out / name_of_scope / ".history" / name / f"v{version.version}.md", data)
        if format == "jsonl":
            for line in lines:
                if line["scope"] == name_of_scope:
                    line["history"] = past.pop(line["name"], [])
            lines += [{"scope": name_of_scope, "name": name, "live": False, "history": old}
                      for name, old in sorted(past.items())]
    if format == "jsonl":
        put(out / "memories.jsonl", "".join(json.dumps(line, ensure_ascii=False) + "\n"
                                            for line in lines).encode("utf-8"))
    return ExportReport(str(out), format, with_history, tuple(exported), tuple(left), files, versions)


__all__ = ["FORMATS", "ExportReport", "export", "not_exported"]
