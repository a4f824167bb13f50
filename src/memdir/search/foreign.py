"""Prompts in a language the store's words cannot hold: recalled by meaning alone, from the nearest memory standing out.

A German task for an English store ("Schreib einen Integrationstest für das Speichern einer Bestellung" beside the
note "never mock the database in integration tests") shares no word with the note that answers it, so the word
models leave the note at a score of 0.06 although it is the nearest of every memory in meaning and stands clear of
the crowd. Chinese, Japanese and Korean prompts have their own measure for that (:mod:`memdir.search.scripts`: a
memory in another script is read among its kin); German, Spanish, French and the other languages written in
letters share the script of English notes, so they had none.

:func:`reads_foreign` tells such a prompt: written in a language other than English by its function words
(:data:`memdir.text.words.FUNCTION_WORDS` beyond :data:`~memdir.text.words.ENGLISH_FUNCTION_WORDS`, more of them
than of English's) and holding terms the store mostly lacks (at most ``1 − UNHELD`` of its content terms are held
by any memory, so its words cannot agree with any: a German prompt to a German store is read by its words as every
prompt is). For such a prompt, :func:`by_meaning` (an :class:`~memdir.search.relevance.Evidence` whose ``foreign``
is set) is a memory sharing no word with it, written in its script (no kin), that is the nearest of all in meaning by
more than :data:`LEAD` and stands :data:`GAP` above the query's median cosine: :func:`memdir.search.relevance.bar`
returns it at any score (the word models say nothing where no word can be shared). Recall's only (a prompt): an
explicit search is not read so (:func:`memdir.search.ranking.ranked`).

Chosen by pooled 2-fold cross-validation on every fit set (evals/recall/meaning.py ``foreign``, 2026-12-05 cross28;
fit row *i* of each set in fold *i* mod 2, never a held-out line, never ``fresh``): over lead 0–0.01 × gap 0.03–0.05
× unheld 0.5–0.99, fold 0's best (+1 hit, 0 false recalls there; of equals the strictest, (0.01, 0.05, 0.75)) reads
(+1, 0) on fold 1, fold 1's best (+2, 0; strictest (0.005, 0.05, 0.99)) reads (0, 0) on fold 0; (0.005, 0.05, 0.75)
is among the best of both folds (+1, 0 and +2, 0) and the strictest of them. The German chat and general questions of
the fit data stand no further out (leads ≤ 0.003 and gaps ≤ 0.03 for chat such as "Danke, das hat funktioniert.";
general questions keep their ``inf`` bar, :mod:`memdir.search.general`). English prompts, and prompts whose nearest
memory shares a word, are not touched: the families tried for those (a margin over the store, generic prompts'
hubness taken out, the nearest standing apart) gain no hit out of fold without a false recall
(evals/recall/meaning.py).
"""

from __future__ import annotations

import re

from ..text.words import ENGLISH_FUNCTION_WORDS, FUNCTION_WORDS
from .tokenize import MAX_QUERY_CHARS

UNHELD = 0.75  # share of a prompt's content terms that no memory holds, at least, for it to be read by meaning alone
LEAD = 0.005  # the memory's lead over the next nearest, above this
GAP = 0.05  # its cosine's gap above the query's median cosine, at least this

_OTHER = FUNCTION_WORDS - ENGLISH_FUNCTION_WORDS
_WORD = re.compile(r"[^\W\d_]+")


def in_other_language(prompt: str) -> bool:
    """True when ``prompt`` holds at least one function word of a language written in letters other than English
    (:data:`memdir.text.words.FUNCTION_WORDS` beyond :data:`~memdir.text.words.ENGLISH_FUNCTION_WORDS`) and more of
    them than of English's: "Speichere den Zeitstempel der Bestellung in der Datenbank" (der, in: 2 against 1), not
    "the build agent is offline" nor "Danke!" (no function word). Reads the first :data:`~memdir.search.tokenize.
    MAX_QUERY_CHARS` characters (as the query's terms are read): a pasted megabyte costs what 4 KB does. Pure."""
    other = english = 0
    for word in _WORD.findall(prompt[:MAX_QUERY_CHARS].lower()):
        other += word in _OTHER
        english += word in ENGLISH_FUNCTION_WORDS
    return other > english


def unheld_share(terms: list[str], counts: dict[str, int]) -> float:
    """The share of ``terms``' content terms (not filler, not generic: :mod:`memdir.search.weighing`) that no memory
    holds (``counts``: memories holding each term, :func:`memdir.search.terms.doc_freq`); 1.0 when it has none."""
    from .weighing import is_filler, is_generic

    content = [t for t in terms if not is_filler(t) and not is_generic(t)]
    return 1.0 - sum(1 for t in content if counts.get(t, 0) > 0) / max(1, len(content))


def reads_foreign(prompt: str, terms: list[str], counts: dict[str, int]) -> bool:
    """True when ``prompt`` (its query ``terms`` and their memory ``counts``) is written in another language than
    English (:func:`in_other_language`) and the store holds few of its words (:func:`unheld_share` ≥ :data:`UNHELD`)."""
    return in_other_language(prompt) and unheld_share(terms, counts) >= UNHELD


def by_meaning(ev) -> bool:
    """True when a memory of evidence ``ev`` (:class:`memdir.search.relevance.Evidence`) answers a foreign prompt
    (``ev.foreign``) by meaning alone: it has a cosine, shares no word (``ev.shared`` empty), is written in the
    prompt's script (``ev.kin`` None), leads every other memory by more than :data:`LEAD` and stands :data:`GAP`
    above the median."""
    return (ev.foreign and ev.cosine is not None and not ev.shared and ev.kin is None and ev.lead > LEAD
            and ev.gap >= GAP)


__all__ = ["GAP", "LEAD", "UNHELD", "by_meaning", "in_other_language", "reads_foreign", "unheld_share"]
