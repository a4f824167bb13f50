"""A project layer this user cannot read (another user's, 0700) neither blocks
writes to the user layer nor stops doctor, verify or repair at it (issue 10,
trial item 8): it is skipped with a warning and reported per layer. Real
subprocesses bound by the file modes (as root: without the capabilities
that bypass them)."""

from __future__ import annotations

import os

import pytest

from memdir import Memory
from memdir.errors import TombstoneRefused
from memdir.files.layout import SEEN_TOMBSTONES_FILE
from tests.conftest import run_cli
from tests.faults.test_faults import _as_other_user


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


@pytest.mark.slow
def test_a_user_layer_write_succeeds_with_a_warning(locked_out):
    mem, project, layer, env = locked_out
    out = _as_other_user(["--project", project, "write", "shell", "-d", "The user's shell is fish", "-t", "user",
                          "--scope", "user"], env)
    assert out.returncode == 0, out.stderr
    assert "Memory created: shell (user)" in out.stdout
    assert "the project layer's tombstones were not checked" in out.stderr
    assert mem.read("shell", "user", count=False).record.description == "The user's shell is fish"


@pytest.mark.slow
@pytest.mark.parametrize("command", [["verify"], ["verify", "--repair"], ["doctor"]])
def test_doctor_and_verify_report_every_layer(locked_out, command):
    mem, project, layer, env = locked_out
    out = _as_other_user(["--project", project, *command], env)
    text = out.stdout + out.stderr
    assert out.returncode != 0 and "Traceback" not in text
    assert "cannot check this layer" in text and str(layer) in text
    # Control: the readable user layer is still checked and reported.
    if command[0] == "verify":
        assert f"ok  {mem.session.layer('user').path}: 1 event" in out.stdout
    else:
        assert "user layer:" in out.stdout and "— 1 memory\n" in out.stdout


# ---------------------------------------------------------------- one layer's tombstones unreadable

FORGOTTEN = ("Dev PostgreSQL listens on 5433", "Moved from 5432 on 2026-11-02: the system cluster has it.")
SKIPPED = "the user layer's tombstones were not checked: "


@pytest.fixture
def garbled_stones(tmp_path):
    """A home whose user layer's ``tombstones.json`` is not JSON, beside a readable forgotten value
    in the project layer and a team layer: every write path must proceed past the unreadable layer
    with a warning (as a plain write does), and still refuse the value the readable one forgot."""
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    person = Memory.open(home=home, project=project, actor="human")
    person.team_init()
    person.write("editor", "The user edits with Helix", "user")
    person.write("db-port", *FORGOTTEN[:1], "project", FORGOTTEN[1])
    person.forget("db-port")
    (person.session.layer("user").meta / "tombstones.json").write_text("not json")
    return home, project, person


def test_a_plain_write_proceeds_past_unreadable_tombstones_with_a_warning(garbled_stones):
    home, project, person = garbled_stones
    agent = Memory.open(home=home, project=project, actor="agent")
    result = agent.write("ci", "CI runs on Forgejo Actions", "project", "Workflows live in .forgejo.")
    assert (result.name, result.scope, result.operation) == ("ci", "project", "created")
    assert [w for w in result.warnings if w.startswith(SKIPPED)]
    with pytest.raises(TombstoneRefused):  # control: the readable project tombstone still refuses
        agent.write("port", FORGOTTEN[0], "project", FORGOTTEN[1])


def test_a_team_proposal_proceeds_past_unreadable_tombstones_with_a_warning(garbled_stones):
    home, project, person = garbled_stones
    agent = Memory.open(home=home, project=project, actor="agent")
    result = agent.write("ci", "CI runs on Forgejo Actions", "project", "Workflows live in .forgejo.", scope="team")
    assert (result.name, result.status, result.operation) == ("ci", "candidate", "created")
    assert [w for w in result.warnings if w.startswith(SKIPPED)]
    assert [c.name for c in person.review("team").candidates] == ["ci"]
    with pytest.raises(TombstoneRefused):  # control: the project layer's tombstone guards the team too
        agent.write("port", FORGOTTEN[0], "project", FORGOTTEN[1], scope="team")


@pytest.mark.slow
def test_an_import_proceeds_past_unreadable_tombstones_with_a_warning(garbled_stones, tmp_path):
    home, project, person = garbled_stones
    source = tmp_path / "exported"
    source.mkdir()
    (source / "ci.md").write_text("---\nname: ci\ndescription: CI runs on Forgejo Actions\ntype: project\n---\n"
                                  "Workflows live in .forgejo.\n")
    (source / "port.md").write_text(f"---\nname: port\ndescription: {FORGOTTEN[0]}\ntype: project\n---\n"
                                    f"{FORGOTTEN[1]}\n")
    out = run_cli("--project", project, "import", "dir", source, env={"MEMDIR_HOME": str(home)})
    assert out.returncode == 0, out.stderr
    assert "imported         ci (project)" in out.stdout
    assert "1 imported, 0 updated, 0 candidate, 0 unchanged, 1 skipped (kept whole: 1, cut: 0)." in out.stdout
    assert f"memdir: warning: {SKIPPED}" in out.stderr
    # control: the item holding the value the project layer forgot is skipped as forgotten
    assert "skipped          port (project)" in out.stdout and "matches a forgotten value (" in out.stdout
    assert person.read("ci", count=False).record.description == "CI runs on Forgejo Actions"


def test_consolidation_proceeds_past_unreadable_tombstones_with_a_warning(garbled_stones):
    from memdir.consolidation.proposals import Proposal
    from tests.scripted import Scripted

    home, project, person = garbled_stones
    proposals = Scripted(Proposal("create", name="pytest-usage", description="Tests run with pytest -x",
                                  body="Run the unit tests with pytest -x."),
                         Proposal("create", name="port", description=FORGOTTEN[0], body=FORGOTTEN[1]))
    report = person.consolidate([{"role": "user", "content": "Remember: always run pytest -x."}],
                                extractor=proposals)
    created, refused = report.outcomes
    assert (created.result, created.name, created.scope) == ("created", "pytest-usage", "project")
    assert [w for w in created.warnings if w.startswith(SKIPPED)]
    assert refused.result == "refused-tombstone"  # control: the readable tombstone still refuses
    assert person.read("pytest-usage", count=False).record.description == "Tests run with pytest -x"


def test_a_restore_an_approval_and_a_promotion_say_which_tombstones_were_not_checked(garbled_stones):
    """The guard's warning reaches every result of a write, not only a plain write's: a restore, an
    approval (personal and team) and a promotion proceed and say which layer's tombstones were skipped."""
    home, project, person = garbled_stones
    person.write("ci", "CI runs on Forgejo Actions", "project", "Workflows live in .forgejo.")
    person.write("ci", "CI runs on Forgejo Actions, and nightly builds too", "project")
    restored = person.restore("ci", 1)
    assert (restored.name, restored.version, restored.operation) == ("ci", 1, "updated")
    assert [w for w in restored.warnings if w.startswith(SKIPPED)]
    agent = Memory.open(home=home, project=project, actor="agent")
    assert agent.write("ci-runner", "CI runs on Woodpecker", "project", status="candidate").status == "candidate"
    candidate = person.review("project").candidates[0].name
    approved = person.approve(candidate)
    assert (approved.name, approved.approved) == ("ci-runner", True)
    assert [w for w in approved.warnings if w.startswith(SKIPPED)]
    agent.write("deploys", "Deploys need the VPN", "project", "Ask ops for a profile.", scope="team")
    team = person.approve("deploys", "team")
    assert (team.name, team.scope) == ("deploys", "team") and [w for w in team.warnings if w.startswith(SKIPPED)]
    person.write("lint", "Lint runs before the tests", "project")
    promoted = person.promote("lint")
    assert promoted.name == "lint" and [w for w in promoted.warnings if w.startswith(SKIPPED)]
    # control: the readable project tombstone still refuses its value on the way back (the agent's)
    with pytest.raises(TombstoneRefused):
        agent.write("port", FORGOTTEN[0], "project", FORGOTTEN[1], scope="team")



def _unreadable(person) -> tuple:
    stones = person.session.layer("user").meta / "tombstones.json"
    return stones, (f"{stones} is unreadable (Expecting value: line 1 column 1 (char 0)); it is canonical, "
                    "fix it by hand")


@pytest.mark.slow
def test_status_and_doctor_report_an_unreadable_tombstones_file_and_show_the_other_layers(garbled_stones):
    home, project, person = garbled_stones
    stones, unreadable = _unreadable(person)
    env = {"MEMDIR_HOME": str(home)}
    status = run_cli("--project", project, "status", env=env)
    assert (status.returncode, status.stderr) == (0, "")
    lines = status.stdout.splitlines()
    at = lines.index("user: 1 memory (1 in the index, 1 in the context block, 0 candidates, 0 tombstones)")
    assert lines[at + 1] == f"  ! unreadable: {stones}: {unreadable}"
    assert "project: 0 memories (0 in the index, 0 in the context block, 0 candidates, 1 tombstone)" in lines  # the other layers
    assert "team: 0 memories (0 in the index, 0 in the context block, 0 candidates, 0 tombstones)" in lines
    doctor = run_cli("--project", project, "doctor", env=env)
    assert doctor.returncode == 1 and "Traceback" not in doctor.stderr, doctor.stderr
    lines = doctor.stdout.splitlines()
    assert f"  malformed: {stones}: {unreadable}" in lines
    assert f"project layer: {person.session.layer('project').path} — 0 memories" in lines  # the rest goes on
    user = person.session.layer("user").path
    assert f"  journal: {user}: {unreadable}" in lines  # verify's own check of that layer says it too
    assert lines[-1] == "2 problem(s)"
    assert [p.path for p in person.doctor().problems] == [str(stones), str(user)]
    tool = person.call_tool("memory_status", {})
    assert f"  ! unreadable: {stones}: {unreadable}" in tool.splitlines()
    assert "project: 0 memories (0 in the index, 0 in the context block, 0 candidates, 1 tombstone)" in tool.splitlines()


@pytest.mark.slow
def test_tombstones_lists_the_other_layers_and_warns_of_the_unreadable_one(garbled_stones):
    import json

    home, project, person = garbled_stones
    stones, unreadable = _unreadable(person)
    [kept] = person.tombstones("project").tombstones
    warning = f"the user layer's tombstones are not listed: {unreadable}"
    listed = person.tombstones()
    assert ([s.id for s in listed.tombstones], listed.warnings) == ([kept.id], (warning,))
    env = {"MEMDIR_HOME": str(home)}
    out = run_cli("--project", project, "tombstones", env=env)
    assert out.returncode == 0 and out.stdout.startswith(f"{kept.id}  project db-port  forgotten by human")
    assert out.stderr == f"memdir: warning: {warning}\n"
    out = run_cli("--project", project, "tombstones", "--json", env=env)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert ([s["id"] for s in data["tombstones"]], data["warnings"]) == ([kept.id], [warning])
    # control: asked for the unreadable layer alone, there is nothing to list but the error
    only = run_cli("--project", project, "tombstones", "--scope", "user", env=env)
    assert (only.returncode, only.stdout, only.stderr) == (1, "", f"memdir: {unreadable}\n")



@pytest.mark.slow
def test_a_tombstone_of_another_layer_is_lifted_past_an_unreadable_tombstones_file(garbled_stones):
    home, project, person = garbled_stones
    stones, unreadable = _unreadable(person)
    [kept] = person.tombstones("project").tombstones
    env = {"MEMDIR_HOME": str(home)}
    missing = run_cli("--project", project, "tombstone", "lift", "t-000000000000", env=env)
    assert (missing.returncode, missing.stderr) == (1, f"memdir: {unreadable}\n")  # it may be in the unreadable one
    out = run_cli("--project", project, "tombstone", "lift", kept.id, env=env)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout == f"Lifted tombstone {kept.id} (project, db-port): its value may be written again.\n"
    assert person.write("port", FORGOTTEN[0], "project", FORGOTTEN[1]).operation == "created"


# ---------------------------------------------------------------- one team tombstone file unreadable

TEAM_FORGOTTEN = "The staging server is called kestrel-9 today"
TEAM_KEPT = "The build cache lives in /var/cache/build on the runners"


def _team_skipped(broken) -> str:
    return (f"the team layer's tombstones were not all checked: {broken}: not a readable tombstone (Expecting "
            "value: line 1 column 1 (char 0)); it is not applied — fix or remove it by hand (a merge conflict: "
            "keep one side)")


@pytest.fixture
def garbled_team_stone(tmp_path):
    """A team layer with two forgotten values: the tombstone file of one (``TEAM_FORGOTTEN``) is not JSON,
    the other's (``TEAM_KEPT``) is intact — the value of the broken one, never read by this home, may come
    back, but never silently, and the intact one still refuses."""
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    person = Memory.open(home=home, project=project, actor="human")
    person.team_init()
    person.write("staging", TEAM_FORGOTTEN, "project", scope="team")
    broken = project / ".claude" / "memory" / "tombstones" / f"{person.forget('staging', scope='team').tombstone}.json"
    person.write("cache", TEAM_KEPT, "project", scope="team")
    person.forget("cache", scope="team")
    broken.write_text("not json\n")
    # as a clone that never read that tombstone sees it (a teammate's commit garbled it before this home read it):
    # a home that read it keeps it in force (break35: tests/tombstones/test_garbled_team_tombstone.py)
    (person.session.layer("team").meta / SEEN_TOMBSTONES_FILE).unlink()
    return home, project, person, broken


def test_a_corrupt_team_tombstone_is_warned_on_every_write_path(garbled_team_stone, tmp_path):
    from memdir.consolidation.proposals import Proposal
    from tests.scripted import Scripted

    home, project, person, broken = garbled_team_stone
    warning = _team_skipped(broken)
    agent = Memory.open(home=home, project=project, actor="agent")
    plain = agent.write("r2", TEAM_FORGOTTEN, "project")
    assert (plain.name, plain.scope, plain.operation, plain.warnings) == ("r2", "project", "created", (warning,))
    into_team = person.write("r3", TEAM_FORGOTTEN + " again", "project", scope="team")
    assert (into_team.scope, into_team.operation, into_team.warnings) == ("team", "created", (warning,))
    proposed = agent.write("r4", TEAM_FORGOTTEN + " still", "project", scope="team")
    assert (proposed.status, proposed.warnings) == ("candidate", (warning,))
    shown = next(c for c in person.review().candidates if c.name == "r4")  # approved as review showed it
    approved = person.approve("r4", "team", digest=shown.digest)
    assert (approved.name, approved.scope, approved.warnings) == ("r4", "team", (warning,))
    tool = agent.call_tool("memory_write", {"name": "r5", "description": TEAM_FORGOTTEN + " too", "type": "project"})
    assert tool == f"Memory created: r5 (project)\nwarning: {warning}"
    person.write("r2", "The staging server is called kestrel-10 now", "project")
    restored = person.restore("r2", 1)
    assert (restored.operation, restored.warnings) == ("updated", (warning,))
    promoted = person.promote("r2")
    assert (promoted.name, promoted.warnings) == ("r2", (warning,))
    source = tmp_path / "exported"
    source.mkdir()
    (source / "r6.md").write_text(f"---\nname: r6\ndescription: {TEAM_FORGOTTEN} too\ntype: project\n---\n")
    imported = person.import_from("dir", str(source))
    assert [o.result for o in imported.outcomes] == ["imported"] and imported.warnings == (warning,)
    report = person.consolidate([{"role": "user", "content": "Remember: always run pytest -x."}],
                                extractor=Scripted(Proposal("create", name="r7", description=TEAM_FORGOTTEN + " yes"),
                                                   Proposal("create", name="r8", description=TEAM_KEPT)))
    created, refused = report.outcomes
    assert (created.result, created.name, created.warnings) == ("created", "r7", (warning,))
    # controls: the intact team tombstone still refuses, into the team layer and into the others
    assert refused.result == "refused-tombstone" and "'cache'" in refused.detail
    # a person's write into a personal layer is warned, naming the intact tombstone; into the team layer, whose
    # own tombstone it is, refused
    warned = person.write("again-project", TEAM_KEPT, "project", scope="project")
    assert [w for w in warned.warnings if "written though it matches a forgotten value" in w]
    with pytest.raises(TombstoneRefused):
        person.write("again-team", TEAM_KEPT, "project", scope="team")
    with pytest.raises(TombstoneRefused):
        agent.write("again", TEAM_KEPT, "project", scope="team")


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["project", "team"])
def test_the_cli_warns_of_a_corrupt_team_tombstone(garbled_team_stone, scope):
    home, project, person, broken = garbled_team_stone
    env = {"MEMDIR_HOME": str(home)}
    out = run_cli("--project", project, "write", "r2", "-d", TEAM_FORGOTTEN, "--scope", scope, env=env)
    assert (out.returncode, out.stdout) == (0, f"Memory created: r2 ({scope})\n")
    assert out.stderr == f"memdir: warning: {_team_skipped(broken)}\n"
    warned = run_cli("--project", project, "write", "r3", "-d", TEAM_KEPT, "--scope", scope, env=env)
    if scope == "team":  # control: the intact tombstone is the team layer's own: a write into it is refused
        assert warned.returncode == 1 and "memdir tombstone lift t-" in warned.stderr
    else:  # control: another layer's tombstone warns a person
        assert warned.returncode == 0 and "written though it matches a forgotten value" in warned.stderr
