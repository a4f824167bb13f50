"""Per-prompt recall's false recalls with vectors on, by kind, and the bar for cosine recall of a question anyone
could ask or a remark of the chat (false49, 2026-12-08).

    FALSE49_SRC=/path/to/tree/src python evals/recall/false49.py dump on|off OUT.jsonl   # every fit row, one tree
    python evals/recall/false49.py folds OUT.jsonl [BEFORE.jsonl]    # [hits, needing, false, none] per set and fold
    python evals/recall/false49.py kinds OUT.jsonl                   # the false recalls by kind (KINDS)
    python evals/recall/false49.py bars OUT.jsonl                    # a cosine, gap or lead bar for general prompts

``dump`` builds each store once (``memories/`` for the shared sets, ``shop/``, ``wide/``; :data:`common.STORES`) with
the code of ``FALSE49_SRC`` (default this tree's ``src``) and recalls every ``fit`` row of every set but ``fresh``
(``recall_result``, k=3, in-process, as run.py), one JSON line per row: set, fold (fit row *i* in fold *i* mod 2, as
run.py's ``folds``), expect, kind, the prompt's readings (``general``: ``asks_in_general``; ``broad``: ``asks_broadly``
but not ``asks_in_general``; ``remark``: ``conversation.remarks``) and each memory recalled with its cosine, lexical
score, coverage, gap and lead. Two dumps made at the same time, one per tree, are main against a branch in one run.
Never a held-out line: :func:`common.prompts` with ``fit``.

Why: recall46/47 read a question anyone could ask (:func:`memdir.search.general.asks_broadly`) and a remark of the
chat (:func:`memdir.search.conversation.remarks`) only to turn off the word lead (vectors off); with vectors on a
cosine alone still recalled for them (the evaluation's 13 notes, real model: "why do people use feature flags?",
"in general, how do s3 buckets work?", "great job on the session, redis is awesome" … 7 prompts, each its topic's
note).

The fit sets' false recalls, vectors on, main at c8b877a5 (``kinds``): 64 of 478 prompts needing none (fold 0 42 of
236, fold 1 22 of 242); hits 416 of 508 (213/258, 203/250)::

     25  fold 0 19  fold 1  6  general coding task, a memory near in meaning or sharing a word
     13  fold 0 10  fold 1  3  the project's topic, another fact no memory holds
     13  fold 0  7  fold 1  6  how-to or knowledge question on a memory's tool, not read as general
      6  fold 0  4  fold 1  2  general question on a memory's tool, read so (asks_in_general), its words holding it
      6  fold 0  2  fold 1  4  a pasted error or log line
      1  fold 0  0  fold 1  1  chat (greeting, thanks, praise)

Of the 194 fit rows read as general, broad or a remark, none read broad-but-not-general or remark recalls anything
it should not (vectors on or off): the kinds with a rule by words hold 6 false recalls, all ``asks_in_general``
questions whose memory's words hold them (lexical 0.68-1.0: "how do I create an S3 lifecycle rule?" and the bucket
note), and the one chat row ("good morning!" → the Renovate note, 0.99 by its words) is no remark (no praise word).
A bar on the cosine, gap or lead of those rows (``bars``) gains no false recall on either fold without losing as many
hits or more (cos ≥ 0.86: fold 0 (hits, false) (−3, −2), fold 1 (−1, −1); gap ≥ 0.04: (−1, 0), (−1, −1); lead ≥ 0:
(−1, 0), (−1, −1)): not adopted. Kept instead, with no threshold to fit: such a prompt's memory is returned only where
its words alone reach the threshold (:attr:`memdir.search.relevance.Evidence.anyone`), as vectors off reads it.
Main → branch in one run (two dumps at the same time), every fit set, vectors on and off: each set's folds the same
and no row's recall changed (pooled on [[213, 258, 42, 236], [203, 250, 22, 242]], off [[156, 258, 16, 236], [162,
250, 6, 242]]): neutral on the fit data, which holds no such prompt recalled by meaning.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import HELDOUT_ONLY, SETS, STORES, build_store, new_folds, prompts, tally

sys.path.insert(0, os.environ.get("FALSE49_SRC", str(HERE.parent.parent / "src")))  # after common's own

# The false recalls of every fit set, vectors on, main at c8b877a5, by kind (each prompt's opening, as written).
KINDS = {
    "general question on a memory's tool, read so (asks_in_general), its words holding it": (
        "Slackで新しい", "how do I add a new panel", "Redis 的过期", "how do I create an S3 lifecycle",
        "how do Kafka consumer groups", "how do I get a new laptop"),
    "how-to or knowledge question on a memory's tool, not read as general": (
        "how long do Stripe refunds", "中国的手机号", "how do I undo the last git", "how does git rebase --onto",
        "my pytest fixtures", "what does HTTP 429", "gofmt says my file", "my go test fails",
        "the elasticsearch container", "our grafana alert", "redis memory usage jumped", "our airflow DAG",
        "the session cookie isn't"),
    "general coding task, a memory near in meaning or sharing a word": (
        "write a cron expression", "write a cron line", "write a generator", "draw an ASCII", "the CSV export",
        "write a Dockerfile", "write a migration", "add a retry with", "这个接口", "write a bash one-liner",
        "add pagination", "port the date parsing", "add type annotations", "please translate", "the shipping carrier",
        "write a SQL query", "write a haiku", "write a parser for command", "write the parser",
        "make sure the redis client", "the github webhook", "add a docstring", "move the eslint", "install VS Code",
        "왜 이 테스트"),
    "the project's topic, another fact no memory holds": (
        "which port does the frontend", "the frontend dev server port", "double-check the frontend",
        "which Postgres extensions", "who's the product manager", "what's the SLA", "what's the max message size",
        "how many shards", "what's the Redis Sentinel", "what's the Slack channel", "how are tests named",
        "how do we version the API", "what editor should"),
    "a pasted error or log line": (
        "what does this mean? KeyError", "ImportError: cannot", "KeyError: 'customer_id'", "SyntaxError: f-string",
        "ssh: connect", "fatal: refusing"),
    "chat (greeting, thanks, praise)": ("good morning",),
}


def kind_of(prompt: str) -> str:
    """The :data:`KINDS` key whose opening ``prompt`` starts with, else ``"other"``."""
    return next((kind for kind, starts in KINDS.items() if prompt.startswith(starts)), "other")


def dump(vectors: str, out: Path) -> None:
    """Recall every fit row of every set but :data:`common.HELDOUT_ONLY`'s into ``out`` (JSON lines, see above)."""
    from memdir.search import recall, relevance
    from memdir.search.conversation import remarks
    from memdir.search.general import asks_broadly, asks_in_general

    seen: dict = {}
    ranked = recall.ranked

    def kept(*args, **kwargs):  # the hits recall ranked, their evidence read below
        answer = ranked(*args, **kwargs)
        seen["hits"] = answer[0]
        return answer

    recall.ranked = kept
    groups: dict[str, list[str]] = {}
    for which in SETS:
        if which not in HELDOUT_ONLY:
            groups.setdefault(STORES.get(which, "memories"), []).append(which)
    with out.open("w", encoding="utf-8") as fh:
        for sets in groups.values():
            with tempfile.TemporaryDirectory() as tmp:
                mem = build_store(Path(tmp), vectors, sets[0])
                recall.recall_result(mem.session, "warm up the index and the model")
                for which in sets:
                    for i, row in enumerate(prompts("fit", which)):
                        q = row["prompt"]
                        names = [m.name for m in recall.recall_result(mem.session, q, k=3).memories]
                        ev = {h.memory.name: h.evidence for h in seen["hits"]}
                        line = {"set": which, "i": i, "fold": i % 2, "prompt": q, "expect": row["expect"],
                                "kind": row["kind"], "general": asks_in_general(q),
                                "broad": asks_broadly(q) and not asks_in_general(q), "remark": remarks(q),
                                "recalled": [{"name": n, "cos": ev[n].cosine, "lex": round(relevance.lexical(ev[n]), 3),
                                              "cov": round(ev[n].coverage, 3), "gap": round(ev[n].gap, 3),
                                              "lead": round(ev[n].lead, 3)} for n in names]}
                        fh.write(json.dumps(line, ensure_ascii=False) + "\n")


def _rows(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line]


def _folds(rows: list[dict], which: str | None = None) -> list[list[int]]:
    folds = new_folds()
    for row in rows:
        if which is None or row["set"] == which:
            tally(folds, row["fold"], row["expect"], [r["name"] for r in row["recalled"]])
    return folds


def folds(path: str, before: str | None = None) -> None:
    """Each set's and the pooled ``[[hits, needing, false, none]] * 2`` of the dump ``path`` (``before``'s first,
    ``->`` between, and the rows whose recall changed)."""
    after, earlier = _rows(path), _rows(before) if before else None
    for which in [*dict.fromkeys(row["set"] for row in after), None]:
        name = which or "pooled"
        print(name, (f"{_folds(earlier, which)} -> " if earlier else "") + str(_folds(after, which)))
    for old, new in zip(earlier or [], after):
        if [r["name"] for r in old["recalled"]] != [r["name"] for r in new["recalled"]]:
            print("changed:", new["set"], new["fold"], new["prompt"][:90], new["expect"],
                  [r["name"] for r in old["recalled"]], "->", [r["name"] for r in new["recalled"]])


def kinds(path: str) -> None:
    """The false recalls of the dump ``path`` (rows needing none that recalled something) by :data:`KINDS`, per fold."""
    counts: dict[str, list[int]] = {}
    for row in _rows(path):
        if not row["expect"] and row["recalled"]:
            counts.setdefault(kind_of(row["prompt"]), [0, 0])[row["fold"]] += 1
    for kind, (zero, one) in sorted(counts.items(), key=lambda item: -sum(item[1])):
        print(f"{zero + one:3d}  fold 0 {zero:2d}  fold 1 {one:2d}  {kind}")


def bars(path: str) -> None:
    """For the prompts read as asking in general or remarking (``general``, ``broad`` or ``remark``) of the dump
    ``path``: each fold's (hits, false recalls) change when such a prompt keeps only the memories whose cosine, gap or
    lead reaches a bar (the "very high cosine" lever), one line per bar."""
    rows = [row for row in _rows(path) if row["general"] or row["broad"] or row["remark"]]
    grids = {"cos": (0.80, 0.82, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.90, 0.92),
             "gap": (0.0, 0.02, 0.04, 0.06, 0.07, 0.08, 0.1), "lead": (-0.02, -0.01, 0.0, 0.01, 0.02, 0.03)}
    for field, grid in grids.items():
        for at in grid:
            moved = [[0, 0], [0, 0]]
            for row in rows:
                names = [r["name"] for r in row["recalled"]]
                kept = [r["name"] for r in row["recalled"] if (r[field] or 0.0) >= at]
                if row["expect"]:
                    moved[row["fold"]][0] += any(n in kept for n in row["expect"]) - any(n in names for n in row["expect"])
                else:
                    moved[row["fold"]][1] += bool(kept) - bool(names)
            print(f"{field} >= {at}: fold 0 {tuple(moved[0])}, fold 1 {tuple(moved[1])}")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "dump":
        dump(sys.argv[2], Path(sys.argv[3]))
    elif command == "folds":
        folds(*sys.argv[2:4])
    elif command == "kinds":
        kinds(sys.argv[2])
    elif command == "bars":
        bars(sys.argv[2])
