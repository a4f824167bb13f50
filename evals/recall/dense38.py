"""The wide set's misses and false recalls with vectors on: the embedder's ranking or recall's decision? (dense38,
2026-12-07)

    python evals/recall/dense38.py dump DUMP.jsonl [--fold 0]   # wide's fold rows: recall's names, candidates, cosines
    python evals/recall/dense38.py table DUMP.jsonl             # the needed memory's rank, cosine, gap, lead, score, bar
    python evals/recall/dense38.py cover DUMP.jsonl             # its rank by head, best sentence, best passage
    python evals/recall/dense38.py hub DUMP.jsonl               # its rank with each memory's nearness to all taken out

``dump`` builds ``wide/``'s store (105 memories, vectors on), and for each row of ``wide.jsonl`` in the fold (row *i*
in fold *i* mod 2, as ``run.py --split fit`` counts; fold 0 unless told) writes what recall returned
(:func:`memdir.search.recall.recall_result`, ``got``), every memory's candidate record as ``neg.py dump`` writes it
(:func:`neg.candidate`, ranked with every memory in the pool, recall's own decision on the score it was ranked at in
``decided``, and ``pooled``: whether recall's pool of :data:`memdir.search.recall.POOL_MIN` held it) and each memory's
cosine to the prompt three ways, each the best over the prompt's vectors as recall embeds it (the whole prompt and its
query windows, :mod:`memdir.search.querywindows`): ``head`` (the stored vector: title, description, start of the body,
:data:`memdir.search.vectors.EMBED_TOKENS`; what :attr:`memdir.search.relevance.Evidence.cosine` reads), ``sent`` (its
best sentence: description and body sentences, :func:`oof.memory_sentences`, each embedded as a passage) and ``pass``
(its best of :func:`memdir.search.vectors.passage_texts`: the head and windows of the body beyond it); ``whole``
is the head's cosine to the whole prompt alone, no query window.

``table`` prints, for each row needing a memory, the needed memory nearest by the head's cosine: its rank among the
105 (1 = nearest), cosine, gap above the prompt's median, lead over the nearest other memory (not clipped), its score
against its bar, and the outcome; then the same summarized for hits and misses by kind, and for each memory recalled
for a row needing none, what carried it (:func:`false36.carrier`). ``cover`` ranks the needed memory by each cosine and
by the best of head and sentence; ``hub`` by the head's cosine less each memory's mean cosine to ``generic.txt``.

Fold 0 only (fold 1 not read: no change was chosen), int38 at 40d02332, vectors on; the dump's tally is ``run.py``'s,
[25, 43, 8, 43]. The needed memory by recall's cosine (head, best of whole prompt and query windows), quartiles:

    rows            n  rank 1  top 3  rank > 10  median rank  gap                    lead
    hits           25     24     24        0         1       0.067/0.090/0.098      +0.013/+0.030/+0.046
    misses         18      2      6        7         8.5     0.010/0.032/0.035      -0.036/-0.025/-0.005
      paraphrase   11      0      3        7        21       0.005/0.011/0.032      -0.039/-0.033/-0.021
      task          7      2      3        0         4       0.032/0.033/0.052      -0.020/-0.007/+0.007
    none's nearest 43      -      -        -         -       0.036/0.043/0.059      +0.002/+0.004/+0.010
    false recalls  10 memories on 8 rows: 7 rank 1, gap 0.055/0.068/0.076, lead -0.011/+0.007/+0.021

Every hit but one (tern-backfill by its words, rank 9) is the nearest memory; 16 of 18 misses are not. The failure is
the embedder's ranking: the 11 paraphrase misses rank 2nd-97th (7 beyond 10th), and no miss near the top stands out
of the rows needing none: the four ranked 2nd-3rd (bastion, atlas-push, atlas-i18n, atlas-storage) have a lead ≤ 0
and 28-40 of the 43 rows needing none have a nearest memory at least as far out. The two misses ranked first,
"add some logging to the payout reconciliation task" (ledger-logging: gap 0.052, lead +0.012, score 0.45 under 0.5)
and "commit this with a good message" (commit-style: 0.060, +0.007, 0.17 under the nearest bar 0.30), are matched or
passed by the nearest memory of 5 and 6 rows needing none: a bar letting them through gains at most 2 hits at the
price of about as many false recalls, so no rule is tuned. The false recalls are the nearest memory on a near-topic
question it does not answer ("what's the max message size on our Kafka brokers?" and tern-kafka: gap 0.076, lead
+0.021; "what's the Redis Sentinel port for ledger in prod?" and ledger-dev-ports by its words), carried by the hybrid
model (5), the lexical (3) or, twice, the Chinese note tern-backfill by its standing among its script's notes alone
(24th and 11th of all; ``loaned`` does not hold: fewer than 3 nearer English notes share "order"); meaning puts them
where it puts the hits.

What a memory's embedding covers does not explain it (``cover``; rank 1 / top 3 / beyond 10 / median rank of the
needed memory): paraphrase by the head 2/5/7/14, by its best sentence 1/3/6/10, its best passage (head and body
windows) 2/4/8/16, the best of head and sentence 1/4/6/10; every prompt 26/30/7/1 by the head, 18/28/6/2 by sentence,
27/30/9/1 by passage. The memories are short (10-100 words), so the head holds nearly all of each. The whole prompt
without query windows places paraphrases nearer (2/6/5, median rank 4) but no more of them first, and tasks 8 first
against 9. Taking each memory's nearness to every prompt out (``hub``: terse-replies is the nearest memory of 11 of
the 86 rows and of 6 of the 11 paraphrase misses; mean generic cosine 0.815 against a median 0.787) places
paraphrases 4/6/4, median rank 6, at a = 1, but their gap (median 0.036) and lead (-0.020) stay under the rows needing
none's nearest (0.045, +0.007): still nothing a bar can take.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import build_store, new_folds, prompts, tally

WAYS = ("head", "whole", "sent", "pass")


def dump(out: Path, fold: int) -> None:
    import numpy as np
    from oof import memory_sentences

    from memdir.files.memfile import parse
    from memdir.search import dense, pasted, relevance, vectors
    from memdir.search.index import connect
    from memdir.search.ranking import ranked
    from memdir.search.recall import POOL_MIN, recall_result

    paths = sorted((HERE / "wide").glob("*.md"))
    sents, owners = memory_sentences(paths)
    texts, text_owners = [], []
    for p in paths:
        rec = parse(p.read_text(encoding="utf-8"), p.stem).record
        for text in vectors.passage_texts(rec.title, rec.description, rec.body or ""):
            texts.append(text)
            text_owners.append(rec.name)
    S, P = vectors.embed(sents), vectors.embed(texts)
    real = relevance.returned
    with tempfile.TemporaryDirectory() as tmp, out.open("w", encoding="utf-8") as sink:
        mem = build_store(Path(tmp), "on", "wide")
        pairs = connect(mem.session.home).execute("SELECT d.name, v.vec FROM docs d JOIN vectors v ON v.id = d.id")
        names, heads = zip(*pairs.fetchall())
        H = np.stack([np.frombuffer(v, dtype=np.float32) for v in heads])
        own = {n: [i] for i, n in enumerate(names)}
        groups = {"head": own, "whole": own, "sent": _groups(owners), "pass": _groups(text_owners)}
        recall_result(mem.session, "warm up the index and the model")
        for i, row in enumerate(prompts("fit", "wide")):
            if i % 2 != fold:
                continue
            got = [m.name for m in recall_result(mem.session, row["prompt"]).memories]
            relevance.returned = lambda ev, value, min_score=relevance.THRESHOLD, explicit=False: True
            try:
                pooled = {h.memory.name for h in ranked(mem.session, row["prompt"], pool=max(POOL_MIN, 12))[0]}
                hits = ranked(mem.session, row["prompt"], pool=2 * len(names))[0]
            finally:
                relevance.returned = real
            Q = dense.query_vectors(pasted.read(row["prompt"]), windows=True)
            cos = {way: {n: float((M[at] @ Q[:rows].T).max()) for n, at in groups[way].items()}
                   for way, M, rows in (("head", H, len(Q)), ("whole", H, 1), ("sent", S, len(Q)), ("pass", P, len(Q)))}
            cands = [{**_candidate(h, real), "pooled": h.memory.name in pooled} for h in hits]
            sink.write(json.dumps({"fold": fold, "prompt": row["prompt"], "expect": row["expect"], "kind": row["kind"],
                                   "got": got, "cands": cands, "cos": cos}, ensure_ascii=False) + "\n")


def _groups(owners: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, name in enumerate(owners):
        out.setdefault(name, []).append(i)
    return out


def _candidate(h, real) -> dict:
    from neg import candidate

    return candidate(h, real, lambda hit: {"decided": real(hit.evidence, hit.score)})


def standing(cos: dict[str, float], name: str) -> dict:
    """``name``'s rank among ``cos`` (1 = nearest), cosine, gap above their median, lead over the nearest other."""
    ordered = sorted(cos.values(), reverse=True)
    c = cos[name]
    return {"rank": 1 + sum(v > c for v in ordered), "cos": c, "gap": c - statistics.median(ordered),
            "lead": c - (ordered[1] if c >= ordered[0] else ordered[0])}


def needed(row: dict, way: str = "head") -> str:
    """The memory of ``row["expect"]`` nearest by the ``way`` cosine."""
    return max(row["expect"], key=lambda n: row["cos"][way][n])


def _cand(row: dict, name: str) -> dict | None:
    return next((c for c in row["cands"] if c["name"] == name), None)


def load(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]


def _summary(label: str, items: list[dict]) -> None:
    if not items:
        print(f"{label:28s} n 0")
        return
    ranks = [x["rank"] for x in items]

    def q(key):
        values = sorted(x[key] for x in items)
        return f"{values[len(values) // 4]:+.3f}/{statistics.median(values):+.3f}/{values[3 * len(values) // 4]:+.3f}"
    print(f"{label:28s} n {len(items):2d}  rank1 {sum(r == 1 for r in ranks):2d}  top3 {sum(r <= 3 for r in ranks):2d}"
          f"  rank>10 {sum(r > 10 for r in ranks):2d}  median rank {statistics.median(ranks):4.1f}"
          f"  cos {q('cos')}  gap {q('gap')}  lead {q('lead')}  (quartiles)")


def _outdone(row: dict, st: dict) -> bool:
    """True when ``row``'s nearest memory by the head cosine stands at least ``st``'s gap and lead out."""
    cos = row["cos"]["head"]
    top = standing(cos, max(cos, key=cos.get))
    return top["gap"] >= st["gap"] and top["lead"] >= st["lead"]


def table(rows: list[dict]) -> None:
    import false36
    from neg import as_evidence

    folds = new_folds()
    groups: dict[str, list[dict]] = {}
    print("needing a memory: rank of the needed one among 105 by the head's cosine (recall's), its cosine, gap, lead;"
          " its score / bar; outcome")
    for row in rows:
        right = tally(folds, row["fold"], row["expect"], row["got"])
        if not row["expect"]:
            continue
        name = needed(row)
        st = standing(row["cos"]["head"], name)
        c = _cand(row, name)
        bar = "-" if c is None else f"{c['shown']:.2f}/{c['bar']:.2f}"
        where = "pooled" if c and c["pooled"] else "unpooled"
        outcome = "HIT " if right else "miss"
        why = "" if right else ("returned,crowded" if c and c["decided"] else f"under bar,{where}")
        print(f"{outcome} {row['kind'][:4]} rank {st['rank']:3d} cos {st['cos']:.3f} gap {st['gap']:+.3f} "
              f"lead {st['lead']:+.3f} score/bar {bar:9s} {why:20s} {name[:24]:24s} {row['prompt'][:70]!r}")
        if not right and st["rank"] <= 3:
            alike = sum(1 for other in rows if not other["expect"] and _outdone(other, st))
            print(f"     (of {sum(not r['expect'] for r in rows)} rows needing none, {alike} have a nearest memory at"
                  f" least this gap and lead)")
        groups.setdefault(f"{'hit' if right else 'miss'} {row['kind']}", []).append(st)
        groups.setdefault("hit" if right else "miss", []).append(st)
    print("\nfolds as run.py counts them", folds)
    for label in sorted(groups):
        _summary(label, groups[label])
    print("\nfalse recalls (rows needing none): each memory recalled, what carried it, its standing by the head cosine")
    false = []
    for row in rows:
        if row["expect"] or not row["got"]:
            continue
        for name in row["got"]:
            c = _cand(row, name)
            st = standing(row["cos"]["head"], name)
            false.append(st)
            e = as_evidence(c["ev"])
            print(f"{false36.carrier(e):7s} rank {st['rank']:3d} cos {st['cos']:.3f} gap {st['gap']:+.3f} "
                  f"lead {st['lead']:+.3f} score/bar {c['shown']:.2f}/{c['bar']:.2f} words {c['lexical']:.2f} "
                  f"cov {e.coverage:.2f} shared {list(e.shared)} kin {e.kin and [round(x, 3) for x in e.kin]} "
                  f"{name[:22]:22s} {row['prompt'][:60]!r}")
    _summary("false recalls", false)
    nearest = [standing(row["cos"]["head"], max(row["cos"]["head"], key=row["cos"]["head"].get))
               for row in rows if not row["expect"]]
    _summary("none rows' nearest memory", nearest)


def cover(rows: list[dict]) -> None:
    """The needed memory's rank by each way of embedding a memory, by kind."""
    ways = {**{w: (lambda row, w=w: row["cos"][w]) for w in WAYS},
            "head|sent": lambda row: {n: max(row["cos"]["head"][n], row["cos"]["sent"][n]) for n in row["cos"]["head"]}}
    for way, cos_of in ways.items():
        print(f"-- {way}")
        by_kind: dict[str, list[dict]] = {}
        for row in rows:
            if row["expect"]:
                cos = cos_of(row)
                st = standing(cos, max(row["expect"], key=cos.get))
                by_kind.setdefault(row["kind"], []).append(st)
                by_kind.setdefault("all", []).append(st)
        for kind in ("lexical", "paraphrase", "task", "all"):
            _summary(kind, by_kind.get(kind, []))
        _summary("none rows' nearest", [standing(cos_of(row), max(cos_of(row), key=cos_of(row).get))
                                        for row in rows if not row["expect"]])
    print(f"\nparaphrase rows: the needed memory's rank by {', '.join(WAYS)}")
    for row in rows:
        if row["kind"] == "paraphrase":
            name = needed(row)
            ranks = [standing(row["cos"][w], name)["rank"] for w in WAYS]
            print(f"  {ranks} {name[:24]:24s} {row['prompt'][:80]!r}")


def hub(rows: list[dict]) -> None:
    """The needed memory's rank by the head's cosine less ``a`` × the memory's mean cosine to the generic prompts
    (:func:`meaning.generic_prompts`, embedded as queries; each memory's head as the index embeds it,
    :func:`memdir.search.vectors.memory_text`): does taking out how near a memory is to every prompt place it?"""
    from meaning import generic_prompts

    from memdir.files.memfile import parse
    from memdir.search import vectors

    recs = [parse(p.read_text(encoding="utf-8"), p.stem).record for p in sorted((HERE / "wide").glob("*.md"))]
    M = vectors.embed([vectors.memory_text(r.title, r.description, r.body or "") for r in recs])
    G = vectors.embed([vectors.query_text(g) for g in generic_prompts()], query=True)
    mean = dict(zip([r.name for r in recs], (G @ M.T).mean(0).tolist()))
    top = sorted(mean, key=mean.get, reverse=True)
    print("nearest the generic prompts:", [(n, round(mean[n], 3)) for n in top[:5]], "median",
          round(statistics.median(mean.values()), 3))
    for a in (0.0, 0.5, 1.0):
        print(f"-- head cosine - {a} x mean generic cosine")
        by_kind: dict[str, list[dict]] = {}
        for row in rows:
            cos = {n: c - a * mean[n] for n, c in row["cos"]["head"].items()}
            if row["expect"]:
                st = standing(cos, max(row["expect"], key=cos.get))
                by_kind.setdefault(row["kind"], []).append(st)
            else:
                by_kind.setdefault("none rows' nearest", []).append(standing(cos, max(cos, key=cos.get)))
        for kind in ("lexical", "paraphrase", "task", "none rows' nearest"):
            _summary(kind, by_kind.get(kind, []))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("dump", "table", "cover", "hub"):
        sys.exit(__doc__.split("\n\n")[1])
    if sys.argv[1] == "dump":
        fold = int(sys.argv[sys.argv.index("--fold") + 1]) if "--fold" in sys.argv else 0
        sys.exit(dump(Path(sys.argv[2]), fold))
    {"table": table, "cover": cover, "hub": hub}[sys.argv[1]](load(sys.argv[2]))
