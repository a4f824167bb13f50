"""Consolidation eval: does memdir keep what a careful person would keep from a coding session?

Usage::

    python evals/consolidation/run.py --extractor rules|llm|command [--details] [--msc]

Each session of ``sessions.yaml`` (next to this file; its header describes
the format) is consolidated by memdir's real consolidation — gate, extractor,
tombstones, gateway — into a fresh home and project holding the session's
existing memories, forgotten values and CLAUDE.md. What the run wrote
(created, updated, candidate and superseding memories) is scored against the
session's gold memories:

* a written memory **matches** a gold memory when every ``must`` word (or one
  of its ``|`` alternatives) is in its description or body, case-folded, it
  is in the gold's layer when one is given, and it changes the gold's
  ``target`` when one is given;
* precision = written memories that match a gold memory / written memories;
* recall = gold memories matched / gold memories;
* pollution = written memories nobody asked for (matching no gold memory),
  with how many of them hold a secret or a fact only the assistant stated;
* secrets = written memories holding one of the session's secrets, and
  ``secret_files`` = files anywhere under the home holding one;
* duplicates = new memories created where the gold says the existing one was
  to be updated;
* resurrections = written memories holding a forgotten value.

``llm`` uses the configured endpoint and key (``MEMDIR_LLM_BASE_URL``,
``DEEPSEEK_API_KEY``/``OPENAI_API_KEY`` …), ``command`` the configured
``MEMDIR_EXTRACTOR_COMMAND``; both measure the model behind them. ``--msc``
also prints the MSC persona-fact figures of ``evals/extraction.py`` (rules).
Prints one JSON object per line; exit 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TRANSCRIPTS = REPO.parent / "shared" / "data" / "transcripts"


def load_sessions(path: Path = HERE / "sessions.yaml") -> list[dict]:
    """The sessions of ``path`` (YAML list)."""
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _has(text: str, must: list[str]) -> bool:
    low = text.lower()
    return all(any(alt.strip().lower() in low for alt in str(group).split("|")) for group in must)


def _messages(session: dict) -> list[dict] | Path | None:
    if "file" in session:
        path = TRANSCRIPTS / session["file"]
        return path if path.is_file() else None
    start = session.get("start", "2026-11-20T09:00:00+00:00")  # YAML reads a bare timestamp as a datetime
    if not isinstance(start, datetime):
        start = datetime.fromisoformat(str(start).replace("Z", "+00:00"))
    return [{"role": role, "content": text, "timestamp": (start + timedelta(minutes=n)).isoformat()}
            for n, (role, text) in enumerate(session["transcript"])]


def _prepare(session: dict, root: Path):
    from memdir import Memory

    home, project = root / "home", root / "project"
    (project / ".git").mkdir(parents=True)
    if session.get("workspace"):
        (project / "CLAUDE.md").write_text(session["workspace"], encoding="utf-8")
    person = Memory.open(home=home, project=project, actor="human", use_cwd=False)
    for item in session.get("existing", []):
        writer = person.as_actor(item["origin"]) if item.get("origin") else person
        writer.write(item["name"], item["description"], item.get("type", "project"), item.get("body", ""),
                     scope=item.get("scope"))
    for item in session.get("forgotten", []):
        person.write(item["name"], item["description"], item.get("type", "project"), item.get("body", ""))
        person.forget(item["name"], reason="wrong")
    return person, home


def score_session(session: dict, extractor: str, root: Path) -> dict:
    """Consolidate one session in ``root`` and score what was written."""
    messages = _messages(session)
    if messages is None:
        return {"id": session["id"], "skipped": "transcript file absent"}
    person, home = _prepare(session, root)
    report = person.consolidate(messages, extractor=extractor)
    written = []
    for outcome in report.outcomes:
        if not outcome.applied or outcome.result == "forgotten":
            continue
        record = person.read(outcome.name, outcome.scope, count=False).record
        written.append({"name": outcome.name, "scope": outcome.scope, "action": outcome.action,
                        "target": outcome.target, "result": outcome.result,
                        "text": f"{record.description}\n{record.body}"})
    gold = session.get("gold") or []

    def fits(memory: dict, item: dict) -> bool:
        return (_has(memory["text"], item["must"]) and memory["scope"] == item.get("scope", memory["scope"])
                and memory["target"] == item.get("target", memory["target"]))

    correct = [m for m in written if any(fits(m, g) for g in gold)]
    unasked = [m for m in written if m not in correct]
    secrets = session.get("secrets") or []
    files = [p for p in home.rglob("*") if p.is_file()]
    return {
        "id": session["id"], "status": report.status, "gold": len(gold), "written": len(written),
        "correct": len(correct), "recalled": sum(any(fits(m, g) for m in written) for g in gold),
        "pollution": len(unasked),
        "secrets": sum(any(s in m["text"] for s in secrets) for m in written),
        "secret_files": sum(any(s.encode() in p.read_bytes() for s in secrets) for p in files),
        "other_speaker": sum(any(_has(m["text"], [o]) for o in session.get("other") or []) for m in unasked),
        "duplicates": sum(m["action"] == "create" and any(g.get("target") and _has(m["text"], g["must"])
                                                          for g in gold) for m in written),
        "resurrections": sum(any(_has(m["text"], f["must"]) for f in session.get("forgotten") or [])
                             for m in written),
        "error": report.error,
        "memories": [{k: m[k] for k in ("name", "scope", "result", "target")} | {"text": m["text"][:160]}
                     for m in written],
    }


def evaluate(extractor: str, sessions: list[dict] | None = None, details: bool = False) -> dict:
    """Score ``extractor`` over ``sessions`` (default all); the summary, with
    per-session rows under ``sessions`` when ``details``."""
    from memdir.consolidation.extractors import resolve_extractor
    from memdir.settings import load_settings

    sessions = load_sessions() if sessions is None else sessions
    model = resolve_extractor(extractor, load_settings(None)).model
    started = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory(prefix="memdir-eval-") as tmp:
        for n, session in enumerate(sessions):
            rows.append(score_session(session, extractor, Path(tmp) / f"s{n}"))
    scored = [r for r in rows if "skipped" not in r]
    total = lambda key: sum(r[key] for r in scored)  # noqa: E731
    written, gold = total("written"), total("gold")
    summary = {
        "eval": "consolidation", "extractor": extractor, "model": model, "sessions": len(scored),
        "skipped": len(rows) - len(scored), "gold": gold, "written": written, "correct": total("correct"),
        "precision": round(total("correct") / written, 4) if written else None,
        "recall": round(total("recalled") / gold, 4) if gold else None,
        "pollution": total("pollution"), "pollution_secrets": total("secrets"),
        "pollution_other_speaker": total("other_speaker"), "secrets": total("secrets"),
        "secret_files": total("secret_files"), "duplicates": total("duplicates"),
        "resurrections": total("resurrections"), "failed": sum(r["status"] == "failed" for r in scored),
        "seconds": round(time.monotonic() - started, 2),
    }
    if details:
        summary["sessions_detail"] = rows
    return summary


def unconfigured(extractor: str) -> str | None:
    """Why ``extractor`` cannot run here (no key for a remote endpoint, no
    command), or None."""
    from memdir.consolidation.extractors.llm import _is_local, api_key
    from memdir.settings import load_settings

    settings = load_settings(None)
    if extractor == "llm" and not api_key(settings) and not _is_local(settings.llm_base_url):
        return f"no API key for {settings.llm_base_url} (set DEEPSEEK_API_KEY or OPENAI_API_KEY)"
    if extractor == "command" and not settings.extractor_command.strip():
        return "no extractor_command (set MEMDIR_EXTRACTOR_COMMAND)"
    return None


def memdir_source() -> Path:
    """The folder of the ``memdir`` package this run measures: the one installed in this Python (a checkout's
    editable install, ``pip install -e .``, is its ``src/memdir``), as the tests and the hooks import it; this
    checkout's ``src`` only when no memdir is installed at all. (Put first on ``sys.path`` unasked, this
    checkout's ``src`` shadowed whatever the running Python had installed: a run from another checkout's venv
    measured code that venv never runs.)"""
    try:
        import memdir
    except ImportError:  # nothing installed: the checkout beside this file is the only memdir there is
        sys.path.append(str(REPO / "src"))
        import memdir
    return Path(memdir.__file__).resolve().parent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score memdir's consolidation on coding sessions.")
    parser.add_argument("--extractor", choices=("rules", "llm", "command"), default="rules")
    parser.add_argument("--details", action="store_true", help="add each session's memories and figures")
    parser.add_argument("--msc", action="store_true", help="also print the MSC persona-fact figures (rules)")
    args = parser.parse_args(argv)
    measured = memdir_source()
    if measured != REPO / "src" / "memdir":
        print(f"measuring the memdir installed at {measured}, not this checkout's {REPO / 'src'}", file=sys.stderr)
    why = unconfigured(args.extractor)
    if why:
        print(f"skipped {args.extractor}: {why}", file=sys.stderr)
        print(json.dumps({"eval": "consolidation", "extractor": args.extractor, "skipped": why}))
    else:
        print(json.dumps(evaluate(args.extractor, details=args.details), ensure_ascii=False))
    if args.msc:
        import importlib.util

        spec = importlib.util.spec_from_file_location("extraction_eval", REPO / "evals" / "extraction.py")
        msc = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(msc)
        data = REPO.parent / "shared" / "data" / "msc" / "personasummary-session1-test.jsonl"
        if data.is_file():
            print(json.dumps(msc.evaluate(data, "rules"), ensure_ascii=False))
        else:
            print(f"skipped MSC: {data} is absent", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
