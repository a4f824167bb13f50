"""How the tokenizer cuts text (:mod:`memdir.search.tokenize`): its words, CJK runs and emoji runs
(:func:`segments`), a word's parts as written (:func:`word_parts`: ``getUserById`` → ``get User By Id``), and what
ranking reads of those parts (:func:`identifier_parts`, :func:`word_forms`). Pure functions of the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache, lru_cache

from ..text.fold import fold
from ..vocabulary import CJK_RANGES, SPACELESS_RANGES
from .emoji import SEQUENCE as EMOJI_SEQUENCE
from .emoji import ZWJ
from .stemming import stem

# Runs split into character bigrams: CJK, and the other scripts written without spaces (Thai, Khmer…: a run of
# them is a sentence, which held every word of it as one token, so no word inside it was ever found; break13).
_BIGRAMMED = CJK_RANGES + SPACELESS_RANGES
_WORD_CHAR = f"[^\\W_{_BIGRAMMED}]"  # a letter or digit that is not of a run split into bigrams
# Where the combining marks of the scripts written in words are (Unicode categories Mn, Mc, Me): Latin, Greek and
# Cyrillic accents (заме́тки is заметки: text.fold drops them), Hebrew points, Arabic harakat, and the vowel signs
# and viramas of Devanagari, Bengali, Tamil… (नमस्ते, தமிழ்: part of the word). Not \\w in Python's re: without
# them a word broke at each (सर्वर was सर + वर, and a lone consonant म matched every word holding one; break13).
_MARK_BLOCKS = ((0x0300, 0x2FFF), (0xA640, 0xABFF), (0xFB1E, 0xFB1E), (0xFE00, 0xFE2F))


@lru_cache(maxsize=1)
def _marks() -> str:
    """The combining marks of :data:`_MARK_BLOCKS` as the ranges of a regex class (≈ 1 ms, on the first text that
    is not ASCII)."""
    found: list[list[int]] = []
    for low, high in _MARK_BLOCKS:
        for code in range(low, high + 1):
            if unicodedata.category(chr(code))[0] == "M":
                if found and found[-1][1] == code - 1:
                    found[-1][1] = code
                else:
                    found.append([code, code])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in found)


@lru_cache(maxsize=1)
def _segment() -> re.Pattern:
    """A word or a CJK run, as the tokenizer segments text that is not ASCII (ranking finds its matches the same
    way: :func:`segments`); a word is letters and digits (not CJK), each with the combining marks after it.
    Compiled on the first text that is not ASCII (classes of the CJK ranges cost ≈ 30 ms to compile)."""
    word = f"{_WORD_CHAR}[{_marks()}]*"
    emoji = f"{EMOJI_SEQUENCE}(?:{ZWJ}?{EMOJI_SEQUENCE})*"  # 👨‍👩‍👦 one run, its joiners in it (search.emoji)
    return re.compile(f"(?P<cjk>[{_BIGRAMMED}]+)|(?P<emoji>{emoji})|(?P<word>(?:{word})+(?:[_\\-]+(?:{word})+)*)")


# In ASCII text a word is its ASCII letters and digits (no CJK, no combining mark, no emoji).
_ASCII_SEGMENT = re.compile(r"(?P<cjk>(?!))|(?P<emoji>(?!))|(?P<word>[A-Za-z0-9]+(?:[_\-]+[A-Za-z0-9]+)*)")


@cache
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def segments(text: str) -> Iterator[re.Match]:
    """The words, CJK runs and emoji runs of ``text`` in order, as the tokenizer segments it: matches with the
    groups ``cjk``, ``emoji`` (:mod:`memdir.search.emoji`) and ``word`` (one of them set). Pure."""
    return (_ASCII_SEGMENT if text.isascii() else _segment()).finditer(text)

SEPARATORS = re.compile(r"[_\-]+")
# An acronym's plural, "JWTs", "PRs", "OSes": the acronym ("AWS" and "iOS" are no plurals).
_ACRONYM_PLURAL = re.compile(r"(?<![A-Z])([A-Z]{2,})(?:s|(?<=[SXZ])es)(?![a-z])")
_CAMEL = re.compile(
    r"(?<=[a-z])(?!(?<=[KMGT]i)B(?![a-z]))(?=[A-Z])"  # getUser; not a binary size's unit (2GiB: 2 GiB, no Gi B)
    r"|(?<=[A-Z])(?=[A-Z][a-z])"    # HTMLResponse
    r"|(?<=[^\W\d_])(?=\d)"         # sha256
    r"|(?<=\d)(?=[^\W\d_])"         # 3d
)


def word_parts(word: str) -> list[str]:
    """The parts of one word (of :func:`segments`) as written, case kept: ``IT-team`` → ``IT team``. Pure."""
    return [p for chunk in SEPARATORS.split(word) for p in split_chunk(chunk)]


def split_chunk(chunk: str) -> list[str]:
    """The parts of one chunk of a word (no ``_``/``-``) as written, an acronym's plural its acronym (``JWTs`` →
    ``JWT``, ``listPRs`` → ``list PR``, ``OSes`` → ``OS``; not ``AWS``, ``Its``, ``iOS``)."""
    if "s" in chunk:
        chunk = _ACRONYM_PLURAL.sub(r"\1", chunk)
    return [p for p in _CAMEL.split(chunk) if p]


def identifier_parts(text: str) -> dict[str, set[str]]:
    """The terms of ``text`` found only as parts of code identifiers — names
    joined by underscores or written in camelCase from a lower-case start
    (``request_id``, ``getUserId``; not ``ClickHouse``) — and never as a word of their own, each with the parts
    as written (casefolded): ``{"request": {"request"}, "id": {"id"}}`` for
    "each log line carries request_id", only ``id`` for "requests carry a
    request_id". A prompt's word in another form than the part ("add
    requests" against ``request_id``) is weaker evidence than the word
    itself (:func:`word_forms`). Pure."""
    whole: set[str] = set()
    parts: dict[str, set[str]] = {}
    for match in segments(text):
        word = match.group("word")
        if not word:
            continue
        pieces = word_parts(word)
        if len(pieces) > 1 and ("_" in word or (word[:1].islower() and not word.islower())):
            for piece in pieces:
                folded = fold(piece)
                parts.setdefault(stem(folded), set()).add(folded)
        else:
            whole.update(stem(fold(p)) for p in pieces)
    return {t: forms for t, forms in parts.items() if t not in whole}


def name_parts(text: str) -> dict[str, frozenset[str]]:
    """The terms of ``text`` found only as parts of names written in capitals and joined — a product's name
    (``MySQL``, ``PostgreSQL``, ``GitHub``, ``TypeScript``: a word of letters alone, starting in a capital, that
    :func:`word_parts` splits) — and never as a word of its own or a part of another word, each with the names
    (stemmed, as the tokenizer reads the whole) they are parts of: ``{"sql": {"postgresql"}, "postgr":
    {"postgresql"}}`` for "The dev PostgreSQL listens", ``{}`` for "PostgreSQL and SQL". A part two different
    names share (``sql`` of ``MySQL`` and ``PostgreSQL``) is no evidence one is the other
    (:func:`memdir.search.parts.parts_weighed`). Pure."""
    whole: set[str] = set()
    parts: dict[str, set[str]] = {}
    for match in segments(text):
        word = match.group("word")
        if not word:
            continue
        pieces = word_parts(word)
        if len(pieces) > 1 and word[:1].isupper() and word.isalpha():
            name = stem(fold(word))
            for piece in pieces:
                parts.setdefault(stem(fold(piece)), set()).add(name)
        else:
            whole.update(stem(fold(p)) for p in pieces)
    return {t: frozenset(names) for t, names in parts.items() if t not in whole}


def word_forms(text: str) -> dict[str, set[str]]:
    """Each term of the words of ``text`` (not CJK) with the forms that give it,
    casefolded: ``{"request": {"requests"}}`` for "add requests". Pure."""
    out: dict[str, set[str]] = {}
    for match in segments(text):
        for piece in word_parts(match.group("word") or ""):
            folded = fold(piece)
            out.setdefault(stem(folded), set()).add(folded)
    return out


def has_cjk(text: str) -> bool:
    """True when ``text`` holds a character of a run split into bigrams: CJK (Han, kana, Hangul), Thai, Lao,
    Myanmar or Khmer (:data:`memdir.vocabulary.SPACELESS_RANGES`)."""
    return not text.isascii() and bool(_compiled(f"[{_BIGRAMMED}]").search(text))




__all__ = ["SEPARATORS", "has_cjk", "identifier_parts", "name_parts", "segments", "split_chunk", "word_forms", "word_parts"]
