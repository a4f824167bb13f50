"""What a fresh hot path costs after the layer directory's mtime moved with no file changed (issue 28 §7: a ``touch``
of the folder, or any file added, removed or replaced by hand). Prints one JSON object per line.

    python benchmarks/bench_touch.py [--sizes 1000,10000] [--repeat 5] [--src DIR ...]

For each size, a project layer of that many memories (plain files, adopted once; the search index built; the
layer's sweep recorded within the interval: ``MEMDIR_SWEEP_INTERVAL=3600``, as after the detached sweeper ran), and
for each command — ``memdir context``, the SessionStart hook, the UserPromptSubmit hook (vectors off), a CLI write
of a new memory — in a fresh process, each run right after ``os.utime`` of the layer directory:

  wall_ms   median wall time of ``--repeat`` runs;
  stats     the stat/lstat calls on memory files of the layer in one more such run (counted by wrapping
            ``os.stat``, ``os.lstat`` and ``os.scandir``'s entries in the child);

and, per command and tree, the 10k/1k ratio of wall time (target ≤ 1.3×). ``--src``: time several ``src/`` trees
(e.g. main's and this branch's) on the same stores, alternately, in one run.
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

SRC = Path(__file__).resolve().parent.parent / "src"

COUNT = r"""
import atexit, json, os, runpy, sys
layer_dir = os.environ["COUNT_LAYER"]
stats = [0]
def mine(path):
    path = os.fspath(path)
    return os.path.dirname(path) == layer_dir and path.endswith(".md") and not path.endswith("MEMORY.md")
real_stat, real_lstat, real_scandir = os.stat, os.lstat, os.scandir
def counted(real):
    def call(path, *a, **kw):
        if isinstance(path, (str, bytes, os.PathLike)) and mine(path):
            stats[0] += 1
        return real(path, *a, **kw)
    return call
class Entry:
    def __init__(self, entry): self._entry = entry
    def __getattr__(self, name): return getattr(self._entry, name)
    def stat(self, **kw):
        if mine(self._entry.path): stats[0] += 1
        return self._entry.stat(**kw)
class Listing:
    def __init__(self, listing): self._listing = listing
    def __enter__(self): return self
    def __exit__(self, *exc): self._listing.close()
    def __iter__(self): return (Entry(e) for e in self._listing)
    def close(self): self._listing.close()
os.stat, os.lstat = counted(real_stat), counted(real_lstat)
os.scandir = lambda p=".": Listing(real_scandir(p))
main = os.getpid()
def told():
    if os.getpid() == main:
        with open(os.environ["COUNTS_TO"], "a") as out:
            out.write(json.dumps(stats[0]) + "\n")
atexit.register(told)
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def build(base: Path, size: int) -> tuple[Path, Path, Path]:
    """A home with a project layer of ``size`` memories, adopted: (home, project, layer directory)."""
    sys.path.insert(0, str(SRC))
    from memdir import Memory

    home, project = base / "home", base / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=home, project=project, actor="human")
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(size):
        (layer.path / f"note-{i:05d}.md").write_text(
            f"---\nname: note-{i:05d}\ndescription: service {i % 97} runs on port {4000 + i}\ntype: project\n"
            f"updated: 2026-11-01T00:00:00Z\n---\n\nThe service {i % 97} of team {i % 13} listens on port {4000 + i}.\n")
    time.sleep(2.1)  # past the clock tick of the writes: their stat keys are trusted
    layer.refresh_index()
    return home, project, layer.path


def settle(meta: Path, timeout: float = 120.0) -> None:
    """Wait until no detached sweeper holds the layer's sweep lock."""
    import fcntl

    lock = meta / "sweep.lock"
    if not lock.exists():
        return
    fd = os.open(lock, os.O_RDWR)
    try:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
                return
            except OSError:
                time.sleep(0.05)
    finally:
        os.close(fd)


def commands(project: Path) -> dict[str, tuple[list[str], str]]:
    hook_input = {"session_id": "SESSION", "cwd": str(project), "source": "startup"}  # a new session each run
    prompt = dict(hook_input, hook_event_name="UserPromptSubmit", prompt="which port does service 42 listen on")
    return {
        "context": (["-m", "memdir", "--project", str(project), "context"], ""),
        "session_start": (["-m", "memdir.hooks", "claude-code", "SessionStart"],
                          json.dumps(dict(hook_input, hook_event_name="SessionStart"))),
        "user_prompt_submit": (["-m", "memdir.hooks", "claude-code", "UserPromptSubmit"], json.dumps(prompt)),
        "cli_write": (["-m", "memdir", "--project", str(project), "write", "NAME", "-d", "a note written in the bench",
                       "-b", "body"], ""),
    }


def run(argv: list[str], payload: str, env: dict, layer_dir: Path, counted: bool) -> tuple[float, int | None]:
    os.utime(layer_dir)  # the directory's mtime moves; no file changed
    argv = [a if a != "NAME" else f"bench-{time.time_ns()}" for a in argv]
    payload = payload.replace("SESSION", f"bench-{time.time_ns()}")  # a hook's once-per-session record: never met
    counts = Path(tempfile.mktemp(prefix="counts-"))
    full = [sys.executable, "-c", COUNT, *argv[1:]] if counted else [sys.executable, *argv]
    started = time.perf_counter()
    done = subprocess.run(full, input=payload, capture_output=True, text=True, check=False,
                          env=dict(env, COUNTS_TO=str(counts), COUNT_LAYER=str(layer_dir)))
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed: {done.stderr}")
    stats = json.loads(counts.read_text().splitlines()[-1]) if counted else None
    counts.unlink(missing_ok=True)
    return wall, stats


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time (repeatable)")
    args = parser.parse_args()
    trees = [p.resolve() for p in (args.src or [SRC])]
    sizes = [int(s) for s in args.sizes.split(",")]
    walls: dict[tuple[str, str, int], float] = {}
    base = Path(tempfile.mkdtemp(prefix="bench-touch-"))
    try:
        for size in sizes:
            home, project, layer_dir = build(base / str(size), size)
            for name, (argv, payload) in commands(project).items():
                for tree in trees:
                    env = dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(tree), HOME=str(base),
                               MEMDIR_SWEEP_INTERVAL="3600", MEMDIR_SEARCH_VECTORS="off")
                    run(argv, payload, env, layer_dir, False)  # warm: the search index built, caches
                    settle(layer_dir / ".memdir")
                    samples = []
                    for _ in range(args.repeat):
                        samples.append(run(argv, payload, env, layer_dir, False)[0])
                        settle(layer_dir / ".memdir")
                    _, stats = run(argv, payload, env, layer_dir, True)
                    settle(layer_dir / ".memdir")
                    walls[(str(tree), name, size)] = statistics.median(samples)
                    emit(command=name, memories=size, src=str(tree), after="touch of the layer directory",
                         wall_ms=round(statistics.median(samples) * 1000, 1), stats=stats, runs=args.repeat)
        if len(sizes) >= 2:
            small, large = sizes[0], sizes[-1]
            for (tree, name, size), wall in walls.items():
                if size == small and (tree, name, large) in walls:
                    emit(command=name, src=tree, ratio=f"{large}/{small}",
                         wall_ratio=round(walls[(tree, name, large)] / wall, 2))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
