"""How fast hand-placed memory files are taken in (journaled as ``external-edit``), and what the first
write after them costs, in a fresh process.

For each size N and each source tree (``--src``, repeatable: main and a branch, runs alternating so a
loaded machine slows both alike): a home with one user memory written through memdir, then N memory
files copied by hand into ``<home>/_user`` (as a person copying notes in, or a ``git pull``), then

* ``write_other_layer``: ``memdir write x ... --scope project`` in a fresh process (the case found: a write
  to the *project* layer took in the user layer's files on its way);
* ``write_same_layer``: (a fresh home) ``memdir write y ... --scope user`` in a fresh process;
* ``read_other_layer``: (a fresh home, with a project memory ``p`` written before the hand copy)
  ``memdir read p`` in a fresh process, no scope: the lookup looks in the user layer first;
* ``forget_other_layer``: (as ``read_other_layer``) ``memdir forget p``, no scope: the value's holders are
  looked for in the other layers (a value another memory holds is not tombstoned);
* ``history_other_layer``: (as ``read_other_layer``) ``memdir history p``, no scope: hand edits are journaled
  first, so the history shows them;
* ``forget_indexed_other_layer``: as ``forget_other_layer``, after a ``memdir search`` (untimed) took the hand
  copy into the search index, as a session's next prompt does: the holders' sieve reads the index's texts and
  only the files they cannot rule out.

Each run prints one JSON line: the wall time, how many of the N files the user layer's journal names
after the run (each must be journaled once, as an external edit), the journal's fsyncs counted by
``strace`` when it is installed (``--strace``), and files taken in per second (journaled / wall).
``memdir verify`` must accept the store after each run (``verify_ok``).

    python benchmarks/bench_intake.py --src /work/main/src --src src --sizes 1000,8000 --repeat 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fresh import _env, compile_trees, settle_sweeps

NOTE = """---
name: {name}
description: hand note {i} on topic {t}
type: user
created: 2026-12-05T20:16:53Z
updated: 2026-12-05T20:16:53Z
origin: human
status: active
---

Note {i}: the team agreed on topic{t} ({name}); copied in by hand.
"""


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def place(layer: Path, count: int) -> None:
    """``count`` memory files written straight into ``layer`` (no memdir)."""
    for i in range(count):
        name = f"hand-note-{i:05d}"
        (layer / f"{name}.md").write_text(NOTE.format(name=name, i=i, t=i % 37), encoding="utf-8")


def journaled(layer: Path) -> tuple[int, int]:
    """(external-edit lines naming a hand note, distinct hand notes named) in ``layer``'s journal."""
    lines, names = 0, set()
    path = layer / ".memdir" / "journal.jsonl"
    for raw in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        event = json.loads(raw)
        if event.get("action") == "external-edit" and str(event.get("name", "")).startswith("hand-note-"):
            lines += 1
            names.add(event["name"])
    return lines, len(names)


OTHER_LAYER = {"read_other_layer": "read", "forget_other_layer": "forget", "history_other_layer": "history",
               "forget_indexed_other_layer": "forget"}


def one_run(src: Path, size: int, case: str, work: Path, use_strace: bool) -> dict:
    base = work / "run"
    shutil.rmtree(base, ignore_errors=True)
    home, project = base / "home", base / "project"
    project.mkdir(parents=True)
    env = dict(_env(src, home, base), MEMDIR_PROJECT=str(project))
    py = sys.executable
    subprocess.run([py, "-m", "memdir", "write", "seed", "-d", "a seed memory", "-t", "user", "--scope", "user",
                    "--body", "seed"], env=env, check=True, capture_output=True)
    if case in OTHER_LAYER:
        subprocess.run([py, "-m", "memdir", "write", "p", "-d", "a project memory", "-t", "project", "--scope",
                        "project", "--body", "p"], env=env, check=True, capture_output=True)
    user = home / "_user"
    place(user, size)
    if case == "forget_indexed_other_layer":
        subprocess.run([py, "-m", "memdir", "search", "hand note"], env=env, check=True, capture_output=True)
        settle_sweeps(home)
    scope, name = ("project", "x") if case == "write_other_layer" else ("user", "y")
    argv = [py, "-m", "memdir", "write", name, "-d", "a note written after the hand copy", "-t", "project",
            "--scope", scope, "--body", "b"] if case not in OTHER_LAYER else [py, "-m", "memdir", OTHER_LAYER[case], "p"]
    trace = base / "strace.out"
    if use_strace:
        argv = ["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", str(trace), *argv]
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{case} failed in {src}: {done.stderr}")
    settle_sweeps(home)
    lines, names = journaled(user)
    verify = subprocess.run([py, "-m", "memdir", "verify"], env=env, capture_output=True, text=True, check=False)
    row = {"case": case, "tree": str(src), "files": size, "wall_s": round(wall, 3), "journaled_lines": lines,
           "journaled_names": names, "files_per_s": round(names / wall, 1) if names else 0.0,
           "verify_ok": verify.returncode == 0}
    if use_strace:
        row["fsyncs"] = sum(1 for line in trace.read_text().splitlines() if "fsync(" in line)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time (repeatable)")
    parser.add_argument("--sizes", default="1000,8000", help="hand-placed file counts")
    parser.add_argument("--repeat", type=int, default=2, help="runs per (tree, size, case)")
    parser.add_argument("--cases", default="write_other_layer,write_same_layer")
    parser.add_argument("--strace", action="store_true", help="count fsync calls with strace (slows every run)")
    args = parser.parse_args()
    srcs = [s.resolve() for s in (args.src or [Path(__file__).resolve().parent.parent / "src"])]
    use_strace = args.strace and shutil.which("strace") is not None
    compile_trees(srcs)
    samples: dict[tuple[str, int, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            for _rep in range(args.repeat):
                for case in args.cases.split(","):
                    for src in srcs:
                        row = one_run(src, size, case, Path(tmp), use_strace)
                        emit(**row)
                        samples.setdefault((str(src), size, case), []).append(row["wall_s"])
    for (tree, size, case), values in samples.items():
        emit(figure=f"{case}_wall_s_p50", tree=tree, files=size, p50_s=round(statistics.median(values), 3),
             files_per_s=round(size / statistics.median(values), 1), runs=len(values))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "0")
    main()
