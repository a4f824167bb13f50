"""``memdir sync``: the person's layers on every machine through a private git remote
(:mod:`memdir.operations.sync`). ``sync init REMOTE [--layers user|user,projects]``, ``sync`` (exit
:data:`~memdir.vocabulary.SYNC_OFFLINE_EXIT` when the remote cannot be reached: the changes wait),
``sync status``, ``sync resolve NAME --scope user|project --field FIELD=ours|theirs``. Each opens
the facade as a person, calls one method and prints its renderer's text (:mod:`memdir.render.sync`)."""

from __future__ import annotations

from ...render import sync as render_sync
from ...vocabulary import SYNC_LAYERS, SYNC_OFFLINE_EXIT
from .common import UsageError, emit, open_memory, warn


def cmd_sync(args) -> int:
    """``memdir sync [init REMOTE|status|resolve NAME]``."""
    mem = open_memory(args)
    if args.action == "init":
        if not args.target:
            raise UsageError("sync init needs REMOTE (a private git remote: URL or path)")
        result = mem.sync_init(args.target, args.layers)
        emit(args, result, render_sync.sync_init(result))
        return 0
    if args.action == "status":
        result = mem.sync_status()
        emit(args, result, render_sync.sync_status(result))
        return 0
    if args.action == "resolve":
        if not args.target:
            raise UsageError("sync resolve needs NAME (and --field FIELD=ours|theirs, or --ours|--theirs)")
        fields = {}
        for choice in args.field or ():
            field, _, side = choice.partition("=")
            if not field or side not in ("ours", "theirs"):
                raise UsageError(f"--field takes FIELD=ours or FIELD=theirs (got {choice!r})")
            fields[field] = side
        result = mem.sync_resolve(args.target, args.scope, args.side, fields)
        emit(args, result, render_sync.resolved(result))
        return 0
    if args.target:
        raise UsageError(f"unexpected {args.target!r}: memdir sync takes no argument (sync init REMOTE, sync status, "
                         "sync resolve NAME)")
    result = mem.sync()
    text = render_sync.sync_report(result)
    if args.quiet and not args.json:
        warn([line for line in text.splitlines() if not line.startswith(("sent:", "received:", "synced"))])
    else:
        emit(args, result, text)
    if result.offline:
        if args.json:
            warn([f"remote not reachable: {result.offline}"])
        return SYNC_OFFLINE_EXIT
    return 0


def register(add, settings) -> None:
    """Add the sync command to the parser (``add(name, handler, help)``)."""
    p = add("sync", cmd_sync,
            "Your memory on every machine, through a private git remote. `memdir sync init REMOTE` makes the sync "
            "repository (in the home, this user only) for the layers chosen; `memdir sync` sends this machine's "
            "changes and takes the others' (pull, field-by-field merge, push; never a force-push; exit "
            f"{SYNC_OFFLINE_EXIT} when the "
            "remote cannot be reached: the changes wait); `memdir sync status` shows ahead/behind, the last sync "
            "and conflicts; `memdir sync resolve NAME` settles a conflict per field.")
    p.add_argument("action", nargs="?", choices=("init", "status", "resolve"),
                   help="init REMOTE | status | resolve NAME (none: sync now)")
    p.add_argument("target", nargs="?", help="init: the remote (URL or path); resolve: the memory's name")
    p.add_argument("--layers", choices=SYNC_LAYERS, default=None, metavar="|".join(SYNC_LAYERS),
                   help="init: the layers that travel: user (default), or user,projects (each personal project "
                        "layer, matched across machines by its repository's first commit or remote URL)")
    p.add_argument("--scope", choices=("user", "project"), default="user", help="resolve: the layer (default user)")
    sides = p.add_mutually_exclusive_group()  # --ours and --theirs: one side for the rest, not both
    sides.add_argument("--ours", dest="side", action="store_const", const="ours",
                   help="resolve: keep this machine's side of each conflicting field not named by --field")
    sides.add_argument("--theirs", dest="side", action="store_const", const="theirs",
                   help="resolve: keep the other machine's side of each conflicting field not named by --field")
    p.add_argument("--field", action="append", metavar="FIELD=SIDE",
                   help="resolve: keep one side (ours|theirs) of a conflicting field (a frontmatter key, or body); "
                        "repeat per field")
    p.add_argument("--quiet", action="store_true", help="print only problems (what the SessionEnd hook runs)")
