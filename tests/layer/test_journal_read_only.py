"""A journal made read-only by hand (chmod 444) refuses every write of its layer, said as a read-only home is:
what is so, that nothing was written, what still answers and the remedy (memdir.files.fsio.nothing_written).
break21: every write said 'cannot repair …/journal.jsonl: Permission denied' — a sound journal opened for
writing only to look at its last byte — as if it were damaged. Real subprocesses bound by the file modes."""

from __future__ import annotations

import os

from memdir import Memory
from tests.faults.test_faults import _as_other_user


def test_a_read_only_journal_refuses_a_write_clearly_and_nothing_is_written(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=home, project=project, actor="human")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    layer = mem.session.layer("project").path
    journal = layer / ".memdir" / "journal.jsonl"
    before = sorted(p.name for p in layer.iterdir()), journal.read_bytes(), (layer / "db-port.md").read_bytes()
    env = {"MEMDIR_HOME": str(home), "HOME": str(tmp_path), "MEMDIR_SEARCH_VECTORS": "off"}
    os.chmod(journal, 0o444)
    try:
        for args in (["write", "kafka", "-d", "Kafka listens on 9092", "--body", "brokers"], ["forget", "db-port"]):
            done = _as_other_user([*args, "--project", project], env)
            assert done.returncode == 1 and done.stdout == ""
            assert done.stderr == (f"memdir: the journal {journal} is not writable: nothing was written (the memories, "
                                   "their journal and the search index are as they were); search, recall, list, read "
                                   "and context still answer (to write, make it writable (chmod u+w))\n")
            assert (sorted(p.name for p in layer.iterdir()), journal.read_bytes(),
                    (layer / "db-port.md").read_bytes()) == before
        listed = _as_other_user(["list", "--project", project], env)
        assert listed.returncode == 0 and "db-port" in listed.stdout  # reads still answer
    finally:
        os.chmod(journal, 0o644)
    done = _as_other_user(["write", "kafka", "-d", "Kafka listens on 9092", "--body", "brokers", "--project", project],
                          env)
    assert done.returncode == 0 and (layer / "kafka.md").exists()  # control: writable again, written
    assert _as_other_user(["verify", "--project", project], env).returncode == 0
