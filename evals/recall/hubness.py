"""Hubness taken out of recall's cosines (CSLS, Conneau et al. 2018), for memories in another language (csls32).

    python evals/recall/hubness.py ranks [VARIANT…]     # where each correction places the needed memory (numpy only)
    python evals/recall/hubness.py run VARIANT [A]      # recall itself with the corrected cosines, every fit row

Reads the fit rows only (:func:`common.fit_rows` and ``shop``'s, never a held-out line, never ``fresh``); fit row *i*
of each set is in fold *i* mod 2, as ``run.py --split fit`` counts. A *correction* gives each memory ``m`` of the
store a scalar ``r(m)``, and recall reads ``cos(q, m) − A·(r(m) − mean r)`` where it read ``cos(q, m)``: the
CSLS rule ``2·cos − r(m) − r(q)`` ranks as this does with ``A`` = 1 (``r(q)`` is the same for every memory of one
prompt; the mean keeps the cosines' level, which the relevance models read). Variants of ``r(m)``:

* ``mem-K`` — the mean cosine of ``m`` to its ``K`` nearest other memories of the store;
* ``bank-K`` — the mean cosine of ``m`` to its ``K`` nearest prompts of ``generic.txt`` (68 prompts no memory answers,
  written for ``meaning.py``, embedded as queries); ``bank-all`` their mean;
* ``script-K`` — as ``bank-K`` over the generic prompts written in the prompt's script only (so an English prompt
  corrects by English prompts' offset, a Chinese one by Chinese ones'; none when the bank holds fewer than ``K``);
* ``pair`` — the language offset alone: each memory of another script ``t`` than the prompt's ``s`` gains the mean
  cosine of the prompt's script's memories to ``s``'s generic prompts less that of ``t``'s memories (one scalar per
  pair of scripts); the memories of the prompt's script keep their cosines;
* ``scriptx-K`` — ``script-K`` for the memories of another script than the prompt's alone, against the mean ``r`` of
  the prompt's script's memories (those keep their cosines).

``run`` patches :data:`memdir.search.ranking._dense` (the dense side's seam) and runs
:func:`memdir.search.recall.recall_result` on every fit row, as ``run.py --split fit`` does; ``none`` is today's.

2026-12-06 (csls32), 45 memories (32 in letters, 6 hangul, 4 han, 3 kana), 68 generic prompts (58 letters, 4 kana,
4 han, 2 hangul). Not kept: a measured negative.

*ranks* (every fit row of the eval store; the needed memory nearest by the corrected cosine, first / in the first
three, for the 67 rows needing a memory of another script than the prompt's and the 286 needing one of its
own script; and of the 307 rows needing none, how many have a memory of another script nearest):

============  ===  =============  =================  ===============
variant       A    other script   own script         none: other 1st
============  ===  =============  =================  ===============
none (today)  —    25 / 36        259 / 271          15
mem-3/5/10    0.5  21–23 / 35–37  255–256 / 272–273  13–19
mem-3/5/10    1    24–25 / 34     245–248 / 268–270  16–25
bank-3/5/10   1    19–25 / 35–37  245–250 / 262–267  28–35
bank-all      1    28 / 43        250 / 270          39
script-3      0.5  31 / 47        253 / 269          37
script-3      1    41 / 54        242 / 261          68
pair          1    35 / 48        251 / 264          68
scriptx-1     0.5  33 / 45        259 / 270          33
scriptx-3     0.5  31 / 46        259 / 269          31
scriptx-3     1    44 / 56        252 / 269          65
scriptx-3     1.5  48 / 61        239 / 259          121
============  ===  =============  =================  ===============

Hubness measured against the store's own memories (``mem-K``) and against the generic prompts of every script
(``bank-K``) places fewer memories right on both sides (likely because a memory's nearest other memories and
generic prompts are those of its own language: the hubs here are the language clusters). The offset measured per
prompt's script (``script``, ``pair``, ``scriptx``) does what the cross-lingual misses need — up to 19 more of
the 67 placed first — but at the price of the own-script placements and of four times as many prompts needing none
with a memory of another script nearest.

*run* (recall itself; ``[hits, needing, false, none]`` fold 0 / fold 1 over all twelve fit sets, the eval store's
eleven and ``shop`` on its own store; the machine at load 20 on 2 cores, so one setting in full in the time there was):

* today (none): [158, 191, 26, 157] / [149, 183, 19, 163] (prompts and tasks as ``run.py --split fit`` and
  ``usecross.py`` give);
* scriptx-3, A 1 (the ranks' most cross-lingual memories placed first for the fewest own-script ones lost):
  [162, 191, 30, 157] / [151, 183, 28, 163], (+4 hits, +4 false recalls) on fold 0 and (+2, +9) on fold 1. It gains
  10 hits (7 cross-lingual: zh-logging for three English prompts, ko-onboarding, ko-translation, and Chinese or
  Japanese prompts for s3-bucket, feature-flags, python-installs, tabs-go, ci-runner) and clears 2 false recalls, but
  loses 4 hits (three German prompts search.foreign recalled: de-invoices, no-mocks-db, timezone-utc, now outranked by
  a lifted CJK memory; one probe task) and adds 15 false recalls, nearly all a lifted memory of another script:
  ja-api-rate for "add pagination to the users endpoint", zh-logging for three pasted stack traces, ko-onboarding for
  "set up a dark mode toggle in the css" and "how do i set up a vpn on my rooter?";
* scriptx-3, A 0.5, prompts and tasks only: (0, +1) on fold 0, (−1, 0) on fold 1 (then stopped for the machine's
  time).

So the placements do not become recalls: a memory of another script that shares no word with the prompt is scored
by the dense evidence alone (cosine level, gap, lead and ``kin``'s standing among its script, which a per-script
shift leaves as it was for ``pair``), and where the shift lifts it over the bar it lifts near-topic and general
prompts' memories of that script too. Neither fold gains without a new false recall at either ``A``, so nothing is
wired into the recall path.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np
from common import HELDOUT_ONLY, SETS, STORES, build_store, new_folds, prompts, tally

HERE = Path(__file__).resolve().parent


def generic_prompts() -> list[str]:
    """The lines of ``generic.txt``: prompts no memory answers."""
    return [line for line in (HERE / "generic.txt").read_text(encoding="utf-8").splitlines() if line.strip()]


def store_vectors(session):
    """``(ids, names, scripts, H)``: every embedded memory of ``session``'s index, its head vector (as stored)."""
    from memdir.search import scripts
    from memdir.search.index import connect

    conn = connect(session.home)
    got = conn.execute("SELECT d.id, d.name, v.vec FROM docs d JOIN vectors v ON v.id = d.id ORDER BY d.id").fetchall()
    of = scripts.of_rows(conn)
    ids = [g[0] for g in got]
    H = np.stack([np.frombuffer(g[2], dtype=np.float32) for g in got])
    return ids, [g[1] for g in got], [of.get(i, "letters") for i in ids], H


def _topk_mean(S: np.ndarray, k: int) -> np.ndarray:
    k = min(k, S.shape[1])
    return np.sort(S, 1)[:, -k:].mean(1)


def correction(variant: str, H: np.ndarray, bank, bank_scripts: list[str], mscripts: list[str]):
    """``script of the prompt -> array of r(m) − mean r`` (what each memory's cosine loses, per unit of ``A``; or
    None: no correction) for ``variant``, the memories in ``H``'s order (``mscripts`` their scripts)."""
    if variant == "none":
        return lambda own: None
    kind, _, k = variant.partition("-")
    if kind == "mem":
        S = H @ H.T
        np.fill_diagonal(S, -np.inf)
        r = _topk_mean(S, int(k))
        return lambda own: r - r.mean()
    if kind == "bank":
        S = H @ bank.T
        r = S.mean(1) if k == "all" else _topk_mean(S, int(k))
        return lambda own: r - r.mean()
    if kind == "script":
        by = {}
        for s in set(bank_scripts):
            cols = [j for j, b in enumerate(bank_scripts) if b == s]
            if len(cols) >= int(k):
                r = _topk_mean(H @ bank[cols].T, int(k))
                by[s] = r - r.mean()
        return lambda own: by.get(own)
    if kind in ("pair", "scriptx"):  # only the memories of another script than the prompt's move
        out = {}
        for s in set(bank_scripts):
            cols = [j for j, b in enumerate(bank_scripts) if b == s]
            if len(cols) < int(k or 1):
                continue
            S = H @ bank[cols].T
            r = S.mean(1) if kind == "pair" else _topk_mean(S, int(k))
            mine = np.array([m == s for m in mscripts])
            if not mine.any():
                continue
            if kind == "pair":  # one offset per script of memory: its memories' mean against the prompt's script's
                shift = np.zeros(len(r))
                for t in set(mscripts) - {s}:
                    theirs = np.array([m == t for m in mscripts])
                    shift[theirs] = r[theirs].mean() - r[mine].mean()
            else:
                shift = np.where(mine, 0.0, r - r[mine].mean())
            out[s] = shift
        return lambda own: out.get(own)
    raise SystemExit(f"unknown variant {variant}")


def bank_vectors():
    from memdir.search import scripts, vectors

    lines = generic_prompts()
    return vectors.embed([vectors.query_text(g) for g in lines], query=True), [scripts.script(g) for g in lines]


def fit_sets():
    """``[(set, rows)]`` of every fit set run on the eval store (``shop`` runs on its own)."""
    return [(w, prompts("fit", w)) for w in SETS if w not in HELDOUT_ONLY | set(STORES)]


def ranks() -> None:
    """Per variant: of the rows needing a memory written in another script than the prompt (and of all rows needing
    one), how many place a needed memory first; and how many rows needing none see a memory of another script first."""
    from memdir.search import scripts, vectors

    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "on")
        _ids, names, mscripts, H = store_vectors(mem.session)
    bank, bank_scripts = bank_vectors()
    rows = [r for _, rs in fit_sets() for r in rs]
    Q = vectors.embed([vectors.query_text(r["prompt"]) for r in rows], query=True)
    C = Q @ H.T
    own = [scripts.script(r["prompt"]) for r in rows]
    print(json.dumps({"bank_scripts": {s: bank_scripts.count(s) for s in set(bank_scripts)},
                      "memory_scripts": {s: mscripts.count(s) for s in set(mscripts)}}))
    chosen = sys.argv[2:] or ["none", "mem-3", "mem-5", "mem-10", "bank-3", "bank-5", "bank-10", "bank-all",
                              "script-3", "script-5", "script-10", "pair", "scriptx-3", "scriptx-5"]
    for variant in chosen:
        r_of = correction(variant, H, bank, bank_scripts, mscripts)
        for a in ((1.0,) if variant == "none" else (0.5, 1.0, 1.5)):
            cross, same, none_x = [0, 0, 0], [0, 0, 0], [0, 0]
            for i, row in enumerate(rows):
                r = r_of(own[i])
                c = C[i] - a * r if r is not None else C[i]
                order = list(np.argsort(-c))
                top = order[0]
                if not row["expect"]:
                    none_x[0] += mscripts[top] != own[i]
                    none_x[1] += 1
                    continue
                need = [names.index(n) for n in row["expect"] if n in names]
                if not need:
                    continue
                best = min(order.index(j) for j in need)
                x = any(mscripts[j] != own[i] for j in need)
                tgt = cross if x else same
                tgt[0] += best == 0
                tgt[1] += best <= 2
                tgt[2] += 1
            print(json.dumps({"variant": variant, "a": a, "cross_first_top3_n": cross, "same_first_top3_n": same,
                              "none_other_script_first": none_x}))


def run(variant: str, a: float) -> None:
    """``run.py --split fit`` over every fit set with ``variant``'s corrected cosines: one JSON line per set and one
    pooled, ``folds`` as run.py prints them, and each miss and false recall."""
    from memdir.search import ranking, scripts
    from memdir.search.recall import recall_result

    real = ranking._dense
    bank, bank_scripts = bank_vectors()
    pooled, lines = new_folds(), []
    for store, sets in (("prompts", fit_sets()), ("shop", [("shop", prompts("fit", "shop"))])):
        with tempfile.TemporaryDirectory() as tmp:
            mem = build_store(Path(tmp), "on", store)
            ids, _names, mscripts, H = store_vectors(mem.session)
            r_of = correction(variant, H, bank, bank_scripts, mscripts)

            def dense(conn, session, query, *args, r_of=r_of, ids=ids, **kwargs):
                found = real(conn, session, query, *args, **kwargs)
                r = r_of(scripts.script(query))
                if r is None or not found:
                    return found
                shift = dict(zip(ids, (a * r).tolist()))
                return {i: c - shift.get(i, 0.0) for i, c in found.items()}

            ranking._dense = dense
            recall_result(mem.session, "warm up the index and the model")
            for which, rows in sets:
                folds = new_folds()
                for i, row in enumerate(rows):
                    names = [m.name for m in recall_result(mem.session, row["prompt"], k=3).memories]
                    tally(folds, i % 2, row["expect"], names)
                    tally(pooled, i % 2, row["expect"], names)
                    if row["expect"] and not set(row["expect"]) & set(names):
                        lines.append({"miss": row["prompt"], "set": which, "fold": i % 2, "expect": row["expect"],
                                      "got": names})
                    elif not row["expect"] and names:
                        lines.append({"false": row["prompt"], "set": which, "fold": i % 2, "got": names})
                print(json.dumps({"variant": variant, "a": a, "set": which, "folds": folds}), flush=True)
            ranking._dense = real
    print(json.dumps({"variant": variant, "a": a, "pooled": pooled}), flush=True)
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))


def main(argv: list[str]) -> None:
    if argv[:1] == ["ranks"]:
        ranks()
    elif argv[:1] == ["run"] and len(argv) in (2, 3):
        run(argv[1], float(argv[2]) if len(argv) == 3 else 1.0)
    else:
        raise SystemExit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main(sys.argv[1:])
