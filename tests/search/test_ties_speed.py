"""What a search's tie-break costs: short queries use the heads' cosines; sentence vectors are embedded once."""

from __future__ import annotations

import numpy as np

from memdir.search import relevance, ties, vectors
from memdir.search.hits import Hit, IndexedMemory

from .densestub import length_embedder


def _hit(name: str, cosine: float | None, body: str) -> Hit:
    ev = relevance.Evidence(coverage=1.0, head=1.0, mass=2.0, cosine=cosine, matched=("kafka",), held=1.0, near=1.0,
                            span=1, complete=1.0)
    return Hit(IndexedMemory(0, "layer", name, "project", None, "", body, 0, None, 0.0), 0.9, ev)


def _read(tokens):
    return tokens


def test_a_tie_of_a_short_query_is_ordered_by_the_heads_cosines_without_embedding(monkeypatch):
    def no_embedding(_sentences):
        raise AssertionError("a short query's tie must not embed sentences")

    monkeypatch.setattr(vectors, "sentence_vectors", no_embedding)
    hits = [_hit("a", 0.70, "Kafka runs here."), _hit("b", 0.90, "Kafka too."), _hit("c", 0.10, "Kafka.")]
    out = ties.broken(hits, np.zeros(384, dtype=np.float32), _read, ["kafka", "staging"])
    assert [h.memory.name for h in out] == ["b", "a", "c"]


def test_a_tied_memory_not_embedded_yet_has_its_head_embedded_now(monkeypatch):
    seen = []

    def heads(texts):  # the head the background embedder will store: title, description, body
        seen.extend(texts)
        return np.array([[0.80]] * len(texts), dtype=np.float32)

    monkeypatch.setattr(vectors, "sentence_vectors", heads)
    monkeypatch.setattr(vectors, "memory_text", lambda title, description, body: f"{description}|{body}")
    hits = [_hit("a", 0.70, "Kafka runs here."), _hit("b", 0.90, "Kafka too."), _hit("c", None, "Kafka.")]
    out = ties.broken(hits, np.ones(1, dtype=np.float32), _read, ["kafka", "staging"])
    assert [h.memory.name for h in out] == ["b", "c", "a"]  # c at 0.80 as it will be once embedded: not last
    assert seen == ["|Kafka."]  # only the one without a vector
    many = [_hit(f"m{i:02d}", None, "Kafka.") for i in range(ties.TIE_MAX + 1)]
    seen.clear()
    assert ties.broken(many, np.ones(1, dtype=np.float32), _read, ["kafka"]) == many  # too many: the lexical order
    assert seen == []


def test_a_tie_of_a_longer_query_is_ordered_by_its_sentences(monkeypatch):
    seen = []

    def by_sentence(sentences):
        seen.extend(sentences)
        return np.array([[1.0 if "6391" in s else 0.0] for s in sentences], dtype=np.float32)

    monkeypatch.setattr(vectors, "sentence_vectors", by_sentence)
    hits = [_hit("head-like", 0.95, "The staging Redis for billing was resized."),
            _hit("answer", 0.50, "The staging Redis for billing listens on port 6391.")]
    out = ties.broken(hits, np.ones(1, dtype=np.float32), _read, ["port", "staging", "redis", "billing"])
    assert [h.memory.name for h in out] == ["answer", "head-like"]  # control: the heads' cosines would swap them
    assert len(seen) == 2


def test_sentence_vectors_embed_each_sentence_once(monkeypatch):
    calls = length_embedder(monkeypatch)
    first = vectors.sentence_vectors(["one sentence.", "another one.", "one sentence."])
    again = vectors.sentence_vectors(["another one.", "a third."])
    assert calls == [["one sentence.", "another one."], ["a third."]]  # each new sentence once, repeats not
    assert first.shape == (3, 384) and first[0, 0] == len("one sentence.") and first[2, 0] == first[0, 0]
    assert again[0, 0] == len("another one.") and again[1, 0] == len("a third.")
    assert vectors.sentence_vectors([]).shape == (0, 384)


def test_sentence_vectors_keep_the_last_used_and_no_more(monkeypatch):
    calls = []

    def fake_embed(texts, *, query=False):
        calls.append(list(texts))
        return np.array([[float(len(t))] * 384 for t in texts], dtype=np.float32)

    monkeypatch.setattr(vectors, "embed", fake_embed)
    monkeypatch.setattr(vectors, "_sentences", {})
    monkeypatch.setattr(vectors, "SENTENCES_KEPT", 3)
    vectors.sentence_vectors(["a.", "bb.", "ccc."])
    vectors.sentence_vectors(["a."])  # used again: the most recently used now
    vectors.sentence_vectors(["dddd."])  # a fourth: the least recently used one ("bb.") goes
    assert len(vectors._sentences) == 3
    calls.clear()
    again = vectors.sentence_vectors(["a.", "ccc.", "dddd.", "bb."])
    assert calls == [["bb."]]  # only the evicted one is embedded again; "a." kept (control: used, not dropped)
    assert again[:, 0].tolist() == [2.0, 4.0, 5.0, 3.0]
    assert len(vectors._sentences) == 3


def test_sentence_vectors_are_kept_per_model(monkeypatch):
    calls = []

    def fake_embed(texts, *, query=False):
        calls.append((vectors.MODEL_ID, list(texts)))
        return np.array([[1.0 if vectors.MODEL_ID == "old" else 2.0] * 384 for _ in texts], dtype=np.float32)

    monkeypatch.setattr(vectors, "embed", fake_embed)
    monkeypatch.setattr(vectors, "_sentences", {})
    monkeypatch.setattr(vectors, "MODEL_ID", "old")
    assert vectors.sentence_vectors(["port 6391."])[0, 0] == 1.0
    assert vectors.sentence_vectors(["port 6391."])[0, 0] == 1.0  # control: the same model's vector is kept
    monkeypatch.setattr(vectors, "MODEL_ID", "new")
    assert vectors.sentence_vectors(["port 6391."])[0, 0] == 2.0  # another model: embedded again, not the old one
    assert calls == [("old", ["port 6391."]), ("new", ["port 6391."])]


def test_a_compound_counts_as_one_word_of_the_query():
    from memdir.search.tokenize import query_terms

    def asked(query):
        return ties.words_asked(query_terms(query), query)

    assert query_terms("RabbitMQ catalog") == ["rabbitmq", "rabbit", "mq", "catalog"]  # read as four terms
    assert asked("RabbitMQ catalog") == 2
    assert asked("MongoDB analytics") == 2
    assert asked("back-off policy") == 2
    assert asked("PostgreSQL") == 1
    assert asked("rabbit mq catalog") == 3  # written as three words: three (control)
    assert asked("staging redis billing") == 3
    assert asked("What is the hostname of the sandbox MongoDB for checkout?") == 4  # hostname sandbox mongodb checkout


def test_a_tie_of_two_words_one_a_compound_is_ordered_by_the_heads_cosines(monkeypatch):
    from memdir.search.tokenize import query_terms

    seen = []

    def by_sentence(sentences):
        seen.extend(sentences)
        return np.array([[1.0 if "keys" in s else 0.0] for s in sentences], dtype=np.float32)

    monkeypatch.setattr(vectors, "sentence_vectors", by_sentence)
    hits = [_hit("keys", 0.60, "Access to the RabbitMQ of catalog goes through the bastion; Ana keeps the keys."),
            _hit("about", 0.90, "The RabbitMQ for catalog was resized.")]
    query = "RabbitMQ catalog"
    out = ties.broken(hits, np.ones(1, dtype=np.float32), _read, query_terms(query), query)
    assert [h.memory.name for h in out] == ["about", "keys"] and seen == []  # the heads' cosines, nothing embedded
    query = "RabbitMQ catalog keys"  # three words: sentence by sentence (control)
    out = ties.broken(hits, np.ones(1, dtype=np.float32), _read, query_terms(query), query)
    assert [h.memory.name for h in out] == ["keys", "about"] and len(seen) == 2
