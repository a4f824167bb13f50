"""A prompt's plain word matching only a part of a code identifier is weak evidence (issue 28 audit, item 3).

Before: "Add requests to the project dependencies" recalled `logging` (0.67), whose body says "Each log line
carries request_id": "requests" stems to "request", the identifier's part, and counted as a full match."""

from __future__ import annotations

import pytest

from memdir.search import parts, ranking, relevance
from memdir.search.tokenize import identifier_parts, word_forms
from tests.seeded import embedded_audit_store


def test_identifier_parts_are_the_terms_written_only_inside_identifiers():
    assert identifier_parts("Each log line carries request_id.") == {"request": {"request"}, "id": {"id"}}
    assert identifier_parts("Call getUserId, not the cookie.") == {"get": {"get"}, "user": {"user"}, "id": {"id"}}
    # Control: a word the text also writes on its own is no identifier's part only; hyphens are prose.
    assert identifier_parts("requests carry a request_id") == {"id": {"id"}}
    assert identifier_parts("the user-service is read-only") == {}
    assert word_forms("Add requests, get the user's id")["request"] == {"requests"}


def test_a_plural_word_against_an_identifier_part_weighs_a_quarter():
    weights = {"add": 1.0, "request": 4.0}
    raw = "Use structlog for logging. Each log line carries request_id."
    assert parts.parts_weighed(weights, raw, word_forms("add requests")) == {"add": 1.0, "request": 1.0}
    # Controls: the query writing the part as it is written, and a memory without identifiers, keep the weight.
    assert parts.parts_weighed(weights, raw, word_forms("add the request id")) is weights
    assert parts.parts_weighed(weights, "Each log line carries the request.", word_forms("add requests")) is weights


@pytest.mark.slow
def test_add_requests_does_not_recall_the_memory_naming_request_id(isolated_home, project, monkeypatch):
    mem = embedded_audit_store(isolated_home, project, monkeypatch, ["logging", "uv-install", "redis-ttl", "id-helper"])
    hits, _, _ = ranking.ranked(mem.session, "Add requests to the project dependencies", pool=50, min_score=0.0)
    logging = {h.memory.name: h for h in hits}["logging"]
    assert logging.score < relevance.THRESHOLD  # 0.67 before: "request" counted whole
    assert mem.recall_result("Add requests to the project dependencies").memories == ()
    # Control: the prompt naming the identifier's parts as written recalls it.
    assert [m.name for m in mem.recall_result("add the request id to each log line").memories] == ["logging"]
