"""Demo: consolidate a real Claude Code session transcript into a fresh memdir home.

``run(home)`` reads ``../shared/data/transcripts/claude-code-deepseek-ocr.jsonl``
(a real session; or, where ``../shared`` is absent, ``examples/transcript.jsonl``),
consolidates it with the offline rules extractor (no model, no network) into a
project layer under ``home``, and prints what the gate saw, the memories made,
the project's ``MEMORY.md`` and the context block a new session would get.
``make demo`` calls it with a temporary directory; run it alone with
``python examples/demo_consolidate.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REAL = REPO.parent / "shared" / "data" / "transcripts" / "claude-code-deepseek-ocr.jsonl"
SHIPPED = REPO / "examples" / "transcript.jsonl"


def run(home: Path) -> None:
    """Consolidate the demo transcript into ``home`` and print the result."""
    from memdir import Memory
    from memdir.tools import render

    home = Path(home)
    transcript = REAL if REAL.is_file() else SHIPPED
    project = home / "demo-project"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home=home / "memdir", project=project, actor="human")

    print(f"== consolidating {transcript.name} (rules extractor, offline)")
    report = mem.consolidate(transcript, extractor="rules")
    print(render.consolidation(report, explain=True))

    print("\n== memories made")
    for outcome in report.outcomes:
        if not outcome.applied:
            continue
        result = mem.read(outcome.name, outcome.scope, count=False)
        record = result.record
        print(f"--- {record.name} ({outcome.scope}/{record.type}, origin {record.origin}, {record.status})")
        print(f"description: {record.description}")
        print(record.body)

    for scope in mem.scopes():
        index = mem.layer(scope).path / "MEMORY.md"
        if index.is_file():
            print(f"\n== {scope} MEMORY.md ({index})")
            print(index.read_text(encoding="utf-8").rstrip())

    print("\n== context block for the next session")
    print(mem.context())

    print("\n== the same transcript again")
    print(render.consolidation(mem.consolidate(transcript, extractor="rules")))


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp))
    sys.exit(0)
