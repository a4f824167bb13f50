"""False recalls of memories written in another script than the prompt, sharing a word or two of it (false37,
2026-12-06).

    python /tmp/dump.py DUMP.jsonl                      # neg.py dump of every fit set but stray2 (see below)
    python evals/recall/false37.py list DUMP.jsonl      # each memory recalled that the row does not need, its carrier
    python evals/recall/false37.py cv DUMP.jsonl        # the families below, (hits, false, unneeded) per fold

Reads a ``neg.py dump`` of the fit rows with ``stray2`` left out (``neg.SETS`` without it: its half is reported once,
untouched, by ``run.py --set stray2 --split fit``); fit row *i* of each set is in fold *i* mod 2. The replay is
false36.py's (:func:`false36.replay`): each candidate scored again from its evidence with the code it runs on.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from false36 import carrier, listed, prepared, replay, unneeded
from neg import load

from memdir.search import relevance as R


def kincrowd(rows):
    """A memory of another script sharing a word with a long prompt, a thin share of it, and not standing out among
    all memories: refused."""
    def make(q, cov, gap, lead, words):
        def change(e, row):
            shared = [t for t in e.shared if not t.isdigit()]
            hit = e.cosine is not None and e.kin is not None and shared and len(shared) <= words and \
                not R.stated(e) and e.query >= q and e.coverage <= cov and e.gap < gap and e.lead < lead
            return None if hit else e
        return change
    return {f"kincrowd {q} {c} {g} {lead} {w}": make(q, c, g, lead, w) for q, c, g, lead, w in itertools.product(
        (2.8, 3.0, 3.2, 3.4, 3.5, 3.7), (0.15, 0.2, 0.25), (0.02, 0.03, 0.04, 0.05), (-0.01, 0.0, 0.01), (1, 2, 3))}


def tied(rows):
    """A memory of another script nearest of all by no more than ``t`` is not crossed (its bar the kin bar)."""
    def make(t, g):
        def change(e, row):
            if R.crossed(e) and (e.lead <= t or e.gap < g) and R.score(e) < R.AGREED_THRESHOLD:
                return None
            return e
        return change
    return {f"tied lead<={t} gap<{g}": make(t, g) for t in (-1, 0.0, 0.005, 0.01, 0.015, 0.02)
            for g in (-1, 0.01, 0.02, 0.03, 0.04)}


def common(rows):
    """A memory of another script carried by its kin standing alone whose shared words (a number not counted) are all
    held by at least ``n`` memories of the prompt's own script nearer in meaning: refused (stand-ins exempt)."""
    def make(n, q, exempt):
        def change(e, row):
            if e.kin is None or e.cosine is None or carrier(e) != "kin" or exempt and e.stand_in or e.query < q:
                return e
            words = {t for t in e.shared if not t.isdigit()}
            if not words:
                return e
            nearer = sum(1 for d in row["cands"] if d["E"].kin is None and d["E"].cosine is not None
                         and d["E"].cosine > e.cosine and words <= set(d["E"].shared))
            return None if nearer >= n else e
        return change
    return {f"common n>={n} q>={q} exempt={x}": make(n, q, x) for n in (1, 2, 3, 4) for q in (0, 3.0, 3.5)
            for x in (True, False)}


FAMILIES = [tied, common]


def cv(rows: list[dict]) -> None:
    """Each family: the setting each fold chooses (no hit lost there, fewest false recalls, then fewest unneeded
    memories; of equals the first listed) and its read on the other fold."""
    before, names = replay(rows)
    un = [unneeded(rows, names, f) for f in (0, 1)]
    print("pooled", before, "unneeded", un)
    for family in FAMILIES:
        results = {"none": [(0, 0, 0), (0, 0, 0)]}
        for label, change in family(rows).items():
            f, got = replay(rows, change)
            results[label] = [(f[i][0] - before[i][0], f[i][2] - before[i][2], unneeded(rows, got, i) - un[i])
                              for i in (0, 1)]
        for a in (0, 1):
            keeping = {label: d for label, d in results.items() if d[a][0] >= 0}
            label = min(keeping, key=lambda lab: (keeping[lab][a][1], keeping[lab][a][2]))
            d = results[label]
            print(f"{family.__name__}: chosen on fold {a} {label} {d[a]}, read on fold {1 - a} {d[1 - a]}")
        if "--all" in sys.argv:
            for label, d in results.items():
                print(f"  {label} {d[0]} {d[1]}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("list", "cv"):
        sys.exit(__doc__.split("\n\n")[1])
    rows = [row for row in prepared(load(sys.argv[2])) if row["set"] != "stray2"]
    (listed if sys.argv[1] == "list" else cv)(rows)
