"""The secrets redacted from a transcript are counted by kind (inject41), wherever their total was shown: the report
and its text, its JSON (``memdir consolidate --json``), the receipt journaled, and the session-end drain's log.
A total alone ("3 secret(s) redacted") did not say what had been pasted."""

from __future__ import annotations

import json

from memdir import Memory
from memdir.consolidation.queue import append, drain, log_path
from memdir.render.consolidation import consolidation

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"
OTHER = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0" + "P1o2N3m4L5k6J7i8"
SAID = [{"role": "user", "content": f"Remember that CI logs in with deploy:Pa55w0rd!x and the token {TOKEN}."},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": f"The backup job uses {OTHER} too."}]
CLEAN = [{"role": "user", "content": "Remember that CI runs nightly."}]


def _receipts(mem) -> list[dict]:
    journal = (mem.session.layer("project").meta / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    return [e for e in map(json.loads, journal) if e["action"] == "receipt"]


def test_the_report_its_text_its_json_and_its_receipt_count_each_kind(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project)
    report = mem.consolidate(SAID, extractor="rules", mode="always")
    assert (report.redactions, report.redaction_kinds) == (3, {"github-token": 2, "basic-auth": 1})
    data = report.to_dict()
    assert (data["redactions"], data["redaction_kinds"]) == (3, {"basic-auth": 1, "github-token": 2})
    assert ("3 secret(s) redacted from the transcript before extraction (basic-auth×1, github-token×2)"
            in consolidation(report))
    assert [(e["redactions"], e["redaction_kinds"]) for e in _receipts(mem)] == [
        (3, {"basic-auth": 1, "github-token": 2})]


def test_a_transcript_without_secrets_counts_none(isolated_home, project):  # control
    mem = Memory.open(home=isolated_home, project=project)
    report = mem.consolidate(CLEAN, extractor="rules", mode="always")
    assert (report.redactions, report.to_dict()["redaction_kinds"]) == (0, {})
    assert "secret(s) redacted" not in consolidation(report)
    assert [(e["redactions"], e["redaction_kinds"]) for e in _receipts(mem)] == [(0, {})]


def test_the_drain_log_names_the_kinds_redacted(isolated_home, project, tmp_path):
    secret, clean = tmp_path / "secret.json", tmp_path / "clean.json"
    secret.write_text(json.dumps(SAID), encoding="utf-8")
    clean.write_text(json.dumps(CLEAN), encoding="utf-8")
    for path in (secret, clean):
        append(isolated_home, str(path), cwd=str(project), event="SessionEnd")
    drain(isolated_home, extractor="rules")
    log = log_path(isolated_home).read_text(encoding="utf-8")
    assert f" redacted=basic-auth×1,github-token×2 event=SessionEnd {secret}" in log
    assert f"ok applied=1 event=SessionEnd {clean}" in log  # control: nothing redacted, nothing said of it
