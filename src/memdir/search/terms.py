"""A query's terms as the search index holds them (:mod:`memdir.search.ranking`'s helpers).

How many memories hold each term (:func:`doc_freq`), which terms are worth
a BM25 pass (:func:`discriminating`), and which compound terms the index
also holds written as two words (:func:`compounds`: ``timeout`` / ``time
out``, with :func:`add_phrase_freq` counting those). Reads the ``fts`` and
``fts_terms`` tables of :mod:`memdir.search.index` inside the caller's
transaction; writes nothing. The index holds terms case-folded, so the
memories writing a query's acronym in capitals (:func:`in_capitals`) are
read from the ``docs`` table's text as written.
"""

from __future__ import annotations

from ..text.fold import kana_spellings, script_spellings
from ..text.words import HEBREW_PREFIXES, HEBREW_REST
from . import memo, spelling, typos
from .oneword import PHRASAL_NOUNS
from .tokenize import compound_splits, is_compound, is_stopword, writes_in_capitals


def discriminating(terms: list[str], total: int, counts: dict[str, int]) -> list[str]:
    """``terms`` without those found in more than half of all indexed memories:
    FTS5's BM25 floors their IDF at 1e-6, so they change no score, while
    scoring every row that holds them is most of a query's cost. All of
    ``terms`` when no term that would be left occurs at all."""
    if len(terms) < 2:
        return terms
    kept = [t for t in terms if counts.get(t, 0) * 2 <= total]
    return kept if any(counts.get(t, 0) for t in kept) else terms


COMPOUND_LOOKUPS = 8  # vocabulary range reads per query for compounds (a long prompt has many long terms)
# Words of one query read as a typo (typos.read: ~54 spellings a letter, those beginning with a held term stemmed); a
# query of many words nothing holds is prose, not mistyped keywords.
SLIP_LOOKUPS = 3


def compounds(conn, terms: list[str]) -> dict[str, tuple[str, str]]:
    """``{term: (first word, second word)}`` for the query's terms that the
    index also holds written as two adjacent words (``timeout`` → ``time
    out``; :func:`~memdir.search.tokenize.compound_splits`): both words are
    in the index's vocabulary and read together as the term. At most
    :data:`COMPOUND_LOOKUPS` reads of the vocabulary; ``{}`` when none."""
    asked = set(terms)  # a query's own identifier (MongoDB → mongodb mongo db) is no compound to look for
    # nor a phrasal noun (login): the tokenizer joined "log in" wherever it is one (search.oneword)
    splits = {t: [(a, b) for a, b in compound_splits(t) if len(a) >= 3 and not is_stopword(a) and a not in asked]
              for t in terms if t not in PHRASAL_NOUNS}
    firsts = sorted({a for pairs in splits.values() for a, _ in pairs})
    if not firsts:
        return {}
    marks = ",".join("?" * len(firsts))
    known = {r[0] for r in conn.execute(f"SELECT term FROM fts_terms WHERE term IN ({marks})", firsts)}
    out: dict[str, tuple[str, str]] = {}
    lookups = 0
    for term, pairs in splits.items():
        for first, rest in pairs:
            if first not in known or term in out or lookups >= COMPOUND_LOOKUPS:
                continue
            lookups += 1
            seconds = [r[0] for r in conn.execute("SELECT term FROM fts_terms WHERE term >= ? AND term < ?"
                                                  " ORDER BY term LIMIT 20", (rest, rest + "\uffff"))]
            second = next((w for w in seconds if is_compound(term, first, w)), None)
            if second is not None:
                out[term] = (first, second)
    return out


def add_phrase_freq(conn, compounds: dict[str, tuple[str, str]], counts: dict[str, int], total: int) -> None:
    """Add to ``counts`` the memories holding each compound as its two words and not as one."""
    for term, pair in compounds.items():
        match = f'"{" ".join(pair)}" NOT "{term}"'
        found = conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (match,)).fetchone()[0]
        counts[term] = min(total, counts.get(term, 0) + found)


def doc_freq(conn, terms: list[str], total: int, starts: dict[str, str] | None = None) -> dict[str, int]:
    """Memories holding each term; a term of ``starts`` (:func:`memdir.search.spelling.starts`; None: every
    :func:`~memdir.search.spelling.prefixable` term as it is) counts the memories of every word its start
    stands for (:func:`memdir.search.spelling.begins`; summed, at most ``total``, the memories indexed); a term in
    kana the memories holding it in the other kana among ``terms`` too (:func:`memdir.text.fold.kana_spellings`:
    ``かな`` and ``カナ``, :func:`memdir.search.compounds.in_other_kana`; summed, at most ``total``); a term of Arabic
    or Hebrew letters the most memories any of its spellings among ``terms`` is held by
    (:func:`memdir.text.fold.script_spellings`: ``خادم`` and ``الخادم``)."""
    if not terms:
        return {}
    if starts is None:
        starts = spelling.starts(terms)
    marks = ",".join("?" * len(terms))
    out = dict(conn.execute(f"SELECT term, doc FROM fts_terms WHERE term IN ({marks})", terms).fetchall())
    ys = y_writers(conn, starts)  # expiry: the memories writing expires, expired, expiry; not factor (factory)
    begun_words = _words_begun(conn, {starts[t] for t in terms if t in starts and t not in ys})
    for term in terms:
        if term in ys:
            out[term] = len(ys[term])
        elif term in starts:
            begun = starts[term]
            held = out.get(term, 0) if not term.startswith(begun) else 0  # police: polic, and what police begins
            # committe of committee begins commit: not counted
            out[term] = min(total, sum(doc for word, doc in begun_words[begun]
                                       if word == term or spelling.begins(word, begun)) + held)
    asked, written = set(terms), dict(out)  # a kana term is held where its other kana is (かな: カナダ too)
    for term in terms:
        if not term.isascii():
            kana = kana_spellings(term)
            held = written.get(term, 0) + sum(written.get(o, 0) for o in kana if o in asked)
            # with or without its article, one memory mostly writes a word both ways (منفذ in its description,
            # المنفذ in its body): the most held spelling counts, never their sum
            out[term] = min(total, max([held, *(written.get(o, 0) for o in script_spellings(term)
                                                if o in asked and o not in kana)]))
    return out


ARMS = 200  # ranges of fts_terms read by one statement (SQLite's limit is 500 terms of a compound SELECT)


def _words_begun(conn, begins: set[str]) -> dict[str, list[tuple[str, int]]]:
    """``{start: [(indexed term, memories holding it)]}``: the terms of ``fts_terms`` each start begins, read by
    one statement for all of them (a ``UNION ALL`` of one range per start, each range read through the vocabulary's
    term order; at most :data:`ARMS` per statement)."""
    out: dict[str, list[tuple[str, int]]] = {begun: [] for begun in begins}
    ordered = sorted(begins)
    for first in range(0, len(ordered), ARMS):
        chunk = ordered[first:first + ARMS]
        sql = " UNION ALL ".join("SELECT ?, term, doc FROM fts_terms WHERE term >= ? AND term < ?" for _ in chunk)
        args = [value for begun in chunk for value in (begun, begun, begun + "\uffff")]
        for begun, word, doc in conn.execute(sql, args):
            out[begun].append((word, doc))
    return out


def y_writers(conn, starts: dict[str, str]) -> dict[str, frozenset[int]]:
    """``{term: the row ids of the memories writing a word of its family}`` for the terms of ``starts`` whose
    start is a y-word's stem less its ``i`` (:func:`memdir.search.spelling.from_y`: ``expiri`` → ``expir``): the
    rows the prefix query of the start finds whose text, as written, continues the start as the y-word's noun or
    verb does (:func:`memdir.search.spelling.continues`: "expires", not "factor" for ``factory``). Only these
    rows read the start's words as the term (:func:`memdir.search.ranking` reads the others without it).
    ``{}`` when no term is such. One statement for all the query's y-words (the rows of any of their starts,
    each read once; a row counts for a start only when its text continues that start, and a word continuing it
    is one the start's prefix query finds). Reads ``fts`` and ``docs`` in the caller's transaction; the rows of
    one set of starts are kept per index generation (:data:`WRITERS`: each distinct set is read once)."""
    ys = {term: begun for term, begun in starts.items() if spelling.from_y(term, begun)}
    if not ys:
        return {}
    begins = tuple(sorted(set(ys.values())))  # letters only (spelling.prefixable): nothing to quote
    writers = WRITERS.get(conn, memo.generation(conn), begins, lambda: _y_writers(conn, begins))
    return {term: writers[begun] for term, begun in ys.items()}


WRITERS = memo.Kept(32)  # starts -> {start: the rows writing its family}, per index generation


def _y_writers(conn, begins: tuple[str, ...]) -> dict[str, frozenset[int]]:
    rows = conn.execute("SELECT d.id, d.name || ' ' || coalesce(d.title, '') || ' ' || d.description || ' ' || "
                        "coalesce(d.body, '') FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?",
                        (" OR ".join(f'"{begun}"*' for begun in begins),))
    writers: dict[str, set[int]] = {begun: set() for begun in begins}
    for rowid, text in rows:
        for begun in spelling.continued(text, begins):
            writers[begun].add(rowid)
    return {begun: frozenset(rows) for begun, rows in writers.items()}


def near_forms(conn, terms: list[str], counts: dict[str, int],
               forms: dict[str, set[str]] | None = None,
               slips: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """``{term: the term read in its place}`` for the query's content terms
    that no memory holds (``counts`` of :func:`doc_freq` 0): a Hebrew word without the prefixes written onto it
    (:func:`_unprefixed`: ``הפורט`` → ``פורט``); the longest
    indexed term it is a longer spelling of (:func:`memdir.search.spelling.runs_on`:
    ``postgresql`` → ``postgr`` beside "Postgres"; not ``committee`` →
    ``commit``); else the term of the word a memory writes a slip or two from it (:func:`memdir.search.typos.read`:
    ``conect`` → ``connect``, ``paginaton`` → ``pagin``; the first :data:`SLIP_LOOKUPS` such terms), each added to
    ``slips`` (when given) as ``{term: (the word the query writes, the word a memory writes)}``. A word the store
    holds is always read as itself. Neither side is a stopword, filler or a generic task word
    (:func:`memdir.search.weighing.term_weights`), but a typo may be read as one (``libary`` as "library"). ``{}`` when every term
    is held. ``forms``: each term's written words (:func:`memdir.search.tokenize.word_forms` of the query), read
    as written (``clientele`` is no ``client``). Reads ``fts_terms`` in the caller's transaction (and ``fts``, ``docs``
    for a typo)."""
    from .weighing import is_generic, soft_terms

    def weak(term: str) -> bool:
        return is_generic(term) or bool(soft_terms([term]))

    absent = [t for t in terms if not counts.get(t, 0) and t.isascii() and t.isalpha() and not weak(t)]
    out: dict[str, str] = {}
    tried = 0
    for term in absent:
        if term in out:
            continue
        held = None
        if len(term) > spelling.KIND_MIN:
            # the indexed terms between the term's first KIND_MIN letters and the term: its prefixes among them
            between = conn.execute("SELECT term FROM fts_terms WHERE term >= ? AND term < ? ORDER BY term DESC",
                                   (term[:spelling.KIND_MIN], term))
            held = next((r[0] for r in between if spelling.runs_on(term, r[0], (forms or {}).get(term, ()))
                         and not weak(r[0])), None)
        words = (forms or {}).get(term) or {term}
        if held is None and tried < SLIP_LOOKUPS and any(typos.eligible(w) for w in words):
            tried += 1  # a typo's word may stem short (kiled: kile), and its term may be generic (libary: librari)
            read = typos.read(conn, term, words)
            if read is not None:
                held = read[0]
                if slips is not None:
                    slips[term] = (min(words), read[1])
        if held is not None:
            out[term] = held
    for term in terms:
        if not counts.get(term, 0) and term[:1] in HEBREW_PREFIXES and term not in out:
            held = _unprefixed(conn, term)
            if held is not None:
                out[term] = held
    return out


def _unprefixed(conn, term: str) -> str | None:
    """The word a Hebrew ``term`` no memory holds is with the prefixes Hebrew writes onto it taken off
    (:data:`memdir.text.words.HEBREW_PREFIXES`, one or two: ``הפורט`` the port → ``פורט``, ``ובשרת`` → ``שרת``), when
    a memory holds that word of at least :data:`~memdir.text.words.HEBREW_REST` letters; None otherwise (``כלב`` dog
    is never ``לב`` heart). Reads ``fts_terms`` in the caller's transaction."""
    for cut in (1, 2):
        rest = term[cut:]
        if len(rest) < HEBREW_REST or any(c not in HEBREW_PREFIXES for c in term[:cut]) or is_stopword(rest):
            return None
        if conn.execute("SELECT 1 FROM fts_terms WHERE term = ?", (rest,)).fetchone():
            return rest
    return None


class ReadTerms(list):
    """A query's terms as :func:`read_near` read them; ``slipped``: ``{word the query writes: the word a memory
    writes}`` for each word read as a typo (:func:`memdir.search.typos.read`), which :func:`slip_note` tells;
    ``stands_for``: ``{term read in another's place: (the query's term, the word a memory writes for a slip, else
    "")}``, what a result shows for it (:func:`memdir.search.why.written`: ``pagin`` as "pagination", ``postgr`` as
    the query's "postgresql")."""

    slipped: dict[str, str]
    stands_for: dict[str, tuple[str, str]]


def read_near(conn, terms: list[str], counts: dict[str, int], total: int,
              forms: dict[str, set[str]] | None = None) -> tuple[list[str], dict[str, int]]:
    """``(terms, counts)`` with each term of :func:`near_forms` replaced by its
    near form (a repeat dropped; a :class:`ReadTerms` saying which words were read as slips) and the counts of the
    new terms (:func:`doc_freq`, each beginning the words it begins as it is); as given when there is none."""
    slips: dict[str, tuple[str, str]] = {}
    near = near_forms(conn, terms, counts, forms, slips)
    if not near:
        return terms, counts
    read = ReadTerms(dict.fromkeys(near.get(t, t) for t in terms))
    read.slipped = dict(slips.values())
    read.stands_for = {held: (t, slips[t][1] if t in slips else "") for t, held in near.items()}
    return read, {**counts, **doc_freq(conn, [near[t] for t in near], total)}


def slip_note(terms: list[str]) -> str:
    """What a search's note says of the words it read as slips (:attr:`ReadTerms.slipped` of ``terms``): ``"read
    'compliant' as 'complaint': no memory holds 'compliant'"``, so a person or a model sees a guess as a guess
    (break16: ``compliant`` found complaints at 0.9956 with nothing said); ``""`` for none."""
    slipped = getattr(terms, "slipped", None) or {}
    return "; ".join(f"read {typed!r} as {meant!r}: no memory holds {typed!r}" for typed, meant in slipped.items())


def in_capitals(conn, spellings: dict[str, str]) -> dict[int, frozenset[str]]:
    """``{row id: the terms of spellings it writes in capitals}`` over every
    indexed memory (title, description or body), for ``spellings`` as
    :func:`~memdir.search.tokenize.acronyms` gives them (``{"it": "IT"}``);
    rows writing none are left out, ``{}`` for no spellings. SQLite's
    ``instr`` is case-sensitive: it narrows the rows, then
    :func:`~memdir.search.tokenize.writes_in_capitals` decides."""
    out: dict[int, set[str]] = {}
    for term, spelling in spellings.items():
        rows = conn.execute("SELECT id, coalesce(title, ''), description, body FROM docs"
                            " WHERE instr(coalesce(title, ''), ?) OR instr(description, ?) OR instr(body, ?)",
                            (spelling, spelling, spelling))
        for rowid, *texts in rows:
            if any(writes_in_capitals(text or "", spelling) for text in texts):
                out.setdefault(rowid, set()).add(term)
    return {rowid: frozenset(held) for rowid, held in out.items()}


__all__ = ["ReadTerms", "slip_note", "near_forms", "read_near", "y_writers", "COMPOUND_LOOKUPS", "SLIP_LOOKUPS", "add_phrase_freq", "compounds", "discriminating", "doc_freq", "in_capitals"]
