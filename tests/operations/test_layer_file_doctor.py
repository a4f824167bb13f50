"""`memdir doctor` names a layer.json it cannot read (break24): a hand edit or a torn copy left it
'{' and every command went on silently, while what finds the layer again when its project moves
(`memdir move-layer`, a sync matching projects by repository) was gone. Removing the file is the fix:
the next change writes it again."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real CLI processes


def test_an_unreadable_layer_file_is_a_doctor_problem_until_removed(isolated_home, project, person):
    person.write("db-port", "Dev DB listens on 5433", "project", "Moved from 5432.")
    layer_file = person.session.layer("project").meta / "layer.json"
    fine = run_cli("--project", project, "doctor")
    assert fine.returncode == 0 and "layer.json" not in fine.stdout  # control: a readable one is no problem
    for broken in ("{", "[]", ""):
        layer_file.write_text(broken)
        doctor = run_cli("--project", project, "doctor")
        assert doctor.returncode == 1, doctor.stdout
        assert (f"malformed: {layer_file}: cannot be read as a JSON object: what finds this layer again when "
                "its project moves (memdir move-layer, memdir sync) is lost; remove it and the next change "
                "writes it again") in doctor.stdout
    layer_file.unlink()
    assert run_cli("--project", project, "write", "db-port", "-b", "Moved from 5432 in November.").returncode == 0
    assert json.loads(layer_file.read_text())["root"] == str(project.resolve())
    assert run_cli("--project", project, "doctor").returncode == 0
