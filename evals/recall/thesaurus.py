"""Query expansion by a coding-domain thesaurus (evals/recall/expansion.py), read by pooled 2-fold CV.

    python evals/recall/thesaurus.py dump OUT.jsonl [--off]   # every fit row's candidates with their substitutes
    python evals/recall/thesaurus.py cv DUMP.jsonl            # weight × shared, hits / false per fold

``dump`` is :func:`neg.dump` (every fit row of :func:`common.fit_rows`, never a held-out line, never ``fresh``;
recall's ranking with :func:`memdir.search.relevance.returned` let through) plus, per candidate, ``subs``: the
prompt's core terms it does not hold but holds a thesaurus neighbour of, with their weights
(:func:`expansion.substitutes`), recorded while the expansion itself is off.
``cv`` replays recall with each candidate's evidence :func:`expansion.widened` at weight ``w`` (shared
or not), rescored (:func:`memdir.search.relevance.score`), its bar recomputed (:func:`neg.bar_without`, the mirror of
:func:`memdir.search.relevance.bar`), the candidates re-ordered by score; the first three with a body at or above
their bar are recalled. Prints ``[hits, needing, false, none]`` per fold and each setting's (hits, false) change per
fold against w = 0, then the choice on each fold read on the other.

2026-12-04 (thes17): a signal the store does not hold? The thesaurus (``thesaurus_groups.py``, 289
groups, 1,960 words: package managers, languages, databases, infra, CI, testing, auth, errors, style, …) was written
from general knowledge and committed (e631293) before any file under evals/ was opened. A substituted term counts at
``w`` in coverage, mass and missing, never in ``matched``/``held``/``complete`` (no memory made complete or stated by
a neighbour). On the fit data (7 sets pooled, vectors on; the replay at w = 0 gives main's folds [99, 133, 28, 102],
[91, 124, 20, 109] exactly, and run.py on the 7 fit sets with the hook in and off is identical to main), 388 of 468
rows have a candidate with a substitute; needed candidates carry one in 56 of 260, not needed in 5,171 of 20,800
(22 % against 25 %: no evidence of need; a neighbour in the memory's head: 43/260 against 1,698/20,800, 17 % against
8 %); 19 of the 67 misses have one. (hits, false) per fold against main, w 0.1 / 0.3 / 0.5 / 0.9:

* plain (the bar read on the widened evidence): (0, +1) (0, +5); (0, +3) (+2, +10); (0, +6) (+3, +14); (+2, +13)
  (+3, +23). Raising coverage lifts memories over ``THIN_COVERAGE`` (thin no longer drops them) and into
  ``AGREED_COVERAGE``;
* ``orig`` (bar on the words the memory holds, only the score widened): (0, +1) (0, +4); (0, +2) (+1, +6); (0, +3)
  (+3, +8); (+1, +9) (+3, +15); ``max`` (a score never lowered) the same as without it;
* ``head`` (the neighbour in the memory's name, title or description): (0, +1) (0, +2); (0, +2) (+1, +3); (0, +4)
  (+2, +4); (+2, +6) (+2, +6); ``head orig``: (0, +1) (0, +1); (0, +1) (+1, +1); (0, +1) (+2, +1); (+1, +3) (+2, +3);
* each with substituted terms counted as ``shared`` too: more false recalls at every w (w 0.5: (0, +8) (+3, +13),
  ``head orig`` (0, +1) (+2, +1)).

No setting gains on fold 0 (every one adds a false recall there before a hit), so nothing is chosen; on fold 1 none
gains without a false recall either.

What it finds (w 0.5, ``orig``): feature-flags for
"…behind a dark-launch toggle so we can turn it on for 5% of users" (toggle ↔ flag), ja-api-rate for "call the payment
provider's refund endpoint in a loop" (endpoint ↔ api), gradient-diagnostics-checklist for "which metrics should I log
to debug the policy gradient?" (debug ↔ log); what it brings wrongly: ja-batch for "celery worker … STARTED forever"
(celery, worker ↔ the queue group), "kafka consumer group keeps rebalancing" (kafka ↔ queue) and the pasted TypeError
on datetimes where timezone-utc is needed (datetime ↔ date/timezone, py ↔ python; still a miss); structlog-logging for
"…SELECT FOR UPDATE or…" (column ↔ schema/table); feedback-docker-env-file-gotchas beside ruff-config for "what line
length…" (line, python). A topic neighbour is what every memory of a topic holds, so it lifts the right memory and its
topic's wrong ones alike, as the cosine already does: the misses left share the topic with wrong memories, and a
thesaurus of topics cannot tell them apart.

Vectors off (``dump --off``; main [61, 133, 14, 102], [59, 124, 15, 109]): w 0.1 (0, 0) (0, +4), 0.5 (+2, +6) (+4,
+12), ``head orig`` 0.5 (+2, 0) (+1, +2); fold 0 chooses ``head orig`` 0.5 shared (+2, 0), read on fold 1 (+1, +2):
fails; fold 1 chooses nothing.

Explicit search (evals/search/run.py, 138 queries, ``SEARCH`` on at ``WEIGHT`` w; hit@1 / hit@3 / MRR, vectors on |
off): off 0.968/1.0/0.983 | 0.944/0.984/0.968; w 0.1 fit half unchanged on, +1 hit@3 off; held-out half +1 hit@1 on
("can we ship to production on a friday" → no-friday-deploy: production ↔ deploy) but off "commit message format"
now second behind no-emojis (0.371 against 0.331) and "when do login sessions time out" 2nd →
3rd (on); w 0.3–0.9 all: on 0.968–0.976 hit@1, hit@3 1.0 → 0.992. One query either way on each half: no gain that
holds, and a keyword query lost; not kept. (Per-half figures were read at five weights, held-out included: the search
reading is no clean held-out test; nothing was kept on it.)

Not kept: memdir has no expansion. :func:`expansion.install` puts it into ranking in this process only (the
dump, tests/scripts/test_thesaurus_expansion.py), so a set written blind (the lead's) can replay it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import HELDOUT_ONLY, SETS, STORES, new_folds, tally
from neg import as_evidence, bar_without, load
from neg import dump as neg_dump

MODES = ("", "orig", "max", "orig max", "head", "head orig", "head orig max")
WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def dump(out: Path, vectors: str = "on") -> None:
    import expansion

    seen: dict[int, dict[str, float]] = {}
    heads: dict[int, dict[str, float]] = {}

    def recording(conn, found, terms, counts, total, explicit):
        from memdir.search import rowwords
        seen.clear()
        seen.update(expansion.substitutes(conn, found, terms, counts, total))
        heads.clear()
        table, rows = expansion.neighbours(), rowwords.rows(conn, list(seen))
        for i, got in seen.items():  # the neighbour held in the memory's head (name, title, description)
            head = set(rows[i].head)
            heads[i] = {t: v for t, v in got.items() if t not in head and table[t] & head}
        return found

    expansion.install(recording)
    neg_dump(out, False, vectors, lambda h: {"subs": seen.get(h.memory.id, {}), "head_subs": heads.get(h.memory.id, {})})


def replay(rows: list[dict], w: float, shared: bool, sets=None, k: int = 3, mode: str = "") -> tuple[list[list[int]],
                                                                                                  list]:
    """Recall's folds with the expansion at ``w`` (``shared``: substituted terms count as shared), and the names
    recalled per row. ``mode`` holds ``orig`` (the bar read on the evidence without expansion: thin, agreed and the
    rest decided on the words the memory holds), ``max`` (the score never lowered by it), ``head`` (only a neighbour
    in the memory's head substitutes)."""
    from memdir.search import expansion, relevance

    bar = bar_without()
    out, names = new_folds(), []
    for row in rows:
        if sets and row["set"] not in sets:
            continue
        scored = []
        for c in row["cands"]:
            subs = c["head_subs"] if "head" in mode else c["subs"]
            ev = expansion.widened(c["e"], subs, w, shared) if w else c["e"]
            value = relevance.score(ev)
            if "max" in mode:
                value = max(value, c["score"])
            scored.append((value, bar(c["e"] if "orig" in mode else ev), c))
        scored.sort(key=lambda t: -t[0])  # stable: the dump's order among equal scores
        got = [c["name"] for s, b, c in scored if c["body"] and s >= b][:k]
        tally(out, row["fold"], row["expect"], got)
        names.append(got)
    return out, names


def cv(rows: list[dict]) -> None:
    for row in rows:
        for c in row["cands"]:
            c["e"] = as_evidence(c["ev"])
    from neg import base, folds
    print("dump's own order", folds(rows, base))
    before, base_names = replay(rows, 0.0, False)
    print("replay w=0     ", before)
    for s in [w for w in SETS if w not in HELDOUT_ONLY | set(STORES)]:
        print(" ", s, replay(rows, 0.0, False, {s})[0])
    grid = {}
    for mode in MODES:
        for shared in (False, True):
            for w in WEIGHTS[1:]:
                f, names = replay(rows, w, shared, mode=mode)
                d = [(f[i][0] - before[i][0], f[i][2] - before[i][2]) for i in (0, 1)]
                grid[w, shared, mode] = (d, names)
                print(f"w={w} shared={shared} mode={mode}", f, d)
    for fold in (0, 1):
        gains = [(d[fold][0] - d[fold][1], -key[0], str(key)) for key, (d, _) in grid.items() if d[fold][0] > d[fold][1]
                 and d[fold][1] <= 0 or d[fold][0] >= 0 > d[fold][1]]
        if not gains:
            print(f"fold {fold}: no setting gains")
            continue
        key = next(k for k in grid if str(k) == max(gains)[2])
        print(f"fold {fold} chooses {key} {grid[key][0][fold]}, read on fold {1 - fold}: {grid[key][0][1 - fold]}")
    return grid, base_names


def changed(rows: list[dict], w: float, shared: bool, mode: str = "") -> None:
    """The rows whose recall changes at ``w`` (prompt, expect, before → after)."""
    for row in rows:
        for c in row["cands"]:
            c["e"] = as_evidence(c["ev"])
    _, a = replay(rows, 0.0, False)
    _, b = replay(rows, w, shared, mode=mode)
    for row, x, y in zip(rows, a, b):
        if x != y:
            print(row["set"], row["fold"], row["prompt"][:90], row["expect"], x, "->", y)


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(Path(sys.argv[2]), "off" if "--off" in sys.argv else "on")
    elif sys.argv[1] == "changed":
        changed(load(sys.argv[2]), float(sys.argv[3]), "shared" in sys.argv[4:], " ".join(sys.argv[4:]))
    else:
        cv(load(sys.argv[2]))
