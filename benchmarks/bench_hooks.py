"""Hook benchmarks (issue 5: agent integration). Prints one JSON object per line.

    python benchmarks/bench_hooks.py [--quick]

Figures (p50 and p95 wall time of a fresh process, stdin = a real SessionStart input,
cwd = a project with 2 layers × 200 memories of the benchmarks' corpus, benchmarks/_corpus.py:
100–400 words of one domain's vocabulary):
  python_baseline     `python3 -c pass` with the same interpreter.
  session_start       the installed command: `python -m memdir.hooks claude-code SessionStart`.
  session_start_cli   the same through the CLI: `python -m memdir.cli hook claude-code SessionStart`.
  session_end         `... SessionEnd`: queue one line and start the detached drain.
  user_prompt_submit  `... UserPromptSubmit`: the recall block for a prompt (BM25; vectors off, so the
                      figure is the index's freshness sweep and ranking, not a model load).
Each line also gives the overhead over the baseline in milliseconds.
The prompt hook with vectors on, on 1,000 embedded memories (p95 against
`python -c pass`, target ≤ 15×), is measured by `benchmarks/bench_recall.py`,
which builds and embeds that store once for the needle figures too.

    python benchmarks/bench_hooks.py --fresh [--src DIR ...]

times SessionStart and UserPromptSubmit (and `python -c pass`) at 1,000 and 10,000 memories of
100–400 words of one domain's vocabulary, with the 10k/1k ratio (target ≤ 1.3×); several trees
alternately in one run with --src (benchmarks/_fresh.py); --edited: each timed run is the first
after one memory file was edited by hand (a new inode, as ``sed -i`` writes it); --touched: the first after a
``touch`` of the project layer's directory (no file changed); --cjk 0.03: that share of
the memories written in Chinese, Japanese and Korean (with --commands scripts_of_rows: a query's scripts step alone).

    python benchmarks/bench_hooks.py --fresh --instructions [--src DIR ...]

counts instructions (valgrind's callgrind: noise-free where wall time is not) of one fresh process
of each command — ``python -c pass``, ``memdir context`` by ``python -m memdir`` and by the installed
console script (as a person types it), SessionStart by ``python -m memdir.hooks`` (user-scope
installs) and by ``memdir hook`` (project-scope installs) — at 1,000 and 10,000 memories, with
each one's ratio over ``python -c pass`` (issue 28: ``memdir context`` ≤ 2.6×); with --edited or --touched,
the counted run is the first after that hand change.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import corpus  # noqa: E402

from memdir import Memory  # noqa: E402


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def run_timed(argv: list[str], payload: str, env: dict, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(argv, input=payload, capture_output=True, text=True, env=env)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{argv} failed: {done.stderr}")
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--fresh", action="store_true", help="only the figures at 1,000 and 10,000 memories")
    parser.add_argument("--src", action="append", type=Path, help="with --fresh: a src/ tree to time (repeatable)")
    parser.add_argument("--sizes", default="1000,10000", help="with --fresh: memory counts")
    parser.add_argument("--repeat", type=int, default=15, help="with --fresh: runs per command")
    parser.add_argument("--commands", default="python_pass,session_start,user_prompt_submit",
                        help="with --fresh: which commands (benchmarks/_fresh.py)")
    parser.add_argument("--edited", action="store_true",
                        help="with --fresh: one memory file edited by hand (sed -i) before each timed run")
    parser.add_argument("--touched", action="store_true",
                        help="with --fresh: the project layer's directory touched (mtime moved) before each timed run")
    parser.add_argument("--instructions", action="store_true",
                        help="with --fresh: count instructions (valgrind) instead of timing; commands default "
                             "to python_pass,context,context_script,session_start,session_start_script")
    parser.add_argument("--cjk", type=float, default=0.0,
                        help="with --fresh: this share (0-1) of the memories written in Chinese, Japanese, Korean")
    args = parser.parse_args()
    if args.fresh and args.instructions:
        from _fresh import run_instructions

        names = (args.commands if "--commands" in sys.argv else
                 "python_pass,context,context_script,session_start,session_start_script").split(",")
        with tempfile.TemporaryDirectory() as tmp:
            run_instructions(args.src or [SRC], [int(s) for s in args.sizes.split(",")], names, Path(tmp),
                             lambda **line: emit(**line), edited=args.edited, touched=args.touched)
        return
    if args.fresh:
        from _fresh import run

        with tempfile.TemporaryDirectory() as tmp:
            run(args.src or [SRC], [int(s) for s in args.sizes.split(",")], args.commands.split(","),
                args.repeat, Path(tmp), lambda **line: emit(**line), edited=args.edited, cjk=args.cjk, touched=args.touched)
        return
    repeat = 7 if args.quick else 25
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        project = base / "proj"
        (project / ".git").mkdir(parents=True)
        home = base / "home"
        mem = Memory.open(home=home, project=project, actor="human")
        for scope, seed in (("user", 1), ("project", 2)):
            notes, questions = corpus(200, seed, facts=1)
            for name, description, body in notes:
                mem.write(name, description, "project", body, scope=scope)
        # As installed: pip writes .pyc files; this environment may set PYTHONDONTWRITEBYTECODE.
        import compileall

        compileall.compile_dir(str(SRC / "memdir"), quiet=1)
        env = dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(SRC), HOME=str(base))
        start_input = json.dumps({"session_id": "bench", "transcript_path": str(base / "t.jsonl"),
                                  "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"})
        py = sys.executable
        out = subprocess.run([py, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=start_input,
                             capture_output=True, text=True, env=env)
        context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
        base_t = statistics.median(run_timed([py, "-c", "pass"], "", env, repeat))
        emit(figure="python_baseline", p50_ms=round(base_t * 1000, 1), runs=repeat)
        prompt_input = json.dumps({**json.loads(start_input), "hook_event_name": "UserPromptSubmit",
                                   "prompt": questions[0][0]})
        cases = (
            ("session_start", [py, "-m", "memdir.hooks", "claude-code", "SessionStart"], start_input, env),
            ("session_start_cli", [py, "-m", "memdir.cli", "hook", "claude-code", "SessionStart"], start_input,
             env),
            ("session_end", [py, "-m", "memdir.hooks", "claude-code", "SessionEnd"],
             start_input.replace("SessionStart", "SessionEnd"), env),
            ("user_prompt_submit", [py, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"], prompt_input,
             dict(env, MEMDIR_SEARCH_VECTORS="off")),
        )
        run_timed(cases[-1][1], prompt_input, cases[-1][3], 1)  # builds index.sqlite once
        for name, argv, payload, case_env in cases:
            samples = sorted(run_timed(argv, payload, case_env, repeat))
            t, p95 = statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.95))]
            extra = {"context_chars": len(context)} if name == "session_start" else {}
            emit(figure=name, p50_ms=round(t * 1000, 1), p95_ms=round(p95 * 1000, 1),
                 over_baseline_ms=round((t - base_t) * 1000, 1), ratio=round(t / base_t, 2), runs=repeat, **extra)
        time.sleep(0.5)  # let the detached drains started by session_end finish before cleanup


if __name__ == "__main__":
    main()
