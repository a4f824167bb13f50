"""Task-shaped prompts: which evidence recall lacked for their misses, and three families read on them (task33: none kept).

    python evals/recall/neg.py dump DUMP.jsonl [--off]   # every fit row's candidates (neg.py), vectors on or off
    python evals/recall/verbs.py misses DUMP.jsonl       # each task miss of the fit folds: cause, verb, its memory's head
    python evals/recall/verbs.py cv DUMP.jsonl           # the verb family below, pooled 2-fold
    python evals/recall/verbs.py kin DUMP.jsonl          # another script's memories sharing a word, without kin
    python evals/recall/verbs.py names DUMP.jsonl        # the prompt's cosine to a memory's description or name alone

``DUMP.jsonl`` holds the fit rows only (:func:`common.fit_rows`; never a held-out line, never ``fresh``). Fit row *i*
of each set is in fold *i* mod 2, as ``run.py --split fit`` counts; the replay (:func:`neg.chosen`) gives run.py's
figures. A setting is chosen on one fold (the most hits less COST × false recalls, of equals the strictest) and read
on the other against the dump's own bar.

*The task's verb* (:func:`verb`): a prompt that is no question and opens, after filler and "please", "can you", with a
word that is not a function word, a request nor generic (:func:`memdir.search.weighing.is_generic`: "add", "write",
"make", "fix" say nothing of what is done) and is written in ASCII letters alone names what it does first ("install
pandas", "commit my changes to the parser", "cut a 3.0 release"). A memory whose head (name, title, description, as
the index reads it: :func:`heads`) holds that word is a rule or fact about that action ("Use uv for Python installs,
never pip"), and the object of the task is often a thing no memory names ("pandas", "the parser"), which weighs most
and sinks the memory's coverage.

2026-12-06 (task33), 45 memories, main at d1068559, ``[hits, needing, false, none]`` per fold. ``run.py --split fit``:
tasks vectors on [[11, 16, 0, 10], [18, 21, 0, 5]], off [[4, 16, 0, 10], [9, 21, 0, 5]]; prompts on [[45, 52, 1, 16],
[34, 39, 1, 28]], off [[32, 52, 1, 16], [25, 39, 1, 28]]; pooled over every fit set (the dumps' replay) on [149, 181,
23, 150], [142, 172, 13, 157], off [102, 181, 13, 150], [97, 172, 7, 157].

*Where the tasks set's misses come from* (``misses``; vectors on, 8 of 37): no shared word and meaning places the
memory low (3: "file a ticket for the flaky upload test" → bug-tracker, 11th by cosine; "add a created_at column …" →
timezone-utc, 6th; "put the new onboarding screen behind a toggle" → feature-flags, 7th): the topic is said with
other words (ticket/bug, toggle/flag, created_at/timestamp) and e5-small does not bridge them either; a memory in
another script (2: ko-onboarding 24th by cosine; zh-logging at 0.289 under the kin bar 0.4, while project-sprint-status,
sharing only "user", scores 0.457 through its kin reading); the nearest, agreeing, under the agreed bar (2: "install
pandas" → python-installs 0.146, lead 0.007, "pandas" no memory's word holding 0.6 of the weight; "build the settings
page in React for me" → user-role 0.362); the verb held, the object pulling another memory (1: "commit my changes to
the parser" → feedback-commit-only… 5th, 0.018, while feedback-docker-env-file-gotchas takes "parser", 0.377 at a
lead of 0.018, and is recalled). Vectors off (24 misses): 13 under the threshold with shared words, often first by
score ("How should I install python packages here?" 0.296, "cut a 3.0 release" 0.296, "print the request id when the
job retries" → structlog 0.270), 5 ranked 4th or lower, 4 not ranked, 2 sharing no word.

*False recalls of task-shaped prompts*: the tasks set's fit half recalls nothing for its 15 prompts needing none,
but over every fit set the task-shaped ones (no question; opening with a generic task word or :func:`verb`) are
false 11 of 84 times (0.131; other prompts needing none: 25 of 223), the held-out rate the lead reads (0.133, 2 of
15): at that rate 0 of 15 comes one time in six, so the fit half's 0.0 is a small sample, not a rule fitted to it.
The 11: a Japanese memory sharing one English word through its kin reading (3: ja-batch for two cron lines and a
batch generator, 0.50–0.84), "make sure …" frames (3), the nearest holding a near-topic word (2: "write the parser
…" → docker env files, "double-check the frontend dev server port" → pg-port), two plain (a SQL query sharing only
"5"; "ruff keeps complaining …" → tabs-go) and "summarise the diff above" → terse-answers.

*Families read* (pooled 2-fold, chosen on one fold by hits less COST × false recalls, read on the other):

* ``cv`` — the verb held in the head, returned from B (0–0.4), at a lead above L (none, −0.015, 0, 0.005), any such
  memory or the first by rank. Vectors on: fold 0 picks none at cost 1 and 3 (every setting there is 0/0 or adds a
  false recall); fold 1 picks (0.2, no lead, first), +1/0 there ("log the user's phone number when signup fails" →
  zh-logging beside project-sprint-status), 0/0 on fold 0 — and at 0.15–0.25 it adds wrong memories beside right ones
  ("cut a 3.0 release" → merge-freeze, "rewrite … SQLAlchemy" → auth-rewrite) and one to a false recall ("ruff keeps
  complaining …" → ruff-config: a noun read as the verb). At 0.1 it finds "install pandas" and recalls ko-translation
  for "translate 'good morning' to Spanish": the two read alike on every feature recall has (a verb, a word no memory
  holds, the memory nearest). Vectors off: fold 0 picks (0.1, all) +3/0, reads +5/+1 on fold 1; fold 1 picks (0.2,
  first) +2/0 at cost 3, reads +1/0 on fold 0, the hits "store the created_at timestamp …", the Stripe webhook in
  Japanese, "merge the big refactor branch …", and recalls staging-deploy for "deploy the hotfix …" (needing zh-deploy)
  and merge-freeze for "cut a 3.0 release" (needing release-tagging). Not kept: one hit out of fold with vectors on,
  a constant chosen for it, and wrong memories beside the right ones.
* ``kin`` — a memory in another script sharing a word with the prompt scored without its kin reading (so
  ja-batch for the cron lines would be judged by the same-script models): vectors on [142, 181, 20, 150], [135, 172,
  13, 157] (−7/−3, −7/0); only when it holds less than AGREED_COVERAGE of the weight [145, 181, 20, 150], [136, 172,
  13, 157] (−4/−3, −6/0); vectors off no change. The needed memories in another script share English words the
  same way (zh-cache "product", ja-api-rate "payment", ja-review "review"): not kept.

* ``names`` — evidence of another kind for the vocabulary misses: the prompt's cosine to a memory's description alone
  and to its name alone (e5 ``passage:``), beside the head's (title, description and body start, as memdir embeds
  it; the dump's, so with query windows, the others the whole prompt's). Needed memory first / in the first three /
  mean reciprocal rank, per kind: task (120 rows) head 71 / 89 / 0.693, description 48 / 70 / 0.536, name 27 / 50 /
  0.367, head·0.7 + description·0.3 73 / 91 / 0.706, head·0.7 + name·0.3 70 / 93 / 0.691; paraphrase (75) head 52 /
  59 / 0.753, head·0.7 + name·0.3 54 / 60 / 0.780; lexical (158) 156–157 first either way. The top cosine's gap over
  the median tells rows needing a memory from rows needing none at AUC 0.793 (head), 0.730 (description), 0.706
  (name). The tasks set's eight misses by head / description / name rank: ticket 11 / 17 / 26, created_at 6 / 17 /
  33, toggle 7 / 4 / 13, laptop (Korean note) 24 / 12 / 37, the phone number (Chinese note) 10 / 3 / 5, commit 3 / 3
  / 4, React 1 / 2 / 7, pandas 1 / 1 / 1. A blend moves two task rows to first of 120 and costs a second vector per
  memory: not worth an index change; the description helps the memories in another script (the note's own words
  dilute less), which csls32's and meaning31's families already read.

Nothing in memdir changed: on these features the task misses sit among prompts needing none (the verb rule's "install
pandas" beside "translate 'good morning' to Spanish"), and what they lack is vocabulary (ticket/bug, toggle/flag,
created_at/timestamp) that neither the words nor e5-small's cosine carry (thesaurus.py and expand.py read those
families before: no gain).
"""

from __future__ import annotations

import itertools
import math
import sys
import tempfile
from pathlib import Path

import neg  # this folder's module (the script's folder is on sys.path), as reach.py imports it
import reach
from common import build_store

_QUESTION_OPENERS = frozenset({"how", "what", "where", "when", "which", "who", "why", "whi", "is", "are", "do", "doe",
                               "does", "can", "could", "should", "would", "will", "wie", "was", "wo", "wann", "warum",
                               "welch"})  # a question's first word, stemmed


def verb(prompt: str) -> str | None:
    """The term a task prompt opens with (stemmed, as a query reads it; filler and "please", "can you" before it
    skipped), or None: a question (a ``?``, or a question word or auxiliary first), no term left, or the first term
    a function word ("the dev db port", "no, the other file"), a request ("explain …") or generic ("add", "let"),
    or not ASCII letters alone ("s3")."""
    from memdir.search.tokenize import is_stopword, query_tokens
    from memdir.search.weighing import is_filler, is_generic, is_request

    if "?" in prompt or "？" in prompt:
        return None
    words = query_tokens(prompt)
    if not words or words[0] in _QUESTION_OPENERS:
        return None
    for word in words:
        if is_filler(word) or word in ("pleas", "can", "could", "you", "would", "also"):
            continue  # "ok", "please", "can you", "also": how it is asked
        if is_stopword(word) or is_request(word) or is_generic(word) or not (word.isascii() and word.isalpha()):
            return None  # "the …", "explain …", "add …", "s3 glacier" (no verb is written with a digit)
        return word
    return None


def heads() -> dict[str, frozenset[str]]:
    """Each evaluation memory's head terms as the index reads them (name, title, description), by name."""
    from memdir.search import rowwords
    from memdir.search.index import connect

    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "off")
        conn = connect(mem.session.home)
        ids = {row[0]: row[1] for row in conn.execute("SELECT id, name FROM docs")}
        read = rowwords.rows(conn, list(ids))
        return {ids[i]: frozenset(row.head) for i, row in read.items()}


def misses(rows: list[dict]) -> None:
    """Print each fit row of the tasks set needing a memory and recalling none it needs: its cause
    (:func:`reach.cause`), the task's verb and whether the needed memory's head holds it."""
    head = heads()
    counts: dict[str, int] = {}
    for row in rows:
        if row["set"] != "tasks" or not row["expect"] or set(row["expect"]) & set(neg.chosen(row, neg.base)):
            continue
        why, c, i = reach.cause(row)
        counts[why.split(" ")[0]] = counts.get(why.split(" ")[0], 0) + 1
        v = verb(row["prompt"])
        held = [name for name in row["expect"] if v and v in head.get(name, ())]
        if c is None:
            print(f"{why:16s} f{row['fold']} {row['prompt'][:60]!r} verb {v} held {held}")
            continue
        e = c["ev"]
        cosines = sorted((x["ev"]["cosine"] for x in row["cands"] if x["ev"]["cosine"] is not None), reverse=True)
        by_meaning = cosines.index(e["cosine"]) + 1 if e["cosine"] is not None else "-"
        print(f"{why:16s} f{row['fold']} {row['prompt'][:60]!r} -> {c['name']} #{i + 1} (cosine #{by_meaning}) "
              f"score {c['score']:.3f} lead {e['lead']:.3f} cov {e['coverage']:.2f} shared {e['shared']} "
              f"verb {v} held {held}")
    print(counts)


NO_LEAD = -9.0  # no condition on the lead (a memory without a vector too)


def verb_rule(B: float, lead: float | None, first: bool, head: dict[str, frozenset[str]]):
    """A candidate under a finite bar whose head holds the prompt's task verb (:func:`verb`), with a vector and a
    lead above ``lead`` unless ``lead`` is :data:`NO_LEAD`, the first such candidate by rank when ``first``: returned from
    ``B``."""
    def keep(c, row):
        if neg.base(c, row):
            return True
        v = row["_verb"]
        if v is None or c["bar"] == math.inf or v not in head.get(c["name"], ()) or c["score"] < B:
            return False
        if lead != NO_LEAD and (c["ev"]["cosine"] is None or c["ev"]["lead"] <= lead):
            return False
        return not first or c["name"] == row["_firstheld"]
    return keep


def _kin_plain(ev) -> float:
    """:func:`memdir.search.relevance.score` of ``ev`` without its :attr:`~memdir.search.relevance.Evidence.kin`
    reading: the larger of the lexical and hybrid models over all memories alone."""
    from memdir.search import relevance as R

    features = ev.features()
    z = R._linear(R.LEXICAL, features)
    return R._sigmoid(z if ev.cosine is None else max(z, R._linear(R.HYBRID, features)))


def kin(rows: list[dict]) -> None:
    """A memory in another script than the prompt that shares a word with it scored without its kin reading
    (:func:`_kin_plain`) against the dump's bar: when it shares any word, when it shares a word but holds less than
    :data:`memdir.search.relevance.AGREED_COVERAGE` of the weight, and for every such memory; the pooled folds and
    the rows that change."""
    from memdir.search import relevance as R

    for row in rows:
        for c in row["cands"]:
            c["e"] = neg.as_evidence(c["ev"])

    def variant(cond):
        def keep(c, row):
            ev = c["e"]
            return (_kin_plain(ev) if ev.kin is not None and cond(ev) else c["score"]) >= c["bar"]
        return keep

    print("today", neg.folds(rows, neg.base))
    for name, cond in (("shared", lambda ev: bool(ev.shared)),
                       ("shared, thin", lambda ev: bool(ev.shared) and ev.coverage < R.AGREED_COVERAGE),
                       ("all", lambda ev: True)):
        keep = variant(cond)
        print(name, neg.folds(rows, keep), "tasks", neg.folds(rows, keep, {"tasks"}),
              "prompts", neg.folds(rows, keep, {"prompts"}))
        for row in rows:
            before, after = neg.chosen(row, neg.base), neg.chosen(row, keep)
            if before != after:
                print("   ", row["set"], row["fold"], row["prompt"][:60], row["expect"], before, "->", after)


def names(rows: list[dict]) -> None:
    """Where the needed memory ranks by the cosine of the prompt (whole, e5 ``query:``) to its description alone and to
    its name alone (each e5 ``passage:``, a name's ``-`` and ``_`` as spaces), beside the dump's head cosine and their
    blends: per kind, ``(first, among the first three, mean reciprocal rank)``; then the AUC of the top cosine's gap
    over the median between rows needing a memory and rows needing none. Embeds (vectors extra)."""
    import numpy as np

    from memdir.search import vectors
    from memdir.search.index import connect

    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), "off")
        docs = connect(mem.session.home).execute("SELECT name, title, description FROM docs").fetchall()
    called = [d[0] for d in docs]
    described = np.asarray(vectors.embed([d[2] or d[1] or d[0] for d in docs], query=False))
    named = np.asarray(vectors.embed([d[0].replace("-", " ").replace("_", " ") for d in docs], query=False))
    asked = np.asarray(vectors.embed([vectors.query_text(r["prompt"]) for r in rows], query=True))
    for row, q in zip(rows, asked):
        row["_head"] = {c["name"]: c["ev"]["cosine"] for c in row["cands"] if c["ev"]["cosine"] is not None}
        row["_desc"] = dict(zip(called, (described @ q).tolist()))
        row["_name"] = dict(zip(called, (named @ q).tolist()))

    def rank(scores, expect):
        order = sorted(scores, key=lambda k: -scores[k])
        return min((order.index(e) + 1 for e in expect if e in scores), default=len(order) + 1)

    def blend(a, b, w):
        return {k: (1 - w) * v + w * b.get(k, 0.0) for k, v in a.items()}

    ways = {"head": lambda r: r["_head"], "desc": lambda r: r["_desc"], "name": lambda r: r["_name"],
            "head+desc 0.3": lambda r: blend(r["_head"], r["_desc"], 0.3),
            "head+desc 0.5": lambda r: blend(r["_head"], r["_desc"], 0.5),
            "head+name 0.3": lambda r: blend(r["_head"], r["_name"], 0.3)}
    for kind in ("task", "paraphrase", "lexical"):
        chosen_rows = [r for r in rows if r["kind"] == kind and r["_head"]]
        out = {}
        for way, scores in ways.items():
            ranks = [rank(scores(r), r["expect"]) for r in chosen_rows]
            out[way] = (sum(x == 1 for x in ranks), sum(x <= 3 for x in ranks), round(sum(1 / x for x in ranks) / len(ranks), 3))
        print(kind, len(chosen_rows), out)
    for way in ("_head", "_desc", "_name"):
        need, none = [], []
        for r in rows:
            if r[way]:
                v = sorted(r[way].values(), reverse=True)
                (need if r["expect"] else none).append(v[0] - float(np.median(v)))
        auc = sum((a > b) + 0.5 * (a == b) for a in need for b in none) / (len(need) * len(none))
        print(way[1:], "top gap AUC, needing against none", round(auc, 3))


def cv(rows: list[dict]) -> None:
    """The verb family over B × lead × first, pooled 2-fold (:func:`reach.picks`), and per set at each fold's pick."""
    head = heads()
    for row in rows:
        row["_verb"] = verb(row["prompt"])
        row["_firstheld"] = next((c["name"] for c in row["cands"] if row["_verb"] and c["bar"] != math.inf
                                  and row["_verb"] in head.get(c["name"], ())), None)
    with_verb = sum(1 for r in rows if r["_verb"])
    print("rows", len(rows), "with a verb", with_verb, "today", neg.folds(rows, neg.base))
    grid = list(itertools.product((0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4), (NO_LEAD, -0.015, 0.0, 0.005), (False, True)))
    reach.picks(rows, "verb", lambda *k: verb_rule(*k, head), grid)
    for k in ((0.0, NO_LEAD, False), (0.0, -0.015, True), (0.1, 0.0, True)):
        keep = verb_rule(*k, head)
        changed = [(r["set"], r["fold"], r["prompt"][:60], r["expect"], neg.chosen(r, keep)) for r in rows
                   if neg.chosen(r, keep) != neg.chosen(r, neg.base)]
        print(k, neg.folds(rows, keep))
        for line in changed:
            print("   ", line)


if __name__ == "__main__":
    dumped = neg.load(sys.argv[2])
    {"misses": misses, "cv": cv, "kin": kin, "names": names}[sys.argv[1]](dumped)
