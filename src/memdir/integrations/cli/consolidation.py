"""CLI commands ``memdir consolidate`` and ``memdir ingest``.

* ``memdir consolidate PATH [--dry-run] [--extractor auto|rules|llm|command|agent] [--explain] [--json]``
  consolidates one transcript into the session's layers and prints what it did
  (or, with ``--dry-run``, would do). Exit 1 when the extractor failed.
* ``memdir consolidate --queue [--detach]`` drains the queue the Claude Code
  hooks fill at SessionEnd/PreCompact (:mod:`memdir.consolidation.queue`);
  ``--detach`` starts the drain in the background and returns at once.
* ``memdir ingest --claude-code|--codex|--gemini [--all]`` consolidates every
  past session of that client for this project (``--all``: every project) not
  done before, with a progress bar on stderr (:mod:`memdir.consolidation.ingest`).

Registered by :func:`memdir.integrations.cli.main.build_parser`; heavy imports
stay inside the handlers so ``memdir context`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

EXTRACTORS = ("auto", "rules", "llm", "command", "agent")
EXTRACTOR_HELP = ("rules (offline), llm (OpenAI-compatible model), command (extractor_command), agent (findings wait "
                  "for the next session's agent) or auto (llm with a key, else command when set, else agent for a "
                  "session a hook queued at its end, else rules)")


def cmd_consolidate(args) -> int:
    """``memdir consolidate PATH`` or ``--queue [--detach]`` (see the module docstring)."""
    from ...consolidation import queue
    from ...render import consolidation as render_consolidation
    from ...session import open_session
    from .common import UsageError, emit, open_memory

    if args.queue or args.detach:
        if args.path:
            raise UsageError("give a transcript PATH or --queue, not both")
        home = open_session(args.home, args.project, actor="human", use_cwd=False).home
        if args.detach:
            pid = queue.spawn_drain(home, args.extractor)
            log = queue.log_path(home)
            emit(args, {"detached": True, "pid": pid, "log": str(log)}, render_consolidation.drain_started(pid, log))
            return 0
        rows = queue.drain(home, extractor=args.extractor, dry_run=args.dry_run)
        emit(args, {"results": [row.to_dict() for row in rows]}, render_consolidation.drain(rows))
        return 0
    if not args.path:
        raise UsageError("give a transcript PATH (or --queue)")
    report = open_memory(args).consolidate(Path(args.path), dry_run=args.dry_run, extractor=args.extractor,
                                           mode=args.mode, force=args.force)
    emit(args, report, render_consolidation.consolidation(report, explain=args.explain))
    return 1 if report.status == "failed" else 0


def cmd_ingest(args) -> int:
    """``memdir ingest --claude-code|--codex|--gemini [--all]``: a client's past sessions (see the module docstring)."""
    from ...consolidation.ingest import ingest
    from ...render import consolidation as render_consolidation
    from ...render.progress import ProgressBar
    from ...session import open_session
    from .common import UsageError, emit

    clients = [client for client, asked in (("claude-code", args.claude_code), ("codex", args.codex),
                                            ("gemini", args.gemini)) if asked]
    if len(clients) != 1:
        raise UsageError("say where from: one of --claude-code, --codex, --gemini")
    session = open_session(args.home, args.project, actor="human")
    with ProgressBar("ingest", "transcript") as bar:
        result = ingest(session.home, None if args.all else session.project(), extractor=args.extractor,
                        dry_run=args.dry_run, progress=bar, client=clients[0])
    emit(args, result, render_consolidation.ingest(result))
    return 0 if result.ok else 1


def register(add, settings) -> None:
    """Add ``consolidate`` and ``ingest`` to the ``memdir`` parser."""
    p = add("consolidate", cmd_consolidate,
            "Turn a session transcript into memories (Claude Code, Codex or Gemini CLI JSONL, a JSON message list, "
            "or USER:/ASSISTANT: text); --queue drains what the hooks queued.")
    p.add_argument("path", nargs="?", help="transcript file")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--extractor", choices=EXTRACTORS, help=EXTRACTOR_HELP)
    p.add_argument("--explain", action="store_true", help="show which of the person's lines fired which gate rule "
                   "(messages counted from 1, as --json's turn numbers are)")
    p.add_argument("--mode", choices=("off", "gated", "always"), help="override consolidation_mode for this run")
    p.add_argument("--force", action="store_true", help="run even if this transcript was consolidated before")
    p.add_argument("--queue", action="store_true", help="drain $MEMDIR_HOME/queue/consolidate.jsonl")
    p.add_argument("--detach", action="store_true", help="with --queue: drain in the background, log to "
                   "$MEMDIR_HOME/logs/consolidate.log")

    p = add("ingest", cmd_ingest, "Consolidate past session transcripts not yet seen (progress on stderr).")
    p.add_argument("--claude-code", action="store_true",
                   help="read ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects)")
    p.add_argument("--codex", action="store_true", help="read ~/.codex/sessions (or $CODEX_HOME/sessions)")
    p.add_argument("--gemini", action="store_true", help="read Gemini CLI's ~/.gemini/tmp/*/chats")
    p.add_argument("--all", action="store_true", help="every project, each into its own layer")
    p.add_argument("--extractor", choices=EXTRACTORS, help=EXTRACTOR_HELP)
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
