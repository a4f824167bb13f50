"""Emoji as search terms (search41): ``🚀`` finds the memory that writes it.

SQLite's FTS5 ``unicode61`` tokenizer reads a symbol (Unicode category ``So``) as a break between words, and the
search tokenizer read none as a word, so an emoji a memory holds was in no term: a search of ``🚀`` found nothing.
Each emoji (:data:`EMOJI`) is one term here, written as :data:`EMOJI_MARK` and its code point in hexadecimal
(``🚀`` → ``\\ue0011f680``): letters, digits and a private-use character, which ``unicode61`` reads as one token (its
categories ``L* N* Co``, as :data:`memdir.search.versions.VERSION_JOIN`), and which no word or number of a text gives.
A flag (two regional indicators, ``🇩🇪``) is one term of both, a subdivision flag (a black flag, the tags
spelling its subdivision and CANCEL TAG: Scotland's, Wales's, England's) one of them all (left44a: each was the
plain ``🏴``, the tags read as absent), a keycap (``#️⃣``) one of its key and U+20E3. A skin
tone (U+1F3FB–U+1F3FF) is no part of the term: ``👍🏽`` is ``👍``. A sequence joined by U+200D (``👨‍💻``, ``👨‍👩‍👦``) is
one term (search42: each of its emoji was one, so ``👨`` found every family and ``👨‍👩‍👦`` found ``👨‍👩‍👧`` at 0.996;
the joiner is kept there by :func:`memdir.text.printable.without_hidden`); a variation selector (``❤️``) is read as
absent there.

Which characters are emoji: those of category ``So`` in the blocks emoji are drawn from (:data:`_BLOCKS`: the
Miscellaneous Technical ``⌛``, Miscellaneous Symbols ``☀``, Dingbats ``✅``, the arrows and stars of U+2B00 ``⭐`` and
the Supplementary Multilingual Plane's U+1F000–U+1FAFF). Other symbols (``©``, ``→``, ``€``) stay breaks.
Pure, standard library only.
"""

from __future__ import annotations

import re

EMOJI_MARK = "\ue001"
"""What begins an emoji's term (U+E001, private use: no text gives it a term; FTS5 keeps it in the token)."""

_BLOCKS = ((0x2300, 0x23FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF))
_TONES = (0x1F3FB, 0x1F3FF)  # the skin tone modifiers (category Sk): part of the emoji before them, no term
_FLAGS = (0x1F1E6, 0x1F1FF)  # the regional indicators: two of them are a flag

EMOJI = "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _BLOCKS)
"""The code point ranges an emoji is drawn from, as the body of a regex character class (the tokenizer's segments:
:func:`memdir.search.tokenize.segments`; only their characters of category ``So`` or a skin tone are read as
emoji: :func:`terms`)."""


ZWJ = "\u200d"
"""ZERO WIDTH JOINER: the emoji on either side of it are one (``👨‍👩‍👦``, a family; ``👩‍💻``)."""
KEYCAP = "\u20e3"
"""COMBINING ENCLOSING KEYCAP: with a digit, ``#`` or ``*`` before it an emoji (``1️⃣``, ``#️⃣``)."""
KEYCAP_BASES = "0123456789#*"
TAGS = "\U000e0020-\U000e007e"
"""The tag characters that spell an emoji flag's subdivision after its black flag, before CANCEL TAG (U+E007F):
the flags :data:`memdir.text.printable.TAG_FLAGS` keeps, England's, Scotland's, Wales's."""
SEQUENCE = f"(?:[{EMOJI}](?:[{TAGS}]+\U000e007f)?|[{re.escape(KEYCAP_BASES)}]{KEYCAP})"
"""One emoji of a run as the tokenizer segments it (:func:`memdir.search.tokenize.segments`): a character of
:data:`EMOJI` (with the tags of a subdivision flag after it), or a keycap; a run is such emoji, each joined to the
one before it by :data:`ZWJ` or not."""
_PART = "x"  # between the code points of one term (no hexadecimal digit)


def terms(run: str) -> list[str]:
    """The search terms of ``run``, a run of emoji as :data:`SEQUENCE` segments it: one per emoji, in order
    (:data:`EMOJI_MARK` and its code point in lower-case hexadecimal), a sequence of them joined by :data:`ZWJ` one
    term (its code points, the joiners too, apart by ``x``: ``👨‍👩‍👦`` is no ``👨`` nor ``👨‍👩‍👧``), a flag's two
    regional indicators one term, a subdivision flag one (🏴 and its tags, CANCEL TAG too: Scotland's is no 🏴 nor
    Wales's), a keycap one (``#️⃣``: ``#`` and U+20E3), a skin tone and a character of another
    category than ``So`` none (``👍🏽`` is ``👍``, ``👨🏽‍💻`` is ``👨‍💻``). ``"🚀✅"`` → ``["\\ue0011f680",
    "\\ue0012705"]``. Pure."""
    import unicodedata

    out: list[list[str]] = []
    flag, joined = "", False
    for i, c in enumerate(run):
        code = ord(c)
        if c == ZWJ:
            joined = bool(out)
            continue
        if _FLAGS[0] <= code <= _FLAGS[1]:
            if not flag:
                flag = f"{code:x}"
                continue
            unit, flag = [flag, f"{code:x}"], ""
        elif c in KEYCAP_BASES and run[i + 1:i + 2] == KEYCAP:
            unit = [f"{code:x}", f"{ord(KEYCAP):x}"]
        elif 0xE0020 <= code <= 0xE007F and out and not joined:  # 🏴 and the tags of its subdivision: one flag
            out[-1].append(f"{code:x}")
            continue
        elif _TONES[0] <= code <= _TONES[1] or unicodedata.category(c) != "So":
            continue
        else:
            unit = [f"{code:x}"]
        if joined:
            out[-1] += [f"{ord(ZWJ):x}", *unit]
        else:
            out.append(unit)
        joined = False
    return [EMOJI_MARK + _PART.join(parts) for parts in out]


def written(term: str) -> str:
    """``term`` as a person reads it: an emoji's term as the emoji (``\\ue0011f680`` → ``🚀``; a flag's as its two
    regional indicators, a sequence with its joiners), any other term as it is. Pure."""
    if not term.startswith(EMOJI_MARK):
        return term
    try:
        return "".join(chr(int(part, 16)) for part in term[1:].split(_PART))
    except ValueError:
        return term


__all__ = ["EMOJI", "EMOJI_MARK", "KEYCAP", "KEYCAP_BASES", "SEQUENCE", "TAGS", "ZWJ", "terms", "written"]
