"""Counts in what a person reads: ``1 memory``, ``2 memories`` — the one rule every printed count uses
(a verb agreeing with the count: :mod:`memdir.text.agreement`).

Pure, standard library only.
"""

from __future__ import annotations

IRREGULAR = {"memory": "memories", "directory": "directories", "entry": "entries", "match": "matches"}
"""Nouns whose plural is not the noun and ``s``. A verb agreeing with a count is
:func:`memdir.text.agreement.agreeing`'s rule."""


def plural(count: int, noun: str) -> str:
    """``noun`` as it agrees with ``count``: itself for exactly 1, else its plural (:data:`IRREGULAR`,
    else ``noun + "s"``); of a phrase only the last word agrees (``layer of projects`` is not one).
    Example: ``plural(2, "memory")`` → ``"memories"``."""
    if count == 1:
        return noun
    head, _, last = noun.rpartition(" ")
    return (head + " " if head else "") + IRREGULAR.get(last, last + "s")


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun`` agreeing with it: ``counted(1, "memory")`` → ``"1 memory"``,
    ``counted(0, "memory")`` → ``"0 memories"`` (:func:`plural`)."""
    return f"{count} {plural(count, noun)}"


__all__ = ["IRREGULAR", "counted", "plural"]
