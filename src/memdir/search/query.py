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
    """``query`` as given when it is text (``str``) holding a non-blank character. Raises
    :class:`InvalidInput`: ``"query must be text (got bytes)"`` for anything else,
    ``"query is empty"`` for ``""`` or whitespace alone."""
    if not isinstance(query, str):
        raise InvalidInput(f"query must be text (got {type(query).__name__})")
    if not query.strip():
        raise InvalidInput("query is empty")
    return query


def checked_prompt(prompt) -> str:
    """``prompt`` as given when it is text (``str``; blank is allowed: it recalls nothing). Raises
    :class:`InvalidInput` ``"prompt must be text (got int)"`` for anything else."""
    if not isinstance(prompt, str):
        raise InvalidInput(f"prompt must be text (got {type(prompt).__name__})")
    return prompt


__all__ = ["checked_query", "checked_prompt"]
