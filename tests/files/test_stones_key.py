"""The tombstones' key (:func:`memdir.files.layout.stones_key`) never goes back, and a judgement follows the key
memdir's settle gives them (:func:`memdir.files.layout.rekey_judged`): before, a put-back ``tombstones.json``
settled to the journal's mtime took the key a lift had had, and the lift's judgement was trusted."""

from __future__ import annotations

import os

from memdir.files.layout import (
    META_DIR,
    TOMBSTONES_FILE,
    judged,
    judged_key,
    record_judged,
    rekey_judged,
    stones_key,
)


def _layer(tmp_path):
    layer = tmp_path / "layer"
    (layer / META_DIR).mkdir(parents=True)
    return layer, layer / META_DIR / TOMBSTONES_FILE


def test_an_mtime_put_back_is_a_new_key(tmp_path):
    """Lifted (judged at that key), put back by a sync, then its mtime set back to the lifted one (as
    settle_tombstones sets the journal's): the key is not the lifted one, so the lift's judgement is not trusted."""
    layer, stones = _layer(tmp_path)
    stones.write_text("[]", encoding="utf-8")
    lifted_mtime = stones.stat().st_mtime_ns
    lifted_key = stones_key(layer)
    record_judged(layer / META_DIR, lifted_key)
    assert judged(layer, layer / META_DIR)  # control: judged at the key it has
    stones.write_text('[{"id": "t-1"}]', encoding="utf-8")
    os.utime(stones, ns=(lifted_mtime, lifted_mtime))
    assert stones.stat().st_mtime_ns == lifted_mtime
    assert stones_key(layer) != lifted_key and stones_key(layer) >= stones.stat().st_ctime_ns - 1
    assert not judged(layer, layer / META_DIR)


def test_a_settle_carries_the_judgement_of_the_same_tombstones_and_drops_one_of_others(tmp_path):
    layer, _stones = _layer(tmp_path)
    meta = layer / META_DIR
    record_judged(meta, 100)
    rekey_judged(meta, 100, 200, same=True)  # the same tombstones, a new key: the judgement follows
    assert judged_key(meta) == 200
    rekey_judged(meta, 200, 300, same=False)  # changed: judged again (the record of the key before stays, unequal)
    assert judged_key(meta) == 200
    rekey_judged(meta, 250, 200, same=True)  # a key other tombstones were judged with: dropped
    assert judged_key(meta) == 0
    record_judged(meta, 400)
    rekey_judged(meta, 400, 400, same=False)  # no move: nothing
    assert judged_key(meta) == 400
