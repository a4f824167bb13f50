"""What judging pending findings against the journal costs on the hooks' path (memdir.prompt.answered).

A project layer whose journal holds ``--events`` events (updates of 50 memories, none an edit outside memdir)
and one pending finding, kept at the journal's end: with its journal mark (the bytes after it searched), with
its mark and one edit of another memory outside memdir after it (those events parsed, two versions read), and,
as an older memdir kept it, without a mark (the journal read whole). For each ``--src`` tree, in fresh processes (the hooks
run one per event), the time of ``pending.active`` of the layer — its first call, so the lazy imports count —
median of ``--runs``. One JSON line per tree and case, with the ratio to the first tree's same case.

    python benchmarks/bench_pending_answered.py --src /tmp/snap-main/src --src src --events 10000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PROBE = """
import sys, time
t = time.perf_counter()
from memdir.prompt import pending
items = pending.active(sys.argv[1])
print(time.perf_counter() - t, len(items))
"""


def build(root: Path, events: int, marked: bool, src: str, edit: bool = False) -> Path:
    """A layer directory with ``events`` journal events and one finding (with a journal mark or not); ``edit``:
    then one ``external-edit`` of another memory, journaled after the finding was kept."""
    code = f"""
import json, os, sys, time
from pathlib import Path
sys.path.insert(0, {src!r})
from memdir.layer.journal import Journal
layer = Path({str(root)!r})
journal = Journal(layer / ".memdir")
with journal.batched():
    for i in range({events}):
        data = f"---\\nname: m{{i % 50}}\\ndescription: memory {{i}}\\n---\\n".encode()
        key = journal.put_object(data)
        journal.append("agent", "update", f"m{{i % 50}}", None, key)
item = {{"id": "0123456789ab", "text": "Dev db is on 5433 now.", "ts": time.time(), "session": None, "rule": "remember"}}
if {marked!r}:
    from memdir.prompt.answered import mark
    item["journal"] = mark(layer)
(layer / ".memdir" / "pending.json").write_text(json.dumps({{"items": [item]}}))
if {edit!r}:
    before = journal.heads()["m0"]
    after = journal.put_object(b"---\\nname: m0\\ndescription: lunch is at noon\\n---\\n")
    journal.append("human", "external-edit", "m0", before, after)
"""
    root.mkdir(parents=True)
    subprocess.run([sys.executable, "-c", code], check=True)
    return root


def timed(src: str, layer: Path, runs: int) -> tuple[float, int]:
    """Median seconds of ``pending.active`` in a fresh process under ``src``, and the items it returned."""
    times, count = [], 0
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", PROBE, str(layer)], capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONPATH=src)).stdout.split()
        times.append(float(out[0]))
        count = int(out[1])
    return statistics.median(times), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree (its src directory)")
    parser.add_argument("--events", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    here = str(Path(args.src[-1]).resolve())  # the tree that writes marks builds the layers
    with tempfile.TemporaryDirectory() as tmp:
        layers = {case: build(Path(tmp) / case, args.events, case != "unmarked", here, case == "marked, an edit after")
                  for case in ("marked", "marked, an edit after", "unmarked")}
        first: dict[str, float] = {}
        for src in args.src:
            for case, layer in layers.items():
                seconds, shown = timed(str(Path(src).resolve()), layer, args.runs)
                first.setdefault(case, seconds)
                print(json.dumps({"src": src, "case": case, "events": args.events, "shown": shown,
                                  "median_ms": round(seconds * 1000, 2),
                                  "ratio_to_first": round(seconds / first[case], 2)}))


if __name__ == "__main__":
    main()
