"""A project layer this user cannot read (another user's, 0700) neither blocks
writes to the user layer nor stops doctor, verify or repair at it (issue 10,
trial item 8): it is skipped with a warning and reported per layer. Real
subprocesses bound by the file modes (as root: without the capabilities
that bypass them)."""

from __future__ import annotations

import os

import pytest

from memdir import Memory
from tests.test_faults import _as_other_user


@pytest.fixture
def locked_out(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=home, project=project, actor="human")
    mem.write("port", "Dev DB listens on 5433", "project")
    mem.write("editor", "The user edits with Helix", "user")
    layer = mem.session.layer("project").path
    if os.geteuid() == 0:
        for root, dirs, files in os.walk(layer):
            for item in [root, *(os.path.join(root, f) for f in files)]:
                os.chown(item, 65534, 65534)
        os.chmod(layer, 0o700)
    else:
        os.chmod(layer, 0o000)
    env = {"MEMDIR_HOME": str(home), "HOME": str(tmp_path)}
    yield mem, project, layer, env
    if os.geteuid() == 0:
        for root, dirs, files in os.walk(layer):
            for item in [root, *(os.path.join(root, f) for f in files)]:
                os.chown(item, 0, 0)
    os.chmod(layer, 0o700)


def test_a_user_layer_write_succeeds_with_a_warning(locked_out):
    mem, project, layer, env = locked_out
    out = _as_other_user(["--project", project, "write", "shell", "-d", "The user's shell is fish", "-t", "user",
                          "--scope", "user"], env)
    assert out.returncode == 0, out.stderr
    assert "Memory created: shell (user)" in out.stdout
    assert "the project layer's tombstones were not checked" in out.stderr
    assert mem.read("shell", "user", count=False).record.description == "The user's shell is fish"


@pytest.mark.parametrize("command", [["verify"], ["verify", "--repair"], ["doctor"]])
def test_doctor_and_verify_report_every_layer(locked_out, command):
    mem, project, layer, env = locked_out
    out = _as_other_user(["--project", project, *command], env)
    text = out.stdout + out.stderr
    assert out.returncode != 0 and "Traceback" not in text
    assert "cannot check this layer" in text and str(layer) in text
    # Control: the readable user layer is still checked and reported.
    if command[0] == "verify":
        assert f"ok  {mem.session.layer('user').path}: 1 events" in out.stdout
    else:
        assert "user layer:" in out.stdout and "1 memories" in out.stdout
