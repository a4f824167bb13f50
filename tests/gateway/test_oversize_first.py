"""A body over the file ceiling (max_file_bytes) is refused before the copy check reads it: that check folds every
character of the body (memdir.text.values.normalize_value) and took 24 of a 29 s refusal of a 3 MB body from the
CLI, 53 s for 13 MB (break19). memdir.gateway.changes.write checks the file's size first."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import InvalidInput
from memdir.text import values


def test_a_body_over_the_file_ceiling_is_refused_before_its_text_is_folded(isolated_home, project, monkeypatch):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off", actor="human")
    folded = []
    real = values.normalize_value
    monkeypatch.setattr(values, "normalize_value", lambda text: folded.append(len(text)) or real(text))
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The dev database listens on 5433.")
    assert folded  # control: a write under the ceiling is checked for a copy (its text folded)
    folded.clear()
    with pytest.raises(InvalidInput, match=r"the memory file would be \d+ bytes, over the 262144-byte ceiling"):
        mem.write("big-log", "A pasted build log", "project", "line of the build log\n" * 20000)
    assert folded == []  # refused before its 440,000 characters were folded
    assert [m.name for m in mem.list().memories] == ["db-port"]
