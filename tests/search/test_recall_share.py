"""Recall shares its budget fairly, shows the passage asked, and names memories as lines do (issue 28).

A new user's store: a 443-word onboarding note and a one-line memory that both answer "who approves
deploys?" (search ties them). Before, the long body took the whole 2,048-byte block and the short memory was
dropped without a word; a question about the note's fifteenth sentence got its opening. Now every chosen
memory whose title fits is shown, a long body is cut to its share (memdir.search.recall._laid_out) from the
passage holding the prompt's words (memdir.search.passage, the one passage finder of
memdir.search.relevance.best_window), one left out for room is named, and a hash-named memory is headed and
pointed to by its shown name (memdir.text.names.shown_name). Each case has its control: a store where nothing is
cut gives the block exactly as before, an unrelated prompt recalls nothing.
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search.recall import RECALL_NOTE, mark_recalled, recall_result

from ..conftest import run_prompt_hook

SENTENCES = [
    "Welcome to the billing team; this note walks a new engineer through the first two weeks.",
    "Who approves deploys of the billing service: the billing lead approves every deploy that touches invoices.",
    "The billing service runs on three workers behind the payments gateway, with a nightly reconciliation job.",
    "Invoices are generated on the first day of the month and emailed to the account owner as PDF files.",
    "Refunds above five hundred euros need a second reviewer from finance before they are issued.",
    "Tax rates live in the tax-settings table and are refreshed weekly from the provider's export.",
    "The ledger is append-only; corrections are new entries that reverse the old ones, never edits.",
    "Customer accounts are keyed by the tenant id, and every table carries it as its first column.",
    "Read the runbook in the wiki before your first on-call shift, and shadow a colleague for one week.",
    "Dashboards for the billing workers show queue depth, error rate and the age of the oldest job.",
    "The monthly close freezes the ledger on the third working day, after finance signs the report.",
    "Test data lives in the staging tenant; never copy production invoices to a laptop.",
]
ALERTS = "If nobody acknowledges the page, billing alerts route to the finance lead after fifteen minutes."
ENDING = [
    "Billing alerts page the primary on-call engineer when the error rate passes two percent.", ALERTS,
    "Postmortems are written within five days and reviewed in the Thursday billing sync.",
    "Questions go to the billing channel, where someone answers within the working day.",
]
ONBOARDING = f"{' '.join(SENTENCES)}\n\n{' '.join(SENTENCES)}\n\n{' '.join(ENDING)}"
ZOE = "Zoe Müller approves every production deploy; ask her in #deploys."
DEPLOYS, ROUTE = "who approves deploys?", "where do billing alerts route after fifteen minutes?"


def _store(home, project, session=None) -> Memory:
    mem = Memory.open(home=home, project=project, actor="human", search_vectors="off", session=session)
    mem.write("billing-onboarding", "Billing onboarding guide for new engineers", "project", ONBOARDING)
    mem.write("zoe-muller", "she approves every deploy", "project", ZOE)
    return mem


@pytest.fixture
def store(isolated_home, project):
    return _store(isolated_home, project)


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def test_a_long_memory_leaves_room_for_the_short_one(store):
    assert _bytes(ONBOARDING) > 2048 and ONBOARDING.index(ALERTS) > 2048  # the tester's shape
    found = recall_result(store.session, DEPLOYS)
    assert [(m.name, m.cut) for m in found.memories] == [("zoe-muller", False), ("billing-onboarding", True)]
    assert _bytes(found.block) <= 2048 and found.left_out == ()
    assert f"## zoe-muller (type: project; layer: project) — she approves every deploy\n> {ZOE}\n" in found.block
    assert "…(cut; memory_read billing-onboarding for the rest)\n</memory_recall>" in found.block
    assert f"> {SENTENCES[0]} {SENTENCES[1]}" in found.block  # the onboarding note's own answer: its opening
    roomy = recall_result(store.session, DEPLOYS, max_bytes=6000)  # control: room for both whole
    assert [(m.name, m.cut) for m in roomy.memories] == [("zoe-muller", False), ("billing-onboarding", False)]
    assert ALERTS in roomy.block and "(cut;" not in roomy.block


def test_a_cut_body_shows_the_passage_asked(store):
    found = recall_result(store.session, ROUTE)
    assert [(m.name, m.cut) for m in found.memories] == [("billing-onboarding", True)]
    assert _bytes(found.block) <= 2048
    body = found.block.split("Billing onboarding guide for new engineers\n", 1)[1]
    assert body.startswith("> …") and ALERTS in body  # the sentence asked, marked as a cut before it
    assert body.endswith("…(cut; memory_read billing-onboarding for the rest)\n</memory_recall>")
    assert ENDING[-1] in body and _bytes(body) > 1500  # to the note's end, the room filled with what precedes
    opening = recall_result(store.session, DEPLOYS)  # control: a passage in the opening shows the opening
    assert opening.block.split("new engineers\n", 1)[1].startswith(f"> {SENTENCES[0]} {SENTENCES[1]}")


def test_a_body_with_no_passage_is_cut_from_its_start(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    body = " ".join(f"Step {i}: check the sensor array number {i} and log its reading." for i in range(80))
    mem.write("quarterly-freeze", "quarterly freeze calendar", "project", body)
    found = recall_result(mem.session, "quarterly freeze calendar")
    assert [(m.name, m.cut) for m in found.memories] == [("quarterly-freeze", True)]
    assert "\n> Step 0: check the sensor array number 0 and log its reading. Step 1:" in found.block
    assert _bytes(found.block) <= 2048


def test_a_memory_without_room_is_named_not_dropped(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for i in range(3):
        mem.write(f"glacier-{i}", f"glacier survey {i}", "project", f"glacier survey notes {i}: " + "ice core " * 150)
    tight = recall_result(mem.session, "glacier survey notes", max_bytes=600)
    shown = [m.name for m in tight.memories]
    assert len(shown) == 2 and len(tight.left_out) == 1 and _bytes(tight.block) <= 600
    assert f"\n(left out for room: {tight.left_out[0]} — memory_read NAME to see one)\n</memory_recall>" in tight.block
    assert all(f"…(cut; memory_read {name} for the rest)" in tight.block for name in shown)
    assert tight.to_dict()["left_out"] == list(tight.left_out)
    roomy = recall_result(mem.session, "glacier survey notes", max_bytes=2048)  # control: all three fit, cut
    assert (len(roomy.memories), roomy.left_out, "left out" in roomy.block) == (3, (), False)
    assert all(m.cut for m in roomy.memories) and _bytes(roomy.block) <= 2048


def test_a_store_where_nothing_is_cut_recalls_as_before(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL port", "project", "Dev PostgreSQL listens on 5433 since November.")
    mem.write("staging-host", "Where staging lives", "project", "Staging lives at staging.internal.example.")
    found = recall_result(mem.session, "which port does the dev postgres listen on")
    assert found.block == (f"<memory_recall>\n{RECALL_NOTE}\n\n## db-port (type: project; layer: project) — Dev "
                           f"PostgreSQL port\n> Dev PostgreSQL listens on 5433 since November.\n</memory_recall>")
    assert found.to_dict()["left_out"] == [] and [m.cut for m in found.memories] == [False]
    assert recall_result(mem.session, "bake a banana smoothie").block == ""  # control: nothing bears on it


def test_a_hash_named_memory_is_shown_by_its_title_and_pointed_to_so(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="agent", search_vectors="off", session="s1")
    mem.write("部署流程", "deploy process steps", "project", "The deploy process: build, stage, canary, then promote.")
    first = recall_result(mem.session, "deploy process canary", once=True)
    assert "\n## m-c3f8ff75a0 “部署流程” (type: project; layer: project) — deploy process steps\n" in first.block
    mark_recalled(mem.session, first)
    again = recall_result(mem.session, "deploy process canary", once=True)
    assert "(given earlier in this session, unchanged: m-c3f8ff75a0 “部署流程” — memory_read" in again.block
    assert "## m-c3f8ff75a0" not in again.block  # control above: the first prompt had the body


def test_a_cut_shown_once_is_not_given_again_unchanged(isolated_home, project):
    mem = _store(isolated_home, project, session="s1")
    first = recall_result(mem.session, ROUTE, once=True)
    assert [(m.name, m.cut, m.shown) for m in first.memories] == [("billing-onboarding", True, True)]
    mark_recalled(mem.session, first)
    again = recall_result(mem.session, ROUTE, once=True)  # the same cut: named only
    assert [(m.name, m.shown) for m in again.memories] == [("billing-onboarding", False)]
    assert "unchanged: billing-onboarding —" in again.block and ALERTS not in again.block
    other = recall_result(mem.session, DEPLOYS, once=True)  # control: another passage of it is shown
    assert [(m.name, m.shown) for m in other.memories] == [("zoe-muller", True), ("billing-onboarding", True)]
    assert f"> {SENTENCES[0]} {SENTENCES[1]}" in other.block


@pytest.mark.slow
def test_the_prompt_hook_shares_cuts_and_names(isolated_home, project):
    mem = _store(isolated_home, project)
    mem.write("部署流程", "deploy process steps", "project", "The deploy process: build, stage, canary, then promote.")
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project), "MEMDIR_SEARCH_VECTORS": "off"}

    def hook(prompt, session="s1"):
        out = run_prompt_hook(project, prompt, env, session=session)
        return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""

    deploys = hook(DEPLOYS)
    assert f"> {ZOE}" in deploys and "## billing-onboarding " in deploys and _bytes(deploys) <= 2048
    route = hook(ROUTE, session="s2")
    assert ALERTS in route and "> …" in route and "memory_read billing-onboarding for the rest" in route
    first = hook("deploy process canary", session="s3")
    assert "## m-c3f8ff75a0 “部署流程” " in first
    assert "unchanged: m-c3f8ff75a0 “部署流程” —" in hook("deploy process canary", session="s3")
    assert hook("bake a banana smoothie", session="s4") == ""  # control: an unrelated prompt recalls nothing


def test_a_search_snippet_shows_the_same_passage(store):
    assert ALERTS in store.search(ROUTE)[0].snippet  # was the note's opening for the question
    assert store.search(ROUTE)[0].snippet.startswith("…If nobody acknowledges")
    opening = store.search("welcome new engineer billing team")[0].snippet  # control: a passage in the opening
    assert opening.startswith(SENTENCES[0])
