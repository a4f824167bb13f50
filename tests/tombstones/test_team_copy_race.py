"""A forget racing a teammate's write of the same fact under another name (break33): B, who had not pulled
A's forget, wrote the forgotten value as a new team memory; git merged both, and the fact stood in every
agent's context beside the tombstone that forbids it. In the team layer a file is held back by a tombstone
of any name, in the clone that forgot and in the one that wrote."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

pytestmark = pytest.mark.slow  # real git, two clones

FACT = "Staging host is staging-7.internal.example.com"


def test_a_copy_under_another_name_is_held_back_in_both_clones(tmp_path):
    a, b = shared_repository(tmp_path)
    a.memory().write("staging-host", FACT, "project", "Deploy previews go there.", scope="team")
    a.publish("add", b)
    stone = a.memory().forget("staging-host").tombstone
    a.commit_all("forget")
    a.push()
    mem_b = b.memory()
    assert "staging-7" in mem_b.context()  # B has not pulled the forget yet
    mem_b.write("staging", FACT, "project", "", scope="team")
    mem_b.write("build-host", "The build host is ci-3.internal.example.com", "project", "", scope="team")  # control
    b.commit_all("b adds")
    b.pull()
    git(b.root, "push", "-q", "origin", "main")
    a.pull()
    for clone in (a, b):
        block = clone.memory().context()
        assert "staging-7" not in block
        assert "- [build-host](build-host.md) — The build host is ci-3.internal.example.com" in block
        doctor = run_cli("--home", str(clone.home), "--project", str(clone.root), "doctor")
        assert doctor.returncode == 1
        assert f"staging.md: held back: it holds a value forgotten as 'staging-host' (the forgotten fact restated; tombstone {stone})" \
            in doctor.stdout + doctor.stderr
    # A person settles it in B's clone: the copy goes, the tombstone stays
    assert run_cli("--home", str(b.home), "--project", str(b.root), "delete", "staging", "--scope",
                   "team").returncode == 0
    assert not (b.team_dir / "staging.md").exists()
    assert stone in run_cli("--home", str(b.home), "--project", str(b.root), "tombstones").stdout
