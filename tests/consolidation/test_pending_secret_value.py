"""A sentence whose only content is a secret's value (redacted before extraction) is never a pending finding
(break39): the agent extractor kept "Remember that the staging database password is [REDACTED:password]!" — nothing
to save — and two such sentences took two of the three places, so the person's port and deploy day were left out
at the next session start. The rules extractor already kept nothing of them (one test, rules.secret_value_only)."""

from __future__ import annotations

from memdir.prompt import pending
from tests.consolidation.test_agent_mode import start
from tests.consolidation.test_consolidate import cc_transcript


def test_a_redacted_secret_takes_no_pending_place_from_the_persons_findings(mem, isolated_home, project, tmp_path):
    transcript = cc_transcript(
        tmp_path / "s1.jsonl",
        ("user", "Remember that the staging database password is Tr0ub4dor&3xyz!", "2026-12-01T10:00:00Z"),
        ("assistant", "Noted.", "2026-12-01T10:00:01Z"),
        ("user", "Remember my OpenAI key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd", "2026-12-01T10:01:00Z"),
        ("assistant", "Noted.", "2026-12-01T10:01:01Z"),
        ("user", "Remember that the dev postgres listens on 5433.", "2026-12-01T10:02:00Z"),
        ("user", "Merke dir: wir deployen nur dienstags.", "2026-12-01T10:03:00Z"))
    report = mem.consolidate(str(transcript), extractor="agent", mode="always")
    assert report.redactions == 2
    context = start(project, "s2")
    block = context[context.index(pending.OPEN):]
    assert block.endswith(pending.CLOSE)
    assert "“Remember that the dev postgres listens on 5433.”" in block  # the person's findings, both
    assert "“Merke dir: wir deployen nur dienstags.”" in block
    assert "REDACTED" not in block and "password" not in block and "OpenAI" not in block
    assert "Tr0ub4dor" not in context and "sk-proj-" not in context


def test_no_secret_of_a_transcript_becomes_a_memory_with_the_rules_extractor(mem, tmp_path):
    said = ["Remember the jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5",
            "Merke dir: das Passwort für staging ist Zx9kLm2Qp77",
            "记住：数据库密码是 Zx9!kLm2Qp",
            "Remember that the slack webhook is https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXX",
            "Remember that the dev postgres listens on 5433."]
    turns = [{"role": "user", "content": text} for text in said]
    report = mem.consolidate(turns, extractor="rules", mode="always")
    assert report.redactions == 4
    kept = {m.name: m.description for m in mem.list().memories}
    assert kept["dev-postgres-listens-5433"] == "The dev postgres listens on 5433."  # control: the fact is kept
    files = "".join(p.read_text() for p in mem.session.layer("project").path.glob("*.md"))
    files += "".join(p.read_text() for p in mem.session.layer("user").path.glob("*.md"))
    assert "5433" in files
    for secret in ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "Zx9kLm2Qp77", "Zx9!kLm2Qp", "T00000000/B00000000"):
        assert secret not in files, secret
    # a sentence that kept only a redacted value is no memory (数据库密码是 [REDACTED:password])
    assert not any("密码" in description for description in kept.values()), kept
