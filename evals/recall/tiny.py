"""Recall in stores of 1–10 memories, every fit set pooled: a dump of each candidate's evidence, and its replay.

    python evals/recall/tiny.py dump OUT.jsonl [--sizes 1,2,3,5,10] [--seed 7]   # every fit row in each store size
    python evals/recall/tiny.py cv DUMP.jsonl                                    # today's bar and the variants, per fold
    python evals/recall/tiny.py asked DUMP.jsonl                                 # the asked rule's variants, per size

``dump``: for every row of :func:`common.fit_rows` (the fit halves of prompts and tasks and all of near, gaps, trial,
probe, pasted and short; never a held-out line, never ``fresh``) and every store size ``n``, a fresh home whose
project layer holds the memories the row expects and random others of the evaluation store up to ``n`` (seeded per
row and size; a row expecting none gets ``n`` random ones), embedded in the foreground (each memory's text embedded
once per process: the same vector in every store), ranked as recall ranks (:func:`memdir.search.ranking.ranked`,
pool 50) with every candidate kept and its evidence, score, bar and recall's own decision written as ``neg.py dump``
writes them. Fit row *i* of each set is in fold *i* mod 2, as ``run.py --split fit`` counts.

``cv``: replays recall (``neg.chosen``, k 3) on the dump: per store size its own decisions, then for each value of
:data:`SOLO_GRID` (a store's one cosine beside an imagined second memory at that cosine,
:data:`memdir.search.relevance.SOLO_COSINE`) ``[hits, needing, false, none]`` per fold in stores of one and pooled
over the sizes (only stores of one memory change).

``asked``: replays the rule of a prompt read as keywords because it asks (complete only in a memory
:data:`memdir.search.relevance.ASKED_GAP` above the median cosine) and variants of it for small stores, per store
size and fold, from the ``asked`` a dump since asked26 keeps per candidate (``[asked, complete before, after]``).
asked26 (2026-12-05; ``dump --sizes 3,5,10,45``): every variant (median padded with imagined memories at
SOLO_COSINE to 5, 10 or 20; or a lead of 0.005–0.03 over the next memory) gives today's figures on every fold at
every size: of the fit rows' needed memories complete for an asked prompt, none in stores of 5 and 10 falls under
the gap (the nearest stand 0.035–0.15 above), one in a store of 3 (recalled anyway, 0.53) — no change chosen.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402
import neg  # noqa: E402
from small import store_files  # noqa: E402


def _memoized_embed():
    """Embed each memory text once per process (a query is embedded as before)."""
    from memdir.search import vectors

    real, kept = vectors.embed, {}

    def embed(texts, *, query=False):
        if query:
            return real(texts, query=True)
        todo = [t for t in dict.fromkeys(texts) if t not in kept]
        if todo:
            for text, vec in zip(todo, real(todo)):
                kept[text] = vec
        import numpy as np
        return np.stack([kept[t] for t in texts])
    vectors.embed = embed


def _record_asked(relevance) -> None:
    """Keep on each evidence :func:`~memdir.search.relevance.with_cosine` gives ``[asked, complete before, complete
    after]`` (its ``_asked``, carried by ``replaced``; written as a candidate's ``asked``): what :func:`cv` replays
    the asked rule's variants from (a later rule zeroing ``complete`` leaves it unlike ``after``)."""
    real = relevance.with_cosine

    def with_cosine(evidence, cosine, median=None, top=None, asked=False, kin=None):
        out = real(evidence, cosine, median, top, asked, kin)
        if cosine is not None:
            out.__dict__["_asked"] = [bool(asked), evidence.complete, out.complete]
        return out
    relevance.with_cosine = with_cosine


def dump(out: Path, sizes: list[int], seed: int) -> None:
    from memdir import Memory
    from memdir.search import relevance
    from memdir.search.ranking import ranked
    from memdir.search.sync import prepare

    _memoized_embed()
    _record_asked(relevance)
    real = relevance.returned
    relevance.returned = lambda ev, value, min_score=relevance.THRESHOLD, explicit=False: True
    files = store_files()
    names = sorted(files)
    with out.open("w", encoding="utf-8") as sink:
        for which in common.SETS:
            if which in common.HELDOUT_ONLY | set(common.STORES):
                continue
            for i, row in enumerate(common.prompts("fit", which)):
                if not all(name in files for name in row["expect"]):
                    continue
                for n in sizes:
                    rng = random.Random(f"{seed}:{n}:{row['prompt']}")
                    pool = [m for m in names if m not in row["expect"]]
                    chosen = row["expect"] + rng.sample(pool, max(0, n - len(row["expect"])))
                    with tempfile.TemporaryDirectory(prefix="memdir-tiny-") as tmp:
                        base = Path(tmp)
                        project = base / "proj"
                        (project / ".git").mkdir(parents=True)
                        mem = Memory.open(home=base / "home", project=project, search_vectors="on", actor="human")
                        layer = mem.session.layer("project").path
                        layer.mkdir(parents=True, exist_ok=True)
                        for name in chosen:
                            shutil.copy(files[name], layer / files[name].name.split("__")[-1])
                        prepare(mem.session)
                        hits, _terms, _scope = ranked(mem.session, row["prompt"], pool=50)
                        cands = []
                        for h in hits:
                            ev = h.evidence
                            body, desc = (h.memory.body or "").strip(), h.memory.description.strip()
                            cands.append({"name": h.memory.name, "score": relevance.score(ev), "shown": h.score,
                                          "bar": relevance.bar(ev), "lexical": relevance.lexical(ev),
                                          "body": bool(body) and " ".join(body.split()) != " ".join(desc.split()),
                                          "returned": real(ev, relevance.score(ev)), "ev": asdict(ev),
                                          "asked": ev.__dict__.get("_asked")})
                    sink.write(json.dumps({"set": which, "fold": i % 2, "size": n, "prompt": row["prompt"],
                                           "expect": row["expect"], "kind": row["kind"], "store": chosen,
                                           "cands": cands}, ensure_ascii=False) + "\n")
                sink.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("dump", "cv", "asked"))
    parser.add_argument("path")
    parser.add_argument("--sizes", default="1,2,3,5,10")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(Path(args.path), [int(s) for s in args.sizes.split(",")], args.seed)
    elif args.command == "asked":
        asked_cv(neg.load(args.path))
    else:
        cv(neg.load(args.path))
    return 0


def _solo_keep(solo: float | None):
    """Recall's decision with a store's one cosine beside an imagined second memory at ``solo`` (None: none, as
    before recall26), re-scored from the dumped evidence (:func:`memdir.search.relevance.standing`'s rule)."""
    import heapq

    from memdir.search import relevance as R

    cache: dict[int, dict | None] = {}

    def rescored(row):
        cos = [c["ev"]["cosine"] for c in row["cands"] if c["ev"]["cosine"] is not None]
        if len(cos) != 1:
            return None
        values = cos + ([] if solo is None else [solo])
        med, top = R.median(values), heapq.nlargest(2, values) if len(values) >= 2 else None
        out = {}
        for c in row["cands"]:
            x = c["ev"]["cosine"]
            if x is None:
                continue
            lead = 0.0 if top is None else max(-0.1, min(0.1, x - (top[1] if x >= top[0] else top[0])))
            ev = R.replaced(neg.as_evidence(c["ev"]), gap=x - med, lead=lead)
            out[c["name"]] = (R.score(ev), R.bar(ev))
        return out

    def keep(c, row):
        if id(row) not in cache:
            cache[id(row)] = rescored(row)
        p = cache[id(row)]
        if p is None or c["name"] not in p:
            return neg.base(c, row)
        return p[c["name"]][0] >= p[c["name"]][1]
    return keep


SOLO_GRID = (None, 0.76, 0.77, 0.78, 0.79, 0.795, 0.8, 0.81, 0.82, 0.83, 0.84, 0.86)


def cv(rows: list[dict]) -> None:
    """Per store size and pooled: the dump's own decisions, then each value of :data:`SOLO_GRID` replayed (a dump
    made before recall26 replays its ``None`` as itself)."""
    sizes = sorted({r["size"] for r in rows})
    for n in sizes:
        print(json.dumps({"size": n, "dump": neg.folds([r for r in rows if r["size"] == n], neg.base)}))
    for solo in SOLO_GRID:
        keep = _solo_keep(solo)
        per = {n: neg.folds([r for r in rows if r["size"] == n], keep) for n in sizes}
        pooled = [[sum(per[n][f][j] for n in sizes) for j in range(4)] for f in (0, 1)]
        print(json.dumps({"solo": solo, "size_1": per.get(1), "pooled": pooled}))


def _asked_keep(kept):
    """Recall's decision when a prompt read as keywords because it asks stays complete in a memory for which
    ``kept(ev, cosines)`` holds (``ev`` the dumped evidence, ``cosines`` the row's) instead of today's gap of
    :data:`memdir.search.relevance.ASKED_GAP` above the median; needs a dump holding ``asked`` (see :func:`dump`)."""
    from memdir.search import relevance as R

    cache: dict[tuple[int, str], bool] = {}

    def keep(c, row):
        a = c.get("asked")
        if not a or not a[0] or not a[1] or c["ev"]["complete"] != a[2]:  # not asked, never complete, or zeroed later
            return neg.base(c, row)
        key = (id(row), c["name"])
        if key not in cache:
            cosines = [d["ev"]["cosine"] for d in row["cands"] if d["ev"]["cosine"] is not None]
            complete = a[1] if kept(c["ev"], cosines) else 0.0
            if complete == c["ev"]["complete"]:
                cache[key] = neg.base(c, row)
            else:
                ev = R.replaced(neg.as_evidence(c["ev"]), complete=complete)
                cache[key] = R.score(ev) >= R.bar(ev)
        return cache[key]
    return keep


def _padded(pad: int, gap: float):
    """The gap above the median of the row's cosines with imagined memories at
    :data:`memdir.search.relevance.SOLO_COSINE` up to ``pad`` cosines in all."""
    from memdir.search import relevance as R

    def kept(ev, cosines):
        values = cosines + [R.SOLO_COSINE] * max(0, pad - len(cosines))
        return ev["cosine"] - R.median(values) >= gap
    return kept


def asked_cv(rows: list[dict]) -> None:
    """Per store size and per fold ``[hits, needing, false, none]``: the dump's own decisions, today's asked rule
    replayed (must equal them), and its variants: the gap over a median padded with imagined memories at
    SOLO_COSINE (``pad``), or the gap or the lead over the next memory (``lead``)."""
    from memdir.search import relevance as R

    sizes = sorted({r["size"] for r in rows})
    variants = {"dump": neg.base, "today": _asked_keep(lambda ev, cos: ev["gap"] >= R.ASKED_GAP)}
    for pad in (5, 10, 20):
        variants[f"pad{pad}"] = _asked_keep(_padded(pad, R.ASKED_GAP))
    for lead in (0.005, 0.01, 0.015, 0.02, 0.03):
        variants[f"lead{lead}"] = _asked_keep(lambda ev, cos, lead=lead: ev["gap"] >= R.ASKED_GAP or ev["lead"] >= lead)
    for name, keep in variants.items():
        per = {n: neg.folds([r for r in rows if r["size"] == n], keep) for n in sizes}
        print(json.dumps({"variant": name, **{f"size_{n}": per[n] for n in sizes}}))


if __name__ == "__main__":
    raise SystemExit(main())
