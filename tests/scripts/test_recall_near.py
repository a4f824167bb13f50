"""The near-topic training set (evals/recall/near.jsonl): every line is fit, fit.py reads all of it, its labels name
memories of the eval store, and run.py takes ``--set near``. No vectors, no recall."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from memdir import Memory
from tests.search.evalstore import EVALS, eval_common


@pytest.fixture(scope="module")
def common():
    return eval_common("recall_eval_common_near")


def test_near_is_all_fit_and_read_by_fit_rows(common):
    rows = common.prompts("all", "near")
    assert Counter(r["kind"] for r in rows) == {"none": 44, "task": 8, "lexical": 8, "paraphrase": 4}
    assert {r["half"] for r in rows} == {"fit"} and common.prompts("heldout", "near") == []
    assert common.prompts("fit", "near") == rows and len({r["prompt"] for r in rows}) == len(rows) == 64
    fitted = {r["prompt"] for r in common.fit_rows()}
    assert {r["prompt"] for r in rows} <= fitted
    assert all(r["expect"] == [] for r in rows if r["kind"] == "none")
    assert all(r["expect"] for r in rows if r["kind"] != "none")  # control: a needing row names its memory
    # control: the older sets still split even/odd
    assert [r["half"] for r in common.prompts("all", "prompts")[:2]] == ["fit", "heldout"]


def test_every_name_near_expects_is_a_store_memory(common, tmp_path):
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=tmp_path / "home", project=tmp_path / "proj", search_vectors="off", actor="human")
    common.place_memories(mem.session.layer("project").path)
    names = {m.name for m in mem.list(include_all=True).memories}
    expected = {name for r in common.prompts("all", "near") for name in r["expect"]}
    assert len(expected) == 19 and expected - names == set()
    assert "pg-port" in expected and "pg-ports" not in names  # control: a misspelt name would be told


def test_run_refuses_the_empty_heldout_split_of_near():
    done = subprocess.run([sys.executable, str(EVALS / "run.py"), "--set", "near", "--split", "heldout"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "the heldout split of the near set is empty" in done.stderr
