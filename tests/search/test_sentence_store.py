"""Tie sentences' vectors kept in the index: read back by a later process, never for another text or model."""

from __future__ import annotations

import sqlite3
import time

import numpy as np

from memdir.search import relevance, sentencestore, ties, vectors
from memdir.search.hits import Hit, IndexedMemory

from .densestub import length_embedder


def _conn(path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def _stored(conn) -> set[bytes]:
    return {row[0] for row in conn.execute("SELECT key FROM sentence_vectors")}


def test_a_later_process_reads_the_kept_vectors_instead_of_embedding(monkeypatch, tmp_path):
    conn = _conn(tmp_path / "index.sqlite")
    calls = length_embedder(monkeypatch)
    first = sentencestore.vectors_for(conn, ["one sentence.", "another one.", "one sentence."])
    assert calls == [["one sentence.", "another one."]]
    assert first.shape == (3, 384) and first[0, 0] == 13.0 and first[1, 0] == 12.0 and first[2, 0] == 13.0
    assert _stored(conn) == {sentencestore.key("one sentence."), sentencestore.key("another one.")}
    monkeypatch.setattr(vectors, "_sentences", {})  # another process: nothing kept in memory
    again = sentencestore.vectors_for(_conn(tmp_path / "index.sqlite"), ["another one.", "a third."])
    assert calls == [["one sentence.", "another one."], ["a third."]]  # only the new sentence embedded
    assert again[0, 0] == 12.0 and again[1, 0] == 8.0 and again.dtype == np.float32


def test_an_edited_memorys_new_sentence_is_embedded_and_its_old_vector_never_used(monkeypatch, tmp_path):
    conn = _conn(tmp_path / "index.sqlite")
    calls = length_embedder(monkeypatch)

    def hit(name: str, body: str) -> Hit:
        ev = relevance.Evidence(coverage=1.0, head=1.0, mass=2.0, cosine=0.5, matched=("port",), held=1.0, near=1.0,
                                span=1, complete=1.0)
        return Hit(IndexedMemory(0, "layer", name, "project", None, "", body, 0, None, 0.0), 0.9, ev)

    terms = ["port", "staging", "redis", "billing"]
    old = "The staging Redis for billing listens on port 6391."
    new = "The staging Redis for billing listens on port 6400 now."
    other = "The staging Redis for billing was resized."
    embed = lambda texts: sentencestore.vectors_for(conn, texts)  # what a search passes
    query = np.ones(384, dtype=np.float32)
    before = ties.broken([hit("other", other), hit("answer", old)], query, lambda t: t, terms, embed=embed)
    assert [h.memory.name for h in before] == ["answer", "other"]  # the longer sentence, the higher fake cosine
    assert calls == [[other, old]]
    # A wrong vector under the old sentence's key: were it used for the edited memory, "answer" would come last.
    conn.execute("UPDATE sentence_vectors SET vector = ? WHERE key = ?",
                 (np.zeros(384, dtype=np.float16).tobytes(), sentencestore.key(old)))
    monkeypatch.setattr(vectors, "_sentences", {})
    after = ties.broken([hit("other", other), hit("answer", new)], query, lambda t: t, terms, embed=embed)
    assert calls == [[other, old], [new]]  # the edited sentence embedded; the other memory's read back
    assert [h.memory.name for h in after] == ["answer", "other"]
    assert sentencestore.key(new) in _stored(conn) and sentencestore.key(old) in _stored(conn)
    # Control: the old text itself is read back as kept (the zero vector), not embedded again.
    assert sentencestore.vectors_for(conn, [old])[0, 0] == 0.0 and calls[-1] == [new]


def test_another_models_vectors_are_not_read(monkeypatch, tmp_path):
    conn = _conn(tmp_path / "index.sqlite")
    calls = length_embedder(monkeypatch)
    sentencestore.vectors_for(conn, ["kept sentence."])
    monkeypatch.setattr(vectors, "MODEL_ID", "another/model")
    monkeypatch.setattr(vectors, "_sentences", {})
    sentencestore.vectors_for(conn, ["kept sentence."])
    assert calls == [["kept sentence."], ["kept sentence."]]
    assert len(_stored(conn)) == 2  # one key per model


def test_a_locked_index_is_not_waited_for_and_the_oldest_go_beyond_the_bound(monkeypatch, tmp_path):
    conn = _conn(tmp_path / "index.sqlite")
    conn.execute("PRAGMA busy_timeout = 60000")  # a wait for the lock would take 60 s: unmistakable at any load
    length_embedder(monkeypatch)
    writer = _conn(tmp_path / "index.sqlite")
    writer.execute("BEGIN IMMEDIATE")  # another process writing (the background embedder)
    started = time.monotonic()
    out = sentencestore.vectors_for(conn, ["while locked."])
    # well under the 60 s busy timeout a wait would take (a bound against the 5 s timeout, 4 s, was close on a
    # loaded machine: 1 s was, before it)
    assert time.monotonic() - started < 30.0 and out[0, 0] == 13.0  # the search goes on with what it embedded
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sentence_vectors'").fetchone()[0] == 0
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 60000  # its own timeout given back
    writer.execute("COMMIT")
    monkeypatch.setattr(sentencestore, "KEPT_ROWS", 3)
    for i in range(5):
        sentencestore.vectors_for(conn, [f"sentence {i}."])
    assert _stored(conn) == {sentencestore.key(f"sentence {i}.") for i in (2, 3, 4)}


def test_no_index_or_an_unreadable_table_embeds_as_before(monkeypatch, tmp_path):
    calls = length_embedder(monkeypatch)
    assert sentencestore.vectors_for(None, ["alone."])[0, 0] == 6.0
    conn = _conn(tmp_path / "index.sqlite")
    conn.execute("CREATE TABLE sentence_vectors (other TEXT)")  # not this table: read as empty, never written
    assert sentencestore.vectors_for(conn, ["alone.", "two."])[1, 0] == 4.0
    assert calls == [["alone."], ["two."]]  # "alone." kept in this process since
    assert sentencestore.vectors_for(conn, []).shape == (0, 384)


def test_a_damaged_kept_vector_is_embedded_again(monkeypatch, tmp_path):
    """break20: a kept row whose vector is not 384 finite float16 (a number or text where a blob belongs, NaN or
    inf in it, a cut blob, 28's float32 of the same values) is no vector — embedded again and written over — as search.vectors reads damaged
    vectors; a number there raised TypeError (len of an int) out of the search, a NaN blob broke the tie by NaN."""
    conn = _conn(tmp_path / "index.sqlite")
    calls = length_embedder(monkeypatch)
    sentences = ["a number.", "a text of 768.", "not a number.", "infinite.", "cut short.", "float32 ones.",
                 "sound one."]
    sentencestore.vectors_for(conn, sentences)
    damaged = {"a number.": 7, "a text of 768.": "x" * 768,
               "not a number.": np.full(384, np.nan, dtype=np.float16).tobytes(),
               "infinite.": np.full(384, np.inf, dtype=np.float16).tobytes(), "cut short.": b"\0" * 100,
               "float32 ones.": np.full(384, 13.0, dtype=np.float32).tobytes()}
    for sentence, value in damaged.items():
        conn.execute("UPDATE sentence_vectors SET vector = ? WHERE key = ?", (value, sentencestore.key(sentence)))
    monkeypatch.setattr(vectors, "_sentences", {})  # another process
    again = sentencestore.vectors_for(conn, sentences)
    assert calls[1] == list(damaged)  # the damaged ones embedded again; the sound one read (control)
    assert again[:, 0].tolist() == [9.0, 14.0, 13.0, 9.0, 10.0, 13.0, 10.0] and np.isfinite(again).all()
    kept = dict(conn.execute("SELECT key, vector FROM sentence_vectors").fetchall())
    assert np.frombuffer(kept[sentencestore.key("not a number.")], dtype=np.float16)[0] == 13.0  # written over
    assert len(kept[sentencestore.key("float32 ones.")]) == sentencestore.HALF_BYTES == 768


def test_a_kept_vector_is_its_float16_and_a_fresh_one_is_used_as_kept(monkeypatch, tmp_path):
    """review32: a tie sentence's vector is kept as float16 (768 bytes, not 1,536). What a search uses is that
    rounding whether the sentence was just embedded or read back, so a tie breaks the same the first time and after;
    read back, it is exactly what was written."""
    conn = _conn(tmp_path / "index.sqlite")
    third = np.full(384, 1 / 3, dtype=np.float32)  # no float16: 1/3 rounds to 0.33325195
    monkeypatch.setattr(vectors, "embed", lambda texts, *, query=False: np.stack([third * (i + 1) for i in
                                                                                  range(len(texts))]))
    monkeypatch.setattr(vectors, "_sentences", {})
    first = sentencestore.vectors_for(conn, ["one.", "two."])
    (blob,) = conn.execute("SELECT vector FROM sentence_vectors WHERE key = ?", (sentencestore.key("one."),)).fetchone()
    assert len(blob) == 768 and np.frombuffer(blob, dtype=np.float16)[0] == np.float16(1 / 3)
    assert first.dtype == np.float32 and first[0, 0] == np.float32(np.float16(1 / 3)) != third[0]
    assert first[1, 0] == np.float32(np.float16(2 / 3))
    monkeypatch.setattr(vectors, "_sentences", {})  # another process: read back, the same numbers
    again = sentencestore.vectors_for(_conn(tmp_path / "index.sqlite"), ["two.", "one."])
    assert again.tobytes() == first[::-1].tobytes()
    alone = sentencestore.vectors_for(None, ["one."])  # no index: rounded alike (control: not the float32 itself)
    assert alone[0, 0] == first[0, 0] and alone[0, 0] != np.float32(1 / 3)
