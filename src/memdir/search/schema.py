"""The search index's schema: its tables (:func:`create`) and the in-place upgrade of an older one (:func:`upgrade`).

What :mod:`memdir.search.index` opens, creates and rebuilds. An index of a schema in :data:`UPGRADED` is brought
to :data:`SCHEMA_VERSION` where it stands, its rows and vectors kept; one of any other schema is rebuilt from the
memory files (:class:`StaleSchema`).
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

from . import integrity, scripts

SCHEMA_VERSION = 34  # 2: rows, files; 3: origin; 4: accents; 5: checksums; 6: short forms, 5,433; 7: fold; 8: groups,
# compounds, Korean; 9: Greek, ё; 10: derived, A100, 429s, 90d, 09, ru/el, hash; 11: ümlaut, (s); 12: doers, -ity; 13: JWTs, i18n; 14: -iment, GB; 15: Node.js;
# 16: docs.script (search.scripts.of_memory); 17: British spellings (colour is color: stemming.american), C++ cpp;
# 18: a word's combining marks (नमस्ते), Hebrew points, Arabic harakat, other digits (text.fold); Thai, Khmer… bigrams;
# 19: variation selectors read as absent (staging\ufe0f: text.printable), phrasal nouns (log in: search.oneword);
# 20: irregular past forms read as their verb (wrote, written are write: text.words.IRREGULAR_VERBS); files_errors;
# 21: a dotted version's leading parts one term each (v2.3.1: 2.3, 2.3.1; search.tokenize.VERSION_JOIN);
# 22: a version beside CJK or Thai letters, or with a unit written on, is one (バージョン2.3.1を, 1.5GB: search.versions);
# 23: a version with a name written on (python3.11), its later groups no numbers, its digits not run together (v321);
# a date written year last also its ISO digits (04.12.2026: 20261204; search.versions, search.numbergroups);
# 24: a pre-release after a version one term with it, its number no term of its own (2.3.1.rc1, 2.3.1-rc.1,
# python3.11rc1: 2.3.1.rc1); a date with slashes or hyphens both its calendar's ISO readings (04-12-2026), 2026-4-12
# 20260412, no ISO digits for a day the calendar has not (31/04/2026; search.versions, search.numbergroups)
# 25: a pre-release written apart from its version by a space one term with it too (2.3.1 rc1: 2.3.1.rc1, as
# 2.3.1rc1; search.versions._APART)
# 26: pkg the short form of package (pkg-manager holds "package": text.words.SHORT_FORMS)
# 27: the interlinear annotation marks U+FFF9-U+FFFB read as absent (text.printable.INVISIBLE), not as a break
# 28: a filled sentence's vector kept once however many memories hold it (filled_vectors; memory_sentences its keys)
# 29: a memory's digest kept once for its filled sentences (sentence_marks), not in each memory_sentences row; a
# tie sentence's vector kept as float16 (filled_vectors, sentence_vectors: search.sentencestore.halved)
# 30: what shows as nothing read as absent by Unicode's classes (text.printable.without_hidden: a Cf or Cn no list
# named, U+1BCA0, U+13430, U+180E), not as a break; 27 to 29 tokenized again in place
# 31: an emoji a term of its own (🚀: search.emoji), a lone letter with its accent its own (ở is no o); 30 tokenized
# again in place (search41)
# 32: an IPv6 address one term and its leading runs (fe80::1: search.ipv6), its later groups no words; an emoji
# sequence joined by U+200D one term (👨‍👩‍👦), a keycap one (#️⃣); 31 tokenized again in place (search42)
# 33: a network or version range also its span (10.0.0.1/24, ^18.17.0: search.ranges), an IPv4-mapped address its
# IPv4 address (::ffff:a00:d is 10.0.0.13, no ffff), a subdivision flag one term (England, Scotland, Wales:
# search.emoji; left44a); a name with its digits written on, inside a compound, a term of its own (x86_64,
# s3-bucket, sha256-sum: x86, s3, sha256; search.tokenize); a one-letter particle an apostrophe sets apart also the compound (O'Brien: obrien;
# search.oneword); a binary size's unit written on its number its word (2GiB: gigabyte, no gi); 32 tokenized again
# in place (break44a)
# 34: a name in syllables also joined (Hà Nội: hanoi; search.syllables), people the plural of person, 10k also 10000
# (search.wordterms), a French elision the word after it (c'est: no c; search.oneword), an IPv4-mapped address written
# long its IPv4 address (0:0:0:0:0:ffff:10.0.0.13: no 0, ffff; search.ipv6) (words46), a ZWJ or ZWNJ no script joins
# with read as absent (post\u200dgres is postgres: text.printable.without_hidden), not as a break between words
# (break46a), a unit of bits its own word (50Mb, Mb: megabit, no megabyte; text.words.BIT_UNITS), a number with a
# capital K before a noun of pictures no thousands (4K display: no 4000; search.wordterms.is_resolution) (recall47);
# 33 tokenized again in place
UPGRADED = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31, 32, 33)  # in place
FIELDS = ("name", "title", "description", "body")
RETOKENIZED_BELOW = 34
"""An index of a schema below this has its ``fts`` rows tokenized again from ``docs`` by :func:`upgrade` (the
tokenizer has read words otherwise since)."""
# An index of 15 is 16 without docs.script: one that cannot be written (a read-only home, a full disk) is read
# as it is, its rows and vectors, every memory read as written in letters (search.scripts.of_rows).
READABLE_WITHOUT_SCRIPTS = 15
READ_AS_THEY_ARE = (15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31, 32, 33)
"""Older schemas whose index is read as it is when it cannot be written (its rows and vectors; a copy of it in
memory is brought up to date, :func:`upgrade`): 15 without scripts, 16 tokenized without British spellings, 17
with words broken at their marks, 18 with variation selectors in words and
"log in" as log, 19 with "wrote" and "written" words of their own, 20 without a version's leading parts (v2.3.1
holds no 2.3), 21 and 22 with a version's digits as numbers (1.5GB holds 5, v3.2.1 v321), 23 with a pre-release
after a dot as words of its own (2.3.1.rc1 holds rc1), 24 with one written apart by a space as a word of its own
(2.3.1 rc1 holds no 2.3.1.rc1), 25 with pkg a word of its own (pkg-manager holds no "package"), 27 with each filled
sentence's vector in ``memory_sentences`` and 28 with its memory's digest in each of those rows (read as not filled: a
tie embeds its sentences as before the fill), 29 with a format control no list named a break between words, 30
with no emoji a term and a lone accented letter folded (ở read as o), 31 with an IPv6 address its groups as
words and an emoji sequence its emoji apart, and 32 with no span of a range (``10.0.0.1/24`` clashes with a query's
``10.0.0.13`` beside a sibling), ``::ffff:`` words, a subdivision flag the plain black flag, a name's digits inside a
compound no term (x86_64 holds no x86), O'Brien no obrien and 2GiB no gigabyte, and 33 with Hà Nội no hanoi,
people no person, 10k no 10000, c'est a c, 0:0:0:0:0:ffff:10.0.0.13 its zeros and ffff, and a ZWJ or ZWNJ between
Latin letters a break between words (post\u200dgres holds no postgres)."""


# A sync's compare (file, digest by name) read from this index, not the rows holding bodies (~190 ms at 10k).
FILES_OF_NAMES = "CREATE INDEX IF NOT EXISTS docs_files ON docs (layer, name, file, digest)"
# A query's memories in another script than letters (search.scripts.of_rows): only those rows are in it.
SCRIPTS_OF_ROWS = "CREATE INDEX IF NOT EXISTS docs_script ON docs (script) WHERE script != 'letters'"
# The files a layer's reader refused (search.unread: named in every search's note): only those rows are in it, so the
# note is one seek, not a walk of every file row (3.0 ms -> 8 us at 10,000 files).
ERRORS_OF_FILES = "CREATE INDEX IF NOT EXISTS files_errors ON files (layer, file) WHERE error IS NOT NULL"

# The sentences a tie may pick, embedded ahead by the background embedder (search.sentencestore.fill), made when it
# first fills: which memory holds which sentence (its key, search.sentencestore.key), at which digest of its text a
# memory's sentences were filled (once per memory: sentence_marks; its mark is also what says the memory is done), and
# each distinct sentence's vector once, however many memories hold it (1,000 notes of 258 words: 16.5k sentences,
# 13.4k texts). The trigger drops a vector when the last memory holding it lets it go.
MEMORY_SENTENCES = ("CREATE TABLE IF NOT EXISTS memory_sentences (id INTEGER NOT NULL, key BLOB NOT NULL,"
                    " PRIMARY KEY (id, key)) WITHOUT ROWID")
MEMORY_SENTENCES_KEY = "CREATE INDEX IF NOT EXISTS memory_sentences_key ON memory_sentences (key)"
SENTENCE_MARKS = "CREATE TABLE IF NOT EXISTS sentence_marks (id INTEGER PRIMARY KEY, digest TEXT)"
FILLED_VECTORS = "CREATE TABLE IF NOT EXISTS filled_vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)"
FILLED_UNHELD = ("CREATE TRIGGER IF NOT EXISTS filled_unheld AFTER DELETE ON memory_sentences"
                 " WHEN NOT EXISTS (SELECT 1 FROM memory_sentences WHERE key = OLD.key)"
                 " BEGIN DELETE FROM filled_vectors WHERE key = OLD.key; END")
SENTENCE_TABLES = (MEMORY_SENTENCES, MEMORY_SENTENCES_KEY, SENTENCE_MARKS, FILLED_VECTORS, FILLED_UNHELD)


# A new index's first generation (meta "generation", bumped by every change to its rows): drawn at random below this,
# so two indexes of one home — before and after a rebuild — never count alike. A long-lived process keeps what it
# derived from rows by the generation (search.vectors' matrix, search.memo; a warm process's cosines by doc id):
# two rebuilds each counting from 0 read as the same index, the second's ids taken for the first's (break8).
FIRST_GENERATIONS = 1 << 40  # room for 2**12 times as many changes below JSON's exact integers (2**53)


def create(conn: sqlite3.Connection) -> None:
    """Create the index's tables in ``conn`` at :data:`SCHEMA_VERSION` (those there already stay), its generation
    a random number below :data:`FIRST_GENERATIONS`. One write transaction; raises ``sqlite3.Error``."""
    # One write transaction taken before anything is read: two connections creating the same new index
    # wait for each other, where a read-then-write would fail at once on a stale snapshot.
    if conn.in_transaction:
        conn.rollback()
    import secrets  # a new index's: a search of an existing one never loads it

    conn.executescript(f"""
        BEGIN IMMEDIATE;
        CREATE TABLE IF NOT EXISTS layers (
            key TEXT PRIMARY KEY, dir_mtime_ns INTEGER, journal_size INTEGER,
            journal_mtime_ns INTEGER, files INTEGER, settled INTEGER);
        CREATE TABLE IF NOT EXISTS files (
            layer TEXT NOT NULL, file TEXT NOT NULL, size INTEGER, mtime_ns INTEGER, ino INTEGER,  -- mtime_ns: the ctime (scan.stat_key)
            digest TEXT, name TEXT, error TEXT, PRIMARY KEY (layer, file));
        CREATE TABLE IF NOT EXISTS docs (
            id INTEGER PRIMARY KEY, layer TEXT NOT NULL, name TEXT NOT NULL, file TEXT NOT NULL,
            digest TEXT, type TEXT, origin TEXT, status TEXT, disabled INTEGER, pinned INTEGER,
            valid_from REAL, valid_until REAL, updated REAL,
            title TEXT, description TEXT, body TEXT, checksum INTEGER,
            script TEXT NOT NULL DEFAULT 'letters', UNIQUE (layer, name));
        CREATE INDEX IF NOT EXISTS docs_layer ON docs (layer, status);
        {FILES_OF_NAMES};
        {SCRIPTS_OF_ROWS};
        {ERRORS_OF_FILES};
        CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
            {", ".join(FIELDS)}, tokenize = 'unicode61 remove_diacritics 0');
        CREATE VIRTUAL TABLE IF NOT EXISTS fts_terms USING fts5vocab(fts, 'row');
        CREATE TABLE IF NOT EXISTS vectors (id INTEGER PRIMARY KEY, digest TEXT, model TEXT, vec BLOB);
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER);
        INSERT OR IGNORE INTO meta VALUES ('generation', {secrets.randbelow(FIRST_GENERATIONS)});
        PRAGMA user_version = {SCHEMA_VERSION};
        COMMIT;
    """)


@contextmanager
def write_transaction(conn: sqlite3.Connection):
    """A ``BEGIN IMMEDIATE`` write transaction, committed at the block's end, rolled back when it raises unless
    SQLite already did (after SQLITE_FULL a ROLLBACK would hide that error). Raises what the block raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def write_if_free(conn: sqlite3.Connection, work) -> bool:
    """Run ``work(conn)`` in a write transaction asked for without waiting (busy timeout 0 for the attempt,
    the connection's own restored after): for a write a reader may skip — a cache kept, a damaged row dropped
    — that must never hold a search behind another process's write lock. Returns whether it was written;
    False, nothing written, when the connection is inside a transaction, the index is locked by another
    writer, read-only or full (any ``sqlite3.Error`` of the attempt). Raises nothing of SQLite's."""
    if conn.in_transaction:
        return False
    try:
        waited = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        conn.execute("PRAGMA busy_timeout = 0")
    except sqlite3.Error:
        return False
    try:
        with write_transaction(conn):
            work(conn)
        return True
    except sqlite3.Error:
        return False  # busy, full or read-only: the caller goes on without it
    finally:
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(waited)}")
        except sqlite3.Error:
            pass


def upgrade(conn: sqlite3.Connection) -> None:
    """Bring an index of a schema of :data:`UPGRADED` (4 to 25, 27 to 29) to the current one in place, its vectors
    kept (the filled sentences' too, :func:`_share_sentences`): from
    4 each ``docs`` row's checksum (:func:`memdir.search.integrity.checksum`); from 4 to 29 the ``fts`` rows
    tokenized again from ``docs`` (:func:`memdir.search.tokenize.document_fields`); from 4 to 15 each row's
    script (:func:`memdir.search.scripts.of_memory` of its stored title, description and body; only rows with a
    character outside ASCII are read, the rest are ``letters``). One write transaction; done already: nothing."""
    from .tokenize import document_fields
    if conn.in_transaction:
        conn.rollback()
    with write_transaction(conn):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 4:
            conn.execute("ALTER TABLE docs ADD COLUMN checksum INTEGER")
            conn.execute(FILES_OF_NAMES)
            rows = conn.execute(f"SELECT id, {', '.join(integrity.COLUMNS)} FROM docs").fetchall()
            conn.executemany("UPDATE docs SET checksum = ? WHERE id = ?",
                             [(integrity.checksum(row[1:]), row[0]) for row in rows])
        if version in UPGRADED and version < RETOKENIZED_BELOW:
            rows = conn.execute("SELECT id, name, coalesce(title, ''), description, body FROM docs").fetchall()
            conn.executemany(f"UPDATE fts SET {', '.join(f'{f} = ?' for f in FIELDS)} WHERE rowid = ?",
                             [(*document_fields(*row[1:3], row[3] or "", row[4] or ""), row[0]) for row in rows])
        if version in UPGRADED:
            _share_sentences(conn)
            _halve_sentence_vectors(conn)
            _add_scripts(conn)
            conn.execute(ERRORS_OF_FILES)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _share_sentences(conn: sqlite3.Connection) -> None:
    """The filled sentences of an index of schema 27 or 28 in this schema's tables (:data:`SENTENCE_TABLES`), nothing
    embedded again: 27 kept each sentence's vector in every ``memory_sentences`` row holding it, 28 each memory's
    digest there (a row with an empty key marking the memory done). Each memory's mark becomes its ``sentence_marks``
    row (its digest once), its sentences' rows keep their memory and key, each distinct key's vector goes to
    ``filled_vectors`` once; the rows of a memory with no mark (none is written so) are dropped. Nothing when there
    is no such table (no fill yet) or it is of this schema already. The pages freed stay in the file for later rows
    (SQLite shrinks it at a VACUUM)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(memory_sentences)")}
    if "digest" not in columns:
        return
    conn.execute("DROP INDEX IF EXISTS memory_sentences_key")
    conn.execute("DROP TRIGGER IF EXISTS filled_unheld")  # 28's: it would drop the vectors while the rows move
    conn.execute("ALTER TABLE memory_sentences RENAME TO memory_sentences_old")
    for statement in SENTENCE_TABLES:
        conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO sentence_marks SELECT id, digest FROM memory_sentences_old WHERE key = x''")
    conn.execute("INSERT OR IGNORE INTO memory_sentences SELECT id, key FROM memory_sentences_old WHERE key != x''"
                 " AND id IN (SELECT id FROM sentence_marks)")
    if "vector" in columns:
        conn.execute("INSERT OR IGNORE INTO filled_vectors SELECT key, vector FROM memory_sentences_old"
                     " WHERE key != x'' AND vector IS NOT NULL")
    conn.execute("DROP TABLE memory_sentences_old")
    conn.execute("DELETE FROM filled_vectors WHERE key NOT IN (SELECT key FROM memory_sentences)")


def _halve_sentence_vectors(conn: sqlite3.Connection) -> None:
    """The tie sentences' vectors an index of schema 28 or older kept as float32 (1,536 bytes), in ``filled_vectors``
    and ``sentence_vectors``, kept as float16 (:func:`memdir.search.sentencestore.halved`: what this schema keeps and
    reads), nothing embedded again. Without numpy (the vectors extra gone since) they are dropped with the sentence
    rows that said they were filled: a later fill, or the tie that meets them, embeds them again."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table in [t for t in ("filled_vectors", "sentence_vectors") if t in tables]:
        rows = conn.execute(f"SELECT key, vector FROM {table} WHERE typeof(vector) = 'blob'"
                            " AND length(vector) = 1536").fetchall()
        if not rows:
            continue
        try:
            import numpy as np
        except ImportError:
            conn.execute(f"DELETE FROM {table} WHERE length(vector) = 1536")
            if table == "filled_vectors":
                conn.execute("DELETE FROM sentence_marks")
                conn.execute("DELETE FROM memory_sentences")
            continue
        # a row that was no vector (NaN, infinite) stays none, embedded again where it is met
        values = np.frombuffer(b"".join(vector for _, vector in rows), dtype=np.float32).reshape(len(rows), 384)
        with np.errstate(over="ignore", invalid="ignore"):  # a value past float16's range is infinite: no vector
            values = values.astype(np.float16)
        conn.executemany(f"UPDATE {table} SET vector = ? WHERE key = ?",
                         [(half.tobytes(), k) for (k, _), half in zip(rows, values)])


def _add_scripts(conn: sqlite3.Connection) -> None:
    """The ``docs.script`` column and its index added to an index of schema 15 or older, each row's script
    computed from its stored text (:func:`memdir.search.scripts.of_memory`). Only the rows whose text is more bytes
    than characters (a character outside ASCII: every CJK one is three bytes of UTF-8) are read into Python and
    written; the others are ``letters``, the column's default."""
    if "script" not in {row[1] for row in conn.execute("PRAGMA table_info(docs)")}:  # absent but for a test's index
        conn.execute("ALTER TABLE docs ADD COLUMN script TEXT NOT NULL DEFAULT 'letters'")
    rows = conn.execute("SELECT id, title, description, body FROM docs WHERE"
                        " length(CAST(coalesce(title, '') || coalesce(description, '') || coalesce(body, '') AS BLOB))"
                        " > length(coalesce(title, '') || coalesce(description, '') || coalesce(body, ''))").fetchall()
    found = [(scripts.of_memory(*row[1:]), row[0]) for row in rows]
    conn.executemany("UPDATE docs SET script = ? WHERE id = ?", found)
    conn.execute(SCRIPTS_OF_ROWS)


class StaleSchema(sqlite3.DatabaseError):
    """The index was built by another version of memdir: rebuilt from the files."""


__all__ = ["ERRORS_OF_FILES", "FIELDS", "FILES_OF_NAMES", "FILLED_UNHELD", "FILLED_VECTORS", "FIRST_GENERATIONS",
           "MEMORY_SENTENCES", "MEMORY_SENTENCES_KEY", "READ_AS_THEY_ARE", "RETOKENIZED_BELOW", "SCHEMA_VERSION",
           "SCRIPTS_OF_ROWS", "SENTENCE_MARKS", "SENTENCE_TABLES", "UPGRADED", "StaleSchema", "create", "upgrade", "write_if_free", "write_transaction"]
