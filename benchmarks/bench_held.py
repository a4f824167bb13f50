"""The first `memdir context` after the tombstones changed behind memdir's back (a pull, a sync), issue 28 §7.

A file a tombstone of its layer and name matches is held back (:mod:`memdir.layer.held`); when the
tombstones' mtime moves, the files are judged again. This times, in fresh processes, `memdir context`
right after the project layer's ``.memdir/tombstones.json`` was rewritten with the same bytes (a new
file renamed over it, as git or a sync writes it: its mtime moves, no verdict does) against the same
command with nothing changed (``--cases``: also ``stones_flipped``, the held file's tombstone lifted through
memdir and put back by a sync by turns in an untimed step, so each run's verdict on the held file moves, and
``stones_flipped_write``, the same flip followed by a ``memdir write`` instead; ``stones_flipped_search`` and
``stones_flipped_prompt``, followed by ``memdir search`` of the held memory's words, or by the prompt hook
asked about it: the first reader after a lift or forget done in another process), at each size, for each source tree (``--src``,
repeatable: main and a branch in one run, runs alternating so a loaded machine slows both alike). Each home: 20 user memories
and N project memories (benchmarks/_corpus.py), and one more forgotten and its file copied back (held).
The layers' sweeps are kept within their interval (MEMDIR_SWEEP_INTERVAL=3600) so both runs do the same
work but the judgement. One JSON line per (tree, size, case), per (tree, size) each case's ratio over the
first (``unchanged``), and per (tree, case) the ratio at the largest size over the smallest.

    python benchmarks/bench_held.py --src /work/main/src --src src --sizes 1000,10000 --repeat 9
    python benchmarks/bench_held.py --src /work/main/src --src src --cases unchanged,stones_flipped,stones_flipped_write
    python benchmarks/bench_held.py --src /work/main/src --src src \
        --cases search_unchanged,stones_flipped_search,prompt_unchanged,stones_flipped_prompt

A tombstone lifted by rewriting ``tombstones.json`` is put back by the layer's next transaction (a lift cut
before its journal line: :func:`memdir.layer.drift.cut_tombstones`), so the flip lifts through memdir
(:data:`LIFT`, another process) and puts the tombstone back as a sync brings it (the bytes it had: the
journal names it, so it stands) — the verdict-moving cases of a personal layer.
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
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fresh import _env, commands, compile_trees, seed_homes, settle_sweeps

HOLD = textwrap.dedent("""
    import shutil, sys
    from pathlib import Path
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    layer = mem.session.layer("project")
    mem.write("held-note", "Dev PostgreSQL of the held benchmark listens on 5433", "project",
              "Ask in #infra before changing it.", scope="project")
    path = layer.path / "held-note.md"
    kept = Path(sys.argv[3]) / path.name
    shutil.copyfile(path, kept)
    mem.forget("held-note", scope="project")
    assert (layer.meta / "tombstones.json").exists()
    shutil.copyfile(kept, path)  # put back by hand: held back
    print(path.name[:-3])
""")


LIFT = textwrap.dedent("""
    import sys
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    [stone] = [s for s in mem.tombstones(scope="project").tombstones if s.name == sys.argv[3]]
    mem.lift_tombstone(stone.id, scope="project")
""")


ASKED = "Which port does the Dev PostgreSQL of the held benchmark listen on?"


def readers(project: Path) -> dict[str, tuple[list[str], str]]:
    """The first readers the ``stones_flipped_*`` cases time (and ``*_unchanged``, the same readers after no flip):
    case → (argv after the interpreter, stdin); each answers with the held memory while its tombstone is lifted,
    without it while it stands."""
    argv, stdin = commands(project)["user_prompt_submit"]
    search = (["-m", "memdir", "--project", str(project), "search", "held benchmark"], "")  # few rows: the sync shows
    prompt = (argv, json.dumps({**json.loads(stdin), "prompt": ASKED}))
    return {"stones_flipped_search": search, "stones_flipped_prompt": prompt,
            "search_unchanged": search, "prompt_unchanged": prompt}  # the same readers, nothing flipped before


def figure(case: str) -> str:
    """The name a case's figures go by: the command it times — ``context_<case>`` for the cases that time
    ``memdir context``, the case's own name for those that time another reader (``stones_flipped_write``: a
    write; ``stones_flipped_search``, ``search_unchanged``: ``memdir search``; ``*_prompt``, ``prompt_*``: the
    prompt hook), which names it already."""
    return case if any(word in case.split("_") for word in ("write", "search", "prompt")) else f"context_{case}"


def emit(**data) -> None:
    """One JSON line on stdout."""
    print(json.dumps(data), flush=True)


def rewrite(path: Path, data: bytes | None = None) -> None:
    """``path`` written again (``data``, else the same bytes), as git or a sync writes it (a new file renamed
    over it)."""
    data = path.read_bytes() if data is None else data
    temp = path.with_name(path.name + ".pulled")
    temp.write_bytes(data)
    os.replace(temp, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", action="append", type=Path, help="a src/ tree to time (repeatable)")
    parser.add_argument("--sizes", default="1000,10000", help="project memory counts")
    parser.add_argument("--repeat", type=int, default=9, help="runs per (tree, size, case)")
    parser.add_argument("--cases", default="unchanged,stones_rewritten",
                        help="unchanged, stones_rewritten (same bytes), stones_flipped (lifted / put back by turns),"
                             " stones_flipped_write (the same, then a CLI write timed), stones_flipped_search,"
                             " stones_flipped_prompt (then memdir search / the prompt hook timed), search_unchanged,"
                             " prompt_unchanged (those readers, nothing flipped)")
    args = parser.parse_args()
    srcs = args.src or [Path(__file__).resolve().parent.parent / "src"]
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = args.cases.split(",")
    py = sys.executable
    compile_trees(srcs)
    medians: dict[tuple[str, int, str], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for size in sizes:
            homes = seed_homes(srcs, size, work, emit)
            shutil.rmtree(work / f"corpus-{size}")
            runs = {}
            for t, src in enumerate(srcs):
                base, home, project, cmds = homes[t]
                env = dict(_env(src, home, base), MEMDIR_SWEEP_INTERVAL="3600")
                held = subprocess.run([py, "-c", HOLD, str(home), str(project), str(base)], env=env, text=True,
                                      capture_output=True, check=True).stdout.strip()
                stones = next(home.glob("projects/*/.memdir/tombstones.json"))
                argv = cmds["context"][0]
                first = subprocess.run([py, *argv], env=env, text=True, capture_output=True, check=True)
                settle_sweeps(home)
                emit(setup="held", tree=str(src), memories=size, held=held,
                     held_in_context=held in first.stdout)
                runs[t] = (env, stones, argv, home, stones.read_bytes(), project, held)
            samples: dict[tuple[int, str], list[float]] = {}
            missed: dict[int, int] = {}  # runs of stones_flipped after which MEMORY.md did not follow the verdict
            for rep in range(args.repeat):
                for t in range(len(srcs)):
                    env, stones, argv, home, forgotten, project, held = runs[t]
                    for case in cases:
                        timed, stdin = argv, None
                        if case == "stones_rewritten":
                            rewrite(stones)
                        elif case.startswith("stones_flipped"):  # lifted through memdir, then put back by a sync
                            lifted = f'"{held}"'.encode() in stones.read_bytes()
                            if lifted:
                                subprocess.run([py, "-c", LIFT, str(home), str(project), held], env=env, check=True)
                            else:
                                rewrite(stones, forgotten)
                            settle_sweeps(home)
                        if case == "stones_flipped_write":
                            timed = ["-m", "memdir", "--project", str(project), "write", "bench-written", "--scope",
                                     "project", "--description", "Written by the held benchmark", "--body", f"run {rep}"]
                        if case in ("stones_flipped_search", "stones_flipped_prompt", "search_unchanged",
                                    "prompt_unchanged"):
                            timed, stdin = readers(project)[case]
                        started = time.perf_counter()
                        done = subprocess.run([py, *timed], env=env, text=True, capture_output=True, check=False,
                                              input=stdin)
                        elapsed = time.perf_counter() - started
                        if done.returncode != 0:
                            raise SystemExit(f"{case} failed in {srcs[t]}: {done.stderr}")
                        index = (stones.parent.parent / "MEMORY.md").read_text(encoding="utf-8")
                        if case == "stones_flipped" and (f"({held}.md)" in index) != lifted:  # MEMORY.md missed the move
                            missed[t] = missed.get(t, 0) + 1
                        if case in ("stones_flipped_search", "stones_flipped_prompt") and (
                                ("listens on 5433" in done.stdout or f"{held} " in done.stdout) != lifted):
                            missed[t] = missed.get(t, 0) + 1  # the reader missed the move
                        samples.setdefault((t, case), []).append(elapsed)
                        settle_sweeps(home)
                        if case == "stones_flipped_write":  # untimed: each case starts from a store a context settled
                            subprocess.run([py, *argv], env=env, text=True, capture_output=True, check=True)
                            settle_sweeps(home)
            for t, src in enumerate(srcs):
                for case in cases:
                    values = samples[(t, case)]
                    medians[(str(src), size, case)] = statistics.median(values)
                    emit(figure=figure(case), tree=str(src), memories=size,
                         p50_ms=round(statistics.median(values) * 1e3, 1), max_ms=round(max(values) * 1e3, 1),
                         runs=len(values))
                if any(case.startswith("stones_flipped") for case in cases):  # MEMORY.md's, search's, the hook's
                    emit(figure="stones_flipped_missed", tree=str(src), memories=size, runs=missed.get(t, 0))
                for case in cases[1:]:
                    emit(figure=f"{figure(case)}_over_{cases[0]}", tree=str(src), memories=size,
                         ratio=round(medians[(str(src), size, case)] / medians[(str(src), size, cases[0])], 2))
            for t in range(len(srcs)):
                shutil.rmtree(homes[t][0])
    small, large = min(sizes), max(sizes)
    if small != large:
        for src in srcs:
            for case in cases:
                emit(figure=f"{figure(case)}_scaling", tree=str(src),
                     **{f"ratio_{large}_over_{small}": round(medians[(str(src), large, case)]
                                                              / medians[(str(src), small, case)], 2)})


if __name__ == "__main__":
    main()
