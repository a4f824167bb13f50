"""``memdir sync``: the person's layers on every machine through a private git remote
(:mod:`memdir.operations.sync`). ``sync init REMOTE [--layers user|user,projects]``, ``sync`` (exit
:data:`~memdir.vocabulary.SYNC_OFFLINE_EXIT` when the remote cannot be reached: the changes wait;
:data:`~memdir.vocabulary.SYNC_CONFLICT_EXIT` when conflicts wait for the person), ``sync status``,
``sync resolve NAME --scope user|project [--field FIELD=ours|theirs]`` (without a choice: both values
of each conflicting field). Each opens the facade as a person, calls one method and prints its
renderer's text (:mod:`memdir.render.sync`); ``sync ACTION --help`` prints that action's own page."""

from __future__ import annotations

import argparse
import sys

from ...render import sync as render_sync
from ...vocabulary import SYNC_CONFLICT_EXIT, SYNC_LAYERS, SYNC_OFFLINE_EXIT
from .common import UsageError, emit, field_sides, open_memory, warn


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
        fields = field_sides(args.field)
        if not fields and args.side is None:  # no choice yet: show both values of each field
            shown = mem.sync_conflict(args.target, args.scope)
            emit(args, shown, render_sync.sync_conflict(shown))
            return 0
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
    if result.conflicts:
        if args.json:
            warn([f"{len(result.conflicts)} conflict(s) wait: memdir sync resolve NAME"])
        return SYNC_CONFLICT_EXIT
    return 0


SYNC_HELP = ("Your memory on every machine, through a private git remote. `memdir sync init REMOTE` makes the sync "
             "repository (in the home, this user only) for the layers chosen; `memdir sync` sends this machine's "
             "changes and takes the others' (pull, field-by-field merge, push; never a force-push; exit "
             f"{SYNC_OFFLINE_EXIT} when the remote cannot be reached: the changes wait; exit {SYNC_CONFLICT_EXIT} when "
             "conflicts wait for you); `memdir sync status` shows what is not yet sent, the last sync and each "
             "conflict with both values; `memdir sync resolve NAME` shows a conflict's two values, and with "
             "--field FIELD=ours|theirs settles it (ours: this machine's value). To sync when each session ends, "
             "add `sync_on_session_end = true` to config.toml in the memdir home. Run `memdir sync ACTION --help` "
             "for an action's own page.")

PAGES = {
    "init": ("memdir sync init REMOTE [--layers user|user,projects]",
             "Make the sync repository for a private git REMOTE (URL or path; never a project's own repository) "
             "and choose the layers that travel. Run it on every machine with the same REMOTE, then `memdir sync`. "
             "A machine that joins later takes in what the remote has first and never deletes anything there. "
             "To sync at the end of each session: `sync_on_session_end = true` in config.toml in the memdir home.",
             [("REMOTE", "a private git remote: URL or path"),
              ("--layers", "user (default), or user,projects (each personal project layer, matched across machines "
                           "by its repository's first commit or remote URL)")]),
    "status": ("memdir sync status [--json]",
               "The sync state without the network: the last successful sync and the last attempt, the changes not "
               "yet sent, commits ahead/behind as last fetched, each conflict with both values of each field "
               "(this machine / other machine), and files left out.", []),
    "resolve": ("memdir sync resolve NAME [--scope user|project] [--field FIELD=ours|theirs ...] [--ours|--theirs]",
                "Without a choice: show both values of each conflicting field of NAME (this machine / other "
                "machine). With one: settle it, written through the gateway; the next `memdir sync` sends it. "
                "ours is always this machine's value and theirs the other machine's, whichever machine merged.",
                [("NAME", "the memory's name"), ("--scope", "the layer: user (default) or project"),
                 ("--field FIELD=ours|theirs", "keep one side of a conflicting field (a frontmatter key, or body); "
                                               "repeat per field"),
                 ("--ours / --theirs", "this machine's / the other machine's side of every field not named")]),
}


class _Help(argparse.Action):
    """``-h``/``--help``: the page of the action given before it (``sync init --help``), else sync's own."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        page = PAGES.get(getattr(namespace, "action", None) or "")
        if page is None:
            parser.print_help()
        else:
            usage, text, options = page
            lines = [f"usage: {usage}", "", text]
            if options:
                lines += ["", "arguments:"] + [f"  {name:<28} {about}" for name, about in options]
            lines += ["", "Also: --json (one JSON document), --home, --project."]
            # as argparse prints every other help page: a closed pipe (`| head -1`) or stdout loses the page quietly
            parser._print_message("\n".join(lines) + "\n", sys.stdout)
        parser.exit()


def register(add, settings) -> None:
    """Add the sync command to the parser (``add(name, handler, help)``)."""
    p = add("sync", cmd_sync, SYNC_HELP, add_help=False)
    p.add_argument("-h", "--help", action=_Help, help="this page; `sync ACTION --help`: the action's own page")
    p.add_argument("action", nargs="?", choices=("init", "status", "resolve"),
                   help="init REMOTE | status | resolve NAME (none: sync now)")
    p.add_argument("target", nargs="?", help="init: the remote (URL or path); resolve: the memory's name")
    p.add_argument("--layers", choices=SYNC_LAYERS, default=None, metavar="|".join(SYNC_LAYERS),
                   help="init: the layers that travel: user (default), or user,projects (each personal project "
                        "layer, matched across machines by its repository's first commit or remote URL)")
    p.add_argument("--scope", choices=("user", "project"), default="user", help="resolve: the layer (default user)")
    sides = p.add_mutually_exclusive_group()  # --ours and --theirs: one side for the rest, not both
    sides.add_argument("--ours", dest="side", action="store_const", const="ours",
                       help="resolve: keep this machine's value of each conflicting field not named by --field")
    sides.add_argument("--theirs", dest="side", action="store_const", const="theirs",
                       help="resolve: keep the other machine's value of each conflicting field not named by --field")
    p.add_argument("--field", action="append", metavar="FIELD=SIDE",
                   help="resolve: keep one side (ours: this machine | theirs: the other machine) of a conflicting "
                        "field (a frontmatter key, or body); repeat per field")
    p.add_argument("--quiet", action="store_true", help="print only problems (what the SessionEnd hook runs)")
