"""What the writer mark (memdir.layer.leftovers) costs a write, and what clearing a dead writer's side files costs.

    python benchmarks/bench_leftovers.py [--size 10000] [--writes 60]

One JSON line per figure, all measured in one run, in one process (warm writes into one layer of
``--size`` memories, as bench_core's write_p50):
  write_mark      p50/p95 of a write with the mark (as shipped) and with the mark's two calls made
                  no-ops, interleaved write by write; the ratio.
  mark_calls      p50 of the mark's own calls (take + drop), in µs.
  clear_after_kill  one write that finds a dead writer's mark (the mark and a temp file, a backup and an
                  object temp left as a killed writer leaves them) against the p50 write — it sweeps every
                  file (the directory's mtime moved, as after any killed writer) and lists the layer
                  directory, its meta directory and objects/ (``listing_p50_ms``: that listing alone).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import corpus, write_notes

from memdir import Memory
from memdir.files.fsio import BACKUP_SUFFIX, side_name
from memdir.files.layout import WRITER_FILE
from memdir.layer import leftovers


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--writes", type=int, default=60)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-leftovers-"))
    project = base / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=project)
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True)
    write_notes(layer.path, corpus(args.size, seed=7)[0], stamp="2026-11-01T00:00:00Z")
    layer.refresh_index()
    extra = corpus(50, seed=8, facts=0)[0]
    counter = iter(range(10**9))

    def write_one() -> float:
        n = next(counter)
        _name, description, body = extra[n % 50]
        start = time.perf_counter()
        mem.write(f"bench-{n % 50:02d}", f"{description} (write {n})", "project", body)
        return time.perf_counter() - start

    for _ in range(10):
        write_one()  # warm: every bench-NN exists, the caches are full
    take, drop = leftovers.WriterMark.take, leftovers.WriterMark.drop
    on, off = [], []
    for i in range(args.writes * 2):
        if i % 2:
            leftovers.WriterMark.take = leftovers.WriterMark.drop = lambda self: None
            off.append(write_one())
            leftovers.WriterMark.take, leftovers.WriterMark.drop = take, drop
        else:
            on.append(write_one())

    def p(samples, q):
        ordered = sorted(samples)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))]

    emit(bench="write_mark", memories=args.size, with_mark_p50_ms=round(statistics.median(on) * 1e3, 3),
         without_mark_p50_ms=round(statistics.median(off) * 1e3, 3),
         with_mark_p95_ms=round(p(on, 0.95) * 1e3, 3), without_mark_p95_ms=round(p(off, 0.95) * 1e3, 3),
         ratio=round(statistics.median(on) / statistics.median(off), 3))
    mark = leftovers.WriterMark(layer.meta)
    calls = []
    for _ in range(2000):
        start = time.perf_counter()
        mark.take()
        mark.drop()
        calls.append(time.perf_counter() - start)
    emit(bench="mark_calls", take_and_drop_p50_us=round(statistics.median(calls) * 1e6, 1))
    objects = sum(1 for _ in os.scandir(layer.journal.objects))
    killed = []
    for _ in range(5):
        (layer.meta / WRITER_FILE).write_text("12345\n")  # as a writer killed holding the lock leaves it
        target = layer.path / "bench-00.md"
        os.link(target, side_name(target, BACKUP_SUFFIX))
        fd, _temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=layer.path)
        os.close(fd)
        fd, _temp = tempfile.mkstemp(prefix=f".{'0' * 64}.", suffix=".tmp", dir=layer.journal.objects)
        os.close(fd)
        killed.append(write_one())
        assert not leftovers.listed(leftovers.places(layer)), "the side files were not removed"
    listings = []
    for _ in range(20):
        start = time.perf_counter()
        leftovers.listed(leftovers.places(layer))
        listings.append(time.perf_counter() - start)
    emit(bench="clear_after_kill", memories=args.size, objects=objects,
         listing_p50_ms=round(statistics.median(listings) * 1e3, 2),
         write_after_kill_p50_ms=round(statistics.median(killed) * 1e3, 3),
         write_p50_ms=round(statistics.median(on) * 1e3, 3),
         ratio=round(statistics.median(killed) / statistics.median(on), 2))


if __name__ == "__main__":
    main()
