"""The second training set (evals/recall/gaps.jsonl): every line is fit, fit.py reads all of it, each of run.py's two
folds holds half of its positives and half of its negatives, its labels name memories of the eval store, and run.py
takes ``--set gaps``. No vectors, no recall."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from memdir import Memory
from tests.search.evalstore import EVALS, eval_common


@pytest.fixture(scope="module")
def common():
    return eval_common("recall_eval_common_gaps")


def test_gaps_is_all_fit_read_by_fit_rows_and_split_evenly_by_fold(common):
    rows = common.prompts("all", "gaps")
    assert Counter(r["kind"] for r in rows) == {"none": 33, "task": 26, "paraphrase": 5, "lexical": 2}
    assert {r["half"] for r in rows} == {"fit"} and common.prompts("heldout", "gaps") == []
    assert len({r["prompt"] for r in rows}) == len(rows) == 66
    assert {r["prompt"] for r in rows} <= {r["prompt"] for r in common.fit_rows()}
    folds = [Counter(bool(r["expect"]) for r in rows[parity::2]) for parity in (0, 1)]
    assert folds == [{True: 17, False: 16}, {True: 16, False: 17}]  # run.py: fit row i in fold i mod 2
    assert all(r["expect"] == [] for r in rows if r["kind"] == "none")
    assert all(r["expect"] for r in rows if r["kind"] != "none")  # control: a needing row names its memory


def test_every_name_gaps_expects_is_a_store_memory(common, tmp_path):
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=tmp_path / "home", project=tmp_path / "proj", search_vectors="off", actor="human")
    common.place_memories(mem.session.layer("project").path)
    names = {m.name for m in mem.list(include_all=True).memories}
    expected = {name for r in common.prompts("all", "gaps") for name in r["expect"]}
    assert len(expected) == 25 and expected - names == set()
    assert "ko-translation" in expected and "ko-translations" not in names  # control: a misspelt name would be told


def test_run_refuses_the_empty_heldout_split_of_gaps():
    done = subprocess.run([sys.executable, str(EVALS / "run.py"), "--set", "gaps", "--split", "heldout"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "the heldout split of the gaps set is empty" in done.stderr
