"""How many SQL statements one warm ``memory_search`` runs, and which, per search (a structural count, not a timing).

    python benchmarks/count_search_sql.py --dir DIR [--hybrid] [--src SRC] [--top 25]

Builds (or reuses) the home of ``benchmarks/profile_mcp_search.py`` in ``--dir`` and runs its queries once as a
tool call in this process (one warm-up first); the index connection's trace callback counts each statement SQLite
runs (``sqlite3.Connection.set_trace_callback``), and the rows given the words' evidence are counted
(``ranking._evidence``'s ids). Prints one JSON line: statements (all, and memdir's own: not FTS5's, which begin with ``--``) and evidenced
rows per search (means), and the
``--top`` statement shapes (numbers of placeholders folded) with their count per search. ``--src``: the tree
whose ``src`` is imported (default this one's).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="where the home is built and kept")
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--hybrid", action="store_true", help="vectors on")
    parser.add_argument("--src", type=Path, default=HERE.parent / "src")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    # profile_mcp_search puts this tree's src first: the tree asked goes before it, below
    from profile_mcp_search import build

    sys.path.insert(0, str(args.src.resolve()))
    assert "memdir" not in sys.modules, "memdir was imported before --src was put first"

    home, project, queries = build(args.dir, args.notes, args.hybrid)
    os.environ["MEMDIR_SEARCH_VECTORS"] = "on" if args.hybrid else "off"
    from memdir.integrations.mcp.server import MemoryServer
    from memdir.search import ranking
    from memdir.search.index import connect
    from memdir.tools.handlers import run_tool

    session = MemoryServer(home, project).fallback.session
    run_tool(session, "memory_search", {"query": "warm up the server", "k": 5})
    seen: Counter = Counter()
    evidenced: list[int] = []  # rows given the words' evidence, per call of ranking._evidence
    evidence = ranking._evidence

    def counted(conn, ids, *rest, **named):
        evidenced.append(len(ids))
        return evidence(conn, ids, *rest, **named)

    ranking._evidence = counted
    conn = connect(home)
    conn.set_trace_callback(lambda sql: seen.update([re.sub(r"(\?\s*,\s*)+\?", "?…", " ".join(sql.split()))[:160]]))
    for query in queries:
        run_tool(session, "memory_search", {"query": query, "k": 5})
    conn.set_trace_callback(None)
    ranking._evidence = evidence
    n = len(queries)
    import memdir

    print(json.dumps({"src": str(Path(memdir.__file__).parent.parent), "hybrid": args.hybrid, "queries": n,
                      "statements_per_search": round(sum(seen.values()) / n, 2),
                      "own_statements_per_search": round(sum(c for sql, c in seen.items()
                                                             if not sql.startswith("--")) / n, 2),
                      "evidence_rows_per_search": round(sum(evidenced) / n, 1),
                      "top": [[round(c / n, 2), sql] for sql, c in seen.most_common(args.top)]}))


if __name__ == "__main__":
    main()
