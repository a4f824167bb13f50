"""Letters drawn like letters of another script, and how a word made with
them is read (what a tombstone compares: :mod:`memdir.tombstones.match`).

A forged value hides look-alike letters in an ordinary word: "Stаging" with
a Cyrillic а, "ɡrafana" with the IPA script g, "pօstgres" with an Armenian
օ, "ΑΡΙ" wholly in Greek capitals, or the other way round "Москвa" with a
Latin a. :func:`unmix` reads each word (a run of letters) by two rules:

1. a word whose every letter is ASCII or drawn like an ASCII letter is
   written in those ASCII letters ("ΑΡΙ" → "API", "Москва" → "Mockba",
   "kapı" → "kapi"). A word holding a letter whose capital and small forms
   look like two different ASCII letters (Greek Η/η, Μ/μ, Ν/ν, Υ/υ,
   Cyrillic Ӏ/ӏ) is read in capitals when it is in one script or all in
   capitals ("ΗΤΤΡ" → "HTTP"; "ημερα" and "ΗΜΕΡΑ" agree), and by rule 2
   otherwise (so the ν of "νet" is a v);
2. any other word whose letters come from more than one script class is
   written in the script of its letters that have no look-alike when they
   share one ("Пpoдakшh" → "Продакшн"), else in the script most of its
   letters belong to (Latin, Cyrillic or Greek; Latin when they tie or none
   of the three leads), each other letter mapped through its look-alike
   ("Мoсквы" → "Москвы"; Greek Π and Cyrillic П map to each other).

Before the words are read, a combining mark left after NFKC on a Latin,
Cyrillic or Greek letter is dropped ("stagi\\u0307ng" is "staging"); the
braille blank, the Lisu full stop and comma, the hyphens and the minus sign
read as a space, ".", "," and "-"; and between ASCII letters or digits a
CJK or Hangul stroke drawn like a dash reads as "-" ("staging一7") and an
Arabic zero drawn like a dot as "." ("7\\u0660internal").

A reader of meaning rather than of forgery reads every Unicode dash as "-" (:func:`dashes`: the em dash too,
which a value keeps, as it is drawn unlike "-").

Every other word — Russian, Greek or Chinese with a letter that has no
look-alike, accented Latin — is left exactly as written. Both rules look at
one word only, so a value and any text holding it are read the same way
(the containment rules of tombstones rely on it). Values read by an older
memdir that kept whole-script words as written get other digests; their
tombstones still match by their description, kept in clear.

The pairs are the common rows of Unicode's confusables list (UTS #39,
``confusables.txt``) for Cyrillic, Greek, Armenian, Cherokee, Coptic, Lisu
and the Latin letters of the IPA and small-capital blocks, each mapped to the ASCII letter
it is drawn like, read before case folding (capital Greek Ν is N, small ν is
v). Not the whole list: a letter with no row here stays as it is.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# (letters, the ASCII letters they are drawn like), one row per script class.
_ROWS = {
    "CYRILLIC": ("аАвВеЕёЁіІјЈкКмМнНоОрРсСтТуУхХѕЅԁһԛԚԜԝӏӀүҮԍԌ",
                 "aAbBeEeEiIjJkKmMhHoOpPcCtTyYxXsSdhqQWwlIyYgG"),
    "GREEK": ("αΑβΒεΕζΖηΗιΙκΚμΜνΝοΟρΡτΤυΥχΧγ",
              "aAbBeEzZnHiIkKuMvNoOpPtTuYxXy"),
    "ARMENIAN": ("օՕսՍհոցզՏԼա", "oOuUhngqSLw"),
    "CHEROKEE": ("ᎪᏴᏟᎬᏀᎻᎫᏦᏞᎷᏢᏚᎢᏙᏔᏃᎥ", "ABCEGHJKLMPSTVWZi"),
    "COPTIC": ("ⲟⲞⲣⲤ", "oOcC"),
    "LISU": ("ꓐꓑꓓꓔꓖꓗꓙꓚꓜꓝꓟꓠꓡꓢꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴ", "BPDTGKJCZFMNLSVHWXYAEIOU"),
    # Latin letters outside ASCII drawn like an ASCII one: IPA, small capitals, dotless i and j.
    "LATIN-LOOKALIKE": ("ɡɑıɪɩʏɢʜʟɴʀᴀʙᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢꜱȷɛ", "gaiiiyghlnrabcdejkmoptuvwzsje"),
}
_TO_ASCII = {letter: ascii_ for letters, images in _ROWS.values() for letter, ascii_ in zip(letters, images)}
_CLASS = {letter: script for script, (letters, _) in _ROWS.items() for letter in letters}
for _letter, _ascii in zip(*_ROWS["CHEROKEE"]):  # Cherokee small letters: drawn like small capitals
    if _letter.lower() != _letter:
        _TO_ASCII[_letter.lower()], _CLASS[_letter.lower()] = _ascii.lower(), "CHEROKEE"
# Cyrillic and Greek letters drawn alike with no ASCII letter between them.
_CROSS = {"CYRILLIC": dict(zip("ΠπΓΦ", "ПпГФ")), "GREEK": dict(zip("ПпГФ", "ΠπΓΦ"))}
# Marks that combine with any letter (diacritics, overlays): after NFKC only those without a precomposed
# letter are left, and after a Latin, Cyrillic or Greek letter they only disguise it ("stagi\u0307ng").
_MARKS = r"(?<=[^\W\d_])[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+"
# The hyphens and the minus sign: dashes drawn like "-" (what a value reads as "-": :func:`unmix`).
HYPHENS = "\u2010\u2011\u2012\u2013\u2212"
# Every dash of Unicode (category Pd: the hyphens, em and en dashes, the horizontal bar, the Armenian, Hebrew,
# Mongolian and Canadian syllabics hyphens, the wave dash, the small and full-width hyphen-minus…) and the minus
# signs: what a reader of meaning takes for "-" (:func:`dashes`). A value reads only HYPHENS so: a long dash is
# drawn unlike "-", and a value holding one keeps the digest it was stored with.
DASHES = HYPHENS + ("\u058a\u05be\u1400\u1806\u2014\u2015\u2e17\u2e1a\u2e3a\u2e3b\u2e40\u2e5d\u301c\u3030"
                    "\u30a0\ufe31\ufe32\ufe58\ufe63\uff0d\U00010ead\u02d7\u2796\u2043")
_DASHES = str.maketrans(dict.fromkeys(DASHES, "-"))
# Characters drawn like a space or a punctuation mark: the braille blank, Lisu full stop and comma, the
# hyphens and the minus sign.
_PUNCTUATION = str.maketrans({"\u2800": " ", "\ua4f8": ".", "\ua4f9": ",", **dict.fromkeys(HYPHENS, "-")})
# Between ASCII letters or digits, CJK and Hangul strokes drawn like a dash ("staging一7") and Arabic zeros
# drawn like a dot ("7٠internal").
_DASH_LIKE = r"(?<=[A-Za-z0-9])[\u4e00\u30fc\u3161\u2f00\u2500](?=[A-Za-z0-9])"
_DOT_LIKE = r"(?<=[A-Za-z0-9])[\u0660\u06f0](?=[A-Za-z])"
# ASCII letter -> the Cyrillic or Greek letter drawn like it (the first row that has one).
_FROM_ASCII = {script: {} for script in ("CYRILLIC", "GREEK")}
for _script, _table in _FROM_ASCII.items():
    for _letter, _ascii in zip(*_ROWS[_script]):
        _table.setdefault(_ascii, _letter)
_TARGETS = ("LATIN", "CYRILLIC", "GREEK")
# Letters whose capital and small forms are drawn like two different ASCII letters (rule 1 skips them).
_CASE_SPLIT = frozenset("ΗηΜμΝνΥυӀӏ")
_LETTERS = r"[^\W\d_]+"


def script_class(letter: str) -> str:
    """The script class of one letter: ``LATIN``, ``CYRILLIC``, ``GREEK``,
    ``ARMENIAN``, ``CHEROKEE``, ``COPTIC``, ``LISU``, ``LATIN-LOOKALIKE`` (a non-ASCII Latin letter
    drawn like an ASCII one: ``ɡ``, ``ı``, ``ᴏ``) or the first word of its
    Unicode name for any other script ("CJK", "HANGUL", …)."""
    if letter in _CLASS:
        return _CLASS[letter]
    if letter.isascii():
        return "LATIN"
    name = unicodedata.name(letter, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def ascii_image(letter: str) -> str | None:
    """The ASCII letter ``letter`` is drawn like (one row of the table above: Cyrillic у → y), the letter
    itself when it is ASCII, else None. What :mod:`memdir.text.fence` reads a disguised tag with."""
    return letter if letter.isascii() else _TO_ASCII.get(letter)


def _images(word: str) -> str | None:
    """``word`` in the ASCII letters its letters are drawn like, or None."""
    out = []
    for ch in word:
        ascii_ = ch if ch.isascii() else _TO_ASCII.get(ch)
        if ascii_ is None:
            return None
        out.append(ascii_)
    return "".join(out)


def _target(word: str, classes: list[str]) -> str:
    # A letter with no look-alike shows which script the word is written in ("Пpoдakшh": П, д, ш).
    anchors = {cls for ch, cls in zip(word, classes)
               if cls in _TARGETS and not ch.isascii() and ch not in _TO_ASCII}
    if len(anchors) == 1:
        return anchors.pop()
    counts = {target: 0 for target in _TARGETS}
    for cls in classes:
        key = "LATIN" if cls == "LATIN-LOOKALIKE" else cls
        if key in counts:
            counts[key] += 1
    return max(_TARGETS, key=lambda t: (counts[t], t == "LATIN"))


@lru_cache(maxsize=8192)  # words repeat: a value's Russian text folds each once
def _fold(word: str) -> str:
    if word.isascii():
        return word
    classes = [script_class(ch) for ch in word]
    single = len(set(classes)) < 2
    if _CASE_SPLIT.isdisjoint(word):
        images = _images(word)
    elif single or word == word.upper():
        # Read in capitals, so both cases of one word agree and "ΗΤΤΡ" is HTTP.
        images = _images(word.upper())
    else:
        images = None  # a mixed word in small letters: its ν is a v, read letter by letter below
    if images is not None:
        return images
    if single:
        return word
    target = _target(word, classes)
    out = []
    for ch, cls in zip(word, classes):
        if cls == target:
            out.append(ch)
            continue
        ascii_ = _TO_ASCII.get(ch, ch if ch.isascii() else None)
        if target == "LATIN":
            out.append(ch if ascii_ is None else ascii_)
        elif ascii_ is None:
            out.append(_CROSS[target].get(ch, ch))
        else:
            out.append(_FROM_ASCII[target].get(ascii_, ch))
    return "".join(out)


def unmix(text: str) -> str:
    """``text`` with look-alike marks and punctuation read as what they
    imitate and every word made with look-alike letters read in one script
    (rules 1 and 2 of the module docstring); other words and digits unchanged.
    Expects NFKC text and is applied before case folding. Never raises."""
    # The patterns are compiled on first use (re's cache), re imported here: the context path loads this
    # module for ascii_image alone (memdir.text.fence), and loads no re.
    import re

    text = re.sub(_MARKS, "", text).translate(_PUNCTUATION)
    text = re.sub(_DOT_LIKE, ".", re.sub(_DASH_LIKE, "-", text))
    return re.sub(_LETTERS, lambda m: _fold(m.group()), text)


def dashes(text: str) -> str:
    """``text`` with every dash of :data:`DASHES` (any Unicode dash or minus sign: ``‑`` U+2011, ``–``, ``—``,
    ``－``, ``−``) written ``-``; every other character as it is. Where a reader of a query's meaning looks at
    hyphens (:func:`memdir.search.comparison.compares`: "VS‑Code" is "VS-Code"). Pure; never raises for a ``str``."""
    return text.translate(_DASHES)


__all__ = ["DASHES", "HYPHENS", "ascii_image", "dashes", "script_class", "unmix"]
