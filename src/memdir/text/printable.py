"""What stored text may carry to a terminal or a prompt (DESIGN §3, §1.5).

Two rules, applied at write time by the gateway (with a warning) and again
by every renderer — ``MEMORY.md``, the context block, the tools' and the
CLI's text — so a hand-edited file is held to them too:

* **One-line fields** (name, title, description, and anything shown on one
  line) hold no invisible character (:data:`INVISIBLE`) and never a line break of any kind a common reader splits on:
  ``\\r \\n \\v \\f``, the file/group/record separators ``\\x1c``–``\\x1e``
  (Python's ``str.splitlines``), U+0085 NEL, U+2028 LINE SEPARATOR and
  U+2029 PARAGRAPH SEPARATOR. :func:`one_line` collapses each run of them,
  with the spaces around it, into one space.
* **Nothing rendered carries a control character or a bidi override**:
  terminal escape sequences (``ESC [ 31 m``, ``ESC ] … BEL`` terminated on
  its line) are dropped whole, an unterminated string introducer alone, every other C0 control but tab and newline, DEL, every C1 control,
  and the bidi embeddings, overrides and isolates (U+202A–U+202E,
  U+2066–U+2069: "Trojan Source", CVE-2021-42574) and the Unicode tag
  characters (:data:`TAGS`, "ASCII smuggling"). Bodies keep tabs and
  newlines; their other line breaks become ``\\n`` (:func:`printable`).

Pure functions with no imports beyond ``re``: the hot path (the context
block on every hook) uses them. The patterns are kept as text and compiled on
first use (``re``'s own cache): compiling them all costs more than a context
block of clean lines, which needs none (:func:`are_clean_lines`).
"""

from __future__ import annotations

# re is imported where a pattern is needed, never at import: the hot path (a hook, `memdir context`)
# imports this module, and text of printable ASCII (most of it) needs no pattern.

LINE_BREAKS = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Unicode tag characters (U+E0000-U+E007F): invisible copies of ASCII that some models read
# ("ASCII smuggling"), so hidden instructions could ride in a title or body. Never rendered.
TAGS = "\U000e0000-\U000e007f"
# Characters that show as nothing: bidi marks (LRM, RLM, ALM), zero-width space, word
# joiner, BOM, soft hyphen, combining grapheme joiner, the Hangul fillers, the deprecated
# Khmer inherent vowels, invisible math operators, deprecated format characters, the
# interlinear annotation marks (U+FFF9-U+FFFB) and the musical formatting marks. Dropped from one-line fields (names, titles, descriptions), so
# two titles that look alike are alike; bodies keep them (some scripts need them). ZWJ/ZWNJ,
# variation selectors and Mongolian's separators stay. One character each, no ranges:
# names.raw_name translates them one by one.
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
_BREAKS = f"[ \t]*[{LINE_BREAKS}]+[ \t]*"
_BODY_BREAKS = "\r\n|[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]"
_OTHER_BREAKS = "[\v\f\x1c\x1d\x1e\x85\u2028\u2029]"  # a body's line breaks that are no system's line end
# Controls a body may not keep (tab and newline stay), DEL, C1, bidi controls.
_CONTROLS = f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}{TAGS}]"
_LINE_CONTROLS = f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}{INVISIBLE}{TAGS}]"
# Anything either rule would change: one C-level search decides the fast path.
_UNSAFE = f"[\x00-\x08\x0b-\x1f\x7f-\x9f{LINE_BREAKS}{BIDI_CONTROLS}{INVISIBLE}{TAGS}]"
_UNSAFE_BODY = f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}{TAGS}\u2028\u2029]"


def is_clean_line(text: str) -> bool:
    """True when ``text`` holds no line break, control or bidi control."""
    import re

    return re.search(_UNSAFE, text) is None


# The characters is_clean_line refuses that str.isprintable() accepts (fillers, joiners).
_PRINTABLE_UNSAFE = frozenset(c for c in {*INVISIBLE, *LINE_BREAKS, *BIDI_CONTROLS} if c.isprintable())


def are_clean_lines(text: str) -> bool:
    """True when every ``\n``-separated line of ``text`` is clean (:func:`is_clean_line`), so
    :func:`one_line` of each is the line stripped. The same answer as the regular expression, in
    C-level scans for the common text (a 2 MB ``MEMORY.md`` in a few milliseconds)."""
    flat = text.replace("\n", "").replace("\t", "")
    if flat.isprintable():  # no control, break, bidi or tag character; only printable ones to rule out
        return flat.isascii() or _PRINTABLE_UNSAFE.isdisjoint(flat)  # every one of those is beyond ASCII
    import re

    return re.search(_UNSAFE, text.replace("\n", " ")) is None


def one_line(text: str | None) -> str:
    """``text`` safe to show on one line: every run of line breaks (and the
    spaces and tabs around it) becomes one space, escape sequences, other
    controls and bidi controls are dropped, ends are stripped. ``None`` → ``""``."""
    if not text:
        return ""
    if text.isascii() and text.isprintable():  # printable ASCII: no control or break; the common case,
        return text.strip()  # without loading re
    import re

    if re.search(_UNSAFE, text) is None:
        return text.strip()
    text = re.sub(_ESCAPE, "", text)
    text = re.sub(_BREAKS, " ", text)
    return re.sub(_LINE_CONTROLS, "", text).strip()


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
    becomes ``\\n``, escape sequences, other controls (tab and newline stay)
    and bidi controls are dropped. ``None`` → ``""``."""
    if not text:
        return ""
    if text.isascii() and text.isprintable():  # as one_line's
        return text
    import re

    if re.search(_UNSAFE_BODY, text) is None:
        return text
    text = re.sub(_ESCAPE, "", text)
    text = re.sub(_BODY_BREAKS, "\n", text)
    return re.sub(_CONTROLS, "", text)


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
# (the picture a person chose), as it keeps ZWJ and ZWNJ (which a search reads as a break between words).
VARIATION_SELECTORS = "\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef"
# What shows as nothing and joins what it sits in: a search reads text as if it were absent.
_HIDDEN = f"[{BIDI_CONTROLS}{INVISIBLE}{TAGS}{VARIATION_SELECTORS}]"


def without_hidden(text: str) -> str:
    """``text`` without the characters that show as nothing (:data:`INVISIBLE`, bidi controls, tags) or choose only
    how the character before them is drawn (:data:`VARIATION_SELECTORS`): ``stag\u200bing`` and ``staging\ufe0f``
    → ``staging``, as a person reads it, and without terminal escape sequences, dropped
    whole by the rule every renderer applies (pasted colour output: ``ESC[31mkafka ESC[0m`` → ``kafka``).
    The search tokenizer's rule, for documents and queries alike. Pure."""
    if text.isascii() and "\x1b" not in text:
        return text
    import re

    if text.isascii():
        return re.sub(_ESCAPE, "", text)
    return re.sub(_HIDDEN, "", re.sub(_ESCAPE, "", text))


def _escape(char: str) -> str:
    if char in "\n\r":
        return "\\n" if char == "\n" else "\\r"
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str | None) -> str:
    """``text`` on one line with nothing hidden: every character :func:`one_line` would drop or break
    on (controls, line breaks, bidi controls, :data:`INVISIBLE`, tags) shown as its escape
    (``\\u200b``, ``\\x1b``, ``\\n``), so what a person typed is echoed as typed (a search query
    that found nothing must not look like a word that should have). ``None`` → ``""``."""
    if not text:
        return ""
    import re

    if re.search(_UNSAFE, text) is None:
        return text
    return re.sub(_UNSAFE, lambda m: _escape(m.group()), text)


def clean_line(text: str) -> tuple[str, int, int]:
    """``(one_line(text), line breaks collapsed, other characters removed)``:
    the gateway's form, so a write can say what it changed."""
    import re

    if re.search(_UNSAFE, text) is None:
        return text.strip(), 0, 0
    breaks = sum(1 for _ in re.finditer(f"[{LINE_BREAKS}]+", text.strip()))
    removed = sum(1 for c in text if c not in LINE_BREAKS and re.match(_LINE_CONTROLS, c))
    return one_line(text), breaks, removed


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
    removed = len(re.findall(_UNSAFE_BODY, text)) - breaks - text.count("\r")
    if len(cleaned) < len(text):  # something went: an escape's text after its ESC, at least one
        removed = max(1, removed)
    return cleaned, breaks, removed


__all__ = ["BIDI_CONTROLS", "INVISIBLE", "LINE_BREAKS", "LINE_CHARS", "VARIATION_SELECTORS", "WORD_CHARS", "clean_body",
           "clean_line", "display_title", "is_clean_line", "one_line", "printable", "said_line", "trimmed_body",
           "utf8_prefix", "visible", "well_formed", "without_hidden"]
