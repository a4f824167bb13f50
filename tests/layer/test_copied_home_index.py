"""A home copied with ``cp -a`` (a backup restored) keeps every mtime but moves every ctime: its first write said
"MEMORY.md was edited by hand" and kept a ``.edited`` copy of an index nobody touched (ux49). A ``MEMORY.md`` whose
bytes are the index derived from the memories is no hand edit, whatever its ctime
(:meth:`memdir.layer.indexfile.KeepsIndex._settle_copied_index`). Control: a real hand edit in the copied home is
still kept aside and said. Real ``cp -a``, real CLI subprocesses."""

from __future__ import annotations

import os
import subprocess
import time

from tests.conftest import run_cli


def _kept(home):
    return sorted(p.name for p in home.rglob("MEMORY.md.edited-*"))


def test_a_home_copied_with_cp_a_is_no_hand_edit_and_a_real_edit_still_is(tmp_path, project):
    first, copy = tmp_path / "home", tmp_path / "restored"
    for name, fact in (("db-port", "Dev PostgreSQL listens on 5433"), ("ci", "CI runs on GitHub Actions")):
        done = run_cli("--home", first, "--project", project, "write", name, "-d", fact)
        assert done.returncode == 0, done.stderr
    subprocess.run(["cp", "-a", str(first), str(copy)], check=True, timeout=60)
    [index] = list(copy.glob("projects/*/MEMORY.md"))
    time.sleep(0.05)
    os.chmod(index, index.stat().st_mode & 0o7777)  # the index copied after its stamp: its ctime is the later
    before = index.read_bytes()
    done = run_cli("--home", copy, "--project", project, "write", "deploy", "-d", "Deploys go out on Thursdays")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr  # before: "MEMORY.md was edited by hand"
    assert _kept(copy) == []
    assert index.read_bytes() != before and b"deploy" in index.read_bytes()  # written again, with the new line
    # control: a line a person types into the copied home's index is kept aside and said
    time.sleep(0.05)
    with open(index, "a", encoding="utf-8") as out:
        out.write("- a line a person typed\n")
    done = run_cli("--home", copy, "--project", project, "write", "lunch", "-d", "Team lunch is on Fridays")
    assert done.returncode == 0 and "MEMORY.md was edited by hand" in done.stderr, done.stderr
    [kept] = _kept(copy)
    assert (index.parent / ".memdir" / kept).read_text(encoding="utf-8").endswith("- a line a person typed\n")
