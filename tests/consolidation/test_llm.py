"""The llm extractor against a real local chat-completions server, through the real openai client."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memdir import Memory
from memdir.consolidation.extractors.llm import parse_reply
from memdir.errors import ModelError
from tests.llm_server import ChatServer

TRANSCRIPT = [
    {"role": "user", "content": "Remember that the API gateway runs on port 8443.", "timestamp": "2026-11-25T09:00:00Z"},
    {"role": "assistant", "content": "Noted."},
]
CREATE = {"action": "create", "name": "gateway-port", "type": "project", "description": "API gateway listens on 8443",
          "body": "The API gateway runs on port 8443."}
OBJECT = json.dumps({"proposals": [CREATE]})


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


@pytest.fixture
def llm_mem(isolated_home, project, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    return Memory.open(home=isolated_home, project=project, actor="human", llm_base_url=server.url,
                       llm_model="test-model", llm_timeout=10, consolidation_extractor="llm")


def disk(home: Path) -> dict:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*"))
            if p.is_file() and p.name not in ("journal.jsonl", "journal.anchor", "lock", "index.stamp",
                                             "manifest.sqlite")}  # kept in step with the journal


def receipts(mem) -> list[dict]:
    path = mem.session.layer("project").meta / "journal.jsonl"
    return [e for e in map(json.loads, path.read_text().splitlines()) if e["action"] == "receipt"]


# ---------------------------------------------------------------- replies that parse


@pytest.mark.slow
@pytest.mark.parametrize("reply", [
    f"```json\n{OBJECT}\n```",
    f"Here is what I would keep from this session:\n\n{OBJECT}\n\nLet me know if you need more.",
    f"<think>The user said port 8443 {{maybe}}; [draft] keep it.</think>\n{OBJECT}",
    json.dumps([CREATE]),
], ids=["fenced", "prose-then-json", "think-then-json", "list"])
def test_tolerant_replies_create_the_memory(llm_mem, server, reply):
    server.replies.append(reply)
    report = llm_mem.consolidate(TRANSCRIPT)
    assert report.status == "ok" and report.extractor == "llm" and report.model == "test-model"
    assert [(o.result, o.name) for o in report.outcomes] == [("created", "gateway-port")]
    record = llm_mem.read("gateway-port", count=False).record
    assert record.origin == "extracted" and record.description == "API gateway listens on 8443"
    (receipt,) = receipts(llm_mem)
    assert receipt["raw"] == reply and receipt["model"] == "test-model"
    assert receipt["proposals"][0]["name"] == "gateway-port"


@pytest.mark.slow
def test_the_prompt_carries_names_tombstones_workspace_and_transcript(llm_mem, server, project):
    (project / "AGENTS.md").write_text("# Agents\nAlways run `make check` before committing.\n", encoding="utf-8")
    agent = llm_mem.as_actor("agent")
    agent.write("db-port", "Dev PostgreSQL listens on 5433", "project", "moved from 5432")
    agent.write("old-host", "Old host is box-9.example.org", "project", "")
    agent.forget("old-host")
    server.replies.append('{"proposals": []}')
    report = llm_mem.consolidate(TRANSCRIPT)
    assert report.status == "noop"
    prompt = server.prompt()
    assert "- db-port [project, project, by agent] — Dev PostgreSQL listens on 5433" in prompt
    assert "- Old host is box-9.example.org" in prompt
    assert "Always run `make check` before committing." in prompt
    assert "USER [2026-11-25]: Remember that the API gateway runs on port 8443." in prompt
    assert "At most 5 proposals" in prompt
    request = server.requests[-1]
    assert request["model"] == "test-model" and request["max_tokens"] == 2048
    assert {k.lower(): v for k, v in server.headers[-1].items()}["authorization"] == "Bearer test-key-123"


def test_seven_proposals_five_applied_two_reported(llm_mem, server):
    items = [{**CREATE, "name": f"fact-{i}", "description": f"Fact number {i} about the gateway"} for i in range(7)]
    server.replies.append(json.dumps({"proposals": items}))
    report = llm_mem.consolidate(TRANSCRIPT)
    assert [o.result for o in report.outcomes] == ["created"] * 5 + ["over-limit"] * 2
    assert sorted(m.name for m in llm_mem.list().memories) == [f"fact-{i}" for i in range(5)]
    assert [o["result"] for o in receipts(llm_mem)[0]["outcomes"]][5:] == ["over-limit", "over-limit"]


# ---------------------------------------------------------------- replies that fail


@pytest.mark.slow
@pytest.mark.parametrize("reply, message", [
    ('{"proposals": [{"action": "create", "name": "gateway-port", "description": "API gateway listens on 8443"}, '
     '{"action": "create", "name": "second", "descr', "truncated"),
    ("", "empty reply"),
    ({"status": 500}, "HTTP 500"),
    ({"sleep": 3, "content": OBJECT}, "did not answer within 1 s"),
], ids=["truncated", "empty", "http-500", "timeout"])
def test_failures_write_nothing_and_leave_a_receipt(isolated_home, project, server, monkeypatch, reply, message):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    # 1 s only where the reply takes 3: a reply given at once must not miss a short timeout on a loaded machine
    timeout = 1 if isinstance(reply, dict) and "sleep" in reply else 30
    mem = Memory.open(home=isolated_home, project=project, actor="human", llm_base_url=server.url,
                      llm_timeout=timeout, consolidation_extractor="llm")
    mem.as_actor("agent").write("keep-me", "An existing memory", "project", "untouched")
    before = disk(isolated_home)
    server.replies.append(reply)
    report = mem.consolidate(TRANSCRIPT)
    assert len(server.requests) == 1  # no retries (the timeout case: the 1 s setting held against a 3 s reply)
    assert report.status == "failed" and message in report.error and report.outcomes == ()
    assert disk(isolated_home) == before  # no partial write; the existing memory untouched
    (receipt,) = receipts(mem)
    assert receipt["status"] == "failed" and message in receipt["error"]
    if isinstance(reply, str) and reply:
        assert receipt["raw"] == reply
    # a failed run is not "done": the next run tries again
    server.replies.append(OBJECT)
    mem2 = Memory.open(home=isolated_home, project=project, actor="human", llm_base_url=server.url,
                       llm_timeout=5, consolidation_extractor="llm")
    assert mem2.consolidate(TRANSCRIPT).status == "ok"


def test_parse_reply_edge_cases():
    assert parse_reply('{"proposals": [{"action": "forget", "target": "x"},]}') == [
        {"action": "forget", "target": "x"}]
    assert parse_reply('{"action": "forget", "target": "x"}') == [{"action": "forget", "target": "x"}]
    assert parse_reply("Nothing worth keeping: []") == []
    with pytest.raises(ModelError, match="only an unfinished <think>"):
        parse_reply("<think>still thinking about {the answer")
    with pytest.raises(ModelError, match="truncated"):  # never the complete inner object of a cut reply
        parse_reply('[{"action": "forget", "target": "x"}, {"action": "cre')
    with pytest.raises(ModelError, match="no JSON proposals"):
        parse_reply("I would not store anything.")


def test_no_key_for_a_remote_endpoint_fails_clearly(isolated_home, project, monkeypatch, person):
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    report = person.consolidate(TRANSCRIPT, extractor="llm")
    assert report.status == "failed" and "no API key" in report.error
    auto = person.consolidate(TRANSCRIPT, extractor="auto", force=True)
    assert auto.extractor == "rules" and auto.status == "ok"  # auto without a key = offline rules



def test_no_key_names_the_variable_its_endpoint_reads(isolated_home, project, monkeypatch, person):
    """newuser33: a harness had set OPENAI_API_KEY (the docs' chat loop reads it) and left llm_base_url at
    DeepSeek's host; the run failed saying "set DEEPSEEK_API_KEY or OPENAI_API_KEY", naming the one it had set.
    The error names the variable DeepSeek's host reads and why the set one is not sent; with llm_api_key_env
    naming it, the key is read (the control: the run reaches the endpoint, a local server here)."""
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    report = person.consolidate(TRANSCRIPT, extractor="llm")
    assert report.status == "failed" and report.error == (
        "no API key for https://api.deepseek.com: set DEEPSEEK_API_KEY (OPENAI_API_KEY is set but belongs to another "
        "vendor's host: name it in llm_api_key_env to send it here), or use the rules extractor (--extractor rules)")
    monkeypatch.delenv("OPENAI_API_KEY")
    bare = person.consolidate(TRANSCRIPT, extractor="llm", force=True)
    assert bare.error == ("no API key for https://api.deepseek.com: set DEEPSEEK_API_KEY (or name your variable in "
                          "llm_api_key_env), or use the rules extractor (--extractor rules)")
    from memdir.consolidation.extractors.llm import api_key
    from memdir.settings import Settings

    named = Settings(llm_api_key_env="OPENAI_API_KEY")  # control: named, the same variable is read for DeepSeek
    assert api_key(named, {"OPENAI_API_KEY": "sk-openai"}) == "sk-openai"

# ---------------------------------------------------------------- applying proposals


def test_identical_proposal_changes_nothing_on_disk(llm_mem, server):
    llm_mem.as_actor("agent").write("gateway-port", "API gateway listens on 8443", "project",
                                    "The API gateway runs on port 8443.")
    before = disk(llm_mem.home)
    server.replies.append(json.dumps({"proposals": [{**CREATE, "action": "update", "target": "gateway-port"},
                                                    {**CREATE, "name": "gateway-port-again"}]}))
    report = llm_mem.consolidate(TRANSCRIPT)
    assert [o.result for o in report.outcomes] == ["unchanged", "unchanged"]
    assert report.status == "noop"
    after = disk(llm_mem.home)
    assert {k: v for k, v in after.items() if "tombstones" not in k} == before
    assert [m.name for m in llm_mem.list(include_all=True).memories] == ["gateway-port"]


def test_change_to_an_agent_memory_becomes_a_candidate_until_approved(llm_mem, server):
    agent = llm_mem.as_actor("agent")
    agent.write("indent-style", "Indent with tabs", "feedback", "Use tabs for indentation.")
    server.replies.append(json.dumps({"proposals": [{
        "action": "update", "target": "indent-style", "type": "feedback",
        "description": "Indent with 4 spaces, not tabs", "body": "Use 4 spaces, not tabs.",
        "evidence": "Use 4 spaces, not tabs"}]}))
    server.replies.append(server.replies[-1])
    dry = llm_mem.consolidate([{"role": "user", "content": "Use 4 spaces, not tabs."}], dry_run=True)
    # before: the dry run named it indent-style, the real run indent-style-candidate
    assert [(o.result, o.name, o.target) for o in dry.outcomes] == [
        ("would-candidate", "indent-style-candidate", "indent-style")]
    report = llm_mem.consolidate([{"role": "user", "content": "Use 4 spaces, not tabs."}])
    assert [(o.result, o.name, o.target) for o in report.outcomes] == [
        ("candidate", "indent-style-candidate", "indent-style")]
    everything = {m.name: m for m in llm_mem.list(include_all=True).memories}
    assert everything["indent-style"].status == "active" and everything["indent-style"].description == "Indent with tabs"
    assert everything["indent-style-candidate"].status == "candidate"
    assert [m.name for m in llm_mem.list().memories] == ["indent-style"]  # never zero on the topic
    assert "Indent with tabs" in llm_mem.context() and "4 spaces" not in llm_mem.context()
    llm_mem.review()  # a person looks first: the approval removes a line of the memory (team33)
    assert llm_mem.approve("indent-style-candidate").name == "indent-style"
    after = {m.name: m for m in llm_mem.list(include_all=True).memories}
    assert list(after) == ["indent-style"] and after["indent-style"].description == "Indent with 4 spaces, not tabs"


def test_own_memories_are_revised_in_place_superseded_and_forgotten(llm_mem, server):
    server.replies.append(json.dumps({"proposals": [
        CREATE, {**CREATE, "name": "ci-system", "description": "CI runs on Buildkite"},
        {**CREATE, "name": "team-lead", "description": "Team lead is Ana"}]}))
    assert llm_mem.consolidate(TRANSCRIPT).applied == 3
    server.replies.append(json.dumps({"proposals": [
        {"action": "update", "target": "gateway-port", "description": "API gateway listens on 9443",
         "body": "Moved to 9443."},
        {"action": "supersede", "target": "ci-system", "name": "ci-system-github",
         "description": "CI runs on GitHub Actions"},
        {"action": "forget", "target": "team-lead"},
        {"action": "update", "target": "no-such-memory", "description": "x"},
        {"action": "explode", "target": "gateway-port"},
    ]}))
    report = llm_mem.consolidate([{"role": "user", "content": "Remember: gateway moved to 9443, CI is on GitHub."}])
    assert [(o.result, o.name or o.target) for o in report.outcomes] == [
        ("updated", "gateway-port"), ("superseded", "ci-system-github"), ("forgotten", "team-lead"),
        ("not-found", "no-such-memory")]
    assert report.invalid[0]["error"].startswith("unknown action 'explode'")
    everything = {m.name: m for m in llm_mem.list(include_all=True).memories}
    assert everything["gateway-port"].description == "API gateway listens on 9443"
    assert everything["ci-system"].status == "superseded" and everything["ci-system-github"].status == "active"
    assert "team-lead" not in everything


def test_forgetting_a_persons_memory_is_left_to_the_person(llm_mem, server):
    llm_mem.write("deploy-day", "Deploys happen on Tuesdays", "project", "")
    server.replies.append(json.dumps({"proposals": [{"action": "forget", "target": "deploy-day"}, CREATE]}))
    report = llm_mem.consolidate(TRANSCRIPT)
    assert [o.result for o in report.outcomes] == ["needs-review", "created"]
    assert {m.name for m in llm_mem.list().memories} == {"deploy-day", "gateway-port"}


def test_candidate_near_a_tombstone_is_refused(llm_mem, server):
    agent = llm_mem.as_actor("agent")
    agent.write("prod-db", "Production database is pg-main-01.corp.example", "project", "")
    agent.write("editor", "The person uses Neovim with lazy.nvim", "user", "", scope="user")
    llm_mem.forget("prod-db")
    server.replies.append(json.dumps({"proposals": [
        {"action": "create", "name": "primary-database", "type": "project",
         "description": "The production database is pg-main-01.corp.example (primary)"},
        {"action": "update", "target": "editor", "type": "user",
         "description": "The person uses Neovim with lazy.nvim and tmux"},
    ]}))
    report = llm_mem.consolidate(TRANSCRIPT)
    assert [o.result for o in report.outcomes] == ["refused-tombstone", "candidate"]  # the control still applies
    assert "primary-database" not in {m.name for m in llm_mem.list(include_all=True).memories}


def test_the_model_never_sees_secrets_and_receipts_hold_none(llm_mem, server):
    key = "sk-proj" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2"
    echoed = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    server.replies.append(json.dumps({"proposals": [
        {"action": "create", "name": "ci-token", "type": "reference",
         "description": "CI uses a GitHub token", "body": f"token {echoed}"}]}))
    report = llm_mem.consolidate([{"role": "user", "content": f"Remember that the OpenAI key is {key}."}])
    assert report.status == "ok"
    prompt = server.prompt()
    assert "[REDACTED:openai-key]" in prompt and key not in prompt
    data = b"".join(disk(llm_mem.home).values()) + (llm_mem.session.layer("project").meta / "journal.jsonl").read_bytes()
    assert b"CI uses a GitHub token" in data and b"[REDACTED:github-token]" in data
    assert key.encode() not in data and echoed.encode() not in data


def test_a_key_only_goes_to_its_own_vendor():
    from memdir.consolidation.extractors.llm import api_key
    from memdir.settings import Settings

    deepseek = Settings()
    other = Settings(llm_base_url="https://api.openai.com/v1")
    only_openai = {"OPENAI_API_KEY": "sk-openai"}
    only_deepseek = {"DEEPSEEK_API_KEY": "sk-deepseek"}
    assert api_key(deepseek, only_openai) is None  # never sent to DeepSeek's host
    assert api_key(deepseek, only_deepseek) == "sk-deepseek"
    assert api_key(other, only_openai) == "sk-openai"
    assert api_key(other, only_deepseek) is None
    named = Settings(llm_api_key_env="MY_KEY")
    assert api_key(named, {"MY_KEY": "k", **only_openai}) == "k"
