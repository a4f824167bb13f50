"""One learned decision over recall's evidence instead of the rule pile? Fold against fold (learn38, 2026-12-07).

    python evals/recall/learned.py dump DUMP.jsonl --vectors on|off   # every fit row's candidates and today's recall
    python evals/recall/learned.py cv DUMP_ON.jsonl DUMP_OFF.jsonl [MODEL ...]  # fold 0 -> 1 and 1 -> 0

``dump`` runs every row of :func:`common.fit_rows` on the evaluation store and ``shop`` (a set of
:data:`common.STORES`) on its own, as ``run.py --split fit`` does (fit row *i* of each set in fold *i* mod 2; never a
held-out line, never ``fresh``), and writes per row the candidates of recall's ranking with every one let through
(:func:`neg.candidates`: evidence, scores, bar) and the names today's recall gives
(:func:`memdir.search.recall.recall_result`, ``k`` 3: ``base``, so today's figures are ``run.py``'s exactly).

``cv`` turns each candidate with a body (recall gives no other) into :func:`features` — every input of
:meth:`memdir.search.relevance.Evidence.features`, the raw head, near, held, kin gap and lead, the evidence's
flags, both models' logits, the score, the score shown (concepts' lift), the bar and every rule of
:func:`memdir.search.relevance.bar` as a 0/1 feature, its rank in the ranking, by cosine and by score, its margin to
the row's best, the memory's type — labelled 1 when the memory is in the row's ``expect``; fits on one fold's rows
(vectors on and off pooled, one model for both) and decides the other fold's: a row recalls, best learned
probability first, up to 3 candidates at or above a threshold chosen on the training fold for each mode (vectors on,
off: the most hits there with no more false recalls than today's rules on that fold in that mode). Models (numpy offline, pure Python to run):

* ``logit`` — L2 logistic regression over the standardised features;
* ``logit+x`` — the same with products of the cosine, gap, lead, coverage and query weight with each other and with
  the rule flags;
* ``gbt2`` / ``gbt3`` — gradient-boosted trees of depth 2 / 3 (logistic loss, 32 quantile bins per feature,
  shrinkage 0.1, 150 trees): a forest written as data.

Printed per model and direction: ``[hits, needing, false recalls, needing none]`` of the held-back fold for vectors
on and off, today's rules on the same rows, and hits by kind (lexical, paraphrase, task); then the held-back fold's
curve (hits, false) over thresholds, so an operating point that dominates today's would show even if the training
fold chose another. Today's rules were chosen on both folds (in-sample on either); the learned decision is read
strictly out of fold — the comparison favours the rules. Two gates on today's recall are read too: ``veto`` (drop a
memory today's recall gives under a learned probability chosen on the training fold: fewest false recalls there with
no hit lost) and ``admit`` (add memories today's recall leaves at or above one: most hits there with no more false
recalls).

2026-12-07 (learn38), main at 6c47fdae, one dump per mode (814 rows: the 780 of ``fit_rows`` and shop's 34, on the
stores ``run.py`` builds; ``base`` equals ``run.py --split fit`` exactly, checked on stray off and shop on and off), 43.6
candidates per row. ``hits/false`` of the held-back fold (read fold 1 after training on fold 0: needing 207, none
199; read fold 0 after fold 1: needing 215, none 193), vectors on | off:

==============  ======================  ======================
model           fold 0 -> read fold 1   fold 1 -> read fold 0
==============  ======================  ======================
rules (today)   179/16 | 129/3          188/34 | 130/13
logit           175/31 | 144/9          186/33 | 142/16
logit-l2-10     178/30 | 140/10         184/24 | 140/17
logit+x         182/32 | 149/13         190/34 | 131/12
gbt2            162/28 | 148/13         170/30 | 119/6
gbt3            166/28 | 148/10         168/28 | 132/8
logit veto      176/15 | 129/3          188/34 | 130/13 (t 0: none)
logit-l2 veto   177/15 | 128/3          188/33 | 130/13
logit+x veto    179/14 | 128/3          186/32 | 130/13
gbt2 veto       179/16 | 128/3          187/32 | 130/13
gbt3 veto       176/14 | 123/3          183/30 | 130/13
logit admit     180/18 | 139/6          189/34 | 147/18
logit-l2 admit  180/18 | 135/5          189/34 | 144/17
logit+x admit   180/21 | 141/9          190/35 | 142/16
gbt2 admit      182/21 | 145/6          188/34 | 137/13
gbt3 admit      182/21 | 147/8          188/36 | 136/13
==============  ======================  ======================

No model and no gate beats today's rules on the held-back fold in both directions (more hits at no more false
recalls, or fewer false at no fewer hits, vectors on and off): so nothing is wired. Full replacements gain 12-16 false
recalls (hits −17 to +3) with vectors on reading fold 1; the curves (``cv`` prints them) sit under the rules' point
there at every threshold (logit+x on fold 1 at 0.5: 163/16 against 179/16). In sample they look better than the rules
(gbt3 199/34 against 188/34 on fold 0, logit+x 193/34): the gap is overfitting to ~400 rows of a fold, worst for the
trees. The vetoes cut 0-4 false recalls with vectors on and cost 0-5 hits (off: nothing cut, 0-6 hits lost); only
logit+x's on fold 1 (0, −2) is clean, and it reads (−2, −2) the other way; with vectors off the admits add 6-18 hits for 0-6 more false recalls on both folds (gbt2: +16/+3, +7/0) — a trade,
not a gain at equal false recall, and the rules' vectors-off false rate on fold 1 (3 of 199) is where any such admit
would have to hold. Kinds (vectors on, logit+x, fold 1 read): paraphrase 32/43 against the rules' 33/43, task 76/89
against 73/89. What this says: the evidence the decision computes does not carry more than the rules already take from
it; the held-out and blind gaps of issue 28 are not a matter of how the features are combined, so the next lever is new
evidence (what the prompt asks of the memory), not a refit.

This repeats and replaces ``decide.py`` (recall23, removed in tidy39: its model, features and gates are a subset of
this script's) on the fit data of today (814 rows against 516 then: short, asked, typos, framed, mixed, stray, stray2
and shop since), with every rule of the bar as a feature, today's recall exactly as the baseline, products of
features, boosted trees, a threshold per mode and vectors off: the same answer. Its figures, 2026-12-05 (recall23),
on the fit data after named_fillers, from a dump of neg.py: one logistic model (L2 1 or 10, fitted on the first 5
or 20 candidates of each row) over 24 features — both models' logits, cosine, gap, lead, coverage, head, near, held,
query, mass, missing, complete, shared words, the general / defines / compared flags, an infinite bar, agreed,
crossed, another script, its rank by cosine and in the ranking (log1p), the rules' own decision — its threshold
chosen on one fold (hits less false recalls) and read on the other, ``[hits, needing, false recalls, needing
none]``: the rules [111, 145, 20, 114] (fold 0), [102, 136, 18, 121] (fold 1); the fitted model alone read on
fold 1 / fold 0: [96–97, 136, 16–18, 121] / [102–111, 145, 17–26, 114] — 5–9 hits lost for at most 3 fewer false
recalls; on top of the rules no rescue threshold (``hi``: add a memory the rules refuse) was chosen on either fold,
and a veto (``lo``: refuse one they return) chosen on one fold gives at best −1 hit −1 false recall on the other.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from common import HELDOUT_ONLY, SETS, STORES, build_store, new_folds, prompts, tally


def dump(out: Path, vectors: str) -> None:
    """One JSON line per fit row (and per ``shop`` row, on its own store): set, fold, prompt, expect, kind,
    ``cands`` (:func:`neg.candidates`) and ``base`` (today's recall, ``k`` 3)."""
    from neg import candidates

    from memdir.search.recall import recall_result

    groups = [[w for w in SETS if w not in HELDOUT_ONLY and w not in STORES], *[[w] for w in STORES]]
    with out.open("w", encoding="utf-8") as sink:
        for sets in groups:
            with tempfile.TemporaryDirectory() as tmp:
                mem = build_store(Path(tmp), vectors, sets[0])
                recall_result(mem.session, "warm up the index and the model")
                for which in sets:
                    for i, row in enumerate(prompts("fit", which)):
                        base = [m.name for m in recall_result(mem.session, row["prompt"], k=3).memories]
                        cands = candidates(mem.session, row["prompt"], _extra)
                        sink.write(json.dumps({"set": which, "fold": i % 2, "prompt": row["prompt"],
                                               "expect": row["expect"], "kind": row["kind"], "vectors": vectors,
                                               "base": base, "cands": cands}, ensure_ascii=False) + "\n")
                        sink.flush()


def _extra(hit) -> dict:
    """Each rule of :func:`memdir.search.relevance.bar` on the candidate's evidence, as 0/1."""
    from memdir.search import relevance as R
    from memdir.search.foreign import by_meaning

    ev = hit.evidence
    rules = {"agreed": R.agreed, "nearest_held": R.nearest_held, "outranked": R.outranked, "crossed": R.crossed,
             "kin_near": R.kin_near, "thin": R.thin, "crowded": R.crowded, "loaned": R.loaned,
             "general_held": R.general_held, "stated": R.stated, "by_meaning": by_meaning}
    out = {f"r_{name}": float(bool(rule(ev))) for name, rule in rules.items()}
    out["hybrid_z"] = R._hybrid(ev) if ev.cosine is not None else None
    out["lexical_z"] = R._linear(R.LEXICAL, ev.features())
    return out


TYPES = ("user", "feedback", "project", "reference")
RULES = ("agreed", "nearest_held", "outranked", "crossed", "kin_near", "thin", "crowded", "loaned", "general_held",
         "stated", "by_meaning")
CROSSED = ("cosine", "gap", "lead", "coverage", "query", "has_cos")


def features(row: dict) -> list[dict]:
    """Each candidate of ``row`` with a body, as ``(name, {feature: value})`` in ranking order."""
    cands = [c for c in row["cands"] if c["body"]]
    if not cands:
        return []
    top_shown = max(c["shown"] for c in cands)
    top_score = max(c["score"] for c in cands)
    by_cos = sorted((c for c in cands if c["ev"]["cosine"] is not None), key=lambda c: -c["ev"]["cosine"])
    cos_rank = {id(c): i for i, c in enumerate(by_cos)}
    by_score = sorted(cands, key=lambda c: -c["shown"])
    score_rank = {id(c): i for i, c in enumerate(by_score)}
    out = []
    for rank, c in enumerate(cands):
        e = c["ev"]
        has_cos = e["cosine"] is not None
        kin = e["kin"]
        bar = c["bar"]
        others = [o["shown"] for o in cands if o is not c]
        f = {
            "coverage": e["coverage"], "head": e["head"], "near": e["near"], "headx": max(e["head"], e["near"]),
            "mass": e["mass"], "missing": e["missing"], "query": e["query"], "complete": e["complete"],
            "held": e["held"], "span": math.log1p(e["span"]), "shared": len(e["shared"]),
            "shared_words": sum(not t.isdigit() for t in e["shared"]), "matched": len(e["matched"]),
            "has_cos": float(has_cos), "cosine": e["cosine"] if has_cos else 0.0, "gap": e["gap"] if has_cos else 0.0,
            "lead": e["lead"] if has_cos else 0.0, "has_kin": float(kin is not None),
            "kin_gap": kin[0] if kin else 0.0, "kin_lead": kin[1] if kin else 0.0,
            **{flag: float(bool(e[flag])) for flag in ("compared", "general", "defines", "foreign", "pointed",
                                                        "stand_in", "common")},
            "lexical_z": max(-15.0, min(15.0, c["lexical_z"])),
            "hybrid_z": max(-15.0, min(15.0, c["hybrid_z"])) if c["hybrid_z"] is not None else 0.0,
            "score": c["score"], "shown": c["shown"], "lifted": c["shown"] - c["score"],
            "bar": min(bar, 1.0), "bar_inf": float(bar == math.inf), "over_bar": c["shown"] - min(bar, 1.0),
            "rules": float(c["shown"] >= bar),
            **{f"r_{r}": c[f"r_{r}"] for r in RULES},
            "rank": math.log1p(rank), "cos_rank": math.log1p(cos_rank.get(id(c), 50)),
            "score_rank": math.log1p(score_rank[id(c)]), "margin": c["shown"] - top_shown,
            "margin_score": c["score"] - top_score, "next": c["shown"] - max(others, default=0.0),
            "candidates": math.log1p(len(cands)),
            **{f"type_{t}": float(c["type"] == t) for t in TYPES},
        }
        out.append((c["name"], f))
    return out


def interactions(f: dict) -> dict:
    """``f`` with products of :data:`CROSSED` with each other and with each rule flag."""
    g = dict(f)
    for i, a in enumerate(CROSSED):
        for b in CROSSED[i + 1:]:
            g[f"{a}*{b}"] = f[a] * f[b]
        for r in RULES:
            g[f"{a}*r_{r}"] = f[a] * f[f"r_{r}"]
    return g


def matrix(rows: list[dict], cross: bool):
    """``(X, y, index)``: one line per candidate with a body of ``rows``; ``index`` (row number, name) per line."""
    import numpy as np

    xs, ys, index, names = [], [], [], None
    for r, row in enumerate(rows):
        for name, f in features(row):
            f = interactions(f) if cross else f
            names = names or list(f)
            xs.append([f[n] for n in names])
            ys.append(float(name in row["expect"]))
            index.append((r, name))
    return np.array(xs, dtype=float), np.array(ys), index, names


def logistic(X, y, l2: float = 1.0, weight: float = 1.0):
    """L2 logistic regression over standardised ``X`` (Newton steps): ``predict(X)`` of probabilities."""
    import numpy as np

    mu, sd = X.mean(0), X.std(0)
    sd[sd == 0] = 1.0
    Z = np.hstack([np.ones((len(X), 1)), (X - mu) / sd])
    w = np.zeros(Z.shape[1])
    sw = np.where(y > 0, weight, 1.0)
    reg = np.full(Z.shape[1], l2)
    reg[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(Z @ w, -30, 30)))
        g = Z.T @ (sw * (p - y)) + reg * w
        H = (Z * (sw * p * (1 - p))[:, None]).T @ Z + np.diag(reg + 1e-9)
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return lambda X2: 1 / (1 + np.exp(-np.clip(np.hstack([np.ones((len(X2), 1)), (X2 - mu) / sd]) @ w, -30, 30)))


def boosted(X, y, depth: int, trees: int = 150, rate: float = 0.1, bins: int = 32, leaf_l2: float = 1.0):
    """Gradient-boosted trees (logistic loss, Newton leaves) on ``bins`` quantile bins per feature:
    ``predict(X)`` of probabilities; the forest is a list of ``(feature, threshold, left, right)`` nodes."""
    import numpy as np

    edges = [np.unique(np.quantile(X[:, j], np.linspace(0, 1, bins + 1)[1:-1])) for j in range(X.shape[1])]
    B = np.stack([np.searchsorted(edges[j], X[:, j], side="right") for j in range(X.shape[1])], 1)
    prior = math.log(y.mean() / (1 - y.mean()))
    z = np.full(len(y), prior)
    forest = []

    def grow(idx, g, h, d):
        leaf = -g[idx].sum() / (h[idx].sum() + leaf_l2)
        if d == depth or len(idx) < 20:
            return ("leaf", rate * leaf)
        G, Hs = g[idx].sum(), h[idx].sum()
        best = (0.0, None)
        for j in range(X.shape[1]):
            nb = len(edges[j]) + 1
            if nb < 2:
                continue
            gb = np.bincount(B[idx, j], weights=g[idx], minlength=nb)
            hb = np.bincount(B[idx, j], weights=h[idx], minlength=nb)
            gl, hl = np.cumsum(gb)[:-1], np.cumsum(hb)[:-1]
            gain = gl ** 2 / (hl + leaf_l2) + (G - gl) ** 2 / (Hs - hl + leaf_l2) - G ** 2 / (Hs + leaf_l2)
            gain[(hl < 1.0) | (Hs - hl < 1.0)] = -1
            k = int(np.argmax(gain))
            if gain[k] > best[0]:
                best = (gain[k], (j, k))
        if best[1] is None:
            return ("leaf", rate * leaf)
        j, k = best[1]
        left = idx[B[idx, j] <= k]
        right = idx[B[idx, j] > k]
        return (j, float(edges[j][k]), grow(left, g, h, d + 1), grow(right, g, h, d + 1))

    def apply(node, X2, idx, out):
        if node[0] == "leaf":
            out[idx] += node[1]
            return
        left = X2[idx, node[0]] < node[1]
        apply(node[2], X2, idx[left], out)
        apply(node[3], X2, idx[~left], out)

    every = np.arange(len(y))
    for _ in range(trees):
        p = 1 / (1 + np.exp(-z))
        tree = grow(every, p - y, p * (1 - p), 0)
        forest.append(tree)
        apply(tree, X, every, z)

    def predict(X2):
        zz = np.full(len(X2), prior)
        for tree in forest:
            apply(tree, X2, np.arange(len(X2)), zz)
        return 1 / (1 + np.exp(-zz))
    return predict


def decided(rows: list[dict], probs: dict, t: float, k: int = 3) -> list[list[str]]:
    """Per row, the names recalled: candidates with a body at probability ≥ ``t``, best first, at most ``k``
    (``probs``: :func:`grouped`)."""
    return [[name for p, name in probs.get(r, ()) if p >= t][:k] for r in range(len(rows))]


def vetoed(rows: list[dict], probs: dict, t: float) -> list[list[str]]:
    """Today's recall (``base``) less the memories whose learned probability is under ``t``: the model as a gate."""
    out = []
    for r, row in enumerate(rows):
        p = {name: q for q, name in probs.get(r, ())}
        out.append([name for name in row["base"] if p.get(name, 1.0) >= t])
    return out


def admitted(rows: list[dict], probs: dict, t: float, k: int = 3) -> list[list[str]]:
    """Today's recall (``base``) and, up to ``k`` in all, the memories it left whose learned probability is ≥ ``t``."""
    out = []
    for r, row in enumerate(rows):
        more = [name for q, name in probs.get(r, ()) if q >= t and name not in row["base"]]
        out.append((row["base"] + more)[:k])
    return out


def grouped(index: list, probs) -> dict:
    """``{row number: [(probability, name)] best first}`` from :func:`matrix`'s ``index`` and the probabilities."""
    out: dict = {}
    for (r, name), p in zip(index, probs):
        out.setdefault(r, []).append((float(p), name))
    return {r: sorted(v, reverse=True) for r, v in out.items()}


def counted(rows: list[dict], names: list[list[str]], vectors: str | None = None):
    """``(figures [hits, needing, false, none], {kind: [hits, of]})`` of ``rows`` (of ``vectors`` when given)."""
    fig, kinds = new_folds(), {}
    for row, got in zip(rows, names):
        if vectors and row["vectors"] != vectors:
            continue
        right = tally(fig, 0, row["expect"], got)
        if row["expect"]:
            kinds.setdefault(row["kind"], [0, 0])
            kinds[row["kind"]][0] += right
            kinds[row["kind"]][1] += 1
    return fig[0], kinds


def per_set(rows: list[dict], names: list[list[str]], vectors: str) -> dict:
    """``{set: [hits, needing, false, none]}`` of ``rows`` of ``vectors``."""
    out = {}
    for row, got in zip(rows, names):
        if row["vectors"] == vectors:
            tally(out.setdefault(row["set"], new_folds()), 0, row["expect"], got)
    return {name: figures[0] for name, figures in out.items()}


def cv(rows: list[dict]) -> None:
    """Each model fitted on one fold, read on the other (see the module docstring)."""
    import numpy as np

    models = {"logit": (False, lambda X, y: logistic(X, y, 1.0)),
              "logit-l2-10": (False, lambda X, y: logistic(X, y, 10.0)),
              "logit+x": (True, lambda X, y: logistic(X, y, 3.0)),
              "gbt2": (False, lambda X, y: boosted(X, y, 2)),
              "gbt3": (False, lambda X, y: boosted(X, y, 3))}
    wanted = sys.argv[4:] or list(models)
    for train in (0, 1):
        fit_rows = [r for r in rows if r["fold"] == train]
        test_rows = [r for r in rows if r["fold"] != train]
        for vec in ("on", "off"):
            fig, kinds = counted(test_rows, [r["base"] for r in test_rows], vec)
            print(json.dumps({"model": "rules", "train": train, "read": 1 - train, "vectors": vec, "figures": fig,
                              "kinds": kinds, "sets": per_set(test_rows, [r["base"] for r in test_rows], vec)}))
        for label in wanted:
            cross, make = models[label]
            X, y, _, _ = matrix(fit_rows, cross)
            predict = make(X, y)
            Xt, _, index_t, _ = matrix(test_rows, cross)
            pt = grouped(index_t, predict(Xt))
            pf = grouped(matrix(fit_rows, cross)[2], predict(X))
            grid = sorted({round(x, 3) for x in np.linspace(0.05, 0.95, 91)})
            for vec in ("on", "off"):  # a threshold per mode (the hook knows whether it has cosines)
                base_fit = counted(fit_rows, [r["base"] for r in fit_rows], vec)[0]
                best = None
                for t in grid:
                    fig = counted(fit_rows, decided(fit_rows, pf, t), vec)[0]
                    if fig[2] <= base_fit[2] and (best is None or fig[0] > best[1][0]):
                        best = (t, fig)
                names = decided(test_rows, pt, best[0])
                fig, kinds = counted(test_rows, names, vec)
                print(json.dumps({"model": label, "train": train, "read": 1 - train, "vectors": vec, "t": best[0],
                                  "fit_fold": best[1], "rules_fit_fold": base_fit, "figures": fig, "kinds": kinds,
                                  "sets": per_set(test_rows, names, vec)}))
            for vec in ("on", "off"):  # the model as a gate on today's recall: veto (no hit lost), admit (no false)
                base_fit = counted(fit_rows, [r["base"] for r in fit_rows], vec)[0]
                for gate, keeps in (("veto", lambda f, b=base_fit: f[0] >= b[0]),
                                    ("admit", lambda f, b=base_fit: f[2] <= b[2])):
                    decide = vetoed if gate == "veto" else admitted
                    scored = [(t, counted(fit_rows, decide(fit_rows, pf, t), vec)[0]) for t in [0.0, *grid, 1.01]]
                    scored = [(t, f) for t, f in scored if keeps(f)]
                    t, fitted = (min(scored, key=lambda tf: (tf[1][2], tf[0])) if gate == "veto"
                                 else max(scored, key=lambda tf: (tf[1][0], tf[0])))
                    names = decide(test_rows, pt, t)
                    fig, kinds = counted(test_rows, names, vec)
                    print(json.dumps({"model": f"{label} {gate}", "train": train, "read": 1 - train, "vectors": vec,
                                      "t": t, "fit_fold": fitted, "rules_fit_fold": base_fit, "figures": fig,
                                      "kinds": kinds}))
            curve = {}
            for tt in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
                names = decided(test_rows, pt, tt)
                curve[tt] = [counted(test_rows, names, v)[0] for v in ("on", "off")]
            print(json.dumps({"model": label, "train": train, "curve (on, off) by threshold": curve}))


def load(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "dump":
        vec = sys.argv[sys.argv.index("--vectors") + 1] if "--vectors" in sys.argv else "on"
        sys.exit(dump(Path(sys.argv[2]), vec))
    if len(sys.argv) >= 4 and sys.argv[1] == "cv":
        sys.exit(cv(load(sys.argv[2]) + load(sys.argv[3])))
    sys.exit(__doc__.split("\n\n")[1])
