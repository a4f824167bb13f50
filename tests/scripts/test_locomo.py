"""The LoCoMo benchmark script on a tiny conversation in LoCoMo's JSON layout."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import DATA, REPO

SAMPLE = [{
    "sample_id": "tiny",
    "conversation": {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1:00 pm on 3 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a greyhound called Pixel last week!"},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Congrats! I started pottery classes on Tuesdays."},
            {"speaker": "Ana", "dia_id": "D1:3", "text": "Look at this", "blip_caption": "a photo of a red kayak"},
        ],
        "session_2_date_time": "9:00 am on 10 June, 2023",
        "session_2": [
            {"speaker": "Ben", "dia_id": "D2:1", "text": "My pottery teacher loved my blue vase."},
            {"speaker": "Ana", "dia_id": "D2:2", "text": "Pixel learned to fetch at the beach."},
        ],
    },
    "qa": [
        {"question": "What is the name of Ana's greyhound?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
        {"question": "What colour was the kayak?", "answer": "red", "evidence": ["D1:1"], "category": 4},
        {"question": "When did Ben make the vase?", "answer": "June", "evidence": ["D2:1; D1:2"], "category": 2},
        {"question": "Unanswerable?", "answer": "", "evidence": ["D1:2"], "category": 5},
    ],
}]


@pytest.mark.slow
def test_locomo_benchmark_runs_on_a_tiny_conversation(tmp_path):
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(SAMPLE), encoding="utf-8")
    audit = tmp_path / "audit.json"
    audit.write_text(json.dumps([{"question_id": "locomo_0_qa1", "cited_evidence": ["D1:1"],
                                  "correct_evidence": ["D1:3"]}]), encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "locomo_retrieval.py"), "--data", str(data),
                          "--fix-audit", str(audit), "--modes", "bm25"],
                         check=False, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[0]["load"]["memories"] == 5 and lines[0]["load"]["audit_fixes"] == 1
    result = lines[1]
    assert result["mode"] == "bm25"
    assert result["overall"]["questions"] == 3  # category 5 is left out
    # greyhound → D1:1 first; kayak (audit-corrected to D1:3, the caption) first; vase: D2:1 and D1:2 both in the top 5
    assert result["per_category"]["single-hop"]["R@1"] == 100.0
    assert result["per_category"]["temporal"]["R@5"] == 100.0
    assert set(result["latency_ms"]) == {"p50", "p95"} and result["audit_fixes_applied"] == 1


def test_locomo_benchmark_without_data_says_so(tmp_path):
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "locomo_retrieval.py"), "--data",
                          str(tmp_path / "absent.json")], check=False, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert json.loads(out.stdout)["skipped"].startswith("no LoCoMo data")
    assert DATA.name == "data"  # the real file is used by the benchmark itself, never by the test suite
