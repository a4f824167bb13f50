"""False recalls of memories written in another script than the prompt, sharing a word or two of it (false37,
2026-12-06).

    python evals/recall/false37.py dump DUMP.jsonl      # neg.py's dump of every fit set but stray2 (see below)
    python evals/recall/false37.py list DUMP.jsonl      # each memory recalled that the row does not need, its carrier
    python evals/recall/false37.py cv DUMP.jsonl        # the families below, (hits, false, unneeded) per fold

Reads a ``neg.py dump`` of the fit rows with ``stray2`` left out (``neg.SETS`` without it: its half is reported once,
untouched, by ``run.py --set stray2 --split fit``); fit row *i* of each set is in fold *i* mod 2. The replay is
false36.py's (:func:`false36.replay`): each candidate scored again from its evidence with the code it runs on (the
dump was made on main, d85760c4, before the kept rule; ``cv``'s figures are against it).

Why: the fit halves of ``prompts`` and ``tasks`` recall nothing for their prompts needing none (0 of 44 and of 15,
vectors on and off), the held-out halves do (0.093, 0.133): the fit data lacked the kind. ``stray.jsonl`` (half A of
72 prompts written for this, ``common.py``) on main, vectors on: [[6, 6, 5, 12], [6, 6, 4, 12]] (``run.py
--split fit``; false recall 9 of 24), vectors off [[5, 6, 1, 12], [3, 6, 0, 12]]. What carried its false recalls
(``list``):

* *a memory of another script carried by its standing among its script's few memories alone, sharing one common word*
  (``kin``; 4 rows): "draw an ASCII diagram of the request flow … to the api pods" and the Japanese note on the payment
  API's rate limit ("api"), "write a unit test for the slugify function…" and the Chinese note on the test database
  ("test", in its name), "the session cookie isn't being sent on cross-site requests…" and the Korean sprint notes
  ("request"), "write a migration that adds an index on orders(customer_id, status)" and the same notes ("index",
  "id", "status"). Over every fit set it carries 12 memories recalled for rows needing none (ja-batch for "cron",
  "alert", "batches"; zh-cache for "redis"; ja-api-rate for "py", "client") and 28 beside a needed memory. Its needed twins look the same in every number (the Japanese note for
  "call the payment provider's refund endpoint…": coverage 0.09-0.12, gap 0.022-0.026, lead −0.019 to −0.024, kin
  gap 0.014-0.022; the not needed: 0.06-0.08, 0.011-0.024, −0.014 to −0.028, 0.017-0.035): what tells them apart is
  the word. "payment", "product", "review" are the note's topic, held by one memory of the prompt's script or none;
  "api", "test", "request" are the store's common words, held by several English memories nearer in meaning.
* *a shared word pair standing for another thing* (lexical, agreed): "a multi-stage build" and the note on commits in
  multi-session work ("multi", "stage" from "staging area"), "the CSV export puts every value in quotes…" and the
  Docker env-file note ("value", "quote", "contain"), "my go test fails with 'undefined: assert' — which package…"
  and the gofmt note ("go", "package");
* *near-topic, meaning standing out* (hybrid over all, gap ≥ 0.05): "gofmt says my file is fine but golangci-lint…"
  and the gofmt note (gap 0.079), "draw an ASCII diagram …" and the Grafana note (gap 0.051, lead 0.012: just above
  ``crowded``'s gap);
* *an English paste whose nearest memory is a Japanese one by a hair* (``crossed``, bar 0.1): "KeyError:
  'customer_id' in reports/monthly.py …" and the nightly batch note (gap 0.019, lead +0.002).

Kept: ``common`` (:func:`memdir.search.relevance.loaned`). Grid 1-4 nearer × query 0/3.0/3.5 × stand-in exempt or
not, ``(hits, false recalls, unneeded memories)`` per fold against main: fold 1 chooses (2, 3.0, exempt) (0, −2, −6),
read on fold 0 (0, 0, −4), but it drops the Chinese test-database note beside no-mocks-db for "add a unit test that
uses an in-memory database" (needed; the row is still a hit: two English notes holding "test" and "database" are
nearer); fold 0 has no false recall to gain and chooses by unneeded memories (1, 0, exempt), which reads (−4, −2,
−15) on fold 1. Kept at 3 nearer, query 3.0, stand-in exempt: (0, 0, −3), (0, −1, −4), no needed memory dropped on
either fold (at 4 nearer (0, 0, −1), (0, 0, 0); without the exemption fold 1 loses the Chinese note on phone numbers
in logs for "when the SMS verification fails, log the user's phone number…", its head naming the prompt's concept).
What it clears: the slugify test and zh-test-db (stray, fold 1), ja-api-rate beside the Grafana note for the ASCII
diagram and beside the needed note for the OPENAI_API_KEY questions (prompts, gaps, typos), the staging deploy and
the Notion formula rows, ja-batch beside the CI runner note.

``run.py --split fit`` on every fit set, main (d85760c4) → branch, vectors on: stray [[6, 6, 5, 12], [6, 6, 4, 12]] →
[[6, 6, 5, 12], [6, 6, 3, 12]] (false recall 0.375 → 0.333); every other set's folds the same (prompts [[46, 52, 0,
16], [36, 39, 0, 28]], tasks [[11, 16, 0, 10], [20, 21, 0, 5]]: no false recall on their fit halves either way);
memories recalled per prompt needing one: prompts 1.07 → 1.03, gaps 0.82 → 0.79, probe 1.08 → 1.06 (the
memories beside a needed one it drops). Pooled (shop apart, stray in): fold 0 [160, 187, 24, 162] → the same, fold 1
[155, 178, 11, 169] → [155, 178, 10, 169]. Vectors off: every set the same (the rule reads a cosine), pooled [[110,
187, 12, 162], [111, 178, 2, 169]].

``stray2`` (half B), run once on each tree after the rule was chosen, without ``--details``: vectors on [[6, 6, 8, 12],
[6, 6, 4, 12]] on main and on the branch (false recall 0.5, hits 12 of 12), vectors off [[5, 6, 1, 12], [5, 6, 1, 12]]
on the branch: the rule does not move half B's count. Half A's kinds other than ``kin`` (a word pair standing for
another thing, near-topic meaning standing out) are left, and half B holds 12 false recalls of 24.

Tried, not kept: ``kincrowd`` (``crowded`` for another script's memory sharing 1-3 words, over query 2.8-3.7 ×
coverage 0.15-0.25 × gap 0.02-0.05 × lead −0.01-0.01): the needed twins above sit in the same cells; ``tied`` (a
``crossed`` memory nearest by at most 0-0.02 or under a gap of 0.01-0.04 given the kin bar): only the KeyError row
moves, at a gap under 0.02 alone (at 0.03 fold 0 loses a hit): one row at a knife's edge.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "src"))

from false36 import carrier, listed, prepared
from false36 import cv as cross_checked
from neg import load

from memdir.search import relevance as R


def kincrowd(rows):
    """A memory of another script sharing a word with a long prompt, a thin share of it, and not standing out among
    all memories: refused."""
    def make(q, cov, gap, lead, words):
        def change(e, row):
            shared = [t for t in e.shared if not t.isdigit()]
            hit = e.cosine is not None and e.kin is not None and shared and len(shared) <= words and \
                not R.stated(e) and e.query >= q and e.coverage <= cov and e.gap < gap and e.lead < lead
            return None if hit else e
        return change
    return {f"kincrowd {q} {c} {g} {lead} {w}": make(q, c, g, lead, w) for q, c, g, lead, w in itertools.product(
        (2.8, 3.0, 3.2, 3.4, 3.5, 3.7), (0.15, 0.2, 0.25), (0.02, 0.03, 0.04, 0.05), (-0.01, 0.0, 0.01), (1, 2, 3))}


def tied(rows):
    """A memory of another script nearest of all by no more than ``t`` is not crossed (its bar the kin bar)."""
    def make(t, g):
        def change(e, row):
            if R.crossed(e) and (e.lead <= t or e.gap < g) and R.score(e) < R.AGREED_THRESHOLD:
                return None
            return e
        return change
    return {f"tied lead<={t} gap<{g}": make(t, g) for t in (-1, 0.0, 0.005, 0.01, 0.015, 0.02)
            for g in (-1, 0.01, 0.02, 0.03, 0.04)}


def common(rows):
    """A memory of another script carried by its kin standing alone whose shared words (a number not counted) are all
    held by at least ``n`` memories of the prompt's own script nearer in meaning: refused (stand-ins exempt)."""
    def make(n, q, exempt):
        def change(e, row):
            if e.kin is None or e.cosine is None or carrier(e) != "kin" or exempt and e.stand_in or e.query < q:
                return e
            words = {t for t in e.shared if not t.isdigit()}
            if not words:
                return e
            nearer = sum(1 for d in row["cands"] if d["E"].kin is None and d["E"].cosine is not None
                         and d["E"].cosine > e.cosine and words <= set(d["E"].shared))
            return None if nearer >= n else e
        return change
    return {f"common n>={n} q>={q} exempt={x}": make(n, q, x) for n in (1, 2, 3, 4) for q in (0, 3.0, 3.5)
            for x in (True, False)}


FAMILIES = [tied, common]


def cv(rows: list[dict]) -> None:
    """:func:`false36.cv` over this file's families (every setting with ``--all``)."""
    cross_checked(rows, FAMILIES, "--all" in sys.argv)


def dump(path: str) -> None:
    """:func:`neg.dump` (vectors on) of every fit set but ``stray2`` (half B: reported once, never tuned on)."""
    import neg

    neg.SETS = {name: file for name, file in neg.SETS.items() if name != "stray2"}
    neg.dump(Path(path), False, "on")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("dump", "list", "cv"):
        sys.exit(__doc__.split("\n\n")[1])
    if sys.argv[1] == "dump":
        sys.exit(dump(sys.argv[2]))
    rows = [row for row in prepared(load(sys.argv[2])) if row["set"] != "stray2"]
    (listed if sys.argv[1] == "list" else cv)(rows)
