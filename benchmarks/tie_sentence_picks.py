"""Which sentences of their notes the searches' ties pick: could a subset embedded ahead cover them? Prints JSON lines.

    python benchmarks/tie_sentence_picks.py [--notes 1000] [--seed 11] [--dir DIR]

The workload of ``tail_mcp_search.py`` (``compare_basic_memory.py``'s corpus and its 194 queries, indexed with
vectors; ``--dir`` shared with that benchmark, built there when absent). Every query is searched once through the
Python API (``k`` 5, as ``memory_search`` asks) on a copy of the home, with :func:`memdir.search.ties.best_sentence`
watched: each sentence a tie picks, and where it sits in its note (0 the first sentence, as
:func:`memdir.search.sentencestore.sentences_of` lists them). Lines: one ``store`` line (notes, sentences, distinct
sentences, sentences a note), one ``picks`` line (tie calls, sentences picked, by position), one ``cover`` line per
first-N prefix (the share of picks a store embedding only its notes' first N sentences ahead would hold, and that
share of the store's sentences). A pick spread over every position says no prefix will do: it is every sentence
embedded ahead (:mod:`memdir.search.sentencestore`) or the query path's embedding.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--needles", type=int, default=50)
    parser.add_argument("--src", type=Path, default=HERE.parent / "src")
    parser.add_argument("--dir", type=Path, help="the indexed workload, as tail_mcp_search.py keeps it")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.src.resolve()))
    sys.path.insert(1, str(HERE))
    import tail_mcp_search

    from memdir import Memory
    from memdir.search import sentencestore, ties

    with tempfile.TemporaryDirectory(prefix="memdir-picks-") as tmp:
        base = args.dir.resolve() if args.dir else Path(tmp) / "kept"
        home, project, queries = tail_mcp_search.build(base, args)
        work = Path(tmp) / "home"
        shutil.copytree(home, work, symlinks=True)
        conn = sqlite3.connect(f"file:{work / 'index.sqlite'}?mode=ro", uri=True)
        notes = [sentencestore.sentences_of(body, description or "") for body, description in
                 conn.execute("SELECT body, description FROM docs WHERE status = 'active'")]
        conn.close()
        every = [s for note in notes for s in note]
        print(json.dumps({"store": len(notes), "sentences": len(every), "distinct": len(set(every)),
                          "per_note": round(len(every) / max(1, len(notes)), 1)}), flush=True)
        picks: list[int] = []
        real = ties.best_sentence

        def watched(text, read, terms):
            picked = real(text, read, terms)
            own = sentencestore.sentences_of(text, "")
            picks.append(own.index(picked) if picked in own else -1)
            return picked

        ties.best_sentence = watched
        os.environ["MEMDIR_SEARCH_VECTORS"] = "on"
        mem = Memory.open(home=work, project=project, search_vectors="on")
        for query in queries:
            mem.search(query, k=5)
        by_place = collections.Counter(picks)
        print(json.dumps({"queries": len(queries), "picked": len(picks),
                          "by_position": {str(k): by_place[k] for k in sorted(by_place)}}), flush=True)
        for first in (1, 2, 3, 5, 8, 12):
            held = sum(1 for p in picks if 0 <= p < first)
            share = sum(min(first, len(note)) for note in notes) / max(1, len(every))
            print(json.dumps({"cover": f"first {first}", "picks_held": round(held / max(1, len(picks)), 2),
                              "store_share": round(share, 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
