"""The session's first prompt and the warm process (issue 28 item 5). Prints one JSON object per line.

    python benchmarks/bench_first_prompt.py [--runs N] [--src DIR]

A home of five embedded memories, one of which only meaning finds for the prompt
"how long do we keep users logged in?" (its memory: "Login sessions are kept in Redis database 3
with a 14-day TTL"; recall by words gives nothing, recall with the prompt's cosines gives it).
Figures (fresh processes, the warm process stopped between runs):
  warm_start          launch → the socket listens, launch → the model answers (p50, max seconds).
  first_prompt        the real SessionStart hook, then at once the real prompt hook: how many runs
                      recalled the paraphrase's memory, and the prompt hook's wall time (p50/p95 ms).
  prompt_no_warm      the prompt hook with vectors on and no warm process running or starting
                      (words alone; the hook starts one at its end, stopped before the next run).
  prompt_vectors_off  the prompt hook with search_vectors = off (bench_hooks' user_prompt_submit).
  first_session       a home with the memories on disk and no search index: the real SessionStart hook (which
                      starts the first-session build, memdir.search.warm.first), then at once the real prompt
                      hook: how many runs recalled the paraphrase's memory, the prompt hook's wall time and its
                      CPU time (p50/p95 ms; a prompt that builds the index itself, beside the build, spends it
                      here), and how many prompt hooks ran in the warm process.
``--figure NAME`` (repeatable) runs only those figures.
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
if "--src" in sys.argv[:-1]:  # another tree's code (an older checkout, to compare): read before memdir is imported
    SRC = Path(sys.argv[sys.argv.index("--src") + 1]).resolve()
sys.path.insert(0, str(SRC))
os.environ["PYTHONPATH"] = str(SRC)  # the warm processes launch() starts run the same code

from memdir import Memory  # noqa: E402
from memdir.search import warm  # noqa: E402

PARAPHRASE = "how long do we keep users logged in?"
ANSWER = "14-day TTL"
MEMORIES = (
    ("backups", "database backups", "Database backups run nightly at 02:00 to the cold bucket."),
    ("lunch", "team lunch", "Team lunch is on Fridays at noon in the cafeteria."),
    ("pg-port", "dev database port", "PostgreSQL listens on 5433 on the dev machine."),
    ("redis-sessions", "User sessions live in Redis db 3",
     "Login sessions are kept in Redis database 3 with a 14-day TTL."),
    ("ci-runner", "CI runs on the self-hosted runner ci-box-2",
     "GitHub Actions jobs use runs-on self-hosted ci-box-2."),
)


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def stop_warm(home: Path, launched: bool = True) -> None:
    """Stop the home's standalone warm process — ``launched``: one was started, so wait until it listens
    first — and forget its launch (nothing runs or starts after)."""
    deadline = time.monotonic() + 10
    while launched and not warm.listening(home) and time.monotonic() < deadline:
        time.sleep(0.02)
    warm.stop(home)
    while warm.listening(home) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)  # its lock released, its log line written
    for name in ("warm.starting",):
        (home / name).unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--src", type=Path, help="the src/ tree to run (default: this checkout's)")
    parser.add_argument("--figure", action="append", help="run only this figure (repeatable)")
    args = parser.parse_args()
    wanted = set(args.figure or ("warm_start", "first_prompt", "prompt_no_warm", "prompt_vectors_off",
                                 "first_session"))
    if wanted == {"first_session"}:
        first_session(args.runs)
        return
    from memdir.search.index import layer_key
    from memdir.search.sync import prepare, sync

    with tempfile.TemporaryDirectory(prefix="mfp", dir="/tmp") as tmp:
        base = Path(tmp)
        project, home = base / "p", base / "h"
        (project / ".git").mkdir(parents=True)
        mem = Memory.open(home=home, project=project, search_vectors="on")
        for name, description, body in MEMORIES:
            mem.write(name, description, "project", body)
        assert prepare(mem.session) == len(MEMORIES)
        layers = mem.session.layers()
        conn = sync(home, layers)
        generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        keys = [layer_key(home, layer.path) for layer in layers]
        env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on", PYTHONPATH=str(SRC))
        py = sys.executable

        def hook(event: str, session: str, setting: str = "on", **fields) -> tuple[float, str]:
            payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": event, **fields})
            start = time.perf_counter()
            done = subprocess.run([py, "-m", "memdir.hooks", "claude-code", event], input=payload,
                                  capture_output=True, text=True, env=dict(env, MEMDIR_SEARCH_VECTORS=setting))
            return time.perf_counter() - start, done.stdout

        listens, answers = [], []
        for _ in range(args.runs if "warm_start" in wanted else 0):
            start = time.monotonic()
            assert warm.launch(home)
            while not warm.listening(home):
                time.sleep(0.005)
            listens.append(time.monotonic() - start)
            while warm.ask(home, "warm up", keys, generation) is None:
                time.sleep(0.01)
            answers.append(time.monotonic() - start)
            stop_warm(home)
        if "warm_start" in wanted:
            emit(figure="warm_start", src=str(SRC), listening_p50_s=round(statistics.median(listens), 3),
                 listening_max_s=round(max(listens), 3), model_p50_s=round(statistics.median(answers), 3),
                 model_max_s=round(max(answers), 3), runs=args.runs)

        hits, walls = 0, []
        for run in range(args.runs if "first_prompt" in wanted else 0):
            hook("SessionStart", f"s{run}", source="startup")
            wall, out = hook("UserPromptSubmit", f"s{run}", prompt=PARAPHRASE)
            walls.append(wall)
            hits += ANSWER in out
            stop_warm(home)
        if "first_prompt" in wanted:
            emit(figure="first_prompt", recalled=hits, runs=args.runs, p50_ms=round(statistics.median(walls) * 1e3),
                 p95_ms=round(pct(walls, 0.95) * 1e3))

        for figure, setting in (("prompt_no_warm", "on"), ("prompt_vectors_off", "off")):
            if figure not in wanted:
                continue
            hits, walls = 0, []
            for run in range(args.runs):
                wall, out = hook("UserPromptSubmit", f"c{figure}{run}", setting, prompt=PARAPHRASE)
                walls.append(wall)
                hits += ANSWER in out
                stop_warm(home, launched=setting == "on")
            emit(figure=figure, recalled=hits, runs=args.runs, p50_ms=round(statistics.median(walls) * 1e3),
                 p95_ms=round(pct(walls, 0.95) * 1e3))

    if "first_session" in wanted:
        first_session(args.runs)


def first_session(runs: int) -> None:
    """The ``first_session`` figure (module docstring): a fresh home each run, its build waited for and its warm
    process stopped before the next."""
    hits, walls, cpus, relayed = 0, [], [], 0
    for run in range(runs):
        with tempfile.TemporaryDirectory(prefix="mfs", dir="/tmp") as tmp:
            project, home = Path(tmp) / "p", Path(tmp) / "h"
            (project / ".git").mkdir(parents=True)
            mem = Memory.open(home=home, project=project, search_vectors="off")
            for name, description, body in MEMORIES:
                mem.write(name, description, "project", body)
            assert not (home / "index.sqlite").exists()
            env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on", PYTHONPATH=str(SRC))

            timed_hook(env, project, f"f{run}", "SessionStart", source="startup")
            wall, cpu, out = timed_hook(env, project, f"f{run}", "UserPromptSubmit", prompt=PARAPHRASE)
            walls.append(wall)
            cpus.append(cpu)
            hits += ANSWER in out
            deadline = time.monotonic() + 120
            while "first session:" not in read(home / "embed.log") and time.monotonic() < deadline:
                time.sleep(0.05)
            stop_warm(home, launched=(home / "warm.log").exists())
            relayed += warm_answered(home) > 0
    emit(figure="first_session", src=str(SRC), recalled=hits, runs=runs, in_warm=relayed,
         p50_ms=round(statistics.median(walls) * 1e3), p95_ms=round(pct(walls, 0.95) * 1e3),
         cpu_p50_ms=round(statistics.median(cpus) * 1e3), cpu_p95_ms=round(pct(cpus, 0.95) * 1e3))


def timed_hook(env: dict, project: Path, session: str, event: str, **fields) -> tuple[float, float, str]:
    """One real Claude Code hook in a fresh process: (wall seconds, CPU seconds of the process, its stdout)."""
    import resource

    payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": event, **fields})
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], input=payload,
                          capture_output=True, text=True, env=env, check=False)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), done.stdout


def read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def warm_answered(home: Path) -> int:
    """How many requests the home's warm process answered, from its exit line ("… 1 answered: …"; 0 without one):
    the prompt hook is its only asker here."""
    import re

    return sum(int(n) for n in re.findall(r"(\d+) answered", read(home / "warm.log")))


if __name__ == "__main__":
    main()
