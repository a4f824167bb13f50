"""Query windows: does embedding parts of a long prompt find the memory it needs better than the whole prompt?

    python evals/recall/windows.py [--dump /tmp/cos.npz]          # offline: nearest by cosine, AUC
    python evals/recall/windows.py --pipeline whole 'max(w,slide3/2)'  # recall, 2 folds, current and refitted

On the fit data only (:func:`common.fit_rows`: prompts and tasks fit halves, near, gaps; 317 prompts, 181 needing
a memory, 45 memories), each prompt's whole-query cosine to every memory's head vector and the cosines of its windows
(embedded in one batch per prompt): ``clause`` (split at punctuation and and/when/then/so/but/if/because/...),
``slideN`` (every run of N content words, function words left out, N = 3–6), ``minusverb`` (the prompt without
its task verbs). Offline it prints, per variant, how often the needed memory is the nearest by cosine and the AUC
of the top cosine's gap over the median between prompts needing a memory and those needing none;
``--pipeline`` runs recall itself with ``ranking._dense`` windowed, fold by fold as ``run.py --split fit``.

Measured 2026-12-03 (qwin). Offline, nearest by cosine of 181 (MRR; AUC of the top gap): whole 137 (0.815;
0.725); the larger of the whole and the best window: clause 134, minusverb 136, slide3 140 (0.822; 0.727), slide4
137, slide5 136, slide6 134, all 139; 0.75 · whole + 0.25 · best window 135–140; 0.5/0.5 and best window alone
worse everywhere (slide3 alone 134, MRR 0.77 on prompts of ≥ 8 content words); the gap of each window over its own
median, best of those, 133–137. On the 85 task prompts with windows (45 needing a memory) the AUC of the top gap
is 0.50 for the whole prompt and 0.46–0.56 for every variant: the cosine does not tell which task needs a memory.
Per prompt, max(whole, every window) moved the needed memory up for 14 prompts and down for 22: one window often
holds it first ("log the user's phone number when signup fails": 9th → 4th, "user's phone number signup fails"
1st), but the other windows bring other memories up as well.
In the pipeline, hits / false recalls of fold 0 (95 needing, 64 not) and fold 1 (86, 72), today's coefficients,
then both models refitted on the other fold (L2 0.3): whole 72 / 19, 64 / 9; refit 65 / 14, 57 / 7 ·
max(w, slide3) 73 / 20, 66 / 9; 67 / 13, 58 / 7 · the same, every second window (kept:
:mod:`memdir.search.querywindows`) 73 / 18, 66 / 9; 67 / 13, 59 / 7 · at most 3 windows 73 / 20, 66 / 9;
67 / 13, 58 / 7 · 0.75 w + 0.25 best slide3 73 / 18, 64 / 9; 65 / 14, 57 / 7 · the same of clauses 72 / 18,
64 / 9; 66 / 14, 57 / 7 · of all windows 73 / 19, 64 / 9; 63 / 14, 56 / 7 · 0.5 w + 0.5 mean of slide4 71 / 18,
63 / 9; 63 / 13, 56 / 6. A refit loses to today's coefficients on every variant, so they were kept.
Cost (fit prompts on a machine at load 6 on 2 cores, CPU of this process): 214 of 317 prompts have windows (2.0
on average, at most 4); the whole query's embedding median 97 ms, with its windows in the same batch 145 ms
(+37 ms median, +60 mean): about half the query's embedding again.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

import numpy as np
from common import build_store, fit_rows

CONJ = r"\b(?:and|when|then|so|but|if|because|after|before|while|once|whenever|so that|und|wenn|dann|aber|weil)\b"
TASK_VERBS = set("""add fix write make create update implement change refactor remove delete rename move set put
build run deploy bump cut draft file open configure wire hook log send store save rewrite clean tidy hardcode
ship upgrade migrate generate check test review handle""".split())


def content_words(text: str) -> list[str]:
    from memdir.text.words import FUNCTION_WORDS
    words = re.findall(r"[\w'./-]+", text)
    return [w for w in words if w.lower().strip(".,") not in FUNCTION_WORDS]


def clauses(text: str) -> list[str]:
    parts = re.split(r"[,.;:!?()，。、；：！？]|" + CONJ, text, flags=re.I)
    return [p.strip() for p in parts if p and len(content_words(p)) >= 2]


def sliding(text: str, n: int, stride: int = 1) -> list[str]:
    words = content_words(text)
    if len(words) <= n:
        return []
    return [" ".join(words[i:i + n]) for i in range(0, len(words) - n + 1, stride)]


def minus_verbs(text: str) -> list[str]:
    words = text.split()
    kept = [w for w in words if w.lower().strip(".,") not in TASK_VERBS]
    return [" ".join(kept)] if 0 < len(kept) < len(words) else []


def variants(text: str) -> dict[str, list[str]]:
    out = {"clause": clauses(text), "minusverb": minus_verbs(text)}
    for n in (3, 4, 5, 6):
        out[f"slide{n}"] = sliding(text, n)
    out["clause"] = [c for c in out["clause"] if c.strip() != text.strip()]
    return out


def auc(pos, neg) -> float:
    pos, neg = np.asarray(pos), np.asarray(neg)
    return float(((pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum())
                 / max(1, pos.size * neg.size))


def windowed_cosines(keys: list[str], mix, stride: int = 1, cap: int = 0):
    """A stand-in for :func:`memdir.search.dense.cosines` (``ranking._dense``): each memory's cosine is the whole
    prompt's mixed with its best window's of the variants ``keys`` — ``mix`` ``"max"``: the larger of the two; a
    float *a*: (1 − *a*) · whole + *a* · best window — over every ``stride``-th window, at most ``cap`` (0: all)."""
    from memdir.search import dense, similarity, vectors

    original, kept = dense.cosines, {}

    def cosines(conn, session, query, layers, where, embed_query, pending=None):
        whole = original(conn, session, query, layers, where, embed_query, pending)
        found = variants(vectors.query_text(query))
        wins = [w for k in keys for w in found[k]][::stride]
        if cap and len(wins) > cap:
            wins = [wins[round(j * (len(wins) - 1) / (cap - 1))] for j in range(cap)]
        if not whole or not wins:
            return whole
        if tuple(wins) not in kept:
            kept[tuple(wins)] = np.asarray(vectors.embed(wins, query=True), dtype=np.float32)
        ids, _d, _f, _u, matrix, *_ = similarity._matrix(conn, session.home, tuple(sorted(layers)))
        best = dict(zip(ids.tolist(), (matrix @ kept[tuple(wins)].T).max(axis=1).tolist()))
        if mix == "max":
            return {i: max(c, best.get(i, c)) for i, c in whole.items()}
        return {i: (1 - mix) * c + mix * best.get(i, c) for i, c in whole.items()}
    return cosines


def pipeline(labels: list[str], l2: float = 0.3) -> None:
    """Recall over the fit data with ``ranking._dense`` windowed (each label of :data:`PIPELINE`), printing
    ``[hits, needing, false recalls, needing none]`` per fold (row *i* of each set in fold *i* mod 2, as
    ``run.py --split fit``) with the current coefficients, and each fold again with both models refitted
    (``fit.py``'s fit, positive weight 1, ``l2``) on the other fold."""
    import fit as fitmod
    from common import HELDOUT_ONLY, SETS, STORES, new_folds, prompts, tally

    from memdir.search import ranking, relevance
    from memdir.search.recall import recall_result

    rows = []
    for which in SETS:
        if which not in HELDOUT_ONLY | set(STORES):
            for i, row in enumerate(prompts("fit", which)):
                rows.append({**row, "fold": i % 2})

    def run(mem, chosen):
        folds = new_folds()
        for row in chosen:
            names = [m.name for m in recall_result(mem.session, row["prompt"]).memories]
            tally(folds, row["fold"], row["expect"], names)
        return folds

    lexical, hybrid = dict(relevance.LEXICAL), dict(relevance.HYBRID)
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "on")
        recall_result(mem.session, "warm up the index and the model")
        for label in labels:
            ranking._dense = windowed_cosines(*PIPELINE[label])
            for model, kept in ((relevance.LEXICAL, lexical), (relevance.HYBRID, hybrid)):
                model.clear()
                model.update(kept)
            out = {"variant": label, "current": run(mem, rows)}
            out[f"refit_l2_{l2}"] = fitmod.cross_refit(mem, rows, run, l2)
            print(json.dumps(out), flush=True)


ALL = ["clause", "minusverb", "slide3", "slide4", "slide5", "slide6"]
PIPELINE = {"whole": ([], "max"), "max(w,slide3)": (["slide3"], "max"), "max(w,slide3/2)": (["slide3"], "max", 2),
            "max(w,slide3,cap3)": (["slide3"], "max", 1, 3), "max(w,clause)": (["clause"], "max"),
            "0.75w+0.25best(slide3)": (["slide3"], 0.25), "0.75w+0.25best(clause)": (["clause"], 0.25),
            "0.75w+0.25best(all)": (ALL, 0.25)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump")
    parser.add_argument("--pipeline", nargs="+", choices=tuple(PIPELINE),
                        help="recall over the fit data with these variants instead (folds, current and refitted)")
    args = parser.parse_args()
    if args.pipeline:
        pipeline(args.pipeline)
        return
    from memdir.search import similarity, vectors
    from memdir.search.index import connect, layer_key

    rows = fit_rows()
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "on")
        session = mem.session
        conn = connect(session.home)
        layers = tuple(sorted(layer_key(session.home, layer.path) for layer in session.layers(None)))
        ids, _d, _f, _u, matrix, *_ = similarity._matrix(conn, session.home, layers)
        name_of = dict(conn.execute("SELECT id, name FROM docs"))
        names = [name_of[i] for i in ids.tolist()]
        results = []
        spent = []
        for row in rows:
            text = vectors.query_text(row["prompt"])
            wins = variants(text)
            flat = [text] + [w for ws in wins.values() for w in ws]
            start = time.process_time()
            vecs = np.asarray(vectors.embed(flat, query=True), dtype=np.float32)
            spent.append((len(flat), time.process_time() - start))
            cos = vecs @ matrix.T
            results.append({"row": row, "wins": wins, "cos": cos})
    print(json.dumps({"memories": len(names), "prompts": len(rows)}))
    # cost: CPU per prompt of the whole vs batch
    print(json.dumps({"cpu_ms_mean_batch": round(1000 * np.mean([t for _, t in spent]), 1),
                      "texts_mean": round(float(np.mean([n for n, _ in spent])), 1)}))
    index = {n: i for i, n in enumerate(names)}

    def evaluate(label, combine):
        near = need = 0
        pos_gap, neg_gap, pos_top, neg_top = [], [], [], []
        for r in results:
            row = r["row"]
            score = combine(r)
            med = float(np.median(score))
            top = float(score.max())
            if row["expect"]:
                need += 1
                want = [index[n] for n in row["expect"] if n in index]
                near += bool(want) and int(np.argmax(score)) in want
                pos_gap.append(top - med)
                pos_top.append(top)
            else:
                neg_gap.append(top - med)
                neg_top.append(top)
        print(json.dumps({"variant": label, "nearest": f"{near}/{need}", "auc_gap": round(auc(pos_gap, neg_gap), 3),
                          "auc_top": round(auc(pos_top, neg_top), 3)}))

    def slices(r, keys):
        count = 1
        sl = {}
        for k, ws in r["wins"].items():
            sl[k] = (count, count + len(ws))
            count += len(ws)
        rows_ = [i for k in keys for i in range(*sl[k])]
        return rows_

    evaluate("whole", lambda r: r["cos"][0])
    keysets = {k: [k] for k in ("clause", "minusverb", "slide3", "slide4", "slide5", "slide6")}
    keysets["clause+slide4"] = ["clause", "slide4"]
    keysets["all"] = ["clause", "minusverb", "slide3", "slide4", "slide5", "slide6"]
    for label, keys in keysets.items():
        def best(r, keys=keys):
            idx = slices(r, keys)
            return r["cos"][[0] + idx].max(axis=0)
        evaluate(f"max(whole,{label})", best)
        for a in (0.25, 0.5, 0.75):
            def mix(r, keys=keys, a=a):
                idx = slices(r, keys)
                if not idx:
                    return r["cos"][0]
                return (1 - a) * r["cos"][0] + a * r["cos"][idx].max(axis=0)
            evaluate(f"{1 - a:.2f}whole+{a:.2f}best({label})", mix)
        def zmax(r, keys=keys):  # each window's cosines as a gap over its own median, best of those
            idx = [0] + slices(r, keys)
            c = r["cos"][idx]
            return (c - np.median(c, axis=1, keepdims=True)).max(axis=0)
        evaluate(f"gapmax({label})", zmax)
    if args.dump:
        np.savez(args.dump, names=np.array(names), **{f"c{i}": r["cos"] for i, r in enumerate(results)})
        Path(args.dump + ".json").write_text(json.dumps([{"prompt": r["row"]["prompt"], "expect": r["row"]["expect"],
                                                           "kind": r["row"]["kind"], "wins": r["wins"]}
                                                          for r in results], ensure_ascii=False))


if __name__ == "__main__":
    main()
