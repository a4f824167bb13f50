"""The blind recall set (evals/recall/fresh.jsonl): it loads, every line is held out, fit.py never reads
it, and every name it expects is a memory of the eval store as memdir reads it. No vectors, no recall."""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from memdir import Memory
from tests.search.evalstore import EVALS, eval_common


@pytest.fixture(scope="module")
def common():
    return eval_common("recall_eval_common")


@pytest.fixture(scope="module")
def store_names(common, tmp_path_factory):
    """The memory names of the eval store: its files placed as build_store places them, listed by memdir."""
    assert common.REAL.is_dir(), f"{common.REAL} is missing: the fresh set expects its real memory files"
    base = tmp_path_factory.mktemp("fresh")
    (base / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=base / "proj", search_vectors="off", actor="human")
    common.place_memories(mem.session.layer("project").path)
    return {m.name for m in mem.list(include_all=True).memories}


def test_fresh_loads_every_line_held_out(common):
    rows = common.prompts("all", "fresh")
    assert Counter(r["kind"] for r in rows) == {"lexical": 30, "paraphrase": 33, "task": 25, "none": 35}
    assert {r["half"] for r in rows} == {"heldout"}
    assert common.prompts("heldout", "fresh") == rows and common.prompts("fit", "fresh") == []
    assert len({r["prompt"] for r in rows}) == len(rows) == 123
    # control: the older sets still split even/odd, so a set-wide "heldout" is fresh's alone
    tasks = common.prompts("all", "tasks")
    assert [r["half"] for r in tasks[:2]] == ["fit", "heldout"]


def test_fit_never_reads_fresh(common):
    fresh = {r["prompt"] for r in common.prompts("all", "fresh")}
    fitted = common.fit_rows()
    assert len(fitted) == len(common.prompts("fit", "prompts")) + len(common.prompts("fit", "tasks")) \
        + sum(len(common.prompts("all", name)) for name in ("near", "gaps", "trial", "probe", "pasted", "short", "asked", "typos",
                                                               "framed", "mixed", "stray", "stray2")) > 0
    # (the training sets: every line of them is fit)
    shared = fresh & {r["prompt"] for r in fitted}
    assert shared == set()  # (only the shared prompts are shown on failure, never the fitted ones)
    assert "fit_rows()" in (EVALS / "fit.py").read_text(encoding="utf-8")


def test_every_expected_name_is_a_store_memory(common, store_names):
    assert len(store_names) == 45
    rows = common.prompts("all", "fresh")
    expected = {name for r in rows for name in r["expect"]}
    assert expected - store_names == set()
    assert len(expected) == 45  # every memory of the store is some prompt's answer
    # control: the check tells a name the store lacks
    assert "pg-ports" not in store_names and "pg-port" in store_names
    assert "project-sprint-status" in store_names and "sprint-status" not in store_names  # the file's stem, not its name field


def test_a_none_row_expects_nothing_and_every_other_row_something(common):
    rows = common.prompts("all", "fresh")
    none = [r for r in rows if r["kind"] == "none"]
    assert {"prompt": "thanks, looks good", "expect": [], "kind": "none", "half": "heldout"} in none
    assert all(r["expect"] == [] for r in none)
    assert all(r["expect"] for r in rows if r["kind"] != "none")  # control: a needing row names its memory


def test_run_accepts_the_fresh_set_and_refuses_its_empty_fit_split():
    import subprocess

    done = subprocess.run([sys.executable, str(EVALS / "run.py"), "--set", "fresh", "--split", "fit"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "the fit split of the fresh set is empty" in done.stderr
    wrong = subprocess.run([sys.executable, str(EVALS / "run.py"), "--set", "stale", "--split", "fit"],
                           capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "invalid choice: 'stale'" in wrong.stderr  # control: an unknown set is refused
