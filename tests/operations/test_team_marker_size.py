"""Conflict markers of the repository's size (team40): a `.gitattributes` line `*.md conflict-marker-size=10`
makes git's own line merge (a clone without memdir's merge driver) write markers of ten characters; memdir read
only seven, so the conflicted memory was a memory in the agent's context and `team status` called it "settled, not
yet added: git add it". Both the scan (no git: a whole hunk of longer markers) and team status (git's
`conflict-marker-size` for the path, in its one `git check-attr`) now read them. Controls: seven-character markers
are still found; a line of ten `=` in prose (a heading's underline) is text, not a conflict."""

from __future__ import annotations

import time

import pytest

from memdir.files.conflicts import has_conflict, marker_size, segments
from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow


def _conflict(tmp_path, size: int | None):
    """A and B change one memory's body line without memdir's driver in B's clone; B pulls: git's line merge.
    ``size``: the conflict-marker-size line committed for team memory files (None: git's 7)."""
    a, b = shared_repository(tmp_path, trust=False)
    if size is not None:
        with open(a.team_dir / ".gitattributes", "a", encoding="utf-8") as handle:
            handle.write(f"*.md conflict-marker-size={size}\n")
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "Ask in #infra.\n", scope="team")
    a.publish("team memory", b)
    time.sleep(1.1)
    a.memory().write("db-port", body="Ask in #platform.\n", scope="team")
    a.publish("A")
    time.sleep(1.1)
    b.memory().write("db-port", body="Ask in #ops.\n", scope="team")
    b.commit_all("B")
    assert b.pull(check=False).returncode != 0
    return b


@pytest.mark.parametrize("size", [10, 5, None])
def test_markers_of_the_repository_s_size_are_a_conflict_not_a_settled_file(tmp_path, size):
    b = _conflict(tmp_path, size)
    marks = size or 7
    data = (b.team_dir / "db-port.md").read_bytes()
    assert data.count(b"\n" + b"<" * marks + b" ") == 2 and b"\n" + b">" * marks + b" " in data
    assert has_conflict(data) and marker_size(data) == marks
    assert has_conflict(data, marks) and not has_conflict(data, 9 if size else 10)
    mem = b.memory()
    status = mem.team_status()
    assert status.conflicts == (str(b.team_dir / "db-port.md"),)
    assert status.settled == () and status.fenced == ()
    assert "db-port" not in mem.session.layer("team").scan().entries  # held back from the agent
    out = run_cli("--home", b.home, "--project", b.root, "team", "status").stdout
    assert f"unresolved merge conflict: {b.team_dir / 'db-port.md'}" in out and "settled, not yet added" not in out
    mem.team_resolve("db-port", "theirs")
    assert mem.read("db-port", "team", count=False).record.body == "Ask in #platform."
    assert mem.team_status().conflicts == ()


def test_a_line_of_ten_equals_in_prose_is_text():
    prose = b"---\nname: build\ndescription: how to build\n---\nBuilding\n==========\nRun make.\n"
    assert (has_conflict(prose), marker_size(prose), segments(prose)) == (False, 7, [prose])
    divider = b"---\nname: art\ndescription: a divider\n---\n<<<<<<<<<<\ntext\n==========\n"
    assert (has_conflict(divider), marker_size(divider)) == (False, 7)  # no label, no closing line: no hunk
    seven = b"<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n"  # control: git's default markers
    assert has_conflict(seven) and marker_size(seven) == 7
    assert segments(seven)[0].ours == b"a\n"
    # a hunk of ten holding seven-character lines as its text (why a repository sets the size): one hunk
    ten = b"<<<<<<<<<< ours\n<<<<<<< a\n==========\nb\n>>>>>>>>>> theirs\n"
    assert marker_size(ten) == 10 and [part.ours for part in segments(ten)] == [b"<<<<<<< a\n"]
