"""CLI commands for search and recall: ``search``, ``recall``, ``reindex``.

Registered by :func:`memdir.integrations.cli.main.build_parser`; each handler opens
the facade, calls one search function and prints its rendered text. Imports
of the search machinery stay inside the handlers so ``memdir context`` stays fast.
"""

from __future__ import annotations

import sys

from ...vocabulary import ORIGINS, SCOPES, TYPES


def cmd_search(args) -> int:
    """``memdir search QUERY``: ranked hits (``--json``: ``{"query", "offset", "k", "results", "next_offset",
    "note", "forgotten"}``, each result with name, scope, type, score and why; ``note``: why the page is ranked as it
    is, :class:`memdir.search.paging.Page`; ``forgotten``: ``[{"id", "scope", "lift"}]`` of the tombstones the query matches,
    :func:`memdir.tombstones.asked.matching`)."""
    from ...render import memories as render
    from ...search.ranking import MAX_K
    from .common import emit, open_memory

    results = open_memory(args).search(
        args.query, k=args.k, scope=args.scope, include_muted=args.include_muted, type=args.type,
        origin=args.origin, pinned=args.pinned, since=args.since, until=args.until, offset=args.offset)
    page = min(args.k, MAX_K)
    if args.k > MAX_K and len(results) == MAX_K:  # never cut silently: say where the next page starts
        print(f"note: at most {MAX_K} results a page (-k {args.k} asked); the next: --offset {args.offset + MAX_K}",
              file=sys.stderr)
    full = len(results) >= page
    emit(args, {"query": args.query, "offset": args.offset, "k": page, "results": [r.to_dict() for r in results],
                "next_offset": args.offset + len(results) if full else None, "note": getattr(results, "note", ""),
                "forgotten": list(getattr(results, "forgotten", []))},
         render.search(results, args.query, offset=args.offset, page=page))
    return 0


# Said on stderr (never in the block) when a prompt recalls nothing: an empty stdout alone read as a failure.
NOTHING_RECALLED = ("nothing recalled: no memory bears on this prompt closely enough (`memdir search` also lists "
                    "weaker matches, with their scores)")


def nothing_recalled(not_recalled) -> str:
    """What stderr says when a prompt recalls nothing: each memory that bears on it but is not given and why
    (``not_recalled``: :class:`memdir.search.recall.NotRecalled` records: ``nothing recalled: 'ci' (project) bears on
    it but is not given: no body: its index line says all of it``), else :data:`NOTHING_RECALLED` (try48: the text
    said no memory bore on the prompt while ``--json`` named one and its reason)."""
    if not not_recalled:
        return NOTHING_RECALLED
    said = "; ".join(f"{m.name!r} ({m.scope}) bears on it but is not given: {m.reason}" for m in not_recalled)
    return f"nothing recalled: {said}"


def cmd_recall(args) -> int:
    """``memdir recall --prompt TEXT``: the recall block, or nothing (``--json``: ``{"recall", "bytes",
    "memories", "left_out", "not_recalled", "read_as"}``, each memory with name, scope, type, score and why; each not
    recalled with name, scope and reason; ``read_as`` each word read as a typo and the word a memory writes). Without
    ``--json``, the words read as typos are said on stderr (``memdir: read 'conect' as 'connect': …``), as search's
    note says them; the block itself never carries them; a prompt that recalls nothing is said there too
    (:func:`nothing_recalled`). An empty (or white-space) prompt is a :class:`UsageError` (exit 2)."""
    from .common import UsageError, emit, open_memory, read_prompt, warn

    if args.prompt is not None and args.text:
        raise UsageError("give the prompt once: as text or with --prompt")
    read = args.prompt is None and not args.text
    prompt = args.prompt if args.prompt is not None else (" ".join(args.text) if args.text else read_prompt())
    if not prompt.strip():  # a command typed without what it works on: a usage error (exit 2), as a missing argument
        # is; the prompt hook, whose client sent an empty prompt, stays silent (moments.user_prompt_submit)
        raise UsageError(f"the prompt was empty{' (stdin gave nothing)' if read else ''}: nothing recalled; give "
                         "it as text, with --prompt, or on stdin")
    mem = open_memory(args)
    result = mem.recall_result(prompt, k=args.k, max_bytes=args.max_bytes)
    emit(args, result.to_dict(), result.block)
    if prompt.strip() and not result.block and not args.json:  # a person sees why stdout is empty (newuser44)
        warn([nothing_recalled(result.not_recalled)])
    # the person's view of a guess (--json has read_as); the block has none: the model reads the prompt itself,
    # and every byte of the block is paid on every prompt
    if result.read_as and not args.json:
        from ...search.terms import ReadTerms, slip_note

        read = ReadTerms()
        read.slipped = result.read_as
        warn([slip_note(read)])
    return 0


def cmd_reindex(args) -> int:
    """``memdir reindex``: rebuild ``index.sqlite`` from the files (progress on stderr)."""
    from ...render import maintenance
    from ...render.progress import ProgressBar
    from ...search.reindex import reindex
    from .common import emit, open_memory

    mem = open_memory(args)
    show = True if args.progress else False if args.quiet else None  # None: when stderr is a terminal
    with ProgressBar("indexing", "file", show=show) as files, \
            ProgressBar("embedding", "memory", show=show) as embedded:
        result = reindex(mem.home, mem.settings, progress=files, embed_progress=embedded)
    emit(args, result, maintenance.reindex(result))
    return 0


def register(add, settings) -> None:
    """Add ``search``, ``recall`` and ``reindex`` to the ``memdir`` parser."""
    p = add("search", cmd_search, "Ranked search over the memories of the user and this project, best first: hits whose"
                         " relevance (0–1) reaches the threshold, then every memory sharing a content word with the"
                         " query (low scores say weak); nothing when nothing fits.")
    p.add_argument("query", help="words, identifiers or CJK text (no query syntax: everything is text)")
    p.add_argument("-k", "--limit", dest="k", type=int, default=5,
                   help="at most this many results, up to 50 a page (default %(default)s; --offset for the next page)")
    p.add_argument("--scope", choices=SCOPES, help="only this scope")
    p.add_argument("--include-muted", action="store_true", help="also muted memories")
    p.add_argument("--type", action="append", choices=TYPES, help="only this memory type (repeatable)")
    p.add_argument("--origin", action="append", choices=ORIGINS, help="only this origin (repeatable)")
    p.add_argument("--pinned", dest="pinned", action="store_const", const=True, help="only pinned memories")
    p.add_argument("--unpinned", dest="pinned", action="store_const", const=False,
                   help="only unpinned memories (the last of --pinned/--unpinned counts)")
    p.add_argument("--since", help="updated on or after this ISO date or time (2026-11-01)")
    p.add_argument("--until", help="updated on or before this ISO date or time")
    p.add_argument("--offset", type=int, default=0, help="skip this many hits (paging; default 0)")

    p = add("recall", cmd_recall, "Print the <memory_recall> block the prompt hooks add for a prompt (empty when "
            "nothing is relevant): the bodies of the memories whose relevance to the prompt reaches the threshold. "
            "A prompt is weighed more strictly than a search: memdir search also lists the memories sharing a "
            "word with the query, with their scores, so it can show one that recall leaves out (--json gives "
            "each recalled memory's score and why). A memory whose body is empty or only repeats its "
            "description is left out (the index in the context block already says it; memdir search still "
            "finds it).")
    p.add_argument("text", nargs="*", help="the user's prompt (or use --prompt; default: read stdin)")
    p.add_argument("--prompt", help="the user's prompt (default: read stdin)")
    p.add_argument("-k", "--limit", dest="k", type=int, default=3,
                   help="at most this many memories (default %(default)s)")
    p.add_argument("--max-bytes", type=int,
                   help="UTF-8 byte budget of the recall block and the pending findings after it, together "
                        f"(default the recall_max_bytes setting, {settings.recall_max_bytes})")

    p = add("reindex", cmd_reindex, "Rebuild the search index (index.sqlite) from the memory files.")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--progress", action="store_true", help="progress bar even when stderr is not a terminal")
