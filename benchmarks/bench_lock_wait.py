"""Writers in separate processes on one layer: how long each waits for the layer's lock, and how many
writes the lock refused (``LockTimeout``) — the contention of several agents' sessions, hooks and a
panel writing one project at once.

One fresh home per (source tree, round) (``--src``, repeatable: main and a branch in one run, the trees
alternating round by round): ``--writers`` processes start together, each writing ``--writes`` project
memories through ``Memory.write``, a looping reader (a cold ``Memory.open(...).context()``, as a hook
does) beside them unless ``--no-reader``, and ``--busy`` processes spinning on the CPU for the round (the
load of other sessions on a 2-core machine). Each writer times every outermost ``Layer.locked`` from the
call to holding the lock (the wait) and every write (the wait and the work). One JSON line per (tree,
round): the load average when it began, the longest and 95th-percentile lock wait and write (seconds),
the timeouts, how many memories landed (listed afterwards; writers × writes when nothing was refused),
and the wall time.

    python benchmarks/bench_lock_wait.py --src /work/main/src --src src --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WRITER = r"""
import json, sys, time
from contextlib import contextmanager
from memdir import Memory
from memdir.errors import LockTimeout
from memdir.layer.layer import Layer

home, project, prefix, count, go = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
waits, writes, timeouts, depth = [], [], 0, [0]
plain = Layer.locked

@contextmanager
def timed(self, wait=True):
    started = time.monotonic()
    depth[0] += 1
    try:
        with plain(self, wait):
            if depth[0] == 1:
                waits.append(time.monotonic() - started)
            yield
    finally:
        depth[0] -= 1

Layer.locked = timed
mem = Memory.open(home=home, project=project)
mem.list()  # imports and the first scan before the start line
while not __import__("os").path.exists(go):
    time.sleep(0.001)
for i in range(count):
    started = time.monotonic()
    try:
        mem.write(f"{prefix}-{i:03d}", f"written by {prefix} number {i}", "project", "body")
    except LockTimeout:
        timeouts += 1
    writes.append(time.monotonic() - started)
print(json.dumps({"waits": waits, "writes": writes, "timeouts": timeouts}))
"""

READER = r"""
import os, sys
from memdir import Memory
from memdir.errors import LockTimeout
home, project, stop = sys.argv[1], sys.argv[2], sys.argv[3]
reads = timeouts = 0
while not os.path.exists(stop):
    try:
        Memory.open(home=home, project=project).context()
        reads += 1
    except LockTimeout:
        timeouts += 1
print(reads, timeouts)
"""


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


SPIN = "import os, sys\nwhile not os.path.exists(sys.argv[1]):\n    sum(range(100000))\n"


def _round(src: str, writers: int, writes: int, reader: bool, busy: int) -> dict:
    base = Path(tempfile.mkdtemp(prefix="bench-lock-wait-"))
    home, project, go, stop = base / "home", base / "project", base / "go", base / "stop"
    (project / ".git").mkdir(parents=True)
    env = dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=src, HOME=str(base), MEMDIR_SEARCH_VECTORS="off")
    env.pop("MEMDIR_LOCK_TIMEOUT", None)  # the product's own timeout (10 s)
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN, str(stop)]) for _ in range(busy)]
    load_before = os.getloadavg()[0]
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(home), str(project), f"w{n}", str(writes), str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for n in range(writers)]
    looping = subprocess.Popen([sys.executable, "-c", READER, str(home), str(project), str(stop)],
                               stdout=subprocess.PIPE, text=True, env=env) if reader else None
    time.sleep(1.0)  # the writers' imports
    started = time.monotonic()
    go.touch()
    waits, took, timeouts, failed = [], [], 0, 0
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        if proc.returncode != 0:
            failed += 1
            print(err[-2000:], file=sys.stderr)
            continue
        got = json.loads(out.splitlines()[-1])
        waits += got["waits"]
        took += got["writes"]
        timeouts += got["timeouts"]
    wall = time.monotonic() - started
    load = os.getloadavg()[0]  # the 1-minute average as the writers finish
    stop.touch()
    for spinner in spinners:
        spinner.wait(timeout=60)
    reads = reader_timeouts = 0
    if looping is not None:
        reads, reader_timeouts = map(int, looping.communicate(timeout=120)[0].split())
    count = ("import sys; from memdir import Memory; "
             "print(len(Memory.open(home=sys.argv[1], project=sys.argv[2]).list().memories))")
    listed = subprocess.run([sys.executable, "-c", count, str(home), str(project)], check=False, capture_output=True,
                            text=True, env=env, timeout=300)
    return {"src": src, "writers": writers, "writes": writes, "busy": busy, "load_before": round(load_before, 1), "load": round(load, 1),
            "longest_wait": round(max(waits, default=0.0), 3), "p95_wait": round(_quantile(waits, 0.95), 3),
            "longest_write": round(max(took, default=0.0), 3), "p95_write": round(_quantile(took, 0.95), 3),
            "timeouts": timeouts, "reader_timeouts": reader_timeouts, "reads": reads, "failed_writers": failed,
            "landed": int(listed.stdout.strip() or -1), "wall": round(wall, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree's src directory")
    parser.add_argument("--writers", type=int, default=7)
    parser.add_argument("--writes", type=int, default=30, help="memories each writer writes")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-reader", action="store_true", help="no looping reader beside the writers")
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on the CPU during each round")
    args = parser.parse_args()
    for r in range(args.rounds):
        for src in args.src if r % 2 == 0 else args.src[::-1]:
            print(json.dumps({"round": r, **_round(src, args.writers, args.writes, not args.no_reader, args.busy)}), flush=True)


if __name__ == "__main__":
    main()
