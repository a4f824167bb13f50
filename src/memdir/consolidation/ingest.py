"""Ingest: consolidate the past sessions a coding agent kept on disk (DESIGN §7).

Each client keeps one JSONL transcript per session (:data:`CLIENTS`), read by
:func:`memdir.consolidation.transcripts.read_transcript`:

* Claude Code: ``$CLAUDE_CONFIG_DIR/projects/<project>/<session>.jsonl``
  (default ``~/.claude/projects``; ``reference/landscape.md`` §2.5); subagent
  transcripts (one directory deeper) are left out;
* Codex: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`` (default
  ``~/.codex``);
* Gemini CLI: ``~/.gemini/tmp/<project>/chats/session-*.jsonl``.

Claude Code's and Codex's transcripts name their working directory (``cwd``;
Codex's in its ``session_meta``); Gemini CLI's project directory names it in
its ``.project_root`` file. That directory gives the project root by the
session rule (:func:`memdir.paths.project_root_of`). :func:`ingest` consolidates
each transcript of a project (or of every project) into that project's
layers; a transcript consolidated before is skipped by its receipt.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InvalidInput, MemdirError, ScopeError
from ..files.fsio import read_foreign
from ..paths import project_root_of
from ..session import open_session
from .consolidate import consolidate
from .queue import Drained
from .transcripts.turns import jsonl_lines, loads

CWD_HEAD_BYTES = 4 * 1024 * 1024  # where a transcript's cwd is looked for: its first line names it, in practice


def claude_projects_dir(environ=None) -> Path:
    """``$CLAUDE_CONFIG_DIR/projects``, default ``~/.claude/projects``."""
    environ = os.environ if environ is None else environ
    base = environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / ".claude")
    return Path(base).expanduser() / "projects"


CLIENTS = {"claude-code": "*/*.jsonl", "codex": "*/*/*/rollout-*.jsonl", "gemini": "*/chats/session-*.jsonl"}
"""The clients ingest reads, and where their transcripts are below :func:`transcripts_dir`."""
GEMINI_ROOT_FILE = ".project_root"  # Gemini CLI 0.61: the project directory a ~/.gemini/tmp/<project>/ is for


def transcripts_dir(client: str, environ=None) -> Path:
    """Where ``client`` (of :data:`CLIENTS`) keeps its session transcripts:
    :func:`claude_projects_dir`, ``$CODEX_HOME/sessions`` (default
    ``~/.codex/sessions``) or ``~/.gemini/tmp``. Raises :class:`InvalidInput`
    for another client."""
    environ = os.environ if environ is None else environ
    if client == "claude-code":
        return claude_projects_dir(environ)
    if client == "codex":
        return Path(environ.get("CODEX_HOME") or str(Path.home() / ".codex")).expanduser() / "sessions"
    if client == "gemini":
        return Path.home() / ".gemini" / "tmp"
    raise InvalidInput(f"unknown client {client!r}; transcripts are read for {', '.join(CLIENTS)}")


def transcript_cwd(path: Path) -> str | None:
    """The working directory recorded in a Claude Code or Codex transcript (the first
    of its first 200 lines, within its first :data:`CWD_HEAD_BYTES`, that
    has one; lines split at ``\\n`` alone, as the transcripts reader splits:
    :func:`~memdir.consolidation.transcripts.turns.jsonl_lines`), or None — also for a file
    that is not a regular file (a FIFO is never waited on: :func:`memdir.files.fsio.read_foreign`)."""
    head = read_foreign(path, CWD_HEAD_BYTES, head=True).data
    if head is None:
        return None
    # At "\n" alone, as the transcripts reader splits (jsonl_lines): a U+2028 or \x0c inside a JSON string is
    # no line break, and splitting there would leave the line holding cwd unreadable.
    for raw in jsonl_lines(head.decode("utf-8", errors="replace"))[:201]:
        if '"cwd"' not in raw:
            continue
        try:
            line = loads(raw)
            payload = line.get("payload")
            cwd = line.get("cwd") or (payload.get("cwd") if isinstance(payload, dict) else None)  # Codex: in its payload
        except (ValueError, AttributeError):
            continue
        if cwd:
            return str(cwd)
    return None


def _gemini_cwd(path: Path) -> str | None:
    """The project directory Gemini CLI's ``<project>/chats/<session>.jsonl`` is for (its
    ``.project_root`` file), or None."""
    found = read_foreign(path.parent.parent / GEMINI_ROOT_FILE, 64 * 1024).data
    text = found.decode("utf-8", errors="replace").strip() if found else ""
    return text if text and "\n" not in text else None


def find_transcripts(projects: Path, root: Path | None, client: str = "claude-code") -> list[tuple[Path, Path]]:
    """``(transcript, project root)`` for every session transcript of
    ``client`` (of :data:`CLIENTS`) under ``projects`` whose working directory
    is in project ``root`` (every usable project when ``root`` is None),
    oldest first."""
    if not projects.is_dir():
        return []

    def modified(path):
        try:
            return path.stat().st_mtime
        except OSError:  # a dangling link or a file gone meanwhile: skipped below
            return -1.0

    found = []
    where = _gemini_cwd if client == "gemini" else transcript_cwd
    for path in sorted(projects.glob(CLIENTS[client]), key=lambda p: (modified(p), str(p))):
        cwd = where(path) if modified(path) >= 0 else None
        if not cwd:
            continue
        try:
            session_root, _ = project_root_of(cwd)
        except (ScopeError, OSError):  # the session's directory is gone: nothing to file it under
            continue
        if session_root is None or (root is not None and session_root != root):
            continue
        found.append((path, session_root))
    return found


@dataclass(frozen=True)
class IngestResult:
    """An ingest: where transcripts were looked for (``projects_dir``), for
    which ``project`` (None: every project), one :class:`Drained` row per
    transcript (its ``applied``: the changes its run made, or would make), the ``counts`` per status and the
    ``changes`` made — or, ``dry_run``, the changes a real run would make
    (:attr:`memdir.consolidation.proposals.ConsolidationReport.changes`)."""

    projects_dir: str
    project: str | None
    transcripts: tuple[Drained, ...] = ()
    counts: dict = field(default_factory=dict)
    changes: int = 0
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        """False when a transcript failed or could not be consolidated."""
        return not (self.counts.get("failed") or self.counts.get("error"))

    def to_dict(self) -> dict:
        return {"projects_dir": self.projects_dir, "project": self.project,
                "transcripts": [row.to_dict() for row in self.transcripts], "counts": dict(self.counts),
                "changes": self.changes, "dry_run": self.dry_run}


def ingest(home: Path, root: Path | None, *, projects: Path | None = None, extractor: str | None = None,
           dry_run: bool = False, progress=None, client: str = "claude-code") -> IngestResult:
    """Consolidate every transcript of ``client`` (of :data:`CLIENTS`) of
    project ``root`` (every project when None) found under ``projects``
    (default :func:`transcripts_dir`), each into its own project's layers.
    ``progress(done, total)`` (the protocol of :mod:`memdir.render.progress`)
    is told before the first transcript and after each. A failing
    transcript is reported in its row, never fatal to the rest."""
    projects = transcripts_dir(client) if projects is None else projects
    rows, counts, changes = [], {}, 0
    found = find_transcripts(projects, root, client)
    if progress is not None:
        progress(0, len(found))
    for path, session_root in found:
        try:
            report = consolidate(open_session(home, session_root, actor="human", use_cwd=False), path,
                                 extractor=extractor, dry_run=dry_run)
            row = Drained(str(path), str(session_root), report.status, report.changes, report.error)
            changes += report.changes
        except MemdirError as exc:
            row = Drained(str(path), str(session_root), "error", 0, str(exc))
        counts[row.status] = counts.get(row.status, 0) + 1
        rows.append(row)
        if progress is not None:
            progress(len(rows), len(found))
    return IngestResult(str(projects), str(root) if root else None, tuple(rows), counts, changes, dry_run)


__all__ = ["CLIENTS", "IngestResult", "claude_projects_dir", "find_transcripts", "ingest", "transcript_cwd",
           "transcripts_dir"]
