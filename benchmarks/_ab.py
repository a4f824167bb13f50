"""Main against this checkout in one run: the timing loop the A/B benchmarks share (``bench_withdrawn``,
``bench_said_before``, ``bench_tombstone_hint``).

A helper (``_``-prefixed: never run as a benchmark by ``run_all.py``). A benchmark runs itself twice as a child,
once with main's ``src`` on ``sys.path`` and once with this checkout's (:func:`both`); each child times its cases
over growing sizes (:func:`sized`); the parent prints one row per case and size (:func:`rows`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def sized(sizes, cap: float, measure: Callable[[int], object]) -> list:
    """``[[seconds, answer] or None, …]``, one per size of ``sizes``: ``measure(n)`` timed once
    (``time.perf_counter``), its return value kept as the answer; a size after one that took over ``cap`` seconds
    (or was not run) is not run (``None``)."""
    times: list = []
    for n in sizes:
        if times and (times[-1] is None or times[-1][0] > cap):
            times.append(None)
            continue
        started = time.perf_counter()
        answer = measure(n)
        times.append([time.perf_counter() - started, answer])
    return times


def _child(script: str, src: Path, args: list[str]) -> dict:
    done = subprocess.run([sys.executable, script, "--child", str(src), *args],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def both(script: str, main: Path | None, args: list[str], prefix: str) -> tuple[dict, dict]:
    """The JSON object ``script --child SRC *args`` prints with main's ``src`` (``main``, or ``git archive main
    src`` of this repository into a temporary directory named ``prefix…``), then with this checkout's. Raises
    :class:`subprocess.CalledProcessError` when a child fails."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        if main is None:
            archive = subprocess.run(["git", "-C", str(HERE), "archive", "main", "src"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            main = Path(tmp) / "src"
        return _child(script, main, args), _child(script, HERE / "src", args)


def rows(sizes, old_times: list, new_times: list, cap: float) -> Iterator[dict]:
    """Per size of ``sizes``: ``{"n", "main_s", "this_s", "ratio"}`` (seconds rounded to 0.1 ms, ``ratio`` main /
    this), with ``"skipped"`` when a side was not run at it (:func:`sized`'s ``None``)."""
    for n, old, new in zip(sizes, old_times, new_times):
        row = {"n": n, "main_s": None if old is None else round(old[0], 4),
               "this_s": None if new is None else round(new[0], 4),
               "ratio": round(old[0] / new[0], 1) if old is not None and new and new[0] else None}
        if old is None or new is None:
            row["skipped"] = f"over {cap} s at a smaller n"
        yield row


def growth(times: list) -> float | None:
    """The last size's seconds over the one before (``None`` when either was not run): about 4 for a cost growing
    with ``n`` over sizes four times apart, about 16 for one growing with its square."""
    last, before_last = times[-1], times[-2]
    return round(last[0] / before_last[0], 1) if last and before_last and before_last[0] else None
