"""A memory's words read as a query's terms (:mod:`memdir.search.relevance` weighs what is read).

:class:`Prefixes` reads tokens: a word a long query term begins is that term (``postgresql`` → ``postgr``), the
words of a compound are the compound (``time out`` → ``timeout``), and a query's compound stands for its parts
(:mod:`memdir.search.compounds`). :func:`read_body` reads a whole indexed body the same way with ``str.find``,
and :class:`BodyTerms` is what it found, by position. Pure.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import repeat
from operator import itemgetter

from .spelling import begins


class Prefixes:
    """Reads a memory's tokens as a query's terms: each word that the start
    of a query term of ``weights`` begins (``starts``, term → start,
    :func:`memdir.search.spelling.starts`; None: every
    :func:`~memdir.search.spelling.prefixable` term as it is) becomes that
    term (``postgresql`` → ``postgr``);
    the words that ``compounds`` (term → its words: two found in the index,
    or the parts of the query's own compounds, :func:`memdir.search.compounds.read`)
    name, one after another, become that term, in the first word's place
    (``time out`` → ``timeout``, ``jetpack compos`` → ``jetpackcompos``);
    others stay; a compound stands for what it implies (:meth:`implied`).
    Build one per query and call it on each memory's tokens:
    it remembers each word's answer, and a store's notes repeat their
    vocabulary, so most words are looked up once per query, not once per note."""

    def __init__(self, weights: dict[str, float], compounds: dict[str, tuple[str, ...]] | None = None,
                 starts: dict[str, str] | None = None):
        from . import spelling
        from .compounds import implied

        groups = {term: tuple(words) for term, words in (compounds or {}).items() if term in weights}
        compounds = {term: words for term, words in groups.items() if len(words) > 1}
        self._pairs = {words: term for term, words in compounds.items()}
        self._firsts = {words[0] for words in self._pairs}
        self._implied = implied(groups, weights)  # a second spelling (one part: mueller of muller) implies the word
        self._weights = weights
        self._heads: dict[str, list[str]] = {}
        self._starts = {}
        for term, begun in (spelling.starts(weights) if starts is None else starts).items():
            if term in weights:  # expiri (expiry) begins expir-es
                self._heads.setdefault(term[:spelling.PREFIX_MIN], []).append(term)
                self._starts[term] = begun
        self._cut = spelling.PREFIX_MIN
        self._seen: dict[str, str] = {}
        self._plan = None
        self.weights = weights
        self.pairs = bool(self._pairs)
        self.implies = bool(self._implied)  # some term stands for others (:meth:`implied`)
        self.implying = frozenset(t for t, also in self._implied.items() if also)  # the terms that stand for some

    def plan(self) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], tuple[tuple[tuple[str, ...], str], ...]]:
        """``(whole, fetching, phrases)``, worked out on the first call and kept: the terms of the weights read as
        whole words, ``(term, what it fetches as a word's start)`` for the prefixed ones
        (:func:`memdir.search.spelling.fetch`), both in the weights' order, and :meth:`phrases` as pairs."""
        if self._plan is None:
            from . import spelling

            prefixed = set(self.prefixed())
            self._plan = (tuple(t for t in self._weights if t not in prefixed),
                          tuple((t, spelling.fetch(t, self.start(t))) for t in self._weights if t in prefixed),
                          tuple(self._pairs.items()))
        return self._plan

    def prefixed(self) -> list[str]:
        """The query's terms that also stand for the longer words they begin."""
        return [term for terms in self._heads.values() for term in terms]

    def phrases(self) -> dict[tuple[str, ...], str]:
        """``{words: term}``: the words that, one after another, read as a term (``compounds`` and ``groups``)."""
        return self._pairs

    def implied(self, term: str) -> tuple[str, ...]:
        """The terms a memory holding ``term`` holds with it (its parts, for a compound of the query); ``()``."""
        return self._implied.get(term, ())

    def start(self, term: str) -> str:
        """What the prefixed ``term`` matches as the start of a word (:func:`memdir.search.spelling.start`)."""
        return self._starts.get(term, term)

    def term(self, tok: str) -> str:
        """What one token reads as: the term whose start it begins, else itself."""
        return self._seen.get(tok) or self._term(tok)

    def _term(self, tok: str) -> str:
        found = None if tok in self._weights else self._heads.get(tok[:self._cut])
        out = next((term for term in found if begins(tok, self._starts[term])), tok) if found else tok
        self._seen[tok] = out
        return out

    def __call__(self, tokens: list[str]) -> list[str]:
        """``tokens`` with the words a term's start begins replaced by it, the
        words of a compound by it, and after a compound the terms it implies."""
        if self._pairs:
            tokens = self._joined(tokens)
        if self._heads:
            seen, term = self._seen.get, self._term
            tokens = [seen(tok) or term(tok) for tok in tokens]
        if self._implied and not self._implied.keys().isdisjoint(tokens):
            tokens = [also for tok in tokens for also in (tok, *self._implied.get(tok, ()))]
        return tokens

    def _joined(self, tokens: list[str]) -> list[str]:
        firsts = self._firsts
        if not firsts.intersection(tokens):
            return tokens
        out: list[str] = []
        i, n = 0, len(tokens)
        while i < n:
            tok = tokens[i]
            joined, size = None, 1
            if tok in firsts:
                for words, term in self._pairs.items():
                    if words[0] == tok and tuple(tokens[i:i + len(words)]) == words:
                        joined, size = term, len(words)
                        break
            out.append(joined or tok)
            i += size
        return out


def as_terms(tokens: list[str], weights: dict[str, float],
             compounds: dict[str, tuple[str, ...]] | None = None, starts: dict[str, str] | None = None) -> list[str]:
    """``tokens`` read as the terms of ``weights`` (:class:`Prefixes`, for one memory)."""
    return Prefixes(weights, compounds, starts)(tokens)


def read_body(text: str, prefixes: Prefixes) -> "BodyTerms":
    """An indexed body (its tokens joined by single spaces, as the index
    stores it) read as the query's terms of ``prefixes``, as
    ``prefixes(text.split())`` would read it, without a pass over every
    token in Python: each term is looked for with ``str.find`` (one with a
    start as the start of a word, the words of a compound as a phrase read as
    the term in its first word's place, every later word keeping its
    position), its position counted from the spaces before it; a compound
    of the query also stands, in its place, for the terms it implies
    (:meth:`Prefixes.implied`). A text spaced otherwise (a tab, two
    spaces) is read token by token."""
    from . import spelling

    weights = prefixes.weights
    if not single_spaced(text):  # a tab, a line break...
        words = prefixes(text.split())
        return BodyTerms([(i, tok) for i, tok in enumerate(words) if tok in weights], text, prefixes)
    padded = f" {text} "
    prefixed = set(prefixes.prefixed())
    found = []  # (offset of the space before the word, term)
    for term in weights:
        whole = term not in prefixed
        needle = f" {term} " if whole else f" {spelling.fetch(term, prefixes.start(term))}"
        at = padded.find(needle)
        while at >= 0:
            end = at + len(needle) - 1 if whole else padded.find(" ", at + 1)
            # a word a term's start begins is that term's unless an earlier term of the query claims it
            if whole or prefixes.term(padded[at + 1:end]) == term:
                found.append((at, term))
            at = padded.find(needle, end)
    written = set()  # (offset, whole): a compound written whole, then its parts (JetpackCompose): nothing to imply
    for words, term in prefixes.phrases().items():
        needle = f" {' '.join(words)} "
        at = padded.find(needle)
        while at >= 0:
            if padded.endswith(f" {term}", 0, at):
                written.add((at - len(term) - 1, term))
            else:
                found.append((at, term))
            at = padded.find(needle, at + 1)
    if prefixes.implies and any(prefixes.implied(term) for _, term in found):  # none implied: no pass over hits
        found += [(at, also) for at, term in list(found) if (at, term) not in written
                  for also in prefixes.implied(term)]
    found.sort()
    hits, position, last = [], 0, 0
    for at, term in found:  # a word's position: the spaces before it (one pass over the text in all)
        position += padded.count(" ", last, at)
        last = at
        hits.append((position, term))
    return BodyTerms(hits, text, prefixes)


def single_spaced(text: str) -> bool:
    """True when ``text`` is words joined by single spaces (printable, no space at either end): the indexed text
    :func:`read_body` and :func:`read_places` read by position, a word's position its count of spaces before it.
    A character neither printable nor whitespace to :meth:`str.split` (a version's joiner U+E000,
    :mod:`memdir.search.versions`; a zero-width joiner) leaves it so: such a text splits on its spaces alone."""
    if "  " in text or text[:1] == " " or text[-1:] == " ":
        return False
    return text.isprintable() or text.split() == text.split(" ")


def read_places(words: tuple[str, ...], starts, places, prefixes: Prefixes) -> list[tuple[int, str]]:
    """The hits of :func:`read_body` (``(position, term)``, by position; the same list) for a single-spaced body
    (:func:`single_spaced`) given as its distinct ``words`` (sorted) and where each occurs: the positions of
    ``words[i]`` are ``places[starts[i]:starts[i + 1]]`` (ascending). A term is looked up by a binary search
    (a term's start: the words it begins, a run of the sorted words), a compound by its first word's
    positions, so the cost follows the query's terms and their hits, not the body's length. What is the same for
    every body a query reads (which terms are prefixed, what each fetches) is worked out once (:meth:`Prefixes.plan`)."""
    count = len(words)

    def at(word: str):
        i = bisect_left(words, word)
        return places[starts[i]:starts[i + 1]] if i < count and words[i] == word else ()

    whole, fetching, phrases = prefixes.plan()
    found = []
    extend = found.extend
    for term in whole:
        i = bisect_left(words, term)
        if i < count and words[i] == term:
            extend(zip(places[starts[i]:starts[i + 1]], repeat(term)))
    if fetching:
        read = prefixes.term
        for term, fetched in fetching:
            i = bisect_left(words, fetched)
            while i < count and words[i].startswith(fetched):
                if read(words[i]) == term:  # as in read_body: unless an earlier term claims it
                    extend(zip(places[starts[i]:starts[i + 1]], repeat(term)))
                i += 1
    written = set()  # (position, term): a compound written whole, then its parts (as in read_body)
    alone = len(found)  # the hits so far hold one term per position: a word reads as one term
    for parts, term in phrases:
        later = [at(word) for word in parts[1:]]
        for p in at(parts[0]):
            if all(p + k in held for k, held in enumerate(later, 1)):
                if p and p - 1 in at(term):
                    written.add((p - 1, term))
                else:
                    found.append((p, term))
    if prefixes.implying and not prefixes.implying.isdisjoint(map(itemgetter(1), found)):  # none: no pass over hits
        found += [(p, also) for p, term in list(found) if (p, term) not in written for also in prefixes.implied(term)]
    # Positions all distinct (no compound's hit, nothing implied beside a word's own): by position alone, the same
    # order as by (position, term) and a third of its time (≈ 100 bodies a search); else two terms may share one.
    found.sort(key=None if len(found) > alone else _position)
    return found


_position = itemgetter(0)


class BodyTerms:
    """A body read as a query's terms (:func:`read_body`): ``hits``, the
    ``(position, term)`` of every token that is one, by position — what
    :func:`memdir.search.relevance.evidence` takes in place of the list of read tokens.
    ``text``: the body, or a function giving it (asked only by :meth:`tokens`)."""

    __slots__ = ("hits", "_text", "_prefixes")

    def __init__(self, hits: list[tuple[int, str]], text, prefixes: Prefixes):
        self.hits, self._text, self._prefixes = hits, text, prefixes

    def read_with(self, weights: dict[str, float]) -> bool:
        """True when this body was read with ``weights`` themselves (the same object): then every hit's term is one
        of theirs (a compound's, a term's start's and what a compound implies are the query's terms too)."""
        return self._prefixes.weights is weights

    def tokens(self) -> list[str]:
        """Every token read as the query's terms, as :class:`Prefixes` gives them."""
        text = self._text if isinstance(self._text, str) else self._text()
        return self._prefixes(text.split())


__all__ = ["BodyTerms", "Prefixes", "as_terms", "read_body", "read_places", "single_spaced"]
