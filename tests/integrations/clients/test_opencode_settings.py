"""Which of OpenCode's global settings files `memdir install opencode` edits, and the ``"$schema"``
OpenCode writes into a settings file it reads (trial18, with the real OpenCode 1.18.33: it merges
config.json, opencode.json and opencode.jsonc in that order, a later ``instructions`` list replacing
an earlier one; tests/integrations/clients/test_opencode_session.py drives the real client)."""

from __future__ import annotations

import json
import os
import sys

import pytest

from memdir.errors import InstallError
from memdir.integrations.clients import opencode

PY = "/usr/bin/python3"
SCHEMA_ONLY = '{\n  "$schema": "https://opencode.ai/config.json"\n}'  # what a first `opencode run` leaves
OURS = "memdir.md"


def _dirs(tmp_path):
    user, mem = tmp_path / "u", tmp_path / "mem"
    base = user / ".config" / "opencode"
    base.mkdir(parents=True)
    return user, mem, base


def _with_schema(path):
    """What OpenCode 1.18.33 does to a settings file it reads that has no "$schema": adds it first."""
    data = json.loads(path.read_text())
    path.write_text(json.dumps({"$schema": opencode.SCHEMA, **data}, indent=2) + "\n")


def test_the_opencode_jsonc_that_opencode_wrote_is_the_file_memdir_edits(tmp_path):
    user, mem, base = _dirs(tmp_path)
    (base / "opencode.jsonc").write_text(SCHEMA_ONLY)
    opencode.install("user", mem, user_home=user, python=PY)
    data = json.loads((base / "opencode.jsonc").read_text())
    assert data["instructions"] == [str(base / OURS)] and data["mcp"]["memdir"]["command"][0] == PY
    assert not (base / "opencode.json").exists()  # no second file whose list the jsonc's would replace
    opencode.uninstall("user", mem, user_home=user)
    assert (base / "opencode.jsonc").read_text() == SCHEMA_ONLY
    assert sorted(p.name for p in base.iterdir()) == ["opencode.jsonc"]


def test_without_any_settings_file_memdir_creates_opencode_json(tmp_path):
    user, mem, base = _dirs(tmp_path)  # control of the test above: nothing there
    opencode.install("user", mem, user_home=user, python=PY)
    assert json.loads((base / "opencode.json").read_text())["instructions"] == [str(base / OURS)]
    assert not (base / "opencode.jsonc").exists()


@pytest.mark.parametrize("holder, other", [("config.json", "opencode.jsonc"), ("opencode.json", "opencode.jsonc"),
                                           ("opencode.jsonc", "config.json")])
def test_memdir_joins_the_instructions_list_opencode_uses(tmp_path, holder, other):
    """The file with an instructions list wins over a later file without one: writing memdir's list into
    the later file would replace the person's (OpenCode uses the last list it reads)."""
    user, mem, base = _dirs(tmp_path)
    original = '{"instructions": ["/home/me/style.md"]}\n'
    (base / holder).write_text(original)
    (base / other).write_text(SCHEMA_ONLY)
    opencode.install("user", mem, user_home=user, python=PY)
    assert json.loads((base / holder).read_text())["instructions"] == ["/home/me/style.md", str(base / OURS)]
    assert (base / other).read_text() == SCHEMA_ONLY  # control: the other file untouched
    opencode.uninstall("user", mem, user_home=user)
    assert (base / holder).read_text() == original


def test_a_commented_opencode_jsonc_is_refused_with_the_change_to_make_by_hand(tmp_path):
    user, mem, base = _dirs(tmp_path)
    jsonc = '{\n  // mine\n  "instructions": ["/home/me/style.md"]\n}\n'
    (base / "opencode.jsonc").write_text(jsonc)
    with pytest.raises(InstallError, match=r"opencode\.jsonc holds comments") as refused:
        opencode.install("user", mem, user_home=user, python=PY)
    assert f'+    "{base / OURS}"' in str(refused.value)  # the line to add, in the file OpenCode uses
    assert (base / "opencode.jsonc").read_text() == jsonc and sorted(p.name for p in base.iterdir()) == [
        "opencode.jsonc"]  # nothing written: no opencode.json whose list the jsonc's would replace


def test_uninstall_finds_the_file_install_wrote_after_another_one_appeared(tmp_path):
    user, mem, base = _dirs(tmp_path)
    opencode.install("user", mem, user_home=user, python=PY)
    (base / "opencode.jsonc").write_text('{"instructions": ["/home/me/style.md"]}\n')  # the person's, later
    assert opencode.targets("user", user)[0] == base / "opencode.jsonc"
    opencode.uninstall("user", mem, user_home=user)
    assert not (base / "opencode.json").exists() and not (base / OURS).exists()
    assert (base / "opencode.jsonc").read_text() == '{"instructions": ["/home/me/style.md"]}\n'


@pytest.mark.parametrize("scope", ["user", "project"])
def test_a_file_install_created_goes_at_uninstall_though_opencode_added_its_schema(tmp_path, monkeypatch, scope):
    user, mem, base = _dirs(tmp_path)
    project = tmp_path / "repo"
    project.mkdir()
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # `memdir` on PATH
    opencode.install(scope, mem, user_home=user, project=project, python=PY)
    config = base / "opencode.json" if scope == "user" else project / "opencode.json"
    _with_schema(config)
    assert json.loads(config.read_text())["$schema"] == opencode.SCHEMA and "memdir" in config.read_text()
    opencode.uninstall(scope, mem, user_home=user, project=project)
    assert not config.exists()
    assert sorted(p.name for p in project.iterdir()) == [] and sorted(p.name for p in base.iterdir()) == []


def test_a_schema_the_person_had_before_install_stays(tmp_path):
    user, mem, base = _dirs(tmp_path)
    original = json.dumps({"$schema": opencode.SCHEMA, "theme": "tokyonight"}, indent=4) + "\n"
    (base / "opencode.json").write_text(original)
    opencode.install("user", mem, user_home=user, python=PY)
    opencode.uninstall("user", mem, user_home=user)
    assert (base / "opencode.json").read_text() == original


def test_a_file_without_schema_comes_back_byte_for_byte_after_opencode_added_one(tmp_path):
    user, mem, base = _dirs(tmp_path)
    original = '{"theme": "tokyonight", "instructions": ["/home/me/style.md"]}\n'  # one line, as the person wrote it
    (base / "opencode.json").write_text(original)
    opencode.install("user", mem, user_home=user, python=PY)
    _with_schema(base / "opencode.json")
    opencode.uninstall("user", mem, user_home=user)
    assert (base / "opencode.json").read_text() == original


@pytest.mark.slow
def test_doctor_says_when_a_later_settings_file_takes_the_instructions_list(tmp_path, isolated_home):
    """After install the person adds an instructions list to an opencode.jsonc: OpenCode reads it last, so memdir's
    entry in opencode.json no longer reaches the model. doctor says so; install again adds it where OpenCode looks."""
    from tests.conftest import run_cli

    base = tmp_path / "userhome" / ".config" / "opencode"
    assert run_cli("install", "opencode").returncode == 0
    assert "opencode:" not in run_cli("doctor").stdout  # control: right after install, nothing to say
    (base / "opencode.jsonc").write_text('{"instructions": ["/home/me/style.md"]}\n')
    said = run_cli("doctor").stdout
    assert (f"opencode: OpenCode takes its instructions list from {base / 'opencode.jsonc'}, which replaces the one "
            f"memdir wrote into {base / 'opencode.json'}: memdir's guidance no longer reaches the model") in said
    assert run_cli("install", "opencode").returncode == 0
    assert json.loads((base / "opencode.jsonc").read_text())["instructions"] == ["/home/me/style.md",
                                                                               str(base / OURS)]
    assert "opencode:" not in run_cli("doctor").stdout
    assert run_cli("uninstall", "opencode").returncode == 0  # both files recorded: both given back
    assert sorted(p.name for p in base.iterdir()) == ["opencode.jsonc"]
    assert (base / "opencode.jsonc").read_text() == '{"instructions": ["/home/me/style.md"]}\n'
