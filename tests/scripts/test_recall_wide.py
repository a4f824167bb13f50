"""The wide recall set (evals/recall/wide.jsonl on its own store, evals/recall/wide/): every line is fit, its kinds
split evenly over run.py's two folds, fit_rows (one store) leaves it out, every name it expects is a memory of its
own store as build_store places it (and not of the shared store). No vectors, no recall."""

from __future__ import annotations

from collections import Counter

import pytest

from memdir import Memory
from tests.search.evalstore import eval_common


@pytest.fixture(scope="module")
def common():
    return eval_common("recall_eval_common_wide")


def test_wide_is_all_fit_with_each_kind_split_evenly_by_fold(common):
    rows = common.prompts("all", "wide")
    assert Counter(r["kind"] for r in rows) == {"none": 86, "lexical": 32, "task": 28, "paraphrase": 26}
    assert {r["half"] for r in rows} == {"fit"} and common.prompts("heldout", "wide") == []
    assert len({r["prompt"] for r in rows}) == len(rows) == 172
    folds = [Counter(r["kind"] for r in rows[parity::2]) for parity in (0, 1)]  # fit row i is in fold i mod 2
    assert folds == [{"none": 43, "lexical": 16, "task": 14, "paraphrase": 13}] * 2
    assert all(r["expect"] == [] for r in rows if r["kind"] == "none")
    assert all(r["expect"] for r in rows if r["kind"] != "none")  # control: a needing row names its memory
    assert sum(len(r["expect"]) == 2 for r in rows) == 4


def test_fit_rows_leaves_the_wide_set_out_as_it_does_shop(common):
    rows = common.fit_rows()
    fitted = {r["prompt"] for r in rows}
    assert len(rows) == sum(len(common.prompts("fit", name)) for name in common.SETS if name not in ("fresh", "shop", "wide"))
    assert {r["prompt"] for r in common.prompts("all", "wide") if r["expect"]} & fitted == set()
    # (a few chat and general prompts of it, "thanks, that works", are word for word in other sets too)
    assert common.STORES["wide"] == "wide" and "wide" in common.FIT_ONLY
    # control: a set on the shared store is read by fit_rows
    assert {r["prompt"] for r in common.prompts("all", "mixed")} <= fitted


def test_every_name_wide_expects_is_a_memory_of_its_own_store(common, tmp_path):
    mem = common.build_store(tmp_path, "off", "wide")
    names = {m.name for m in mem.list(include_all=True).memories}
    assert len(names) == 105
    expected = {name for r in common.prompts("all", "wide") for name in r["expect"]}
    assert len(expected) == 67 and expected - names == set()
    assert "tern-kafka" in expected and "tern-kafkas" not in names  # control: a misspelt name would be told
    # control: the shared store is another store: it lacks this set's memories
    (tmp_path / "shared" / "proj" / ".git").mkdir(parents=True)
    shared = Memory.open(home=tmp_path / "shared" / "home", project=tmp_path / "shared" / "proj",
                         search_vectors="off", actor="human")
    common.place_memories(shared.session.layer("project").path)
    shared_names = {m.name for m in shared.list(include_all=True).memories}
    assert "tern-kafka" not in shared_names and "pg-port" in shared_names



def test_dense38_standing_ranks_a_memory_among_all_with_its_unclipped_gap_and_lead(monkeypatch):
    import importlib.util
    import sys

    from tests.search.evalstore import EVALS

    monkeypatch.setattr(sys, "path", list(sys.path))  # dense38 puts evals/recall on it: taken back after the test
    spec = importlib.util.spec_from_file_location("recall_eval_dense38", EVALS / "dense38.py")
    dense38 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dense38)
    cos = {"a": 0.9, "b": 0.85, "c": 0.8, "d": 0.6}  # median 0.825
    first, last = dense38.standing(cos, "a"), dense38.standing(cos, "d")
    assert first["rank"] == 1 and first["cos"] == 0.9
    assert abs(first["gap"] - 0.075) < 1e-9 and abs(first["lead"] - 0.05) < 1e-9  # over the second
    assert last["rank"] == 4 and abs(last["gap"] + 0.225) < 1e-9
    assert abs(last["lead"] + 0.3) < 1e-9  # behind the nearest, not clipped at -0.1 as Evidence.lead is
    row = {"expect": ["c", "b"], "cos": {"head": cos, "sent": {**cos, "c": 0.95}}}
    assert dense38.needed(row) == "b" and dense38.needed(row, "sent") == "c"  # the nearer of two needed, per way
