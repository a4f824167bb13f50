"""Review with many candidates: ``Memory.review`` and the panel page's per-item ``candidate()``.
Prints one JSON object per line.

    python benchmarks/bench_review.py --src /tmp/snap-main/src --src src [--files 1500 --candidates 300]

Each tree (``--src``, a checkout's src/, repeatable) seeds its own home with its own code: a project layer
of ``--files`` files — the benchmarks' corpus (benchmarks/_corpus.py) copied in by hand and taken up, then
``--candidates`` candidates written by the agent (two thirds changes of a memory of the layer, a third new
memories). Then, in one fresh process per tree and run (runs alternate between trees so a loaded machine
slows all alike), a person's ``Memory.review("project")`` is timed, and after it what the panel's review
page does per item (memdir.integrations.panel.views._candidates): ``candidate(name, "project",
as_approved=True)`` for every candidate shown. Each figure: the median over ``--repeat`` runs, and its
ratio over the first tree's. Before the fix, each candidate scanned its whole layer
(memdir.operations.trust._find_pending): 300 candidates in 1,500 files stat'ed about 900,000 files.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fresh import compile_trees, write_corpus

SEED = textwrap.dedent("""
    import shutil, sys
    from pathlib import Path
    from memdir import Memory
    home, project, corpus, changes, new = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    person = Memory.open(home=home, project=project, actor="human")
    layer = person.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    for path in corpus.iterdir():
        shutil.copyfile(path, layer.path / path.name)
    layer.refresh_index()
    agent = Memory.open(home=home, project=project)
    for name in sorted(layer.scan().names)[:changes]:
        agent.write(name, f"a proposed change of {name}", "project", f"The agent's new text of {name}.",
                    scope="project", status="candidate")
    for i in range(new):
        agent.write(f"proposed-{i:04d}", f"a proposed memory {i}: the staging queue {i} drains at {i} per second",
                    "project", f"Body of proposal {i}.", scope="project", status="candidate")
""")

TIME = textwrap.dedent("""
    import json, sys, time
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    start = time.perf_counter()
    shown = mem.review("project").candidates
    review = time.perf_counter() - start
    start = time.perf_counter()
    records = [mem.candidate(c.name, "project", as_approved=True).record for c in shown]
    items = time.perf_counter() - start
    print(json.dumps({"review_s": review, "candidate_s": items, "shown": len(shown),
                      "changes": sum(c.change == "change" for c in shown), "records": len(records)}))
""")


def _env(src: Path, home: Path, base: Path) -> dict:
    return dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(src), HOME=str(base), MEMDIR_SEARCH_VECTORS="off")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time (repeatable)")
    parser.add_argument("--files", type=int, default=1500, help="memory files of the project layer, candidates included")
    parser.add_argument("--candidates", type=int, default=300, help="candidates among them")
    parser.add_argument("--repeat", type=int, default=1, help="fresh-process runs per tree")
    args = parser.parse_args()
    srcs = [src.resolve() for src in args.src or [Path(__file__).resolve().parent.parent / "src"]]
    emit = lambda **line: print(json.dumps(line), flush=True)
    changes = args.candidates * 2 // 3
    py = sys.executable
    compile_trees(srcs)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        write_corpus(corpus, args.files - args.candidates)
        homes = []
        for t, src in enumerate(srcs):
            base = work / f"t{t}"
            project, home = base / "proj", base / "home"
            (project / ".git").mkdir(parents=True)
            env = _env(src, home, base)
            subprocess.run([py, "-c", SEED, str(home), str(project), str(corpus), str(changes),
                            str(args.candidates - changes)], env=env, check=True)
            homes.append((home, project, env))
            emit(setup="review", tree=str(src), files=args.files, candidates=args.candidates)
        runs: list[list[dict]] = [[] for _ in srcs]
        for _ in range(args.repeat):
            for t, (home, project, env) in enumerate(homes):
                done = subprocess.run([py, "-c", TIME, str(home), str(project)], env=env, text=True,
                                      capture_output=True, check=False)
                if done.returncode != 0:
                    raise SystemExit(f"review failed in {srcs[t]}: {done.stderr[-2000:]}")
                runs[t].append(json.loads(done.stdout))
        first = {}
        for t, src in enumerate(srcs):
            for figure in ("review_s", "candidate_s"):
                median = statistics.median(run[figure] for run in runs[t])
                first.setdefault(figure, median)
                emit(figure=figure[:-2], tree=str(src), files=args.files, candidates=args.candidates,
                     shown=runs[t][0]["shown"], changes=runs[t][0]["changes"], runs=args.repeat,
                     seconds=round(median, 3), over_first=round(median / first[figure], 3))


if __name__ == "__main__":
    main()
