"""The team and import commands of ``memdir``: ``team init|status|resolve|trust|untrust``, ``merge-file``
(git's merge driver for memory files), ``promote NAME --to team``, ``import SOURCE`` and ``export DIR``. Each
opens the facade as a person, calls one
method and prints its renderer's text (:mod:`memdir.render.team`)."""

from __future__ import annotations

from pathlib import Path

from ...render import memories as render_memories
from ...render import team as render_team
from ...render.progress import ProgressBar
from ...vocabulary import EXPORT_FORMATS, IMPORT_SOURCES, SCOPES
from .common import UsageError, emit, field_sides, open_memory, warn


def cmd_team(args) -> int:
    """``memdir team init|status|trust|untrust|resolve NAME [--ours|--theirs] [--field FIELD=ours|theirs ...]``
    (``resolve NAME`` without a side: both sides of each conflicting field, nothing changed)."""
    mem = open_memory(args)
    if args.action == "init":
        result = mem.team_init()
        emit(args, result, render_team.team_init(result))
        # made here, but shared with nobody: not done, as an import that brought nothing is not (exit 1, said why)
        return 0 if result.repository else 1
    elif args.action == "status":
        result = mem.team_status()
        emit(args, result, render_team.team_status(result))
    elif args.action in ("trust", "untrust"):
        result = mem.team_trust() if args.action == "trust" else mem.team_untrust()
        emit(args, result, render_team.team_trust(result))
    else:
        if not args.name:
            raise UsageError("team resolve needs NAME (and --ours|--theirs, or --field FIELD=ours|theirs)")
        fields = field_sides(args.field)
        if not fields and args.side is None:  # no choice yet: both sides of each conflicting field, nothing changed
            shown = mem.team_conflict(args.name)
            emit(args, shown, render_team.team_conflict(shown))
            return 0
        result = mem.team_resolve(args.name, args.side, fields)
        emit(args, result, render_team.resolved(result))
    return 0


def cmd_merge_file(args) -> int:
    """``memdir merge-file %O %A %B %P``: git runs it to merge a memory file (:mod:`memdir.files.merge`)."""
    # late: the other commands (and the hooks) do without git merging
    from ...errors import MemdirError
    from ...files.merge import merge_paths
    from ...paths import home_path
    from ...settings import load_settings, set_by

    # the merging person's file-size ceiling: a clean merge over it is a conflict git reports (Merged.ceiling).
    # Theirs, not a team-wide one: memdir has no repository settings, and what this clone's memdir reads is
    # bounded by its person's max_file_bytes (a teammate's own team status names a file over theirs)
    try:
        home = home_path(getattr(args, "home", None))
    except MemdirError:  # no usable home: the ceiling of the environment and the defaults
        home = None
    ceiling = load_settings(home).max_file_bytes
    merged = merge_paths(Path(args.base), Path(args.ours), Path(args.theirs), ceiling)
    text = render_team.merged_file(merged, args.path or args.ours,
                                   set_by("max_file_bytes", home) if merged.ceiling else "")
    if text:
        warn([text])
    return 0 if merged.clean else 1


def cmd_promote(args) -> int:
    """``memdir promote NAME --to team``: move a personal project memory into the team layer."""
    result = open_memory(args).promote(args.name)
    emit(args, result, render_team.promoted(result))
    warn(render_memories.warnings(result))
    return 0


def cmd_import(args) -> int:
    """``memdir import SOURCE [PATH] [--scope S] [--dry-run] [--include P] [--exclude P]``: memories from
    another system; exit 1 when it brought nothing (the report says why)."""
    with ProgressBar("importing", "memory") as bar:
        result = open_memory(args).import_from(args.source, args.path, scope=args.scope, dry_run=args.dry_run,
                                                progress=bar, include=tuple(args.include or ()),
                                                exclude=tuple(args.exclude or ()))
    emit(args, result, render_team.import_report(result))
    warn(render_memories.warnings(result))  # a layer whose tombstones were not checked, as a write says it
    return 1 if result.nothing() else 0


def cmd_export(args) -> int:
    """``memdir export DIR [--scope S] [--format memdir|claude-code|jsonl] [--with-history]``."""
    result = open_memory(args).export(args.directory, scope=args.scope, format=args.format,
                                      with_history=args.with_history)
    emit(args, result, render_team.export_report(result))
    return 0


def register(add, settings) -> None:
    """Add the team commands to the parser (``add(name, handler, help)``)."""
    p = add("team", cmd_team, f"The team layer in the repository ({settings.team_dir}): init creates or adopts "
                              "it (outside a git repository it exits 1: nothing would share it), status shows what is not committed and what is held back, resolve NAME shows both "
                              "sides of a memory's merge conflict and, with --ours|--theirs or --field FIELD=SIDE, "
                              "settles it; trust lets its memories reach "
                              "the agent in this clone (untrust takes that back). A team memory is written with "
                              "`memdir write NAME … --scope team`, or moved there from your project layer with "
                              "`memdir promote NAME --to team`; then commit it.")
    p.add_argument("action", choices=("init", "status", "resolve", "trust", "untrust"))
    p.add_argument("name", nargs="?", help="the memory to resolve (alone: show both sides of each conflicting "
                                           "field; nothing is changed)")
    p.add_argument("--ours", dest="side", action="store_const", const="ours", help="keep our side of each hunk")
    p.add_argument("--theirs", dest="side", action="store_const", const="theirs",
                   help="keep their side of each hunk")
    p.add_argument("--field", action="append", metavar="FIELD=SIDE",
                   help="keep one side (ours|theirs) of a conflicting field (a frontmatter key, or body); "
                        "repeat per field; --ours/--theirs then settle the rest")
    p = add("merge-file", cmd_merge_file, "git's merge driver for memory files (memdir team init registers it): "
                                          "merges BASE, OURS and THEIRS field by field into OURS; exit 1 on conflicts.")
    p.add_argument("base", help="the common ancestor's file (git's %%O)")
    p.add_argument("ours", help="this side's file, where the result is written (git's %%A)")
    p.add_argument("theirs", help="the other side's file (git's %%B)")
    p.add_argument("path", nargs="?", help="the file's path in the repository (for messages)")
    p = add("promote", cmd_promote, "Move a personal project memory into the team layer (then commit it).")
    p.add_argument("name", help="the personal project memory to move")
    p.add_argument("--to", choices=("team",), required=True, help="the layer it moves to (team)")
    p = add("import", cmd_import, "Import memories from another system: claude-code (this project's auto "
                                  "memory), dsh (a dsh-auto-memory store), dir PATH (Markdown memory files), "
                                  "mcp-memory FILE (the MCP memory server's memory.json), basic-memory DIR, "
                                  "claude-mem [DB] (its SQLite database, read-only), jsonl FILE (memdir export). "
                                  "Idempotent; forgotten facts stay out; changed memories get candidates; exits 1 "
                                  "when the source holds no memory or every item was skipped (a rerun that finds "
                                  "them all unchanged exits 0).")
    p.add_argument("source", choices=IMPORT_SOURCES, help="the system to import from (see above)")
    p.add_argument("path", nargs="?", help="the directory or file (dir, mcp-memory, basic-memory, jsonl; claude-mem: "
                                           "default ~/.claude-mem/claude-mem.db)")
    p.add_argument("--scope", choices=SCOPES, help="where the memories go (team: as candidates for review)")
    p.add_argument("--dry-run", action="store_true", help="report what would happen, write nothing")
    p.add_argument("--include", action="append", metavar="PATTERN",
                   help="import only files this shell pattern names (path or file name; repeatable)")
    p.add_argument("--exclude", action="append", metavar="PATTERN",
                   help="leave out files and folders this shell pattern names (repeatable)")
    p = add("export", cmd_export, "Write the memories as plain files into a new or empty DIR: memdir's own files, "
                                  "a Claude Code auto memory folder (with MEMORY.md) or one JSON line per memory.")
    p.add_argument("directory", help="a new or empty directory")
    p.add_argument("--scope", choices=SCOPES, help="one layer (default: every layer of this session)")
    p.add_argument("--format", choices=EXPORT_FORMATS, default="memdir",
                   help="memdir (<scope>/<name>.md, the default), claude-code (auto memory files and MEMORY.md) "
                        "or jsonl (one JSON line per memory)")
    p.add_argument("--with-history", action="store_true", help="also every stored version of every memory")
