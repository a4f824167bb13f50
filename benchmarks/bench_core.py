"""Core store benchmarks (issue: core store). Prints one JSON object per line.

    python benchmarks/bench_core.py [--quick] [--sizes 1000,10000] [--fresh [--src DIR ...]]

Every store is the benchmarks' corpus (benchmarks/_corpus.py: notes of 100–400 words of one
domain's vocabulary, services, stores, environments and people repeated across notes).
Figures:
  context_warm      p50 of Memory.context() with 2 layers × 200 memories, and of just
                    reading the two MEMORY.md files, measured in the same run (ratio).
  context_process   p50 wall time of `memdir context` as a fresh process vs `python3 -c pass`.
  write_p50         warm: one write (lock, atomic file, journal, index rebuild) in one long-lived
                    process into a layer of 1,000 and of 10,000 memories (ratio 10k/1k); p95/max
                    include the full hand-edit sweep a large layer does at least every 2 s
                    (layer.SWEEP_INTERVAL).
  fresh_*           fresh processes at the same sizes: `memdir write`, `memdir context` and
                    `python -c pass`, p50/p95, and the 10k/1k ratio (target ≤ 1.3×; context ≤ 3×
                    python -c pass); --src DIR (a checkout's src/, repeatable) times several trees
                    alternately in one run (benchmarks/_fresh.py).
  write_fresh_vs_warm  per size, the fresh-process `memdir write` p50 over the warm write p50.
  parallel_writes   8 processes × 100 writes into one layer: files present, writes/s.
--fresh prints only the fresh_* figures; --quick only 1,000 memories; --aged: each fresh run finds
every layer's last sweep an hour old (the first prompt of a session opened after a while), and a
background sweep it starts is waited for, untimed, before the next run (background_wait_max_ms);
--edited: each fresh run is the first after one memory file was edited by hand (a new inode, as
``sed -i`` writes it: benchmarks/_fresh.hand_edit).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import corpus, write_notes  # noqa: E402

from memdir import Memory  # noqa: E402


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def fill(mem: Memory, count: int, scope: str, seed: int) -> None:
    """``count`` notes of the corpus (``seed``) written through ``mem`` into ``scope``."""
    for name, description, body in corpus(count, seed, facts=0)[0]:
        mem.write(name, description, "project", body, scope=scope)


def bench_context(base: Path) -> None:
    project = base / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=project)
    fill(mem, 200, "user", seed=1)
    fill(mem, 200, "project", seed=2)
    mem.context()
    paths = [mem.session.layer(s).path / "MEMORY.md" for s in ("user", "project")]

    def read_two():
        for path in paths:
            with open(path, "rb") as handle:
                handle.read().decode("utf-8")

    reads = timed(read_two, 2000)
    renders = timed(mem.context, 2000)
    emit(bench="context_warm", memories=400, render_p50_us=round(p50(renders) * 1e6, 1),
         read_two_files_p50_us=round(p50(reads) * 1e6, 1), ratio=round(p50(renders) / p50(reads), 2),
         target_ratio=3.0)

    # As installed: pip writes .pyc files. (This environment may set PYTHONDONTWRITEBYTECODE,
    # which would make every fresh process recompile memdir from source.)
    import compileall

    compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "src" / "memdir"), quiet=1)
    env = dict(os.environ, MEMDIR_HOME=str(base / "home"))
    cmd = [sys.executable, "-m", "memdir", "--project", str(project), "context"]
    bare = [sys.executable, "-c", "pass"]
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    walls, bases = [], []
    for _ in range(25):
        for target, argv in ((walls, cmd), (bases, bare)):
            start = time.perf_counter()
            subprocess.run(argv, env=env, check=True, capture_output=True)
            target.append(time.perf_counter() - start)
    emit(bench="context_process", context_p50_ms=round(p50(walls) * 1e3, 1),
         python_pass_p50_ms=round(p50(bases) * 1e3, 1), ratio=round(p50(walls) / p50(bases), 2), target_ratio=4.0)


def bench_writes(base: Path, sizes: list[int]) -> dict[int, float]:
    """Warm writes at each size; returns the p50 (seconds) per size."""
    results = {}
    for size in sizes:
        project = base / f"w{size}"
        (project / ".git").mkdir(parents=True)
        mem = Memory.open(home=base / f"home-w{size}", project=project)
        layer = mem.session.layer("project")
        layer.path.mkdir(parents=True)
        # Seed the layer the way a person's editor would, then let the gateway adopt the files once.
        write_notes(layer.path, corpus(size, seed=7)[0], stamp="2026-11-01T00:00:00Z")
        layer.refresh_index()
        extra = corpus(50, seed=8, facts=0)[0]
        counter = iter(range(10**9))

        def write_one():
            n = next(counter)
            _name, description, body = extra[n % 50]
            mem.write(f"bench-{n % 50:02d}", f"{description} (write {n})", "project", body)

        samples = timed(write_one, 60)
        results[size] = p50(samples)
        ordered = sorted(samples)
        emit(bench="write_p50", memories=size, p50_ms=round(results[size] * 1e3, 2),
             p95_ms=round(ordered[int(len(ordered) * 0.95)] * 1e3, 2), max_ms=round(ordered[-1] * 1e3, 2),
             target_ms=10.0 if size == 1000 else None)
    if 1000 in results and 10000 in results:
        emit(bench="write_scaling", ratio_10k_over_1k=round(results[10000] / results[1000], 2), target_ratio=3.0)
    return results


PARALLEL_WRITER = textwrap.dedent("""
    import sys
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2])
    for i in range(int(sys.argv[4])):
        mem.write(f"{sys.argv[3]}-{i:03d}", f"parallel {sys.argv[3]} {i}", "project", "body")
""")


def bench_parallel(base: Path, procs: int = 8, each: int = 100) -> None:
    project = base / "par"
    (project / ".git").mkdir(parents=True)
    home = base / "home-par"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent / "src"))
    start = time.perf_counter()
    running = [subprocess.Popen([sys.executable, "-c", PARALLEL_WRITER, str(home), str(project), f"w{n}", str(each)],
                                env=env) for n in range(procs)]
    codes = [p.wait() for p in running]
    elapsed = time.perf_counter() - start
    mem = Memory.open(home=home, project=project)
    present = len(mem.list().memories)
    lines = len((mem.session.layer("project").path / "MEMORY.md").read_text().splitlines())
    emit(bench="parallel_writes", processes=procs, writes=procs * each, exit_codes_ok=codes == [0] * procs,
         files=present, index_lines=lines, lost=procs * each - present,
         writes_per_s=round(procs * each / elapsed, 1), seconds=round(elapsed, 2))


def bench_fresh(base: Path, srcs: list[Path], sizes: list[int], commands: list[str], repeat: int,
                aged: bool = False, edited: bool = False) -> dict:
    """The fresh-process figures (benchmarks/_fresh.py), emitted; returns ``{(size, command): p50 ms}``
    of the first tree."""
    from _fresh import run

    p50s = {}

    def keep(**line):
        if line.get("tree") == str(srcs[0]) and "p50_ms" in line:
            p50s[(line["memories"], line["figure"].removeprefix("fresh_"))] = line["p50_ms"]
        emit(**line)

    run(srcs, sizes, commands, repeat, base, keep, aged, edited)
    return p50s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only 1,000 memories")
    parser.add_argument("--fresh", action="store_true", help="only the fresh-process figures")
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time fresh (repeatable)")
    parser.add_argument("--sizes", default="1000,10000", help="memory counts of the write figures")
    parser.add_argument("--repeat", type=int, default=15, help="runs per fresh-process command")
    parser.add_argument("--aged", action="store_true",
                        help="fresh runs find every layer's last sweep an hour old (a session opened after a while)")
    parser.add_argument("--edited", action="store_true",
                        help="each fresh run is the first after one memory file was edited by hand (sed -i)")
    parser.add_argument("--commands", default="python_pass,cli_write,context",
                        help="fresh-process commands (benchmarks/_fresh.py)")
    args = parser.parse_args()
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    srcs = args.src or [Path(__file__).resolve().parent.parent / "src"]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if args.fresh:
            bench_fresh(base / "fresh", srcs, sizes, args.commands.split(","), args.repeat, args.aged,
                        args.edited)
            return
        bench_context(base)
        warm = bench_writes(base, sizes)
        fresh = bench_fresh(base / "fresh", srcs, sizes, args.commands.split(","), args.repeat)
        for size in sizes:
            if (size, "cli_write") in fresh:
                emit(bench="write_fresh_vs_warm", memories=size, fresh_p50_ms=fresh[(size, "cli_write")],
                     warm_p50_ms=round(warm[size] * 1e3, 2),
                     ratio=round(fresh[(size, "cli_write")] / (warm[size] * 1e3), 1))
        bench_parallel(base)


if __name__ == "__main__":
    main()
