"""A line a person types into ``MEMORY.md`` is never lost without a trace (trial finding: `echo "- [hand-note]
(hand-note.md) — Person typed this line" >> MEMORY.md`, then any write, and the line was gone, kept nowhere).
``MEMORY.md`` stays derived — rewritten from the memory files — but the edited file is kept aside first and
the write says where. Real files; the Python API's write (its warnings are what the CLI and tools print)."""

from __future__ import annotations

import json
import time

from memdir import Memory
from tests.conftest import run_cli

HAND = "- [hand-note](hand-note.md) — Person typed this line\n"


def test_a_hand_edited_memory_md_is_kept_aside_before_it_is_written_again(mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken.")
    layer = mem.session.layer("project")
    index = layer.path / "MEMORY.md"
    time.sleep(0.05)  # past the clock tick of memdir's own write and stamp
    with open(index, "a", encoding="utf-8") as out:
        out.write(HAND)
    done = mem.write("staging-host", "Staging lives at staging.internal.example", "project", "Deploys go first.")
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").endswith(HAND)
    assert kept[0].read_text(encoding="utf-8").startswith("- [db-port](db-port.md)")
    assert (f"MEMORY.md was edited by hand; it is made from the memory files and was written again — the edited "
            f"copy is kept at {kept[0]} (a fact belongs in a memory: memdir write, or edit a memory's file; remove "
            "the copy once nothing in it is needed)") in done.warnings
    text = index.read_text(encoding="utf-8")
    assert "Person typed this line" not in text and "- [staging-host](staging-host.md)" in text  # derived again
    # control: a write after memdir's own write keeps nothing aside and says nothing
    again = mem.write("logging", "Use structlog for logging", "project", "JSON lines in production.")
    assert sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*")) == kept
    assert not any("edited by hand" in w for w in again.warnings)
    assert "- [logging](logging.md)" in index.read_text(encoding="utf-8")


def test_hand_edits_kept_in_one_second_each_get_their_own_copy_readable_by_the_person_alone(mem):
    """break28: a second hand edit kept within the same second as the first found its copy's name taken
    (``MEMORY.md.edited-<second>``), kept nothing and said nothing — its lines were gone; copies were mode 0644."""
    import os
    import stat

    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "5432 is taken.")
    layer = mem.session.layer("project")
    index = layer.path / "MEMORY.md"
    said = []
    for i in range(3):
        time.sleep(0.02)  # past the clock tick of memdir's own write and stamp, well within one second
        with open(index, "a", encoding="utf-8") as out:
            out.write(f"- person's line number {i}\n")
        said.append([w for w in mem.write(f"note-{i}", f"Note {i}", "project", "b").warnings if "edited by hand" in w])
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"), key=lambda p: p.stat().st_mtime_ns)
    texts = [p.read_text(encoding="utf-8") for p in kept]
    seconds = {p.name.split("edited-")[1][:16] for p in kept}
    if len(seconds) == 1:  # the three in one second (as on a fast machine): each copy has a name of its own
        assert [p.name[-2:] for p in kept[1:]] == ["-2", "-3"]
    assert len(kept) == 3 and all(len(w) == 1 for w in said)  # before: 1 copy, and no word of the other two
    assert [t.endswith(f"- person's line number {i}\n") for i, t in enumerate(texts)] == [True, True, True]
    assert [stat.S_IMODE(os.stat(p).st_mode) for p in kept] == [0o600] * 3  # before: 0o644 (the umask's)
    assert "person's line" not in index.read_text(encoding="utf-8")  # control: MEMORY.md derived again


def _hand_edit(project):
    """A project layer with one memory written by the CLI, then a line typed into its MEMORY.md."""
    done = run_cli("write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-t", "project", "--project", project)
    assert done.returncode == 0, done.stderr
    layer = Memory.open(project=project).session.layer("project")
    time.sleep(0.05)  # past the clock tick of memdir's own write and stamp
    with open(layer.path / "MEMORY.md", "a", encoding="utf-8") as out:
        out.write(HAND)
    return layer


def test_a_command_that_rebuilds_a_hand_edited_memory_md_says_so_once_and_status_doctor_name_the_copy(
        isolated_home, project):
    """trial28: `memdir context`, `status`, `doctor` rebuilt MEMORY.md and kept the edited copy without a word."""
    layer = _hand_edit(project)
    first = run_cli("context", "--project", project)
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").endswith(HAND)
    said = (f"memdir: warning: MEMORY.md was edited by hand; it is made from the memory files and was written again — "
            f"the edited copy is kept at {kept[0]} (a fact belongs in a memory: memdir write, or edit a memory's file; "
            "remove the copy once nothing in it is needed)\n")
    assert first.returncode == 0 and first.stderr == said, first.stderr
    assert "db-port" in first.stdout and "Person typed this line" not in first.stdout
    again = run_cli("context", "--project", project)  # control: nothing edited since, nothing said
    assert again.returncode == 0 and again.stderr == "" and "db-port" in again.stdout
    status = run_cli("status", "--project", project)
    assert status.stderr == "" and f"  ~ {said.removeprefix('memdir: warning: ').rstrip()}" in status.stdout
    assert "project: 1 memory (1 in the index" in status.stdout
    doctor = run_cli("doctor", "--project", project)
    assert f"note: {said.removeprefix('memdir: warning: ').rstrip()}" in doctor.stdout, doctor.stdout
    assert doctor.returncode == 0 and doctor.stdout.rstrip().endswith("ok")  # said, not a problem
    listed = json.loads(run_cli("status", "--json", "--project", project).stdout)["layers"]
    assert [each["edited_index"] for each in listed if each["scope"] == "project"] == [[str(kept[0])]]
    kept[0].unlink()  # the person took what they needed: nothing is named any more
    assert "edited by hand" not in run_cli("status", "--project", project).stdout


def test_a_write_says_its_hand_edited_memory_md_once(isolated_home, project):
    layer = _hand_edit(project)
    done = run_cli("write", "staging-host", "-d", "Staging lives at staging.internal.example", "-t", "project",
                   "--project", project)
    kept = sorted((layer.path / ".memdir").glob("MEMORY.md.edited-*"))
    assert done.returncode == 0 and len(kept) == 1, done.stderr
    assert done.stderr.count("MEMORY.md was edited by hand") == 1 and str(kept[0]) in done.stderr
