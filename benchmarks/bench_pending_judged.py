"""What the hooks' pending step costs with one finding and many unrelated edits outside memdir after it.

A project layer with one pending finding (kept with its journal mark) and then ``--edits`` ``external-edit``
events of another memory (each: two version objects): before the judging marks (memdir.prompt.answered.judged)
every hook read every one of them until the finding left. For each ``--src`` tree, in one fresh process per hook
(as the hooks run), ``pending.active`` of the layer is timed at three hooks in a row on the same layer: the
second and third are what a hook pays once the first judged the edits. One JSON line per tree and hook, with
the ratio to the first tree's same hook; each tree gets its own copy of the layer (a tree that records marks
must not give them to the other).

    python benchmarks/bench_pending_judged.py --src /tmp/snap-main/src --src src --edits 1000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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


def build(root: Path, edits: int, src: str) -> Path:
    """A layer directory: memories ``db-port`` and ``lunch``, a finding about db-port, then ``edits``
    ``external-edit`` events of ``lunch``."""
    code = f"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, {src!r})
from memdir.layer.journal import Journal
from memdir.prompt.answered import mark
layer = Path({str(root)!r})
journal = Journal(layer / ".memdir")
journal.append("agent", "create", "db-port", None,
               journal.put_object(b"---\\nname: db-port\\ndescription: Dev PostgreSQL listens on 5433\\n---\\n"))
journal.append("agent", "create", "lunch", None,
               journal.put_object(b"---\\nname: lunch\\ndescription: lunch is at noon\\n---\\n"))
item = {{"id": "0123456789ab", "text": "Use uv not pip here, dev db is on 5433, and I use neovim.",
         "ts": time.time(), "session": None, "rule": "remember", "journal": mark(layer)}}
(layer / ".memdir" / "pending.json").write_text(json.dumps({{"items": [item]}}))
with journal.batched():
    for i in range({edits}):
        before = journal.heads()["lunch"]
        after = journal.put_object(f"---\\nname: lunch\\ndescription: lunch is at {{i}}:30\\n---\\n".encode())
        journal.append("human", "external-edit", "lunch", before, after)
"""
    root.mkdir(parents=True)
    subprocess.run([sys.executable, "-c", code], check=True)
    return root


def timed(src: str, layer: Path) -> tuple[float, int]:
    """Seconds of ``pending.active`` in a fresh process under ``src``, and the items it returned."""
    out = subprocess.run([sys.executable, "-c", PROBE, str(layer)], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=src)).stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree (its src directory)")
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--hooks", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        made = build(Path(tmp) / "made", args.edits, str(Path(args.src[0]).resolve()))
        first: dict[int, float] = {}
        for n, src in enumerate(args.src):
            layer = Path(tmp) / f"tree{n}"
            shutil.copytree(made, layer)
            for hook in range(1, args.hooks + 1):
                seconds, shown = timed(str(Path(src).resolve()), layer)
                first.setdefault(hook, seconds)
                print(json.dumps({"src": src, "hook": hook, "edits": args.edits, "shown": shown,
                                  "ms": round(seconds * 1000, 2), "ratio_to_first": round(seconds / first[hook], 3)}))


if __name__ == "__main__":
    main()
