"""A person's save that lands while memdir replaces the file is kept as a version (DESIGN §1.3, §5).

memdir journals a hand edit it finds before replacing a file (:func:`memdir.layer.commit.preserve`),
but an editor can save after that read and before the rename. 16 concurrent writers (CLI, MCP, the
Python API) against one memory with a person saving it by hand lost 53 of 208 hand edits: neither on
disk nor in history. The backup link is now taken just before the rename and compared with what was
read (:func:`memdir.layer.commit.late_edit`).
"""

from __future__ import annotations

import os

import pytest

from memdir.layer import commit

HAND = ("---\nname: shared\ndescription: Deploys go out on Thursdays\ntype: project\n---\n"
        "Changed by a person in their editor.\n")


def _save_by_hand(path, in_place: bool) -> None:
    if in_place:  # an editor that truncates and rewrites the same file
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(HAND)
    else:  # an editor that writes a temp file and renames it over
        temp = path.with_name(".shared.md.swp")
        temp.write_text(HAND, encoding="utf-8")
        os.replace(temp, path)


def _history(mem):
    return [(v.action, v.actor) for v in mem.history("shared").versions]


@pytest.mark.parametrize("in_place", [True, False], ids=["in-place", "renamed-over"])
def test_a_save_between_memdirs_read_and_its_replace_is_kept(mem, project, monkeypatch, in_place):
    mem.write("shared", "Deploys go out on Fridays", "project", "After the standup.")
    preserve = commit.preserve

    def then_a_person_saves(journal, name, path, session):
        found = preserve(journal, name, path, session)
        _save_by_hand(path, in_place)  # after memdir read the file, before it replaces it
        return found

    monkeypatch.setattr(commit, "preserve", then_a_person_saves)
    result = mem.write("shared", "Deploys go out on Mondays", "project", "Moved in December.")

    assert mem.read("shared", count=False).record.description == "Deploys go out on Mondays"
    assert _history(mem) == [("create", "agent"), ("external-edit", "human"), ("update", "agent")]
    assert mem.show("shared", 2).text == HAND
    assert any("edited while memdir changed it" in w for w in result.warnings)
    assert mem.verify().ok


def test_a_write_with_no_save_in_between_journals_no_edit(mem):
    """Control: the same two writes, nobody saving by hand, keep two versions and warn of nothing."""
    mem.write("shared", "Deploys go out on Fridays", "project", "After the standup.")
    result = mem.write("shared", "Deploys go out on Mondays", "project", "Moved in December.")
    assert _history(mem) == [("create", "agent"), ("update", "agent")]
    assert not any("edited" in w for w in result.warnings)
