"""A prompt pointing at the conversation itself, by pooled 2-fold CV on the fit data (a dump of neg.py; never held out).

    python evals/recall/neg.py dump DUMP.jsonl [--off]
    python evals/recall/conversation.py DUMP.jsonl

Replays recall's choice on every dumped fit row (prompts and tasks' fit halves, near, gaps, trial, probe, pasted, short,
asked, typos, framed; never ``fresh``, never a held-out line) with the bar of today (:func:`neg.bar_without`) with and
without the *pointed* rule (:mod:`memdir.search.conversation`: a memory whose shared content terms are all written
only where the prompt points at a thing of the conversation — "the diff above", "the answer is", "your math", "this
loop", このコード — is not returned at the threshold), its ``pointed`` flag computed here from the prompt and the
candidate's shared terms, so a dump made before the rule reads the same. Prints ``[hits, needing, false recalls,
needing none]`` per fold without and with it, the change per fold, and each row whose recall changes.

2026-12-06 (false33), the rule has no constant (the forms are English's, Japanese's, Chinese's and Korean's own
pointers); the fit data's pointed rows: "summarise the diff above", "このコードを読みやすくして", "the answer is yes", "the
last question", "double-check your math", "why is this loop O(n^2)?", "what does this regex match: ^a+b*$", "extract
this block into its own function", "what's a good name for this function?", "ensure the regex matches email
addresses", "please verify the output is sorted", "check that the loop terminates", … — every one needs no memory.
Pooled, vectors on: fold 0 [149, 181, 23, 150] → [149, 181, 22, 150], fold 1 [142, 172, 13, 157] → [142, 172, 11,
157] (gone: terse-answers for "summarise the diff above" and "the answer is yes", ja-review for
"このコードを読みやすくして"); vectors off: fold 0 [102, 181, 13, 150] → [102, 181, 12, 150], fold 1 [97, 172, 7, 157] →
[97, 172, 5, 157] (gone: terse-answers for the diff, ja-review, no-mocks-db for "the last question"). No hit lost on
either fold, either way; ``oof.py`` reads it chosen ON by both folds (ON−OFF, hits/false: vectors off 0/−1, 0/−2).
Left: "the tests pass now, thanks" and "make sure the tests pass" (a report or a check of the session's own work,
sharing "test" and "pass" with the ops log) point with no pointer this rule reads (2026-12-06 false35: the session's checks said to succeed are one now,
evals/recall/false35.py).

Kept beside it (false33, no constant): a bigram of a hiragana before a katakana or a kanji weighs soft
(:func:`memdir.search.weighing.soft_terms`: ``に実`` of "30分に実行", ``のコ`` of "このコード": a particle and the next word's
first character, no word). Dumps before and after (``neg.py dump``, the pointed rule in both), pooled: vectors on fold
0 [149, 181, 22, 150] unchanged, fold 1 [142, 172, 11, 157] → [142, 172, 10, 157]; vectors off fold 0 [102, 181, 12,
150] unchanged, fold 1 [97, 172, 5, 157] → [97, 172, 4, 157] (gone: ja-batch for "cron で毎時30分に実行する書き方は？",
a general question its words no longer carry). No hit lost; no other row moves (the one needed memory holding such a
pair, ja-api-rate for "決済APIのレート制限はいくつ？", shares seven other terms). Chosen on fold 1, it reads 0/0 on fold 0.

Both rules together, ``run.py --split fit`` on every fit set (shop too, on its own store) summed, ``[hits, needing,
false recalls, needing none]``: vectors on fold 0 [158, 191, 24, 157] → [158, 191, 23, 157], fold 1 [149, 183, 13,
163] → [149, 183, 10, 163]; vectors off fold 0 [108, 191, 13, 157] → [108, 191, 12, 157], fold 1 [101, 183, 7, 163]
→ [101, 183, 4, 163]. By set (false recalls): prompts 1 + 1 → 0 + 0 (on and off), gaps fold 1 1 → 0, short fold 1
2 → 1; tasks, near, trial, probe, pasted, asked, typos, shop and framed unchanged; no hit moves on any set.

Tried on the same dumps, not kept: a memory sharing only a number with the prompt (probe's "top 5 customers" and the
multi-session commit note: 0/0, 0/−1) — a port ("what runs on 5433?") is a number a memory rightly shares alone.
"""

from __future__ import annotations

import sys

# this folder's modules (the script's folder is on sys.path), as neg.py does
from common import new_folds, tally
from neg import as_evidence, bar_without, chosen, load


def keep_with(pointed_on: bool):
    """``keep(candidate, row)`` for :func:`neg.chosen`: today's bar, the pointed rule on or off."""
    from memdir.search import relevance
    from memdir.search.conversation import only_pointed, pointed_terms

    bar = bar_without(frozenset() if pointed_on else frozenset({"pointed"}))
    cache: dict[str, frozenset[str]] = {}

    def keep(c, row):
        pointed = cache.setdefault(row["prompt"], pointed_terms(row["prompt"]))
        ev = relevance.replaced(as_evidence(c["ev"]), pointed=only_pointed(tuple(c["ev"]["shared"]), pointed))
        return c["score"] >= bar(ev)
    return keep


def main(path: str) -> None:
    rows = load(path)
    off, on = keep_with(False), keep_with(True)
    before, after = new_folds(), new_folds()
    for row in rows:
        was, now = chosen(row, off), chosen(row, on)
        tally(before, row["fold"], row["expect"], was)
        tally(after, row["fold"], row["expect"], now)
        if was != now:
            print(f"  {row['set']} fold {row['fold']} expect {row['expect']}: {row['prompt'][:70]!r} {was} -> {now}")
    print("without", before, "with", after,
          "change (hits, false)", [(after[i][0] - before[i][0], after[i][2] - before[i][2]) for i in (0, 1)])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.splitlines()[2].strip())
    main(sys.argv[1])
