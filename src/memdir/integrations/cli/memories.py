"""The core commands of ``memdir``: write, read, list, delete/forget, prune,
clear, status, doctor, verify, history, journal, show, restore, tombstones, tombstone
lift, review, approve/reject, pin/unpin, mute/unmute. (``context``, the hot
path, lives in :mod:`.main` itself.)

Each handler opens the facade, calls one method and prints the result with
its renderer (:mod:`memdir.render.memories`). Registered by
:func:`memdir.integrations.cli.main.build_parser`; help texts take their limits
from the settings.
"""

from __future__ import annotations

from ...errors import Conflict
from ...gateway.compare import MIN_DIGEST
from ...render import maintenance
from ...render import memories as render
from ...render import setup as render_setup
from ...vocabulary import ACTORS, CLEARABLE, JOURNAL_ACTIONS, SCOPES, TYPE_IMPORTANCE, TYPES
from .common import UsageError, body_source, emit, open_memory, read_body, warn


def cmd_write(args) -> int:
    """``memdir write NAME -d … -t …``: create or update a memory (the body from --body, --body-file or stdin)."""
    mem = open_memory(args)
    result = mem.write(
        args.name, args.description, args.type, read_body(args, mem.session.settings.max_file_bytes),
        title=args.title, scope=args.scope,
        pinned=args.pinned, disabled=args.disabled, importance=args.importance,
        status="candidate" if args.candidate else None, valid_from=args.valid_from,
        valid_until=args.valid_until, supersedes=args.supersedes, reason=args.reason,
        reactivate=args.reactivate, rename_from=args.rename_from, clear=tuple(args.clear or ()),
        body_source=body_source(args))
    emit(args, result, render.write(result))
    warn(render.warnings(result))
    return 0


def cmd_read(args) -> int:
    """``memdir read NAME``: a memory's text (counts as a read)."""
    result = open_memory(args).read(args.name, args.scope)
    emit(args, result, render.read(result, digest=True))  # the digest --digest takes, as a person types it
    return 0


def cmd_list(args) -> int:
    """``memdir list``: memories in index order, user layer first."""
    from ...operations.maintenance import moved_note
    from ...paths import work_tree_top
    from ..clients.reach import note, team, unseen, waiting

    mem = open_memory(args)
    result = mem.list(args.scope, include_all=args.all, as_of=args.as_of, valid_at=args.valid_at)
    top = work_tree_top(mem.project_root) if mem.project_root else None
    blind = [line for line in (team(mem.session, result.memories), *(unseen(top) if top is not None else ()))
             if line]  # memories shown here that no agent, or not the agent of some client, can reach
    asks = waiting(top) if top is not None else []  # reached headless, asked first in an interactive session
    if getattr(args, "json", False):
        emit(args, {**result.to_dict(), **({"agent_cannot_see": blind} if blind else {}),
                    **({"agent_asks_approval": asks} if asks else {})})  # each only when said
    else:  # 10,000 lines not made to be dropped
        emit(args, result, render.listing(result, as_of=args.as_of, valid_at=args.valid_at)
             + (f"\n{note(blind, asks)}" if blind or asks else ""))
    if not (args.as_of or args.valid_at):
        found = mem.moved_away(result, args.scope)  # a moved or renamed project starts empty: where its memories may be
        if found:
            warn([moved_note(found)])
    return 0


def cmd_delete(args) -> int:
    """``memdir delete|forget NAME [--digest D]``: delete a memory, tombstoning its value; with ``--digest``, only
    the version of that digest (a :class:`Conflict` naming the digest now when it changed since: nothing deleted)."""
    mem = open_memory(args)
    expect = False if args.digest is None else args.digest  # False: the version the lookup finds
    try:
        result = (mem.forget if args.command == "forget" else mem.delete)(args.name, args.scope, reason=args.reason,
                                                                          expect_digest=expect)
    except Conflict as exc:  # the operation's text names no command: here, the one that shows it again
        now = f"; its digest now is {exc.current[:16]}" if exc.current and exc.current[:16] not in str(exc) else ""
        raise Conflict(f"{exc} (`memdir read {args.name}` shows it as it is now{now})", memory=exc.memory,
                       current=exc.current) from None
    emit(args, result, render.delete(result))
    return 0


def cmd_prune(args) -> int:
    """``memdir prune --older-than DAYS [--apply]``: old unpinned memories (a dry run unless --apply)."""
    result = open_memory(args).prune(args.older_than, args.scope, dry_run=not args.apply)
    emit(args, result, render.prune(result, apply="re-run with --apply to delete them"))
    return 0


def cmd_clear(args) -> int:
    """``memdir clear --scope S --yes``: delete every memory of a scope."""
    if not args.yes:
        raise UsageError("clear deletes every memory of the scope; add --yes to confirm")
    result = open_memory(args).clear(args.scope, confirm=True)
    emit(args, result, render.clear(result))
    return 0


def cmd_status(args) -> int:
    """``memdir status``: home, project, layers, search mode, context size, and the clients memdir is installed
    into (:meth:`memdir.Memory.status`)."""
    result = open_memory(args).status()
    emit(args, result, maintenance.status(result, max_malformed=50))  # a person's terminal; a model gets 10
    return 0


def cmd_doctor(args) -> int:
    """``memdir doctor``: status plus journal checks; exit 1 when there is a problem (an install whose interpreter
    is gone too: :func:`memdir.integrations.clients.drift.broken`); an install a client will not run until the
    person trusts it (:func:`memdir.integrations.clients.reach.unseen`, Codex's untrusted hooks) is a warning: the
    last line says so, exit 0."""
    from dataclasses import replace

    from ...files.scan import Malformed
    from ...paths import work_tree_top
    from ..claude_code.scopes import competing_auto_memory, hooked_scopes, twice
    from ..clients import INSTALLERS
    from ..clients.drift import broken
    from ..clients.edits import problems
    from ..clients.reach import unseen, untrusted_hooks, waiting

    mem = open_memory(args)
    top = work_tree_top(mem.project_root) if mem.project_root else None
    doubled = twice(hooked_scopes(None, top))  # what only this integration sees
    blind = unseen(top) if top is not None else []  # a client that does not run memdir's server here: a warning
    asks = waiting(top) if top is not None else []  # runs it headless, asks first in an interactive session: a note
    both = competing_auto_memory(mem.project_root) if mem.project_root else ""  # two memories before Claude
    notes = tuple(n for n in (doubled, *asks, both) if n) + tuple(problems(mem.session.home, INSTALLERS))
    result = mem.doctor(notes=notes)
    failing = broken(mem.session.home, INSTALLERS)  # every hook of that client fails: counted, not a note
    result = replace(result, problems=(*result.problems, *(Malformed("install", line) for line in failing)),
                     warnings=(*result.warnings, *blind, *untrusted_hooks(mem.session.home, INSTALLERS)))
    emit(args, result, maintenance.doctor(result))
    return 0 if result.ok else 1  # a warning waits on the person, not on memdir: 0, said on the last line


def cmd_verify(args) -> int:
    """``memdir verify [--repair]``: every layer's journal chain; exit 1 when one is bad."""
    mem = open_memory(args)
    result = mem.repair() if args.repair else mem.verify()
    emit(args, result, maintenance.verify(result))
    return 0 if result.ok else 1


def cmd_history(args) -> int:
    """``memdir history NAME``: every version of a memory."""
    result = open_memory(args).history(args.name, args.scope)
    emit(args, result, render.history(result))
    return 0


def cmd_journal(args) -> int:
    """``memdir journal [--actor A] [--action X] [--name N] [--limit K] [--all]``: journal events, newest first."""
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    result = open_memory(args).journal(args.scope, actor=args.actor, action=args.action, name=args.name,
                                       limit=args.limit, everything=args.all)
    emit(args, result, render.journal(result))
    return 0


def cmd_show(args) -> int:
    """``memdir show NAME --version N``: the stored text of one version."""
    result = open_memory(args).show(args.name, args.version, args.scope)
    # The bare text, read as text (a stored fence tag as &lt;…&gt;: render.shown_text); --json gives its exact bytes.
    emit(args, result, render.version(result, header=False))
    return 0


def cmd_restore(args) -> int:
    """``memdir restore NAME --version N``: write an old version back."""
    if (args.version is None) == (args.commit is None):
        raise UsageError("give --version N (from memdir history) or --commit ID (a team memory's git commit)")
    result = open_memory(args).restore(args.name, args.version, args.scope, commit=args.commit,
                                       reactivate=args.reactivate)
    emit(args, result, render.restore(result))
    warn(render.warnings(result))
    return 0


def cmd_tombstones(args) -> int:
    """``memdir tombstones``: the values that were deleted or forgotten."""
    result = open_memory(args).tombstones(args.scope)
    emit(args, result, render.tombstones(result))
    warn(render.warnings(result))
    return 0


def cmd_tombstone(args) -> int:
    """``memdir tombstone lift ID``: let a forgotten value be written again."""
    result = open_memory(args).lift_tombstone(args.id, reason=args.reason, scope=args.scope)
    emit(args, result, render.lift(result))
    return 0


def cmd_review(args) -> int:
    """``memdir review``: candidates waiting for a person, and the project's pending findings
    (:mod:`memdir.operations.findings`); ``--drop ID|all``: remove pending findings."""
    from ...operations.findings import held_in
    from ...render import findings as render_findings

    mem = open_memory(args)
    if args.drop:
        gone = mem.drop_findings(args.drop, args.scope)
        emit(args, gone, render_findings.dropped(gone))
        return 0
    result = mem.review(args.scope)
    found = mem.findings() if held_in(args.scope) else None
    text = render.review(result)
    if found is not None and (found.findings or found.answered):
        text = f"{text}\n\n{render_findings.findings(found)}"
    emit(args, {**result.to_dict(), "findings": found.to_dict()["findings"] if found else [],
                "answered_findings": found.to_dict()["answered"] if found else []}, text)
    return 0


def cmd_decide(args) -> int:
    """``memdir approve|reject|dismiss NAME [--digest D]``: a person's decision on a candidate."""
    mem = open_memory(args)
    decide = {"approve": mem.approve, "reject": mem.reject, "dismiss": mem.dismiss}[args.command]
    try:
        result = decide(args.name, args.scope, reason=args.reason, digest=args.digest)
    except Conflict as exc:  # the operation's text names no command: here, the one that shows it again
        raise Conflict(f"{exc} (`memdir review` shows it as it is now)") from None
    emit(args, result, render.decision(result))
    warn(render.warnings(result))
    return 0


def cmd_flag(args) -> int:
    """``memdir pin|unpin|mute|unmute NAME``."""
    mem = open_memory(args)
    value = not args.command.startswith("un")
    result = (mem.pin if args.command.endswith("pin") else mem.mute)(args.name, value, args.scope)
    emit(args, result, render.flag(result))
    return 0


def cmd_move_layer(args) -> int:
    """``memdir move-layer OLD [NEW]``: give a moved project its memories back."""
    result = open_memory(args).move_layer(args.old, args.new, reason=args.reason, force=args.force)
    emit(args, result, render_setup.layer_move(result))
    return 0


def register(add, settings) -> None:
    """Add the core commands to the parser (``add(name, handler, help)``
    returns the subparser); limits in help texts come from ``settings``."""
    import argparse

    def scope_opt(p, help_text="the layer that holds it: user, team or project (default: the first that has "
                               "it: user, then team, then project)"):
        p.add_argument("--scope", choices=SCOPES, help=help_text)

    def name_arg(p):
        p.add_argument("name", help="the memory's name as `memdir list` shows it, or its title (Zoë's editor "
                       "finds zoe-s-editor)")

    p = add("write", cmd_write, "Create or update a memory (body from --body, --body-file or stdin). A new "
            "memory needs -d (and -t, else it is project); an update or a rename (--rename-from) keeps the "
            "description, type, body "
            "and every other field not given (--body '' empties the body, --clear FIELD an optional field).")
    p.add_argument("name", help="kebab-case name; other text is normalized (My Pref → my-pref; a name with no "
                   "letters a-z, such as 部署流程, becomes m-<hash> and is kept as the title)")
    p.add_argument("--description", "-d",
                   help=f"one line, ≤ {settings.limit_description} characters (required for a new memory; "
                   "an update without it keeps the memory's)")
    p.add_argument("--type", "-t", choices=TYPES,
                   help="user: who the person is (saved in the user layer, seen in every project); feedback: how "
                        "to work; project: goals, decisions, deadlines of this project; reference: outside "
                        "resources (these three are saved in the project layer). An update without it keeps the "
                        "memory's type; a new memory without it is user in the user layer, else project")
    p.add_argument("--body", "-b", help=f"Markdown body, kept whole (a file of at most {settings.max_file_bytes} bytes); without "
                   "--body, --body-file or piped stdin an update keeps the body, --body '' empties it")
    p.add_argument("--body-file", help="read the body from this file ('-' = stdin); an empty one is refused "
                   "for a memory that has a body (say --body '' to empty it)")
    p.add_argument("--title", help=f"display title, any language (≤ {settings.limit_title} characters)")
    scope_opt(p, "user, team or project (default: where it is; new memories go to the user layer for -t user, "
                 "else to the project)")
    p.add_argument("--pinned", action=argparse.BooleanOptionalAction, default=None, help="pin (leads the index)")
    p.add_argument("--disabled", action=argparse.BooleanOptionalAction, default=None,
                   help="mute (kept and listed, left out of the index)")
    by_type = ", ".join(f"{kind} {value}" for kind, value in TYPE_IMPORTANCE.items())
    p.add_argument("--importance", type=int, help=f"1–10 (default by type: {by_type})")
    p.add_argument("--candidate", action="store_true", help="propose it for review instead of publishing")
    p.add_argument("--valid-from", help="when the fact starts being true: ISO-8601 (2026-11-30T09:00+08:00); a time "
                   "without a zone is local time; a date alone (2026-11-30) means from the start of that local day; "
                   "stored converted to UTC (…Z); years 1000–9998")
    p.add_argument("--valid-until", help="when the fact stops being true, read like --valid-from; a date alone "
                   "(2025-03-31) means through the end of that local day. Must be after --valid-from; a time "
                   "already past is kept with a warning (expired at once)")
    p.add_argument("--clear", action="append", choices=sorted(CLEARABLE), metavar="FIELD",
                   help="empty an optional field instead of keeping it (repeatable; one of "
                   f"{', '.join(sorted(CLEARABLE))}; --title '' clears the title too)")
    p.add_argument("--supersedes", help="name of the memory this one replaces (with --candidate: once approved)")
    p.add_argument("--reactivate", action="store_true",
                   help="write to a superseded memory and make it active again (journaled)")
    p.add_argument("--rename-from", metavar="OLD",
                   help="rename the memory OLD to NAME (NAME must be free); fields not given are kept, and "
                   "OLD is kept as superseded by NAME (memdir read OLD says so)")
    p.add_argument("--reason", help="why (kept in the journal)")

    p = add("read", cmd_read, "Print a memory (counts as a read), with its digest: the one `forget` and `delete` "
            "take as --digest to act only on this version (--json: all 64 hex digits).")
    name_arg(p)
    scope_opt(p)

    p = add("list", cmd_list, "List memories, user layer first, in index order.")
    scope_opt(p, "only this scope")
    p.add_argument("--all", action="store_true", help="also candidates, superseded and expired memories")
    p.add_argument("--as-of", metavar="TIME", help="what memdir believed at this time, rebuilt from the journal: "
                   "ISO-8601 (2026-11-30T12:00:00Z) or a date (2026-11-30)")
    p.add_argument("--valid-at", metavar="TIME", help="what was true in the world at this time (by each memory's "
                   "--valid-from/--valid-until), read like --as-of")

    for name, text in (("delete", "Delete a memory; its value is tombstoned and will not come back (`memdir "
                                  "tombstones` lists it)."),
                       ("forget", "The user says this is wrong: delete it and tombstone its value, as delete "
                                  "does; the journal records a forget, not a delete.")):
        p = add(name, cmd_delete, text)
        name_arg(p)
        scope_opt(p)
        p.add_argument("--reason", help="why (kept with the tombstone)")
        p.add_argument("--digest", help=f"the digest of the version you looked at (`memdir read` shows it; "
                                        f"{MIN_DIGEST}+ hex digits): refused (nothing changed) if the memory changed since")

    p = add("prune", cmd_prune, "Delete memories not updated for DAYS or more (dry run unless --apply).")
    p.add_argument("--older-than", type=int, required=True, metavar="DAYS", help="whole days since update (≥ 1)")
    p.add_argument("--apply", action="store_true", help="really delete (default: dry run)")
    scope_opt(p, "only this scope")

    p = add("clear", cmd_clear, "Delete every memory of a scope (tombstones stay).")
    p.add_argument("--scope", choices=SCOPES, required=True, help="the layer to empty: user, team or project")
    p.add_argument("--yes", action="store_true", help="confirm")

    add("status", cmd_status, "Show home, project, layers, search mode, context size and the coding agents "
                              "memdir is installed into (client, scope, files).")
    add("doctor", cmd_doctor, "Check the store and its setup: malformed files and files read by the fallback, "
                              "journals and version objects, settings, orphaned layers (a moved project) and "
                              "copies of a layer, sync and team merge conflicts, the team layer's trust and git "
                              "merge driver, the coding agents memdir is installed into (what they can see, an "
                              "older install), the search index and its background process. Exit 1 when there is "
                              "a problem; an install a client will not run until you trust it is a warning (the "
                              "last line says `warning: …`, exit 0); notes are said, not counted. Reads every memory file and checks every "
                              "journal: seconds on a layer of 10,000 memories.")
    p = add("verify", cmd_verify, "Check every layer's journal hash chain and version objects (exit 1 if bad).")
    p.add_argument("--repair", action="store_true",
                   help="first cut a torn last line (crash), journal hand edits and rebuild MEMORY.md")

    p = add("move-layer", cmd_move_layer, "A project moved or was renamed: re-key its old layer to the new "
            "place (journaled; refuses a target that already has memories). `memdir doctor` lists orphaned layers.")
    p.add_argument("old", help="the old layer's key (from `memdir doctor`) or the project's old path")
    p.add_argument("new", nargs="?", help="the project's new directory (default: --project or the working directory)")
    p.add_argument("--reason", help="why (kept in the journal)")
    p.add_argument("--force", action="store_true",
                   help="move it even though the old project directory still exists (a copy, not a move)")

    p = add("history", cmd_history, "List the versions of a memory (also a deleted one).")
    name_arg(p)
    scope_opt(p)
    p = add("journal", cmd_journal, "List journal events of the layers, newest first (as the panel's journal page).")
    scope_opt(p, "only this layer's events (default: every layer)")
    p.add_argument("--actor", choices=ACTORS, metavar="ACTOR", help="only this actor's events: " + ", ".join(ACTORS))
    p.add_argument("--action", choices=JOURNAL_ACTIONS, metavar="ACTION",
                   help="only this action: " + ", ".join(JOURNAL_ACTIONS))
    p.add_argument("--name", help="only this memory's events")
    p.add_argument("--limit", type=int, default=50, help="at most this many events (default 50)")
    p.add_argument("--all", action="store_true",
                   help="show consolidation receipts too (one per session whose transcript was read; left out "
                        "and counted by default)")
    p = add("show", cmd_show, "Print one version of a memory (--json: its exact text).")
    name_arg(p)
    p.add_argument("--version", required=True, help="version number from `memdir history`: v3 or 3")
    scope_opt(p)
    p = add("restore", cmd_restore, "Write an old version back (a new journaled event).")
    name_arg(p)
    p.add_argument("--version", help="version number from `memdir history`: v3 or 3 (a deletion cannot be restored)")
    p.add_argument("--commit", help="a team memory as git holds it at this commit (from memdir history)")
    p.add_argument("--reactivate", action="store_true",
                   help="restore an active version over a memory that was superseded (it becomes active again)")
    scope_opt(p)

    p = add("tombstones", cmd_tombstones, "List tombstones: values that were deleted or forgotten.")
    scope_opt(p, "only this scope")
    p = add("tombstone", cmd_tombstone, "Lift a tombstone so its value may be written again.")
    p.add_argument("action", choices=("lift",))
    p.add_argument("id", help="tombstone id (t-…) from `memdir tombstones`")
    p.add_argument("--reason", help="why it may be written again (kept in the journal)")
    scope_opt(p, "only this scope's tombstone (needed when the same value was forgotten in two scopes)")

    p = add("review", cmd_review, "List candidates waiting for a person's approval: a new memory's whole text, "
            "a change's diff, and the digest approve checks; and the project's pending findings (what you said, "
            "offered to the next session's agent to save), which --drop removes.")
    scope_opt(p, "only this scope")
    p.add_argument("--drop", action="append", metavar="ID",
                   help="remove this pending finding (its id from `memdir review`; 'all': every one); repeatable")
    for name, text in (("approve", "Publish a candidate."),
                       ("reject", "Reject a candidate: the fact is wrong (tombstones its value)."),
                       ("dismiss", "Dismiss a candidate: not this, no tombstone; the same proposal is not "
                                   "proposed again.")):
        p = add(name, cmd_decide, text)
        name_arg(p)
        scope_opt(p)
        p.add_argument("--reason", help="why (kept in the journal)")
        p.add_argument("--digest", help="the digest `memdir review` showed: refused if the candidate changed since")
    for name, text in (("pin", "Pin a memory."), ("unpin", "Unpin a memory."),
                       ("mute", "Mute a memory (out of the index, still listed)."), ("unmute", "Unmute a memory.")):
        p = add(name, cmd_flag, text)
        name_arg(p)
        scope_opt(p)
