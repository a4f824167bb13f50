"""A query word no memory holds, read as the word a memory writes a slip or two from it (issue 28).

One rule, on every path that reads a query — search (CLI, MCP) and recall (the prompt hook, ``memdir recall``,
MCP), through :func:`memdir.search.terms.near_forms`: a word the query writes (:func:`eligible`: :data:`TYPO_MIN`
letters or more, lower-case ASCII letters, no English word as written) whose term no memory holds, nor any word it
begins or runs on to (:mod:`memdir.search.spelling`), is read as the indexed term of a word within :func:`budget`
edits of it (:func:`distance`: Damerau–Levenshtein in its optimal-string-alignment form, each edit a letter left out,
added or replaced, or two neighbours swapped), its first letter and its last one kept (:func:`ends_kept`: the last may
be swapped with the one before it, ``lenght`` is "length"), that a memory writes as spelt or that is an English word
of a term the index holds ("connect" where memories write "connected"). Of such words the likeliest slip wins
(:func:`cost`: a swap or a doubled letter before a letter left out, that before one replaced), and only when it gives
one term and no English word the index does not hold is likelier (:func:`read`): ``flgas`` is "flags", not "fleas";
``reeder`` beside "reader" and "render" reads as neither; ``autor`` is no "actor" (it is "author", which no memory
holds). The term read weighs as if the query wrote it (the word a memory writes, not a guess at one) and a result
says so (:func:`memdir.search.terms.slip_note`, :class:`memdir.search.terms.ReadTerms`, ``read_as`` of
:class:`memdir.search.recall.RecallResult`).

Examples: ``conect`` is "connect" (a letter added), ``postgress`` "Postgres" (one left out; a memory writing
"PostgreSQL" writes it, :data:`memdir.search.spelling.KINDS`), ``latancy`` "latency" (replaced), ``deplyo``
"deploy" (swapped), ``timestmaps`` "timestamps", and from :data:`TWO_EDITS` letters two slips: ``confgiuration``
"configuration". Not ``aerial`` (an English word: "Arial" is one letter away), ``systemd`` (its last letter:
"system"), ``limt`` (under :data:`TYPO_MIN`: "limit", "lime", "lift" are all one slip away), nor a word a memory holds.

Why these bars. A replaced letter and an end make another real word of a word a store does not hold (among 451 such
words of the recall evaluation's prompts: ``fallback`` "callback", ``interval`` "internal", ``broker`` "broke"), so an
English word as written is never read (:func:`memdir.text.english.is_word`, SCOWL's words of 5 letters or more); a
word shorter than 5 letters has too many real neighbours to tell which was meant; the first letter is the one people
mistype least and the one that keeps the candidates few (the vocabulary is read by range of a word's first letters,
never whole: the cost does not grow with the store's vocabulary beyond those ranges). Measured on
evals/recall/typos.jsonl (fit only) and every other fit set, pooled 2-fold: see the commit that brought this rule
(recall28). A search reads at most :data:`memdir.search.terms.SLIP_LOOKUPS` words of a query so.

Reads ``fts_terms``, ``fts`` and ``docs`` in the caller's transaction; writes nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..text.english import is_word
from ..text.fold import fold
from . import spelling
from .stemming import stem

TYPO_MIN = 5
"""Letters of the shortest word a query writes that may be read as a typo (:func:`budget`): ``fontt`` is "font",
``kiled`` "killed"; ``limt``, ``trak`` are read as they are (too many words are one slip from a word of 4)."""

TWO_EDITS = 9
"""Letters from which a word may be two slips from the word meant (:func:`budget`): ``confgiuration``, ``integraton``
are one or two; a word of 8 letters or fewer is one (two slips of ``conect`` reach "correct", "collect", "context")."""

TYPO_MAX = 40
"""Letters of the longest word a query writes that may be read as a typo (:func:`eligible`): the longest words people
type run to about 30 letters (``internationalization`` is 20); a longer run of letters is pasted (a hash, base64, a key
held down), and reading it costs ``~54 n`` spellings of ``n`` letters each, every prefix looked up: a 4,000-letter
run in a pasted prompt took 85 s of the prompt hook (tests/api/test_bad_input_rules.py)."""

ROWS_READ = 50
"""Memories read at most for each candidate term, to find the words they write that the term stands for."""

_LETTERS = re.compile(r"[a-z]+")
_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def eligible(word: str) -> bool:
    """True when ``word`` (as the query writes it, case-folded) may be read as a typo: :data:`TYPO_MIN` to
    :data:`TYPO_MAX` lower-case ASCII letters and no English word as written (:func:`memdir.text.english.is_word`: ``contact`` is no typo of
    "contract", ``aerial`` none of "Arial"). Pure."""
    return TYPO_MIN <= len(word) <= TYPO_MAX and word.isascii() and word.isalpha() and word.islower() and not is_word(word)


def budget(word: str) -> int:
    """Edits at most between ``word`` and a word it is read as: 0 under :data:`TYPO_MIN` letters, 1 under
    :data:`TWO_EDITS`, else 2. Pure."""
    return 0 if len(word) < TYPO_MIN else 1 if len(word) < TWO_EDITS else 2


def distance(a: str, b: str, limit: int = 2) -> int:
    """The Damerau–Levenshtein distance of ``a`` and ``b`` (optimal string alignment: letters left out, added,
    replaced, two neighbours swapped; no letter edited twice), or ``limit + 1`` when it is more than ``limit``
    (a length difference past it is not computed). ``distance("conect", "connect")`` is 1, ``("lenght",
    "length")`` 1, ``("confgiuration", "configuration")`` 2. Pure."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            best = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, before[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return min(row[-1], limit + 1)


def ends_kept(word: str, spelt: str) -> bool:
    """True when ``spelt`` begins with ``word``'s first letter and ends with its last, or with its last two swapped
    (``lenght`` and "length"): a typo is read only inside a word, where an edit at an end makes another word
    (``systemd`` is no "system", ``broker`` no "broke"). Pure."""
    return (bool(word) and bool(spelt) and word[0] == spelt[0]
            and (word[-1] == spelt[-1] or len(word) > 1 and len(spelt) > 1 and word[-2:] == spelt[:-3:-1]))


def spellings(word: str) -> set[str]:
    """Every spelling one edit from ``word`` that keeps its ends (:func:`ends_kept`): a letter left out, added or
    replaced inside it, or two neighbours swapped (the last two too); ``word`` itself left out; about ``54 n``
    spellings for ``n`` letters. What :func:`read` looks up in the index to find the terms a word may be one slip
    from. Pure."""
    return set(_slips(word))


def _slips(word: str) -> dict[str, float]:
    """:func:`spellings` of ``word``, each with its :func:`cost` as the edit that made it gives it (no distance
    computed: ~600 of them a word)."""
    out: dict[str, float] = {}

    def put(spelt: str, weight: float) -> None:
        if spelt != word and weight < out.get(spelt, 9.0):
            out[spelt] = weight

    for i in range(1, len(word)):
        a, b = word[:i], word[i:]
        for c in _ALPHABET:  # added before b[0]
            put(a + c + b, DOUBLED if c in (a[-1], b[0]) else LEFT_OUT)
        if len(b) > 1:
            put(a + b[1:], DOUBLED if b[0] in (a[-1], b[1]) else LEFT_OUT)  # b[0] left out
            put(a + b[1] + b[0] + b[2:], SWAPPED)
            for c in _ALPHABET:
                put(a + c + b[1:], REPLACED)
    return out


def cost(word: str, spelt: str) -> float:
    """How unlikely a slip ``spelt`` is for ``word``: one edit weighs :data:`SWAPPED` (two neighbours swapped),
    :data:`DOUBLED` (a letter written once for twice or twice for once: ``runnner``, ``kiled``), :data:`LEFT_OUT` (another
    letter left out or added) or :data:`REPLACED`; two edits or more ``1 + distance`` (more than any one). What decides
    between two words a typo may be (:func:`read`): ``flgas`` is "flags" (swapped), not "fleas" (replaced); ``keybord``
    "keyboard" (left out), not "keyword". ``inf`` beyond two edits. Pure."""
    edits = distance(word, spelt, 2)
    if edits > 2:
        return float("inf")
    if edits != 1:
        return 1.0 + edits
    if len(word) == len(spelt):
        return SWAPPED if sum(x != y for x, y in zip(word, spelt)) == 2 else REPLACED
    longer, shorter = (word, spelt) if len(word) > len(spelt) else (spelt, word)
    at = next((i for i, (x, y) in enumerate(zip(longer, shorter)) if x != y), len(shorter))
    letter = longer[at]
    return DOUBLED if (at and longer[at - 1] == letter) or longer[at + 1:at + 2] == letter else LEFT_OUT


SWAPPED = DOUBLED = 0.5
LEFT_OUT = 1.0
REPLACED = 1.5


def read(conn, term: str, written: set[str]) -> tuple[str, str] | None:
    """``(the indexed term, the word a memory writes for it)`` that the query's ``term`` (no memory holds it) is
    read as by the rule of this module, for the words ``written`` that gave it (:func:`eligible` ones only): of the
    words within :func:`budget` edits with their ends kept (:func:`spellings`) whose term the index holds — a word a
    memory writes as spelt, or an English word that is the term as written (``connect`` where memories write
"connected"; :func:`_root`) — the one
    least unlikely (:func:`cost`; of equals, one a memory writes as spelt). None when there is none, or two terms are
    equally likely, or an English word the index does not hold is likelier (``autor`` is "author" before "actor";
    ``keybord`` "keyboard" before "keyword"). Reads ``fts_terms``, ``fts`` and ``docs`` in the caller's transaction:
    the vocabulary in the ranges of the candidates' first three letters, and at most :data:`ROWS_READ` memories a
    candidate term."""
    words = {w for w in written if eligible(w)}
    if not words:
        return None
    near: dict[str, float] = {}
    for w in words:
        for spelt, weight in _slips(w).items():
            near[spelt] = min(weight, near.get(spelt, weight))
    far = {w for w in words if budget(w) > 1}
    heads = {s[:3] for s in near} | {w[:3] for w in far}
    vocabulary = sorted({r[0] for head in heads for r in conn.execute(
        "SELECT term FROM fts_terms WHERE term >= ? AND term < ?", (head, head + "\uffff"))})
    known = set(vocabulary)
    # an English stem begins its word (it takes an ending off): only a spelling that some held term begins is stemmed
    by_term: dict[str, set[str]] = {}
    for spelt in near:
        if any(spelt[:k] in known for k in range(3, len(spelt) + 1)) and (t := stem(spelt)) != term:
            by_term.setdefault(t, set()).add(spelt)
    candidates = {t for t in by_term if _held(t, known, vocabulary)}
    for w in far:  # two slips: the terms of the word's first three letters that, written with an ending, are two from it
        at = bisect_left(vocabulary, w[:3])
        while at < len(vocabulary) and vocabulary[at].startswith(w[:3]):
            held = vocabulary[at]
            if held != term and len(held) >= TYPO_MIN and _ends_near(held, w, budget(w)):
                candidates.add(held)
            at += 1
    found: dict[str, tuple[float, int, str]] = {}  # term: (cost, 0 written as spelt / 1 an English word's, the word)
    # likeliest first: a term none of whose spellings can be as likely as one already read is not read
    bound = {t: min((near[s] for s in by_term.get(t, ())), default=1.0 + 2) for t in candidates}
    for candidate in sorted(candidates, key=lambda t: (bound[t], t)):
        if found and bound[candidate] > min(found.values())[0]:
            break
        match = f'"{candidate}"' + ("" if candidate in known else "*")
        rows = conn.execute("SELECT d.name || ' ' || coalesce(d.title, '') || ' ' || d.description || ' ' || "
                            "coalesce(d.body, '') FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ? LIMIT ?",
                            (match, ROWS_READ))
        if candidate in by_term:  # one slip: the spellings that gave the term, as a memory writes them
            spelt_as = _spelt(by_term[candidate])
            keys = [(near[m.group(1)], 0, m.group(0)) for (text,) in rows for m in spelt_as.finditer(fold(text))]
        else:  # two slips: every word the memories write, against the query's
            keys = [(c, 0, spelt) for (text,) in rows for spelt in _written(text) for w in words
                    if spelt[:1] == w[:1] and len(spelt) <= len(w) + 5 and (c := _cost(w, spelt, candidate)) < 9]
        keys += [(near[s], 1, s) for s in by_term.get(candidate, ()) if _root(s, candidate) and is_word(s)]
        if keys:
            found[candidate] = min(keys)
    if not found:
        return None
    best = min(found.values())
    tied = [t for t, key in found.items() if key[:2] == best[:2]]
    if len(tied) != 1:
        return None
    likelier = (s for s, c in near.items() if c < best[0] and stem(s) not in found)
    if any(is_word(s) for s in likelier):  # a word of the language the index does not hold is likelier
        return None
    return tied[0], best[2]


def _root(word: str, term: str) -> bool:
    """True when the English ``word`` is its ``term`` as written, no inflection nor ending past it (``connect``,
    ``release`` of ``releas``, ``summary`` of ``summari``): a typo is read as an English word no memory writes only
    so, never as a form nobody wrote (``containerd`` is no "contained", whose term "contain" a memory holds)."""
    return word in (term, term + "e") or term.endswith("i") and word == term[:-1] + "y"


def _held(term: str, known: set[str], vocabulary: list[str]) -> bool:
    """True when the index holds ``term`` or, as a start, a word it begins as the same name
    (:func:`memdir.search.spelling.begins`: ``postgr`` of "postgresql")."""
    if term in known:
        return True
    if not spelling.prefixable(term):
        return False
    at = bisect_left(vocabulary, term)
    while at < len(vocabulary) and vocabulary[at].startswith(term):
        if spelling.begins(vocabulary[at], term):
            return True
        at += 1
    return False


ENDINGS = ("", "e", "s", "es", "ed", "ing", "er", "ers", "or", "ion", "ions", "ation", "ations", "ment", "ments", "al",
           "ly", "ity", "ness", "able", "ance", "ence", "ive", "ize", "ized")
"""What the stemmer takes off a word, as written, that a term of two slips is tried with (:func:`_ends_near`):
``configur`` + ``ation`` is two slips from ``confgiuraton``."""


def _ends_near(held: str, word: str, limit: int) -> bool:
    """True when the indexed term ``held`` (a stem), written with one of :data:`ENDINGS` (a final ``i`` as the ``y``
    it was), is within about ``limit`` edits of ``word``: ``held`` against each beginning of the word (one table of
    edits), then what the word writes past it against the endings (an edit across the two is not counted). The
    candidates of two slips, each checked against what memories write after (:func:`read`)."""
    for base in ((held, held[:-1] + "y") if held.endswith("i") else (held,)):
        row = _against_beginnings(base, word, limit)
        for end, spent in enumerate(row):
            if spent <= limit and any(distance(word[end:], ending, limit - spent) <= limit - spent
                                      for ending in ENDINGS if abs(len(word) - end - len(ending)) <= limit - spent):
                return True
    return False


def _against_beginnings(held: str, word: str, limit: int) -> list[int]:
    """Edits between ``held`` and each beginning ``word[:j]`` (index ``j``), as :func:`distance` counts them;
    ``[]`` when no beginning is within ``limit``."""
    if len(held) > len(word) + limit:
        return []
    before: list[int] = []
    row = list(range(len(word) + 1))
    for i in range(1, len(held) + 1):
        current = [i] + [0] * len(word)
        letter = held[i - 1]
        for j in range(1, len(word) + 1):
            best = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (letter != word[j - 1]))
            if i > 1 and j > 1 and letter == word[j - 2] and held[i - 2] == word[j - 1]:
                best = min(best, before[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return []
        before, row = row, current
    return row


def _cost(word: str, spelt: str, term: str) -> float:
    """The :func:`cost` of reading the query's ``word`` as ``spelt``, a word a memory writes, for ``term``: of the
    word itself when its stem is the term, or of the word less the abbreviated kind a name runs on with
    (:data:`memdir.search.spelling.KINDS`: "postgresql" writes ``postgres``); ``inf`` when neither reads so within
    :func:`budget` edits with the ends kept (:func:`ends_kept`)."""
    limit = budget(word)
    out = float("inf")
    if spelt[:1] != word[:1] or spelt == word:
        return out
    for kind in ("", *spelling.KINDS):
        base = spelt[:len(spelt) - len(kind)] if kind else spelt
        if kind and not spelt.endswith(kind) or len(base) < TYPO_MIN or abs(len(base) - len(word)) > limit:
            continue
        if stem(base) == term and ends_kept(word, base) and distance(word, base, limit) <= limit:
            out = min(out, cost(word, base))
    return out


def _spelt(spellings: set[str]) -> re.Pattern:
    """A pattern of the words ``spellings`` as a memory writes them, folded: whole, or with the abbreviated kind a
    name runs on with (:data:`memdir.search.spelling.KINDS`: ``postgres`` in "postgresql"); group 1 the spelling."""
    alternatives = "|".join(sorted(spellings, key=lambda w: (-len(w), w)))
    kinds = "|".join(spelling.KINDS)
    return re.compile(f"(?<![a-z])({alternatives})(?:{kinds})?(?![a-z])")


def _written(text: str) -> set[str]:
    """The words ``text`` writes, folded, each run of letters whole (``LaunchDarkly`` → ``launchdarkly``,
    ``PostgreSQL`` → ``postgresql``). Pure."""
    return set(_LETTERS.findall(fold(text)))


__all__ = ["DOUBLED", "ENDINGS", "LEFT_OUT", "REPLACED", "ROWS_READ", "SWAPPED", "TWO_EDITS", "TYPO_MAX", "TYPO_MIN", "budget", "cost", "distance",
           "eligible", "ends_kept", "read", "spellings"]
