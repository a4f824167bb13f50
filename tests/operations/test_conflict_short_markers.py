"""Conflict markers shorter than git's seven (team41): a `.gitattributes` line `db-port.md conflict-marker-size=5`
makes git's own line merge (a clone without memdir's merge driver) write `<<<<< HEAD` / `=====` / `>>>>> …`. Only
`team status` (git's attribute, from its `git check-attr`) read them; the scan read the file as a memory, so the
list, the context block, search and a read by name gave a conflicted file's text to the agent. Every reader now
takes the markers' size from the file by the one rule (`memdir.files.conflicts.marker_size`: the first whole
hunk, of any size). Controls in the same merge: a memory conflicted with git's seven-character markers is held
back too, and a memory nobody changed on both sides is read everywhere."""

from __future__ import annotations

import time

import pytest

from memdir.files.conflicts import has_conflict, marker_size, segments
from memdir.tools.memory_directory import run
from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

pytestmark = pytest.mark.slow


def _merge(tmp_path):
    """A and B change the bodies of db-port (markers of 5) and ci (git's 7); style changes on neither side. B's
    clone trusts its team layer but has no merge driver; B pulls: git's line merge, two conflicted files."""
    a, b = shared_repository(tmp_path)
    git(b.root, "config", "--remove-section", "merge.memdir")  # this clone never registered the driver
    with open(a.team_dir / ".gitattributes", "a", encoding="utf-8") as handle:
        handle.write("db-port.md conflict-marker-size=5\n")
    mem = a.memory()
    mem.write("db-port", "Dev database listens on 5433 zebra", "project", "Ask in #infra.\n", scope="team")
    mem.write("ci", "CI runs on Buildkite zebra", "project", "Ask in #infra.\n", scope="team")
    mem.write("style", "Code style is black zebra", "project", "Line length 100.\n", scope="team")
    a.publish("team memories", b)
    time.sleep(1.1)
    for name in ("db-port", "ci"):
        a.memory().write(name, body="Ask in #platform.\n", scope="team")
    a.publish("A")
    time.sleep(1.1)
    for name in ("db-port", "ci"):
        b.memory().write(name, body="Ask in #ops.\n", scope="team")
    b.commit_all("B")
    assert b.pull(check=False).returncode != 0
    return b


def test_markers_of_five_hold_a_memory_back_from_every_reader(tmp_path):
    b = _merge(tmp_path)
    five, seven = (b.team_dir / "db-port.md").read_bytes(), (b.team_dir / "ci.md").read_bytes()
    assert b"\n<<<<< HEAD\n" in five and b"\n=====\n" in five and b"\n>>>>> " in five  # what git wrote
    assert b"<<<<<<" not in five and b"\n<<<<<<< HEAD\n" in seven  # control: git's seven in the other file
    assert (marker_size(five), has_conflict(five), marker_size(seven), has_conflict(seven)) == (5, True, 7, True)
    mem = b.memory()
    listed = mem.list(scope="team")
    assert [m.name for m in listed.memories] == ["style"]  # the clean one, listed
    assert sorted((m.path.rsplit("/", 1)[-1], m.error) for m in listed.malformed) == [
        ("ci.md", "unresolved merge conflict"), ("db-port.md", "unresolved merge conflict")]
    block = mem.context()
    assert "Code style is black zebra" in block  # control
    assert "db-port" not in block and "5433" not in block and "Buildkite" not in block
    assert [r.name for r in mem.search("zebra")] == ["style"]
    for name in ("db-port", "ci"):
        expected = (f'memory "{name}" of the team layer is not read: {b.team_dir / (name + ".md")} has an '
                    f"unresolved merge conflict; settle it first (memdir team resolve {name} --ours|--theirs, or "
                    "edit it by hand)")
        assert mem.call_tool("memory_read", {"name": name}) == f"Error: {expected}"
    assert "Line length 100." in mem.call_tool("memory_read", {"name": "style"})  # control
    listing = run(mem.session, {"command": "view", "path": "/memories/team"}).text
    assert sorted(line for line in listing.splitlines() if line.startswith("?")) == [
        f"?\t/memories/team/{name}.md\t(there, but not a readable memory: unresolved merge conflict)"
        for name in ("ci", "db-port")]
    out = run_cli("--home", b.home, "--project", b.root, "context").stdout
    assert "Code style is black zebra" in out and "5433" not in out
    assert mem.team_status().conflicts == (str(b.team_dir / "ci.md"), str(b.team_dir / "db-port.md"))
    # settled with the markers the file holds: A's side, then read as a memory again
    mem.team_resolve("db-port", "theirs")
    assert mem.read("db-port", "team", count=False).record.body == "Ask in #platform."


def test_short_runs_in_prose_are_text():
    """Controls: what only looks like a short hunk is a memory's text — no label after the ``<`` run, no closing
    line, or a lone heading underline — and seven-character markers keep their size."""
    for text in (b"---\nname: a\ndescription: d\n---\n<<<<<\nx\n=====\n>>>>> y\n",  # no label: no opening line
                 b"---\nname: a\ndescription: d\n---\n<< 5 ms is fast\nTitle\n==\n",  # no closing line
                 b"---\nname: a\ndescription: d\n---\nTitle\n=====\n> a quote\n"):
        assert (has_conflict(text), marker_size(text), segments(text)) == (False, 7, [text])
    five = b"<<<<< ours\n<<<<<<< a\n=====\nb\n>>>>> theirs\n"  # a hunk of five holding a seven-character line
    assert marker_size(five) == 5 and [part.ours for part in segments(five)] == [b"<<<<<<< a\n"]
