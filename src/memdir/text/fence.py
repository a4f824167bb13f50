"""Escaping that keeps stored text inside the fence it is injected in.

* :func:`escape_fence_tags` turns any ``memory_context``/``memory_recall``/``memory_pending`` tag
  (any case, spaces, attributes, newlines inside: ``</Memory_Context >``,
  ``<memory_context foo=bar>``, ``</memory_context\n>``; seed-behaviour §A7; also one left open
  to the end of the text, ``</memory_recall``, which the text around it may close)
  into ``&lt;…&gt;``, so stored text can never open or close the fence.
* :func:`neutralize_braces` breaks the template openers ``{{``, ``{%`` and ``{#`` so a harness's
  ``{{var}}`` templating (or a Jinja ``{% … %}`` statement, ``{# … #}`` comment) cannot fire on stored
  text (seed-behaviour §A6).
* :func:`escape_stored` is the one rule for stored text on its way to a model: the two above,
  and the harness's own frame — a ``system-reminder`` or ``system`` tag (Claude Code wraps hook
  output in ``<system-reminder>``, which a stored ``</system-reminder>`` would close), a chat
  template's special token (``<|im_start|>``, ``<|endoftext|>``, DeepSeek's ``<｜User｜>``,
  Gemma's ``<start_of_turn>``, Llama's ``[INST]`` — upper case, as its template writes it: an index
  line's link ``[inst](inst.md)`` is no frame — and ``<<SYS>>``) and a line opening with
  ``Human:`` or ``Assistant:`` (a turn of the plain-text chat format; ``User:`` and ``System:`` are
  ordinary text, memdir's own status lines among it) — escaped as entities
  (``&lt;``, ``&gt;``, ``&#91;``, ``&#93;``, ``&#58;``), so the text still reads but frames nothing.
  The context block, the recall block, the pending findings and every tool result (MCP
  ``memory_read``, ``memory_search``, ``memory_list``, the memory tool's ``view`` …) use it.
* :func:`quoted` sets a body apart from the text around it (the recall block, which holds several
  memories; ``memory_read`` and ``memdir read``, whose header and link list surround one): every
  line of it opens with ``>``, so none reads as a line of the output's own — a memory's heading, a
  header field, the "given earlier" pointer, the cut marker — whatever the body holds.
  :func:`unquoted` takes a copy of it back (an edit's old text copied from ``memory_read``).

What is looked for is read through a disguise (:func:`_seen`, one character at a time): NFKC
(full-width ``＜``, ``：``, ``｜``, ``Ｈ``), format and zero-width characters and combining marks
dropped (``<\u200b/system-reminder>``), blank-like characters (the braille blank, the Hangul
filler) read as a space, letters drawn like ASCII letters read as them (Cyrillic ``Hуman``;
:func:`memdir.text.lookalike.ascii_image`) and the angle, bar and colon look-alikes (``‹``, ``∣``,
``∶``) read as what they imitate. What matches is escaped in the text as written — each character
read as ``<``, ``>``, ``[``, ``]`` or a turn's ``:`` becomes its entity — and everything else is
left byte for byte as it was.

The fence tags are escaped at write time too (the gateway), so a stored
value never holds one; the render-time pass catches hand-edited files.
Kept apart from the secret patterns: the hook path imports only this.
"""

from __future__ import annotations

from functools import lru_cache

from .printable import newlines, places_of

# Each pattern is compiled at its first use (re's cache; re itself is imported then), never at import: the
# context's hot path imports this module, and an index line of ASCII without "<" needs only _INST and
# _LINE_START_TURN — an index line of links holding no "NST" and no turn, none.
# A tag left open to the end of the text is a tag too: the text it is put in may close it (the recall block and
# memory_read quote each body line with "> ", so a body ending a line with "</memory_recall" would be shown as
# "</memory_recall\n> …", an end tag XML reads as whole).
_FENCE_TAG = r"(?i)<\s*/?\s*memory_(?:context|recall|pending)[^>]*(?:>|\Z)"
# The harness's frame: its wrapper tags (any case, spaces, attributes) and chat templates' special tokens.
_FRAME_TAG = (r"(?i)<\s*/?\s*(?:system-reminder|system|start_of_turn|end_of_turn)\b[^>]*(?:>|\Z)"
              r"|<\|[^|<>\n]{1,40}\|>|<<\s*/?\s*SYS\s*>>")
# Llama 2's turn markers, the one frame opened by "[": upper case, as the template writes them (İ read as its I), so a
# Markdown link titled in lower case — an index line "- [inst](inst.md) — …" — is a link, not a frame (inject40).
_INST = r"\[\s*/?\s*[I\u0130]NST\s*\]"
# "Hуman" with a Cyrillic у reads as y, a Greek ν as v: both still pass for Human at a glance.
_TURN = r"(?im)^([ \t]*)(h[uvy]man|assistant)([ \t]*):"
_LINE_START_TURN = r"(?i)(?:h[uvy]man|assistant)[ \t]*:"  # a quick look before the line-by-line one
# The four characters other than ASCII letters that a case-blind pattern (``re.IGNORECASE``) takes for
# an ASCII letter and str.lower leaves apart (İ ı ſ K; tests/text/test_fence_disguise.py): a reading
# holding one is matched against the patterns whatever its lower case holds.
_FOLDS_APART = frozenset("\u0130\u0131\u017f\u212a")
_ENTITY = {"<": "&lt;", ">": "&gt;", "[": "&#91;", "]": "&#93;"}
# Characters NFKC leaves alone that are drawn like the frame's punctuation, or blank.
_DRAWN_LIKE = {**dict.fromkeys("‹˂ᐸ〈⟨❮⧼〈", "<"), **dict.fromkeys("›˃ᐳ〉⟩❯⧽〉", ">"),
               **dict.fromkeys("∣ǀ│┃￨", "|"), **dict.fromkeys("∶꞉˸ː", ":"),
               **dict.fromkeys("\u2800\u3164\uffa0\u115f\u1160\U0001d159", " ")}


# Every character that can be read as what opens a tag or a token ("<", "[") or ends a turn (":"): ASCII,
# those NFKC makes one of them (the whole list), and the look-alikes above. Text holding none is left as it is.
_OPENERS = ("[<\\[:\u2a74\ufe13\ufe47\ufe55\ufe64\uff1a\uff1c\uff3b"
            + "".join(ch for ch, seen in _DRAWN_LIKE.items() if seen in "<:") + "]")


_ASCII = frozenset(map(chr, range(128)))  # the characters read as written, whatever the text around them

# Punctuation read as written (no NFKC form, no look-alike) that stored text holds often: every index
# line's "—" among them. Answered without loading unicodedata or the look-alike table.
_AS_WRITTEN = frozenset("\u2013\u2014\u2018\u2019\u201c\u201d\u00ab\u00bb\u00b7\u2022")


@lru_cache(maxsize=4096)
def _seen(ch: str) -> str:
    """What one non-ASCII character is read as when looking for a tag or a turn (see the module
    docstring): "" for a format character or a combining mark, else its NFKC form with look-alikes read."""
    if ch in _DRAWN_LIKE:
        return _DRAWN_LIKE[ch]
    if ch in _AS_WRITTEN:
        return ch
    import unicodedata  # late: text of ASCII and common punctuation never needs it

    if unicodedata.category(ch) in ("Cf", "Cn", "Mn", "Me"):  # Cn: perhaps a later Unicode's format control
        return ""
    from .lookalike import ascii_image  # late: ASCII text (most of it) never needs the table

    out = []
    for part in unicodedata.normalize("NFKC", ch):
        if part.isascii():
            out.append(part)
        elif unicodedata.category(part) in ("Cf", "Mn", "Me"):
            continue
        else:
            out.append(_DRAWN_LIKE.get(part) or ascii_image(part) or part)
    return "".join(out)


def _view(text: str) -> tuple[str, list[int] | None]:
    """``text`` as :func:`_seen` reads it, and the index in ``text`` of each of its characters
    (None: the same text, ASCII)."""
    if text.isascii():
        return text, None
    changed = {ch for ch in set(text).difference(_ASCII) if _seen(ch) != ch}
    if not changed:  # the common case: accents, dashes, other scripts read as written
        return text, None
    places = places_of(text, changed)  # where each changed character stands
    view, source, last = [], [], 0
    for index in places:
        view.append(text[last:index])
        source.extend(range(last, index))
        seen = _seen(text[index])
        view.append(seen)
        source.extend([index] * len(seen))
        last = index + 1
    view.append(text[last:])
    source.extend(range(last, len(text)))
    return "".join(view), source


def _escape(text: str, tags: tuple[str, ...], turns: bool) -> str:
    """``text`` with every match of ``tags`` (patterns) (and, when ``turns``, every line-initial turn) in
    its disguise-free reading escaped in the text as written."""
    # The common case: nothing can open a frame, nothing is read.
    if "<" not in text and "[" not in text and ":" not in text:
        if text.isascii():
            return text
        import re

        if re.search(_OPENERS, text) is None:
            return text
    view, source = _view(text)
    if "<" not in view and "[" not in view and (not turns or ":" not in view):
        return text
    at = (lambda i: i) if source is None else source.__getitem__
    # _INST matches only where the reading holds "NST"; a case-blind pattern only where the reading's lower case
    # (spaces and tabs, which a turn may hold before its colon, dropped) holds its words: a line of [links]
    # holding no "NST", or a colon after
    # no "man"/"assistant", compiles no pattern (a fresh `memdir context` would compile both: more than the
    # rest of its block's escaping). None: a reading holding a character of _FOLDS_APART.
    folded = (None if not view.isascii() and not _FOLDS_APART.isdisjoint(view)
              else view.lower().replace(" ", "").replace("\t", ""))
    edits: dict[int, str] = {}
    for pattern in tags:
        if (pattern == _INST and ("[" not in view or "NST" not in view)) or (
                pattern != _INST and "<" not in view):
            continue  # each pattern opens with its character: a line of [links] runs only the one it may hold
        import re

        for found in re.finditer(pattern, view):
            for position in range(found.start(), found.end()):
                entity = _ENTITY.get(view[position])
                if entity:
                    edits[at(position)] = entity
    if turns and ":" in view and (folded is None or "man:" in folded or "assistant:" in folded) and _search(
            _LINE_START_TURN, view):
        import re

        for found in re.finditer(_TURN, view):
            edits[at(found.end() - 1)] = "&#58;"
    if not edits:
        return text
    out, last = [], 0
    for index in sorted(edits):  # the text between the edits as slices, not one character at a time
        out.append(text[last:index])
        out.append(edits[index])
        last = index + 1
    out.append(text[last:])
    return "".join(out)


def _search(pattern: str, text: str):
    """``re.search(pattern, text)``, re imported only now (see the patterns above)."""
    import re

    return re.search(pattern, text)


def escape_fence_tags(text: str) -> str:
    """Escape every ``memory_context``/``memory_recall``/``memory_pending`` tag (also one in disguise:
    the module docstring) as ``&lt;…&gt;``."""
    return _escape(text, (_FENCE_TAG,), False)


def escape_tag(text: str, name: str) -> str:
    """Escape every ``<name>`` / ``</name>`` tag (any case, spaces, attributes, one left open to the end; also in
    disguise: the module docstring) as ``&lt;…&gt;``: a fence of a prompt's own that stored or quoted text is put
    in (the extraction prompt's ``<transcript>``: :mod:`memdir.consolidation.extractors.llm`). ``name``: a tag
    name of ASCII letters, digits, ``_`` and ``-``."""
    return _escape(text, (rf"(?i)<\s*/?\s*{name}(?![\w-])[^>]*(?:>|\Z)",), False)


_TEMPLATE_OPENERS = ("{{", "{%", "{#")  # a template's expression, statement and comment (Jinja, Django, Liquid, Mustache)


def neutralize_braces(text: str) -> str:
    """Break every template opener — ``{{``, ``{%``, ``{#`` — with a space after its brace (``{ {``,
    ``{ %``, ``{ #``) until none is left (any run length), so a harness's ``{{var}}`` templating, or a
    Jinja statement or comment, cannot fire on stored text (left32: ``{%`` and ``{#`` went through)."""
    while any(opener in text for opener in _TEMPLATE_OPENERS):
        for opener in _TEMPLATE_OPENERS:
            text = text.replace(opener, "{ " + opener[1])
    return text


def escape_stored(text: str) -> str:
    """``text`` safe to put before a model (see the module docstring): fence tags, ``system-reminder``,
    ``system`` and turn tags and special tokens as ``&lt;…&gt;`` (``[INST]`` as ``&#91;INST&#93;``), a
    line-initial ``Human:``/``Assistant:`` as ``Human&#58;`` — each also in disguise — and ``{{``, ``{%``,
    ``{#`` as ``{ {``, ``{ %``, ``{ #``. Idempotent; text holding none of these is returned as it is, byte for byte."""
    return neutralize_braces(_escape(text, (_FENCE_TAG, _FRAME_TAG, _INST), True))


_UNESCAPE = (("&lt;", "<"), ("&gt;", ">"), ("&#91;", "["), ("&#93;", "]"), ("&#58;", ":"))


def unescaped(shown: str) -> str | None:
    """The stored text that :func:`escape_stored` shows as ``shown`` (a copy of what a tool result
    showed: ``Human&#58; hi`` → ``Human: hi``, ``&lt;system&gt;`` → ``<system>``, ``{ {`` → ``{{``, ``{ %`` →
    ``{%``), or None
    when ``shown`` holds no escape or is not exactly how memdir shows the text it stands for (an entity a
    person typed, a copy cut inside a tag). A disguised character comes back as the one it imitates."""
    raw = shown
    for entity, char in _UNESCAPE:
        raw = raw.replace(entity, char)
    while any("{ " + opener[1] in raw for opener in _TEMPLATE_OPENERS):
        for opener in _TEMPLATE_OPENERS:
            raw = raw.replace("{ " + opener[1], opener)
    return raw if raw != shown and escape_stored(raw) == shown else None


def unquoted(text: str) -> str | None:
    """``text`` copied from :func:`quoted` output, without its marks: each line's leading ``> `` (``>``
    alone on an empty line) removed. The first line may lack the mark (a copy that starts inside a
    line), and an empty line may (its lone ``>`` dropped in the copy); every other line must have it,
    else None (not a copy of quoted text). ``unquoted(quoted(t)) == t``; a text whose only line has no
    mark comes back as it is (a text whose line breaks are all ``\\n``: :func:`quoted` makes each other one ``\\n``)."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if line.startswith("> ") or line == ">":
            out.append(line[2:])
        elif i == 0 or not line:
            out.append(line)
        else:
            return None
    return "\n".join(out)


def quoted(text: str) -> str:
    """``text`` with ``> `` before each line (``>`` alone before an empty one), so that in a block
    holding several memories no line of one memory's body can pass for a line of the block — a
    heading naming another memory, the pointer to memories given earlier, a cut marker. Apply it after
    :func:`escape_stored` (which it does not replace); ``""`` stays ``""``. Every line break a reader splits on
    ends a quoted line (:func:`memdir.text.printable.newlines`): ``memory_read`` of a hand-edited body holding
    U+2028, NEL or a form feed quoted it as one line, and the output's printable pass then broke it into
    lines of which only the first was quoted (break33)."""
    if not text:
        return text
    return "\n".join(f"> {line}" if line else ">" for line in newlines(text).split("\n"))
