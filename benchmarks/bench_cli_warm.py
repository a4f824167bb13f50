"""Fresh `memdir search` / `memdir recall` CLI processes with and without a warm process (trial29).

A person's `memdir search` and `memdir recall` took 1.6–3.5 s on a loaded machine, words only 0.6 s.
This times, in fresh processes of this environment's `memdir` console script, on a small store
(4 memories, vectors built by `memdir reindex`):

* ``cli``: the command as a person runs it;
* ``in_process``: the ranking as the CLI runs it (``embed_query=True``: this process embeds the query,
  importing onnxruntime and loading the model), through :func:`memdir.search.ranking.ranked`;
* ``warm``: the same ranking asking the warm process for the query's cosines (``embed_query=False``,
  as a fresh prompt hook does: :mod:`memdir.search.warm`);
* ``words``: ``MEMDIR_SEARCH_VECTORS=off``.

First with no warm process (``warm`` then ranks by words and launches one), then with one running;
each kind of run in turn, ``--repeat`` times, so a loaded machine slows them alike. One JSON line per
(phase, what, kind): median and each run's seconds, the 1-minute load average, and whether the process
loaded onnxruntime (``cli`` runs: unknown, null). Usage::

    python benchmarks/bench_cli_warm.py [--repeat 3]
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

SCRIPT = Path(sys.executable).with_name("memdir")
QUERIES = {"search": "database port", "recall": "make sure the db port is right"}
PROBE = textwrap.dedent("""
    import json, sys, time
    t = time.perf_counter()
    what, kind, text = sys.argv[1:4]
    from memdir import Memory
    from memdir.search.ranking import ranked
    m = Memory.open()
    hits, _, _ = ranked(m.session, text, pool=12, shown=12, embed_query=kind == "in_process",
                        explicit=what == "search", windows=what == "recall")
    print(json.dumps({"s": time.perf_counter() - t, "hits": len(hits), "model": "onnxruntime" in sys.modules}))
""")


def _timed(argv: list[str], env: dict, cwd: Path) -> tuple[float, dict | None]:
    start = time.perf_counter()
    out = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"{argv[:3]} failed: {out.stderr.strip()}")
    return took, (json.loads(out.stdout) if argv[1] == "-c" else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, project = Path(tmp) / "home", Path(tmp) / "proj"
        (project / ".git").mkdir(parents=True)
        env = {**os.environ, "MEMDIR_HOME": str(home)}
        env.pop("MEMDIR_SEARCH_VECTORS", None)
        for name, description, kind, body in (
                ("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project",
                 "Moved on 2026-11-02 because the host runs another Postgres on 5432."),
                ("deploy-day", "Deploys happen on Tuesdays only", "project", "Release train leaves Tuesday 10:00 UTC."),
                ("editor", "Person prefers vim keybindings", "user", "Uses vim mode in every editor."),
                ("ci-runner", "CI runs on GitHub Actions with a self-hosted runner", "project", "The runner is ci-box-2.")):
            subprocess.run([str(SCRIPT), "write", name, "-d", description, "-t", kind, "-b", body], env=env, cwd=project,
                           check=True, capture_output=True)
        subprocess.run([str(SCRIPT), "reindex", "--quiet"], env=env, cwd=project, check=True, capture_output=True)
        warm = None
        try:
            for phase in ("no_warm", "warm_running"):
                if phase == "warm_running":
                    warm = subprocess.Popen([sys.executable, "-m", "memdir.hooks", "--warm", str(home)], env=env,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True)
                    time.sleep(8)  # its model loads
                for what, text in QUERIES.items():
                    runs: dict[str, list] = {k: [] for k in ("cli", "in_process", "warm", "words")}
                    for _ in range(args.repeat):
                        for kind in runs:
                            if phase == "no_warm" and kind == "warm":
                                continue  # it would only launch one: measured in the next phase
                            argv = [str(SCRIPT), what, text] if kind == "cli" else \
                                [sys.executable, "-c", PROBE, what, "warm" if kind == "words" else kind, text]
                            run_env = {**env, "MEMDIR_SEARCH_VECTORS": "off"} if kind == "words" else env
                            runs[kind].append(_timed(argv, run_env, project))
                    for kind, got in runs.items():
                        if got:
                            print(json.dumps({"phase": phase, "what": what, "kind": kind,
                                              "median_s": round(statistics.median(s for s, _ in got), 3),
                                              "runs_s": [round(s, 3) for s, _ in got],
                                              "model_loaded": None if got[0][1] is None else got[0][1]["model"],
                                              "hits": None if got[0][1] is None else got[0][1]["hits"],
                                              "load1": round(os.getloadavg()[0], 2)}), flush=True)
        finally:
            if warm is not None:
                warm.terminate()
                warm.wait(timeout=30)


if __name__ == "__main__":
    main()
