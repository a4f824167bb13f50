"""Edges a trial as a new user found after issue 11: out-of-range and
contradictory valid times, a layer moved away from a project that still exists,
hooks installed twice, tracebacks on odd input, a read-only home, a worktree of
a submodule, uninstall after a hand edit (issue 11 follow-up, items 4–10)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from memdir import Memory
from tests.conftest import run_cli

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main",
       "-c", "protocol.file.allow=always"]


def _file(home, name):
    return next(home.glob(f"projects/*/{name}.md")).read_text()


def _write(project, name, *args, env=None):
    return run_cli("write", name, "-d", f"{name} fact", "-t", "project", *args, "--project", project, env=env)


@pytest.mark.slow
def test_out_of_range_years_are_refused_and_four_digit_years_round_trip(isolated_home, project):
    for value in ("0001-01-01", "9999-12-31"):
        for tz in ("UTC", "America/Los_Angeles"):
            done = _write(project, "promo", "--valid-until", value, env={"TZ": tz})
            # before: 0001-01-01 wrote "!!timestamp 1-01-02T00:00:00Z" (never expires); 9999-12-31 "cannot read"
            assert done.returncode != 0 and "Traceback" not in done.stderr
            assert f"--valid-until: the year must be from 1000 to 9998 (got '{value}')" in done.stderr, done.stderr
    assert not list(isolated_home.glob("projects/*/promo.md"))
    done = _write(project, "promo", "--valid-from", "1000-01-01T00:00Z", env={"TZ": "UTC"})  # control: in range
    assert done.returncode == 0, done.stderr
    assert "valid_from: 1000-01-01T00:00:00Z" in _file(isolated_home, "promo")
    from memdir.files.memfile import format_time, parse_time

    assert format_time(parse_time("0999-05-01T00:00:00Z")) == "0999-05-01T00:00:00Z"


@pytest.mark.slow
def test_valid_from_after_valid_until_is_refused_and_a_past_end_warns(isolated_home, project):
    done = _write(project, "promo", "--valid-from", "2030-01-01T00:00Z", "--valid-until", "2029-01-01T00:00Z")
    assert done.returncode != 0
    assert "valid_from 2030-01-01T00:00:00Z is not before valid_until 2029-01-01T00:00:00Z" in done.stderr
    assert not list(isolated_home.glob("projects/*/promo.md"))
    done = _write(project, "promo", "--valid-until", "2020-01-01T00:00Z", "--json")
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    assert any("valid_until 2020-01-01T00:00:00Z is already past" in w for w in warnings)
    done = _write(project, "later", "--valid-until", "2090-01-01T00:00Z", "--json")  # control: a future end
    assert json.loads(done.stdout)["warnings"] == []


@pytest.mark.slow
def test_a_local_time_in_a_daylight_saving_gap_says_how_it_was_read(isolated_home, project):
    env = {"TZ": "America/New_York"}
    done = _write(project, "gap", "--valid-from", "2026-03-08T02:30", "--json", env=env)
    assert done.returncode == 0, done.stderr
    warnings = json.loads(done.stdout)["warnings"]
    assert warnings == ["valid_from: 2026-03-08T02:30 does not exist in local time (a daylight-saving gap); "
                        "read as 2026-03-08T01:30:00-05:00"]
    assert "valid_from: 2026-03-08T06:30:00Z" in _file(isolated_home, "gap")
    done = _write(project, "nogap", "--valid-from", "2026-03-08T04:30", "--json", env=env)  # control: exists
    assert json.loads(done.stdout)["warnings"] == []
    helped = " ".join(run_cli("write", "--help").stdout.split())
    assert "stored converted to UTC" in helped and "Must be after --valid-from" in helped


@pytest.mark.slow
def test_move_layer_refuses_the_layer_of_a_project_that_still_exists(tmp_path, isolated_home):
    p2 = tmp_path / "p2"
    (p2 / ".git").mkdir(parents=True)
    Memory.open(home=isolated_home, project=p2, actor="human").write("deploy", "Deploy with make ship", "project", "")
    shutil.copytree(p2, tmp_path / "p3")
    key = next((isolated_home / "projects").iterdir()).name
    done = run_cli("move-layer", key, cwd=tmp_path / "p3")
    # before: p2's memories moved to p3, p2 left with none
    assert done.returncode != 0
    assert f"layer {key} belongs to {p2}, which still exists" in done.stderr and "--force" in done.stderr
    assert [m.name for m in Memory.open(home=isolated_home, project=p2).list().memories] == ["deploy"]
    done = run_cli("move-layer", key, "--force", cwd=tmp_path / "p3")  # control: asked for, it moves
    assert done.returncode == 0, done.stderr
    assert [m.name for m in Memory.open(home=isolated_home, project=tmp_path / "p3").list().memories] == ["deploy"]
    assert Memory.open(home=isolated_home, project=p2).list().memories == ()


def _path_with_memdir(tmp_path) -> dict:
    import sys

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "memdir").write_text(f"#!/bin/sh\nexec {sys.executable} -m memdir.cli \"$@\"\n")
    (bin_dir / "memdir").chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.slow
def test_hooks_in_both_scopes_are_warned_at_install_and_in_doctor(tmp_path, project):
    env = _path_with_memdir(tmp_path)
    first = run_cli("install", "claude-code", "--scope", "user", cwd=project, env=env)
    assert first.returncode == 0 and "registered twice" not in first.stdout  # control: one scope only
    assert "registered twice" not in run_cli("doctor", cwd=project, env=env).stdout
    second = run_cli("install", "claude-code", "--scope", "project", cwd=project, env=env)
    assert second.returncode == 0, second.stderr
    # before: no word of it; the context was injected twice from two homes
    said = (f"memdir's hooks are registered twice, in {tmp_path / 'userhome' / '.claude' / 'settings.json'} "
            f"(user scope) and {project / '.claude' / 'settings.json'} (project scope)")
    assert said in " ".join(second.stdout.split())
    assert said in " ".join(run_cli("doctor", cwd=project, env=env).stdout.split())
    run_cli("uninstall", "claude-code", "--scope", "user", cwd=project, env=env)
    assert "registered twice" not in run_cli("doctor", cwd=project, env=env).stdout  # control: one left


@pytest.mark.slow
def test_uninstall_after_settings_json_was_deleted_by_hand_cleans_up(tmp_path, isolated_home):
    user_home = tmp_path / "userhome"
    assert run_cli("install", "claude-code").returncode == 0
    (user_home / ".claude" / "settings.json").unlink()
    done = run_cli("uninstall", "claude-code")
    assert done.returncode == 0, done.stderr
    # before: ~/.claude/ left behind with a stale record; a second run said "nothing to do"
    assert f"already gone (its install record" in done.stdout and f"deleted (install had created it): " \
        f"{user_home / '.claude.json'}" in done.stdout
    assert sorted(p.name for p in user_home.iterdir()) == []
    manifest = json.loads((isolated_home / "integrations" / "claude-code.json").read_text())
    assert manifest == {}
    again = run_cli("uninstall", "claude-code")  # control: now there is truly nothing left
    assert "nothing to do" in again.stdout


@pytest.mark.slow
def test_undecodable_arguments_get_a_clear_error_even_with_json(isolated_home, project):
    import sys

    for args in ([b"\xff\xfe", b"-t", b"project", b"-d", b"x"], [b"ok", b"-t", b"project", b"-d", b"a\xffb"]):
        done = subprocess.run([sys.executable, "-m", "memdir.cli", "write", *args, b"--json"], capture_output=True,
                              cwd=project, timeout=60)
        err = done.stderr.decode()
        # before: UnicodeEncodeError (surrogates) traceback, even with --json
        assert done.returncode == 1 and "Traceback" not in err and "is not valid Unicode text" in err, err
        assert json.loads(done.stdout)["kind"] in ("InvalidName", "InvalidInput")
    from memdir.errors import InvalidInput

    try:  # the API refuses the same name with a clear error
        Memory.open(home=isolated_home, project=project).write("\udcff\udcfe", "x", "project", "")
        raise AssertionError("accepted")
    except InvalidInput as exc:
        assert "not valid Unicode text" in str(exc)
    ok = run_cli("write", "café", "-t", "project", "-d", "x", "--project", project, "--json")  # control
    assert ok.returncode == 0 and json.loads(ok.stdout)["name"] == "cafe"


@pytest.mark.slow
def test_a_home_with_an_unknown_user_or_surrounding_spaces_is_refused(tmp_path, project):
    for value, said in (("~nosuchuser/x", "starts with a '~' that names no known user's home"),
                        (f"{tmp_path}/x ", "begins or ends with whitespace"),
                        (f" {tmp_path}/x", "begins or ends with whitespace")):
        done = run_cli("list", "--json", cwd=project, env={"MEMDIR_HOME": value})
        # before: RuntimeError traceback; a second home '/tmp/x '; a leading space called "relative"
        assert done.returncode == 1 and "Traceback" not in done.stderr and said in done.stderr, done.stderr
        assert said in json.loads(done.stdout)["error"]
        assert said in run_cli("list", "--home", value, cwd=project).stderr
    assert not (tmp_path / "x ").exists()
    ok = run_cli("list", cwd=project, env={"MEMDIR_HOME": f"{tmp_path}/x"})  # control: the same path, trimmed
    assert ok.returncode == 0 and "No memories" in ok.stdout


@pytest.mark.slow
def test_a_read_only_home_without_an_index_still_searches_and_recalls(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    Memory.open(home=home, project=project, actor="human").write(
        "deploy", "How the service is deployed", "project", "Run make ship from the release branch, then tag it.")
    for suffix in ("", "-wal", "-shm"):
        (home / f"index.sqlite{suffix}").unlink(missing_ok=True)
    sealed = [p for p in [home, *home.rglob("*")] if p.is_dir()]
    drop = (["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"] if os.geteuid() == 0 else [])
    env = {**os.environ, "MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off"}
    import sys

    for folder in sealed:
        folder.chmod(0o555)
    try:
        run = [*drop, sys.executable, "-m", "memdir.cli", "--project", str(project)]
        found = subprocess.run([*run, "search", "deploy"], capture_output=True, text=True, env=env, timeout=60)
        # before: exit 1, "cannot open the search index … Permission denied"
        assert found.returncode == 0 and "deploy" in found.stdout, found.stderr
        assert "searching an in-memory index built from the memory files" in found.stderr
        prompt = json.dumps({"cwd": str(project), "hook_event_name": "UserPromptSubmit", "session_id": "s",
                             "prompt": "how is the service deployed? make ship?"})
        hook = subprocess.run([*drop, sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                              input=prompt, capture_output=True, text=True, env=env, timeout=60)
        assert hook.returncode == 0 and "make ship" in hook.stdout, hook.stderr  # before: nothing injected
        doctor = subprocess.run([*run, "doctor"], capture_output=True, text=True, env=env, timeout=60)
        assert "note: the search index" in doctor.stdout and "cannot be created" in doctor.stdout
        assert not (home / "index.sqlite").exists()
    finally:
        for folder in sealed:
            folder.chmod(0o755)
    doctor = run_cli("doctor", "--project", project, env={"MEMDIR_HOME": str(home)})  # control: writable again
    assert "cannot be created" not in doctor.stdout + doctor.stderr


def test_a_linked_worktree_of_a_submodule_shares_the_submodule_checkouts_layer(tmp_path, isolated_home):
    lib = tmp_path / "lib"
    lib.mkdir()
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "lib"]):
        subprocess.run([*GIT, "-C", str(lib), *args], check=True)
    sup = tmp_path / "super"
    sup.mkdir()
    subprocess.run([*GIT, "-C", str(sup), "init", "-q"], check=True)
    subprocess.run([*GIT, "-C", str(sup), "submodule", "add", "-q", str(lib), "sm"], check=True, capture_output=True)
    subprocess.run([*GIT, "-C", str(sup / "sm"), "worktree", "add", "-q", str(tmp_path / "w1")], check=True,
                   capture_output=True)
    Memory.open(home=isolated_home, project=sup / "sm", actor="human").write("sm-fact", "A submodule fact", "project",
                                                                             "")
    in_worktree = Memory.open(home=isolated_home, project=tmp_path / "w1")
    # before: keyed on super/.git/modules/sm, a layer of its own with no memories
    assert in_worktree.session.project_root == (sup / "sm").resolve()
    assert [m.name for m in in_worktree.list().memories] == ["sm-fact"]
    in_super = Memory.open(home=isolated_home, project=sup)  # control: the superproject keeps its own layer
    assert in_super.session.project_root == sup.resolve() and in_super.list().memories == ()
