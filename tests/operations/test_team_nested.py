"""A teammate's memory file committed in a folder of the team directory is named by `team status` and `doctor` (break49):
`.claude/memory/notes/deploy.md` pulled into a clone was in no list, no context, no `doctor` line and no
`team status` line — the layer is the directory's top level — so the whole team lost it without a word. Both name it
now (doctor as a note)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow


def test_a_memory_file_in_a_folder_of_the_team_directory_is_named_by_team_status(tmp_path):
    a, b = shared_repository(tmp_path)
    (a.team_dir / "notes" / "ops").mkdir(parents=True)
    (a.team_dir / "notes" / "deploy.md").write_text(
        "---\nname: deploy\ndescription: Deploys run on Fridays\ntype: project\n---\n", encoding="utf-8")
    (a.team_dir / "notes" / "ops" / "oncall.md").write_text("Call Dana first\n", encoding="utf-8")
    (a.team_dir / "notes" / "diagram.txt").write_text("not a memory\n", encoding="utf-8")  # not a .md: not named
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")  # control: at the top level
    a.publish("team notes", b)
    mem = b.memory()
    assert [m.name for m in mem.list(scope="team").memories] == ["ci"]  # the folder's files are no memories
    assert mem.team_status().nested == ("notes/deploy.md", "notes/ops/oncall.md")
    stone = mem.forget("ci", scope="team").tombstone  # memdir's own folder is not named
    assert (b.team_dir / "tombstones" / f"{stone}.json").is_file()
    out = run_cli("--home", b.home, "--project", b.root, "team", "status").stdout
    assert (f"  in a folder, read by no one: {b.team_dir}/notes/deploy.md — memdir reads the memory files at the "
            "team directory's top level only, so no agent sees this one: `git mv` it up to share it") in out
    assert "tombstones/" not in out.split("in a folder", 1)[1]
    doctor = run_cli("--home", b.home, "--project", b.root, "doctor").stdout
    assert f"note: team: in a folder, read by no one: {b.team_dir}/notes/ops/oncall.md — memdir reads" in doctor
    (b.team_dir / "notes" / "deploy.md").rename(b.team_dir / "deploy.md")  # moved up: a memory, no longer named
    (b.team_dir / "notes" / "ops" / "oncall.md").unlink()
    assert mem.team_status().nested == ()
    assert [m.name for m in mem.list(scope="team").memories] == ["deploy"]
    doctor = run_cli("--home", b.home, "--project", b.root, "doctor").stdout
    assert "in a folder" not in doctor and "team layer: " in doctor  # the control: doctor ran and said the layer
