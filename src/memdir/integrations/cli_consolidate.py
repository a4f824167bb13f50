"""Commands ``memdir consolidate`` and ``memdir ingest`` (a CLI extension, see ``cli.EXTENSIONS``).

* ``memdir consolidate PATH [--dry-run] [--extractor rules|llm|auto] [--explain] [--json]``
  consolidates one transcript into the session's layers and prints what it did
  (or, with ``--dry-run``, would do). Exit 1 when the extractor failed.
* ``memdir consolidate --queue [--detach]`` drains ``$MEMDIR_HOME/queue/consolidate.jsonl``,
  the lines ``{"transcript_path", "cwd", "session_id", "event", "ts"}`` that the
  Claude Code hooks append at SessionEnd/PreCompact; each line's ``cwd`` is its
  project. ``--detach`` starts the drain in the background and returns at once;
  a drain logs one line per transcript to ``$MEMDIR_HOME/logs/consolidate.log``.
* ``memdir ingest --claude-code [--all]`` consolidates every transcript under
  ``$CLAUDE_CONFIG_DIR/projects`` (default ``~/.claude/projects``) whose session
  ran in this project (``--all``: every project), skipping the ones already
  done, with a progress bar on stderr.

Heavy imports stay inside the handlers so ``memdir context`` stays fast.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

QUEUE_FILE = "consolidate.jsonl"
LOG_FILE = "consolidate.log"


# ---------------------------------------------------------------- the queue


def queue_path(home: Path) -> Path:
    """``$MEMDIR_HOME/queue/consolidate.jsonl``."""
    return Path(home) / "queue" / QUEUE_FILE


def log_line(home: Path, text: str) -> None:
    """Append one timestamped line to ``$MEMDIR_HOME/logs/consolidate.log`` (0600)."""
    from ..consolidation.consolidate import scrub
    from ..store.journal import iso_micro, now_utc

    logs = Path(home) / "logs"
    logs.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(logs / LOG_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{iso_micro(now_utc())} {scrub(text)}\n".encode("utf-8", "replace"))
    finally:
        os.close(fd)


def _claim(home: Path) -> list[Path]:
    """Move the queue aside (atomically) so hooks can keep appending, and pick
    up work files that a drain which died left behind."""
    queue = queue_path(home)
    claimed = []
    for old in sorted(queue.parent.glob(QUEUE_FILE + ".*.work")) if queue.parent.is_dir() else []:
        try:
            pid = int(old.name.split(".")[-2])
            os.kill(pid, 0)
            continue  # its drain is still running
        except (ValueError, ProcessLookupError):
            claimed.append(old)
        except PermissionError:
            continue
    work = queue.with_name(f"{QUEUE_FILE}.{os.getpid()}.work")
    try:
        os.replace(queue, work)
        claimed.append(work)
    except FileNotFoundError:
        pass
    return claimed


def drain_queue(home: Path, *, extractor: str | None = None, dry_run: bool = False) -> list[dict]:
    """Consolidate every queued transcript once (the newest line per path wins).
    Returns one ``{"transcript_path", "project", "status", "applied", "error"}``
    per transcript; each is logged. A bad line or a failing transcript is
    logged and skipped, never fatal to the rest."""
    from ..api import Memory
    from ..store.errors import MemdirError

    entries: dict[str, dict] = {}
    files = _claim(home)
    for path in files:
        for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not raw.strip():
                continue
            try:
                item = json.loads(raw)
                entries[str(item["transcript_path"])] = item
            except (ValueError, KeyError, TypeError):
                log_line(home, "skipped a malformed queue line")
    results = []
    for transcript, item in entries.items():
        row = {"transcript_path": transcript, "project": item.get("cwd"), "status": None, "applied": 0,
               "error": None}
        try:
            mem = Memory.open(home=home, project=item.get("cwd") or None, actor="human", use_cwd=False,
                              session=item.get("session_id"))
            report = mem.consolidate(transcript, extractor=extractor, dry_run=dry_run)
            row.update(status=report.status, applied=report.applied, error=report.error)
        except MemdirError as exc:
            row.update(status="error", error=str(exc))
        except OSError as exc:
            row.update(status="error", error=f"{exc.strerror or exc}")
        log_line(home, f"{row['status']} applied={row['applied']} event={item.get('event')} {transcript}"
                 + (f" error={row['error']}" if row["error"] else ""))
        results.append(row)
    for path in files:
        try:
            path.unlink()
        except OSError:
            pass
    return results


def spawn_drain(home: Path, extractor: str | None = None) -> int:
    """Start ``memdir consolidate --queue`` detached from this process (its own
    session, output appended to the log); return its pid. For hooks, which
    have about 1.5 s at SessionEnd."""
    import subprocess

    logs = Path(home) / "logs"
    logs.mkdir(parents=True, exist_ok=True, mode=0o700)
    command = [sys.executable, "-m", "memdir.cli", "consolidate", "--queue", "--home", str(home)]
    if extractor:
        command += ["--extractor", extractor]
    with open(logs / LOG_FILE, "ab") as log:
        kwargs = {"start_new_session": True} if os.name == "posix" else {
            "creationflags": getattr(subprocess, "DETACHED_PROCESS", 0)}
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                   close_fds=True, **kwargs)
    return process.pid


# ---------------------------------------------------------------- Claude Code transcripts


def claude_projects_dir(environ=None) -> Path:
    """``$CLAUDE_CONFIG_DIR/projects``, default ``~/.claude/projects``."""
    environ = os.environ if environ is None else environ
    base = environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / ".claude")
    return Path(base).expanduser() / "projects"


def transcript_cwd(path: Path) -> str | None:
    """The working directory recorded in a Claude Code transcript (first line that has one)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, raw in enumerate(handle):
                if number > 200:
                    break
                if '"cwd"' not in raw:
                    continue
                try:
                    cwd = json.loads(raw).get("cwd")
                except (ValueError, AttributeError):
                    continue
                if cwd:
                    return str(cwd)
    except OSError:
        return None
    return None


def find_transcripts(projects: Path, root: Path | None) -> list[tuple[Path, Path]]:
    """``(transcript, project root)`` for every session transcript under
    ``projects`` (subagent transcripts excluded) whose ``cwd`` resolves to
    ``root`` (every usable project when ``root`` is None), oldest first."""
    from ..store.errors import ScopeError
    from ..store.session import project_root_of

    found = []
    if not projects.is_dir():
        return found
    def modified(path):
        try:
            return path.stat().st_mtime
        except OSError:  # a dangling link or a file gone meanwhile: skipped below
            return -1.0

    for path in sorted(projects.glob("*/*.jsonl"), key=lambda p: (modified(p), str(p))):
        if modified(path) < 0:
            continue
        cwd = transcript_cwd(path)
        if not cwd:
            continue
        try:
            session_root, _ = project_root_of(cwd)
        except (ScopeError, OSError):  # the session's directory is gone or unusable
            continue
        if session_root is None or (root is not None and session_root != root):
            continue
        found.append((path, session_root))
    return found


# ---------------------------------------------------------------- handlers


def _usage(message: str) -> int:
    # Not cli.UsageError: under `python -m memdir.cli` that class lives in __main__.
    print(f"memdir: {message}", file=sys.stderr)
    return 2


def cmd_consolidate(args) -> int:
    from .cli import emit, open_memory
    from ..store.session import open_session

    if args.queue or args.detach:
        if args.path:
            return _usage("give a transcript PATH or --queue, not both")
        home = open_session(args.home, args.project, actor="human", use_cwd=False).home
        if args.detach:
            pid = spawn_drain(home, args.extractor)
            emit(args, {"detached": True, "pid": pid, "log": str(home / "logs" / LOG_FILE)},
                 f"draining the consolidation queue in the background (pid {pid}); log: {home / 'logs' / LOG_FILE}")
            return 0
        results = drain_queue(home, extractor=args.extractor, dry_run=args.dry_run)
        lines = [f"{r['status']}: {r['transcript_path']} ({r['applied']} change(s))"
                 + (f" — {r['error']}" if r["error"] else "") for r in results] or ["queue is empty"]
        emit(args, {"results": results}, "\n".join(lines))
        return 0
    if not args.path:
        return _usage("give a transcript PATH (or --queue)")
    if not Path(args.path).is_file():
        from ..store.errors import InvalidInput

        what = "is a directory, not a transcript file" if Path(args.path).is_dir() else "does not exist"
        raise InvalidInput(f"transcript {args.path} {what}")
    mem = open_memory(args)
    report = mem.consolidate(Path(args.path), dry_run=args.dry_run, extractor=args.extractor,
                             mode=args.mode, force=args.force)
    emit(args, report.to_dict(), report.text(explain=args.explain))
    return 1 if report.status == "failed" else 0


def _progress(items, **kwargs):
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm comes with the search extra; without it, no bar
        return items
    return tqdm(items, **kwargs)


def cmd_ingest(args) -> int:
    from ..api import Memory
    from ..store.errors import MemdirError
    from ..store.session import open_session
    from .cli import emit

    if not args.claude_code:
        return _usage("say where from: --claude-code")
    session = open_session(args.home, args.project, actor="human")
    home = session.home
    root = None if args.all else session.project()
    projects = claude_projects_dir()
    found = find_transcripts(projects, root)
    counts: dict[str, int] = {}
    rows = []
    changes = 0
    for path, session_root in _progress(found, desc="ingest", unit="transcript", file=sys.stderr,
                                   disable=args.json and not sys.stderr.isatty()):
        row = {"transcript_path": str(path), "project": str(session_root)}
        try:
            mem = Memory.open(home=home, project=session_root, actor="human", use_cwd=False)
            report = mem.consolidate(path, extractor=args.extractor, dry_run=args.dry_run)
            row.update(status=report.status, applied=report.applied, error=report.error)
            changes += report.applied
        except MemdirError as exc:
            row.update(status="error", applied=0, error=str(exc))
        counts[row["status"]] = counts.get(row["status"], 0) + 1
        rows.append(row)
    where = str(root) if root else "every project"
    text = (f"{len(found)} transcript(s) for {where} under {projects}: "
            + (", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "none")
            + f"; {changes} change(s)")
    for row in rows:
        if row["status"] in ("failed", "error", "partial"):
            text += f"\n{row['status']}: {row['transcript_path']}" + (f" — {row['error']}" if row.get("error") else "")
    emit(args, {"projects_dir": str(projects), "project": str(root) if root else None, "transcripts": rows,
                "counts": counts, "changes": changes}, text)
    return 1 if counts.get("failed") or counts.get("error") else 0


def register(add, common) -> None:
    """Add ``consolidate`` and ``ingest`` to the ``memdir`` parser."""
    p = add("consolidate", cmd_consolidate,
            "Turn a session transcript into memories (Claude Code JSONL, a JSON message list, "
            "or USER:/ASSISTANT: text); --queue drains what the hooks queued.")
    p.add_argument("path", nargs="?", help="transcript file")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--extractor", choices=("rules", "llm", "auto"),
                   help="rules (offline), llm (OpenAI-compatible model) or auto (llm when a key is set)")
    p.add_argument("--explain", action="store_true", help="show which of the person's lines fired which gate rule")
    p.add_argument("--mode", choices=("off", "gated", "always"), help="override consolidation_mode for this run")
    p.add_argument("--force", action="store_true", help="run even if this transcript was consolidated before")
    p.add_argument("--queue", action="store_true", help="drain $MEMDIR_HOME/queue/consolidate.jsonl")
    p.add_argument("--detach", action="store_true", help="with --queue: drain in the background, log to "
                   "$MEMDIR_HOME/logs/consolidate.log")

    p = add("ingest", cmd_ingest, "Consolidate past session transcripts not yet seen (progress on stderr).")
    p.add_argument("--claude-code", action="store_true",
                   help="read ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects)")
    p.add_argument("--all", action="store_true", help="every project, each into its own layer")
    p.add_argument("--extractor", choices=("rules", "llm", "auto"))
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")


__all__ = ["claude_projects_dir", "drain_queue", "find_transcripts", "log_line", "queue_path", "register",
           "spawn_drain", "transcript_cwd"]
