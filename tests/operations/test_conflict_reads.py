"""A team clone without memdir's merge driver: git leaves conflict markers in a memory file. Such a
file is never read as a memory on any read path — list, context, recall, search, the tools by name,
the memory tool's directory — and a read by name says it waits to be settled (never "deleted")."""

from __future__ import annotations

import pytest

from memdir.tools.memory_directory import run
from tests.teamgit import git, shared_repository

MARKERS_ONLY = "<<<<<<< HEAD\n=======\n>>>>>>> theirs\n"  # an add/add conflict of two empty files


@pytest.fixture
def conflicted(tmp_path):
    a, b = shared_repository(tmp_path)
    git(b.root, "config", "--remove-section", "merge.memdir")  # this clone never registered the driver
    a.memory().write("db-port", "Dev database listens on 5433", "project", "Moved in May zebra.", scope="team")
    a.memory().write("ci", "CI runs on Buildkite zebra", "project", "Pipeline in .buildkite.", scope="team")
    a.commit_all("team memories")
    a.push()
    b.pull()
    a.memory().write("db-port", "Dev database listens on 5434", "project", "Moved in June zebra.", scope="team")
    a.commit_all("June")
    a.push()
    b.memory().write("db-port", "Dev database listens on 6543", "project", "Moved in July zebra.", scope="team")
    b.commit_all("July")
    assert b.pull(check=False).returncode != 0
    text = (b.team_dir / "db-port.md").read_text()
    assert "<<<<<<< HEAD" in text and "Moved in June zebra." in text  # git's own markers, both sides
    (b.team_dir / "empty.md").write_text(MARKERS_ONLY)
    return b


@pytest.mark.slow
def test_a_file_git_left_conflicted_is_read_by_no_path(conflicted):
    mem = conflicted.memory()
    listed = mem.list(scope="team")
    assert [m.name for m in listed.memories] == ["ci"]  # control: the settled memory is listed
    assert sorted((m.path.rsplit("/", 1)[-1], m.error) for m in mem.list().malformed) == [
        ("db-port.md", "unresolved merge conflict"), ("empty.md", "unresolved merge conflict")]
    block = mem.context()
    assert "CI runs on Buildkite zebra" in block  # control
    assert "db-port" not in block and "543" not in block and "empty" not in block
    assert [r.name for r in mem.search("zebra")] == ["ci"]
    recall = mem.recall("Which port does the dev database use, and where is the zebra pipeline?")
    assert "Moved in" not in recall
    expected = (f'memory "db-port" of the team layer is not read: {conflicted.team_dir / "db-port.md"} has an '
                "unresolved merge conflict; settle it first (memdir team resolve db-port --ours|--theirs, or edit "
                "it by hand)")
    assert mem.call_tool("memory_read", {"name": "db-port"}) == f"Error: {expected}"
    assert "Pipeline in .buildkite." in mem.call_tool("memory_read", {"name": "ci"})  # control
    assert "db-port" not in mem.call_tool("memory_search", {"query": "zebra"})
    view = run(mem.session, {"command": "view", "path": "/memories/team/db-port.md"})
    assert (view.is_error, view.text) == (True,
                                          f"The path /memories/team/db-port.md exists but cannot be read: {expected}")
    listing = run(mem.session, {"command": "view", "path": "/memories/team"}).text
    assert "/memories/team/ci.md" in listing and "543" not in listing and "Moved in" not in listing
    # named as files that are there but not readable (tools40: they were left out), as list's malformed names them
    assert [line for line in listing.splitlines() if line.startswith("?")] == [
        f"?\t/memories/team/{name}.md\t(there, but not a readable memory: unresolved merge conflict)"
        for name in ("empty", "db-port")]
    empty = run(mem.session, {"command": "view", "path": "/memories/team/empty.md"})
    assert empty.is_error and "empty.md has an unresolved merge conflict" in empty.text
