"""A forget racing a write of the same name (break29).

The forget looked the memory up (the version the person was answered about, against which the other layers'
holders were checked), then took the layer lock and tombstoned whatever version was there by then: an agent's
write landing in between was deleted and its new value forgotten, a value nobody asked to forget. A forget
now checks, under the lock, the version its lookup found (or the one the caller read): a newer write is kept,
nothing is tombstoned, and the person is told.

Real processes: the forget runs in a forked child stopped in that window (the lookup done, the lock not yet
taken), and the write is the real `memdir write` CLI in a subprocess of its own.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import Conflict
from memdir.gateway import changes
from tests.conftest import run_cli
from tests.faults import forked


def _forget_in_window(home, project, name, during) -> tuple[int, str]:
    """Fork a child that forgets ``name`` and stops once its lookup is done, before the layer lock; run ``during()``
    in this process meanwhile, then let the child go. Returns (the child's exit code, what it reported):
    0 and the tombstone id, or 4 and the Conflict's text."""
    def act() -> str:
        return Memory.open(home=home, project=project, actor="human").forget(name).tombstone or ""

    return forked.in_window(changes, "delete", act, during)


@pytest.mark.parametrize("round_", range(3))
def test_a_write_landing_in_a_forgets_window_is_kept_and_the_person_told(tmp_path, project, round_):
    home = tmp_path / "home"
    env = {"MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off"}
    person = Memory.open(home=home, project=project, actor="human")
    person.write("ci", "CI runs on Jenkins", "project", "Jenkinsfile at the root.")
    newer = f"CI runs on Buildkite, take {round_}"

    def agent_writes():
        out = run_cli("--project", project, "write", "ci", "-d", newer, "--body", "Pipeline in .buildkite.", env=env)
        assert out.returncode == 0, out.stderr

    code, said = _forget_in_window(home, project, "ci", agent_writes)
    assert code == 4, said  # before: 0, and the newer value was deleted and tombstoned
    assert "written again while it was being forgotten" in said and "newer version was kept" in said
    now = Memory.open(home=home, project=project, actor="human")
    assert now.read("ci", count=False).record.description == newer
    assert now.tombstones().tombstones == ()
    assert [e.action for e in now.session.layer("project").journal.events()] == ["create", "update"]
    # The control, same store: a forget no write races tombstones the value it found, and it stays forgotten.
    code, stone = _forget_in_window(home, project, "ci", lambda: None)
    assert code == 0 and stone, stone
    assert [(s.id, s.name) for s in now.tombstones().tombstones] == [(stone, "ci")]
    again = run_cli("--project", project, "write", "ci", "-d", newer, "--body", "Pipeline in .buildkite.", env=env)
    assert again.returncode == 1 and "forgotten" in again.stderr
    old = run_cli("--project", project, "write", "ci", "-d", "CI runs on Jenkins", "--body", "Jenkinsfile at the root.",
                  env=env)
    assert old.returncode == 0, old.stderr  # the value first written was never forgotten


def test_a_forget_of_the_version_read_refuses_another(tmp_path, project):
    """The digest (or a prefix of 12+ hex digits, as `memdir history` shows it) of the version the person read."""
    home = tmp_path / "home"
    person = Memory.open(home=home, project=project, actor="human")
    seen = person.write("ci", "CI runs on Jenkins", "project", "Jenkinsfile.")
    read = person.read("ci", count=False).digest
    Memory.open(home=home, project=project).write("ci", "CI runs on Buildkite", "project", "Pipeline.")
    with pytest.raises(Conflict, match="changed since it was read"):
        person.forget("ci", expect_digest=read[:12])
    assert person.tombstones().tombstones == () and seen.operation == "created"
    latest = person.read("ci", count=False).digest
    assert person.forget("ci", expect_digest=latest[:12]).tombstone  # control: the version there now
    assert person.list().memories == ()
