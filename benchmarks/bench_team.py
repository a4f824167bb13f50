"""Team layer and import benchmarks (issue 15). Prints one JSON object per line.

    python benchmarks/bench_team.py [--quick]

Figures, in one run on one machine (compare the ratios, not the absolute times):
  context_two_layers    µs per `Memory.context()` (fresh indexes: the hot path), user + project
                        layers of N memories each, no team directory.
  context_three_layers  the same with a team layer of N memories in the repository; `ratio` is
                        three layers over two.
  session_start         ms p50 of a fresh `python -m memdir.hooks claude-code SessionStart` process
                        with the three layers, and its overhead over `python -c pass`.
  import_dir            seconds to import a directory of M Markdown memory files (first run) and to
                        run it again (every item unchanged), memories per second of the first run.
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

SRC = Path(__file__).resolve().parent.parent / "src"
sys.path.insert(0, str(SRC))

from memdir import Memory  # noqa: E402


def fill(mem: Memory, scope: str, n: int) -> None:
    for i in range(n):
        mem.write(f"{scope}-fact-{i}", f"Fact {i} of the {scope} layer about module {i % 17}", "project",
                  f"Body {i}.", scope=scope)


def per_call_us(fn, repeat: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def p50_ms(cmd: list[str], stdin: str, env: dict, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer memories and repetitions")
    args = parser.parse_args()
    n, m, repeat, procs = (50, 200, 200, 5) if args.quick else (200, 1000, 1000, 15)
    with tempfile.TemporaryDirectory(prefix="memdir-bench-team-") as tmp:
        base = Path(tmp)
        root = base / "repo"
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        mem = Memory.open(home=base / "home", project=root, actor="human")
        fill(mem, "user", n)
        fill(mem, "project", n)
        two = per_call_us(lambda: Memory.open(home=base / "home", project=root).context(), repeat)
        mem.team_init()
        fill(mem, "team", n)
        three = per_call_us(lambda: Memory.open(home=base / "home", project=root).context(), repeat)
        print(json.dumps({"bench": "context_two_layers", "memories_per_layer": n, "us_per_call": round(two, 1)}))
        print(json.dumps({"bench": "context_three_layers", "memories_per_layer": n, "us_per_call": round(three, 1),
                          "ratio": round(three / two, 2)}))
        env = {**os.environ, "MEMDIR_HOME": str(base / "home"), "PYTHONPATH": str(SRC)}
        payload = json.dumps({"session_id": "b", "cwd": str(root), "hook_event_name": "SessionStart",
                              "transcript_path": "/tmp/none.jsonl", "source": "startup"})
        baseline = p50_ms([sys.executable, "-c", "pass"], "", env, procs)
        start = p50_ms([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], payload, env, procs)
        print(json.dumps({"bench": "session_start", "layers": 3, "p50_ms": round(start, 1),
                          "overhead_ms": round(start - baseline, 1)}))
        source = base / "notes"
        source.mkdir()
        for i in range(m):
            (source / f"note-{i}.md").write_text(f"---\nname: note-{i}\nmetadata:\n  type: project\n"
                                                 f"description: Imported note {i} about service {i % 31}\n---\n"
                                                 f"Body of note {i}.\n", encoding="utf-8")
        target = Memory.open(home=base / "home2", project=root, actor="human")
        t0 = time.perf_counter()
        first = target.import_from("dir", str(source))
        t1 = time.perf_counter()
        second = target.import_from("dir", str(source))
        t2 = time.perf_counter()
        print(json.dumps({"bench": "import_dir", "files": m, "imported": first.count("imported"),
                          "first_s": round(t1 - t0, 2), "second_s": round(t2 - t1, 2),
                          "second_unchanged": second.count("unchanged"),
                          "memories_per_s": round(m / (t1 - t0), 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
