"""A teammate's commit that garbles a team tombstone's file instead of removing it (break35): conflict markers
or text that is no JSON, or the same id holding another digest, and the forgotten memory file back beside it.
Removing the file kept the value forgotten in every home that had read it (break33); garbling it brought the
value back into the context block and search, since a file still there under its id counted as present. The
rule: :meth:`memdir.tombstones.stones.TombstoneDir.all` (a recorded tombstone whose file no longer holds it
stays in force)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow  # real git, two clones

FACT = "Staging host is staging-7.internal.example.com"
OTHER = "The build server is ci-3.internal.example.com"


def _garble(path, how: str) -> None:
    text = path.read_text(encoding="utf-8")
    if how == "conflict":
        path.write_text(f"<<<<<<< HEAD\n{text}=======\n{{}}\n>>>>>>> theirs\n", encoding="utf-8")
    else:  # the same id, another value's digest: valid JSON a reader accepts
        item = json.loads(text)
        item["digest"], item["words_digest"] = "0" * 64, None
        path.write_text(json.dumps(item), encoding="utf-8")


@pytest.mark.parametrize("how", ["conflict", "digest"])
def test_a_garbled_team_tombstone_keeps_the_value_it_held_forgotten_here(tmp_path, how):
    a, b = shared_repository(tmp_path)
    a.memory().write("staging-host", FACT, "project", "Deploy previews go there.", scope="team")
    a.memory().write("build-server", OTHER, "project", "Builds run there.", scope="team")
    a.publish("team: hosts", b)
    memory_file = (b.team_dir / "staging-host.md").read_text(encoding="utf-8")
    stone = a.memory().forget("staging-host", reason="the host was retired").tombstone
    a.publish("forget the staging host", b)
    assert "staging-7" not in b.memory().context()  # B read the tombstone
    # B, the hostile (or careless) teammate: the memory back, its tombstone's file garbled, pushed; A pulls
    (b.team_dir / "staging-host.md").write_text(memory_file, encoding="utf-8")
    _garble(b.team_dir / "tombstones" / f"{stone}.json", how)
    b.publish("bring the staging host back", a)
    for clone in (a, b):
        mem = clone.memory()
        context = mem.context()
        assert "staging-7" not in context, (clone.root, how)
        assert "- [build-server](build-server.md) — " + OTHER in context  # control: the team layer is shown
        assert [h.name for h in mem.search("staging internal example")] == ["build-server"]
        listed = run_cli("--home", str(clone.home), "--project", str(clone.root), "tombstones").stdout
        assert f"{stone}  team    staging-host" in listed
    doctor = run_cli("--home", str(a.home), "--project", str(a.root), "doctor")
    out = doctor.stdout + doctor.stderr
    assert f"(the same value; tombstone {stone}, its file left the repository unlifted)" in out
    if how == "conflict":
        assert (f"tombstones/{stone}.json: not a readable tombstone (Expecting value: line 1 column 1 (char 0)); "
                "this home read it before, so its tombstone stays in force here — fix or remove it by hand") in out
    forgot = run_cli("--home", str(a.home), "--project", str(a.root), "forget", "staging-host", "--scope", "team")
    assert forgot.returncode == 0, forgot.stderr  # the person settles it: the tombstone's file is written back
    assert json.loads((a.team_dir / "tombstones" / f"{stone}.json").read_text(encoding="utf-8"))["digest"][:12] \
        == stone[2:]
    assert "staging-7" not in a.memory().context()


def test_a_home_that_never_read_a_garbled_tombstone_is_told_it_is_not_applied(tmp_path):
    """The control: a clone that never read the tombstone has nothing to keep (as for a removed one)."""
    a, b = shared_repository(tmp_path)
    a.memory().write("staging-host", FACT, "project", "Deploy previews go there.", scope="team")
    a.publish("team: staging host", b)
    memory_file = (a.team_dir / "staging-host.md").read_text(encoding="utf-8")
    stone = a.memory().forget("staging-host").tombstone
    (a.team_dir / "staging-host.md").write_text(memory_file, encoding="utf-8")
    _garble(a.team_dir / "tombstones" / f"{stone}.json", "conflict")
    a.publish("garbled", b)  # B never read the tombstone
    assert "- [staging-host](staging-host.md) — " + FACT in b.memory().context()
    doctor = run_cli("--home", str(b.home), "--project", str(b.root), "doctor")
    assert (f"tombstones/{stone}.json: not a readable tombstone (Expecting value: line 1 column 1 (char 0)); "
            "it is not applied — fix or remove it by hand") in doctor.stdout + doctor.stderr
