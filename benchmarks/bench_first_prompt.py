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
    args = parser.parse_args()
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
        for _ in range(args.runs):
            start = time.monotonic()
            assert warm.launch(home)
            while not warm.listening(home):
                time.sleep(0.005)
            listens.append(time.monotonic() - start)
            while warm.ask(home, "warm up", keys, generation) is None:
                time.sleep(0.01)
            answers.append(time.monotonic() - start)
            stop_warm(home)
        emit(figure="warm_start", src=str(SRC), listening_p50_s=round(statistics.median(listens), 3),
             listening_max_s=round(max(listens), 3), model_p50_s=round(statistics.median(answers), 3),
             model_max_s=round(max(answers), 3), runs=args.runs)

        hits, walls = 0, []
        for run in range(args.runs):
            hook("SessionStart", f"s{run}", source="startup")
            wall, out = hook("UserPromptSubmit", f"s{run}", prompt=PARAPHRASE)
            walls.append(wall)
            hits += ANSWER in out
            stop_warm(home)
        emit(figure="first_prompt", recalled=hits, runs=args.runs, p50_ms=round(statistics.median(walls) * 1e3),
             p95_ms=round(pct(walls, 0.95) * 1e3))

        for figure, setting in (("prompt_no_warm", "on"), ("prompt_vectors_off", "off")):
            hits, walls = 0, []
            for run in range(args.runs):
                wall, out = hook("UserPromptSubmit", f"c{figure}{run}", setting, prompt=PARAPHRASE)
                walls.append(wall)
                hits += ANSWER in out
                stop_warm(home, launched=setting == "on")
            emit(figure=figure, recalled=hits, runs=args.runs, p50_ms=round(statistics.median(walls) * 1e3),
                 p95_ms=round(pct(walls, 0.95) * 1e3))


if __name__ == "__main__":
    main()
