"""CLI commands for search and recall: ``search``, ``recall``, ``reindex``.

Registered by :func:`memdir.integrations.cli.build_parser`; each handler opens
the facade, calls one search function and prints its rendered text. Imports
of the search machinery stay inside the handlers so ``memdir context`` stays fast.
"""

from __future__ import annotations

import sys

from ..store.vocabulary import SCOPES


def cmd_search(args) -> int:
    """``memdir search QUERY``: ranked hits (``--json``: ``{"query", "results"}``)."""
    from ..tools import render
    from .cli_common import emit, open_memory

    results = open_memory(args).search(args.query, k=args.k, scope=args.scope, include_muted=args.include_muted)
    emit(args, {"query": args.query, "results": [r.to_dict() for r in results]}, render.search(results, args.query))
    return 0


def cmd_recall(args) -> int:
    """``memdir recall --prompt TEXT``: the recall block, or nothing (``--json``: ``{"recall", "bytes"}``)."""
    from .cli_common import UsageError, emit, open_memory

    if args.prompt is not None and args.text:
        raise UsageError("give the prompt once: as text or with --prompt")
    mem = open_memory(args)
    prompt = args.prompt if args.prompt is not None else (" ".join(args.text) if args.text else sys.stdin.read())
    block = mem.recall(prompt, k=args.k, max_bytes=args.max_bytes)
    emit(args, {"recall": block, "bytes": len(block.encode("utf-8"))}, block)
    return 0


def cmd_reindex(args) -> int:
    """``memdir reindex``: rebuild ``index.sqlite`` from the files (progress on stderr)."""
    from ..search.fts import reindex
    from ..tools import render
    from .cli_common import emit, open_memory

    mem = open_memory(args)
    result = reindex(mem.home, mem.settings, progress=not args.quiet and sys.stderr.isatty() or args.progress)
    emit(args, result, render.reindex(result))
    return 0


def register(add, settings) -> None:
    """Add ``search``, ``recall`` and ``reindex`` to the ``memdir`` parser."""
    p = add("search", cmd_search, "Ranked search over the memories of the user and this project.")
    p.add_argument("query", help="words, identifiers or CJK text (no query syntax: everything is text)")
    p.add_argument("-k", type=int, default=5, help="at most this many results (default %(default)s)")
    p.add_argument("--scope", choices=SCOPES, help="only this scope")
    p.add_argument("--include-muted", action="store_true", help="also muted memories")

    p = add("recall", cmd_recall, "Print the <memory_recall> block for a prompt (empty when nothing is relevant).")
    p.add_argument("text", nargs="*", help="the user's prompt (or use --prompt; default: read stdin)")
    p.add_argument("--prompt", help="the user's prompt (default: read stdin)")
    p.add_argument("-k", type=int, default=3, help="at most this many memories (default %(default)s)")
    p.add_argument("--max-bytes", type=int,
                   help=f"UTF-8 byte budget (default the recall_max_bytes setting, {settings.recall_max_bytes})")

    p = add("reindex", cmd_reindex, "Rebuild the search index (index.sqlite) from the memory files.")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--progress", action="store_true", help="progress bar even when stderr is not a terminal")
