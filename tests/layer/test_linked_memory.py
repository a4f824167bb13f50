"""A memory file that is a symbolic link (left25, item 3): a teammate commits ``deploy.md -> ../../docs/deploy.md``;
memdir reads no link (the scan lists it as not read), and a write of ``deploy`` replaced the link with a regular
file — the link gone, silently. Now every writer (Transaction.apply) refuses, saying where the link points:
nothing written through it (a memory there would be in no list, search or context), nothing written outside
the layer, the link and its target kept."""

from __future__ import annotations

import os

import pytest

from memdir.errors import Conflict
from tests.teamgit import shared_repository


@pytest.fixture
def team(tmp_path):
    a, _ = shared_repository(tmp_path)
    return a


def test_a_link_inside_the_layer_is_kept_and_the_write_refused(team):
    mem = team.memory()
    (team.team_dir / "notes").mkdir()
    (team.team_dir / "notes" / "deploy.md").write_text("the runbook\n")
    os.symlink("notes/deploy.md", team.team_dir / "deploy.md")
    with pytest.raises(Conflict) as refused:
        mem.write("deploy", "Deploys weekly", "project", "", scope="team")
    real = (team.team_dir / "notes" / "deploy.md").resolve()
    assert str(refused.value) == (
        f"cannot write 'deploy': {team.team_dir / 'deploy.md'} is a symbolic link to notes/deploy.md, inside the "
        "layer; memdir reads no link, so a memory written through it would be in no list, search or context, and "
        f"writing over it would lose the link — replace the link with the file it points to (mv {real} "
        f"{team.team_dir / 'deploy.md'}), or choose another name")
    # before: deploy.md a regular file holding the memory, the link gone
    assert os.readlink(team.team_dir / "deploy.md") == "notes/deploy.md"
    assert real.read_text() == "the runbook\n"
    os.unlink(team.team_dir / "deploy.md")  # control: the person settles it, and the write goes through
    os.rename(real, team.team_dir / "deploy.md")
    assert mem.write("deploy", "Deploys weekly", "project", "", scope="team").operation == "updated"


def test_a_link_outside_the_layer_writes_nothing_there(team, tmp_path):
    mem = team.memory()
    outside = tmp_path / "elsewhere.md"
    outside.write_text("not memdir's\n")
    os.symlink(outside, team.team_dir / "ops.md")
    with pytest.raises(Conflict) as refused:
        mem.write("ops", "Ops rota", "project", "", scope="team")
    assert str(refused.value) == (
        f"cannot write 'ops': {team.team_dir / 'ops.md'} is a symbolic link to {outside}, outside the layer; memdir "
        "writes nothing outside its layers and does not replace the link — remove it or replace it with a regular "
        "file, or choose another name")
    assert outside.read_text() == "not memdir's\n" and os.path.islink(team.team_dir / "ops.md")
    # control: a name with no link is written in the same layer
    assert mem.write("ops-rota", "Ops rota", "project", "", scope="team").operation == "created"
    assert (team.team_dir / "ops-rota.md").is_file()
