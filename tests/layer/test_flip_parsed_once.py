"""The first search or ``list`` after a lift or forget done in another process (or a tombstone put back by a
sync) parses the file whose verdict moved once (left23). Before, a search parsed it three times in a large
layer: the layer's take-up judged it again (:meth:`memdir.layer.held.HoldsBack.take_up_stones`), the take-up's
transaction parsed it again for its sweep (the restored scan's entries were empty, so the entry was loaded
lazily from the file), and the search index's sync read it once more to index it
(:func:`memdir.search.follow.follow`); after a put-back, twice."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.counted import COUNTING
from tests.layer.test_first_reader_flip import ENV, SCRIPT, _run
from tests.layer.test_held_moved import LARGE, NOTES, _store, _twin
from tests.operations.test_held_back import FORGOTTEN, _rewrite


@pytest.mark.slow
@pytest.mark.parametrize("reader", ["search", "list"])
def test_the_first_reader_after_a_flip_parses_the_held_file_once(person, tmp_path, reader):
    home, root, stones, with_stone = _store(person, tmp_path)
    subprocess.run([sys.executable, "-c", SCRIPT.format(large=LARGE, counting=COUNTING), str(home), str(root),
                    "lift"], check=True, capture_output=True, env={**os.environ, **ENV})
    twin = _twin(home, tmp_path / "twin-lift")
    lifted, full = _run(home, root, reader), _run(twin, root, reader)
    assert lifted["parsed"] == ["db-port"], reader  # search: ["db-port"] * 3 before
    assert lifted["found"] == ["db-port"] and FORGOTTEN in lifted["context"]  # the lift taken up
    assert set(NOTES) <= set(full["parsed"])  # control: the twin (no manifest) parses every file
    assert lifted["docs"] == full["docs"] and lifted["files"] == full["files"]  # the index as a full sweep leaves it

    _rewrite(stones, with_stone)  # the tombstone put back by a sync
    back = _run(home, root, reader)
    assert back["parsed"] == ["db-port"], reader  # search: twice before
    assert back["found"] == [] and FORGOTTEN not in back["context"]  # held back again
    again = _run(home, root, reader)
    assert again["parsed"] == [] and again["found"] == []  # control: nothing moved, nothing parsed
