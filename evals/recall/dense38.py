"""The wide set's misses and false recalls with vectors on: the embedder's ranking or recall's decision? (dense38,
2026-12-07)

    python evals/recall/dense38.py dump DUMP.jsonl [--fold 0]   # wide's fold rows: recall's names, candidates, cosines
    python evals/recall/dense38.py table DUMP.jsonl             # the needed memory's rank, cosine, gap, lead, score, bar
    python evals/recall/dense38.py cover DUMP.jsonl             # its rank by head, best sentence, best passage

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
by the best of head and sentence.
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
    print("\nparaphrase rows: the needed memory's rank head -> sent -> pass")
    for row in rows:
        if row["kind"] == "paraphrase":
            name = needed(row)
            ranks = [standing(row["cos"][w], name)["rank"] for w in WAYS]
            print(f"  {ranks} {name[:24]:24s} {row['prompt'][:80]!r}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("dump", "table", "cover"):
        sys.exit(__doc__.split("\n\n")[1])
    if sys.argv[1] == "dump":
        fold = int(sys.argv[sys.argv.index("--fold") + 1]) if "--fold" in sys.argv else 0
        sys.exit(dump(Path(sys.argv[2]), fold))
    (table if sys.argv[1] == "table" else cover)(load(sys.argv[2]))
