"""Search: ranked retrieval over the session's memories (DESIGN §6).

The index itself — what is stored and how it is kept in step with the layers — is :mod:`memdir.search.index`; this
module finds candidates, scores and bounds. Per-prompt recall (:mod:`memdir.search.recall`) ranks with
:func:`ranked` too.

Candidates: the best rows of FTS5 BM25 (field weights :data:`FIELD_WEIGHTS`) and, with the ``vectors`` extra
(:mod:`memdir.search.vectors`), the memories nearest in meaning. Each gets one calibrated relevance in [0, 1]
(:mod:`memdir.search.relevance`: the estimated chance that it is the memory the query needs, the same scale with or
without vectors and whether or not the store is fully embedded); those below
:data:`memdir.search.relevance.THRESHOLD` are dropped, so a query that nothing fits answers nothing (a lower
``min_score`` ranks those below after the rest, :func:`_below_by_rank`). Equal scores: one order on every path and
call (:func:`memdir.search.ties.order_key`: the place holding most of the query, then a phrasal noun asked written as
one word (``login``, :func:`memdir.search.ties.joined_nouns`), then pinned, then the most recently updated, then
BM25, name and layer; an explicit search's head tie then by meaning, :func:`memdir.search.ties.broken`).

What a query sees is decided in the SQL: the layers of the session (user and the session's project) only,
``status = active``, not muted unless asked, inside ``valid_from``/``valid_until``, and the caller's :class:`Filters`
(type, origin, pinned, updated since/until). Candidates, superseded, expired and muted memories never appear;
deleted (tombstoned) ones have no file and so no row. User text reaches FTS5 only as quoted tokens
(:mod:`memdir.search.tokenize`).
"""

from __future__ import annotations

import sqlite3
import time

from ..errors import InvalidInput
from ..session import Session
from ..text.fence import escape_fence_tags
from . import (concepts, dense, memo, paging, parts, pasted, relevance, rowwords, scripts, spelling, unread, versions, visible,
               weighing)
from .query import checked_query
from .comparison import comparison_terms
from .compounds import joined_parts, read as read_compounds
from .conversation import only_pointed, pointed_terms, remarks
from .filters import Filters
from .hits import Hit, IndexedMemory, SearchResult, snippet  # what a hit and a result hold
from .foreign import reads_foreign
from .general import asks_broadly, asks_in_general, asks_what_it_is, lacks_named, named_terms, not_its_subject, subject_share
from .index import layer_key
from .keywords import frame_terms, in_passing, reads_as_keywords
from .near import rows as near_rows
from .sync import answering, index_error, rebuilt_when_damaged, sync, unsound
from .terms import add_phrase_freq, compounds as find_compounds, discriminating, doc_freq, in_capitals, read_near, slip_note
from .tokenize import MAX_QUERY_CHARS, acronyms, name_parts, query_terms, query_tokens, word_forms
from .visible import FIELD_WEIGHTS
from .why import written

_dense = dense.cosines  # the dense side (a seam the tests replace)

MAX_K = 50
MAX_OFFSET = 1000
POOL_MIN = 50  # rows taken from each ranker before scoring
MAX_POOL = 4 * (MAX_K + MAX_OFFSET)  # rows at most a page ranks to take in a whole tie (search)
RESULTS_MAX_BYTES = 16384  # all results of one search together, UTF-8 JSON


# ---------------------------------------------------------------- ranking




def _evidence(conn, ids: list[int], terms: list[str], keywords: bool, counts: dict[str, int], total: int,
              compounds: dict[str, tuple[str, str]] | None = None, capitals: dict[int, frozenset[str]] | None = None,
              forms: dict[str, set[str]] | None = None, typed: bool = False,
              unheld: frozenset[str] = frozenset(), named: frozenset[str] = frozenset(),
              readings: dict | None = None,
              names: dict[str, frozenset[str]] | None = None) -> dict[int, relevance.Evidence]:
    """The words' part of each memory's evidence (:func:`memdir.search.relevance.evidence`, no cosine).
    ``forms``: the query's words by term (:func:`memdir.search.tokenize.word_forms`: which terms begin longer words,
    :func:`memdir.search.spelling.starts`; a term held only in code identifiers, in another form, weighs less).
    A memory of ``capitals`` (row id → the query's acronyms it writes in capitals,
    :func:`memdir.search.terms.in_capitals`) is read with those acronyms as content terms, weighed by
    how many memories write them so; every other memory with the query's own terms. ``typed``: a search typed as
    keywords, not a prompt (:func:`memdir.search.relevance.evidence`). ``compounds``: the query's own too.
    A y-word's start (``expir`` of ``expiry``) reads the words it begins only in a memory writing one of its
    family (:func:`memdir.search.spelling.continues`: "expires", not "factor" for ``factory``). ``unheld``: terms
    no memory needs to hold, counted as a word no memory holds is (a comparison's own words, "vs":
    :func:`memdir.search.comparison.comparison_terms`). ``named``: filler terms the query writes in a noun's place
    (:func:`memdir.search.weighing.named_fillers`), content terms of it, as an acronym is. ``readings``: the
    query's weights and :class:`~memdir.search.relevance.Prefixes` by (acronyms, starts lacked), filled here; a
    caller asking again with the same arguments but ``ids`` passes the same dict (a search's second call: its
    weights and its reader's words already read, ≈ 0.2 ms). ``names``: the query's terms written only as parts of
    product names (:func:`memdir.search.tokenize.name_parts`): one a memory holds only in other names weighs
    nothing (:func:`memdir.search.parts.parts_weighed`: MySQL's ``sql`` in PostgreSQL)."""
    if not ids:
        return {}
    capitals = capitals or {}
    in_caps = {t: sum(1 for held in capitals.values() if t in held) for held in capitals.values() for t in held}
    readings = {} if readings is None else readings  # (acronyms, lacks) -> (weights, reader, strong, present)
    ys = {t: begun for t, begun in spelling.starts(terms, forms).items() if spelling.from_y(t, begun)}
    generation = memo.generation(conn) if ys else None

    def reading(acronyms: frozenset[str], lacks: frozenset[str]) -> tuple:
        if (acronyms, lacks) not in readings:
            these = terms + sorted(acronyms - set(terms))
            freq = {**counts, **{t: in_caps[t] for t in acronyms}}
            kept = acronyms | named  # "IT" written so; "go" of "the go indentation"
            weights = weighing.term_weights(these, freq, total, kept, joined_parts(compounds or {}, terms))
            strong = {t for t in these if weights[t]} - weighing.soft_terms(these, kept=kept)  # CJK bigrams count
            present = {t for t in these if freq.get(t, 0) and t not in unheld}
            begun = {t: b for t, b in spelling.starts(these, forms).items() if t not in lacks}
            readings[acronyms, lacks] = (weights, relevance.Prefixes(weights, compounds, begun), strong, present)
        return readings[acronyms, lacks]

    out = {}
    none = frozenset()
    numbered = any(versions.VERSION_JOIN in t for t in terms)  # a dotted number a memory may contradict
    plain = reading(none, none)  # a row with no acronym in capitals and no y-word's start it lacks: most of them
    for rowid, row in rowwords.rows(conn, ids).items():  # each row's words read once per index generation
        lacks = frozenset(t for t, begun in ys.items() if not _CONTINUES.get(  # per row, kept per generation
            conn, generation, (rowid, begun), lambda: spelling.continues(f"{row.called} {row.raw}", begun))) \
            if ys else none
        acronyms = capitals.get(rowid, none)
        weights, as_terms, strong, present = plain if not acronyms and not lacks else reading(acronyms, lacks)
        head = set(as_terms(row.head))
        read = row.read(as_terms)
        weighed = parts.parts_weighed(weights, row.raw, forms or {}, head, names)
        found = relevance.evidence(weighed, head, read, strong, keywords, None, present=present, typed=typed)
        clashes = versions.clashes(terms, row.numbers()) if numbered else ()
        out[rowid] = relevance.replaced(found, clashes=clashes) if clashes else found  # another host, release
    return out


_CONTINUES = memo.Kept(1 << 16)  # (row id, a y-word's start) -> whether the row's text continues it


def _with_cosines(found: dict[int, relevance.Evidence], cosines: dict[int, float], asked: bool = False,
                  kin: dict[int, tuple[float, float]] | None = None) -> dict[int, relevance.Evidence]:
    """``found`` with each memory's cosine, its gap above the median and its lead (:func:`relevance.with_cosine`;
    ``asked``: a prompt read as keywords because it asks, as there, when at least :data:`relevance.CROWD` memories
    have a cosine; ``kin``: the gap and lead of the memories written in another script than the query among their
    script's, :func:`memdir.search.scripts.kin`)."""
    if not cosines:
        return found
    median, top = relevance.standing(cosines.values())  # one memory alone: beside an imagined second
    kin, asked = kin or {}, asked and len(cosines) >= relevance.CROWD  # a median of a few is no noise floor
    return {i: relevance.with_cosine(ev, cosines.get(i), median, top, asked, kin.get(i)) for i, ev in found.items()}


def _result(hit: Hit, scope_of: dict[str, str], terms: list[str], words: dict[str, str]) -> SearchResult:
    m = hit.memory  # a body that says no more than the description has no snippet: its line would say it twice
    text = snippet(m.body, terms) if m.body and m.body.strip() != m.description.strip() else ""
    return SearchResult(name=m.name, scope=scope_of.get(m.layer, m.layer), type=m.type,
                        description=escape_fence_tags(m.description), snippet=escape_fence_tags(text),
                        score=round(hit.score, 4), title=m.title, pinned=bool(m.pinned), why=hit.why(words))


@rebuilt_when_damaged
def ranked(session: Session, query: str, *, pool: int, scope: str | None = None, include_muted: bool = False,
           filters: Filters | None = None, min_score: float = relevance.THRESHOLD, embed_query: bool = True,
           explicit: bool = False, windows: bool = True, shown: int = 0,
           unembedded: frozenset[int] | None = None,
           synced: sqlite3.Connection | None = None) -> tuple[list[Hit], list[str], dict[str, str]]:
    """The ranking behind :func:`search` and recall: ``(hits scoring at least
    ``min_score``, best first; query terms; layer key → scope)``.
    ``embed_query`` False (a fresh prompt hook): the query's cosines from a
    warm process when one answers (:mod:`memdir.search.warm`), else words alone. True (the default: a search, the
    CLI's recall): embedded here — or, in a process without the model, by a warm process that answers, the same
    numbers (:func:`memdir.search.warm.exact`, :func:`memdir.search.warm.tie_cosines`).
    ``query`` is read as :func:`memdir.search.pasted.read` gives it (a pasted log's repeated lines once).

    ``explicit`` (a search a person or a model typed, not a prompt): every
    memory holding one of the query's content terms (not a stopword, not
    filler) anywhere is kept too, under the score of the rest, and a memory
    holding all of them is *complete* whatever function words or filler the
    query has around them (``where is staging``, ``structlog go``); when it reads
    as keywords, a memory whose head holds all of them some memory holds is
    complete to their share (``changelog entry``, no memory holding "entry":
    :func:`memdir.search.relevance.evidence`). A prompt is complete only when it reads as keywords (:func:`memdir.search.keywords.reads_as_keywords`)
    and holds them all; a question so read, at the threshold, only in a memory standing out in meaning
    (:func:`memdir.search.relevance.with_cosine`, ``asked``; a caller ranking all keeps the words' order). A memory
    stating the query in one place comes first, the cosine only breaking its
    ties (:func:`memdir.search.ties.lexical_first`). ``shown``: how many of
    the first hits the caller shows; their rows are checked against their
    checksums (:func:`memdir.search.sync.unsound`: repaired and asked again,
    or left out). ``unembedded``: memories whose cosines are left out, as if
    they had no vector yet (a page's basis, :mod:`memdir.search.paging`). ``synced``: the index as the caller's
    sync of ``scope``'s layers just left it (:func:`_synced`), read without syncing again while it is still the one
    this thread answers from (:func:`memdir.search.sync.answering`; a damaged index set aside since: synced anew).
    ``windows`` False: the query is embedded alone, never with a prompt's windows (:mod:`memdir.search.querywindows`,
    fitted to recall's task prompts), as an explicit search always is; :func:`search` asks so whatever its
    ``min_score`` (windows cost LoCoMo's questions R@5/R@10 60.4/70.5 → 57.2/66.0)."""
    if not isinstance(query, str):
        raise InvalidInput("query must be a string")
    query = pasted.read(query)  # a pasted log as its distinct lines, a long prompt's ends first
    in_scope = session.layers(scope)
    scope_of = {layer_key(session.home, layer.path): layer.scope for layer in in_scope}
    layers = list(scope_of)
    conn = synced if synced is not None and synced is answering(session.home) else sync(session.home, in_scope,
                                                                                        session.id)
    windows = windows and not explicit  # a prompt's windows too (recall: search.querywindows); a search's query alone
    pending = dense.start(conn, session, query, layers, windows) if embed_query else None  # while words are read
    terms = query_terms(query)
    terms = terms if explicit else frame_terms(query, terms)  # a prompt's task frame:
    # no memory need hold "double" of "double-check the db port" (a typed search keeps "check constraint"'s words)
    spellings = acronyms(query)  # "IT": a content word for the memories writing it so
    now = time.time()
    where = visible.where_clause(layers, include_muted, now, filters or Filters())
    try:
        conn.execute("BEGIN")  # one snapshot for every read below: a concurrent sync may renumber rows
        try:
            total = conn.execute("SELECT count(*) FROM docs").fetchone()[0]
            terms, own = read_compounds(conn, query, terms)  # back-off, back off: also backoff (its parts in it)
            forms = _forms(query)  # a stem begins longer words only where the query writes it so (changeling)
            counts = doc_freq(conn, terms, total, spelling.starts(terms, forms))
            compounds = find_compounds(conn, terms)
            add_phrase_freq(conn, compounds, counts, total)
            terms, counts = read_near(conn, terms, counts, total, forms)  # postgresql: Postgres; paginaton, conect
            begun, narrow = spelling.starts(terms, forms), discriminating(terms, total, counts)
            seen = visible.shown_rows(conn, layers, include_muted, filters or Filters())
            lexical = visible.bm25_rows(conn, narrow, where, pool, compounds, begun, seen)
            if explicit and len(lexical) < pool and len(narrow) < len(terms):
                lexical = visible.bm25_rows(conn, terms, where, pool, compounds, begun, seen)  # every memory sharing a term
            if explicit:  # the sentences holding the query first, then BM25's best: one pool of rows in all
                have = {memory.id: memory for memory in lexical}
                near = near_rows(conn, terms, pool, ", ".join(str(w) for w in FIELD_WEIGHTS),
                                 lambda ranked: visible.keep_visible(conn, ranked, where, seen), compounds, counts, begun)
                have.update((m.id, m) for m in visible.load(conn, [row for row in near if row[0] not in have]))
                first = [have[i] for i, _ in near if i in have]
                placed = {n.id for n in first}
                lexical = (first + [m for m in lexical if m.id not in placed])[:pool]
            # "package manager", and a task that needs one ("install the lodash package", "add a library dependency"):
            # also the kind's products' memories (pnpm, uv) — a typed search's task as a prompt's (misc46)
            kinds = concepts.kinds_tasked(terms, query)
            if explicit:
                said = concepts.kinds_asked(terms)
                kinds = {k: kinds.get(k, frozenset()) | said.get(k, frozenset()) for k in kinds.keys() | said.keys()}
            others = concepts.other_terms(terms, kinds, query) if explicit else concepts.recall_terms(query, terms, kinds)
            # and a concept's other names (部署), a prompt's only where it asks whom to page or installs a package
            if others:
                have = {memory.id for memory in lexical}
                lexical += [m for m in visible.bm25_rows(conn, others, where, pool, None, {}, seen) if m.id not in have]
            capitals = in_capitals(conn, spellings) if spellings else {}
            if capitals:  # a memory writing the query's acronym in capitals is a candidate, whatever BM25 says
                have = {memory.id for memory in lexical}
                lexical += visible.load(conn, visible.keep_visible(conn, [(i, 0.0) for i in capitals if i not in have], where,
                                                seen))[:pool]
            rows = {memory.id: memory for memory in reversed(lexical)}  # the first of a repeated row wins
            named = weighing.named_fillers(query_tokens(query)) & {t for t in terms if counts.get(t, 0)}  # "the go …"
            if explicit:  # a typed search of lone letters alone asks those letters: "é", "à" (not "the"); of an
                named |= weighing.letters_typed(terms) | weighing.elided_typed(query, terms)  # elision's: "c'est"
            reads, asks = reads_as_keywords(query, terms, frozenset(spellings), named)
            keywords = explicit or reads
            typed = explicit and reads  # a word no memory holds leaves the rest complete (relevance._complete)
            # "Redis vs Memcached": only a memory stating it (relevance.bar); "VS 2022" a name where memories write it
            compared = relevance.compares(query, lambda spelling: bool(in_capitals(conn, {spelling.lower(): spelling})))
            unheld = comparison_terms(terms) if compared else frozenset()  # "pip vs uv": the sides, not "vs"
            readings: dict = {}  # the query's weights and reader, for both calls of _evidence
            names = name_parts(query)  # MySQL's sql: no evidence of PostgreSQL (search.parts)
            found = _evidence(conn, list(rows), terms, keywords, counts, total, compounds | own, capitals, forms, typed,
                              unheld, named, readings, names)
            cosines = (_dense(conn, session, query, layers, where, embed_query, pending, windows=windows)
                       if query.strip() else {})
            if unembedded:  # the first page's basis: these had no vector then
                cosines = {i: c for i, c in cosines.items() if i not in unembedded}
            # heapq.nlargest's answer (sorted by -cosine, ties in order: its documented equivalent), in C: 1,000
            # cosines sort in a third of its time
            nearest = sorted(cosines, key=cosines.__getitem__, reverse=True)[:pool]
            standing = scripts.kin(cosines, scripts.of_rows(conn), query) if cosines else {}  # another script's
            nearest += [i for i in scripts.leaders(standing) if i not in nearest]  # nearest among its own too
            rows.update(visible.rows_by_id(conn, [i for i in nearest if i not in rows]))
            found.update(_evidence(conn, [i for i in rows if i not in found], terms, keywords, counts, total,
                                   compounds | own, capitals, forms, typed, unheld, named, readings, names))
            deciding = asks and not explicit and min_score >= relevance.THRESHOLD  # ranking all: the words' order
            found = _with_cosines(found, cosines, deciding, standing)  # a question's keywords: complete if it stands
            if standing and not explicit:  # another script's note sharing the store's common words (relevance.loaned)
                found = relevance.commonly_held(found)
            # a keyword met in passing: not complete, unless the head names the prompt's concept (below: lifts)
            passing = {i for i, ev in found.items() if in_passing(ev, asks)} \
                if not explicit and min_score >= relevance.THRESHOLD else set()
            if compared:
                found = {i: relevance.replaced(ev, compared=True) for i, ev in found.items()}
            # a question anyone could ask (general.asks_broadly) or a remark of the chat (conversation.remarks), a
            # prompt's only: no word lead read, and a memory returned only where its words alone reach the threshold
            # (Evidence.anyone, relevance.bar: recall49), never by its cosine
            anyone = not explicit and (asks_broadly(query) or remarks(query))
            if asks_in_general(query):  # "how do I crop an image with Pillow?": words, not meaning (relevance.bar)
                defines = asks_what_it_is(query)  # "what is a feature flag?": not even words
                named = named_terms(query)  # "… in Node.js?": nor a memory holding nothing of a thing it names
                thing = subject_share(query)  # "what is p99 latency?": nor one whose head does not say it
                found = {i: relevance.replaced(ev, general=True,
                                               defines=defines or lacks_named(named, {*ev.shared, *ev.matched})
                                               or thing is not None and not_its_subject(ev.head, thing))
                         for i, ev in found.items()}
            elif anyone:  # "why do people use feature flags?", "great job, redis is awesome": words, not meaning
                found = {i: relevance.replaced(ev, anyone=True) for i, ev in found.items()}
            pointed = frozenset() if explicit else pointed_terms(query)  # "the diff above": a thing of the chat
            if pointed:
                found = {i: relevance.replaced(ev, pointed=True) if only_pointed(ev.shared, pointed) else ev
                         for i, ev in found.items()}
            if not explicit and reads_foreign(query, terms, counts):  # "Speichere den Zeitstempel …": meaning alone
                found = {i: relevance.replaced(ev, foreign=True) for i, ev in found.items()}
            heads = {i: row.head for i, row in rowwords.rows(conn, list(found)).items()} if min_score >= \
                relevance.THRESHOLD and (not explicit or kinds or concepts.asked(terms) or concepts.timed(query, terms)) else {}
            lifts = concepts.met(heads, terms, counts, total, query) if heads else {}  # "toggle": feature flags; 部署: deploy
            products = concepts.instances_met(heads, kinds, weighing.term_weights(terms, counts, total)) if kinds \
                else {}  # a search's kind ("package manager"): a memory whose head names one of its products (pnpm)
            # "who should I page?" and the note titled "Who is on call" whose body says "page her": the word its body
            # holds is no word met in passing when its head names what the prompt asks for (break50b)
            found = {i: relevance.replaced(ev, complete=0.0) if i in passing and i not in lifts else ev
                     for i, ev in found.items()} if passing else found
        finally:
            conn.execute("COMMIT")
    except sqlite3.Error as exc:  # a damaged index is set aside: rebuilt_when_damaged asks again
        raise index_error(session.home, exc) from None
    scored = []
    for doc_id, memory in rows.items():
        ev = found.get(doc_id)
        if ev is None:
            continue
        value = relevance.score(ev)
        if doc_id in lifts:  # a concept its head names is a word held (relevance.crowded)
            ev = relevance.replaced(ev, stand_in=True)
        if doc_id in lifts or doc_id in products:  # its head names the prompt's concept otherwise: scored so too
            up = concepts.lifted(ev, lifts.get(doc_id, {}), search=explicit)  # never lower; its bar its own words
            both = concepts.lifted(up, products.get(doc_id, {}), search=True, complete=False)
            value = max(value, relevance.score(both))
            if not explicit:  # a prompt's words met by their concept (or its task's kind) alone: barred on them too
                ev = concepts.barred(ev, both, {**lifts.get(doc_id, {}), **products.get(doc_id, {})}, min_score)
        scored.append((doc_id, memory, ev, value))
    # a prompt ranked by words alone: the first memory's lead over the next (relevance.led_by_words)
    # (not for a question anyone could ask, general.asks_broadly, nor a remark of the chat, conversation.remarks: anyone)
    leader = relevance.word_leader({doc_id: value for doc_id, _m, _e, value in scored}) \
        if not explicit and min_score >= relevance.THRESHOLD and not cosines and not anyone else None
    hits = []
    for doc_id, memory, ev, value in scored:
        if leader is not None and doc_id == leader[0]:
            ev = relevance.replaced(ev, word_lead=leader[1])
        if relevance.returned(ev, value, min_score, explicit):
            hits.append(Hit(memory, value, ev))
    from .ties import lexical_first, order_key
    hits = lexical_first(hits)  # a memory stating the query first, the cosine a tie-breaker: search and recall
    stated = sum(1 for h in hits if relevance.stated(h.evidence))
    now = time.time()
    hits.sort(key=lambda h: order_key(h, bool(stated), now))  # the one order, ties included (memdir.search.ties)
    if explicit and embed_query and len(hits) > 1:
        hits = _ties_broken(session, query, hits, terms, counts, total, compounds | own, conn)
    hits = _fallen(hits, min_score, explicit)
    hits = _below_by_rank(hits, stated) if min_score < relevance.THRESHOLD else hits  # asked to rank, not to decide
    # Per hit shown, never per file: a row whose stored text is not what was written is not shown.
    unsound_ids = unsound(conn, session.home, [h.memory.id for h in hits[:shown]]) if shown else set()
    return [h for h in hits if h.memory.id not in unsound_ids], terms, scope_of


def _fallen(hits: list[Hit], min_score: float, explicit: bool) -> list[Hit]:
    """:func:`_falling`'s ``hits`` (each returned, :func:`memdir.search.relevance.returned`) still returned: one it
    left as it was is, as when it was ranked; only a lowered score is asked again (half a search's calls)."""
    return [h for h, was in zip(_falling(hits), hits) if h is was or relevance.returned(h.evidence, h.score,
                                                                                         min_score, explicit)]


def _falling(hits: list[Hit]) -> list[Hit]:
    """``hits`` (in their final order) each shown at most the score of the one before it: the list reads best
    first, and a memory's score is the same number for search and recall (both rank with :func:`ranked`). Only a
    hit placed by another measure than its score (``rank``: a memory stating the query ordered lexically,
    :func:`memdir.search.ties.lexical_first`; one after it) or a hundredth's tie broken otherwise is lowered."""
    out, ceiling = [], 1.0
    for hit in hits:
        ceiling = min(ceiling, hit.score)
        out.append(hit if hit.score == ceiling else relevance.replaced(hit, score=ceiling))
    return out


_last_forms: tuple = (None, {})  # (query, its word_forms): the last search's, read again when its ties are broken


def _forms(query: str) -> dict[str, set[str]]:
    """:func:`memdir.search.tokenize.word_forms` of ``query`` (≈ 0.2 ms), kept for the last query: a search reads
    them for its words and again for its ties. Read only: no caller changes them."""
    global _last_forms
    last = _last_forms
    if last[0] != query:
        last = _last_forms = (query, word_forms(query))
    return last[1]


def _ties_broken(session: Session, query: str, hits: list[Hit], terms: list[str], counts: dict[str, int],
                 total: int, compounds: dict[str, tuple[str, str]], conn) -> list[Hit]:
    """``hits`` with a tie at their head broken by meaning (:mod:`memdir.search.ties`; sentences kept in the
    index of ``conn``, :mod:`memdir.search.sentencestore`) when dense retrieval is on; as they are otherwise.
    A process without the model asks a warm process that listens for the tied texts' cosines
    (:func:`memdir.search.warm.tie_cosines`: the same numbers); none answering, it embeds them itself."""
    from . import sentencestore, ties, vectors, warm

    tie = ties.tied(hits[:2]) == 2  # the first two alone say whether a tie heads them (broken counts it whole)
    remote = tie and warm.nearby(session.home)  # nothing imported: the warm process embeds
    if not tie or not (vectors.wanted if remote else vectors.enabled)(session.settings):
        return hits
    weights = weighing.term_weights(terms, counts, total, joined=joined_parts(compounds, terms))
    read = relevance.Prefixes(weights, compounds, spelling.starts(terms, _forms(query)))
    if remote:
        def measure(texts: list[str]) -> list[float]:
            found = warm.tie_cosines(session.home, query, texts)
            if found is None:  # none answered in time: embedded here, as with no warm process (raises as ever)
                found = (sentencestore.vectors_for(conn, texts) @ dense.query_vector(query)).tolist()
            return found

        return ties.broken(hits, None, read, terms, query, measure=measure)
    try:
        vector = dense.query_vector(query)
    except (RuntimeError, OSError, ValueError, MemoryError):
        return hits
    return ties.broken(hits, vector, read, terms, query, lambda texts: sentencestore.vectors_for(conn, texts))


def _below_by_rank(hits: list[Hit], kept: int = 0) -> list[Hit]:
    """``hits`` (in score order; the first ``kept`` stay where they are) with those under the threshold — asked for
    only with a lower ``min_score``, to rank rather than to decide — ordered
    after the others by reciprocal-rank fusion (:func:`memdir.search.vectors.fuse`)
    of their place in the score order and in the dense order. The model is
    fitted to decide the cut; below it, its order among "probably not" is
    weaker than the dense ranking fused in: on LoCoMo dev (question → turn,
    ``min_score=0``) evidence R@5/R@10 58.8/65.8 by score alone, 59.3/69.0 so.
    Hits at or above the threshold keep the score order; without vectors
    nothing changes. Only for a caller that lowered ``min_score``: a search at the threshold keeps
    the memories sharing a word with it in the order of the relevance it prints (a trial saw 0.03
    listed above 0.34)."""
    cut = next((i for i, h in enumerate(hits) if i >= kept and h.score < relevance.THRESHOLD), len(hits))
    if cut == len(hits) or not any(h.evidence.cosine is not None for h in hits[cut:]):
        return hits
    from .vectors import fuse

    dense = sorted((i for i, h in enumerate(hits) if h.evidence.cosine is not None),
                   key=lambda i: -hits[i].evidence.cosine)
    fused = fuse(list(range(len(hits))), dense)
    return hits[:cut] + sorted(hits[cut:], key=lambda h, at={id(h): i for i, h in enumerate(hits)}: -fused[at[id(h)]])


def search(session: Session, query: str, k: int = 5, scope: str | None = None, *,
           include_muted: bool = False, max_bytes: int = RESULTS_MAX_BYTES, filters: Filters | None = None,
           offset: int = 0, min_score: float | None = None) -> list[SearchResult]:
    """The ``k`` (1–50, an upper bound) best memories for ``query`` in the
    session's layers (``scope`` narrows to ``"user"`` or ``"project"``,
    ``filters`` further), best first, after skipping ``offset`` (0–1000), all
    together at most ``max_bytes`` of JSON. ``min_score`` None (the default):
    every memory scoring at least the relevance threshold and every memory
    sharing a content term with the query (:func:`ranked`, ``explicit``), so
    a query nothing fits gives ``[]``; a number: the query read as recall reads a prompt (not ``explicit``:
    no memory listed for sharing a word, recall's bars at the threshold, :func:`memdir.search.relevance.bar`), but
    embedded alone, only hits reaching their bar for that number: ``min_score=0.5`` is what recall would decide,
    ``0`` every memory ranked (LoCoMo's ranking). Its scores may differ from a plain search's (5 of 437 evaluation
    questions lose a memory plain search scores over 0.5: a question read as keywords there, as a prompt here).
    Pages of one query keep one basis while vectors are being built (:mod:`memdir.search.paging`: a
    :class:`~memdir.search.paging.Page`, its ``note`` saying so). Raises :class:`InvalidInput` (also for a query over
    :data:`~memdir.search.tokenize.MAX_QUERY_CHARS` characters),
    :class:`ScopeError`, :class:`StoreError`."""
    if not isinstance(query, str):
        checked_query(query)  # the one rule of what a query must be: text
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(f"query is {len(query)} characters; at most {MAX_QUERY_CHARS} are searched "
                           "(search for its key words)")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInput(f"{{argument}} must be a positive integer (got {k!r})", argument="k")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_OFFSET:
        raise InvalidInput(f"{{argument}} must be an integer from 0 to {MAX_OFFSET} (got {offset!r})",
                           argument="offset")
    k = min(k, MAX_K)
    conn = _synced(session, scope)  # once: the page's basis and its ranking read the index as this left it
    unembedded, note = paging.basis(session, scope, paging.query_key(query, scope, include_muted, filters), offset,
                                    conn)
    pool = max(POOL_MIN, 4 * (k + offset))
    while True:
        hits, terms, scope_of = ranked(session, query, pool=pool, scope=scope, include_muted=include_muted,
                                       filters=filters,
                                       min_score=relevance.THRESHOLD if min_score is None else min_score,
                                       explicit=min_score is None, windows=False, shown=offset + k,
                                       unembedded=unembedded, synced=conn)
        if pool >= MAX_POOL or not _tie_cut(hits, offset + k, pool):
            break
        pool = min(MAX_POOL, 4 * pool)
    out = paging.Page()
    used, words = 2, written(query, terms)
    for hit in hits[offset:offset + k]:
        result = _result(hit, scope_of, terms, words)
        size = len(_json(result.to_dict()).encode("utf-8")) + 2
        if used + size > max_bytes:
            break
        used += size
        out.append(result)
    out.note = "; ".join(part for part in (slip_note(terms), paging.shown(note, len(out)),
                                           unread.note(session, scope)) if part)  # all said
    return out


@rebuilt_when_damaged
def _synced(session: Session, scope: str | None) -> sqlite3.Connection:
    """The index brought in step with the session's layers of ``scope`` (:func:`memdir.search.sync.sync`; a damaged
    one set aside, a new one built): one sync per search, where its page's basis and then its ranking each synced
    (0.4 ms of a 1,000-note search each). Raises what :func:`memdir.search.sync.sync` raises."""
    return sync(session.home, session.layers(scope), session.id)


def _tie_cut(hits: list[Hit], end: int, pool: int) -> bool:
    """True when the rows ranked (``pool`` of them from each ranker, ``hits`` as many or more) may have cut
    through the tie that the hit at ``end - 1`` (the last one a page shows) is in: the last hit has its relevance
    (:func:`memdir.search.ties.tie_key`). Memories tied so are ordered by when they were updated and their name,
    not by BM25, so another pool would hold others of them: each page, ranked on a pool of its own size, showed
    some twice and others never (break11: 300 memories alike, pages of 5, 247 distinct in 300)."""
    from .ties import tie_key

    return len(hits) >= pool and len(hits) >= end and tie_key(hits[end - 1]) == tie_key(hits[-1])


def find(session: Session, query: str, k: int = 5, scope: str | None = None, *, include_muted: bool = False,
         type: str | list[str] | None = None, origin: str | list[str] | None = None, pinned: bool | None = None,
         since: str | None = None, until: str | None = None, offset: int = 0,
         min_score: float | None = None) -> list[SearchResult]:
    """:func:`search` from the arguments a person or a model gives (the
    facade's :meth:`memdir.Memory.search`, the ``memory_search`` tool):
    ``type``/``origin`` a name or a list of them, ``pinned``, ``since``/
    ``until`` ISO-8601 dates or times (:meth:`Filters.parse`), ``min_score``
    None for search's own rule (:func:`search`). A first page (``offset`` 0) also holds, as ``forgotten``, the
    tombstones the query matches (:func:`memdir.tombstones.asked.matching`: ids, scopes and lift commands, no forgotten text). Raises :class:`InvalidInput`,
    :class:`ScopeError`, :class:`StoreError`, :class:`MissingExtra`."""
    filters = Filters.parse(type, origin, pinned, since, until)
    page = search(session, query, k=k, scope=scope, include_muted=include_muted, filters=filters, offset=offset,
                  min_score=min_score)
    # a first page says which forgotten memories the query asks for (newuser46), the next ones not again
    page.forgotten = _forgotten(session, query, scope) if offset == 0 else []
    return page


def _forgotten(session: Session, query: str, scope: str | None) -> list[dict]:
    """:func:`memdir.tombstones.asked.matching` of the tombstones ``memdir tombstones`` lists for ``scope``
    (:func:`memdir.operations.trust.layer_tombstones`: as each layer holds them, not what a listing says of each);
    ``[]`` when they cannot be read (the search has said its own)."""
    from ..errors import StoreError
    from ..operations.trust import layer_tombstones
    from ..tombstones.asked import matching

    try:
        read = layer_tombstones(session, scope)
    except StoreError:
        return []
    return matching([(layer.scope, stone) for layer, stones, _, _ in read for stone in stones], query,
                    terms=_content_terms)


def _content_terms(text: str) -> set[str]:
    """The search terms of ``text`` (:func:`memdir.search.tokenize.tokens`) less its function words."""
    from .stopwords import is_stopword
    from .tokenize import tokens

    return {t for t in tokens(text) if not is_stopword(t)}


def _json(data) -> str:
    import json
    return json.dumps(data, ensure_ascii=False)


__all__ = [
    "FIELD_WEIGHTS", "Filters", "Hit", "IndexedMemory", "MAX_OFFSET", "SearchResult", "find", "ranked", "search",
    "snippet",
]
