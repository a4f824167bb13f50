"""A deleted memory's file put back by hand (a backup, `git checkout`) is named by doctor (issue 28 trial)."""

from __future__ import annotations


def test_doctor_names_a_hand_restored_file_that_holds_a_forgotten_value(person):
    person.write("cafe-wifi", "Office café network is guest-only", "project", "")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    layer = person.session.layers("project")[0]
    kept = (layer.path / "cafe-wifi.md").read_bytes()
    stone = person.delete("cafe-wifi").tombstone
    assert [n for n in person.doctor().notes if "forgotten value" in n] == []  # deleted: nothing to say
    (layer.path / "cafe-wifi.md").write_bytes(kept)  # put back by hand
    assert "cafe-wifi" in [m.name for m in person.list().memories]  # a person's hand edit is kept
    notes = [n for n in person.doctor().notes if "forgotten value" in n]
    assert notes == [f"project:cafe-wifi holds a forgotten value again (the same value; tombstone {stone}, memory "
                     f"'cafe-wifi', forgotten by human on {person.tombstones().tombstones[0].ts[:10]}): its file "
                     f"was put back by hand; `memdir delete cafe-wifi` removes it again, `memdir tombstone lift "
                     f"{stone}` keeps it"]
    assert "db-port" not in notes[0]  # control: a live memory no tombstone matches is not named
