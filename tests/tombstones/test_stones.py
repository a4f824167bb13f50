"""Reading the tombstone files (memdir.tombstones.stones): a field of the wrong type is a file that does not
read as a tombstone — a team file skipped and named, a personal ``tombstones.json`` unreadable — never a
TypeError on a write, an import, a consolidation or a listing."""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.errors import NotFound, StoreError
from memdir.tombstones.stones import TombstoneDir, TombstoneFile
from tests.conftest import run_cli

GOOD = {"id": "t-good", "name": "port", "digest": "d" * 64, "description": "Dev DB listens on 5433",
        "words_digest": "w" * 64}
MISSING = object()
# (field, value): each a field of the wrong type (or a required one missing); reason and words_digest may be null.
BAD = [("id", 5), ("id", None), ("id", MISSING), ("name", 5), ("name", MISSING), ("digest", ["d"]),
       ("description", None), ("description", 5), ("actor", 5), ("reason", 5), ("ts", 5), ("ts", None),
       ("words_digest", 5), ("words_digest", {"a": 1})]

WARN = "written though it matches a forgotten value"


def _item(field, value, **over):
    item = {**GOOD, **over}
    if value is MISSING:
        del item[field]
    else:
        item[field] = value
    return item


@pytest.mark.parametrize(("field", "value"), BAD)
def test_a_team_file_with_a_field_of_the_wrong_type_is_skipped_and_named(tmp_path, field, value):
    (tmp_path / "t-good.json").write_text(json.dumps(GOOD))
    bad = tmp_path / "t-bad.json"
    bad.write_text(json.dumps(_item(field, value, id="t-bad")))
    stones = TombstoneDir(tmp_path)
    assert [s.id for s in stones.all()] == ["t-good"]  # control: the readable file is read
    [(path, why)] = stones.problems()
    assert path == str(bad)
    assert why.startswith(f"not a readable tombstone ({field!r} ")


@pytest.mark.parametrize(("field", "value"), BAD)
def test_a_personal_file_with_an_item_of_the_wrong_type_is_unreadable(tmp_path, field, value):
    path = tmp_path / "tombstones.json"
    path.write_text(json.dumps([GOOD, _item(field, value)]))
    with pytest.raises(StoreError, match=rf"tombstones.json is unreadable \(item 2: {field!r} "):
        TombstoneFile(tmp_path).all()
    path.write_text(json.dumps([GOOD]))  # control: the same file without that item reads
    assert [(s.id, s.description) for s in TombstoneFile(tmp_path).all()] == [("t-good", GOOD["description"])]


@pytest.mark.parametrize("text", ["{}", '"t-good"', "[5]", "[" * 100_000 + "]" * 100_000])
def test_a_personal_file_that_is_not_a_list_of_objects_is_unreadable(tmp_path, text):
    (tmp_path / "tombstones.json").write_text(text)
    with pytest.raises(StoreError, match="tombstones.json is unreadable"):
        TombstoneFile(tmp_path).all()


def test_a_deeply_nested_team_file_is_skipped_and_the_others_lift(tmp_path):
    directory = tmp_path / "tombstones"
    directory.mkdir()
    (directory / "t-good.json").write_text(json.dumps(GOOD))
    (directory / "t-deep.json").write_text("[" * 100_000 + "]" * 100_000)
    stones = TombstoneDir(directory)
    assert [path for path, _ in stones.problems()] == [str(directory / "t-deep.json")]
    assert stones.lift("t-good").id == "t-good"
    assert sorted(p.name for p in directory.iterdir()) == ["t-deep.json"]  # the bad file is left for a person


FORGOTTEN = "The staging host is staging-7.example.com"


@pytest.fixture
def bad_team_stone(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    person = Memory.open(home=home, project=project, actor="human")
    person.team_init()
    person.write("staging", FORGOTTEN, "project", scope="team")
    person.forget("staging", scope="team")
    return home, project, person, project / ".claude" / "memory" / "tombstones" / "t-x.json"


@pytest.mark.slow
@pytest.mark.parametrize("bad", [{"description": None}, {"id": 5}, {"description": 5}])
def test_a_team_tombstone_with_a_bad_field_crashes_no_command(bad_team_stone, tmp_path, bad):
    home, project, person, broken = bad_team_stone
    broken.write_text(json.dumps({"id": "t-x", "name": "x", "digest": "d", "description": "x", **bad}))
    env = {"MEMDIR_HOME": str(home)}
    warning = f"memdir: warning: the team layer's tombstones were not all checked: {broken}: not a readable tombstone"
    out = run_cli("--project", project, "write", "hello", "-d", "hello world", env=env)
    assert (out.returncode, out.stdout) == (0, "Memory created: hello (project)\n") and warning in out.stderr
    # control: the readable tombstone still applies (a person's write into a personal layer is warned, naming
    # it; into the team layer, whose tombstone it is, refused)
    warned = run_cli("--project", project, "write", "again", "-d", FORGOTTEN, "--scope", "project", env=env)
    assert warned.returncode == 0 and f"{WARN} (the same value; tombstone t-" in warned.stderr
    refused = run_cli("--project", project, "write", "again-team", "-d", FORGOTTEN, "--scope", "team", env=env)
    assert refused.returncode == 1 and "memdir tombstone lift t-" in refused.stderr
    listed = run_cli("--project", project, "tombstones", env=env)
    assert listed.returncode == 0 and "t-x" not in listed.stdout and "staging" in listed.stdout
    assert f"{broken}: not a readable tombstone" in listed.stderr
    for command in (["list"], ["status"]):
        out = run_cli("--project", project, *command, env=env)
        assert out.returncode == 0 and str(broken) in out.stdout and "Traceback" not in out.stderr, out.stderr
    doctor = run_cli("--project", project, "doctor", env=env)
    assert doctor.returncode == 1 and f"malformed: {broken}: not a readable tombstone" in doctor.stdout
    assert "Traceback" not in doctor.stderr
    source = tmp_path / "exported"
    source.mkdir()
    (source / "ci.md").write_text("---\nname: ci\ndescription: CI runs on Forgejo Actions\ntype: project\n---\n")
    imported = run_cli("--project", project, "import", "dir", source, env=env)
    assert imported.returncode == 0 and "imported         ci (project)" in imported.stdout
    assert warning in imported.stderr
    transcript = tmp_path / "t.txt"
    transcript.write_text("USER: Remember that the staging server is called kestrel-9.\nASSISTANT: ok\n")
    run = run_cli("--project", project, "consolidate", transcript, "--extractor", "rules", env=env)
    assert run.returncode == 0 and "1 change(s) made" in run.stdout and "Traceback" not in run.stderr, run.stderr
    assert "warning: the team layer's tombstones were not all checked" in run.stdout


@pytest.mark.slow
def test_a_personal_tombstone_with_a_bad_field_is_an_unreadable_layer(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    person = Memory.open(home=home, project=project, actor="human")
    person.write("tea", "I like tea", "user")
    stones = person.session.layer("user").meta / "tombstones.json"
    stones.write_text(json.dumps([{"id": "t-1", "name": "n", "digest": "d", "description": 5}]))
    env = {"MEMDIR_HOME": str(home)}
    out = run_cli("--project", project, "write", "hello", "-d", "hello world", env=env)
    assert (out.returncode, out.stdout) == (0, "Memory created: hello (project)\n")
    assert (f"memdir: warning: the user layer's tombstones were not checked: {stones} is unreadable "
            "(item 1: 'description' is a number, not a string)") in out.stderr
    into = run_cli("--project", project, "write", "coffee", "-d", "I like coffee", "-t", "user", env=env)
    assert into.returncode == 1 and "Traceback" not in into.stderr
    assert f"memdir: {stones} is unreadable (item 1: 'description' is a number, not a string)" in into.stderr
    with pytest.raises(StoreError, match="is unreadable"):
        person.write("coffee", "I like coffee", "user")


def test_a_team_file_whose_id_is_not_its_file_name_is_skipped_and_never_written_back(tmp_path):
    """break24: a tombstone file arriving by git pull as ``evil.json`` with the id ``../../../pwned`` was
    applied, listed under that id and, on a lift undone, written back to ``tombstones/../../../pwned.json``,
    outside the directory. The id must be the file's name, as a sync repository's must."""
    directory = tmp_path / "repo" / "tombstones"
    directory.mkdir(parents=True)
    (directory / "t-good.json").write_text(json.dumps(GOOD))
    evil = directory / "evil.json"
    evil.write_text(json.dumps({**GOOD, "id": "../../../pwned", "digest": "e" * 64}))
    stones = TombstoneDir(directory)
    assert [s.id for s in stones.all()] == ["t-good"]  # control: the well-named file is applied
    assert stones.problems() == [(str(evil), "not a readable tombstone (its id '../../../pwned' is not its file "
                                             "name, evil.json); it is not applied — fix or remove it by hand (a "
                                             "merge conflict: keep one side)")]
    with pytest.raises(NotFound):
        stones.lift("../../../pwned")
    assert evil.exists() and not (tmp_path / "pwned.json").exists()
    lifted = stones.lift("t-good")
    stones.put_back(lifted)  # the undo of a lift writes the file it removed, in the directory
    assert sorted(p.name for p in directory.iterdir()) == ["evil.json", "t-good.json"]


@pytest.mark.slow
def test_a_pulled_tombstone_with_a_foreign_id_holds_back_no_memory(bad_team_stone):
    home, project, person, _ = bad_team_stone
    person.write("runbook", "The runbook lives in docs/runbook.md", "project", scope="team")
    directory = project / ".claude" / "memory" / "tombstones"
    (directory / "evil.json").write_text(json.dumps({"id": "../../x", "name": "runbook", "digest": "r" * 64,
                                                     "description": "The runbook lives in docs/runbook.md"}))
    reader = Memory.open(home=home, project=project, actor="agent")
    assert reader.read("runbook", "team").record.description == "The runbook lives in docs/runbook.md"
    assert "../../x" not in run_cli("--project", project, "tombstones", env={"MEMDIR_HOME": str(home)}).stdout
    assert [s.name for s in reader.tombstones().tombstones] == ["staging"]  # control: the real one applies
