"""A pull that puts something else where a team tombstone file was (break32): a directory named like the
tombstone (``tombstones/t-….json/``) was passed over without a word, so the forgotten value was no longer
refused, `memdir tombstones` said "No tombstones" and doctor said nothing, while a symbolic link in the
same place was named. Now the directory is named as the link is: `tombstones`, a write's warning and doctor
say which file is not applied and to remove it from the repository. Real git, two clones."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

FORGOTTEN = "The staging password lives in the vault, path ops/staging"


@pytest.mark.slow
def test_a_tombstone_swapped_for_a_directory_by_a_pull_is_named_not_silently_dropped(tmp_path):
    a, b = shared_repository(tmp_path)
    a.memory().write("staging-secret", FORGOTTEN, "project", scope="team")
    a.memory().write("ci", "CI runs on GitHub Actions", "project", scope="team")
    a.memory().forget("staging-secret", scope="team")
    a.memory().forget("ci", scope="team")
    a.commit_all("forget two")
    a.push()
    b.pull()
    stones = {s.name: s.id for s in a.memory().tombstones().tombstones}
    swapped = b.team_dir / "tombstones" / f"{stones['staging-secret']}.json"
    git(b.root, "rm", "-q", str(swapped))
    swapped.mkdir()
    (swapped / "keep").write_text("x\n")
    b.commit_all("a folder where the tombstone was")
    b.push()
    a.pull()
    assert (a.team_dir / "tombstones" / f"{stones['staging-secret']}.json").is_dir()
    env = {"MEMDIR_HOME": str(a.home)}
    cli = ("--project", a.root)
    # A read that tombstone before: it stays in force here (break35), as one whose file left does (break33)
    named = f"{stones['staging-secret']}.json: not a readable tombstone (not read: it is a directory); this home " \
            "read it before, so its tombstone stays in force here — remove it from the repository"
    listed = run_cli(*cli, "tombstones", env=env)
    assert listed.returncode == 0 and named in listed.stderr
    assert stones["ci"] in listed.stdout  # control: the other tombstone still applies
    doctor = run_cli(*cli, "doctor", env=env)
    assert doctor.returncode == 1 and named in doctor.stdout
    refused = run_cli(*cli, "write", "ci-again", "-d", "CI runs on GitHub Actions", "--scope", "team", env=env)
    assert refused.returncode == 1 and f"memdir tombstone lift {stones['ci']}" in refused.stderr
    kept = run_cli(*cli, "write", "staging-again", "-d", FORGOTTEN, "--scope", "team", env=env)
    assert kept.returncode == 1 and f"memdir tombstone lift {stones['staging-secret']}" in kept.stderr
    shutil.rmtree(a.team_dir / "tombstones" / f"{stones['staging-secret']}.json")  # the person removes it
    assert named not in run_cli(*cli, "doctor", env=env).stdout
