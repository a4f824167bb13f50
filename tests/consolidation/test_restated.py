"""restate47: consolidation proposed, for review, a restatement of what a memory already says. The README's own
transcript ("remember that the staging deploy needs the VPN") against ``staging-vpn``, which says "The staging deploy
needs the corporate WireGuard VPN", gave ``update staging-vpn → staging-vpn-candidate``; the agent extractor kept it
pending for the next session. An update whose target already saves the finding
(:func:`memdir.prompt.coverage.saves`) is now ``unchanged`` (nothing written, nothing pending) on every path: rules
and agent extractors, ``memdir consolidate``, the SessionEnd hook. Controls in the same setup: a finding that
negates ("no longer needs the VPN") or adds ("needs the VPN and 2FA") is still proposed, or kept pending."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.consolidation.applying import restated, saved_by
from memdir.consolidation.proposals import Proposal
from tests.conftest import run_cli
from tests.consolidation.test_agent_mode import session_end
from tests.consolidation.test_retraction import _pending_texts, _session

README = "remember that the staging deploy needs the VPN"  # the README's consolidate example, as its printf writes it
NEGATED = "remember that the staging deploy no longer needs the VPN"
ADDED = "remember that the staging deploy needs the VPN and 2FA"
DESC = "Staging deploy: VPN required"
BODY = "The staging deploy needs the corporate WireGuard VPN (wg-quick up staging)."


def _store(isolated_home, project, description: str = DESC, body: str = BODY) -> Memory:
    mem = Memory.open(home=isolated_home, project=project)  # the agent wrote it, as in a session
    mem.write("staging-vpn", description, "project", body)
    return mem


def _names(isolated_home, project) -> list[str]:
    return sorted(m.name for m in Memory.open(home=isolated_home, project=project).list().memories)


def _cli(project, isolated_home, said: str, *extra: str) -> str:
    path = project / "session.txt"
    path.write_text(f"USER: {said}\nASSISTANT: Noted.\n", encoding="utf-8")
    done = run_cli("consolidate", path, "--explain", *extra, "--home", isolated_home, "--project", project)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_rule_a_restatement_is_saved_a_negation_or_an_addition_is_not(isolated_home, project):
    record = _store(isolated_home, project).read("staging-vpn", count=False).record
    assert saved_by(record, "The staging deploy needs the VPN")
    assert not saved_by(record, "The staging deploy no longer needs the VPN")
    assert not saved_by(record, "The staging deploy needs the VPN and 2FA")
    assert not saved_by(record, "")
    update = Proposal(action="update", target="staging-vpn", description="The staging deploy needs the VPN",
                      evidence=README)
    assert restated(record, update)
    assert not saved_by(record, "The staging deploy needs the VPN and tmux")  # a word of its own, no value
    # a model's update adding a word to the description, or a line to the body: not a restatement
    assert not restated(record, Proposal(action="update", target="staging-vpn",
                                         description="The staging deploy needs the VPN and tmux"))
    assert not restated(record, Proposal(action="update", target="staging-vpn", description=DESC,
                                         body=BODY + "\nLunch is at noon."))
    assert restated(record, Proposal(action="update", target="staging-vpn", description=DESC, body=BODY))  # control
    # evidence adding a value the description leaves out: not a restatement
    assert not restated(record, Proposal(action="update", target="staging-vpn",
                                         description="The staging deploy needs the VPN", evidence=ADDED))


def test_cli_dry_run_explain_says_unchanged_for_the_readme_transcript(isolated_home, project):
    _store(isolated_home, project)
    out = _cli(project, isolated_home, README, "--dry-run", "--extractor", "rules")
    assert ("1. update staging-vpn → staging-vpn (layer: project): would-unchanged — 'staging-vpn' already says it: "
            "nothing new") in out, out
    assert "0 change(s) would be made" in out and "staging-vpn-candidate" not in out
    for said in (NEGATED, ADDED):  # controls, same store: a correction and an addition are proposed for review
        out = _cli(project, isolated_home, said, "--dry-run", "--extractor", "rules")
        assert "1. update staging-vpn → staging-vpn-candidate (layer: project): would-candidate" in out, out
        assert "1 change(s) would be made" in out


def test_cli_run_writes_nothing_and_the_receipt_says_unchanged(isolated_home, project):
    mem = _store(isolated_home, project)
    report = mem.consolidate(f"USER: {README}\nASSISTANT: Noted.\n", extractor="rules")
    assert report.status == "noop" and report.applied == 0 and report.pending == ()
    (outcome,) = report.outcomes
    assert (outcome.result, outcome.name, outcome.detail) == ("unchanged", "staging-vpn",
                                                              "'staging-vpn' already says it: nothing new")
    receipt = [e for e in mem.session.layer("project").journal.events() if e.action == "receipt"
               and e.data.get("kind") == "consolidation"][-1]
    assert receipt.data["status"] == "noop"
    assert [o["result"] for o in receipt.data["outcomes"]] == ["unchanged"]
    assert _names(isolated_home, project) == ["staging-vpn"] and _pending_texts(isolated_home, project) == []
    # control, same store: the addition waits for review beside the memory, which is left as it was
    report = mem.consolidate(f"USER: {ADDED}\nASSISTANT: Noted.\n", extractor="rules")
    assert [o.result for o in report.outcomes] == ["candidate"] and report.status == "ok"
    candidate = mem.read("staging-vpn-candidate", count=False).record
    assert (candidate.status, candidate.description) == ("candidate", "The staging deploy needs the VPN and 2FA")
    assert mem.read("staging-vpn", count=False).record.body == BODY


@pytest.mark.parametrize("description, body", [(DESC, BODY), ("The staging deploy needs the corporate WireGuard VPN",
                                                                "")])
def test_agent_extractor_keeps_no_restatement_pending_but_keeps_a_correction(isolated_home, project, description,
                                                                             body):
    """Both where the memory says it in its body and in its description (the agent extractor's own check read
    descriptions only, and left the negation and the addition out as "already in memory")."""
    mem = _store(isolated_home, project, description, body)
    report = mem.consolidate(f"USER: {README}\nASSISTANT: Noted.\n", extractor="agent")
    assert report.pending == () and report.status == "noop", report.notes
    assert _pending_texts(isolated_home, project) == []
    for said in (NEGATED, ADDED):  # controls, same store
        report = mem.consolidate(f"USER: {said}\nASSISTANT: Noted.\n", extractor="agent")
        assert report.pending == (said[0].upper() + said[1:],), report.notes
    assert _pending_texts(isolated_home, project) == ["Remember that the staging deploy no longer needs the VPN",
                                                      "Remember that the staging deploy needs the VPN and 2FA"]


def test_agent_extractor_note_names_the_memory(isolated_home, project):
    _store(isolated_home, project)
    out = _cli(project, isolated_home, README, "--dry-run", "--extractor", "agent")
    assert ("note: pending finding not kept (Remember that the staging deploy needs the VPN): memory 'staging-vpn' "
            "(project) holds it") in out, out
    out = _cli(project, isolated_home, ADDED, "--dry-run", "--extractor", "agent")  # control
    assert "“Remember that the staging deploy needs the VPN and 2FA”" in out, out


@pytest.mark.slow
def test_hook_session_end_leaves_no_restatement_pending(isolated_home, project, tmp_path):
    _store(isolated_home, project)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    session_end(project, _session(tmp_path / "a", "Remember that the staging deploy needs the VPN."), isolated_home)
    assert _pending_texts(isolated_home, project) == []
    session_end(project, _session(tmp_path / "b", "Remember that the staging deploy needs the VPN and 2FA."),
                isolated_home)  # control, same home
    assert _pending_texts(isolated_home, project) == ["Remember that the staging deploy needs the VPN and 2FA."]
    assert _names(isolated_home, project) == ["staging-vpn"]
