"""What stored text may carry to a terminal or a prompt (DESIGN §3, §1.5).

Two rules, applied at write time by the gateway (with a warning) and again
by every renderer — ``MEMORY.md``, the context block, the recall block, the tools' and the
CLI's text — so a hand-edited file is held to them too:

* **One-line fields** (name, title, description, and anything shown on one
  line) never hold a line break of any kind a common reader splits on:
  ``\\r \\n \\v \\f``, the file/group/record separators ``\\x1c``–``\\x1e``
  (Python's ``str.splitlines``), U+0085 NEL, U+2028 LINE SEPARATOR and
  U+2029 PARAGRAPH SEPARATOR. :func:`one_line` collapses each run of them,
  with the spaces around it, into one space.
* **Nothing rendered carries a hidden character** (:func:`unhidden`, decided by Unicode's classes, never
  by a list of characters found one at a time): terminal escape sequences (``ESC [ 31 m``, ``ESC ] … BEL``
  terminated on its line) are dropped whole, an unterminated string introducer alone, then every
  character of General_Category **Cc** (controls: C0 but tab and newline, DEL, C1), **Cf** (format: the
  bidi embeddings, overrides, isolates and marks — "Trojan Source", CVE-2021-42574 —, zero-width space,
  word joiner, BOM, soft hyphen, the tag characters U+E0000–U+E007F — "ASCII smuggling" —, the shorthand
  format controls U+1BCA0–U+1BCA3, the Egyptian hieroglyph format controls U+13430–…), **Cs** (a lone
  surrogate: no character), **Cn** (unassigned in this Python's Unicode, ``unicodedata.unidata_version``:
  a later Unicode may have made it a format control — Unicode 15's U+13439–U+1343F are — and the model
  reading it may know it; but not in the blocks reserved for pictographs, where a later Unicode adds only
  emoji: a newer emoji than this Python knows stays, :func:`_is_pictographic`), **Zl**/**Zp** (line
  breaks, above), and every other Default_Ignorable_Code_Point (:data:`IGNORABLE`: the combining
  grapheme joiner, the Hangul fillers, Khmer's inherent vowels, the variation selectors) — except where
  a script needs one, which stays (:func:`unhidden`): a **ZWJ or ZWNJ** between two characters a script
  joins with (letters, marks or symbols other than ASCII and Latin: a Persian plural ``یادداشت\\u200cها``,
  an Indic half form ``क्\\u200dष``, an emoji sequence 👩\\u200d💻), and **one variation selector** after the
  character it draws (U+FE0E/U+FE0F after any visible character, ``❤\\ufe0f``, ``1\\ufe0f\\u20e3``; U+FE00–
  U+FE0D after one beyond ASCII; U+E0100–U+E01EF after a CJK ideograph; Mongolian's U+180B–U+180F after
  a Mongolian letter), and the **tags of an emoji flag** Unicode recommends (:data:`TAG_FLAGS`: England,
  Scotland, Wales; any other run of tags goes). A run of selectors or joiners is what "emoji smuggling" hides bytes in (256
  selectors, a byte each): at most one per visible character is left, so a hidden payload needs as many
  characters shown as it has pieces. **Co** (private use: a glyph of a private font, or a box) is
  dropped from one-line fields — a name or description a reader tells apart by what it shows — and
  kept in bodies (a Powerline prompt pasted in a code block). Bodies keep tabs and newlines; their other
  line breaks become ``\\n`` (:func:`printable`). Spaces of every width (Zs) stay.
* Names apply the one-line rule and refuse what it cannot name (Cn, Co, Cs, a control anywhere, leading
  and trailing ones too): :func:`memdir.text.names.normalize_name`.

Pure functions with no imports beyond ``re`` and ``unicodedata``, each loaded only when a text needs
it: the hot path (the context block on every hook) uses them. The patterns are kept as text and
compiled on first use (``re``'s own cache): compiling them all costs more than a context block of
clean lines, which needs none (:func:`are_clean_lines`: ``str.isprintable``, false for every Cc, Cf,
Cs, Co, Cn, Zl, Zp and Zs but the space, and one set of the few printable ignorables). A character's
class is looked up once per process (:func:`_kind`), so no table of the 1,114,112 code points is built.
"""

from __future__ import annotations

# re is imported where a pattern is needed, never at import: the hot path (a hook, `memdir context`)
# imports this module, and text of printable ASCII (most of it) needs no pattern.

LINE_BREAKS = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Unicode tag characters (U+E0000-U+E007F): invisible copies of ASCII that some models read
# ("ASCII smuggling"), so hidden instructions could ride in a title or body. Never rendered.
TAGS = "\U000e0000-\U000e007f"
# The emoji tag sequences Unicode recommends for general interchange (emoji-test.txt, "subdivision-flag": RGI): a
# black flag, the tags spelling a subdivision and CANCEL TAG — England, Scotland, Wales, each drawn as its own flag
# (U+1F3F4 U+E0067 U+E0062 U+E0073 U+E0063 U+E0074 U+E007F). Kept whole (:func:`unhidden`, :func:`without_hidden`): a fixed spelling, no room for a hidden payload, where
# any other run of tags (a flag of another subdivision, which renders as the plain 🏴) is still dropped.
TAG_FLAGS = tuple("\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in code) + "\U000e007f"
                  for code in ("gbeng", "gbsct", "gbwls"))
# Characters that show as nothing: bidi marks (LRM, RLM, ALM), zero-width space, word
# joiner, BOM, soft hyphen, combining grapheme joiner, the Hangul fillers, the deprecated
# Khmer inherent vowels, invisible math operators, deprecated format characters, the
# interlinear annotation marks (U+FFF9-U+FFFB) and the musical formatting marks. No rule of today: unhidden decides
# by class and drops every one of them from one-line fields. The list as it was when it was the rule, kept unchanged
# for what was made with it then: a tombstone's value digest (text.values) and the file names an older memdir gave
# a name (text.names.legacy_names). One character each, no ranges.
INVISIBLE = ("\u200b\u200e\u200f\u061c\u2060\ufeff\u00ad\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5"
             "\u2061\u2062\u2063\u2064\u206a\u206b\u206c\u206d\u206e\u206f\ufff9\ufffa\ufffb"
             + "".join(map(chr, range(0x1D173, 0x1D17B))))

# A whole terminal escape sequence: CSI (ESC [ or the C1 CSI), an OSC/DCS/APC/PM
# string with its terminator on the same line, or a two-character escape. Dropped
# whole, so `ESC[2J` does not leave `[2J` behind. A string introducer without a
# terminator on its line is dropped alone: its text stays (an unterminated
# `ESC ]` must never swallow the rest of a body — issue 10).
_ESCAPE = (
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])(?:[^\x07\x1b\x9c" + LINE_BREAKS + r"]*(?:\x07|\x1b\\|\x9c))?"
    r"|\x1b[ -~]?"
)
# (Spaces before a run of breaks are taken from where no space nor tab is before them: from inside a long run of
# spaces each start read the run again, quadratic; a match from there also matched from the run's start, the one
# taken. A run of breaks right after the spaces an earlier match ended with starts at its first break, as before.)
_BREAKS = f"(?:(?<![ \t])[ \t]+)?[{LINE_BREAKS}]+[ \t]*"
_BODY_BREAKS = "\r\n|[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]"
_OTHER_BREAKS = "[\v\f\x1c\x1d\x1e\x85\u2028\u2029]"  # a body's line breaks that are no system's line end

# Default_Ignorable_Code_Point characters outside the C categories (the Cf and Cn ones are hidden by
# category): the combining grapheme joiner, the Hangul fillers, Khmer's inherent vowels. Dropped
# everywhere: they draw nothing (Hangul filler names are how a chat app shows a "blank" name).
IGNORABLE = "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"
JOINERS = "\u200c\u200d"  # ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER: kept where a script joins with them
# Kinds of character (:func:`_kind`).
_KEEP, _DROP, _PRIVATE, _JOINER, _SELECTOR = range(5)
_KINDS: dict[str, int] = {"\t": _KEEP, "\n": _KEEP}  # each character's kind, looked up once per process


def _is_selector(ch: str) -> bool:
    """A variation selector, or a Mongolian free variation selector or vowel separator (U+180B–U+180F)."""
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef" or "\u180b" <= ch <= "\u180f"


def _is_pictographic(ch: str) -> bool:
    """True for a code point of the blocks Unicode reserves for pictographs (U+1F000–U+1FAFF, U+1FC00–U+1FFFD:
    Extended_Pictographic in emoji-data.txt holds their unassigned code points too, so a later Unicode puts
    only emoji there, never a format control): a Unicode 15 or 16 emoji (🩵 U+1FA75) on a Python that knows 14."""
    return "\U0001f000" <= ch <= "\U0001faff" or "\U0001fc00" <= ch <= "\U0001fffd"


def _kind(ch: str) -> int:
    """What the module docstring's rule does with ``ch`` (one character): kept, dropped, dropped from
    one-line fields only (private use), or kept by its context (a joiner, a selector)."""
    kind = _KINDS.get(ch)
    if kind is None:
        if ch in JOINERS:
            kind = _JOINER
        elif _is_selector(ch):
            kind = _SELECTOR
        elif ch in IGNORABLE:
            kind = _DROP
        elif ch.isprintable():
            kind = _KEEP
        else:
            import unicodedata  # late: printable text (most of it) never needs it

            category = unicodedata.category(ch)
            if category == "Cn" and _is_pictographic(ch):
                kind = _KEEP  # a newer emoji than this Python knows: Unicode reserves these for pictographs
            else:
                kind = _KEEP if category == "Zs" else _PRIVATE if category == "Co" else _DROP  # Cc Cf Cs Cn Zl Zp
        _KINDS[ch] = kind
    return kind


# The printable characters the rule does not keep as they are (str.isprintable says True for all of them).
_PRINTABLE_UNSAFE = frozenset(IGNORABLE + JOINERS + "\u180b\u180c\u180d\u180f" + "".join(map(chr, range(0xFE00, 0xFE10)))
                              + "".join(map(chr, range(0xE0100, 0xE01F0))))


def _clean(text: str, body: bool) -> bool:
    """True when :func:`unhidden` leaves ``text`` as it is for its field (no joiner or selector at all:
    whether one stays depends on its neighbours), tab and newline allowed."""
    flat = text.replace("\n", "").replace("\t", "")
    if flat.isprintable():  # one C-level scan: no Cc, Cf, Cs, Co, Cn, Zl, Zp; only printable ignorables to rule out
        return flat.isascii() or _PRINTABLE_UNSAFE.isdisjoint(flat)
    return all(_kind(c) == _KEEP or (body and _kind(c) == _PRIVATE) for c in set(flat))


def is_clean_line(text: str) -> bool:
    """True when ``text`` holds no line break and nothing :func:`unhidden` would change."""
    return "\n" not in text and _clean(text, False)  # every other line break is a Cc, Zl or Zp


def are_clean_lines(text: str) -> bool:
    """True when every ``\n``-separated line of ``text`` is clean (:func:`is_clean_line`), so
    :func:`one_line` of each is the line stripped. The same answer, in C-level scans for the common
    text (a 2 MB ``MEMORY.md`` in a few milliseconds)."""
    return _clean(text, False)


def _joins(before: str, after: str) -> bool:
    """True when a ZWJ or ZWNJ between ``before`` and ``after`` (one character each, ``""`` at an end) is one a
    script joins with: both are letters, marks or symbols (an emoji, its variation selector), neither ASCII
    nor a Latin letter."""
    import unicodedata

    return all(c and not c.isascii() and unicodedata.category(c)[0] in "LMS"
               and not unicodedata.name(c, "").startswith("LATIN") for c in (before, after))


def _takes(base: str, selector: str) -> bool:
    """True when ``selector`` (:func:`_is_selector`) right after ``base`` is one that draws it: U+FE0E/U+FE0F
    after any visible character, U+FE00–U+FE0D after one beyond ASCII, an ideographic selector after a CJK
    ideograph, Mongolian's after a Mongolian letter; never after a space, a joiner or another selector."""
    if not base or base.isspace() or _kind(base) != _KEEP:
        return False
    if selector in "\ufe0e\ufe0f":
        return True
    if selector < "\ufe00":  # Mongolian
        return "\u1820" <= base <= "\u18af"
    if selector <= "\ufe0f":
        return not base.isascii()
    import unicodedata

    return unicodedata.name(base, "").startswith("CJK ")


def places_of(text: str, chars) -> list[int]:
    """The indexes in ``text`` of every occurrence of each character of ``chars``, in order: found by
    ``str.find`` (C-level), not by a walk one character at a time — for text where these are few."""
    places = []
    for c in chars:
        index = text.find(c)
        while index >= 0:
            places.append(index)
            index = text.find(c, index + 1)
    places.sort()
    return places


def unhidden(text: str, body: bool = False, shown=None) -> str:
    """``text`` without the hidden characters of the module docstring's rule — one-line fields' (``body``
    False: private use dropped too) or a body's (tab and newline kept in both) —, each dropped character
    replaced by ``shown(ch)`` when given (:func:`visible`'s escapes). A joiner or selector is judged by its
    neighbours once the other hidden characters are gone: a selector is kept right after a character that
    takes it, a joiner between two a script joins (its left one a selector kept there, as in ``❤\ufe0f\u200d🔥``);
    a run of joiners joins nothing and goes whole. Line breaks other than ``\n`` are the callers'
    (:func:`one_line`, :func:`printable`). An emoji flag of :data:`TAG_FLAGS` keeps its tags. Pure; text it keeps
    whole is returned as it is."""
    if "\U0001f3f4" in text and (flagged := _flags_apart(text)):
        return "".join(p if i % 2 else unhidden(p, body, shown) for i, p in enumerate(flagged))
    drop, context = [], []
    for c in set(text):
        kind = _kind(c)
        if kind == _DROP or (kind == _PRIVATE and not body):
            drop.append(c)
        elif kind == _JOINER or kind == _SELECTOR:
            context.append(c)
    if drop:  # str.translate: C-level, however many there are; a surrogate (a file name's byte that is not
        # UTF-8, as surrogateescape reads it; JSON's lone "\ud800") is shown as its escape, never dropped: a
        # person must see that a name holds one (test_undecodable_names), and the escape hides nothing
        text = text.translate({ord(c): shown(c) if shown else _escape(c) if "\ud800" <= c <= "\udfff" else None
                               for c in drop})
    if not context:
        return text
    places = places_of(text, context)
    kept: set[int] = set()
    out, last = [], 0
    for index in places:
        c, before, after = text[index], text[index - 1:index], text[index + 1:index + 2]
        if _kind(c) == _SELECTOR:
            keep = _takes(before, c)
        else:
            left = bool(before) and (_kind(before) == _KEEP or (index - 1 in kept and _kind(before) == _SELECTOR))
            keep = left and bool(after) and _kind(after) == _KEEP and _joins(before, after)
        if keep:
            kept.add(index)
            continue
        out.append(text[last:index])
        if shown is not None:
            out.append(shown(c))
        last = index + 1
    out.append(text[last:])
    return "".join(out)


def _flags_apart(text: str) -> list[str]:
    """``text`` split around each flag of :data:`TAG_FLAGS` it holds (the flags at odd places), ``[]`` when it holds
    none."""
    if not any(flag in text for flag in TAG_FLAGS):
        return []
    import re

    return re.split(f"({'|'.join(TAG_FLAGS)})", text)


def one_line(text: str | None) -> str:
    """``text`` safe to show on one line: every run of line breaks (and the
    spaces and tabs around it) becomes one space, escape sequences and hidden characters
    (:func:`unhidden`) are dropped, ends are stripped. ``None`` → ``""``."""
    if not text:
        return ""
    if text.isascii() and text.isprintable():  # printable ASCII: no control or break; the common case,
        return text.strip()  # without loading re
    if is_clean_line(text):
        return text.strip()
    import re

    if "\x1b" in text or not text.isascii():
        text = re.sub(_ESCAPE, "", text)
    text = re.sub(_BREAKS, " ", text)
    return unhidden(text).strip()


LINE_BYTES = 300
"""UTF-8 bytes of a description (or of any one-line text) shown on one line: ``memdir list``,
the lines of ``MEMORY.md`` and of the context block (:func:`clipped`). Bytes, as the context
block's budget is counted: a line of Japanese costs what a line of English does (300 characters
of it were 900 bytes, three times an English line, so a small budget showed a third as many)."""


def clipped(text: str, limit: int = LINE_BYTES) -> str:
    """``text`` when it is at most ``limit`` UTF-8 bytes; else its longest prefix of whole characters
    in at most ``limit - 1`` bytes, and ``…`` — a cut between characters, never inside one, and where
    an ASCII text was always cut (its first ``limit - 1`` letters). The one rule of a shown line's
    length (:data:`LINE_BYTES`): a line of Japanese costs the budget what a line of English does."""
    if len(text) * 4 <= limit:  # no character is over 4 bytes: it fits, unencoded
        return text
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return utf8_prefix(text, limit - 1, data) + "…"


def line_of(text: str | None, limit: int = LINE_BYTES) -> str:
    """``text`` as one shown line: :func:`one_line`, every run of whitespace one space, then
    :func:`clipped` to ``limit`` UTF-8 bytes. Printable, not escaped for any reader: a terminal or a
    prompt takes :func:`memdir.render.memories.cut` (this, read as data), an HTML page its template's escaping."""
    return clipped(" ".join(one_line(text).split()), limit)


def utf8_prefix(text: str, limit: int, data: bytes | None = None) -> str:
    """The longest prefix of whole characters of ``text`` in at most ``limit`` UTF-8 bytes (``""`` for a
    limit ≤ 0): the one rule of a cut by bytes, never inside a character. ``data``: ``text`` already encoded."""
    data = text.encode("utf-8", "surrogatepass") if data is None else data
    if len(data) <= limit:
        return text
    cut = max(limit, 0)
    while cut > 0 and data[cut] & 0xC0 == 0x80:  # the byte after the cut continues a character: back to its start
        cut -= 1
    return data[:cut].decode("utf-8", "surrogatepass")


def display_title(title: str | None, name: str) -> str:
    """What a memory is shown as (index line, listings, panel): its title when
    it has one, else its name, on one line (:func:`one_line`)."""
    return one_line(title or name)


def printable(text: str | None) -> str:
    """Multi-line ``text`` safe for a terminal or a prompt: every line break
    becomes ``\\n``, escape sequences and hidden characters (:func:`unhidden` for a body: tab and newline
    stay, private use too) are dropped. ``None`` → ``""``."""
    if not text:
        return ""
    if text.isascii() and text.isprintable():  # as one_line's
        return text
    if _clean(text, True):
        return text
    import re

    text = re.sub(_ESCAPE, "", text)
    text = re.sub(_BODY_BREAKS, "\n", text)
    return unhidden(text, body=True)


def printable_map(text: str) -> tuple[str, list[int] | None]:
    """``(printable(text), where)``: ``where[j]`` is the index in ``text`` of the character ``printable(text)[j]``
    stands for (a line break shown as ``\n``: its first character, ``\r`` of ``\r\n``), so a piece of the text as
    shown (what a tool's view of a body showed a model, hidden characters and escape sequences gone) can be found
    in the text as stored (:mod:`memdir.gateway.edits`). ``where`` is None when the two cannot be aligned (a
    surrogate, which :func:`printable` shows as its escape). Pure."""
    shown = printable(text)
    if shown == text:
        return shown, list(range(len(text)))
    import re

    gone = set()  # escape sequences go whole, their printable tail too (ESC[31m): never aligned with shown text
    for match in re.finditer(_ESCAPE, text):
        gone.update(range(match.start(), match.end()))
    where, at = [], 0
    for char in shown:  # what printable drops is only deleted, so the shown text is a subsequence of the rest
        while at < len(text) and (at in gone or not (text[at] == char or (char == "\n" and text[at] in LINE_BREAKS))):
            at += 1
        if at == len(text):
            return shown, None
        where.append(at)
        at += 2 if char == "\n" and text.startswith("\r\n", at) else 1
    return shown, where


def newlines(text: str) -> str:
    """``text`` with every line break a common reader splits on (:data:`LINE_BREAKS`; ``\r\n`` as one) as
    ``\n``, nothing else changed: where text is set apart line by line (:func:`memdir.text.fence.quoted`),
    the lines are the ones :func:`printable` leaves and a model reads. Text holding none is returned as it is."""
    if text.isascii() and "\r" not in text and "\v" not in text and "\f" not in text and "\x1c" not in text \
            and "\x1d" not in text and "\x1e" not in text:
        return text
    import re

    return re.sub(_BODY_BREAKS, "\n", text)


def breaks_shown(line: str) -> str:
    """``line`` (a line of a body split at ``\n``) with every other line break in it (``\r``, U+2028, NEL, a
    form feed …: :data:`LINE_BREAKS`) shown as its escape (``\u2028``), so a view that numbers a body's lines
    as the edits count them shows each as one line: the output's printable pass would break it, and what
    followed would stand unnumbered, a line of the tool's own (break33). Pure."""
    if line.isascii() and "\r" not in line and "\v" not in line and "\f" not in line and "\x1c" not in line \
            and "\x1d" not in line and "\x1e" not in line:
        return line
    import re

    return re.sub(f"[{LINE_BREAKS}]", lambda m: _escape(m.group()), line)


def breaks_read(text: str) -> str:
    """``text`` with each escape :func:`breaks_shown` writes for a line break (``\\u2028``, ``\\r``, ``\\x0c`` …)
    read back as the break: a line copied from a view that showed one, as the body holds it. Pure; text holding
    no backslash comes back as it is."""
    if "\\" not in text:
        return text
    import re

    breaks = {_escape(c): c for c in LINE_BREAKS if c != "\n"}
    return re.sub("|".join(re.escape(e) for e in breaks), lambda m: breaks[m.group()], text)


def well_formed(text: str) -> str:
    """``text`` as valid Unicode that UTF-8 can carry: a high and low surrogate side by side joined into the
    character they stand for (as UTF-16 reads them), every other surrogate code point (a lone one, as JSON's
    ``"\\ud800"`` decodes to) as U+FFFD. A tool's result echoes what it was given (a query, a name) and a
    lone surrogate in it is refused by every encoder (stdio's among them), so an in-memory MCP client got
    what no other could (left32). Text without one comes back as it is."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


WORD_CHARS = 200    # characters of one word of an error line (a path, a value) kept whole
LINE_CHARS = 1_000  # characters of a whole error line


def said_line(text: str) -> str:
    """``text`` as one error line for a person, readable whatever the input held: every word (a run of
    non-spaces: a path, a value) over :data:`WORD_CHARS` characters keeps its head and tail around
    ``…(N characters cut)…``, then the line over :data:`LINE_CHARS` the same, so the reason after a value
    (``'/aaa…' cannot be examined: File name too long``) stays in view. The one rule of every error line a
    hook writes to stderr and of the CLI's (a 100 KB ``cwd`` or argument printed whole buried the error it
    was part of). A message of several lines is cut line by line: the diff an install prints for a person to
    apply by hand (a settings file with comments, 2,500 characters for Gemini CLI's entries) stays whole, where
    one cut in its middle named neither the hooks nor the server to add (newuser37). Pure, no ``re``."""
    if len(text) <= WORD_CHARS:
        return text
    if "\n" in text:
        return "\n".join(said_line(line) for line in text.split("\n"))
    return _middle_cut(" ".join(_middle_cut(word, WORD_CHARS) for word in text.split(" ")), LINE_CHARS)


def _middle_cut(text: str, limit: int) -> str:
    """``text`` when at most ``limit`` characters; else its first two thirds and last third of ``limit``
    around a mark saying how many characters went."""
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 3
    return f"{text[:head]}…({len(text) - head - tail} characters cut)…{text[len(text) - tail:]}"


def trimmed_body(text: str) -> str:
    """A multi-line body without the blank lines before its first line and the white space after its
    last: the first line keeps its indentation (``"    make deploy\n    make test"``, a Markdown code
    block, stays one; ``str.strip`` cut its first four spaces: break31). A body of white space → ``""``."""
    start = 0
    while True:  # each leading line holding only spaces and tabs goes, newline and all
        end = text.find("\n", start)
        if end < 0 or text[start:end].strip(" \t\r"):
            break
        start = end + 1
    return text[start:].rstrip()


# Variation selectors: the standard ones (U+FE00-FE0F; FE0F asks for an emoji's picture, FE0E for its text, and an
# emoji-aware keyboard or a paste leaves one after a word: "staging\ufe0f"), Mongolian's free ones (U+180B-180D,
# U+180F) and the ideographic ones (U+E0100-E01EF, a glyph variant of the Han character before them). They choose
# how a character is drawn, never which it is: a search reads them as absent. Combining marks to a regex (a word kept
# one, "staging\ufe0f" a term of its own that "staging" never met), so only search drops them: a title keeps them
# (the picture a person chose), as it keeps a ZWJ or ZWNJ a script joins with (which a search reads as a break between
# words, or as part of an emoji sequence).
VARIATION_SELECTORS = "\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef"


def _absent(ch: str) -> bool:
    """Whether a search reads ``ch`` as absent (:func:`without_hidden`): a character :func:`unhidden`'s class rule
    drops that shows as nothing (Cf, Cn, the ignorables) or a selector — not a control, line break or
    surrogate, which part words (:func:`_kind` drops those too, but a search must not join "a\nb")."""
    kind = _kind(ch)
    if kind == _SELECTOR:
        return True
    return kind == _DROP and not (ch < " " or "\x7f" <= ch <= "\x9f" or ch in LINE_BREAKS or "\ud800" <= ch <= "\udfff")


def without_hidden(text: str) -> str:
    """``text`` without the characters that show as nothing (by :func:`unhidden`'s Unicode class rule: Cf — the
    bidi controls, zero-width space, tags, the shorthand and hieroglyph format controls —, Cn, the ignorables) or
    choose only how the character before them is drawn (every selector: :data:`VARIATION_SELECTORS`):
    ``stag\u200bing`` and ``staging\ufe0f`` → ``staging``, as a person reads it, and without terminal escape
    sequences, dropped whole by the rule every renderer applies (pasted colour output: ``ESC[31mkafka ESC[0m`` →
    ``kafka``), and a ZWJ or ZWNJ no script joins with (``post\u200dgres`` → ``postgres``: :func:`_loose_joiners_out`).
    Controls, line breaks, a ZWJ/ZWNJ a script joins with (a break between words, or an emoji sequence's) and
    private use stay. The search
    tokenizer's rule, for documents and queries alike; an emoji flag of :data:`TAG_FLAGS` keeps its tags. Pure."""
    if text.isascii() and "\x1b" not in text:
        return text
    import re

    text = re.sub(_ESCAPE, "", text)
    if text.isascii():
        return text
    if "\U0001f3f4" in text and (flagged := _flags_apart(text)):  # Scotland's flag keeps its tags (TAG_FLAGS)
        return "".join(p if i % 2 else without_hidden(p) for i, p in enumerate(flagged))
    gone = {ord(c): None for c in set(text) if not c.isascii() and _absent(c)}
    text = text.translate(gone) if gone else text
    return _loose_joiners_out(text) if "\u200c" in text or "\u200d" in text else text


def _loose_joiners_out(text: str) -> str:
    """``text`` without each ZWJ or ZWNJ no script joins with (:func:`unhidden`'s rule, :func:`_joins`: one between
    Latin letters, ASCII, a space, another joiner, at an end): it shows as nothing, so ``post\u200dgres`` is
    ``postgres``, as ``post\u200bgres`` is. One a script joins with stays (a Persian ``یادداشت\u200cها``, an
    emoji sequence 👨\u200d👩\u200d👦): the tokenizer reads it."""
    out, last = [], 0
    for index in places_of(text, JOINERS):
        before, after = text[index - 1:index], text[index + 1:index + 2]
        if before and after and _kind(before) == _KEEP and _kind(after) == _KEEP and _joins(before, after):
            continue
        out.append(text[last:index])
        last = index + 1
    out.append(text[last:])
    return "".join(out)


def _escape(char: str) -> str:
    if char in "\n\r":
        return "\\n" if char == "\n" else "\\r"
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str | None) -> str:
    """``text`` on one line with nothing hidden: every character :func:`one_line` would drop or break
    on (controls, line breaks, hidden characters: :func:`unhidden`) shown as its escape
    (``\\u200b``, ``\\x1b``, ``\\n``), so what a person typed is echoed as typed (a search query
    that found nothing must not look like a word that should have). ``None`` → ``""``."""
    if not text:
        return ""
    if is_clean_line(text):
        return text
    if any(c in LINE_BREAKS for c in text):
        text = "".join(_escape(c) if c in LINE_BREAKS else c for c in text)
    return unhidden(text.replace("\t", "\\t") if "\t" in text else text, shown=_escape)


def clean_line(text: str) -> tuple[str, int, int]:
    """``(one_line(text), line breaks collapsed, other characters removed)``:
    the gateway's form, so a write can say what it changed."""
    if is_clean_line(text):
        return text.strip(), 0, 0
    import re

    breaks = sum(1 for _ in re.finditer(f"[{LINE_BREAKS}]+", text.strip()))
    unbroken = "".join(c for c in text if c not in LINE_BREAKS)
    return one_line(text), breaks, len(unbroken) - len(unhidden(unbroken))


def clean_body(text: str) -> tuple[str, int, int]:
    """``(printable(text), line breaks made newlines, characters removed)`` for the gateway, so a write
    says what it changed. A line end of another system — ``\\r\\n`` (Windows) or a lone ``\\r`` (classic
    Mac OS) — becoming ``\\n`` is normalization and counted in neither; the other breaks (``\\v \\f``, the
    separators ``\\x1c``–``\\x1e``, NEL, U+2028, U+2029) are the middle count. Removed: each control or bidi
    character (a terminal escape sequence counts once, for its ``ESC``)."""
    text = text.replace("\r\n", "\n")
    cleaned = printable(text)
    if cleaned == text.replace("\r", "\n"):  # nothing but line ends normalized (or nothing at all)
        return cleaned, 0, 0
    import re

    breaks = len(re.findall(_OTHER_BREAKS, text))
    normal = re.sub(_BODY_BREAKS, "\n", text)
    removed = len(normal) - len(unhidden(normal, body=True))
    if len(cleaned) < len(text):  # something went: an escape's text after its ESC, at least one
        removed = max(1, removed)
    return cleaned, breaks, removed


__all__ = ["BIDI_CONTROLS", "IGNORABLE", "INVISIBLE", "JOINERS", "LINE_BREAKS", "LINE_CHARS", "VARIATION_SELECTORS", "WORD_CHARS", "breaks_read", "clean_body",
           "clean_line", "display_title", "is_clean_line", "one_line", "places_of", "printable", "printable_map", "said_line", "trimmed_body",
           "unhidden", "utf8_prefix", "visible", "well_formed", "without_hidden"]
