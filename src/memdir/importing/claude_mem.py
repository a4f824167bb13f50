"""claude-mem's database, read for ``memdir import claude-mem [DB]`` (issue 25).

claude-mem (thedotmack/claude-mem) keeps what its worker extracted from
Claude Code sessions in one SQLite database, ``~/.claude-mem/claude-mem.db``
(the folder is ``CLAUDE_MEM_DATA_DIR`` when set). Its tables, as its own
migrations leave them (read from the project's ``src/services/sqlite/``):

* ``observations``: one row per observation — ``project``, ``type``
  (``decision``, ``discovery``, ``bugfix``, ``feature``, ``refactor``,
  ``change`` …), ``title``, ``subtitle``, ``narrative``, ``facts`` and
  ``concepts`` (JSON arrays of strings), ``files_read``, ``files_modified``,
  ``created_at``; older databases have ``text`` instead of the structured
  columns, ``sdk_session_id`` instead of ``memory_session_id``, and no
  ``merged_into_project``;
* ``session_summaries``: one per session — ``request``, ``investigated``,
  ``learned``, ``completed``, ``next_steps``, ``notes``;
* ``directives`` (newer databases): rules a person set, ``scope``
  ``global`` or ``project``, ``status`` ``active`` or not.

Its ``project`` is the base name of the session's git work tree (its
``getProjectName``; a linked worktree's is ``<repository>/<worktree>``), so the
rows of memdir's project are those named as its root is. What lasts becomes a
memory: decisions and discoveries (type ``project``), active directives
(``feedback``; a global one in the user layer); what a session summary says it
learned becomes a candidate for review. Everything else — work records (bug
fixes, features, changes), summaries without a lesson, other projects' rows —
is counted and skipped, one line per kind with the count.

The database is opened read-only (a ``mode=ro`` URI), never written, and read
in one transaction, so claude-mem's worker writing meanwhile cannot give a torn
view; a database SQLite cannot open read-only in place (a WAL database without
its ``-shm`` file, in a folder memdir cannot write) is copied, with its WAL,
into a temporary folder first.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import quote

from ..errors import InvalidInput, NotFound
from ..text.names import normalize_name
from .sources import Item, Skip, left_out_said, load_json, said_nothing

DURABLE = {"decision": "a decision", "discovery": "a discovery"}  # observation types kept as memories
_NAME_WORDS = 7  # words of a title that make a memory's name


def default_database(environ) -> Path:
    """claude-mem's database: ``$CLAUDE_MEM_DATA_DIR/claude-mem.db``, else ``~/.claude-mem/claude-mem.db``."""
    folder = environ.get("CLAUDE_MEM_DATA_DIR") or os.path.join(environ.get("HOME") or os.path.expanduser("~"),
                                                                ".claude-mem")
    return Path(folder).expanduser() / "claude-mem.db"


def _open(db: Path) -> tuple[sqlite3.Connection, tempfile.TemporaryDirectory | None]:
    """A read-only connection to ``db`` (and the temporary folder of its copy, when one was needed)."""
    try:
        connection = sqlite3.connect(f"file:{quote(str(db.resolve()))}?mode=ro", uri=True)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return connection, None
    except sqlite3.Error:
        pass
    copy = tempfile.TemporaryDirectory(prefix="memdir-claude-mem-")  # read what it holds, never its locks
    for suffix in ("", "-wal"):
        if Path(f"{db}{suffix}").is_file():
            shutil.copyfile(f"{db}{suffix}", Path(copy.name) / f"claude-mem.db{suffix}")
    try:
        connection = sqlite3.connect(Path(copy.name) / "claude-mem.db")
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        copy.cleanup()
        raise InvalidInput(f"cannot read {str(db)!r} as claude-mem's database: {exc}") from None
    return connection, copy


def _rows(connection: sqlite3.Connection, table: str, wanted: tuple[str, ...]) -> list[dict] | None:
    """Every row of ``table`` (ordered by ``id``) as a dict of the ``wanted`` columns, a column this
    database's version lacks given as None; ``[]`` when the table is missing; None when ``table`` is not
    a stored table but a view or a virtual table: claude-mem makes neither, and their rows are computed,
    without end (a recursive view never finished reading and filled memory, break37), where a table's
    rows are what the file holds."""
    kind = connection.execute("SELECT type, sql FROM sqlite_master WHERE name = ? COLLATE NOCASE",
                              (table,)).fetchone()
    if kind is not None and (kind[0] != "table" or str(kind[1] or "").lstrip().upper().startswith("CREATE VIRTUAL")):
        return None
    have = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
    if not have:
        return []
    columns = ", ".join(c if c in have else f"NULL AS {c}" for c in wanted)
    order = " ORDER BY id" if "id" in have else ""
    cursor = connection.execute(f"SELECT {columns} FROM {table}{order}")
    return [dict(zip(wanted, row)) for row in cursor]


def _text(value) -> str:
    """A text column as text, whatever SQLite holds in it (its columns take any type): None as "",
    a number as its digits, a blob decoded as UTF-8 (an undecodable byte replaced)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _list(value) -> list[str]:
    """A JSON array column (``facts``, ``concepts``, ``files_*``) as strings; plain text as one item.
    Raises :class:`ValueError` for JSON nested too deep to read (the row is skipped)."""
    return _listed(value)[0]


def _listed(value) -> tuple[list[str], dict[str, int]]:
    """:func:`_list`, and what it left out of a JSON array as saying nothing, counted by reason
    (:func:`memdir.importing.sources.said_nothing`: a null or blank item; a number… as its JSON text, never repr)."""
    value = _text(value)
    if not value.strip():
        return [], {}
    try:
        parsed = load_json(value)
    except ValueError as exc:
        if "too deep" in str(exc):
            raise
        return [value], {}
    if not isinstance(parsed, list):  # JSON null says nothing; a JSON string is its text; a number… as written
        if parsed is None or isinstance(parsed, str):
            return ([parsed] if parsed and parsed.strip() else []), {}
        return [value], {}
    return said_nothing(parsed)


def _texts(row: dict, *columns: str) -> dict:
    """``row`` with each of ``columns`` as text (:func:`_text`)."""
    return {**row, **{column: _text(row.get(column)) for column in columns}}


def _first_line(text: str) -> str:
    return next((line.strip().lstrip("#>-* ").strip() for line in (text or "").splitlines() if line.strip()), "")


def _name(text: str, fallback: str) -> str:
    """A memory name from the first words of ``text`` (a title), else ``fallback``."""
    words = " ".join(text.split()[:_NAME_WORDS])
    try:
        return normalize_name(words).name if words else fallback
    except InvalidInput:
        return fallback


def _ours(row: dict, project: str) -> bool:
    """True when a row belongs to memdir's project named ``project`` (a worktree's rows included)."""
    names = (_text(row.get("project")), _text(row.get("merged_into_project")))
    return any(name == project or name.startswith(project + "/") for name in names)


def _observation(row: dict) -> Item:
    row = _texts(row, "title", "subtitle", "narrative", "text", "type", "created_at")
    title = (row["title"] or "").strip()
    narrative = (row["narrative"] or row["text"] or "").strip()
    description = title or _first_line(narrative) or f"claude-mem observation {row['id']}"
    parts = [p for p in ((row["subtitle"] or "").strip(), narrative) if p]
    (facts, nothing), concepts = _listed(row["facts"]), _list(row["concepts"])
    files = sorted(set(_list(row["files_read"]) + _list(row["files_modified"])))
    if facts:
        parts.append("Facts:\n" + "\n".join(f"- {fact}" for fact in facts))
    if files:
        parts.append("Files: " + ", ".join(files))
    extra = {"claude_mem_id": row["id"], "claude_mem_type": row["type"]}
    if concepts:
        extra["tags"] = concepts
    if row["created_at"]:
        extra["claude_mem_created"] = str(row["created_at"])
    # a description drawn from the narrative (no title), which the body holds whole, is shortened by the import
    return Item(f"observation {row['id']} ({row['type']})", _name(title or description, f"claude-mem-{row['id']}"),
                description, "project", "\n\n".join(parts), title or None, extra=extra, drawn=not title,
                left_out=left_out_said(nothing, "fact"))


def _summary(row: dict) -> Item:
    row = _texts(row, "learned", "request")
    learned = (row["learned"] or "").strip()
    request = (row["request"] or "").strip()
    body = learned + (f"\n\nSession request: {request}" if request else "")
    name = "learned-" + _name(_first_line(learned), str(row["id"]))
    return Item(f"session summary {row['id']}", name[:64].rstrip("-"), _first_line(learned), "project", body,
                extra={"claude_mem_summary_id": row["id"]}, candidate=True, drawn=True)


def _directive(row: dict) -> Item:
    row = _texts(row, "content", "scope")
    content = (row["content"] or "").strip()
    scope = "user" if (row["scope"] or "global") == "global" else None
    return Item(f"directive {row['id']}", _name(_first_line(content), f"claude-mem-directive-{row['id']}"),
                _first_line(content), "feedback", content, scope=scope, extra={"claude_mem_directive_id": row["id"]},
                drawn=True)


def _row(read, row: dict, source: str) -> Item | Skip:
    """``read(row)``, or a :class:`Skip` saying why the row cannot be read (a value nested too deep, one
    of a type no column of claude-mem holds): one bad row never stops the rest."""
    try:
        return read(row)
    except (ValueError, TypeError, AttributeError, RecursionError) as exc:
        return Skip(source, f"not a readable row: {exc}"[:200])


def read_claude_mem(db: Path, root: Path) -> list[Item | Skip]:
    """claude-mem's database ``db`` as items for memdir's project at ``root`` (see the module docstring):
    decisions and discoveries, directives, the lessons of session summaries (candidates); a
    :class:`Skip` with the count for each kind left out, and for each other project. Raises
    :class:`NotFound` (no such file) and :class:`InvalidInput` (not a database SQLite can read)."""
    db = Path(db)
    if not db.is_file():
        raise NotFound(f"no claude-mem database {str(db)!r} (give its path: memdir import claude-mem PATH)")
    project = Path(root).name
    connection, copy = _open(db)
    try:
        connection.execute("BEGIN")  # one read transaction: one consistent view
        observations = _rows(connection, "observations", (
            "id", "project", "merged_into_project", "type", "title", "subtitle", "narrative", "text", "facts",
            "concepts", "files_read", "files_modified", "created_at"))
        summaries = _rows(connection, "session_summaries", ("id", "project", "merged_into_project", "request",
                                                            "learned"))
        directives = _rows(connection, "directives", ("id", "scope", "project", "content", "status"))
        connection.rollback()
        computed = [name for name, rows in (("observations", observations), ("session_summaries", summaries),
                                            ("directives", directives)) if rows is None]
        observations, summaries, directives = observations or [], summaries or [], directives or []
    except sqlite3.Error as exc:
        raise InvalidInput(f"cannot read {str(db)!r} as claude-mem's database: {exc}") from None
    finally:
        connection.close()
        if copy is not None:
            copy.cleanup()
    out: list[Item | Skip] = [Skip(f"{name} of {db}", "a view or virtual table, not claude-mem's table: not read")
                              for name in computed]
    counted: dict[tuple[str, str], int] = {}

    def count(source: str, why: str) -> None:
        counted[(source, why)] = counted.get((source, why), 0) + 1

    for row in observations:
        if not _ours(row, project):
            count("observations of other projects", f"another project ({row['project']}): import from its folder")
        elif _text(row["type"]) in DURABLE:
            out.append(_row(_observation, row, f"observation {_text(row['id'])}"))
        else:
            count(f"{row['type']} observations", "a record of work done, not lasting knowledge")
    for row in summaries:
        if not _ours(row, project):
            count("session summaries of other projects", f"another project ({row['project']})")
        elif _text(row["learned"]).strip():
            out.append(_row(_summary, row, f"session summary {_text(row['id'])}"))
        else:
            count("session summaries", "no lesson learned stated (requests, progress and next steps do not last)")
    for row in directives:
        if _text(row["status"] or "active") != "active":
            count("directives", f"not active ({row['status']})")
        elif _text(row["scope"] or "global") != "global" and not _ours(row, project):
            count("directives of other projects", f"another project ({row['project']})")
        elif _text(row["content"]).strip():
            out.append(_row(_directive, row, f"directive {_text(row['id'])}"))
    for (source, why), number in counted.items():
        out.append(Skip(f"{number} {source}", why))
    if not observations and not summaries and not directives:
        out.append(Skip(str(db), "no claude-mem observations, summaries or directives in this database"))
    return out


__all__ = ["DURABLE", "default_database", "read_claude_mem"]
