"""Import benchmarks (issue 25). Prints one JSON object per line.

    python benchmarks/bench_import.py [--files N]
    python benchmarks/bench_import.py --writes --src /work/main/src --src src [--sizes 1000,8000] [--files N[,M…]]
    python benchmarks/bench_import.py --writes --src /work/main/src --src src --sizes '' --files 1000,10000 --timeout 900

Figures:
  write_ms          (``--writes``) in-process ``Memory.write`` of new memories into a project layer already
                    holding S memories (S of ``--sizes``; the layer seeded by hand-placed files taken in by one
                    write): the median milliseconds of ``--samples`` writes, per source tree (``--src``,
                    repeatable, runs alternating so a loaded machine slows both alike), and each tree's ratio
                    over the first's.
  import_files      (``--writes``) ``import dir`` of ``--files`` Markdown files (each count of the comma list) into an
                    empty home, per tree, trees alternating: seconds, items per second, memories listed and the
                    journal's import lines after it (each must be N). A run past ``--timeout`` seconds is stopped
                    and said so (``timed_out``; its items per second is then at most N / timeout). ``--sizes ''``
                    leaves the write_ms figures out.

Default figures:
  import_dir        ``import dir`` of N Markdown memory files (default 1,000, bodies of about
                    1-10 KB, some over the 2,000-character model limit) into an empty home:
                    items per second, and the second run's time (every item unchanged).
  import_claude_mem ``import claude-mem`` of a database of N observations (claude-mem's schema):
                    items per second, and the second run's time.
  export_reimport   ``export`` of the store in each format and its import into an empty home:
                    seconds, and whether the memories' text came back the same.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from memdir import Memory  # noqa: E402


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def timed(call):
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def texts(memory: Memory) -> dict:
    return {(m.scope, m.name): (m.description,) for m in memory.list(include_all=True).memories}


WORKER = r"""
import json, os, statistics, sys, time
from pathlib import Path
from memdir import Memory
mode, base, size, samples = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
project = base / "work" / "proj"
(project / ".git").mkdir(parents=True, exist_ok=True)
if mode == "writes":
    mem = Memory.open(home=base / "home", project=project, actor="human")
    mem.write("seed", "a seed memory", "project", body="seed", scope="project")
    layer = mem.session.layer("project").path
    for i in range(size - 1):
        (layer / f"hand-{i:05d}.md").write_text(
            f"---\nname: hand-{i:05d}\ndescription: hand note {i} on topic {i % 37}\ntype: project\n"
            f"created: 2026-11-01T00:00:00Z\nupdated: 2026-11-01T00:00:00Z\norigin: human\nstatus: active\n---\n\n"
            f"Note {i}: the team agreed on topic{i % 37}.\n", encoding="utf-8")
    mem = Memory.open(home=base / "home", project=project, actor="human")
    mem.write("taken-in", "the write that takes the hand files in", "project", body="x", scope="project")
    os.sync()  # the seeding's writeback (and the run before's) is not charged to the timed writes' fsyncs
    spent = []
    for i in range(samples):
        started = time.perf_counter()
        mem.write(f"bench-write-{i:03d}", f"bench write {i} of the billing staging port", "project",
                  body=f"Billing staging listens on port {9000 + i}.", scope="project")
        spent.append(time.perf_counter() - started)
    listed = len(mem.list(scope="project", include_all=True).memories)
    print(json.dumps({"ms": round(statistics.median(spent) * 1000, 2), "listed": listed}))
else:
    notes = base / "notes"
    for i in range(size):
        folder = notes / f"area-{i % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note-{i}.md").write_text(f"---\ndescription: Note {i} on topic {i}\ntype: project\n---\n"
                                             + f"Paragraph {i}: the service keeps its state in table t{i}. " * 4)
    mem = Memory.open(home=base / "home", project=project, actor="human")
    os.sync()
    started = time.perf_counter()
    report = mem.import_from("dir", str(notes), scope="project")
    seconds = time.perf_counter() - started
    listed = len(mem.list(scope="project", include_all=True).memories)
    layer = mem.session.layer("project").path
    lines = sum(1 for line in (layer / ".memdir" / "journal.jsonl").read_text().splitlines()
                if json.loads(line).get("actor") == "import")
    print(json.dumps({"seconds": round(seconds, 3), "imported": report.count("imported"), "listed": listed,
                      "journal_import_lines": lines}))
"""


def run_worker(src: Path, mode: str, size: int, samples: int, timeout: float | None = None) -> dict:
    """One fresh interpreter on ``src`` running :data:`WORKER` in a temporary home; its JSON answer
    (``{"timed_out": True, "seconds": timeout}`` when it ran past ``timeout`` seconds and was stopped)."""
    with tempfile.TemporaryDirectory(prefix="memdir-bench-writes-") as tmp:
        env = dict(os.environ, PYTHONPATH=str(src), HOME=tmp, MEMDIR_HOME=str(Path(tmp) / "home"),
                   MEMDIR_SEARCH_VECTORS="off")
        try:
            done = subprocess.run([sys.executable, "-c", WORKER, mode, tmp, str(size), str(samples)], env=env,
                                  capture_output=True, text=True, check=False, timeout=timeout)
        except subprocess.TimeoutExpired:  # subprocess.run killed it
            return {"timed_out": True, "seconds": timeout}
        if done.returncode != 0:
            raise SystemExit(f"{mode} at {size} failed in {src}: {done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def compare_writes(srcs: list[Path], sizes: list[int], files: list[int], samples: int, repeat: int,
                   timeout: float | None = None) -> None:
    """The ``--writes`` figures (see the module docstring), each tree in turn per repeat."""
    got: dict[tuple[str, str, int], list[float]] = {}
    for _ in range(repeat):
        for size in sizes:
            for src in srcs:
                row = run_worker(src, "writes", size, samples)
                emit(bench="write_ms", tree=str(src), memories=size, **row)
                got.setdefault(("write_ms", str(src), size), []).append(row["ms"])
        for count in files:
            for src in srcs:
                row = run_worker(src, "import", count, 0, timeout)
                emit(bench="import_files", tree=str(src), files=count, items_per_s=round(count / row["seconds"], 1),
                     **row)
                got.setdefault(("import_s", str(src), count), []).append(row["seconds"])
    for (bench, tree, size), values in got.items():
        first = statistics.median(got[(bench, str(srcs[0]), size)])
        emit(figure=f"{bench}_p50", tree=tree, size=size, p50=round(statistics.median(values), 3),
             ratio_over_first=round(statistics.median(values) / first, 3), runs=len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default="1000", help="files imported (--writes: a comma list, each timed)")
    parser.add_argument("--timeout", type=float, help="seconds an import run may take (--writes), else stopped")
    parser.add_argument("--writes", action="store_true", help="per-write cost by layer size, and import, per --src")
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time (repeatable; --writes)")
    parser.add_argument("--sizes", default="1000,8000", help="layer sizes for --writes")
    parser.add_argument("--samples", type=int, default=30, help="writes timed per layer (--writes)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per (tree, size) (--writes)")
    args = parser.parse_args()
    counts = [int(f) for f in args.files.split(",")]
    n = counts[0]
    if args.writes:
        srcs = [s.resolve() for s in (args.src or [ROOT / "src"])]
        compare_writes(srcs, [int(s) for s in args.sizes.split(",") if s], counts, args.samples, args.repeat,
                       args.timeout)
        return
    with tempfile.TemporaryDirectory(prefix="memdir-bench-import-") as tmp:
        base = Path(tmp)
        project = base / "work" / "proj"
        (project / ".git").mkdir(parents=True)
        notes = base / "notes"
        for i in range(n):
            folder = notes / f"area-{i % 20}"
            folder.mkdir(parents=True, exist_ok=True)
            body = f"Paragraph about topic {i}: the service keeps its state in table t{i}. " * (15 + i % 120)
            (folder / f"note-{i}.md").write_text(f"---\ndescription: Note {i} on topic {i}\ntype: project\n---\n{body}\n")
        person = Memory.open(home=base / "home", project=project, actor="human")
        first, seconds = timed(lambda: person.import_from("dir", str(notes)))
        second, again = timed(lambda: person.import_from("dir", str(notes)))
        emit(bench="import_dir", files=n, imported=first.count("imported"), cut=sum(o.kept == "cut" for o in
                                                                                     first.outcomes),
             seconds=round(seconds, 3), items_per_s=round(n / seconds, 1), second_run_s=round(again, 3),
             second_run_unchanged=second.count("unchanged"))

        from tests.importing.claude_mem_db import build

        db = base / "claude-mem.db"
        build(db, project.name, observations=n, other=0, summaries=0)
        other = Memory.open(home=base / "home-cm", project=project, actor="human")
        first, seconds = timed(lambda: other.import_from("claude-mem", str(db)))
        second, again = timed(lambda: other.import_from("claude-mem", str(db)))
        emit(bench="import_claude_mem", observations=n, imported=first.count("imported"),
             seconds=round(seconds, 3), items_per_s=round(n / seconds, 1), second_run_s=round(again, 3),
             second_run_unchanged=second.count("unchanged"))

        for fmt in ("memdir", "claude-code", "jsonl"):
            out = base / f"export-{fmt}"
            report, spent = timed(lambda: person.export(str(out), format=fmt))
            back = Memory.open(home=base / f"home-{fmt}", project=project, actor="human")
            if fmt == "jsonl":
                _, reimport = timed(lambda: back.import_from("jsonl", str(out / "memories.jsonl")))
            else:
                _, reimport = timed(lambda: back.import_from("dir", str(out / "project"), scope="project"))
            same = all(back.read(name, scope, count=False).record.body == person.read(name, scope, count=False)
                       .record.body for scope, name in list(texts(person))[:50])
            emit(bench="export_reimport", format=fmt, memories=len(report.exported), export_s=round(spent, 3),
                 reimport_s=round(reimport, 3), same_text=same and texts(back) == texts(person))


if __name__ == "__main__":
    main()
