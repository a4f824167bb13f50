"""What the rules extractor finds past its cap is reported, never dropped unsaid (inject40): it proposes at most
2 × consolidation_max_proposals per run and stopped reading there, so the statements after the tenth were lost
without a word — not in the report, its JSON, the receipt, nor the session-end drain's log."""

from __future__ import annotations

import json

from memdir import Memory
from memdir.consolidation.queue import append, drain, log_path
from memdir.render.consolidation import consolidation

SERVICES = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
            "lima", "mike", "november")


def _said(count: int) -> list[dict]:
    return [{"role": "user", "content": f"Remember that service {name} runs on port {8000 + i}."}
            for i, name in enumerate(SERVICES[:count])]


def test_statements_past_the_cap_are_counted_in_the_report_its_text_and_its_receipt(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project)
    report = mem.consolidate(_said(14), extractor="rules")
    assert [o.result for o in report.outcomes] == ["created"] * 5 + ["over-limit"] * 5
    assert (report.left_out, report.beyond_limit) == (4, 9)  # 14 said: 5 written, 5 over the limit, 4 left out
    assert report.to_dict()["left_out"] == 4
    assert "4 more statement(s) found but not proposed" in consolidation(report)
    assert any(n.startswith("4 more statement(s) not proposed: at most 10 proposals per run "
                            "(first left out: Service kilo runs on port 8010.)") for n in report.notes)
    journal = (mem.session.layer("project").meta / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    assert [e["left_out"] for e in map(json.loads, journal) if e["action"] == "receipt"] == [4]


def test_under_the_cap_nothing_is_left_out(isolated_home, project):  # control: the same statements, fewer
    mem = Memory.open(home=isolated_home, project=project)
    report = mem.consolidate(_said(7), extractor="rules")
    assert [o.result for o in report.outcomes] == ["created"] * 5 + ["over-limit"] * 2
    assert (report.left_out, report.beyond_limit) == (0, 2)
    assert "not proposed" not in consolidation(report)


def test_the_session_end_log_says_how_many_were_not_written(isolated_home, project, tmp_path):
    many, few = tmp_path / "many.json", tmp_path / "few.json"
    many.write_text(json.dumps(_said(14)), encoding="utf-8")
    few.write_text(json.dumps([{"role": "user", "content": "Remember that CI runs nightly."}]), encoding="utf-8")
    for path in (many, few):
        append(isolated_home, str(path), cwd=str(project), event="SessionEnd")
    rows = drain(isolated_home, extractor="rules")
    assert sorted((r.status, r.applied) for r in rows) == [("ok", 1), ("ok", 5)]
    log = log_path(isolated_home).read_text(encoding="utf-8")
    assert f"ok applied=5 not_applied_over_limit=9 event=SessionEnd {many}" in log
    assert f"ok applied=1 event=SessionEnd {few}" in log  # control: nothing over the limit, nothing said of it
