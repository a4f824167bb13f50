"""Personal sync and case twins (files.layout.case_twins): a file in the sync repository whose name
differs from a memory's only by case (``user/Editor.md`` beside ``user/editor.md``) would overwrite it
in a macOS or Windows checkout. The export refuses to write the memory there, saying which file is in
the way; the import refuses the twin (no memory name), saying whose twin it is. Real git, two homes."""

from __future__ import annotations

import pytest

from tests.operations.test_sync import both, git, world  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow


def test_a_case_twin_in_the_repository_is_refused_both_ways(world):  # noqa: F811
    a, b, remote = world
    both(a, b, remote)
    a.mem().write("editor", "Uses Neovim", "user", scope="user")
    a.sync()
    b.sync()
    repo_b = b.home / "sync"
    (repo_b / "user" / "Editor.md").write_text("---\nname: Editor\ndescription: Uses Emacs\ntype: user\n---\n")
    git(repo_b, "add", "user/Editor.md")
    git(repo_b, "-c", "user.name=t", "commit", "-q", "-m", "a hand-made twin")
    git(repo_b, "push", "-q", "origin", "HEAD:main")
    arrived = a.sync()  # the twin comes in with the merge: refused, saying whose twin it is
    assert any(note.startswith("user/Editor.md: not taken in: not a memory name; its name differs from "
                               "user/editor.md's only by case") for note in arrived.notes), arrived.notes
    a.mem().write("editor", "Uses Neovim 0.10", scope="user")
    a.mem().write("tabs", "Indents with tabs", "user", scope="user")
    report = a.sync()
    refused = [n for n in report.not_synced if n.name == "editor"]
    assert len(refused) == 1 and refused[0].reason == (
        "the sync repository holds user/Editor.md, whose name differs from user/editor.md's only by case (macOS and "
        "Windows keep one of the two, so one would overwrite the other); not synced — remove or rename "
        "user/Editor.md in the sync repository")
    assert "user:tabs" in report.exported and "user:editor" not in report.exported  # control: the other change goes
    repo_a = a.home / "sync"
    shown = git(repo_a, "show", "HEAD:user/editor.md").stdout
    assert "Uses Neovim\n" in shown or "description: Uses Neovim\n" in shown  # the repository's editor is untouched
    assert "Uses Neovim 0.10" not in shown
    # once the twin is gone, the change goes
    git(repo_a, "rm", "-q", "user/Editor.md")
    git(repo_a, "-c", "user.name=t", "commit", "-q", "-m", "twin removed")
    again = a.sync()
    assert "user:editor" in again.exported and not [n for n in again.not_synced if n.name == "editor"]
