"""CLI commands for search and recall: ``search``, ``recall``, ``reindex``.

Registered through :data:`memdir.cli.EXTENSIONS`; each handler opens the
facade, calls one function of :mod:`memdir.search` and prints. Imports of the
search machinery stay inside the handlers so ``memdir context`` stays fast.
"""

from __future__ import annotations

import sys


def cmd_search(args) -> int:
    """``memdir search QUERY``: ranked hits, one block each (``--json``: ``{"query", "results"}``)."""
    from .cli import emit, open_memory

    mem = open_memory(args)
    results = mem.search(args.query, k=args.k, scope=args.scope, include_muted=args.include_muted)
    lines = []
    for r in results:
        pin = " 📌" if r.pinned else ""
        lines.append(f"{r.score:.4f}  {r.name}{pin} ({r.scope}/{r.type}) — {r.description}\n    {r.snippet}")
    emit(args, {"query": args.query, "results": [r.to_dict() for r in results]},
         "\n".join(lines) if lines else "no matching memory")
    return 0


def cmd_recall(args) -> int:
    """``memdir recall --prompt TEXT``: the recall block, or nothing (``--json``: ``{"recall", "bytes"}``)."""
    from .cli import emit, open_memory

    mem = open_memory(args)
    if args.prompt is not None and args.text:
        from .cli import UsageError

        raise UsageError("give the prompt once: as text or with --prompt")
    prompt = args.prompt if args.prompt is not None else (" ".join(args.text) if args.text else sys.stdin.read())
    block = mem.recall(prompt, k=args.k, max_bytes=args.max_bytes)
    emit(args, {"recall": block, "bytes": len(block.encode("utf-8"))}, block)
    return 0


def cmd_reindex(args) -> int:
    """``memdir reindex``: rebuild ``index.sqlite`` from the files (progress on stderr)."""
    from .cli import emit, open_memory
    from ..search.fts import reindex

    mem = open_memory(args)
    report = reindex(mem.home, mem.settings, progress=not args.quiet and sys.stderr.isatty() or args.progress)
    emit(args, report, f"indexed {report['memories']} memories from {report['files']} files in "
                       f"{report['layers']} layers ({report['mode']}, {report['vectors']} vectors embedded) "
                       f"in {report['seconds']:.2f}s")
    return 0


def register(add, common) -> None:
    """Add ``search``, ``recall`` and ``reindex`` to the ``memdir`` parser."""
    p = add("search", cmd_search, "Ranked search over the memories of the user and this project.")
    p.add_argument("query", help="words, identifiers or CJK text (no query syntax: everything is text)")
    p.add_argument("-k", type=int, default=5, help="at most this many results (1–50, default 5)")
    p.add_argument("--scope", choices=("user", "project"), help="only this scope")
    p.add_argument("--include-muted", action="store_true", help="also muted memories")

    p = add("recall", cmd_recall, "Print the <memory_recall> block for a prompt (empty when nothing is relevant).")
    p.add_argument("text", nargs="*", help="the user's prompt (or use --prompt; default: read stdin)")
    p.add_argument("--prompt", help="the user's prompt (default: read stdin)")
    p.add_argument("-k", type=int, default=3, help="at most this many memories (default 3)")
    p.add_argument("--max-bytes", type=int, help="UTF-8 byte budget (default the recall_max_bytes setting, 2048)")

    p = add("reindex", cmd_reindex, "Rebuild the search index (index.sqlite) from the memory files.")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--progress", action="store_true", help="progress bar even when stderr is not a terminal")
