"""Scripts: the writing system a memory is written in, and where it stands in meaning among those written alike.

multilingual-e5-small puts a prompt and a memory written in two scripts further apart than two texts in one
script saying as little in common: an English question and the Chinese note answering it sit at cosine 0.80
while unrelated English notes sit at 0.83 (in the recall evaluation's store the needed memory in another script
is the 4th to 30th nearest of 45). Among the memories written in its own script, though, the needed one is
nearest and stands out (its gap above their median and its lead over the next of them 0.02–0.08): the
language moves every cosine of a script alike, the meaning still orders them. So a memory written in another
script than the query is also measured *among its kin* (:func:`kin`): its gap and lead over the memories of its
script, scored by the same hybrid model (:func:`memdir.search.relevance.score` takes the larger).

Scripts (:func:`script`): ``hangul``, ``kana`` (Japanese: kana with or without kanji), ``han`` (Chinese
characters alone) and ``letters`` (every alphabet: Latin, Cyrillic, …; German and English are one script, so
this does nothing between them). A text is in the CJK script it has most of when its CJK characters are at
least half as many as its letters (a CJK character says about as much as a short word), else in ``letters``;
a memory is read by what its vector embeds first (title, description, the first :data:`HEAD_CHARS` characters
of its body: :func:`memdir.search.vectors.memory_text`), once, when the sync writes its row (:func:`of_memory`):
a query reads the stored scripts (:func:`of_rows`), never the rows' text.

A script of fewer than :data:`KIN_MIN` memories is no crowd to stand out of (of two, one always leads): its
memories are measured only among all. Chosen on the fit half of ``evals/recall`` by 2-fold cross-validation
(``evals/recall/fit.py``, 2026-12-03): 2 or 3 gave the same on both folds, 4 or more lost hits.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..vocabulary import CJK_RANGES

KIN_MIN = 3
HEAD_CHARS = 300  # of a memory's body read for its script, after its title and description
LEAD_CAP = 0.1  # a lead is clipped to ±this, as among all (:func:`memdir.search.relevance.with_cosine`)

# The three scripts split the CJK characters of :data:`memdir.vocabulary.CJK_RANGES` (their one home), plus the
# halfwidth katakana a text may hold as written (the tokenizer reads them NFKC-folded, as full-width kana).
_HALFWIDTH_KANA = "\uff66-\uff9f"


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, ...]:
    """``(any CJK, Hangul, kana, Han, a letter)``, compiled on the first text that is not ASCII: classes of
    ranges this wide cost ≈ 20 ms to compile, which a query or a sync of ASCII text never needs."""
    return (re.compile(f"[{CJK_RANGES}{_HALFWIDTH_KANA}]"),
            re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af]"),
            re.compile(f"[\u3040-\u30ff\u31f0-\u31ff{_HALFWIDTH_KANA}]"),
            re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef]"),
            re.compile(r"[^\W\d_]"))


def script(text: str) -> str:
    """The script ``text`` is written in: ``hangul``, ``kana``, ``han`` or ``letters`` (see the module
    docstring; ``letters`` too for a text of no letters at all). Pure; linear in ``len(text)``."""
    if text.isascii():  # no CJK character is ASCII
        return "letters"
    cjk_char, hangul_char, kana_char, han_char, letter = _patterns()
    if not cjk_char.search(text):
        return "letters"
    hangul, kana, han = len(hangul_char.findall(text)), len(kana_char.findall(text)), len(han_char.findall(text))
    cjk = hangul + kana + han
    if 2 * cjk < len(letter.findall(text)) - cjk:  # \w letters include the CJK ones
        return "letters"
    if hangul >= max(kana, 1):
        return "hangul"
    return "kana" if kana else "han"


def of_memory(title: str | None, description: str | None, body: str | None) -> str:
    """The script a memory is written in: :func:`script` of its title, description and the first
    :data:`HEAD_CHARS` characters of its body (what its vector embeds first). The sync stores it with the
    memory's row (``docs.script``, :mod:`memdir.search.schema`); an upgraded index computes it from the stored
    text the same way. Pure; linear in the head's length."""
    return script(f"{title or ''} {description or ''} {(body or '')[:HEAD_CHARS]}")


def of_rows(conn) -> dict[int, str]:
    """``{row id: script}`` of every memory of the index whose script is not ``letters`` (those absent are
    ``letters``), as the sync stored it (:func:`of_memory`): one query over the partial index ``docs_script``,
    which holds those rows alone, so its cost is that of the memories in another script than ``letters``, none
    for a store written in alphabets. In the caller's transaction. Empty for a read-only index of schema 15, which
    holds no script (``conn.scripts`` False: :func:`memdir.search.index.open_read_only`). Raises ``sqlite3.Error``."""
    if not getattr(conn, "scripts", True):
        return {}
    return dict(conn.execute("SELECT id, script FROM docs WHERE script != 'letters'"))


def kin(cosines: dict[int, float], scripts: dict[int, str], query: str) -> dict[int, tuple[float, float]]:
    """``{row id: (gap, lead)}`` for each memory of ``cosines`` (row id → its cosine to the query) written in
    another script than ``query`` (``scripts``: :func:`of_rows`), in a script of at least :data:`KIN_MIN`
    memories of ``cosines``: its cosine's gap above the median of theirs and its lead over the nearest other
    of them (clipped to ±:data:`LEAD_CAP`). Empty when every memory is in the query's script (a store and a query
    written in alphabets alone: at once, without a pass over ``cosines``)."""
    own = script(query)
    if own == "letters" and not any(scripts.get(i, "letters") != "letters" for i in scripts):
        return {}
    groups: dict[str, list[int]] = {}
    for i in cosines:
        groups.setdefault(scripts.get(i, "letters"), []).append(i)
    out = {}
    for name, ids in groups.items():
        if name == own or len(ids) < KIN_MIN:
            continue
        values = sorted((cosines[i] for i in ids), reverse=True)
        n = len(values)
        middle = values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
        for i in ids:
            c = cosines[i]
            lead = c - (values[1] if c >= values[0] else values[0])
            out[i] = (c - middle, max(-LEAD_CAP, min(LEAD_CAP, lead)))
    return out


def leaders(standing: dict[int, tuple[float, float]]) -> list[int]:
    """The row ids of ``standing`` (:func:`kin`) nearest the query among their script's memories (lead > 0):
    at most one per script; the ranking scores them though they are far down the cosines of all."""
    return [i for i, (_gap, lead) in standing.items() if lead > 0.0]


__all__ = ["HEAD_CHARS", "KIN_MIN", "LEAD_CAP", "kin", "leaders", "of_memory", "of_rows", "script"]
