"""What the agent saved during a session is not asked for again at the next start (newuser36, the real Claude Code:
the model saved ``db-port``, ``deploy-vpn`` and ``pnpm`` while the person said them, and the next session's
``<memory_pending>`` still said "nothing was saved from them" and asked for both sentences again).

Two causes, each with its control: a sentence of several facts saved as several memories was held by no one
of them (each holds a third of its words: now they hold it together), and a memory's description and body
were joined by a space, so "…over npm" + "Use pnpm…" read "npm use" beside "always use", a correction
(now one field a line: ``coverage.memory_text``)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memdir import Memory
from memdir.prompt import coverage, pending
from tests.consolidation.test_consolidate import cc_transcript

SAVED = [("db-port", "project", "Dev PostgreSQL listens on 5433, not 5432",
          "**Why:** 5432 clashes with the system postgres.\n**How to apply:** DATABASE_URL uses port 5433."),
         ("deploy-vpn", "project", "Staging deploys need the corporate VPN",
          "Run `make deploy-staging` only with the VPN up; otherwise it hangs at the ssh step."),
         ("pnpm", "user", "User prefers pnpm over npm", "Use pnpm for every JS install.")]


def _pending_after(tmp_path, agent, said: str, saved=None, first: str = "pnpm") -> list[str]:
    """The person says ``said``; the agent saves ``saved`` (``(name, type, description, body)`` each; None:
    :data:`SAVED`) with memory_write, ``said`` 30 s before the memory ``first`` was saved; the session's end is
    consolidated with the agent extractor. Returns the pending findings' texts after it."""
    for name, kind, description, body in SAVED if saved is None else saved:
        agent.call_tool("memory_write", {"name": name, "type": kind, "description": description, "body": body})
    at = agent.read(first, count=False).record.updated
    stamp = lambda seconds: (at + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", said, stamp(-30)), ("assistant", "Saved.", stamp(5)))
    agent.consolidate(path, mode="always", extractor="agent")
    return [item["text"] for item in pending.load(agent.session.layer_path("project"))]


@pytest.mark.slow
@pytest.mark.parametrize("said, kept", [
    ("Remember: dev postgres is on 5433, staging deploys need the VPN, and I prefer pnpm.", []),  # held together
    ("Always use pnpm from now on.", []),  # held by pnpm: its fields are no longer read as one sentence
    # controls: a fact none of them saved, and a correction of what pnpm's body says, stay pending
    ("Remember: dev postgres is on 5433, staging deploys need the VPN, and the API key rotates every 90 days.",
     ["Remember: dev postgres is on 5433, staging deploys need the VPN, and the API key rotates every 90 days."]),
    ("Always use bun for every JS install.", ["Always use bun for every JS install."]),
])
def test_what_the_session_saved_is_not_pending(tmp_path, isolated_home, project, said, kept):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert _pending_after(tmp_path, agent, said) == kept


def test_fields_are_not_read_as_one_sentence():
    """The cause of the second case, in the rule's own module; control: within one field the words still stand
    beside each other, so a changed value there is a correction."""
    fields = ("pnpm", "User prefers pnpm over npm", "Use pnpm for every JS install.")
    assert coverage.corrects("Always use pnpm from now on.", " ".join(fields))  # the old joined text: a "correction"
    assert not coverage.corrects("Always use pnpm from now on.", coverage.memory_text(*fields))
    assert coverage.corrects("Use bun for every JS install.", coverage.memory_text(*fields))  # control


# newuser38, the real Claude Code 2.1.332: the person said one sentence of three facts, the model saved three memories
# in that session, and the next start's <memory_pending> still said "nothing was saved from them" — twice. Two words
# read as a correction: the "not" of "uv not pip here" reached across the comma to "dev" (a new clause), and "like
# terse answers" against "prefers terse answers" read as another value beside "terse".
SAID_38 = "Remember: use uv not pip here, dev db is on 5433, and I use neovim and like terse answers."
SAVED_38 = [("python-installs", "feedback", "Use uv for Python installs in this service, never pip",
             "**Why:** pip breaks uv.lock.\n**How to apply:** uv add / uv sync in pysvc."),
            ("dev-db-port", "project", "Dev PostgreSQL of pysvc listens on 5433",
             "Moved from 5432 on 2026-11-02 because of a clash with the system Postgres."),
            ("editor", "user", "The user edits in Neovim and prefers terse answers",
             "Terse answers, no preamble; Neovim keybindings when suggesting editor actions.")]


@pytest.mark.slow
@pytest.mark.parametrize("said, kept", [
    (SAID_38, []),  # held by the three memories together
    # control: the same sentence with a value none of them holds stays pending
    (SAID_38.replace("5433", "6543"), [SAID_38.replace("5433", "6543")]),
])
def test_a_sentence_of_three_facts_saved_as_three_memories_is_not_pending(tmp_path, isolated_home, project,
                                                                           said, kept):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert _pending_after(tmp_path, agent, said, SAVED_38, "editor") == kept


@pytest.mark.slow
def test_a_preference_saved_with_a_how_to_apply_line_of_other_verbs_is_not_pending(tmp_path, isolated_home, project):
    """newuser44 (the real Gemini CLI): "Please remember that I use vim as my editor", saved by the agent as "The user
    edits in vim" with "give vim keybindings" in its body, was kept pending: "use vim" read as another value than
    "give vim". Control in the same setup: a sentence the memory does not state stays pending."""
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    agent.call_tool("memory_write", {"name": "editor", "type": "user", "description": "The user edits in vim",
                                     "body": "**Why:** muscle memory.\n**How to apply:** give vim keybindings, not "
                                             "VS Code ones."})
    at = agent.read("editor", count=False).record.updated
    stamp = lambda seconds: (at + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    said = ("Please remember that I use vim as my editor", "Please remember that I use tmux for every terminal")
    path = cc_transcript(tmp_path / "t.jsonl", ("user", said[0], stamp(-30)), ("assistant", "Saved.", stamp(1)),
                         ("user", said[1], stamp(2)), ("assistant", "Noted.", stamp(5)))
    agent.consolidate(path, mode="always", extractor="agent")
    assert [item["text"] for item in pending.load(agent.session.layer_path("project"))] == [said[1]]


PKG = [("pkg-manager", "feedback", "Use pnpm, never npm, in this repo",
        "**Why:** the lockfile is pnpm-lock.yaml.\n**How to apply:** pnpm install / pnpm add.")]


@pytest.mark.slow
@pytest.mark.parametrize("said, kept", [
    # newuser46, the real Claude Code 2.1.332: the agent saved pkg-manager in the session, and the next session's
    # <memory_pending> still asked for "I prefer pnpm over npm here." ("over" read as a value beside "pnpm")
    ("I prefer pnpm over npm here, please keep that in mind.", []),
    ("Use pnpm instead of npm here, please keep that in mind.", []),
    # controls in the same setup: the choice turned around, and a fact pkg-manager does not hold, stay pending
    ("I prefer npm over pnpm here, please keep that in mind.", ["I prefer npm over pnpm here."]),
    ("I prefer pnpm over npm here, and staging deploys need the VPN.",
     ["I prefer pnpm over npm here, and staging deploys need the VPN."]),
])
def test_a_choice_saved_with_never_is_not_pending(tmp_path, isolated_home, project, said, kept):
    agent = Memory.open(home=isolated_home, project=project, search_vectors="off")
    assert _pending_after(tmp_path, agent, said, saved=PKG, first="pkg-manager") == kept


@pytest.mark.parametrize("item, turned", [
    ("I prefer pnpm over npm here.", {"npm"}),
    ("Use pnpm instead of npm.", {"npm"}),
    ("We pin Node 20 rather than float it", {"float"}),
    ("We would rather pin Node 20 than float it", set()),  # control: "rather" before the option kept turns nothing
    ("The standby takes over the queue", set()),  # control: "over" after no choice turns nothing
    ("I prefer pnpm. Over npm it wins", set()),   # control: a clause's end stands between the choice and "over"
])
def test_the_option_turned_down_reads_as_negated(item, turned):
    from memdir.prompt.coverage import _stems, _turned

    assert _turned(item, _stems(item)) == turned


def test_a_later_write_of_the_choice_ends_the_pending_finding(isolated_home, project):
    """The same rule on the other path: a finding kept pending, then saved by the next session's agent with its
    memory_write (tool path), ends; the reversed choice written first leaves it pending (the control)."""
    person = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    report = person.consolidate([{"role": "user", "content": "I prefer pnpm over npm here."}], extractor="agent")
    assert report.pending == ("I prefer pnpm over npm here.",)
    layer = person.session.layer("project").path
    agent = Memory.open(home=isolated_home, project=project, session="s2", search_vectors="off")
    agent.call_tool("memory_write", {"name": "pkg-npm", "type": "feedback",
                                     "description": "Use npm, never pnpm, in this repo", "body": ""})
    assert [i["text"] for i in pending.load(layer)] == ["I prefer pnpm over npm here."]  # the reversal: pending
    name, kind, description, body = PKG[0]
    agent.call_tool("memory_write", {"name": name, "type": kind, "description": description, "body": body})
    assert pending.load(layer) == []
