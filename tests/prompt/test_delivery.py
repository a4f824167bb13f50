"""The changes a prompt hook makes to the session's state are made once its answer is delivered
(:mod:`memdir.prompt.delivery`): held in a warm process until the hook's process says it has the answer, made at
once in the hook's own process. Real temp homes, the session's real record files."""

from __future__ import annotations

from memdir.prompt import recalled
from memdir.prompt.delivery import Held, holding

PROJECT = "/work/p"


def test_a_held_start_text_taken_in_a_held_answer_stays_until_commit(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    assert recalled.hold_start(home, "s1", "the context block", PROJECT, "digest1")
    with Held() as held:
        assert holding()
        assert recalled.take_start(home, "s1", PROJECT) == ("the context block", "digest1")
        recalled.record_start(home, "s1", "digest1", PROJECT)
    assert not holding() and len(held.changes) == 2
    # Not committed (the answer never reached the hook): the hook's own run takes it, and it is gone then.
    assert recalled.start_given(home, "s1", PROJECT) is None
    assert recalled.take_start(home, "s1", PROJECT) == ("the context block", "digest1")
    assert recalled.take_start(home, "s1", PROJECT) == ("", None)


def test_a_committed_answer_makes_its_changes_once(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    recalled.hold_start(home, "s1", "the context block", PROJECT, "digest1")
    with Held() as held:
        recalled.take_start(home, "s1", PROJECT)
        recalled.record_start(home, "s1", "digest1", PROJECT)
        recalled.record(home, "s1", {"project/backups": ("d1", "b1")}, project=PROJECT, unread=True)
    assert recalled.start_given(home, "s1", PROJECT) is None and recalled.shown(home, "s1", PROJECT) == {}
    assert held.commit() == 3 and held.commit() == 0  # each change made once
    assert recalled.take_start(home, "s1", PROJECT) == ("", None)
    assert recalled.start_given(home, "s1", PROJECT) == "digest1"
    assert recalled.shown(home, "s1", PROJECT) == {"project/backups": "d1 b1"}
    assert recalled.take_unread(home, "s1", PROJECT) == {"project/backups": 1}


def test_a_start_held_again_before_the_commit_is_kept(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    recalled.hold_start(home, "s1", "the first block", PROJECT)
    with Held() as held:
        assert recalled.take_start(home, "s1", PROJECT)[0] == "the first block"
    recalled.hold_start(home, "s1", "a new session start's block", PROJECT)
    held.commit()
    assert recalled.take_start(home, "s1", PROJECT)[0] == "a new session start's block"


def test_a_warning_said_in_an_undelivered_answer_is_said_again(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    with Held():
        assert recalled.first_time(home, "s1", "the index is read-only", PROJECT)
    assert recalled.first_time(home, "s1", "the index is read-only", PROJECT)  # made at once: outside a Held
    assert not recalled.first_time(home, "s1", "the index is read-only", PROJECT)
    with Held() as held:
        assert recalled.first_time(home, "s1", "the disk is full", PROJECT)
    held.commit()
    assert not recalled.first_time(home, "s1", "the disk is full", PROJECT)
