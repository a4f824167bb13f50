"""What a search query and a recall prompt must be: the one rule every path keeps (audit 18).

An explicit search (``Memory.search``, ``memdir search``, ``memory_search``, the panel) asks for
something: its query is text holding a non-blank character, else :class:`InvalidInput` — a
person or a model gets "query is empty" rather than an empty list that reads as "nothing
matches". A recall prompt is what a person typed, passed on by a hook or a command: it too must
be text, but a blank one simply recalls nothing (a hook's empty prompt is no mistake). The
adapters translate (exit 1 and the message on stderr, a tool error, a hook's stderr line),
never decide.
"""

from __future__ import annotations

from ..errors import InvalidInput


def checked_query(query) -> str:
    """``query`` as given when it is text (``str``) holding a non-blank character that search reads
    (:func:`memdir.text.printable.without_hidden`). Raises :class:`InvalidInput`: ``"query must be text
    (got bytes)"`` for anything else, ``"query is empty"`` for ``""`` or whitespace alone, and ``"query is
    empty (it holds only characters that show as nothing, such as U+200B)"`` for one of zero-width spaces,
    word joiners, bidi controls, terminal escapes and the like, which every search reads as absent (it ran,
    and said "No memories match" as though a word had been looked for)."""
    if not isinstance(query, str):
        raise InvalidInput(f"query must be text (got {type(query).__name__})")
    if not query.strip():
        raise InvalidInput("query is empty")
    if not query.isascii() or "\x1b" in query:
        from ..text.printable import without_hidden

        if not without_hidden(query).strip():
            shown = next((ch for ch in query if not ch.isspace()), " ")
            raise InvalidInput("query is empty (it holds only characters that show as nothing, such as "
                               f"U+{ord(shown):04X})")
    return query


def checked_prompt(prompt) -> str:
    """``prompt`` as given when it is text (``str``; blank is allowed: it recalls nothing). Raises
    :class:`InvalidInput` ``"prompt must be text (got int)"`` for anything else."""
    if not isinstance(prompt, str):
        raise InvalidInput(f"prompt must be text (got {type(prompt).__name__})")
    return prompt


__all__ = ["checked_query", "checked_prompt"]
