"""Tombstones are checked against the journal (issue 10, trial item 5): a
tombstone deleted, emptied or edited in ``tombstones.json`` is named by
``memdir verify`` and put back from the journal by ``--repair``; a lifted
tombstone is not asked back."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.errors import TombstoneRefused
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)


@pytest.fixture
def forgotten(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("pkg", "Use pnpm for every package", "project", "never npm")
    mem.write("runner", "Tests run with jest", "project")
    mem.delete("pkg")
    mem.forget("runner")
    assert mem.verify().ok  # control: an untouched store verifies
    return mem


def _file(mem):
    return mem.session.layer("project").tombstone_file.path


@pytest.mark.parametrize("tamper", ["delete", "empty", "edit", "drop-one"])
def test_a_tampered_tombstone_is_named_and_repaired_from_the_journal(forgotten, project, tamper):
    path = _file(forgotten)
    stones = json.loads(path.read_text())
    pkg = dict(next(s for s in stones if s["name"] == "pkg"))
    if tamper == "delete":
        path.unlink()
    elif tamper == "empty":
        path.write_text("[]\n")
    elif tamper == "edit":
        next(s for s in stones if s["name"] == "pkg")["digest"] = "0" * 64
        path.write_text(json.dumps(stones))
    else:
        path.write_text(json.dumps([s for s in stones if s["name"] != "pkg"]))
    out = run_cli("--project", project, "verify")
    assert out.returncode != 0
    assert f"tombstone {pkg['id']} (pkg), recorded by the journal's event seq 3" in out.stdout + out.stderr
    assert run_cli("--project", project, "verify", "--repair").returncode == 0
    assert forgotten.verify().ok
    held = {s["id"]: s for s in json.loads(path.read_text())}
    assert held[pkg["id"]]["digest"] == pkg["digest"] and held[pkg["id"]]["description"] == pkg["description"]
    with pytest.raises(TombstoneRefused):
        forgotten.write("pkg-again", "Use pnpm for every package", "project", "never npm")


def test_a_lifted_tombstone_is_not_asked_back(forgotten, project):
    stone = next(s for s in forgotten.tombstones().tombstones if s.name == "pkg")
    assert run_cli("--project", project, "tombstone", "lift", stone.id).returncode == 0
    assert forgotten.verify().ok
    assert forgotten.write("pkg", "Use pnpm for every package", "project", "never npm").operation == "created"
