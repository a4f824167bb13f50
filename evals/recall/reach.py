"""Recall's same-script misses on the fit folds, what the gate decided for each, and the gate variants tried on them.

    python evals/recall/neg.py dump DUMP.jsonl [--off]   # every fit row's candidates (neg.py), vectors on or off
    python evals/recall/reach.py misses DUMP.jsonl       # each miss whose needed memory is of the prompt's script
    python evals/recall/reach.py variants DUMP.jsonl     # the families below, pooled 2-fold

``DUMP.jsonl`` holds the fit rows only (:func:`common.fit_rows`; never a held-out line, never ``fresh``). Fit row *i*
of each set is in fold *i* mod 2, as ``run.py --split fit`` counts; the replay (:func:`neg.chosen`) gives run.py's
figures. A family's setting is chosen on one fold (the most hits less COST × false recalls, of equals the strictest)
and read on the other against the dump's own bar.

2026-12-06 (reach32), 45 memories, main at 0c3227d0, pooled ``[hits, needing, false, none]``: vectors on fold 0 [149,
181, 25, 150], fold 1 [142, 172, 19, 157] (prompts [[45, 52, 1, 16], [34, 39, 1, 28]], tasks [[11, 16, 0, 10], [18,
21, 0, 5]]); vectors off [102, 181, 13, 150], [97, 172, 12, 157] (prompts [[32, 52, 1, 16], [25, 39, 1, 28]], tasks
[[4, 16, 0, 10], [9, 21, 0, 5]]).

*Misses* (``misses``, vectors on): 62, of which 26 need a memory written in another script (csls32's) and 36 one of
the prompt's script (7 of them German prompts for English memories). What the gate had for those 36:

* no shared word (11, 4 German): the meaning side alone ("file a ticket for the flaky upload test" → bug-tracker,
  11th by cosine; "what's my background, so you know how much to explain?" → user-role, nearest by 0.007, score
  0.154 under the bar 0.5, since no word agrees);
* a shared word, the needed memory 4th or lower by score (9): inferred tasks whose memory meaning does not place
  either (timezone-utc for "add a created_at column …", 4th–6th by cosine; de-invoices 9th–19th);
* a shared word, 1st–3rd by score, under the agreed bar 0.4 (5): agreed (nearest in meaning or tied, holding ≥ 0.2
  of the prompt's weight) at 0.052–0.375 ("install pandas" → python-installs 0.146, "build the settings page in
  React for me" → user-role 0.362, "where can I see how slow the endpoints are?" → grafana-dash 0.228, "put the new
  checkout page behind a dark-launch toggle…" → feature-flags 0.375 at a lead of −0.013, "the package installer?");
* the same under the threshold 0.5 (5): nearest with less than 0.2 of the weight ("what's the process for shipping
  a new version to the package index?" → release-tagging, coverage 0.17, 0.271; "walk me through how the cart state
  flows…" → user-role, 0.07, 0.311), or 2nd behind a memory nearer in meaning ("which metrics should I log to debug
  the policy gradient?": 16th by cosine, 0.345);
* a shared word, under an ``inf`` bar (6): ``general`` (5, 3 German: "how can I add a feature flag for a new
  checkout page?" → feature-flags, 0.805; "how do I indent Go code?" → tabs-go, 0.133) and ``thin`` (1: a pasted
  TypeError on naive and aware datetimes → timezone-utc, 0.899, lexical 0.673, lead 0.002, coverage 0.24).

In every kind the needed memories' evidence is that of memories not needed: among agreed candidates under their bar
with a lead above 0.005 the needed ones (0.146–0.362, leads 0.007–0.009) sit among near-topic and general prompts'
("how do I cancel a Stripe subscription from the dashboard?" → payment-webhooks 0.333 at 0.010, "add dark mode to the
settings page" → feature-flags 0.282 at 0.007, "how do I undo the last commit?" 0.163 at 0.006).

*Variants* (``variants``; hits, false recalls per fold against the dump; "chosen on fold f → read on the other"):

* ``margin`` — vectors on: a candidate under a finite bar, of the prompt's script, sharing ≥ S words, the prompt's
  best by score and ≥ R × the second, coverage ≥ C and held ≥ H, returned from T (T 0.15–0.35 × R 1.2–4 × S 1–2 ×
  C 0–0.5 × H 0–0.5): fold 0 picks (0.35, 4, 1, 0.3, 0), +1/0 there, 0/+2 on fold 1; fold 1 picks none (its best
  +1/+1). Vectors off (the memory without a vector): large gains, each with false recalls on the other fold — false
  recall weighed as one hit, both folds pick (0.15, 1.2, 2, 0.3, 0.3): +19/+3 on fold 0, +16/+3 on fold 1; as three,
  fold 1 picks (0.15, 3, 2, 0, 0.3), +13/+1 there, +11/+4 on fold 0; with head or window ≥ 0.3–0.5 and the second's
  score ≤ 0.1–0.2 too (scratch), no setting is without a false recall on either fold. The false ones are near-topic
  questions whose words the note holds ("how does S3 multipart upload work?" → s3-bucket, held 0.91; "how do I resize
  an image with Pillow…" → oom-worker; "why is this loop O(n^2)?" → fix-verify-loop-signal); the 35 hits are the
  staging, PR-size, logger, flag and batch prompts the vectors find.
  Per set at (0.15, 1.2, 2, 0.3, 0.3), both folds summed, ``[hits, needing, false, none]``: prompts [57, 91, 2, 44]
  → [65, 91, 3, 44], tasks [13, 37, 0, 15] → [16, 37, 0, 15], near [12, 20, 6, 44] → [17, 20, 8, 44], gaps [8, 33, 3,
  33] → [11, 33, 5, 33], framed [20, 24, 2, 24] → [22, 24, 3, 24]; pooled fold 0 [121, 181, 16, 150], fold 1 [113,
  172, 15, 157]. A choice for the lead (vectors off: +10 points of hits for +2 of false recall), not made here.
* ``thin`` — a thin share of a long prompt (:func:`memdir.search.relevance.thin`) exempt when the lexical model alone
  reaches L and the memory is nearest in meaning (lead > D) and of the prompt's script (L 0.3–0.6 × D −0.01–0.01):
  fold 0 picks none (0/0 at L ≥ 0.5, a false recall looser), fold 1 picks (0.6, 0), +1/0 there (the TypeError above,
  lead 0.002), 0/0 on fold 0: no gain out of fold, a rule the fit data hold one case of.
* ``general`` — a general question's agreed memory of the prompt's script exempt from the general rule at score ≥ S,
  lead > D, coverage ≥ C (S 0.5–0.8 × D 0–0.03 × C 0.2–0.35): fold 0 picks (0.8, 0.025, 0.35), +1/0 there, 0/+3 on
  fold 1; fold 1 picks none, every setting +3 false recalls or more there ("how do I set an expiry on a Redis key?"
  → redis-sessions 0.895, "how do I add a watermark to an image with Pillow?" → oom-worker 0.877: the evidence of
  "how can I add a feature flag for a new checkout page?", 0.805).

Also measured with a scratch edit of memdir (not kept): recall reading a keyword prompt's word no memory holds as a
search does (``typed`` in :func:`memdir.search.ranking.ranked`, so "install pandas" is complete to 0.5 in
python-installs): vectors on fold 0 0/0, fold 1 +2/+4 ("s3 glacier" → s3-bucket, two Pillow questions → oom-worker,
"how does S3 multipart upload work?"); vectors off +2/+1, +3/+4.

Nothing in memdir changed: no gate rule separates the same-script misses from the near-topic prompts needing none on
the evidence recall has (words, the head vector's cosine, gap and lead); what would is evidence of another kind.
"""

from __future__ import annotations

import itertools
import math
import sys

import neg  # this folder's module (the script's folder is on sys.path), as oof.py imports it


def cause(row: dict) -> tuple[str, dict | None, int]:
    """``(cause, candidate, rank by score)`` of a missed row's best-placed needed memory: ``another script``, ``not
    ranked``, ``no word``, ``4th+``, ``bar <value>`` or ``inf <rules>`` (the rules that set an ``inf`` bar)."""
    from memdir.search import relevance as R

    placed = [(i, c) for i, c in enumerate(row["cands"]) if c["name"] in row["expect"]]
    if not placed:
        return "not ranked", None, -1
    i, c = placed[0]
    e = c["ev"]
    if e["kin"] is not None:
        return "another script", c, i
    if not e["shared"]:
        return "no word", c, i
    if i >= 3:
        return "4th+", c, i
    if c["bar"] != math.inf:
        return f"bar {c['bar']}", c, i
    ev = neg.as_evidence(e)
    rules = [name for name, on in (("compared", ev.compared and not R.stated(ev)), ("thin", R.thin(ev)),
                                   ("outranked", R.outranked(ev)), ("general", ev.general)) if on]
    return "inf " + "+".join(rules), c, i


def misses(rows: list[dict]) -> None:
    """Print each fit row needing a memory and recalling none it needs, by cause (:func:`cause`)."""
    counts: dict[str, int] = {}
    for row in rows:
        if not row["expect"] or set(row["expect"]) & set(neg.chosen(row, neg.base)):
            continue
        why, c, i = cause(row)
        counts[why] = counts.get(why, 0) + 1
        if why in ("another script", "not ranked"):
            continue
        e = c["ev"]
        cosines = sorted((x["ev"]["cosine"] for x in row["cands"] if x["ev"]["cosine"] is not None), reverse=True)
        by_meaning = cosines.index(e["cosine"]) + 1 if e["cosine"] is not None else "-"
        print(f"{why:16s} {row['set']:7s} f{row['fold']} {row['prompt'][:70]!r} -> {c['name']} #{i + 1} "
              f"(cosine #{by_meaning}) score {c['score']:.3f} bar {c['bar']} lexical {c['lexical']:.3f} "
              f"coverage {e['coverage']:.2f} lead {e['lead']:.3f} shared {e['shared']}")
    print(counts)


def _ranked(rows: list[dict]) -> None:
    """Give each candidate ``top`` (the prompt's best by score, alone) and ``second`` (the next score)."""
    for row in rows:
        scores = sorted((c["score"] for c in row["cands"]), reverse=True) + [0.0]
        for c in row["cands"]:
            c["top"] = c["score"] == scores[0] > scores[1]
            c["second"] = scores[1] if c["top"] else scores[0]


def margin(T: float, R: float, S: int, C: float, H: float, vectors: bool):
    """A candidate under a finite bar, of the prompt's script (no vector when not ``vectors``), sharing ≥ ``S`` words,
    the prompt's best by score and ≥ ``R`` × the second, coverage ≥ ``C``, held ≥ ``H``: returned from ``T``."""
    def keep(c, row):
        e = c["ev"]
        return neg.base(c, row) or (
            c["bar"] != math.inf and e["kin"] is None and (e["cosine"] is not None) == vectors and c["top"]
            and c["score"] >= T and len(e["shared"]) >= S and c["score"] >= R * c["second"]
            and e["coverage"] >= C and e["held"] >= H)
    return keep


def thin_exempt(L: float, D: float):
    """A thin share (:func:`memdir.search.relevance.thin`) exempt when the lexical model alone reaches ``L`` and the
    memory, of the prompt's script, is the nearest in meaning by more than ``D``: then the bar without thin."""
    from memdir.search import relevance as R

    without = neg.bar_without(frozenset({"thin"}))

    def keep(c, row):
        ev = neg.as_evidence(c["ev"])
        return neg.base(c, row) or (R.thin(ev) and ev.kin is None and ev.cosine is not None and ev.lead > D
                                    and c["lexical"] >= L and c["score"] >= without(ev))
    return keep


def general_exempt(S: float, D: float, C: float):
    """A general question's agreed memory of the prompt's script, scoring ≥ ``S`` at a lead above ``D`` and coverage
    ≥ ``C``: the bar without the general rule."""
    from memdir.search import relevance as R

    without = neg.bar_without(frozenset({"general"}))

    def keep(c, row):
        ev = neg.as_evidence(c["ev"])
        return neg.base(c, row) or (ev.general and not ev.defines and ev.kin is None and R.agreed(ev)
                                    and ev.lead > D and ev.coverage >= C and c["score"] >= S
                                    and c["score"] >= without(ev))
    return keep


def picks(rows: list[dict], name: str, keep_of, grid, costs=(1, 3)) -> None:
    """Print, per cost of a false recall, each fold's pick of ``grid`` or of none (the dump's own bar, ``None``: the
    pick of equals, the simpler bar) and its read on the other fold."""
    before = neg.folds(rows, neg.base)
    res = {None: [(0, 0), (0, 0)]}
    for k in grid:
        f = neg.folds(rows, keep_of(*k))
        res[k] = [(f[i][0] - before[i][0], f[i][2] - before[i][2]) for i in (0, 1)]
    for cost, f in itertools.product(costs, (0, 1)):
        k = max(res, key=lambda k: (res[k][f][0] - cost * res[k][f][1], k is None, k or ()))
        print(f"{name:8s} cost {cost} fold {f} picks {k}: there {res[k][f]}, on fold {1 - f} {res[k][1 - f]}")


def variants(rows: list[dict]) -> None:
    """Replay each family of the module docstring on ``rows`` (a dump with vectors on or off)."""
    _ranked(rows)
    vectors = any(c["ev"]["cosine"] is not None for row in rows for c in row["cands"])
    print("today", neg.folds(rows, neg.base), "vectors", "on" if vectors else "off")
    picks(rows, "margin", lambda *k: margin(*k, vectors),
          list(itertools.product((0.15, 0.2, 0.25, 0.3, 0.35), (1.2, 1.5, 2, 3, 4), (1, 2), (0, 0.3, 0.4, 0.5),
                                 (0, 0.3, 0.4, 0.5))))
    if vectors:
        picks(rows, "thin", thin_exempt, list(itertools.product((0.3, 0.4, 0.5, 0.6), (-0.01, 0, 0.005, 0.01))))
        picks(rows, "general", general_exempt,
              list(itertools.product((0.5, 0.7, 0.8), (0, 0.02, 0.025, 0.03), (0.2, 0.3, 0.35))))


if __name__ == "__main__":
    dumped = neg.load(sys.argv[2])
    {"misses": misses, "variants": variants}[sys.argv[1]](dumped)
