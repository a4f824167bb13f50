"""``memdir move-layer`` killed between its journal line and the directory's rename (a real process dying with
``os._exit`` at ``os.rename``, as a SIGKILL there would): the old layer's ``layer.json`` already names the new
root, the directory still has the old key. Nothing is lost, ``memdir doctor`` names it with the command that
finishes it, and that command does. Before break27 the layer was in no list (its key is no live project's,
its recorded root exists, so it was neither orphaned nor misrecorded): the project showed "No memories yet",
doctor said "ok", and ``memdir move-layer KEY`` refused — "belongs to NEW, which still exists: moving it would
take that project's 1 memory away from it" — naming as another project the very one it was moving to."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import pytest

from memdir import Memory
from memdir.paths import project_key
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real processes

CUT = textwrap.dedent("""
    import os, sys
    from memdir.gateway import changes
    def rename(a, b):
        os._exit(9)  # dies here: the move journaled and layer.json rewritten, the directory not renamed
    changes.os.rename = rename
    from memdir.integrations.cli.main import main
    main(sys.argv[1:])
""")


def _project(path):
    (path / ".git").mkdir(parents=True)
    return path.resolve()


def test_a_move_cut_before_its_rename_is_named_by_doctor_and_finished_by_move_layer(tmp_path, isolated_home):
    old, gone = _project(tmp_path / "proj"), _project(tmp_path / "gone")
    Memory.open(home=isolated_home, project=old, actor="human").write("db-port", "Dev DB listens on 5433", "project", "")
    Memory.open(home=isolated_home, project=gone, actor="human").write("x", "a fact of gone", "project", "")
    new = tmp_path / "proj2"
    shutil.move(str(old), str(new))
    shutil.rmtree(gone)  # control: a project gone for good stays a plain orphan
    key = project_key(old)
    cut = subprocess.run([sys.executable, "-c", CUT, "--project", str(new), "move-layer", key],
                         capture_output=True, text=True, timeout=60, check=False)
    assert cut.returncode == 9, cut.stderr
    assert (isolated_home / "projects" / key / "db-port.md").is_file()  # nothing lost

    doctor = run_cli("doctor", "--project", new)
    assert doctor.returncode == 1
    assert (f"layer {key}: 1 memory of {new}, recorded there by a move cut before its directory was renamed: "
            f"memdir move-layer {key} {new} finishes it") in doctor.stdout  # before: "ok"
    assert f"orphaned layer {project_key(gone)}" in doctor.stdout  # control

    done = run_cli("move-layer", key, new, "--project", new)
    assert done.returncode == 0, done.stderr  # before: refused, "belongs to NEW, which still exists"
    assert [m.name for m in Memory.open(home=isolated_home, project=new).list().memories] == ["db-port"]
    doctor = run_cli("doctor", "--project", new)
    assert f"layer {key}" not in doctor.stdout
    assert f"orphaned layer {project_key(gone)}" in doctor.stdout


def test_a_living_project_s_layer_is_still_refused_without_force(tmp_path, isolated_home):
    """The refusal stays for what it is for: a layer whose recorded root is another living project."""
    first, second = _project(tmp_path / "first"), _project(tmp_path / "second")
    Memory.open(home=isolated_home, project=first, actor="human").write("db-port", "Dev DB listens on 5433", "project", "")
    done = run_cli("move-layer", project_key(first), second, "--project", second)
    assert done.returncode == 1
    assert f"belongs to {first}, which still exists" in done.stderr
    assert f"layer {project_key(first)}:" not in run_cli("doctor", "--project", second).stdout
