"""Emoji as search terms (search41): ``🚀`` finds the memory that writes it.

SQLite's FTS5 ``unicode61`` tokenizer reads a symbol (Unicode category ``So``) as a break between words, and the
search tokenizer read none as a word, so an emoji a memory holds was in no term: a search of ``🚀`` found nothing.
Each emoji (:data:`EMOJI`) is one term here, written as :data:`EMOJI_MARK` and its code point in hexadecimal
(``🚀`` → ``\\ue0011f680``): letters, digits and a private-use character, which ``unicode61`` reads as one token (its
categories ``L* N* Co``, as :data:`memdir.search.versions.VERSION_JOIN`), and which no word or number of a text gives.
A flag (two regional indicators, ``🇩🇪``) is one term of both. A skin tone (U+1F3FB–U+1F3FF) is no part of the term:
``👍🏽`` is ``👍``. A sequence joined by U+200D (``👨‍💻``) is its emoji, each a term (the joiner stays, a break between them:
:func:`memdir.text.printable.without_hidden`); a variation selector (``❤️``) is read as absent there.

Which characters are emoji: those of category ``So`` in the blocks emoji are drawn from (:data:`_BLOCKS`: the
Miscellaneous Technical ``⌛``, Miscellaneous Symbols ``☀``, Dingbats ``✅``, the arrows and stars of U+2B00 ``⭐`` and
the Supplementary Multilingual Plane's U+1F000–U+1FAFF). Other symbols (``©``, ``→``, ``€``) stay breaks.
Pure, standard library only.
"""

from __future__ import annotations

EMOJI_MARK = "\ue001"
"""What begins an emoji's term (U+E001, private use: no text gives it a term; FTS5 keeps it in the token)."""

_BLOCKS = ((0x2300, 0x23FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF))
_TONES = (0x1F3FB, 0x1F3FF)  # the skin tone modifiers (category Sk): part of the emoji before them, no term
_FLAGS = (0x1F1E6, 0x1F1FF)  # the regional indicators: two of them are a flag

EMOJI = "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _BLOCKS)
"""The code point ranges an emoji is drawn from, as the body of a regex character class (the tokenizer's segments:
:func:`memdir.search.tokenize.segments`; only their characters of category ``So`` or a skin tone are read as
emoji: :func:`terms`)."""


def terms(run: str) -> list[str]:
    """The search terms of ``run``, a run of characters of :data:`EMOJI`: one per emoji, in order
    (:data:`EMOJI_MARK` and its code point in lower-case hexadecimal; a flag's two regional indicators one term), a
    skin tone and a character of another category than ``So`` none. ``"🚀✅"`` → ``["\\ue0011f680",
    "\\ue0012705"]``. Pure."""
    import unicodedata

    out: list[str] = []
    flag = ""
    for c in run:
        code = ord(c)
        if _FLAGS[0] <= code <= _FLAGS[1]:
            flag += f"{code:x}"
            if len(flag) > 5:  # two indicators
                out.append(EMOJI_MARK + flag)
                flag = ""
            continue
        if _TONES[0] <= code <= _TONES[1] or unicodedata.category(c) != "So":
            continue
        out.append(f"{EMOJI_MARK}{code:x}")
    return out


def written(term: str) -> str:
    """``term`` as a person reads it: an emoji's term as the emoji (``\\ue0011f680`` → ``🚀``; a flag's as its two
    regional indicators), any other term as it is. Pure."""
    if not term.startswith(EMOJI_MARK):
        return term
    digits = term[1:]
    try:
        if len(digits) == 10 and all(_FLAGS[0] <= int(digits[i:i + 5], 16) <= _FLAGS[1] for i in (0, 5)):
            return chr(int(digits[:5], 16)) + chr(int(digits[5:], 16))
        return chr(int(digits, 16))
    except ValueError:
        return term


__all__ = ["EMOJI", "EMOJI_MARK", "terms", "written"]
