"""The agent's environment: homes that are not absolute paths, moved projects,
worktrees of a bare repository, a broken config.toml (issue 11, items 2–4, 6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from memdir import Memory, ScopeError
from tests.conftest import run_cli

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]


def _repo(path, remote=None):
    path.mkdir(parents=True)
    subprocess.run([*GIT, "init", "-q", str(path)], check=True)
    (path / "README").write_text(path.name)  # distinct content: two repositories made in one second differ
    subprocess.run([*GIT, "-C", str(path), "add", "README"], check=True)
    subprocess.run([*GIT, "-C", str(path), "commit", "-qm", "first"], check=True)
    if remote:
        subprocess.run([*GIT, "-C", str(path), "remote", "add", "origin", remote], check=True)
    return path


@pytest.mark.slow
def test_relative_or_unexpanded_home_is_refused(tmp_path, project):
    (tmp_path / "a").mkdir()
    for value, said in ((".memdir-home", "is a relative path"),
                        ("${CLAUDE_PROJECT_DIR}/mem", "holds a '$' that no shell expanded")):
        for args, env in ((("list",), {"MEMDIR_HOME": value}), (("--home", value, "list"), {})):
            done = run_cli(*args, "--project", project, env=env, cwd=tmp_path / "a")
            assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == []  # no home was made in the working directory
    # control: ~ is expanded, and an absolute path works
    done = run_cli("--home", "~/memhome", "write", "x", "-d", "a fact", "-t", "project", "--project", project)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "userhome" / "memhome" / "projects").is_dir()


@pytest.mark.slow
def test_home_that_is_a_file_is_one_clear_error_for_every_command(tmp_path, project):
    home = tmp_path / "home-file"
    home.write_text("x")
    for args in (("context",), ("list",), ("status",), ("search", "x")):
        done = run_cli("--home", home, *args, "--project", project)
        assert done.returncode == 1 and "is not a directory" in done.stderr, (args, done.stderr)
    assert run_cli("--home", tmp_path / "h", "list", "--project", project).returncode == 0  # control


@pytest.mark.slow
def test_moved_project_orphans_are_listed_and_move_layer_rekeys(tmp_path, isolated_home):
    old = _repo(tmp_path / "proj", remote="git@example.com:team/proj.git")
    mem = Memory.open(home=isolated_home, project=old, actor="human")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    mem.write("ci", "CI runs on every push", "project", "")
    new = tmp_path / "proj2"
    shutil.move(str(old), str(new))
    # before: "No memories yet." and doctor "ok", nothing else
    listed = run_cli("list", "--project", new)
    assert listed.stdout.strip() == "No memories yet."
    assert listed.stderr == ("memdir: 1 layer of projects that no longer exist holds memories (2 in all); if this "
                             "project moved, `memdir doctor` shows which is its own and `memdir move-layer` brings "
                             "it here\n")
    doctor = run_cli("doctor", "--project", new)
    key = next(p.name for p in (isolated_home / "projects").iterdir())
    assert doctor.returncode == 1
    assert (f"orphaned layer {key}: 2 memories of {old}, which no longer exists — belongs to {new} "
            "(same git remote git@example.com:team/proj.git)") in doctor.stdout
    moved = run_cli("move-layer", key, "--project", new)
    assert moved.returncode == 0, moved.stderr
    assert f"2 memories now belong to {new}" in moved.stdout
    listed = run_cli("list", "--project", new)
    assert "db-port" in listed.stdout and "ci" in listed.stdout and listed.stderr == ""  # control: no hint now
    after = run_cli("doctor", "--project", new)
    assert after.returncode == 0 and "orphaned" not in after.stdout and after.stdout.strip().endswith("ok")
    events = [json.loads(line) for line in (isolated_home / "projects").glob("*/.memdir/journal.jsonl").__next__()
              .read_text().splitlines()]
    assert events[-1]["action"] == "move" and events[-1]["to_root"] == str(new)
    assert run_cli("verify").returncode == 0


@pytest.mark.slow
def test_moved_project_hint_shows_beside_user_memories(tmp_path, isolated_home):
    """newuser33: a person with a user-layer memory moved the project; `memdir list` showed that one memory
    and no word of the 2 project memories left in the old path's layer (the hint waited for an empty list)."""
    old = _repo(tmp_path / "proj")
    mem = Memory.open(home=isolated_home, project=old, actor="human")
    mem.write("editor", "The user edits in neovim", "user", "")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    mem.write("ci", "CI runs on every push", "project", "")
    new = tmp_path / "proj-renamed"
    shutil.move(str(old), str(new))
    hint = ("memdir: 1 layer of projects that no longer exist holds memories (2 in all); if this project moved, "
            "`memdir doctor` shows which is its own and `memdir move-layer` brings it here\n")
    listed = run_cli("list", "--project", new)
    assert "- editor (type: user; layer: user)" in listed.stdout and "db-port" not in listed.stdout
    assert listed.stderr == hint
    assert run_cli("list", "--scope", "project", "--project", new).stderr == hint
    user_only = run_cli("list", "--scope", "user", "--project", new)  # a listing of the user layer: not its concern
    assert "- editor (type: user; layer: user)" in user_only.stdout and user_only.stderr == ""
    key = next(p.name for p in (isolated_home / "projects").iterdir())
    assert run_cli("move-layer", key, "--project", new).returncode == 0
    listed = run_cli("list", "--project", new)  # control: its memories are here now, and the hint is gone
    assert "db-port" in listed.stdout and "- editor (type: user; layer: user)" in listed.stdout
    assert listed.stderr == ""


@pytest.mark.slow
def test_status_says_a_moved_projects_layer_as_list_does(tmp_path, isolated_home):
    """left34: `memdir status` of a moved project said nothing of the layer its memories stayed in (list and
    doctor did); it says list's sentence now (one rule, operations.maintenance.moved_note), text and --json,
    and nothing once the layer is brought here (the control, in the same home)."""
    old = _repo(tmp_path / "proj")
    mem = Memory.open(home=isolated_home, project=old, actor="human")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    mem.write("ci", "CI runs on every push", "project", "")
    assert json.loads(run_cli("status", "--json", "--project", old).stdout)["moved_away"] == ""  # not moved yet
    new = tmp_path / "proj-moved"
    shutil.move(str(old), str(new))
    said = ("1 layer of projects that no longer exist holds memories (2 in all); if this project moved, "
            "`memdir doctor` shows which is its own and `memdir move-layer` brings it here")
    status = run_cli("status", "--project", new)
    assert status.returncode == 0, status.stderr
    assert f"\nproject: {said}\n" in status.stdout
    assert json.loads(run_cli("status", "--json", "--project", new).stdout)["moved_away"] == said
    assert run_cli("list", "--project", new).stderr == f"memdir: {said}\n"  # the same sentence as list's
    key = next(p.name for p in (isolated_home / "projects").iterdir())
    assert run_cli("move-layer", key, "--project", new).returncode == 0
    after = run_cli("status", "--project", new)
    assert "project: 2 memories" in after.stdout and "no longer exist" not in after.stdout
    assert json.loads(run_cli("status", "--json", "--project", new).stdout)["moved_away"] == ""


@pytest.mark.slow
def test_move_layer_refuses_a_target_with_memories(tmp_path, isolated_home):
    old, new = _repo(tmp_path / "a"), _repo(tmp_path / "b")
    Memory.open(home=isolated_home, project=old, actor="human").write("x", "a fact of a", "project", "")
    Memory.open(home=isolated_home, project=new, actor="human").write("y", "a fact of b", "project", "")
    done = run_cli("move-layer", str(old), str(new))
    assert done.returncode == 1 and "already has a layer with memories" in done.stderr
    assert [m.name for m in Memory.open(home=isolated_home, project=new).list().memories] == ["y"]
    assert [m.name for m in Memory.open(home=isolated_home, project=old).list().memories] == ["x"]  # untouched


def test_worktrees_of_a_bare_repository_share_one_layer(tmp_path, isolated_home):
    src = _repo(tmp_path / "src")
    bare = tmp_path / "repo.git"
    subprocess.run([*GIT, "clone", "-q", "--bare", str(src), str(bare)], check=True)
    for name, branch in (("w1", "b1"), ("w2", "b2")):
        subprocess.run([*GIT, "-C", str(bare), "worktree", "add", "-q", "-b", branch, str(tmp_path / name)],
                       check=True)
    Memory.open(home=isolated_home, project=tmp_path / "w1", actor="human").write("x", "shared fact", "project", "")
    w2 = Memory.open(home=isolated_home, project=tmp_path / "w2")
    assert [m.name for m in w2.list().memories] == ["x"]
    assert w2.project_root == bare.resolve()
    other = Memory.open(home=isolated_home, project=src)  # control: another repository has its own layer
    assert other.list().memories == ()


@pytest.mark.slow
def test_broken_config_falls_back_to_defaults_and_doctor_says_so(isolated_home, project):
    isolated_home.mkdir(parents=True)
    Memory.open(home=isolated_home, project=project, actor="human").write("x", "a fact", "project", "")
    for text, said in (("context_max_bytes = [not toml", "cannot be read"),
                       ('context_max_bytes = "lots"\nrecall_max_bytes = 999', "cannot read 'lots' as int"),
                       ('[consolidation]\nmode = "sometimes"', "consolidation_mode must be off, gated or always")):
        (isolated_home / "config.toml").write_text(text)
        listed = run_cli("list", "--project", project)
        assert listed.returncode == 0 and "- x (type: project; layer: project)" in listed.stdout
        assert said in listed.stderr and len(listed.stderr.splitlines()) == 1  # warned once
        doctor = run_cli("doctor", "--project", project)
        assert doctor.returncode == 1 and f"settings: " in doctor.stdout and said in doctor.stdout
    settings = Memory.open(home=isolated_home, project=project).settings
    assert settings.consolidation_mode == "gated"
    (isolated_home / "config.toml").write_text("recall_max_bytes = 999\n")  # control: a good file applies
    assert Memory.open(home=isolated_home, project=project).settings.recall_max_bytes == 999
    assert run_cli("doctor", "--project", project).returncode == 0


@pytest.mark.slow
def test_a_calendar_date_means_the_whole_local_day(isolated_home, project):
    env = {"TZ": "America/Los_Angeles"}
    done = run_cli("write", "promo", "-d", "Spring promo code SPRING25", "-t", "project", "--valid-until",
                   "2025-03-31", "--project", project, env=env)
    assert done.returncode == 0, done.stderr
    text = next((isolated_home / "projects").glob("*/promo.md")).read_text()
    # before: 2025-03-31T00:00:00Z — expired at 17:00 on March 30, local time
    assert "valid_until: 2025-04-01T07:00:00Z" in text
    for at in ("2025-03-30T18:00", "2025-03-31T23:30"):  # local times: after 17:00 the day before, and late on the day
        assert "promo" in run_cli("list", "--valid-at", at, "--project", project, env=env).stdout, at
    late = run_cli("list", "--valid-at", "2025-04-01T00:30", "--project", project, env=env).stdout
    assert "promo" not in late and "No memory was true at 2025-04-01T00:30." in late  # control: the next local day it has expired
    done = run_cli("write", "promo", "-d", "Spring promo code SPRING25", "-t", "project", "--valid-until",
                   "2025-03-31T17:00", "--project", project, env=env)  # a time without a zone is local
    assert "valid_until: 2025-04-01T00:00:00Z" in next((isolated_home / "projects").glob("*/promo.md")).read_text()
    done = run_cli("write", "promo", "-d", "Spring promo code SPRING25", "-t", "project", "--valid-until",
                   "2025-03-31T17:00Z", "--project", project, env=env)  # control: a zone given is kept
    assert "valid_until: 2025-03-31T17:00:00Z" in next((isolated_home / "projects").glob("*/promo.md")).read_text()
    helped = run_cli("write", "--help").stdout
    assert "a date alone (2025-03-31) means through the end of that local day" in " ".join(helped.split())


@pytest.mark.slow
def test_a_moved_repository_without_a_remote_is_found_by_its_first_commit(tmp_path, isolated_home):
    old = _repo(tmp_path / "tool")
    first = subprocess.run(["git", "-C", str(old), "rev-list", "--max-parents=0", "HEAD"], capture_output=True,
                           text=True, check=True).stdout.strip()
    Memory.open(home=isolated_home, project=old, actor="human").write("x", "a fact", "project", "")
    new = tmp_path / "tool-renamed"
    shutil.move(str(old), str(new))
    doctor = run_cli("doctor", "--project", new).stdout
    assert f"belongs to {new} (same first commit {first})" in doctor
    unrelated = _repo(tmp_path / "unrelated")  # control: another repository is not claimed
    doctor = run_cli("doctor", "--project", unrelated).stdout
    assert "orphaned layer" in doctor and "belongs to" not in doctor
    assert "NEW_PROJECT_DIR re-keys it (or delete the layer's directory if that project is gone for good)" in doctor


@pytest.mark.slow
def test_a_hand_written_date_in_a_file_is_the_whole_local_day(isolated_home, project, person):
    layer = isolated_home / "projects"
    person.write("seed", "a seed", "project", "")
    folder = next(layer.iterdir())
    (folder / "promo.md").write_text("---\nname: promo\ndescription: Spring promo\ntype: project\n"
                                     "valid_until: 2025-03-31\n---\nbody\n")
    env = {"TZ": "America/Los_Angeles"}
    assert "promo" in run_cli("list", "--valid-at", "2025-03-31T20:00", "--project", project, env=env).stdout
    assert "promo" not in run_cli("list", "--valid-at", "2025-04-01T00:01", "--project", project, env=env).stdout


@pytest.mark.slow
def test_move_layer_refuses_home_as_open_does(tmp_path, isolated_home):
    old = _repo(tmp_path / "gone")
    Memory.open(home=isolated_home, project=old, actor="human").write("x", "a fact of gone", "project", "")
    shutil.rmtree(old)  # the project is gone: its layer is an orphan anyone may re-key
    key = next((isolated_home / "projects").iterdir()).name
    home = os.environ["HOME"]
    said = (f"refusing to use {home!r} as a project root (it is / or $HOME); run inside a project directory, "
            "pass --project DIR or set MEMDIR_PROJECT")
    assert Memory.open(home=isolated_home, project=home).project_error == said
    mem = Memory.open(home=isolated_home, project=tmp_path, actor="human")
    # before: the layer moved to the key of $HOME, which no session can open
    with pytest.raises(ScopeError) as refused:
        mem.move_layer(key, home)
    assert str(refused.value) == said
    done = run_cli("move-layer", key, home, cwd=tmp_path)
    assert done.returncode == 1 and done.stderr == f"memdir: {said}\n"
    assert [p.name for p in (isolated_home / "projects").iterdir()] == [key]  # nothing moved
    new = _repo(tmp_path / "new")  # control: a real project directory takes the layer
    moved = mem.move_layer(key, new)
    assert moved.moved_from == key and moved.memories == 1
    assert [m.name for m in Memory.open(home=isolated_home, project=new).list().memories] == ["x"]


@pytest.mark.slow
def test_an_orphaned_layer_counts_its_memories_only(tmp_path, isolated_home):
    old = _repo(tmp_path / "gone")
    mem = Memory.open(home=isolated_home, project=old, actor="human")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    mem.write("ci", "CI runs on every push", "project", "")
    layer = next((isolated_home / "projects").iterdir())
    assert (layer / "MEMORY.md").is_file()  # the derived index sits beside the memories
    (layer / ".hidden.md").write_text("---\nname: hidden\ndescription: an editor's backup\n---\n")
    (layer / "Memory.md").write_text("# an index in another case\n")
    shutil.rmtree(old)
    # before: 4 (the dot-file and Memory.md counted as memories)
    assert [(o.key, o.memories) for o in Memory.open(home=isolated_home, project=tmp_path).orphans()] == [
        (layer.name, 2)]
    doctor = run_cli("doctor", "--project", tmp_path)
    assert f"orphaned layer {layer.name}: 2 memories of {old}, which no longer exists" in doctor.stdout
    moved = Memory.open(home=isolated_home, project=_repo(tmp_path / "new"), actor="human").move_layer(layer.name)
    assert moved.memories == 2


@pytest.mark.slow
def test_a_project_whose_name_is_not_utf8_keeps_its_layer_through_doctor_orphans_and_move_layer(tmp_path,
                                                                                               isolated_home):
    old, new = os.fsencode(tmp_path) + b"/proj-\xff", os.fsencode(tmp_path) + b"/moved-\xfe"
    os.makedirs(old + b"/.git")
    old_dir, new_dir = os.fsdecode(old), os.fsdecode(new)  # as Python names them: surrogate escapes
    Memory.open(home=isolated_home, project=old_dir, actor="human").write("x", "a fact", "project", "")
    layer = next((isolated_home / "projects").iterdir())
    # ASCII JSON: the byte that is not UTF-8 kept as an escape of its surrogate
    assert (layer / ".memdir" / "layer.json").read_bytes() == (
        b'{"kind": "project", "root": "' + os.fsencode(tmp_path) + b'/proj-\\udcff"}\n')
    assert run_cli("doctor", "--project", old_dir).returncode == 0
    shutil.move(old, new)
    shown = old_dir.encode("utf-8", "backslashreplace").decode()  # how a terminal shows it
    doctor = run_cli("doctor", "--project", new_dir)
    assert f"orphaned layer {layer.name}: 1 memory of {shown}, which no longer exists" in doctor.stdout
    orphans = Memory.open(home=isolated_home, project=new_dir).orphans()
    assert [(o.key, o.root, o.memories) for o in orphans] == [(layer.name, old_dir, 1)]
    # before: a traceback (the journal could not hold the root), nothing moved
    moved = run_cli("move-layer", layer.name, "--project", new_dir)
    assert moved.returncode == 0 and "Traceback" not in moved.stderr, moved.stderr
    assert [m.name for m in Memory.open(home=isolated_home, project=new_dir).list().memories] == ["x"]
    info = json.loads((isolated_home / "projects").glob("*moved*/.memdir/layer.json").__next__().read_bytes())
    assert info["root"] == new_dir
    assert run_cli("doctor", "--project", new_dir).stdout.strip().endswith("ok")
    assert run_cli("verify").returncode == 0
