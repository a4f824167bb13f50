"""A journal whose lines were changed by hand takes no change onto it (layer.chain.broken), and
``memdir verify --repair`` keeps it whole and chains it again (layer.chain.rechain).

break22's leftovers (break23 a, b): a memory's name edited in its create line (``db-port`` →
``db-porx``, same length, the anchor's size still right) made the next search's sweep journal a false
``external-delete`` of ``db-porx`` and an ``external-edit`` creating ``db-port`` with no history; and a
write went on appending to the broken chain — only a damaged *last* line (the anchored head) was refused.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _store(person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "moved from 5432")
    person.write("other-x", "Redis cache listens on 6380", "project", "y")
    layer = person.session.layer("project")
    return layer.path, layer.meta / "journal.jsonl"


def _rename_in_first_line(journal):
    data = journal.read_bytes()
    edited = data.replace(b'"name":"db-port"', b'"name":"db-porx"', 1)
    assert edited != data and len(edited) == len(data)
    journal.write_bytes(edited)
    return edited


def test_a_name_edited_in_a_journal_line_is_no_delete_and_refuses_every_write(person, project):
    layer_dir, journal = _store(person)
    edited = _rename_in_first_line(journal)
    (layer_dir / "other-x.md").write_text((layer_dir / "other-x.md").read_text() + "hand edit\n")  # a sweep is due
    found = run_cli("--project", project, "search", "postgres")
    assert found.returncode == 0 and "- db-port (type: project; layer: project)" in found.stdout  # read as it is
    assert journal.read_bytes() == edited  # no external-delete of db-porx, no create of db-port journaled
    wrote = run_cli("--project", project, "write", "new-one", "-d", "A new fact to keep", "-t", "project")
    assert wrote.returncode == 1
    assert ("line 1 of the journal was changed after it was written, or a line after it removed: what it says of "
            "the memories is not what memdir recorded, so no change is journaled onto it; restore "
            f"{journal} from a backup, or run `memdir verify --repair`") in wrote.stderr
    assert wrote.stderr.rstrip().endswith("nothing was changed")
    assert not (layer_dir / "new-one.md").exists() and journal.read_bytes() == edited
    verify = run_cli("--project", project, "verify")
    assert verify.returncode == 1 and "`memdir verify --repair` keeps it whole in journal.damaged" in verify.stdout


def test_repair_keeps_the_damaged_journal_and_chains_it_again_so_writes_go_on(person, project):
    _, journal = _store(person)
    edited = _rename_in_first_line(journal)
    repaired = run_cli("--project", project, "verify", "--repair")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert (journal.parent / "journal.damaged").read_bytes() == edited  # nothing of it lost
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    rechain = next(e for e in events if e["action"] == "rechain")
    assert (rechain["seq"], rechain["damaged"], rechain["left_out"], rechain["kept_bytes"]) == (3, [1], [], len(edited))
    assert [e["name"] for e in events[:2]] == ["db-porx", "other-x"]  # the lines as they read, chained again
    wrote = run_cli("--project", project, "write", "new-one", "-d", "A new fact to keep", "-t", "project")
    assert wrote.returncode == 0, wrote.stderr
    assert run_cli("--project", project, "verify").returncode == 0
    assert "db-port" in run_cli("--project", project, "list").stdout


def test_a_sound_journal_takes_writes_and_a_garbled_middle_line_is_refused_too(person, project):
    layer_dir, journal = _store(person)
    control = run_cli("--project", project, "write", "third-one", "-d", "A third fact to keep", "-t", "project")
    assert control.returncode == 0, control.stderr  # control: the sound journal takes a write
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([lines[0], lines[1][:50], *lines[2:]]))  # the middle line cut by hand
    wrote = run_cli("--project", project, "write", "new-one", "-d", "A new fact to keep", "-t", "project")
    assert wrote.returncode == 1 and wrote.stderr.rstrip().endswith(
        "a line before it was cut or edited; nothing was changed (see `memdir verify`; "
        "`memdir verify --repair` keeps it and chains it again)")
    assert not (layer_dir / "new-one.md").exists()
    assert run_cli("--project", project, "verify", "--repair").returncode == 0
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [e["name"] for e in events[:3]] == ["db-port", "third-one", None]  # the cut line left out, kept aside
    assert (events[2]["action"], events[2]["left_out"]) == ("rechain", [2])
    wrote = run_cli("--project", project, "write", "new-one", "-d", "A new fact to keep", "-t", "project")
    assert wrote.returncode == 0, wrote.stderr
