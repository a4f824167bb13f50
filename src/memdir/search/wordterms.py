"""One word's terms, as the tokenizer reads it (:mod:`memdir.search.tokenize`): a word of letters and digits
(:func:`read_word`), a CJK run's bigrams (:func:`cjk_bigrams`), a Korean word without its particles
(:func:`korean_word`) and a German word's umlauts written out (:func:`umlauts_spelled`). Pure; cached by word.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.fold import fold, lone_letter
from ..text.fold import umlauts_spelled as spelled_umlauts
from ..text.words import BIT_UNITS, KOREAN_PARTICLES, RESOLUTION_NOUNS, UNITS
from .numbergroups import as_number
from .segmenting import SEPARATORS, split_chunk, word_parts
from .stemming import stem

# A name with digits written on (x86, s3, sha256): a letter before a digit.
_NAME_DIGITS = re.compile(r"[^\W\d_]\d")
AFTER_NUMBER = re.compile(r" ?/? ?")  # what may stand between a number and its unit: 100/min, 5 min, 100 / min
# A word after a number with a capital K that makes it a resolution: "4K display", "8K video" (RESOLUTION_NOUNS).
_RESOLUTION_AFTER = re.compile(r"[ \t-]+(" + "|".join(sorted(RESOLUTION_NOUNS)) + r")s?\b", re.IGNORECASE)
# A unit of bits as written, alone or after digits (Mb, 50Mb; text.words.BIT_UNITS): case-sensitive, as MB is bytes.
_BITS = re.compile(r"(?:[0-9]+(?:[.,][0-9]+)?)?(" + "|".join(BIT_UNITS) + ")")


def cjk_bigrams(run: str) -> list[str]:
    """The overlapping character bigrams of a CJK ``run`` (``日本語`` → ``日本 本語``); a run of one character itself."""
    return [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]


@lru_cache(maxsize=65536)
def read_word(word: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(tokens, group parts, written parts)`` of one word segment (:func:`memdir.search.segmenting.segments`).

    Tokens: the word stemmed, or, for a compound, its whole stemmed as written joined and its parts
    (:func:`memdir.search.segmenting.word_parts`). A plural ``s`` after digits is dropped (``A100s`` is ``A100``, ``429s`` is ``429``); a unit
    after digits is its word (:data:`memdir.text.words.UNITS`: ``90d`` → ``90d 90 day``); digits written against the
    letters before them are part of a name, no number of their own, and one letter before them no word (``A100`` →
    ``a100``, ``sha256`` → ``sha256 sha``, ``x86_64`` → ``x8664 64 x86``; ``gpt-4`` keeps its ``4``); a two-digit
    number led by a zero is its digit (``09`` → ``9``); a unit of bits, case kept (:data:`memdir.text.words.BIT_UNITS`:
    ``50Mb`` → ``50mb 50 megabit``, ``Mb`` → ``megabit``; ``50MB`` → ``… megabyt``); a number with ``k`` written on is also its thousands (``10k`` →
    ``10k 10 10000``, ``2K`` → ``2k 2 2000``). Group parts: what :func:`memdir.search.tokenize.compound_groups` records for the
    whole, the parts with a name's digits (``python3`` → ``python 3``: "Python 3" one after another is ``python3``),
    not those of a one-letter name (``A 100``). Written parts: what a run of number groups joins, a name whole
    (``DE89``). A word of one letter written with an accent keeps it (``ở``, ``é``, ``ø``: no ``o``, ``e``; search41):
    the accent is the word, and folded it was another language's function word (Vietnamese ``ở`` found by ``o``)."""
    if alone := lone_letter(word):  # ở, é, ø alone: no o, e (text.fold.lone_letter)
        return (alone,), (), (alone,)
    if bits := _BITS.fullmatch(word):  # Mb, 50Mb: megabits, no megabytes (MB, mb)
        toks, grouped, written = read_word(word[:bits.start(1)] + bits.group(1).lower())
        byte, bit = stem(bits.group(1).lower()), stem(BIT_UNITS[bits.group(1)])
        return tuple(bit if t == byte else t for t in toks), tuple(bit if t == byte else t for t in grouped), written
    pieces = _pieces(word)
    if len(pieces) == 1:
        only = stem(pieces[0][0])
        return ((as_number(only),) if only.isdigit() else (only,)), (), (only,)
    parts, grouped, written = _compound_parts(pieces)
    whole = stem("".join(part for part, _ in pieces))
    terms = _kept_parts(parts)
    seen = {whole, *terms}  # a set beside the list: a compound of 20,000 parts is read in linear time
    for name in _named_chunks(word):  # x86 of x86_64, s3 of s3-bucket
        if name not in seen:
            seen.add(name)
            terms.append(name)
    if len(pieces) == 2 and pieces[1] == ("k", True) and pieces[0][0].isdigit() and pieces[0][0].strip("0"):
        terms.append(pieces[0][0].lstrip("0") + "000")  # 10k is also 10000 (as 10,000 and 10000 read)
    return (whole, *terms), tuple(parts if grouped is None else grouped), tuple(written)


def is_resolution(word: str, text: str, end: int) -> bool:
    """True when ``word`` (as written) is digits and a capital ``K`` and ``text`` at ``end`` (where the word ends in
    it) goes on with a noun of pictures (:data:`memdir.text.words.RESOLUTION_NOUNS`: "4K display", "8K video",
    "2K monitors"): a resolution, so :func:`memdir.search.tokenize.tokens` reads no thousands of it ("10k users",
    "2K requests", "4k monitors" stay thousands). Pure."""
    return len(word) > 1 and word[-1] == "K" and word[:-1].isdigit() and bool(_RESOLUTION_AFTER.match(text, end))


def _pieces(word: str) -> list[tuple[str, bool]]:
    """The parts of ``word`` folded, each with whether it is written against the part before it (``sha256``: the
    ``256``; not the ``4`` of ``gpt-4``), a plural ``s`` after digits dropped (``429s``, ``A100s``)."""
    pieces: list[tuple[str, bool]] = []
    for chunk in SEPARATORS.split(word):
        split = split_chunk(chunk)
        if len(split) > 1 and split[-1] in ("s", "S") and split[-2].isdigit():
            split.pop()
        for i, part in enumerate(split):
            pieces.append((fold(part), i > 0))
    return pieces


def _compound_parts(pieces: list[tuple[str, bool]]) -> tuple[list[str], list[str] | None, list[str]]:
    """``(parts, group parts, written parts)`` of a word of several ``pieces`` (:func:`_pieces`), as
    :func:`read_word` describes them; the group parts None for a word holding a one-letter name with digits
    (``A100``)."""
    parts: list[str] = []
    grouped: list[str] | None = []
    written: list[str] = []
    after_number = False  # the piece before is a number: a unit after it reads as its word (90d)
    for i, (part, joined) in enumerate(pieces):
        before = pieces[i - 1][0] if joined else ""
        if part.isdigit() and before and not before.isdigit():  # A100, sha256: a name's digits
            written[-1] += part
            if len(before) == 1:  # the A of A100, the S of S3: no word
                parts.pop()
                grouped = None
            elif grouped is not None:
                grouped.append(part)
            after_number = False
            continue
        if part.isdigit():
            term = as_number(part)
        elif after_number:
            term = UNITS.get(part, part)
        else:
            term = part
        after_number = part.isdigit()
        written.append(stem(part))
        parts.append(stem(term))
        if grouped is not None:
            grouped.append(parts[-1])
    return parts, grouped, written


def _kept_parts(parts: list[str]) -> list[str]:
    """The ``parts`` that are terms: no letter or digit alone, unless every part is a digit alone (``1-2``: each
    number its own term) or it is the number the word starts with (``2GB``)."""
    ranged = all(len(part) == 1 and part.isdigit() for part in parts)
    return [part for i, part in enumerate(parts) if len(part) > 1 or ranged or (i == 0 and part.isdigit())]


def _named_chunks(word: str) -> list[str]:
    """The whole term of each chunk of ``word`` (between its ``_`` and ``-``) that is a name with digits written on
    (``x86_64`` → ``x86``; ``sha256-sum`` → ``sha256``); none for a word of one chunk."""
    return [read_word(chunk)[0][0] for chunk in SEPARATORS.split(word) if chunk != word and _NAME_DIGITS.search(chunk)]


def korean_word(run: str, attached: bool) -> str:
    """``run`` (a CJK run ending in Hangul) without the Korean particles it ends in
    (:data:`memdir.text.words.KOREAN_PARTICLES`, longest first, stacked ones too: ``배포에서는`` → ``배포``) while
    two characters are left (``회의`` stays: its ``의`` is the word's); a run ``attached`` to the Latin word before
    it (``Redis에서``) down to nothing."""
    keep = 0 if attached else 2
    while run:
        for size in (2, 1):
            if len(run) - size >= keep and run[-size:] in KOREAN_PARTICLES:
                run = run[:-size]
                break
        else:
            return run
    return run


@lru_cache(maxsize=4096)
def umlauts_spelled(word: str) -> tuple[tuple[str, str], ...]:
    """``(the umlauts written out, the word folded)``, stemmed, for each part of ``word`` written with a German
    umlaut (:func:`memdir.text.fold.umlauts_spelled`): ``Müller`` → ``(("mueller", "muller"),)``."""
    return tuple((stem(spelled), stem(fold(part))) for part in word_parts(word) if (spelled := spelled_umlauts(part)))


__all__ = ["AFTER_NUMBER", "cjk_bigrams", "korean_word", "read_word", "umlauts_spelled"]
