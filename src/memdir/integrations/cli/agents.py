"""CLI commands that plug memdir into agents: ``mcp``, ``hook``, ``install``,
``uninstall``. Registered by :func:`memdir.integrations.cli.main.build_parser`;
each starts the integration through its one entry function
(:func:`memdir.integrations.mcp.server.serve_stdio`, :func:`memdir.integrations.claude_code.hooks.handle`,
:func:`memdir.integrations.claude_code.install.install`).
Every heavy import (the MCP SDK, the facade) happens inside a handler, so
loading this module costs nothing on the ``memdir context`` / hook path.
"""

from __future__ import annotations


def cmd_mcp(args) -> int:
    """``memdir mcp``: serve the memory tools over stdio (see :mod:`memdir.integrations.mcp.server`)."""
    from ..mcp import early

    early.start()  # Claude Code's server/discover probe (3 s) answered before the SDK's import (seconds when loaded)
    try:
        from ..mcp.server import serve_stdio
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("mcp", "mcp_types", "anyio"):  # the mcp extra brings all three
            from ...errors import MissingExtra

            raise MissingExtra("memdir mcp", "mcp", "mcp") from None
        raise
    return serve_stdio(args.home, args.project, hooks=args.hooks)


def cmd_hook(args) -> int:
    """``memdir hook claude-code EVENT``: one Claude Code hook (always exit 0)."""
    from ..claude_code.hooks import handle

    return handle(args.event, home=args.home, client=args.agent)


def cmd_install(args) -> int:
    """``memdir install|uninstall CLIENT``: merge hooks and the MCP server into a client's files."""
    from ...paths import project_source, work_tree_top
    from ...render import setup as render_setup
    from ...session import open_session
    from ..clients import installer
    from ..clients.entries import home_written
    from .common import emit, warn

    session = open_session(args.home, args.project, actor="human")
    scope = args.scope or ("user" if args.command == "install" else None)
    where = {}
    if scope == "project":
        session.project()  # refuses $HOME, / and no project, saying why
        # This checkout's own top: a linked worktree gets its own files, not the main checkout's.
        where["project"] = work_tree_top(project_source(args.project)[0])
    # the client's hooks and server must find this home without MEMDIR_HOME, and an uninstall tells its entries
    # from another home's by the same --home (none: the default home's)
    extra = {"home": home_written(session.home)}
    install = installer(args.agent)
    if args.command == "install" and getattr(args, "disable_auto_memory", False):
        if args.agent != "claude-code":
            from ...errors import InvalidInput

            raise InvalidInput("--disable-auto-memory is Claude Code's (its own auto memory)")
        extra["disable_auto_memory"] = True
    if args.command == "install" and getattr(args, "force", False):
        extra["force"] = True
    runner = install.install if args.command == "install" else install.uninstall
    plan = runner(scope, session.home, dry_run=args.dry_run, **where, **extra)
    if args.command == "install" and args.agent == "claude-code":
        from dataclasses import replace

        from ..claude_code.scopes import approval, hooked_scopes, twice

        checkout = where.get("project") or (work_tree_top(session.project_root) if session.project_root else None)
        scopes = hooked_scopes(None, checkout)
        if scope not in [s for s, _ in scopes]:  # a dry run: what the install would add
            scopes.append((scope, install.targets(scope, None, checkout)[0]))
        approve = approval(checkout, assume=True) if scope == "project" and checkout is not None else ""
        added = tuple(note for note in (twice(scopes), approve) if note)
        if added:
            plan = replace(plan, notes=(*plan.notes, *added))
    lacking = []
    if args.command == "install":  # doctor's rule (a problem there) of what this install cannot do, said now
        from ...operations.maintenance import unserved
        from ...results.maintenance import InstalledClient
        from ...search.reindex import search_mode

        lacking = [f"warning: {line}" for line in unserved(
            [InstalledClient(args.agent, scope, ())], search_mode(session.settings),
            "would be installed" if args.dry_run else "is installed")]
    if getattr(args, "json", False) and lacking:
        emit(args, {**plan.to_dict(), "warnings": lacking})  # the key only when there is one
    else:
        emit(args, plan, render_setup.install_plan(plan, diff=True if getattr(args, "diff", False) else None))
    warn(lacking)
    return 0


def register(add, settings) -> None:
    """Add ``mcp``, ``hook``, ``install`` and ``uninstall`` to the CLI."""
    p = add("mcp", cmd_mcp, "Serve the memory tools over MCP (stdio). Project: the client's roots, "
                            "else --project / MEMDIR_PROJECT, else the launch directory.", json=False)
    p.add_argument("--hooks", action="store_true",
                   help="the client also runs memdir's session-start hook (memdir install sets it): short server "
                        "instructions that do not repeat the hook's guidance")
    from ..claude_code.hooks import DIALECTS
    from ..clients import INSTALLERS
    from .common import IGNORED

    p = add("hook", cmd_hook, "Run one hook of a coding agent (Claude Code, Codex, Gemini CLI or Cursor): reads "
                              "the hook JSON on stdin and takes the project from its cwd; never fails (on any "
                              "problem it exits 0 and says why on stderr).", options=False)
    p.add_argument("agent", choices=tuple(DIALECTS))
    p.add_argument("event", help="the client's event: " + "; ".join(
        f"{client}: {', '.join(events)}" for client, events in DIALECTS.items()))
    p.add_argument("--home", help="memdir home, an absolute path (default: MEMDIR_HOME, $DSH_HOME/memory, or the "
                                  "platform data dir)")
    clients = tuple(INSTALLERS)
    where = None
    for name, text in (("install", "Register memdir's MCP server and hooks (or instructions) with a coding agent "
                                   "(backs up each file it changes and names it; --dry-run or --diff prints the "
                                   "diff)."),
                       ("uninstall", "Remove exactly what `memdir install` added.")):
        p = add(name, cmd_install, text)
        if p is IGNORED:  # another command's line: its help's file list (every installer, imported) is not built
            continue
        where = where or _files_by_client(clients)
        p.add_argument("agent", choices=clients)
        if name == "install":
            scope_help = ("user: the client's files in your home, its commands naming this interpreter by its "
                          "absolute path; project: its files at the top of this checkout, its commands naming "
                          "`memdir` on PATH (portable, for a team to commit). Default: user. Files, user | "
                          "project: " + where)
        else:
            scope_help = ("user: memdir's entries in the client's files in your home; project: in its files at "
                          "the top of this checkout. Default: every install memdir recorded for the client, "
                          "whatever its scope (`memdir status` lists them). Files, user | project: " + where)
        p.add_argument("--scope", choices=("user", "project"), help=scope_help)
        p.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
        p.add_argument("--diff", action="store_true", help="also print the diff of what it writes (--dry-run: always)")
        if name == "install":
            p.add_argument("--force", action="store_true",
                           help="replace a server named memdir that memdir did not write (uninstall puts it back)")
            p.add_argument("--disable-auto-memory", action="store_true",
                           help="Claude Code: also turn its own auto memory off (autoMemoryEnabled: false) in the "
                                "settings memdir manages; uninstall puts back what was there")


def _files_by_client(clients) -> str:
    """``claude-code ~/.claude/settings.json, ~/.claude.json | .claude/settings.json, .mcp.json; codex …``:
    each client's files per scope as its installer's ``targets`` names them (user: under ``~``; project:
    relative to the checkout's top), for the ``--scope`` help."""
    from pathlib import Path

    from ..clients import installer

    parts = []
    for client in clients:
        module = installer(client)
        note = getattr(module, "USER_FILES_NOTE", "")  # the user file may be another (opencode: global_config)
        user = ", ".join(str(p) + (f" ({note})" if note and not i else "")
                         for i, p in enumerate(module.targets("user", Path("~"), None)))
        targets = module.targets
        project = ", ".join(str(p) for p in targets("project", None, Path("")))
        parts.append(f"{client} {user} | {project}")
    return "; ".join(parts) + " (~/.codex is $CODEX_HOME and ~/.config is $XDG_CONFIG_HOME when set)"
