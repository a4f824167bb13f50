"""benchmarks/run_all.py (`make bench`): runs scripts as real subprocesses in a
scratch repository, keeps their JSON lines, records failures, timeouts and
missing scripts in docs/benchmarks.md, reruns one with --only, draws the curves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import REPO  # noqa: E402

RUNNER = REPO / "benchmarks" / "run_all.py"


def script(root: Path, rel: str, body: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body), encoding="utf-8")


def runner(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUNNER), "--root", str(root), *args], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    script(root, "benchmarks/bench_good.py", '''
        """Good figures for the runner's test."""
        import json
        print(json.dumps({"figure": "speed", "memories": 1000, "p50_ms": 4.25}))
        print(json.dumps({"figure": "speed", "memories": 10000, "p50_ms": 7.5}))
        print("a line that is not JSON")
        ''')
    script(root, "benchmarks/bench_bad.py", '''
        import json, sys
        print(json.dumps({"figure": "partial", "done": 3}), flush=True)
        print("boom: the disk is gone", file=sys.stderr)
        sys.exit(3)
        ''')
    script(root, "benchmarks/bench_slow.py", f'''
        import json, subprocess, sys, time
        child = subprocess.Popen(["sleep", "300"])
        open({str(root / "child.pid")!r}, "w").write(str(child.pid))
        print(json.dumps({{"figure": "started"}}), flush=True)
        time.sleep(300)
        ''')
    script(root, "benchmarks/_helper.py", f'''
        open({str(root / "helper-ran")!r}, "w").write("ran")
        ''')
    script(root, "evals/curve/run.py", '''
        import json
        points = [{"memories": n, "bytes": size, "lines_kept": kept, "marker": marker}
                  for n, size, kept, marker in ((20, 1800, 21, False), (200, 4090, 60, True))]
        print(json.dumps({"eval": "budget_curve", "max_bytes": 4096, "empty_store_bytes": 0, "points": points,
                          "never_over_budget": True}))
        ''')
    return root


@pytest.mark.slow
def test_full_run_keeps_lines_and_records_failure_timeout_and_missing(scratch: Path):
    done = runner(scratch, "--timeout", "4")  # runner() itself bounds the whole run (120 s): a hang fails
    assert done.returncode == 0, done.stderr
    folder = scratch / "docs" / "benchmarks"
    assert [json.loads(l) for l in (folder / "bench_good.jsonl").read_text().splitlines()] == [
        {"figure": "speed", "memories": 1000, "p50_ms": 4.25}, {"figure": "speed", "memories": 10000, "p50_ms": 7.5}]
    meta = json.loads((folder / "bench_good.meta.json").read_text())
    assert meta["status"] == "ok" and meta["command"].endswith("benchmarks/bench_good.py")
    assert meta["text_lines"] == ["a line that is not JSON"]
    assert len(meta["load_start"]) == 3 and meta["machine"]["cores"] == os.cpu_count()
    doc = (scratch / "docs" / "benchmarks.md").read_text()
    # figures in a table, with the script's own description and command
    assert "| figure | memories | p50_ms |" in doc and "| speed | 10,000 | 7.5 |" in doc
    assert "*Good figures for the runner's test.*" in doc
    # a failure keeps what it printed and says why
    bad = json.loads((folder / "bench_bad.meta.json").read_text())
    assert bad["status"] == "failed" and bad["returncode"] == 3
    assert "| partial | 3 |" in doc and "boom: the disk is gone" in doc and "exit code 3" in doc
    # a timeout kills the script's whole process group
    slow = json.loads((folder / "bench_slow.meta.json").read_text())
    assert slow["status"] == "timeout" and "killed after 4 s" in doc
    pid = int((scratch / "child.pid").read_text())
    time.sleep(0.2)
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    # a table row whose script is not on the branch is recorded, not fatal; helpers never run
    assert "evals/l0/run.py is not on this branch" in doc
    assert not (scratch / "helper-ran").exists() and "_helper" not in doc
    assert "## eval_curve" in doc  # discovered evals/*/run.py (control for the helper)
    # the machine section
    assert "| cores | " + str(os.cpu_count()) + " |" in doc and "| Python | " in doc


@pytest.mark.slow
def test_curves_drawn_from_stored_lines(scratch: Path):
    assert runner(scratch, "--timeout", "4").returncode == 0
    png = scratch / "docs" / "bench-budget-curve.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    doc = (scratch / "docs" / "benchmarks.md").read_text()
    assert "](bench-budget-curve.png)" in doc
    # the eval's list of points is a table of its own, the rest of its line another
    assert "*eval budget_curve: `points`*" in doc and "| 200 | 4,090 | 60 | yes |" in doc
    assert "| budget_curve | 4,096 | 0 | yes |" in doc
    # no bench_search lines here: said, not drawn (the control for the drawn one above)
    assert not (scratch / "docs" / "bench-search-latency.png").exists()
    assert "not drawn: no bench_search lines" in doc


def test_budget_points_from_either_shape():
    sys.path.insert(0, str(REPO / "benchmarks"))
    import _report

    nested = {"eval": "budget_curve", "max_bytes": 4096, "empty_store_bytes": 0,
              "points": [{"memories": 50, "bytes": 3000, "lines_kept": 51, "marker": False}]}
    flat = {"eval": "budget_curve", "memories": 20, "injected_bytes": 1800, "lines_kept": 21, "marker": False}
    other = {"eval": "probe_retention", "memories": 60, "bytes": 999}
    points = _report.budget_points({"a": ([nested, other], {}), "b": ([flat], {})})
    assert [(p["memories"], p["injected_bytes"], p["max_bytes"]) for p in points] == [
        (0, 0, 4096), (20, 1800, None), (50, 3000, 4096)]


@pytest.mark.slow
def test_only_reruns_one_and_keeps_the_others(scratch: Path):
    assert runner(scratch, "--timeout", "4").returncode == 0
    folder = scratch / "docs" / "benchmarks"
    bad_meta = (folder / "bench_bad.meta.json").read_text()
    script(scratch, "benchmarks/bench_good.py", '''
        import json
        print(json.dumps({"figure": "speed", "memories": 1000, "p50_ms": 3.125}))
        ''')
    done = runner(scratch, "--only", "bench_good")
    assert done.returncode == 0, done.stderr
    assert "[1/1] bench_good" in done.stderr  # progress names the one run
    doc = (scratch / "docs" / "benchmarks.md").read_text()
    assert "| speed | 1,000 | 3.125 |" in doc and "| speed | 1,000 | 4.25 |" not in doc
    assert (folder / "bench_bad.meta.json").read_text() == bad_meta  # not rerun
    assert "| partial | 3 |" in doc and "boom: the disk is gone" in doc  # its stored lines still shown
    assert "--only bench_good" in doc


def test_unknown_name_is_refused(scratch: Path):
    done = runner(scratch, "--only", "bench_nope")
    assert done.returncode == 2 and "unknown run bench_nope" in done.stderr
    assert not (scratch / "docs" / "benchmarks.md").exists()
    listed = runner(scratch, "--list").stdout.splitlines()
    assert [line.split()[0] for line in listed if "bench_good" in line] == ["bench_good"]  # control: known, listed


def test_commit_is_dirty_only_for_changes_outside_docs(scratch: Path):
    sys.path.insert(0, str(REPO / "benchmarks"))
    import run_all

    git = lambda *a: subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *a], cwd=scratch,  # noqa: E731
                                    check=True, capture_output=True, text=True).stdout.strip()
    (scratch / "docs").mkdir()
    (scratch / "docs" / "benchmarks.md").write_text("old figures\n")
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "start")
    head = git("rev-parse", "--short", "HEAD")
    (scratch / "docs" / "benchmarks.md").write_text("new figures\n")  # what the runner itself rewrites
    assert run_all.commit(scratch) == head
    (scratch / "benchmarks" / "bench_good.py").write_text("print('changed')\n")  # the code measured
    assert run_all.commit(scratch) == head + "+dirty"


def test_a_failed_rerun_keeps_the_last_good_figures_and_says_so(scratch: Path):
    """New-user trial: a rerun with a broken interpreter or without basic-memory replaced the committed
    figures (and deleted a plot); a run that does not succeed now leaves the last good lines in place."""
    assert runner(scratch, "--only", "bench_good").returncode == 0
    folder = scratch / "docs" / "benchmarks"
    good = (folder / "bench_good.jsonl").read_text()
    assert "p50_ms" in good  # control: the good figures are stored
    script(scratch, "benchmarks/bench_good.py", '''
        import sys
        print("ImportError: no module named yaml", file=sys.stderr)
        sys.exit(1)
        ''')
    assert runner(scratch, "--only", "bench_good").returncode == 0
    assert (folder / "bench_good.jsonl").read_text() == good
    meta = json.loads((folder / "bench_good.meta.json").read_text())
    assert (meta["status"], meta["last_attempt"]["status"]) == ("ok", "failed")
    doc = (scratch / "docs" / "benchmarks.md").read_text()
    assert "ok (latest attempt failed)" in doc and "latest attempt: **failed**" in doc and "4.25" in doc


@pytest.mark.slow
def test_an_interpreter_without_memdirs_dependencies_is_refused(scratch: Path, tmp_path: Path):
    """Run by a Python lacking the project's dependencies, every run would fail: the runner refuses."""
    bare = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    done = subprocess.run([str(bare / "bin" / "python"), str(RUNNER), "--root", str(scratch), "--only",
                           "bench_good"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "lacks yaml" in done.stderr and "make bench" in done.stderr
    assert not (scratch / "docs" / "benchmarks" / "bench_good.jsonl").exists()
    assert runner(scratch, "--only", "bench_good").returncode == 0  # control: the project's interpreter runs it
    assert (scratch / "docs" / "benchmarks" / "bench_good.jsonl").is_file()


def test_the_lock_benchmarks_run_with_the_source_tree_they_require():
    """bench_lock_wait and bench_index_lock require ``--src``: discovered without arguments they only failed;
    their rows give this tree and short settings. Control: a script no row names is still discovered bare."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import run_all
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    rows = {spec.name: spec for spec in run_all.discover(REPO)}
    assert rows["bench_lock_wait"].args == ("--src", "src", "--writers", "4", "--writes", "15", "--rounds", "2")
    assert rows["bench_index_lock"].args == ("--src", "src", "--rounds", "2")
    assert [spec.name for spec in run_all.SPECS].count("bench_lock_wait") == 1
    assert rows["bench_names"].args == ()  # discovered, no row of its own
