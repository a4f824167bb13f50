"""The training-only recall sets, evals/recall/near.jsonl (near-topic questions), gaps.jsonl (the kinds the fit
data lacked: cross-lingual and task prompts, general questions on a tool a memory names), trial.jsonl (project
questions asked in general form beside general ones on a tool a memory names), probe.jsonl (long near-topic
prompts needing none beside tasks whose memory bears by inference) pasted.jsonl (a question with pasted text
on its line), short.jsonl (short "the X" prompts beside short chat), asked.jsonl (short asked questions, some
naming the workspace, beside ones no memory answers), typos.jsonl (misspelled prompts, answered or not) and
framed.jsonl (prompts framed as a check, "double-check the dev db port", beside framed ones no memory answers): every line is fit, fit.py reads all of it, gaps, trial, probe,
pasted, short, asked, typos and framed split evenly over run.py's two folds, their labels name memories of the eval store, and run.py
takes ``--set near|gaps|trial|probe|pasted|short|asked|typos|framed`` but refuses their empty held-out half. No vectors, no
recall."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from memdir import Memory
from tests.search.evalstore import EVALS, eval_common

# set → (its kinds, how many memories its labels name, one of them)
SETS = {"near": ({"none": 44, "task": 8, "lexical": 8, "paraphrase": 4}, 19, "pg-port"),
        "gaps": ({"none": 33, "task": 26, "paraphrase": 5, "lexical": 2}, 25, "ko-translation"),
        "trial": ({"none": 24, "lexical": 18, "paraphrase": 6}, 18, "tabs-go"),
        "probe": ({"none": 35, "task": 36}, 31, "timezone-utc"),
        "pasted": ({"none": 16, "lexical": 12, "paraphrase": 3, "task": 1}, 15, "pg-port"),
        "short": ({"none": 24, "lexical": 19, "paraphrase": 5}, 25, "zh-test-db"),
        "asked": ({"none": 24, "lexical": 19, "paraphrase": 5}, 20, "ko-translation"),
        "typos": ({"none": 24, "lexical": 23, "paraphrase": 1}, 24, "pg-port"),
        "framed": ({"none": 24, "task": 12, "lexical": 11, "paraphrase": 1}, 23, "pg-port")}


@pytest.fixture(scope="module")
def common():
    return eval_common("recall_eval_common_training")


@pytest.mark.parametrize("name", SETS)
def test_a_training_set_is_all_fit_and_read_by_fit_rows(common, name):
    rows = common.prompts("all", name)
    assert Counter(r["kind"] for r in rows) == SETS[name][0]
    assert {r["half"] for r in rows} == {"fit"} and common.prompts("heldout", name) == []
    assert common.prompts("fit", name) == rows and len({r["prompt"] for r in rows}) == len(rows)
    assert {r["prompt"] for r in rows} <= {r["prompt"] for r in common.fit_rows()}
    assert all(r["expect"] == [] for r in rows if r["kind"] == "none")
    assert all(r["expect"] for r in rows if r["kind"] != "none")  # control: a needing row names its memory
    # control: the older sets still split even/odd
    assert [r["half"] for r in common.prompts("all", "prompts")[:2]] == ["fit", "heldout"]


@pytest.mark.parametrize(("name", "folds"), [("gaps", [{True: 17, False: 16}, {True: 16, False: 17}]),
                                             ("trial", [{True: 12, False: 12}, {True: 12, False: 12}]),
                                             ("probe", [{True: 18, False: 18}, {True: 18, False: 17}]),
                                             ("pasted", [{True: 8, False: 8}, {True: 8, False: 8}]),
                                             ("short", [{True: 12, False: 12}, {True: 12, False: 12}]),
                                             ("asked", [{True: 12, False: 12}, {True: 12, False: 12}]),
                                             ("typos", [{True: 12, False: 12}, {True: 12, False: 12}]),
                                             ("framed", [{True: 12, False: 12}, {True: 12, False: 12}])])
def test_a_training_set_splits_evenly_by_fold(common, name, folds):
    rows = common.prompts("all", name)
    assert [Counter(bool(r["expect"]) for r in rows[parity::2]) for parity in (0, 1)] == folds  # fold i mod 2


@pytest.mark.parametrize("name", SETS)
def test_every_name_a_training_set_expects_is_a_store_memory(common, tmp_path, name):
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=tmp_path / "home", project=tmp_path / "proj", search_vectors="off", actor="human")
    common.place_memories(mem.session.layer("project").path)
    names = {m.name for m in mem.list(include_all=True).memories}
    expected = {label for r in common.prompts("all", name) for label in r["expect"]}
    _kinds, count, one = SETS[name]
    assert len(expected) == count and expected - names == set()
    assert one in expected and one + "s" not in names  # control: a misspelt name would be told


@pytest.mark.parametrize("name", SETS)
def test_run_refuses_the_empty_heldout_split_of_a_training_set(name):
    done = subprocess.run([sys.executable, str(EVALS / "run.py"), "--set", name, "--split", "heldout"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and f"the heldout split of the {name} set is empty" in done.stderr
