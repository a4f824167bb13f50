"""Letters drawn like letters of another script, and how a word made with
them is read (what a tombstone compares: :mod:`memdir.store.tombstones`).

A forged value hides look-alike letters in an ordinary word: "Stаging" with
a Cyrillic а, "ɡrafana" with the IPA script g, "pօstgres" with an Armenian
օ, "ΑΡΙ" wholly in Greek capitals, or the other way round "Москвa" with a
Latin a. :func:`unmix` reads each word (a run of letters) by two rules:

1. a word whose every letter is ASCII or drawn like an ASCII letter is
   written in those ASCII letters ("ΑΡΙ" → "API", "Москва" → "Mockba",
   "kapı" → "kapi") — unless it holds a letter whose capital and small forms
   look like two different ASCII letters (Greek Η/η, Μ/μ, Ν/ν, Υ/υ,
   Cyrillic Ӏ/ӏ), where folding before case folding would make the two
   cases of one word differ;
2. any other word whose letters come from more than one script class is
   written in the script most of its letters belong to (Latin, Cyrillic or
   Greek; Latin when they tie or none of the three leads), each other letter
   mapped through its look-alike ("Мoсквы" → "Москвы").

Every other word — Russian, Greek or Chinese with a letter that has no
look-alike, accented Latin — is left exactly as written. Both rules look at
one word only, so a value and any text holding it are read the same way
(the containment rules of tombstones rely on it). Values read by an older
memdir that kept whole-script words as written get other digests; their
tombstones still match by their description, kept in clear.

The pairs are the common rows of Unicode's confusables list (UTS #39,
``confusables.txt``) for Cyrillic, Greek, Armenian, Cherokee and the Latin
letters of the IPA and small-capital blocks, each mapped to the ASCII letter
it is drawn like, read before case folding (capital Greek Ν is N, small ν is
v). Not the whole list: a letter with no row here stays as it is.
"""

from __future__ import annotations

import re
import unicodedata

# (letters, the ASCII letters they are drawn like), one row per script class.
_ROWS = {
    "CYRILLIC": ("аАвВеЕёЁіІјЈкКмМнНоОрРсСтТуУхХѕЅԁһԛԚԜԝӏӀүҮԍԌ",
                 "aAbBeEeEiIjJkKmMhHoOpPcCtTyYxXsSdhqQWwlIyYgG"),
    "GREEK": ("αΑβΒεΕζΖηΗιΙκΚμΜνΝοΟρΡτΤυΥχΧγ",
              "aAbBeEzZnHiIkKuMvNoOpPtTuYxXy"),
    "ARMENIAN": ("օՕսՍհոցզՏԼա", "oOuUhngqSLw"),
    "CHEROKEE": ("ᎪᏴᏟᎬᏀᎻᎫᏦᏞᎷᏢᏚᎢᏙᏔᏃᎥ", "ABCEGHJKLMPSTVWZi"),
    # Latin letters outside ASCII drawn like an ASCII one: IPA, small capitals, dotless i and j.
    "LATIN-LOOKALIKE": ("ɡɑıɪɩʏɢʜʟɴʀᴀʙᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢꜱȷ", "gaiiiyghlnrabcdejkmoptuvwzsj"),
}
_TO_ASCII = {letter: ascii_ for letters, images in _ROWS.values() for letter, ascii_ in zip(letters, images)}
_CLASS = {letter: script for script, (letters, _) in _ROWS.items() for letter in letters}
# ASCII letter -> the Cyrillic or Greek letter drawn like it (the first row that has one).
_FROM_ASCII = {script: {} for script in ("CYRILLIC", "GREEK")}
for _script, _table in _FROM_ASCII.items():
    for _letter, _ascii in zip(*_ROWS[_script]):
        _table.setdefault(_ascii, _letter)
_TARGETS = ("LATIN", "CYRILLIC", "GREEK")
# Letters whose capital and small forms are drawn like two different ASCII letters (rule 1 skips them).
_CASE_SPLIT = frozenset("ΗηΜμΝνΥυӀӏ")
_LETTERS = re.compile(r"[^\W\d_]+")


def script_class(letter: str) -> str:
    """The script class of one letter: ``LATIN``, ``CYRILLIC``, ``GREEK``,
    ``ARMENIAN``, ``CHEROKEE``, ``LATIN-LOOKALIKE`` (a non-ASCII Latin letter
    drawn like an ASCII one: ``ɡ``, ``ı``, ``ᴏ``) or the first word of its
    Unicode name for any other script ("CJK", "HANGUL", …)."""
    if letter in _CLASS:
        return _CLASS[letter]
    if letter.isascii():
        return "LATIN"
    name = unicodedata.name(letter, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def _fold(word: str) -> str:
    if word.isascii():
        return word
    images = [ch if ch.isascii() else _TO_ASCII.get(ch) for ch in word]
    if None not in images and _CASE_SPLIT.isdisjoint(word):
        return "".join(images)
    classes = [script_class(ch) for ch in word]
    if len(set(classes)) < 2:
        return word
    counts = {target: 0 for target in _TARGETS}
    for cls in classes:
        key = "LATIN" if cls == "LATIN-LOOKALIKE" else cls
        if key in counts:
            counts[key] += 1
    target = max(_TARGETS, key=lambda t: (counts[t], t == "LATIN"))
    out = []
    for ch, cls in zip(word, classes):
        if cls == target:
            out.append(ch)
            continue
        ascii_ = _TO_ASCII.get(ch, ch if ch.isascii() else None)
        if ascii_ is None:
            out.append(ch)
        elif target == "LATIN":
            out.append(ascii_)
        else:
            out.append(_FROM_ASCII[target].get(ascii_, ch))
    return "".join(out)


def unmix(text: str) -> str:
    """``text`` with every mixed-script word written in its main script (see
    the module docstring); other words, digits and punctuation unchanged.
    Expects NFKC text and is applied before case folding. Never raises."""
    return _LETTERS.sub(lambda m: _fold(m.group()), text)


__all__ = ["script_class", "unmix"]
