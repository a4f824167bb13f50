"""An endpoint that answers forever (break36), a real local HTTP server through the real openai client.
``llm_timeout`` was the client's timeout per read: an answer sent a byte at a time, each byte well within it,
held a session-end consolidation (and every queue drain after it, one drain at a time) for as long as the
endpoint liked; an answer of hundreds of megabytes was read whole (300 MB took 1 GB of memory). The whole call
now ends within ``llm_timeout`` seconds and :data:`MAX_REPLY` bytes, the run failed cleanly with its receipt,
the transcript asked again by the next run."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.consolidation.extractors.llm import MAX_REPLY
from tests.llm_server import ChatServer

pytestmark = pytest.mark.slow  # a real HTTP server per test

TRANSCRIPT = [
    {"role": "user", "content": "Remember that the API gateway runs on port 8443.", "timestamp": "2026-11-25T09:00:00Z"},
    {"role": "assistant", "content": "Noted."},
]
ANSWER = json.dumps({"proposals": [{"action": "create", "name": "gateway-port", "type": "project",
                                    "description": "API gateway listens on 8443",
                                    "body": "The API gateway runs on port 8443."}]})


@pytest.fixture
def server():
    with ChatServer() as running:
        yield running


def _model(home, project, server, monkeypatch, timeout):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    return Memory.open(home=home, project=project, actor="human", llm_base_url=server.url, llm_model="test-model",
                       llm_timeout=timeout, consolidation_extractor="llm")


def _names(mem) -> set:
    return set(mem.session.layer("project").scan().entries)


def test_an_answer_sent_a_byte_at_a_time_ends_at_llm_timeout(isolated_home, project, server, monkeypatch):
    # ~330 bytes, 0.25 s each: every read well within the 3 s setting, the whole answer ~80 s (before: read whole,
    # the run "ok" after 80 s)
    server.replies.append({"content": ANSWER, "drip": 0.25})
    mem = _model(isolated_home, project, server, monkeypatch, timeout=3)
    report = mem.consolidate(TRANSCRIPT)
    assert report.status == "failed" and report.outcomes == ()
    assert report.error == f"the model did not answer within 3 s ({server.url})"
    assert _names(mem) == set()
    # Control, same store and transcript: the same answer sent at once is applied by the next run.
    server.replies.append(ANSWER)
    assert mem.consolidate(TRANSCRIPT).status == "ok" and _names(mem) == {"gateway-port"}


def test_an_answer_past_max_reply_bytes_is_not_read_further(isolated_home, project, server, monkeypatch):
    server.replies.append({"content": ANSWER, "pad": MAX_REPLY + 1})  # before: read whole and applied
    mem = _model(isolated_home, project, server, monkeypatch, timeout=30)
    report = mem.consolidate(TRANSCRIPT)
    assert report.status == "failed" and report.outcomes == ()
    assert report.error == (f"the model's answer passed {MAX_REPLY:,} bytes and was not read further "
                            f"({server.url})")
    assert _names(mem) == set()
    # Control: an answer just under the cap (the same padding, less of it) is read and applied.
    server.replies.append({"content": ANSWER, "pad": MAX_REPLY - 4096})
    assert mem.consolidate(TRANSCRIPT).status == "ok" and _names(mem) == {"gateway-port"}


@pytest.mark.parametrize("content, expected", [
    ([{"type": "text", "text": ANSWER}], {"gateway-port"}),
    (None, set()),
])
def test_content_as_parts_is_read_and_none_is_an_empty_reply(isolated_home, project, server, monkeypatch, content,
                                                               expected):
    server.replies.append({"message": {"role": "assistant", "content": content}})
    mem = _model(isolated_home, project, server, monkeypatch, timeout=30)
    report = mem.consolidate(TRANSCRIPT)
    assert _names(mem) == expected
    assert report.status == ("ok" if expected else "failed")
