"""``memdir context`` in a fresh process while another process holds the layer's lock, two trees in one run.

    python benchmarks/bench_busy_context.py [--ref int46] [--sizes 1000 10000] [--repeats 3]

The common case of issue 28 §7: an agent writes (its process holds the layer's lock) while the next
SessionStart or prompt hook builds the context block. ``MEMORY.md`` is then out of date (a memory edited by
hand, one added) and the lock busy, so the block renders the index without writing it
(:meth:`memdir.layer.indexfile.KeepsIndex.current_index`). Before busy47 that parsed every memory file; now
only the files changed since the manifest. Per size, one home per tree (``size`` memory files placed, taken
up by one refresh through that tree's own code), then one file edited in place (a new inode, as ``sed -i``)
and one added; a holder process of that tree takes the lock (:meth:`memdir.layer.layer.Layer.locked`, as a
writer holds it) and ``python -m memdir context`` runs ``--repeats`` times per tree, the trees alternating.
Prints one JSON line per (size, tree) — median and min ms, files parsed (counted by a wrapper of
``memdir.files.scan.parse`` in the timed process, the first run) — and one per size with the ratio and
whether both trees printed the same block, byte for byte. The ref tree is ``git archive REF src``; the
other, this checkout's ``src``. Linux; load shown (``os.getloadavg``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent / "src"

ADOPT = """
import sys, time
from memdir import Memory
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
layer = mem.session.layer("project")
layer.path.mkdir(parents=True, exist_ok=True)
for i in range(int(sys.argv[3])):
    (layer.path / f"note-{i:05d}.md").write_text(
        f"---\\nname: note-{i:05d}\\ndescription: Fact number {i} about the service\\ntype: project\\n"
        f"updated: 2026-11-01T00:00:00Z\\n---\\n\\nThe value of setting {i} is {i * 7}.\\n", encoding="utf-8")
time.sleep(2.1)  # past the clock tick of the writes: their stat keys are trusted (manifest.RACY_NS)
layer.refresh_index()
print(layer.path)
"""

HOLDER = """
import sys
from memdir import Memory
mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
with mem.session.layer("project").locked():
    print("held", flush=True)
    sys.stdin.read()
"""

COUNTED = """
import atexit, os, runpy, sys
from memdir.files import scan
parsed, real_parse = [], scan.parse
scan.parse = lambda text, stem: parsed.append(stem) or real_parse(text, stem)
atexit.register(lambda: sys.stderr.write(f"\\nPARSED {len(parsed)}\\n"))
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def _env(home: Path, src: Path) -> dict:
    return dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="off", PYTHONPATH=str(src))


def _build(base: Path, size: int, src: Path, project: Path) -> Path:
    """A home whose project layer holds ``size`` memories, adopted by ``src``'s code; then one edited, one added."""
    home = base / "home"
    layer = Path(subprocess.run([sys.executable, "-c", ADOPT, str(home), str(project), str(size)], env=_env(home, src),
                                check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
    edited = layer / "note-00007.md"
    edited.with_name(".edit").write_text(edited.read_text(encoding="utf-8").replace("Fact number 7 ", "Fact seven "),
                                         encoding="utf-8")
    os.replace(edited.with_name(".edit"), edited)
    (layer / "added-by-hand.md").write_text("---\ndescription: A note the agent just wrote\ntype: project\n---\n\n"
                                            "Written while the hook ran.\n", encoding="utf-8")
    return home


def _context(home: Path, project: Path, src: Path, counted: bool) -> tuple[float, str, int | None]:
    args = [sys.executable, *(["-c", COUNTED, "memdir"] if counted else ["-m", "memdir"]), "--project", str(project),
            "context"]
    began = time.perf_counter()
    done = subprocess.run(args, env=_env(home, src), capture_output=True, text=True, timeout=900, check=False)
    ms = (time.perf_counter() - began) * 1000
    if done.returncode != 0 or "left out" in done.stderr:
        raise SystemExit(f"memdir context failed ({src}): {done.stderr}")
    parsed = next((int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("PARSED ")), None)
    return ms, done.stdout, parsed


def run(size: int, repeats: int, sources: dict[str, Path], base: Path) -> list[dict]:
    project = base / "project"
    (project / ".git").mkdir(parents=True)
    homes = {side: _build(base / side, size, src, project) for side, src in sources.items()}
    holders = {}
    try:
        for side, src in sources.items():
            holders[side] = subprocess.Popen([sys.executable, "-c", HOLDER, str(homes[side]), str(project)],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                             env=_env(homes[side], src))
            if holders[side].stdout.readline() != "held\n":
                raise SystemExit(f"the {side} holder did not take the lock")
        times = {side: [] for side in sources}
        blocks, parsed = {}, {}
        for side, src in sources.items():  # first, counted (untimed)
            _, blocks[side], parsed[side] = _context(homes[side], project, src, counted=True)
        for i in range(repeats):
            for side in (list(sources) if i % 2 == 0 else list(sources)[::-1]):
                ms, block, _ = _context(homes[side], project, sources[side], counted=False)
                times[side].append(ms)
                if block != blocks[side]:
                    raise SystemExit(f"the {side} block changed between runs")
        if any(h.poll() is not None for h in holders.values()):
            raise SystemExit("a holder let the lock go")
    finally:
        for holder in holders.values():
            holder.stdin.close()
            holder.wait(timeout=60)
    rows = []
    for side in sources:
        rows.append({"memories": size, "side": side, "runs": repeats, "median_ms": round(statistics.median(times[side]), 1),
                     "min_ms": round(min(times[side]), 1), "files_parsed": parsed[side],
                     "load": [round(x, 2) for x in os.getloadavg()]})
    ref, tree = list(sources)
    rows.append({"memories": size, "ratio_median": round(statistics.median(times[ref]) / statistics.median(times[tree]), 1),
                 "same_block": blocks[ref] == blocks[tree], "block_bytes": len(blocks[tree].encode("utf-8")),
                 "edit_shown": "Fact seven about the service" in blocks[tree],
                 "added_shown": "A note the agent just wrote" in blocks[tree]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", default="int46")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "ref"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", args.ref, "src"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        sources = {args.ref: (tree / "src").resolve(), "tree": TREE.resolve()}
        for size in args.sizes:
            for row in run(size, args.repeats, sources, Path(tmp) / f"n{size}"):
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
