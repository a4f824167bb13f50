"""When a query word is read as another word the index holds, by its spelling alone (issue 28).

Two readings, one rule: a word stands for a longer word only when the shorter one is a word as written, and the
longer one merely runs on past it.

- **Beginning longer words** (:func:`starts`): a query word of :data:`PREFIX_MIN` letters or more also finds the
  longer words it begins (``postgres`` finds "PostgreSQL", ``config`` "configuration"). The index holds stems, so
  the beginning is the query word's stem — but only where the stemmer took off no more than an inflection (a plural
  ``-s``/``-es``, a final ``-e``; a final ``-y`` written ``-i``: ``expiry`` begins "expires"). A stem cut from a
  longer word is no word's beginning: ``changeling`` is ``changel`` + ``ing``, and "changelog" does not run on
  from it; ``postgis`` is ``postgi`` + ``s``, no ``-y``, so not ``postg`` of "Postgres".
- **A longer spelling of a shorter name** (:func:`runs_on`): a query word no memory holds is read as the shorter
  name the memories write when it is that name (its stem, with the plural or final ``-e`` the stemmer took off it)
  followed by letters that make no syllable — an abbreviation: ``postgresql`` is "Postgres" + ``ql`` (``js``,
  ``db``, ``ctl`` alike). Letters with a vowel make another word: ``committee`` is not "commit", ``secretary``
  not "secret", ``serverless`` not "server", ``banner`` not "banned" (the last also below :data:`NEAR_MIN`).

Meaning (the vectors) covers what spelling cannot tell (``logger`` and "logging"). Pure; the SQL that finds the
candidates is :mod:`memdir.search.terms`'s, the matching :mod:`memdir.search.tokenize`'s (FTS5 prefix queries)
and :mod:`memdir.search.reading`'s (a memory's words).
"""

from __future__ import annotations

from collections.abc import Iterable

PREFIX_MIN = 5
"""A query term of at least this many ASCII letters may also match the
longer words it begins (:func:`starts`). Shorter terms match whole only
(``port`` must not find ``portal``)."""

INFLECTIONS = ("", "s", "es", "e")
"""What the stemmer may take off a word, as written, for its stem still to begin the word's longer forms
(``postgres`` → ``postgr``, ``caches`` → ``cach``, ``database`` → ``databas``)."""

NEAR_MIN = 6
"""Letters of the shortest indexed term that a longer query term no memory
holds is read as (:func:`runs_on`: ``postgresql`` → ``postgr``, as
memories write "Postgres"). Shorter ones are too many words' start."""

NEAR_TAIL = 4
"""Letters at most that a query term may run on past the indexed term it is
read as (``postgresql`` is ``postgr`` + 4): a word running on further
(``postgresqlx``) is another word, not a longer name."""

VOWELS = frozenset("aeiouy")


def prefixable(term: str) -> bool:
    """True when ``term`` is long enough to begin longer words (:data:`PREFIX_MIN` ASCII letters or more)."""
    return len(term) >= PREFIX_MIN and term.isascii() and term.isalpha()


def start(term: str, written: Iterable[str] = ()) -> str | None:
    """What the query ``term`` (a stem) matches as the start of longer
    words, given the ``written`` words (case-folded) of the query that gave
    it: the term when the stemmer took at most an inflection off one of them
    (:data:`INFLECTIONS`: ``postgres`` → ``postgr``) or wrote it otherwise
    (a short form: ``config`` → ``configur``); the term without its ``i``
    when that ``i`` is a written ``y`` and :data:`PREFIX_MIN` letters are
    left (``expiry`` → ``expir``, so "expires" and "expiration" are found).
    None when the term is not :func:`prefixable` or the stemmer cut a longer
    ending off every written form (``changeling`` → ``changel``,
    ``logistics`` → ``logist``): that term matches itself only. No
    ``written`` (a term the query does not spell: a compound's joined form,
    a near form): the term as it is."""
    if not prefixable(term):
        return None
    forms = list(written)
    if not forms:
        return term
    out = None
    for word in forms:
        if word.endswith(("y", "ies")) and term.endswith("i") and len(term) > PREFIX_MIN \
                and word.startswith(term[:-1]) and word[len(term) - 1:] in ("y", "ies"):
            return term[:-1]  # the stemmer's i for a y: expiri of expiry also begins expir-es, expir-ation
        if not word.startswith(term) or word[len(term):] in INFLECTIONS:
            out = term  # as written, less an inflection; or rewritten whole (a short form, an irregular plural)
    return out


def starts(terms: Iterable[str], forms: dict[str, set[str]] | None = None) -> dict[str, str]:
    """``{term: its start}`` for the ``terms`` that also match the longer
    words they begin (:func:`start`), ``forms`` giving each term's written
    words (:func:`memdir.search.tokenize.word_forms` of the query; None: as
    if each term were written as it is). Terms matching themselves only are
    left out."""
    forms = forms or {}
    out = {}
    for term in terms:
        begun = start(term, forms.get(term, ()))
        if begun is not None:
            out[term] = begun
    return out


def runs_on(term: str, held: str) -> bool:
    """True when the query ``term`` (no memory holds it) is a longer
    spelling of the indexed term ``held``: ``held`` has :data:`NEAR_MIN`
    letters or more, ``term`` runs on past it by at most :data:`NEAR_TAIL`
    letters, and what it adds, past an inflection ``held``'s word may have
    lost (:data:`INFLECTIONS`), is letters without a vowel: an abbreviation
    (``postgresql`` = ``postgr`` + ``es`` + ``ql``), not a syllable
    (``committee`` = ``commit`` + ``tee``, ``persona`` = ``person`` + ``a``)."""
    if len(held) < NEAR_MIN or not term.startswith(held) or not 0 < len(term) - len(held) <= NEAR_TAIL:
        return False
    tail = term[len(held):]
    return any(tail.startswith(lost) and len(tail) > len(lost) and not VOWELS.intersection(tail[len(lost):])
               for lost in INFLECTIONS)


__all__ = ["INFLECTIONS", "NEAR_MIN", "NEAR_TAIL", "PREFIX_MIN", "VOWELS", "prefixable", "runs_on", "start",
           "starts"]
