"""Comparison questions: the one rule of when a query asks to compare things.

A question comparing things ("the difference between UTC and GMT", "Redis vs Memcached", "MySQL 和 PostgreSQL 有什么
区别？") asks what they are in general: a memory naming one side is no answer, so at the relevance threshold only a
memory stating the query in one place is returned (:func:`memdir.search.relevance.bar`). A word that only looks like
a comparison word hides the memory a person plainly asks for, so :func:`compares` reads a query as a comparison only
when a comparison word stands in it as one:

* "vs" and "versus" join two sides: something (a letter or digit of any script) on both sides of the word within
  its clause (clauses end at ``. ? ! ; :``, a bracket, ``。`` or a new line; a dot right after "vs" is its own).
  "2023 vs 2024", "Pro vs Community", "Redis vs. Memcached" are comparisons; "vs" alone, "(VS) debugging" are not.
* "VS" is a name, not a joiner, before "Code" (``VS Code``, ``vs-code``) and, written in capitals, when the store
  writes "VS" in capitals as a word itself (``Visual Studio 2022 (VS 2022)``: the caller's ``named``), unless the
  query writes every word in capitals (shouted: its case says nothing, :func:`memdir.search.tokenize.shouted`).
* A word inside a path, identifier or address — a run of ASCII characters with ``/``, ``\\``, ``.`` or ``_``
  between two letters or digits (``src/vs/base``, ``diff_tool``, ``differences.md``, ``v1.2``) — is no
  comparison word; the run still stands as one side ("src/a vs src/b" compares).
* Every Unicode dash reads as "-" (:func:`memdir.text.lookalike.dashes`: "VS‑Code" with U+2011 is "VS-Code").
* Japanese 違い is "difference" as a noun (``の違い``, ``違いは``, ``違いを``, ``違い？``) and when asked how things
  differ (``何が違う``, ``どこが違うの``, ``どう違いますか``); not the verb "be wrong" or "differ" said of one thing
  (``違う``, ``それは違います``, ``違いました``, ``違いません``: 違い before ま), not "must be" (``に違いない``,
  ``に違いなく``, ``に違いありません``) and not a compound meaning a mistake (``間違い``, ``勘違い``, ``手違い``,
  ``筋違い``, ``人違い``, ``場違い``, ``見当違い``, ``食い違い``, ``行き違い``).
* Not the words that only hold one: "unterschiedlich" (various), 차이나 before a space or 타운 (China).

A memory states a comparison when it states its sides: the comparison word itself is no word it must write ("pip
vs uv" and the note "install with uv sync, not pip install"). :func:`comparison_terms` names the query's terms that
are comparison words; search leaves them out of the weight a memory must hold in one place
(:attr:`memdir.search.relevance.Evidence.held`), as it leaves out a word no memory holds. Before, one memory
writing "vs" (a note named redis-vs-memcached) made every other comparison's answer fall short of stating it
(break10).

Pure, standard library only (the store's answer comes through ``named``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from ..text.fold import fold
from ..text.lookalike import dashes

# Comparison words (folded text). "vs" and "versus" (group "join") also need a side each (_sides).
_COMPARES = re.compile(
    r"\b(?:differences?|differs?)\b|(?P<join>\bversus\b|\bvs\b(?![.\s-]*code\b))|unterschied(?!lich)|unterscheid"
    r"|区别|差别|차이(?!나(?:\s|$|타운))"
    r"|(?<![間勘手筋人場])(?<!見当)(?<!食い)(?<!行き)違い(?!ま|な[いくし])(?!(?<=に違い)あ[りる])"
    r"|(?:何|どこ|どう)[がはも]?違[うっい]")
# A run of ASCII characters with / \ . or _ between two letters or digits: a path, identifier or address.
_RUN = re.compile(r"[!-~]+")
_JOINED = re.compile(r"[A-Za-z0-9][/\\._][A-Za-z0-9]")
_CLAUSE_END = re.compile(r"[.?!;:()\[\]{}\n。]")
_SIDE = re.compile(r"[^\W_]")
_VS = re.compile(r"(?<![^\W_])VS(?![^\W_])")  # "VS" written in capitals, a word of its own
_WORDS = re.compile(r"[^\W\d_]+")
_PLACE = "x"  # what a path or a name stands as: a side, no comparison word


def compares(query: str, named: Callable[[str], bool] | None = None) -> bool:
    """True when ``query`` (any text) asks to compare things: it writes "difference(s)", "differ(s)", "versus" or
    "vs" joining two sides, "Unterschied", "unterscheiden", "区别", "差别", "違い" as "difference" or "차이" (case and
    width folded), as the module says; False for "VS Code", a path or identifier holding one ("src/vs/base"),
    "それは違います", "unterschiedlich", 間違い, に違いない, 차이나 (China) and, when ``named("VS")`` is True (the store
    writes "VS" in capitals as a word: :func:`memdir.search.terms.in_capitals`), for "VS" written in capitals in a
    query not all in capitals. ``named`` is asked at most once, only for a query writing "VS"; None asks nothing.
    Never raises for a ``str`` (what ``named`` raises passes through)."""
    text = dashes(unicodedata.normalize("NFKC", query))
    text = _RUN.sub(lambda m: _PLACE if _JOINED.search(m.group()) else m.group(), text)
    if named is not None and _VS.search(text) and not _shouted(text) and named("VS"):
        text = _VS.sub(_PLACE, text)
    folded = fold(text)
    return any(not m.group("join") or _sides(folded, m.start(), m.end()) for m in _COMPARES.finditer(folded))


# The comparison words as search terms (stemmed, folded, CJK bigrams): vs, versus, difference(s)/differ(s),
# 区别, 差别, 차이, 違い; German Unterschied and unterscheiden in every form by their starts.
_TERMS = frozenset({"vs", "versus", "differ", "区别", "差别", "차이", "違い"})
_TERM_STARTS = ("unterschi", "unterscheid")


def comparison_terms(terms: Iterable[str]) -> frozenset[str]:
    """The terms of ``terms`` (a query's, as :func:`memdir.search.tokenize.query_terms` gives them: stemmed,
    folded) that are comparison words: ``vs``, ``versus``, ``differ``, ``unterschied``/``unterschi``…,
    ``unterscheiden``…, ``区别``, ``差别``, ``차이``, ``違い``. Whether the query compares is :func:`compares`'s
    question; this only names the words. Pure."""
    return frozenset(t for t in terms if t in _TERMS or t.startswith(_TERM_STARTS))


def _sides(text: str, start: int, end: int) -> bool:
    """True when the joiner at ``text[start:end]`` has a letter or digit on both sides within its clause."""
    if text.startswith(".", end):
        end += 1  # "vs.": the abbreviation's dot
    before = _CLAUSE_END.split(text[:start])[-1]
    after = _CLAUSE_END.split(text[end:])[0]
    return bool(_SIDE.search(before)) and bool(_SIDE.search(after))


def _shouted(text: str) -> bool:
    from .tokenize import shouted  # late: tokenize loads the stemmers

    return shouted(_WORDS.findall(text))


__all__ = ["comparison_terms", "compares"]
