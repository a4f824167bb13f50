"""``memdir panel``: serve the web panel on 127.0.0.1 (:mod:`.panel`).

Registered by :func:`memdir.integrations.cli.main.build_parser`; the panel's
modules (Starlette, Jinja2, uvicorn: the ``panel`` extra) load only when the
command runs.
"""

from __future__ import annotations

import argparse

from .common import UsageError


def cmd_panel(args) -> int:
    """``memdir panel [--port N] [--open] [--no-token]``: serve until interrupted."""
    from ..panel.app import serve

    if getattr(args, "project", None):
        raise UsageError("--project does not apply to the panel: it shows every project layer of the home")
    if not 0 <= args.port <= 65535:
        raise UsageError("--port must be from 0 to 65535 (0: any free port)")
    return serve(args.home, port=args.port, open_browser=args.open, no_token=args.no_token, as_json=args.json)


def register(add, settings) -> None:
    """Add ``panel`` to the parser (``add(name, handler, help)`` returns the subparser)."""
    p = add("panel", cmd_panel, "Serve the web panel on 127.0.0.1: review candidates, edit, restore versions, "
                                "lift tombstones, read the journal, for every project of the home "
                                "(needs the panel extra). Prints its address; with --json, {url, port, token}.")
    for action in getattr(p, "_actions", ()):  # the common --project: the panel shows every project, not offered
        if action.dest == "project":
            action.help = argparse.SUPPRESS
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    p.add_argument("--open", action="store_true", help="open the address in a browser")
    p.add_argument("--no-token", action="store_true",
                   help="no per-start token (scripted local use; any local program can then use the panel)")
