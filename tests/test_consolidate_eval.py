"""The MSC extraction eval runs and its scorer behaves (figures are reported, not asserted as targets)."""

from __future__ import annotations

import importlib.util

import pytest

from tests.conftest import DATA, REPO

MSC = DATA / "msc" / "personasummary-session1-test.jsonl"


def load_eval():
    spec = importlib.util.spec_from_file_location("extraction_eval", REPO / "evals" / "extraction.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scorer_words_and_matching():
    ev = load_eval()
    assert ev.words("I love grilling steaks!") == {"like", "grill", "steak"}
    assert ev.matches(ev.words("I like grilling steak."), ev.words("I love to grill!"))
    assert not ev.matches(ev.words("I play trumpet in a band."), ev.words("I love to grill!"))
    own, other = ["I have two dogs named Rex and Ace."], ["I drive a red truck."]
    assert ev.source_side("I have two dogs", own, other) == "own"
    assert ev.source_side("I drive a red truck", own, other) == "other"


@pytest.mark.skipif(not MSC.is_file(), reason="../shared/data/msc is absent")
def test_rules_on_msc_never_draw_from_the_other_speaker():
    result = load_eval().evaluate(MSC, "rules", limit=25)
    assert result["dialogues"] == 25 and result["speakers"] == 50
    assert result["memories"] > 0 and result["other_speaker"] == 0
    assert 0 < result["precision"] <= 1 and 0 < result["recall"] <= 1


@pytest.mark.skipif(not MSC.is_file(), reason="../shared/data/msc is absent")
def test_msc_halves_split_the_dialogues_by_parity(tmp_path):
    import json
    import subprocess
    import sys

    data = tmp_path / "three.jsonl"
    data.write_text("".join(MSC.read_text(encoding="utf-8").splitlines(keepends=True)[:3]), encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "evals" / "msc_halves.py"), "--data", str(data)],
                         capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["half"], r["dialogues"]) for r in rows] == [("even", 2), ("odd", 1), ("all", 3)]
    assert rows[0]["facts"] + rows[1]["facts"] == rows[2]["facts"] > 0
    assert rows[0]["memories"] + rows[1]["memories"] == rows[2]["memories"]
