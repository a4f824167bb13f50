"""A person asking in German, Korean or Japanese to remember something fires the gate, and the rules
extractor keeps what they asked to keep without the request's words (newuser34: "Merk dir bitte: …",
기억해 주세요, 覚えておいて never reached any extractor, not even a model's: "nothing durable was said")."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.consolidation.extractors.rules import classify
from memdir.consolidation.gate import sentence_rules
from tests.conftest import run_cli
from tests.llm_server import ChatServer


def rules_of(sentence: str) -> set[str]:
    return {rule for rule, _ in sentence_rules(sentence)}


@pytest.mark.parametrize("request_, kept, recollection", [
    ("Merk dir bitte: Die Größe der Log-Dateien ist auf 50 MB begrenzt.",
     "Die Größe der Log-Dateien ist auf 50 MB begrenzt.", "Ich merke, dass die Log-Dateien groß sind."),
    ("Denk daran, dass Staging das VPN braucht.", "Staging das VPN braucht.", "Ich denke daran, morgen zu kommen."),
    ("Vergiss nicht: Der Dev-Server läuft auf Port 5433.", "Der Dev-Server läuft auf Port 5433.", "Vergiss es."),
    ("기억해 주세요: 스테이징 서버 비밀번호는 매주 월요일에 바뀝니다",
     "스테이징 서버 비밀번호는 매주 월요일에 바뀝니다", "그 회의를 기억해요."),
    ("스테이징 배포는 VPN이 필요해, 잊지 마.", "스테이징 배포는 VPN이 필요해", "기억해?"),
    ("覚えておいて：本番データベースは毎晩3時にバックアップされる",
     "本番データベースは毎晩3時にバックアップされる", "その件は覚えています。"),
    ("本番は金曜日にデプロイしない、忘れないでください。", "本番は金曜日にデプロイしない", "覚えてる？"),
])
def test_a_request_fires_and_keeps_its_content_a_recollection_does_not(request_, kept, recollection):
    assert rules_of(request_) == {"remember"}
    assert classify(request_) == ("project", kept)
    assert rules_of(recollection) == set()  # the same words saying "I remember" or asking


def test_a_request_pointing_back_carries_the_sentence_before_it(tmp_path, project):
    path = tmp_path / "t.txt"
    path.write_text("USER: 스테이징 서버 비밀번호는 매주 월요일에 바뀝니다. 기억해 주세요.\nASSISTANT: 네.\n"
                    "USER: Der Build-Cache liegt in /var/cache/ci. Merk dir das.\nASSISTANT: Okay.\n"
                    "USER: Merk dir das.\nASSISTANT: Was denn?\n"
                    "USER: Remember that CI runs nightly.\nASSISTANT: Noted.\n", encoding="utf-8")
    done = run_cli("consolidate", path, "--extractor", "rules", "--json", "--project", project)
    assert done.returncode == 0, done.stderr
    assert [o["result"] for o in json.loads(done.stdout)["outcomes"]] == ["created"] * 3
    listed = json.loads(run_cli("list", "--json", "--project", project).stdout)["memories"]
    descriptions = sorted(m["description"] for m in listed)
    assert descriptions == ["CI runs nightly.", "Der Build-Cache liegt in /var/cache/ci.",
                            "스테이징 서버 비밀번호는 매주 월요일에 바뀝니다."]  # a bare "Merk dir das." keeps nothing


@pytest.mark.slow
def test_a_non_english_session_reaches_the_model_and_chatter_does_not(tmp_path, project, isolated_home, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    asked = tmp_path / "asked.txt"
    asked.write_text("USER: 覚えておいて：本番データベースは毎晩3時にバックアップされる\nASSISTANT: はい。\n", encoding="utf-8")
    chatter = tmp_path / "chatter.txt"
    chatter.write_text("USER: その件は覚えています。ありがとう。\nASSISTANT: どういたしまして。\n", encoding="utf-8")
    proposal = {"action": "create", "name": "本番バックアップ", "type": "project",
                "description": "本番データベースは毎晩3時にバックアップされる", "body": "pg_dump を 3:00 に実行。"}
    with ChatServer() as server:
        server.replies.append(json.dumps({"proposals": [proposal]}, ensure_ascii=False))
        mem = Memory.open(home=isolated_home, project=project, actor="human", llm_base_url=server.url,
                          llm_model="test-model", llm_timeout=10, consolidation_extractor="llm")
        quiet = mem.consolidate(chatter)
        report = mem.consolidate(asked)
        assert len(server.requests) == 1 and "本番データベース" in server.prompt(0)
    assert quiet.status == "gated" and report.status == "ok"
    listed = [(m.title, m.description) for m in mem.list().memories]
    assert listed == [("本番バックアップ", "本番データベースは毎晩3時にバックアップされる")]
