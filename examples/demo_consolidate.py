"""Demo: consolidate real Claude Code session transcripts into a fresh memdir home.

``run(home)`` reads the two real sessions in ``../shared/data/transcripts/``
(or, where ``../shared`` is absent, ``examples/transcript.jsonl``):

1. consolidates them with the offline rules extractor (no model, no network)
   into a project layer under ``home`` and prints what the gate saw, the
   memories made, the project's ``MEMORY.md`` and the context block a new
   session would get;
2. consolidates the same session with the agent extractor, as the Claude Code
   hooks do when no API key or command is set: nothing is written, the
   person's sentences wait as pending, and the next SessionStart hook's
   ``additionalContext`` carries the ``<memory_pending>`` block — until the
   agent saves the fact with ``memory_write``.

``make demo`` calls it with a temporary directory; run it alone with
``python examples/demo_consolidate.py``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REAL_DIR = REPO.parent / "shared" / "data" / "transcripts"
REAL = [REAL_DIR / "claude-code-deepseek-ocr.jsonl", REAL_DIR / "claude-code-charslit.jsonl"]
SHIPPED = REPO / "examples" / "transcript.jsonl"


def _session_start(home: Path, project: Path, session_id: str) -> str:
    """The SessionStart hook's additionalContext, as Claude Code would receive it."""
    from memdir.integrations.claude_code import hooks

    out = hooks.session_start({"cwd": str(project), "session_id": session_id,
                               "hook_event_name": "SessionStart"}, home)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def _settle(home: Path, limit: float = 60.0) -> None:
    """Wait, at most ``limit`` seconds, for the background work the session-start hooks started in ``home`` (the
    first-session build that indexes and embeds, and the warm search process it launches; each recorded in
    ``warm.starting`` as it starts), asking the warm process to stop, so the temporary home can be removed:
    before, `make demo` ended in rmtree's "Directory not empty" (the build still writing) and left one warm
    process per run, serving a home that was gone."""
    from memdir import runtime
    from memdir.search import warm

    seen: set[int] = set()
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            seen.add(int((home / runtime.START_FILE).read_text().split()[0]))
        except (OSError, ValueError, IndexError):
            pass
        if not any(runtime.alive(pid) for pid in seen):
            return
        warm.stop(home)
        time.sleep(0.1)


def run(home: Path) -> None:
    """Consolidate the demo transcripts into ``home`` and print the result."""
    from memdir import Memory
    from memdir.render import consolidation as render

    home = Path(home)
    transcripts = [t for t in REAL if t.is_file()] or [SHIPPED]
    project = home / "demo-project"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home=home / "memdir", project=project, actor="human")

    for transcript in transcripts:
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
        print()

    for scope in mem.scopes():
        index = mem.session.layer(scope).path / "MEMORY.md"
        if index.is_file():
            print(f"\n== {scope} MEMORY.md ({index})")
            print(index.read_text(encoding="utf-8").rstrip())

    print("\n== context block for the next session")
    print(mem.context())

    print("\n== the same transcript again")
    print(render.consolidation(mem.consolidate(transcripts[-1], extractor="rules")))

    print("\n== agent mode: no model call; the next session's agent is asked to save")
    other = home / "agent-project"
    (other / ".git").mkdir(parents=True, exist_ok=True)
    person = Memory.open(home=home / "memdir", project=other, actor="human")
    report = person.consolidate(transcripts[-1], extractor="agent")
    print(render.consolidation(report))
    print("\n== the next SessionStart hook's additionalContext")
    print(_session_start(home / "memdir", other, "next-session"))
    agent = Memory.open(home=home / "memdir", project=other, session="next-session")
    durable = report.pending[-1] if report.pending else "(nothing pending)"
    if "spectral orders" in durable:  # the real session: the agent writes the fact in its own words
        payload = {"name": "single-order-data", "type": "project",
                   "description": "All data in this project is single-order; lines are not spectral orders",
                   "body": "Slit direction is roughly vertical (modulo curve and deltas); the dispersion "
                           "(wavelength) direction is horizontal. Said by the user on 2025-11-23."}
    else:
        payload = {"name": "saved-finding", "type": "project", "description": durable[:150], "body": durable}
    print("\n== the agent saves what is durable (memory_write) and ignores the rest")
    print(agent.call_tool("memory_write", payload))
    after = _session_start(home / "memdir", other, "session-after")
    print("\n== the SessionStart after that: the saved finding is no longer pending"
          + (" (what the agent ignored is shown once more, then expires)" if "<memory_pending>" in after else ""))
    print(after)
    _settle(home / "memdir")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp))
    sys.exit(0)
