"""A hook recording an answer while drops rename new files over ``pending-answered.jsonl`` keeps its record
(break48).

:func:`memdir.prompt.answered._record` opens the file again when a drop by id (:func:`~memdir.prompt.answered.dropping`)
renamed a new one over it meanwhile; it gave up after three tries, so back-to-back drops beside four hooks lost a
kept finding's record (2,396 to 2,399 of 2,400 written, in 4 runs of 7). It now tries again for up to
``REOPEN_WAIT`` seconds. Real files and ``flock``; the second test real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir.prompt import answered


def _rec(ident: str) -> dict:
    return {"id": ident, "text": "t", "name": "m", "seq": 1, "ts": "t", "reason": "r", "at": 1.0}


def test_a_record_is_written_after_the_file_was_replaced_three_times(tmp_path, monkeypatch):
    layer = tmp_path / "layer"
    answered._record(layer, answered.ANSWERED_FILE, [_rec("old")])
    real, replaced = answered._current, []

    def current(fd, path):  # a drop renamed a new file over the one opened, three times running
        if len(replaced) < 3:
            replaced.append(path)
            return False
        return real(fd, path)

    monkeypatch.setattr(answered, "_current", current)
    answered._record(layer, answered.ANSWERED_FILE, [_rec("kept"), _rec("dropped")], lambda: {"kept"})
    assert len(replaced) == 3
    assert list(answered.answered(layer)) == ["old", "kept"]  # the kept finding's record; the dropped one's not


@pytest.mark.slow  # real processes, 4 hooks beside back-to-back drops: ~10 s
def test_no_record_lost_and_no_dropped_one_back_with_concurrent_hooks_and_drops(tmp_path):
    pytest.importorskip("fcntl")
    layer = tmp_path / "layer"
    (layer / ".memdir").mkdir(parents=True)
    (layer / "kept.json").write_text(json.dumps([f"d-{i}" for i in range(200)]))
    child = os.path.join(os.path.dirname(__file__), "answered_stress_child.py")
    hooks, per = 4, 500
    procs = [subprocess.Popen([sys.executable, child, "hook", str(layer), str(h), str(per)]) for h in range(hooks)]
    procs += [subprocess.Popen([sys.executable, child, "drop", str(layer), str(d), "0"]) for d in range(2)]
    assert [p.wait(timeout=300) for p in procs] == [0] * len(procs)
    ids = [e["id"] for e in answered.records(layer, answered.ANSWERED_FILE)]
    mine = [i for i in ids if i.startswith("u-")]
    assert sorted(mine) == sorted(f"u-{h}-{j}" for h in range(hooks) for j in range(per))  # every hook's record
    assert [i for i in ids if i.startswith("d-")] == []  # every dropped finding's record out, none come back
