"""A memory file edited by hand into one memdir cannot read (an editor's save caught half-way: an empty file;
a frontmatter cut short) leaves ``MEMORY.md`` and the context block as it leaves list, read and search
(DESIGN §3: skipped by every reader, reported); its text stays in its history, and its line comes back
with its next readable bytes. Before break27 the sweep that found it unreadable changed no line: its
last good line stayed in ``MEMORY.md`` and the injected block through writes, sweeps and reindexes — the
agent was shown "keep — The build runs on Tuesdays" and ``memory_read keep`` answered that the file is
not a readable memory — until ``memdir verify --repair`` rebuilt the index whole. Real CLI processes."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real processes

BROKEN = {"empty": "", "cut": "---\nname: keep\ndescription: The build runs on Tues"}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_file_made_unreadable_in_place_leaves_the_index_and_comes_back_when_readable(
        isolated_home, project, monkeypatch, broken):
    monkeypatch.setenv("MEMDIR_SWEEP_INTERVAL", "0")  # every operation sweeps: the edit in place is seen at once
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    for name, description in (("keep", "The build runs on Tuesdays"), ("other", "Staging is on port 8443")):
        assert run_cli("--project", project, "write", name, "-d", description, "--body", "b").returncode == 0
    layer_dir = next((isolated_home / "projects").iterdir())
    with open(layer_dir / "keep.md", "w", encoding="utf-8") as handle:  # in place: same inode, as editors save
        handle.write(BROKEN[broken])

    assert run_cli("--project", project, "write", "third", "-d", "Deploys freeze on Fridays").returncode == 0
    index = (layer_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert index == ("- [other](other.md) — Staging is on port 8443\n"
                     "- [third](third.md) — Deploys freeze on Fridays\n")  # before: keep's last line still first
    context = run_cli("--project", project, "context").stdout
    assert "[other](other.md) — Staging is on port 8443" in context  # control: the block shows the readable ones
    assert "(keep.md)" not in context and "Tuesdays" not in context
    assert "keep.md" in run_cli("--project", project, "doctor").stdout  # reported with why

    (layer_dir / "keep.md").write_text("---\nname: keep\ndescription: The build runs on Wednesdays\ntype: project\n"
                                       "---\nb\n", encoding="utf-8")
    context = run_cli("--project", project, "context").stdout
    assert "- [keep](keep.md) — The build runs on Wednesdays" in context  # readable again: back in the block
    history = run_cli("--project", project, "history", "keep").stdout
    assert "The build runs on Tuesdays" in history and "The build runs on Wednesdays" in history
