"""A tombstone that comes back without the gateway finds an exact copy already judged visible, and holds it back
on every path at once (leftover of break34). The gateway adds a personal layer's tombstone only where no live memory
of another name holds its value (a forget of one of two copies tombstones nothing: test_held_other_name), so a
layer judged again after its tombstones moved looked only at the files named by a tombstone and those held back;
but ``tombstones.json`` put back from a backup (or rebuilt from the journal) brings a tombstone over a copy that
every reader had cached as visible — in the manifest, the search index, the facade's own states — and it stayed in
the context block, list, search and the agent's tools until its file changed. Now the files holding a value a
tombstone forgets are judged again too, found by the manifest's index of text digests (memdir.layer.held.may_change).
A control of another value, put there the same way, is seen throughout."""

from __future__ import annotations

import shutil

from tests.operations.test_held_other_name import (
    ALL,
    BODY,
    FORGOTTEN,
    NONE,
    OTHER,
    _cli,
    _put,
    _seen,
)


def test_a_tombstone_put_back_from_a_backup_holds_back_a_copy_cached_as_visible(person):
    person.write("db-port", FORGOTTEN, "project", BODY, scope="project")
    person.forget("db-port", scope="project")
    [stone] = person.tombstones(scope="project").tombstones
    layer = person.session.layer("project")
    stones_file = layer.meta / "tombstones.json"
    backup = layer.path.parent / "tombstones-backup.json"
    shutil.copy2(stones_file, backup)  # a person's backup of the layer, the tombstone in it
    assert _cli(person, "tombstone", "lift", stone.id, "--scope", "project").returncode == 0
    _put(layer.path, "db-copy", FORGOTTEN, BODY)  # the value, by hand under another name: allowed while lifted
    _put(layer.path, "redis-port", OTHER, BODY)
    assert _seen(person, "project") == {"db-copy": ALL, "redis-port": ALL}  # every reader caches both as visible

    shutil.copy(backup, stones_file)  # the backup put back: the tombstone returns, not through memdir
    assert [s.id for s in person.tombstones(scope="project").tombstones] == [stone.id]
    assert _seen(person, "project") == {"db-copy": NONE, "redis-port": ALL}
    doctor = _cli(person, "doctor").stdout
    assert f"db-copy.md: held back: it holds a value forgotten as 'db-port' (the same value; tombstone {stone.id}" \
        in doctor, doctor
    assert "redis-port.md" not in doctor
