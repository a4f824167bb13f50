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
loaded onnxruntime (``cli`` runs: unknown, null).

``--venv`` (repeatable) compares checkouts in one run: each virtual environment gets a store of its own
(the same memories) and, in the second phase, a warm process of its own code (a warm process answers only
askers of its code), and each run of a kind alternates over them; the lines carry ``venv``, and a
``ratio`` line per (phase, what, kind) gives each venv's median over the first's. Since warmcli30 a
search or recall that embeds its query (``in_process``, ``cli``) asks a warm process that listens: its
``model_loaded`` says where the query was embedded. Usage::

    python benchmarks/bench_cli_warm.py [--repeat 3] [--venv /work/main/.venv --venv .venv]
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


NOTES = (("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project",
          "Moved on 2026-11-02 because the host runs another Postgres on 5432."),
         ("deploy-day", "Deploys happen on Tuesdays only", "project", "Release train leaves Tuesday 10:00 UTC."),
         ("editor", "Person prefers vim keybindings", "user", "Uses vim mode in every editor."),
         ("ci-runner", "CI runs on GitHub Actions with a self-hosted runner", "project", "The runner is ci-box-2."))


def _store(venv: Path, root: Path) -> tuple[Path, Path, dict]:
    """A home and project under ``root`` holding :data:`NOTES`, written and reindexed by ``venv``'s memdir."""
    home, project = root / "home", root / "proj"
    (project / ".git").mkdir(parents=True)
    env = {**os.environ, "MEMDIR_HOME": str(home)}
    env.pop("MEMDIR_SEARCH_VECTORS", None)
    script = venv / "bin" / "memdir"
    for name, description, kind, body in NOTES:
        subprocess.run([str(script), "write", name, "-d", description, "-t", kind, "-b", body], env=env, cwd=project,
                       check=True, capture_output=True)
    subprocess.run([str(script), "reindex", "--quiet"], env=env, cwd=project, check=True, capture_output=True)
    return home, project, env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--venv", action="append", type=Path,
                        help="a virtual environment to run (repeatable; default this interpreter's)")
    args = parser.parse_args()
    venvs = [v.resolve() for v in args.venv] if args.venv else [Path(sys.executable).parent.parent]
    with tempfile.TemporaryDirectory() as tmp:
        stores = {venv: _store(venv, Path(tmp) / str(n)) for n, venv in enumerate(venvs)}
        warm: list[subprocess.Popen] = []
        try:
            for phase in ("no_warm", "warm_running"):
                if phase == "warm_running":
                    for venv, (home, _, env) in stores.items():
                        warm.append(subprocess.Popen([str(venv / "bin" / "python"), "-m", "memdir.hooks", "--warm",
                                                      str(home)], env=env, stdin=subprocess.DEVNULL,
                                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                     start_new_session=True))
                    time.sleep(8)  # their models load
                for what, text in QUERIES.items():
                    runs: dict[tuple, list] = {(k, v): [] for k in ("cli", "in_process", "warm", "words") for v in venvs}
                    for _ in range(args.repeat):
                        for kind, venv in runs:
                            if phase == "no_warm" and kind == "warm":
                                continue  # it would only launch one: measured in the next phase
                            home, project, env = stores[venv]
                            argv = [str(venv / "bin" / "memdir"), what, text] if kind == "cli" else \
                                [str(venv / "bin" / "python"), "-c", PROBE, what, "warm" if kind == "words" else kind,
                                 text]
                            run_env = {**env, "MEMDIR_SEARCH_VECTORS": "off"} if kind == "words" else env
                            runs[kind, venv].append(_timed(argv, run_env, project))
                    first = {}
                    for (kind, venv), got in runs.items():
                        if not got:
                            continue
                        median = statistics.median(s for s, _ in got)
                        first.setdefault(kind, median)
                        print(json.dumps({"phase": phase, "what": what, "kind": kind, "venv": str(venv),
                                          "median_s": round(median, 3), "runs_s": [round(s, 3) for s, _ in got],
                                          "model_loaded": None if got[0][1] is None else got[0][1]["model"],
                                          "hits": None if got[0][1] is None else got[0][1]["hits"],
                                          "load1": round(os.getloadavg()[0], 2)}), flush=True)
                        if len(venvs) > 1 and venv != venvs[0]:
                            print(json.dumps({"phase": phase, "what": what, "kind": kind, "ratio": round(
                                median / first[kind], 3), "of": str(venv), "over": str(venvs[0])}), flush=True)
        finally:
            for process in warm:
                process.terminate()
                process.wait(timeout=30)


if __name__ == "__main__":
    main()
