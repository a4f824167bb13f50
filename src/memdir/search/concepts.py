"""Concepts: a prompt's word met by a memory whose head names the same thing otherwise (:mod:`memdir.search.lexicon`).

A memory titled "Feature flags" is what "put the checkout page behind a dark launch" needs, a memory whose
description says 部署 what "when can we deploy?" needs; the embedder's cosine bridges some such pairs and words none.
Each form of a concept (:data:`memdir.search.lexicon.CONCEPTS`) is read as query terms (stemmed words, CJK bigrams:
:func:`memdir.search.tokenize.query_terms`); a text holds a form when it holds every one of its terms. A core term of
a prompt that is part of a form the prompt holds *stands in* (:func:`stand_ins`) in a memory whose head (name, title,
description: what it is about, not a word its body mentions in passing) does not hold it but holds another form of
the same concept.

Recall (:func:`memdir.search.ranking.ranked`, a prompt at the threshold) scores such a memory also as if its head held
the stand-ins (:func:`lifted`: its head coverage, coverage and matched weight as a found term's share would move them)
and keeps the larger score; its bar (:func:`memdir.search.relevance.bar`) is still read on the words it holds, and
nothing is made complete or stated by a stand-in, but for a memory sharing no word with the prompt that meets its
words by their concept alone (most often one written in another language): its bar is the lower of the one read on its
own words and the one read on the words so met (the stand-ins its shared words: "schedule the production release for
Friday evening" and a Chinese note titled 生产环境发布…, agreed there), and a general question's bar
(:attr:`~memdir.search.relevance.Evidence.general`) is read on the words so met ("怎么部署到预发布环境？" and an
English note on staging deploys; hits36). A CJK bigram no
memory holds is soft (a straddle, mostly), but one of a form the prompt holds whole is a word and stands in at the
weight the query gives it (機能フラグ of a Japanese prompt beside a note titled "Feature flags …"). Chosen by pooled 2-fold cross-validation on the fit data
(evals/recall/lexicon_cv.py, 2026-12-06 recall34; head coverage headcov35): see that script for the figures.

The forms' terms are read once, when the lexicon changes, into :mod:`memdir.search.conceptterms` (reading the ≈ 750
forms takes ≈ 0.3 s: too slow for a prompt hook); :func:`read_forms` is what that module must hold (a test checks).
"""

from __future__ import annotations

import functools
import math
import re

from . import weighing
from .conceptterms import FORMS

_by_term: dict[str, tuple[int, ...]] | None = None


def read_forms() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each concept of :data:`~memdir.search.lexicon.CONCEPTS` as its forms' query terms (each form its sorted terms,
    a form reading as no term or as one already given left out): what :data:`memdir.search.conceptterms.FORMS`
    holds. Slow (the tokenizer on every form): for writing that module, never on a query."""
    from .lexicon import CONCEPTS
    from .tokenize import query_terms

    return tuple(tuple(dict.fromkeys(tuple(sorted(set(query_terms(form)))) for form in concept
                                     if query_terms(form))) for concept in CONCEPTS)


def written() -> str:
    """The text of ``conceptterms.py`` for today's lexicon and tokenizer (:func:`read_forms`)."""
    lines = ['"""Generated from memdir.search.lexicon by memdir.search.concepts.written(): each concept\'s forms as',
             'query terms. Do not edit; regenerate with', '',
             '    python -c "from memdir.search import concepts; concepts.write()"', '"""', '',
             'FORMS: tuple[tuple[tuple[str, ...], ...], ...] = (']
    lines += [f"    {concept!r}," for concept in read_forms()]
    return "\n".join(lines + [")", ""])


def write() -> None:
    """Write ``conceptterms.py`` beside this module (:func:`written`)."""
    from pathlib import Path

    Path(__file__).with_name("conceptterms.py").write_text(written(), encoding="utf-8")


def _index() -> dict[str, tuple[int, ...]]:
    """Each term of a form → the concepts having a form that holds it (built once per process)."""
    global _by_term
    if _by_term is None:
        out: dict[str, set[int]] = {}
        for c, forms in enumerate(FORMS):
            for form in forms:
                for term in form:
                    out.setdefault(term, set()).add(c)
        _by_term = {t: tuple(sorted(cs)) for t, cs in out.items()}
    return _by_term


def asked(terms) -> dict[str, tuple[int, ...]]:
    """``{term: the concepts}`` for each of ``terms`` (a prompt's query terms) that is part of a form of a concept
    the prompt holds whole (every term of the form among ``terms``); ``{}`` when none."""
    index = _index()
    present = set(terms)
    out: dict[str, set[int]] = {}
    for term in present:
        for c in index.get(term, ()):
            if any(term in form and present.issuperset(form) for form in FORMS[c]):
                out.setdefault(term, set()).add(c)
    return {t: tuple(sorted(cs)) for t, cs in out.items()}


# A question asking whom to reach ("who should I page?", "who do we escalate to?", "who gets paged?"): its verb names
# the on-call concept (the concepts of the form "on-call"), though "page", "ping" or "call" alone name other things
# ("page through the results", "the landing page", "call the API"): the verb stands in only in this shape (hits37).
_WHOM = re.compile(r"\bwho(?:m)?(?:\s+(?:should|do|can|must|would|could|shall)\s+(?:i|we)|\s+to|\s+gets)"
                   r"\s+(page[ds]?|ping(?:ed)?|escalate[ds]?|call(?:ed)?|wake|alert(?:ed)?)\b", re.IGNORECASE)


def whom(query: str, terms) -> dict[str, tuple[int, ...]]:
    """``{term: the on-call concepts}`` (:func:`asked`'s form) for the verb of a question asking whom to reach
    (:data:`_WHOM`: "who should I page?" → ``{"page": …}``) when it is among the prompt's ``terms``; ``{}`` for any
    other prompt ("page through the results")."""
    from .tokenize import query_terms

    found = _WHOM.search(query)
    if not found:
        return {}
    oncall = tuple(c for c, forms in enumerate(FORMS) if ("call", "oncal") in forms)
    present = set(terms)
    return {t: oncall for t in query_terms(found.group(1)) if t in present and oncall}


# A column or field named for a moment ("add a created_at column", "set deletedAt", "eine Spalte paid_at"): the
# identifier's last part (snake case ``_at``, ``_ts``, ``_timestamp``; camel case ``At``, ``Timestamp``) is how code
# names a timestamp, so the identifier, and the words of the prompt naming where it is kept (:data:`_KEPT_IN`: a
# column, a field, a table), stand in for the timestamp concept ("Store timestamps in UTC"), though no memory writes
# them (task49; the identifier alone, a sixth of the prompt's weight, lifted the note to 0.08). Left out: ``_time``
# (a duration as often: response_time, run_time), ``_date`` (a day without a time: due_date), ``_on`` (turn_on).
# Recall eval, every fit set, main vs this in one run, pooled [hits, needing, false, none] per fold: vectors on
# [213, 258, 42, 236], [203, 250, 22, 242] -> [216, …, 42, …], [204, …, 22, …]; off [156, 258, 16, 236],
# [162, 250, 6, 242] -> [159, …, 16, …], [163, …, 6, …] (no parameter chosen: both folds rise, no false recall added).
_TIMED = (r"(?<!\w)(?:[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_(?:at|AT|ts|TS|timestamp|TIMESTAMP)"
          r"|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*(?:At|Timestamp))(?![\w(])")  # compiled for a prompt that may hold one
_KEPT_IN = "column field table attribute property spalte feld tabelle"
# An identifier names a moment by itself when the word before its suffix says that something happened (a participle:
# created_at, deletedAt, paid_at, last_seen_at; an event: last_login_at), it reads ``last_…`` (last_sync_at) or its
# suffix is the whole word ``timestamp``; else only beside a word of :data:`_KEPT_IN` ("add a start_at column", "the
# event_ts field"). A method or a file is none: "why is charAt slow?", "explain elementAt", "the hash_ts file", "fix the
# bug in chat_at.py" recalled "Store timestamps in UTC" and the user's time zone at 0.54-0.93 (break50b). Closed.
_HAPPENED = frozenset(("paid", "sent", "seen", "read", "built", "sold", "made", "held", "won", "lost", "left",
                      "begun", "done", "shown", "known", "taken", "given", "written", "spent", "run", "set", "born",
                      "login", "logout", "signin", "signout", "signup", "expires", "starts", "ends",
                      "agreed", "disagreed", "freed", "guaranteed", "decreed"))
# A word ending in "ed" is a participle only from four letters and not in "eed" (fix52b: seed_ts, speed_at, feed_at,
# needAt, bedAt, red_at recalled "Store timestamps in UTC"); the "eed" participles are words of :data:`_HAPPENED`, the
# non-participles of four letters or more here. A test's name (``test_paid_at``: "fix the flaky test_paid_at test")
# names no field.
_NOT_DONE = frozenset(("embed", "shred", "hundred", "kindred", "sacred", "naked", "wicked", "sled", "bled"))
_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")
# Such an identifier names a field of code only where it reads as code: written in backticks ("why is `paid_at`
# null?") or in a prompt asking for a change (one of these verbs, outside the identifier: "add a paid_at", "update
# lastModifiedAt in the sync job", "setz sie"). In running prose it is a name ("the paid_at 3pm is cancelled", "the
# meeting_at 3pm is cancelled" recalled the UTC note and the user's time zone at 0.5; timed50). Beside a word of
# :data:`_KEPT_IN` any identifier reads as code ("the event_ts field"). Recall eval, fit, tasks/probe/prompts,
# vectors off and on: every fold's [hits, needing, false, none] as before (no hit lost, no false recall added).
_CHANGE = ("add rename set update migrate store save write fill backfill populate drop remove delete index sort filter"
           " convert parse default track record compare fix stamp change bump setz speichere füge")


@functools.cache
def _change_terms() -> frozenset[str]:
    """The query terms of :data:`_CHANGE` (read by the tokenizer once a process)."""
    from .tokenize import query_terms

    return frozenset(query_terms(_CHANGE))


def _as_code(query: str, found: re.Match) -> bool:
    """True when the identifier ``found`` (a match of :data:`_TIMED` in ``query``) reads as code: in backticks, or
    in a prompt holding a verb of :data:`_CHANGE` outside every such identifier. Pure."""
    from .tokenize import query_terms

    start, end = found.span()
    if "`" in query[:start] and "`" in query[end:] and query[:start].count("`") % 2:
        return True
    return not _change_terms().isdisjoint(query_terms(re.sub(_TIMED, " ", query)))


def _moment(identifier: str) -> bool:
    """True when ``identifier`` (a match of :data:`_TIMED`) names a moment without a word saying where it is kept
    (:data:`_HAPPENED`): ``created_at``, ``lastModifiedAt``, ``CREATED_AT``, ``paid_at``, ``last_sync_at``,
    ``event_timestamp``, ``used_at`` → True; ``charAt``, ``elementAt``, ``hash_ts``, ``FLAT_AT``, ``cat_at``,
    ``seed_ts``, ``speed_at``, ``embedAt``, ``red_at``, ``test_paid_at`` → False. Pure."""
    parts = [p.lower() for p in _PARTS.findall(identifier)]
    if len(parts) < 2 or parts[0] == "test":
        return False
    word = parts[-2]
    participle = (len(word) >= 4 and word.endswith("ed") and not word.endswith("eed") and word not in _NOT_DONE)
    return parts[-1] == "timestamp" or parts[0] == "last" or participle or word in _HAPPENED


# The forms of the timestamp concept that name how a moment is stored (timestamp, datetime, UTC, タイムスタンプ), not a
# time zone: a person's own ("User timezone: Europe/Berlin") is no convention for a column, and was recalled beside
# "Store timestamps in UTC" at its score for "add a paid_at column" (timed50). :data:`STORED` is the pseudo concept
# :func:`timed` maps to (an index past :data:`FORMS`); :func:`forms_of` reads it.
_ZONE = frozenset(("zone", "timezon", "zeitzon", "时区", "ゾー", "간대"))
STORED = len(FORMS)


@functools.cache
def _stored() -> tuple[tuple[str, ...], ...]:
    """The forms of the timestamp concept naming no time zone (:data:`_ZONE`); ``()`` when the lexicon has none."""
    stamp = [forms for forms in FORMS if ("timestamp",) in forms]
    return tuple(form for form in stamp[0] if _ZONE.isdisjoint(form)) if stamp else ()


def forms_of(c: int) -> tuple[tuple[str, ...], ...]:
    """The forms (each its query terms) of concept ``c``: an index of :data:`FORMS`, or :data:`STORED` (the timestamp
    forms naming no time zone). Raises IndexError for any other index."""
    return _stored() if c == STORED else FORMS[c]


def timed(query: str, terms) -> dict[str, tuple[int, ...]]:
    """``{term: the timestamp concepts}`` (:func:`asked`'s form) for a prompt's ``terms`` that read an identifier of
    ``query`` naming a moment (:data:`_TIMED`: its whole term and its parts; beside a word of :data:`_KEPT_IN`, or by
    itself, :func:`_moment`, where it reads as code, :func:`_as_code`) and, beside one, the words naming where
    it is kept (:data:`_KEPT_IN`): "add a created_at column" → ``{"createdat", "creat", "column"}``, each mapped to
    the timestamp concept; ``{}`` for a prompt naming no such identifier ("add a status column", "what time is
    it?")."""
    if "_" not in query and not re.search(r"[a-z0-9](?:At|Timestamp)", query):
        return {}
    from .tokenize import query_terms

    present = set(terms)
    kept = set(query_terms(_KEPT_IN)) & present
    identifiers = [found.group(0) for found in re.finditer(_TIMED, query)
                   if kept or (_moment(found.group(0)) and _as_code(query, found))]
    named = {t for found in identifiers for t in query_terms(found)[:1] if t in present}
    stamp = (STORED,) if _stored() else ()
    if not named or not stamp:
        return {}
    named |= {t for found in identifiers for t in query_terms(found)} & present
    named |= kept
    return {t: stamp for t in sorted(named)}


def stand_ins(wanted: dict[str, tuple[int, ...]], held) -> set[str]:
    """The terms of ``wanted`` (:func:`asked`) that a text holding the terms ``held`` (a set) does not hold but meets
    by another form of one of their concepts."""
    return {term for term, cs in wanted.items() if term not in held
            and any(term not in form and held.issuperset(form) for c in cs for form in forms_of(c))}


@functools.cache
def _kinds() -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]], ...]:
    """Each kind of :data:`~memdir.search.lexicon.KINDS` as ``(its forms' terms, its products' terms)``, read by the
    tokenizer once a process (≈ 30 forms: a few ms, and only an explicit search asks)."""
    from .lexicon import KINDS
    from .tokenize import query_terms

    def read(forms):
        return tuple(dict.fromkeys(tuple(sorted(set(query_terms(f)))) for f in forms if query_terms(f)))

    return tuple((read(forms), read(products)) for forms, products in KINDS)


@functools.cache
def _tasks(wide: bool) -> tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]:
    """Each entry of :data:`~memdir.search.lexicon.TASKS` as ``(its kind's index in KINDS, its tasks' terms)``; only
    the tasks written in ASCII unless ``wide``: reading the others compiles the tokenizer's wide character classes
    (≈ 20 ms and 180 M instructions a fresh prompt hook), and a prompt written in ASCII cannot hold their terms."""
    from .lexicon import KINDS, TASKS
    from .tokenize import query_terms

    firsts = [forms[0] for forms, _ in KINDS]
    return tuple((firsts.index(kind), tuple(dict.fromkeys(tuple(sorted(set(query_terms(t)))) for t in tasks
                                                          if wide or t.isascii())))
                 for kind, tasks in TASKS)


def kinds_tasked(terms, query: str = "") -> dict[int, frozenset[str]]:
    """``{kind: the query terms of the task}`` (:func:`kinds_asked`' form) for each kind of
    :data:`~memdir.search.lexicon.TASKS` one of whose tasks a prompt's ``terms`` hold whole ("install the lodash
    package": ``instal``, ``packag``) while naming none of its products (where "npm install lodash" names one, its
    words meet the memory); ``{}`` when none. ``query``: the prompt whose terms they are; the tasks written in other
    than ASCII are read only for a prompt that is not ASCII (:func:`_tasks`). Recall's kinds, and a typed search's
    beside :func:`kinds_asked` (:func:`instances_met`): the memory whose head names a product of the kind ("User prefers pnpm over npm") is
    scored as if its head held the task's words."""
    present = set(terms)
    out = {}
    for k, tasks in _tasks(not query.isascii()):
        named = set().union(*(task for task in tasks if present.issuperset(task)))
        if named and not any(present.issuperset(product) for product in _kinds()[k][1]):
            out[k] = frozenset(named)
    return out


def kinds_asked(terms) -> dict[int, frozenset[str]]:
    """``{kind: the query terms naming it}`` for each kind of :data:`~memdir.search.lexicon.KINDS` whose form the
    query ``terms`` hold whole ("package manager"); ``{}`` when none."""
    present = set(terms)
    out = {}
    for k, (forms, _) in enumerate(_kinds()):
        named = set().union(*(form for form in forms if present.issuperset(form)))
        if named:
            out[k] = frozenset(named)
    return out


def other_terms(terms, kinds: dict[int, frozenset[str]], query: str = "") -> list[str]:
    """What an explicit search also looks for in the index beside the query ``terms``: the terms of the other forms
    of each concept the query names (:func:`asked`: 部署, デプロイ for "deploy"; and, ``query`` given, the stored
    timestamp's for a field named for a moment, :func:`timed`: "paid_at field", as recall reads it) and of the
    products of each kind it names (``kinds``, :func:`kinds_asked`: "pnpm", "yarn" for "package manager"); ``[]``
    when none. Only a memory whose head holds a whole form or product is scored so (:func:`met`,
    :func:`instances_met`)."""
    present = set(terms)
    concepts = {c for cs in (*asked(terms).values(), *timed(query, terms).values()) for c in cs}
    found = [t for c in sorted(concepts) for form in forms_of(c) for t in form]
    found += [t for k in sorted(kinds) for product in _kinds()[k][1] for t in product]
    return [t for t in dict.fromkeys(found) if t not in present]


def recall_terms(query: str, terms, kinds: dict[int, frozenset[str]]) -> list[str]:
    """What a prompt's recall also looks for in the index beside its ``terms``: the terms of the forms of the concept a
    question asking whom to reach names (:func:`whom`: "on-call", "alert" for "who should I page?") and of the products
    of each kind its task needs (``kinds``, :func:`kinds_tasked`: "pnpm", "uv" for "install the lodash package"), so
    that the memory whose head names them is a candidate though it shares no word with the prompt and no cosine brings
    it (vectors off); ``[]`` for any other prompt. Only a head holding a whole form or product is scored so
    (:func:`met`, :func:`instances_met`)."""
    present = set(terms)
    found = [t for cs in (*whom(query, terms).values(), *timed(query, terms).values()) for c in cs
             for form in forms_of(c) for t in form]
    found += [t for k in sorted(kinds) for product in _kinds()[k][1] for t in product]
    return [t for t in dict.fromkeys(found) if t not in present]


def instances_met(heads: dict[int, tuple[str, ...]], asked: dict[int, frozenset[str]],
                  weights: dict[str, float]) -> dict[int, dict[str, float]]:
    """``{row id: {term: its weight}}``: for each memory of ``heads`` (row id → its head's indexed terms) whose head
    names a product of a kind the query names (``asked``, :func:`kinds_asked`) without holding the query's words
    for the kind, those words with their weight in the query (``weights``). An explicit search scores such a memory
    as if its head held them (:func:`lifted`): "Use pnpm, never npm or yarn" for "package manager"."""
    out = {}
    for rowid, head in heads.items():
        held = set(head)
        got = {t: weights.get(t, 0.0) for k, named in asked.items() if not named <= held
               and any(held.issuperset(product) for product in _kinds()[k][1]) for t in named - held}
        if any(got.values()):
            out[rowid] = got
    return out


def lifted(evidence, got: dict[str, float], search: bool = False, complete: bool = True):
    """``evidence`` (:class:`memdir.search.relevance.Evidence`) as if the memory's head also held the terms of ``got``
    (term → its weight in the query, :func:`met` or :func:`instances_met`: each a stand-in its head meets by another
    form, or the words of a kind whose product its head names): its head coverage raised by their weight (the head holds
    none of them), its coverage and matched weight raised and its missing weight lowered by the weight of those it
    holds nowhere else (:attr:`~memdir.search.relevance.Evidence.matched` counted once), as a found term's share moves
    them (each share at most 1); its matched terms and held share as they were. Completeness as it was, but for an
    explicit ``search`` with ``complete``: complete when it then holds all of the query's weight ("when do we
    deploy?" and a memory titled デプロイ手順: the same thing named in another language; not a product of a kind the
    query names, :func:`instances_met`, which scores under the kind named). ``evidence`` itself when ``got`` adds
    nothing."""
    from .relevance import replaced

    whole = math.expm1(evidence.query)
    if whole <= 0 or not got:
        return evidence
    matched = math.expm1(evidence.mass)
    extra = min(sum(w for t, w in got.items() if t not in evidence.matched), max(0.0, whole - matched))
    head = min(1.0, evidence.head + sum(got.values()) / whole)
    if extra <= 0 and head <= evidence.head:
        return evidence
    coverage = min(1.0, evidence.coverage + extra / whole)
    more = {"complete": 1.0 if complete and coverage >= 1.0 else evidence.complete} if search else {}
    return replaced(evidence, coverage=coverage, head=head, mass=math.log1p(matched + extra),
                    missing=math.log1p(max(0.0, whole - matched - extra)), **more)


def barred(evidence, up, got: dict[str, float], min_score: float):
    """The evidence a prompt's memory of ``evidence`` (:class:`memdir.search.relevance.Evidence`, its own words) is
    barred on (:func:`memdir.search.relevance.bar` at ``min_score``) when it meets the stand-ins ``got`` (:func:`met`)
    and ``up`` is ``evidence`` so lifted (:func:`lifted`): ``evidence`` itself when it shares a word with the prompt;
    else (the concept is all it meets: a note in another language, mostly) the one of lower bar of ``evidence`` and
    ``up`` with the stand-ins as its shared words ("schedule the production release for Friday evening" and a Chinese
    note titled 生产环境发布…: agreed there), and a general question (:attr:`~memdir.search.relevance.Evidence.general`)
    is read on the words so met (:func:`memdir.search.relevance.general_held` of ``up``: "怎么部署到预发布环境？" and an
    English note on staging deploys). Recall's only: an explicit search lists a memory sharing a word at any score."""
    from .relevance import bar, general_held, replaced

    if evidence.shared or not got:
        return evidence
    if evidence.general and not evidence.defines and general_held(up):
        evidence = replaced(evidence, general=False)
    met_so = replaced(up, shared=tuple(sorted(got)))
    return met_so if bar(met_so, min_score) < bar(evidence, min_score) else evidence


def met(heads: dict[int, tuple[str, ...]], terms: list[str], counts: dict[str, int],
        total: int, query: str = "") -> dict[int, dict[str, float]]:
    """``{row id: {stand-in: its weight in the query}}`` for each memory of ``heads`` (row id → its head's indexed
    terms: name, title, description) that meets a core term of the query ``terms`` (weighted, not soft, not generic:
    :mod:`memdir.search.weighing`; ``counts`` and ``total`` as there) by another form of its concept; memories meeting
    none are left out. ``query``: the prompt, for a question asking whom to reach (:func:`whom`)."""
    given = asked(terms)
    wanted = {**given, **{t: cs for t, cs in {**whom(query, terms), **timed(query, terms)}.items() if t not in given}}
    if not wanted:
        return {}
    weights = weighing.term_weights(terms, counts, total)
    soft = weighing.soft_terms(terms)  # a CJK bigram no memory holds is soft (a straddle, mostly), but one of a form
    # the prompt holds whole is a word: 機能フラグ of a Japanese prompt stands in at its softened weight
    wanted = {t: cs for t, cs in wanted.items() if weights.get(t, 0) > 0 and t not in soft
              and not weighing.is_generic(t)}
    out = {}
    forms = [form for cs in wanted.values() for c in cs for form in forms_of(c)]
    # A head holding no word of any of their forms meets none (a form is met whole): most heads, not read further
    words = frozenset(t for form in forms for t in form) if all(forms) else None
    for rowid, head in heads.items():
        if words is not None and words.isdisjoint(head):
            continue
        got = stand_ins(wanted, set(head)) if wanted else set()
        if got:
            out[rowid] = {t: weights[t] for t in got}
    return out


__all__ = ["STORED", "asked", "barred", "forms_of", "instances_met", "kinds_asked", "kinds_tasked", "lifted", "met", "other_terms", "read_forms", "recall_terms", "stand_ins",
           "timed", "whom", "write", "written"]
