"""A vector blob that is damaged (NULL, cut short, another length; hand-edited or a torn page SQLite does not see)
is no vector: the dense side leaves it out and the embedder counts it as missing, so it is embedded again
(memdir.search.vectors.VEC_BYTES); NaN values give no cosine (0). break19: one NULL blob made every search with
vectors raise TypeError ('expected a bytes-like object, NoneType found')."""

from __future__ import annotations

import numpy as np
import pytest

from memdir import Memory
from memdir.search import index, vectors
from memdir.search.sync import sync


def test_a_damaged_vector_is_no_vector_and_the_others_still_rank(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    for name in ("good", "nulled", "cut", "nan"):
        mem.write(name, f"the {name} memory", "project", f"Body of the {name} memory.")
    layers = mem.session.layers(None)
    conn = sync(isolated_home, layers)
    keys = [index.layer_key(isolated_home, layer.path) for layer in layers]
    rows = {name: (i, digest) for i, digest, name in conn.execute("SELECT id, digest, name FROM docs")}
    unit = np.zeros(384, dtype=np.float32)
    unit[0] = 1.0
    blobs = {"good": unit.tobytes(), "nulled": None, "cut": b"\x00\x01\x02",
             "nan": np.full(384, np.nan, dtype=np.float32).tobytes()}
    for name, blob in blobs.items():
        conn.execute("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", (*rows[name], vectors.MODEL_ID, blob))
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    cosines = vectors.similarities(conn, isolated_home, unit, keys)
    assert cosines == {rows["good"][0]: pytest.approx(1.0), rows["nan"][0]: 0.0}  # control: the good one ranks
    assert vectors.pending(conn, keys) == (2, 4)  # the NULL and the cut one are embedded again
    index.close_all()
