"""benchmarks/compare_basic_memory.py: without basic-memory's virtualenv it says
why and exits 0; memdir's side of the workload runs through memdir's real CLI and
MCP server and finds the planted needles (basic-memory's side needs Python ≥ 3.12
and minutes, so it runs under `make bench`, not here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO  # noqa: E402

SCRIPT = REPO / "benchmarks" / "compare_basic_memory.py"
sys.path.insert(0, str(REPO / "benchmarks"))


def test_without_the_virtualenv_it_is_skipped_with_the_reason(tmp_path: Path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "10", "--venv", str(tmp_path / "none")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"skipped": "basic-memory", "reason": f"no virtualenv at {tmp_path / 'none'}; run with --install to create it"}]


def fake_python(path: Path, new_enough: bool) -> str:
    """An executable answering the script's version check as a Python < or ≥ 3.12 would."""
    path.write_text(f"#!/bin/sh\necho {new_enough}\n")
    path.chmod(0o755)
    return str(path)


def test_install_without_a_new_enough_python_says_so(tmp_path: Path):
    old = fake_python(tmp_path / "python-old", False)
    done = subprocess.run([sys.executable, str(SCRIPT), "--install", "--python", old, "--venv",
                           str(tmp_path / "venv")], capture_output=True, text=True, timeout=60,
                          env={"PATH": str(tmp_path / "empty"), "PYENV_ROOT": str(tmp_path / "no-pyenv")})
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert line["skipped"] == "basic-memory" and "no Python >= 3.12 found" in line["reason"]
    assert not (tmp_path / "venv").exists()


def test_find_python_takes_the_first_new_enough(tmp_path: Path, monkeypatch):
    import compare_basic_memory as compare

    old, new = fake_python(tmp_path / "python-old", False), fake_python(tmp_path / "python-new", True)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "no-pyenv"))
    monkeypatch.setenv("BASIC_MEMORY_PYTHON", new)
    assert compare.find_python(old) == new  # the given one is too old: the environment's is taken
    assert compare.find_python(new) == new
    monkeypatch.delenv("BASIC_MEMORY_PYTHON")
    assert compare.find_python(old) is None


def test_find_python_takes_pyenvs_newest_from_3_12(tmp_path: Path, monkeypatch):
    import compare_basic_memory as compare

    for version, new_enough in (("3.11.7", False), ("3.12.1", True), ("3.13.0", True)):
        (tmp_path / "versions" / version / "bin").mkdir(parents=True)
        fake_python(tmp_path / "versions" / version / "bin" / "python3", new_enough)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path))
    monkeypatch.delenv("BASIC_MEMORY_PYTHON", raising=False)
    newest = str(tmp_path / "versions" / "3.13.0" / "bin" / "python3")
    assert compare.pyenv_pythons() == [newest, str(tmp_path / "versions" / "3.12.1" / "bin" / "python3")]
    assert compare.find_python(None) == newest  # 3.11 is never a candidate


@pytest.mark.slow
def test_memdir_side_finds_the_planted_needles(tmp_path: Path):
    import compare_basic_memory as compare

    project, folder, needles = compare.workload(tmp_path, notes=40, needles=4, seed=3)
    # the same notes for both systems: basic-memory's copy holds each needle's fact
    assert len(list(folder.glob("note-*.md"))) == 40
    name, question, keywords = needles[0]
    converted = (folder / f"{name}.md").read_text()
    assert converted.startswith(f"---\ntitle: {name}\ntype: note\n---\n\n# {name}\n")
    assert question.endswith("?") and "?" not in keywords and keywords.split()[-1] in converted
    queries = [q for row in needles for q in row[1:]] + compare.vocabulary_queries(5, seed=1)
    figures = compare.measure(compare.memdir_system(tmp_path, project), queries, needles, notes=40)
    assert figures["system"] == "memdir" and figures["queries"] == 13
    assert figures["keyword_hit5"] == 1.0 and figures["question_hit5"] == 1.0
    for key in ("ingest_s", "search_p50_ms", "write_ms", "cli_cold_ms", "mcp_cold_ms", "mcp_peak_rss_mb",
                "ingest_peak_rss_mb"):
        assert figures[key] > 0, key
    written = sorted(p.name for p in tmp_path.rglob("written-*.md"))
    assert written == [f"written-{i}.md" for i in range(5)]  # the five MCP writes landed as memory files


def test_paired_servers_each_answer_every_query_in_turn(tmp_path: Path):
    import compare_basic_memory as compare

    project, _folder, needles = compare.workload(tmp_path, notes=30, needles=3, seed=5)
    lexical = compare.memdir_system(tmp_path, project)
    compare.timed_process(lexical.ingest, lexical.env, lexical.cwd)
    other = compare.memdir_system(tmp_path, project)
    other.name = "memdir-again"  # a second server over the same home: the paired run's shape without basic-memory
    queries = [q for row in needles for q in row[1:]]
    results = compare.paired([lexical, other], queries)
    assert sorted(results) == ["memdir", "memdir-again"]
    for figures in results.values():
        assert figures["queries"] == len(queries) == 6  # every query to every server, each once
        assert 0 < figures["search_p50_ms"] <= figures["search_p95_ms"]
        assert figures["tools_list_p50_ms"] > 0 and figures["server_cpu_ms_per_call"] > 0
        # One share of it; both are counted in clock ticks (/proc stat), the thread's and the process's each rounded
        # on its own, so the share may read up to a tick more at each end (one run: 10.0 against 8.33 ms a call).
        tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
        main, whole = figures["server_main_thread_ms_per_call"], figures["server_cpu_ms_per_call"]
        assert 0 <= main <= whole + 2 * tick_ms / len(queries), (main, whole)


def test_paired_mode_without_the_virtualenv_is_skipped_with_the_reason(tmp_path: Path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "10", "--src", str(REPO / "src"),
                           "--venv", str(tmp_path / "none")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["skipped"] == "basic-memory" and "--install" in line["reason"]


# One answer of each server as 0.24.1 / memdir print it (ids and scores shortened), for the parsers below.
BM_PAGE = """# Search Results: port qa MySQL instance checkout
*project: bench*

### note-00106-analytics-access-audit
- permalink: bench/note-00106-analytics-access-audit
- external_id: e2d3a42b-fd12-4356-8668-191faa59a118
- score: -0.0000

### note-00077-shipping-incident-review
- permalink: bench/note-00077-shipping-incident-review
- external_id: 352de087-7fd1-49a5-959d-6de0aeca86d2
- score: -0.0000
- match: see note-00500-billing-load-test for the drill

### note-00011-shipping-failover-drill
- permalink: bench/deep/folder/note-00011-shipping-failover-drill
- score: -0.0000

---
*3 results | page 1, page_size 5*"""

MEMDIR_PAGE = """3 result(s) for 'port qa MySQL instance checkout':
- note-00011-shipping-failover-drill (type: project; layer: project) relevance 0.99 — Shipping failover drill notes
  … The qa MySQL instance for checkout listens on port 16429, see note-00500-billing-load-test.
- note-00106-analytics-access-audit (type: project; layer: project) relevance 0.99 — Analytics access audit notes
  …The qa PostgreSQL instance for ledger listens on port 49500.
- note-00149-identity-latency-spike (type: project; layer: project) relevance 0.98 — Identity latency spike notes
  …The canary S3 instance for checkout listens on port 45360."""


def test_basic_memory_hits_are_read_from_the_permalink_lines_in_rank_order():
    import compare_basic_memory as compare

    # the folder and project prefixes are dropped; a name inside a match excerpt is no hit
    assert compare.bm_names(BM_PAGE) == ["note-00106-analytics-access-audit", "note-00077-shipping-incident-review",
                                         "note-00011-shipping-failover-drill"]
    assert "note-00500-billing-load-test" in BM_PAGE  # control: the excerpt does name it
    assert compare.bm_names("No results found for 'x' in project 'bench'. Try broader terms.") == []


def test_a_failed_basic_memory_search_is_an_error_not_a_miss():
    import compare_basic_memory as compare

    failed = ("# Search Failed\n\nError searching for 'port qa': This Python build does not support SQLite "
              "extension loading\n- permalink: bench/note-00011-shipping-failover-drill")
    with pytest.raises(ValueError, match="no result page: .# Search Failed"):
        compare.bm_names(failed)
    assert compare.bm_names(BM_PAGE)[2] == "note-00011-shipping-failover-drill"  # control: a result page is read


def test_memdir_hits_are_read_from_the_result_lines_in_rank_order():
    import compare_basic_memory as compare

    assert compare.memdir_names(MEMDIR_PAGE) == ["note-00011-shipping-failover-drill",
                                                 "note-00106-analytics-access-audit",
                                                 "note-00149-identity-latency-spike"]
    assert "note-00500-billing-load-test" in MEMDIR_PAGE  # control: named in a snippet, not a result
    assert compare.memdir_names("No memories matched 'x'.") == []
