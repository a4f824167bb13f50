"""A personal layer's cold scan with many tombstones: the cost of holding back a forgotten value under any name.

A file of a layer is judged against every tombstone of its layer when it is parsed (memdir.layer.held,
break34; before, against those of its own name only). This times, in fresh processes, a scan of the project
layer that parses every file — the manifest (``.memdir/manifest.sqlite``) removed first, as a new machine, a
lost manifest or a schema change has it — for each source tree (``--src``, repeatable: runs alternate so a
loaded machine slows both alike). Each home: N project memories (benchmarks/_corpus.py, written by hand) and
T tombstones (T memories written and forgotten through each tree's own code). One JSON line per (tree, size),
and per size each tree's median over the first tree's.

    python benchmarks/bench_held_names.py --src /work/main/src --src src --sizes 2000 --stones 100 --repeat 5

``--long-bodies``: each forgotten memory's body is a sentence of ten content words, so a tree that keeps a
digest of a body alone (memdir.tombstones.match.body_digest) has one per tombstone to look each file up in.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fresh import write_corpus

SEED = textwrap.dedent("""
    import sys
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    long = sys.argv[4] == "long"
    for i in range(int(sys.argv[3])):
        body = (f"Queue {i} was checked by the platform team after the outage of week {i} in staging."
                if long else f"Checked for queue {i}.")
        mem.write(f"gone-{i:04d}", f"Forgotten fact {i}: the staging queue {i} drains at {i} per second", "project",
                  body, scope="project")
        mem.forget(f"gone-{i:04d}", scope="project")
""")

SCAN = textwrap.dedent("""
    import sys, time
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    layer = mem.session.layer("project")
    start = time.perf_counter()
    found = layer.scan()
    print(time.perf_counter() - start, len(found.entries))
""")


def _env(src: Path, home: Path) -> dict:
    return dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(src), MEMDIR_SEARCH_VECTORS="off")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", type=Path, help="a source tree (repeatable); default: ./src")
    parser.add_argument("--sizes", default="2000", help="comma-separated memory counts")
    parser.add_argument("--stones", type=int, default=100, help="tombstones in the layer")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--long-bodies", action="store_true", help="forgotten bodies long enough for a digest")
    args = parser.parse_args()
    srcs = [p.resolve() for p in (args.src or [Path("src")])]
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        project = work / "proj"
        (project / ".git").mkdir(parents=True)
        for size in [int(s) for s in args.sizes.split(",")]:
            homes = {}
            for n, src in enumerate(srcs):
                home = work / f"home-{size}-{n}"
                subprocess.run([sys.executable, "-c", SEED, str(home), str(project), str(args.stones),
                                "long" if args.long_bodies else "short"],
                               env=_env(src, home), check=True)
                layer_dir = next(home.glob("projects/*"))
                write_corpus(work / f"notes-{size}-{n}", size)
                for path in (work / f"notes-{size}-{n}").iterdir():
                    os.replace(path, layer_dir / path.name)
                homes[src] = (home, layer_dir / ".memdir" / "manifest.sqlite")
            times = {src: [] for src in srcs}
            for _ in range(args.repeat):
                for src in srcs:
                    home, manifest = homes[src]
                    manifest.unlink(missing_ok=True)
                    start = time.perf_counter()
                    done = subprocess.run([sys.executable, "-c", SCAN, str(home), str(project)], env=_env(src, home),
                                          capture_output=True, text=True, check=True)
                    wall = time.perf_counter() - start
                    scan_s, entries = done.stdout.split()
                    times[src].append((float(scan_s), wall, int(entries)))
            base = statistics.median(t[0] for t in times[srcs[0]])
            for src in srcs:
                scan_med = statistics.median(t[0] for t in times[src])
                print(json.dumps({"src": str(src), "size": size, "stones": args.stones, "long_bodies": args.long_bodies,
                                  "entries": times[src][0][2], "scan_s": round(scan_med, 4),
                                  "process_s": round(statistics.median(t[1] for t in times[src]), 4),
                                  "ratio_scan_over_first": round(scan_med / base, 3)}), flush=True)


if __name__ == "__main__":
    main()
