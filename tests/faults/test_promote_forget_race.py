"""A promote racing a forget of the same project memory (break34).

`memdir promote NAME` reads the project memory, gathers the other layers' tombstones, writes it into the team
layer, then removes the project copy. A person's `memdir forget NAME --scope project` landing after the read
and before the team write tombstoned the value ("will not be written again") — and the promote then wrote
it into the team layer anyway (a project tombstone only warns a person's write into another layer), said
"changed while it was promoted, so it was kept", and the forgotten fact went to every teammate. Now a promote
whose project copy was forgotten meanwhile takes its team write back and says so; a promote whose copy was
only edited meanwhile (the control) keeps both, as before.

Real processes: the promote runs in a forked child stopped in that window (the project memory read, the team
write not yet made); the forget or the edit is the real `memdir` CLI in a subprocess of its own.
"""

from __future__ import annotations

from memdir import Memory
from memdir.operations import team as team_ops
from tests.conftest import run_cli
from tests.faults import forked

FACT, BODY = "Staging deploys need the VPN profile ops-2", "Ask in #infra for the profile.\n"


def _promote_in_window(home, project, name, during) -> tuple[int, str]:
    """Fork a child that promotes ``name`` and stops once it read the project memory and the tombstones, before
    the team write; run ``during()`` meanwhile, then let it go. Returns (exit code, what it said): 0 and its
    warnings, or 4 and the error's text."""
    def act() -> str:
        return " | ".join(Memory.open(home=home, project=project, actor="human").promote(name).warnings)

    return forked.in_window(team_ops, "guard", act, during, after=True)


def _cli(mem, *args):
    done = run_cli(*args, "--project", mem.session.root_path, env={"MEMDIR_HOME": str(mem.session.home_path)})
    assert done.returncode == 0, done.stderr
    return done


def test_a_memory_forgotten_while_it_is_promoted_does_not_reach_the_team_layer(team_repo):
    mem = team_repo
    mem.write("vpn", FACT, "project", BODY, scope="project")
    mem.write("ci", "CI runs on GitHub Actions", "project", scope="project")
    home, root = mem.session.home_path, mem.session.root_path
    code, said = _promote_in_window(home, root, "vpn", lambda: _cli(mem, "forget", "vpn", "--scope", "project"))
    fresh = Memory.open(home=home, project=root, actor="human")
    assert code == 4 and "forgotten" in said and "vpn" in said, said
    assert not (fresh.session.layer("team").path / "vpn.md").exists()
    assert [s.name for s in fresh.tombstones(scope="project").tombstones] == ["vpn"]  # the forget stands
    assert "vpn" not in {m.name for m in fresh.list("team").memories}
    fresh.promote("ci")  # control: a promote with nothing in its way moves the memory
    assert (fresh.session.layer("team").path / "ci.md").exists()
    assert "ci" not in {m.name for m in fresh.list("project").memories}


def test_a_memory_edited_while_it_is_promoted_is_kept_in_both_layers(team_repo):
    mem = team_repo
    mem.write("vpn", FACT, "project", BODY, scope="project")
    home, root = mem.session.home_path, mem.session.root_path
    code, said = _promote_in_window(home, root, "vpn",
                                    lambda: _cli(mem, "write", "vpn", "--body", "Ask in #platform.", "--scope", "project"))
    fresh = Memory.open(home=home, project=root, actor="human")
    assert code == 0 and "changed while it was promoted, so it was kept" in said, said
    assert (fresh.session.layer("team").path / "vpn.md").exists()
    assert fresh.read("vpn", scope="project").record.body.strip() == "Ask in #platform."
