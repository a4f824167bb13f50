"""Task-shaped prompts' misses on the fit folds by the kind of need (task49): what a task's words leave unsaid.

    for s in SETS; do python run.py --set $s --split fit --vectors on --details > DIR/${s}_on.txt; done  # and off
    python task_kinds.py DIR

Reads ``run.py --details`` outputs (fit split only; never a held-out line, never ``fresh``) and counts each miss of a
row of kind ``task`` by the kind of need its expected memory answers (:data:`TOOL`: the task names a tool's job,
dependency → package manager, log line → logging library, test → test runner, deploy → CI/deploy rule; a field named
for a moment → the timestamp rule; else the memory's topic in other words), and whether prompt and memory are in
another language from each other; and the false recalls by set.

2026-12-08, main at c8b877a5, every fit set, task misses vectors on 49 / off 102. Vectors on: topic in other words
15 (6 cross-language), field/column → timestamp rule 7 (1), column/query → database 5, CI/deploy/release rule 5 (3),
dependency → package manager 4 (1), commit/review/PR rule 4 (1), test → test runner 3, log line → logging 2,
formatter 2 (1), ticket → bug tracker 2 (1). Vectors off: topic in other words 39 (22 cross-language), CI/deploy/release
16 (5), field/column → timestamp 10 (2), dependency 8 (2), test 8 (3), commit/review/PR 7 (4), column/query → database
5, log line 4, ticket 3 (1), formatter 2 (1). The timestamp field is the largest kind a rule can read from the prompt
alone (:func:`memdir.search.concepts.timed`); cross-language notes were read before (kin.py, verbs.py).
"""

from __future__ import annotations

import collections
import glob
import json
import os
import re
import sys
from pathlib import Path

from common import prompts

_PM, _LOG, _TEST = "dependency -> package manager", "log line -> logging library", "test -> test runner/test db"
_SHIP, _REVIEW, _STAMP = "CI/deploy/release rule", "commit/review/PR rule", "field/column -> timestamp rule"
_DB = "column/query -> database"
# The kind of need each expected memory answers (of evals/recall/memories, shop and wide); any other: topic in other words
TOOL = {"python-installs": _PM, "atlas-pnpm": _PM, "ask-before-deps": _PM, "structlog-logging": _LOG,
        "ledger-logging": _LOG, "no-mocks-db": _TEST, "zh-test-db": _TEST, "ledger-tests": _TEST, "no-db-mocks": _TEST,
        "ci-runner": _SHIP, "release-tagging": _SHIP, "quill-release": _SHIP, "atlas-release": _SHIP,
        "staging-deploy": _SHIP, "tern-deploy": _SHIP, "zh-deploy": _SHIP, "s3-bucket": _SHIP, "merge-freeze": _SHIP,
        "deploy-days": _SHIP, "bug-tracker": "ticket -> bug tracker", "commit-style": _REVIEW,
        "feedback-commit-only-in-multi-session": _REVIEW, "ja-review": _REVIEW, "pr-size": _REVIEW,
        "tabs-go": "format -> formatter", "ruff-config": "format -> formatter", "timezone-utc": _STAMP,
        "utc-everywhere": _STAMP, "orm": _DB, "tern-ch-migrations": _DB, "ledger-migrations": _DB, "ledger-money": _DB,
        "pg-readonly": _DB}
_GERMAN = re.compile(r"\b(Schreib|Füge|Melde|Speichere|Rechnung)\b")


def kind_of(prompt: str, expect: list[str]) -> tuple[str, bool]:
    """``(the kind of need, whether prompt and memory are in another language from each other)``."""
    kinds = [TOOL[e] for e in expect if e in TOOL]
    other = not prompt.isascii() or any(re.match(r"(zh|ja|ko|de)-", e) for e in expect) or bool(_GERMAN.search(prompt))
    return (kinds[0] if kinds else "topic in other words"), other


def main(folder: str) -> None:
    for vectors in ("on", "off"):
        kinds, false, total = collections.Counter(), collections.Counter(), 0
        for path in sorted(glob.glob(f"{folder}/*_{vectors}.txt")):
            which = os.path.basename(path).rsplit("_", 1)[0]
            kind = {row["prompt"]: row.get("kind") for row in prompts("fit", which)}
            for line in Path(path).read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                if "miss" in row and kind.get(row["miss"]) == "task":
                    kinds[kind_of(row["miss"], row["expect"])] += 1
                    total += 1
                false[which] += "false_recall" in row
        print(f"vectors {vectors}: task misses {total}")
        for (name, other), n in sorted(kinds.items(), key=lambda item: -item[1]):
            print(f"  {n:3}  {name:34} {'cross-language' if other else 'same language'}")
        print("  false recalls (all kinds) by set:", {k: v for k, v in false.items() if v}, sum(false.values()))


if __name__ == "__main__":
    main(sys.argv[1])
