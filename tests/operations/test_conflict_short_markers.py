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


def _merge(tmp_path, sizes=(("db-port", 5),), clean=(("style", "Code style is black zebra", "Line length 100.\n"),)):
    """A and B change the bodies of db-port (markers of 5), ci (git's 7) and every other name of ``sizes`` (name,
    its conflict-marker-size); each memory of ``clean`` (name, description, body) changes on neither side. B's
    clone trusts its team layer but has no merge driver; B pulls: git's line merge, conflicted files."""
    a, b = shared_repository(tmp_path)
    git(b.root, "config", "--remove-section", "merge.memdir")  # this clone never registered the driver
    with open(a.team_dir / ".gitattributes", "a", encoding="utf-8") as handle:
        handle.writelines(f"{name}.md conflict-marker-size={size}\n" for name, size in sizes)
    changed = ["ci", *(name for name, _ in sizes)]
    mem = a.memory()
    mem.write("db-port", "Dev database listens on 5433 zebra", "project", "Ask in #infra.\n", scope="team")
    mem.write("ci", "CI runs on Buildkite zebra", "project", "Ask in #infra.\n", scope="team")
    for name in changed[2:]:
        mem.write(name, f"{name} lives on host 7001 zebra", "project", "Ask in #infra.\n", scope="team")
    for name, description, body in clean:
        mem.write(name, description, "project", body, scope="team")
    a.publish("team memories", b)
    time.sleep(1.1)
    for name in changed:
        a.memory().write(name, body="Ask in #platform.\n", scope="team")
    a.publish("A")
    time.sleep(1.1)
    for name in changed:
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
                 b"---\nname: a\ndescription: d\n---\n< a\nx\n=\n> a quote\n",  # a whole 'hunk' of one
                 b"---\nname: a\ndescription: d\n---\n<< EOF\nx\n==\n>> nested\n",  # and of two
                 b"---\nname: a\ndescription: d\n---\n<< 5 ms is fast\nTitle\n==\n",  # no closing line
                 b"---\nname: a\ndescription: d\n---\nTitle\n=====\n> a quote\n"):
        assert (has_conflict(text), marker_size(text), segments(text)) == (False, 7, [text])
    three = b"<<< ours\na\n===\nb\n>>> theirs\n"  # the smallest size read from the text alone
    assert marker_size(three) == 3 and [part.ours for part in segments(three)] == [b"a\n"]
    five = b"<<<<< ours\n<<<<<<< a\n=====\nb\n>>>>> theirs\n"  # a hunk of five holding a seven-character line
    assert marker_size(five) == 5 and [part.ours for part in segments(five)] == [b"<<<<<<< a\n"]


QUOTES = "< a\nThe rule\n=\n> quote from the runbook\n\n<< EOF\nheredoc\n==\n>> a nested quote\n"


def test_a_clean_memory_with_markdown_runs_of_one_or_two_is_read(tmp_path):
    """misc42: with the size taken from any whole hunk, a memory whose Markdown held a ``<`` line with a label, an
    ``=`` underline and a ``>`` quote (runs of one; ``<<``/``==``/``>>`` of two) read as a conflict and was hidden
    everywhere, and the write gateway refused it. git takes a conflict-marker-size of 2 (it writes ``<< HEAD``),
    but the text alone counts only runs of three and more (``MIN_GUESSED_SIZE``): such a memory is read. Controls
    in the same real merge: markers of 5 and git's 7 still hold their memories back; a file git merged with
    markers of 2 reads as a memory to the scan (the price) and ``team status``, which asks git for the size, still
    calls it a conflict."""
    b = _merge(tmp_path, sizes=(("db-port", 5), ("cache", 2)),
               clean=(("quotes", "Runbook quotes zebra", QUOTES), ("style", "Code style is black zebra", "x\n")))
    quotes, two = (b.team_dir / "quotes.md").read_bytes(), (b.team_dir / "cache.md").read_bytes()
    assert b"\n< a\n" in quotes and b"\n=\n> quote" in quotes and b"\n<< EOF\n" in quotes  # what A wrote
    assert b"\n<< HEAD\n" in two and b"\n==\n" in two and b"\n>> " in two  # git wrote markers of 2
    assert (marker_size(quotes), has_conflict(quotes), marker_size(two), has_conflict(two)) == (7, False, 7, False)
    assert (has_conflict(two, 2), has_conflict(quotes, 2)) == (True, True)  # at git's size of 2 both read as hunks
    mem = b.memory()
    listed = mem.list(scope="team")
    assert [m.name for m in listed.memories] == ["cache", "quotes", "style"]
    assert sorted((m.path.rsplit("/", 1)[-1], m.error) for m in listed.malformed) == [
        ("ci.md", "unresolved merge conflict"), ("db-port.md", "unresolved merge conflict")]
    block = mem.context()
    assert "Runbook quotes zebra" in block and "Code style is black zebra" in block
    assert "5433" not in block and "Buildkite" not in block
    assert [r.name for r in mem.search("runbook")] == ["quotes"]
    assert mem.read("quotes", "team", count=False).record.body == QUOTES.rstrip("\n")
    assert "> quote from the runbook" in mem.call_tool("memory_read", {"name": "quotes"})
    out = run_cli("--home", b.home, "--project", b.root, "context").stdout
    assert "Runbook quotes zebra" in out and "Buildkite" not in out
    assert sorted(mem.team_status().conflicts) == [str(b.team_dir / f"{name}.md") for name in ("cache", "ci", "db-port")]
