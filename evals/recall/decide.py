"""The recall decision as one fitted model, by pooled 2-fold CV on the fit data (a dump of neg.py; never held out).

    python evals/recall/neg.py dump DUMP.jsonl
    python evals/recall/decide.py DUMP.jsonl

Each candidate of a dumped fit row (:func:`neg.dump`: recall's ranked pool, its evidence, score and bar) is read as
24 features: both models' logits, cosine, gap, lead, coverage, head, near, held, query, mass, missing, complete,
shared words, the general / defines / compared flags, an infinite bar, agreed, crossed, another script, its rank by
cosine among the pool and in the ranking (log1p), and the rules' own decision. A logistic model (L2 1 or 10, on the
first 5 or 20 candidates of each row) is fitted on one fold, its threshold chosen there (hits less false recalls),
and read on the other; then the same model used only to add a memory the rules refuse (``hi``) or to refuse one they
return (``lo``). Prints ``[hits, needing, false recalls, needing none]`` of the fold read, beside the rules'.

2026-12-05 (recall23), on the fit data after named_fillers: the rules [111, 145, 20, 114], [102, 136, 18, 121]; the
fitted model alone read on fold 1 / fold 0: [96–97, 136, 16–18, 121] / [102–111, 145, 17–26, 114] — 5–9 hits lost
for at most 3 fewer false recalls; on top of the rules no rescue threshold was chosen on either fold, and a veto
chosen on one fold gives at best −1 hit −1 false recall on the other. Not kept: the rules' features already carry
what a single fitted decision finds, and the misses sit among candidates not needed (see neg.py, recall13).
"""
import math
import sys

import numpy as np

from common import new_folds, tally  # this folder's modules (the script's folder is on sys.path), as neg.py does
from neg import load

THRESHOLDS = np.arange(0.2, 0.9, 0.025)  # the fitted model's own bar, chosen on the training fold
VETO_BARS = (0.0, 0.05, 0.1, 0.15, 0.2)  # below this a memory the rules return is refused (0: never)
RESCUE_BARS = (0.6, 0.7, 0.8, 0.9, 1.01)  # from this a memory the rules refuse is returned (1.01: never)
SETTINGS = [(l2, top) for l2 in (1.0, 10.0) for top in (5, 20)]  # (L2, candidates per row fitted on)


def logit(p: float) -> float:
    """The log-odds of ``p``, clipped to [1e-6, 1 − 1e-6]."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def features(row: dict) -> np.ndarray:
    """One row of 24 features per candidate of a dumped fit row (the module docstring's list), in pool order."""
    cands = row["cands"]
    cosines = [c["ev"]["cosine"] if c["ev"]["cosine"] is not None else -1 for c in cands]
    by_cosine = {i: rank for rank, i in enumerate(sorted(range(len(cands)), key=lambda i: -cosines[i]))}
    out = []
    for i, c in enumerate(cands):
        e = c["ev"]
        no_bar = c["bar"] is None or c["bar"] == float("inf") or (isinstance(c["bar"], float) and c["bar"] > 1)
        out.append([
            logit(c["score"]), logit(c["lexical"]), e["cosine"] if e["cosine"] is not None else 0.8, e["gap"],
            e["lead"], e["coverage"], e["head"], e["near"], e["held"], e["query"], e["mass"], e["missing"],
            e["complete"], min(len(e["shared"]), 5), float(e["general"]), float(e["defines"]), float(e["compared"]),
            float(no_bar), float(c["agreed"]), float(c["crossed"]), float(e["kin"] is not None),
            math.log1p(by_cosine[i]), math.log1p(i), float(c["score"] >= c["bar"])])
    return np.array(out, dtype=float)


def fit(rows: list[dict], X: list[np.ndarray], idx, l2: float = 1.0, top: int = 10, iters: int = 3000,
        rate: float = 0.1):
    """A logistic model (standardised features, L2 ``l2``, gradient descent) over the first ``top`` candidates
    with a body of the rows ``idx``, label: the candidate is one the prompt expects. Returns ``p(features)``."""
    xs, ys = [], []
    for j in idx:
        for i, c in enumerate(rows[j]["cands"][:top]):
            if c["body"]:
                xs.append(X[j][i])
                ys.append(1.0 if c["name"] in rows[j]["expect"] else 0.0)
    xs, ys = np.array(xs), np.array(ys)
    mean, spread = xs.mean(0), xs.std(0) + 1e-9
    z = (xs - mean) / spread
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(iters):
        g = 1 / (1 + np.exp(-(z @ w + b))) - ys
        w -= rate * (z.T @ g / len(ys) + l2 * w / len(ys))
        b -= rate * g.mean()
    return lambda x: 1 / (1 + np.exp(-(((x - mean) / spread) @ w + b)))


def replay(rows, X, idx, keep, model=None, k: int = 3) -> list[list[int]]:
    """The folds' figures (:func:`common.new_folds`) when recall returns, of each row in ``idx``, the first ``k``
    candidates with a body that ``keep(candidate, p)`` takes (``p``: ``model``'s chance for it, or None)."""
    out = new_folds()
    for j in idx:
        names, chances = [], model(X[j]) if model else [None] * len(X[j])
        for i, c in enumerate(rows[j]["cands"]):
            if len(names) >= k:
                break
            if c["body"] and keep(c, chances[i]):
                names.append(c["name"])
        tally(out, rows[j]["fold"], rows[j]["expect"], names)
    return out


def rules(c, _p) -> bool:
    """What recall returns today: the candidate's score reaches its bar."""
    return c["score"] >= c["bar"]


def main(argv: list[str]) -> None:
    rows = load(argv[0])
    X = [features(r) for r in rows]
    folds = [[j for j, r in enumerate(rows) if r["fold"] == f] for f in (0, 1)]
    print("base", replay(rows, X, range(len(rows)), rules))
    for l2, top in SETTINGS:  # the model alone, its threshold chosen on the other fold
        res = []
        for train, read in ((0, 1), (1, 0)):
            model = fit(rows, X, folds[train], l2, top)
            alone = lambda t: lambda c, p: p >= t  # noqa: E731
            gain = lambda f: f[0] - f[2]  # noqa: E731  (hits less false recalls)
            t = max(THRESHOLDS, key=lambda t: gain(replay(rows, X, folds[train], alone(t), model)[train]))
            res.append((read, round(float(t), 3), replay(rows, X, folds[read], alone(t), model)[read],
                        replay(rows, X, folds[read], rules)[read]))
        print(l2, top, res)
    print("--- rescue/veto on top of the rules")
    for l2, top in SETTINGS:
        res = []
        for train, read in ((0, 1), (1, 0)):
            model = fit(rows, X, folds[train], l2, top)
            both = lambda lo, hi: lambda c, p: rules(c, p) and p >= lo or p >= hi  # noqa: E731

            def score(bars):
                f = replay(rows, X, folds[train], both(*bars), model)[train]
                return (f[0] - f[2], -bars[0], bars[1])

            lo, hi = max(((lo, hi) for lo in VETO_BARS for hi in RESCUE_BARS), key=score)
            res.append((read, lo, hi, replay(rows, X, folds[read], both(lo, hi), model)[read],
                        replay(rows, X, folds[read], rules)[read]))
        print(l2, top, res)


if __name__ == "__main__":
    main(sys.argv[1:])
