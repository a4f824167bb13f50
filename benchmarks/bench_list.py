"""`memdir list` and `memdir status` in fresh processes at 1,000 and 10,000 memories (issue 28 §7).
Prints one JSON object per line.

    python benchmarks/bench_list.py [--sizes 1000,10000] [--repeat 7] [--src DIR ...]

The stores are bench_core's (benchmarks/_fresh.py: the benchmarks' corpus of notes of 100–400 words
of one domain, 20 user memories beside the project layer, the search index built once). Each
figure is the wall time of a fresh process (`python -m memdir ...`): `list`, `list --json`, `status`
and `python -c pass` for scale, p50/p95 over ``--repeat`` runs, and the 10k/1k ratio. ``--src`` (a
checkout's src/, repeatable) times several trees alternately in one run, so a before/after
comparison shares the machine's load. `memory_list` (MCP) and the panel's list call the same
operation (:func:`memdir.operations.memories.list_memories`) as `memdir list`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fresh import run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000", help="memory counts of the project layer")
    parser.add_argument("--repeat", type=int, default=7, help="runs per fresh-process command")
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time (repeatable)")
    parser.add_argument("--commands", default="python_pass,list,list_json,status",
                        help="fresh-process commands (benchmarks/_fresh.py)")
    args = parser.parse_args()
    srcs = args.src or [Path(__file__).resolve().parent.parent / "src"]
    with tempfile.TemporaryDirectory() as tmp:
        run(srcs, [int(s) for s in args.sizes.split(",")], args.commands.split(","), args.repeat, Path(tmp),
            lambda **line: print(json.dumps(line), flush=True))


if __name__ == "__main__":
    main()
