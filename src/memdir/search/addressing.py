"""The IPv6 module's two entry points for the tokenizer and the reader of terms, loading :mod:`memdir.search.ipv6`
only for a text that may hold an address (hot46: the prompt hook loaded it for every prompt, most holding none).
Pure, standard library only."""

from __future__ import annotations

from .versions import ADDRESS_MARK


def addresses(text: str) -> list:
    """:func:`memdir.search.ipv6.addresses` of ``text``; ``[]`` without loading that module for a text with no
    colon (no address is written without one)."""
    if ":" not in text:
        return []
    from .ipv6 import addresses as found

    return found(text)


def written(term: str) -> str:
    """:func:`memdir.search.ipv6.written` of ``term``; ``term`` itself without loading that module for one that does
    not begin with :data:`~memdir.search.versions.ADDRESS_MARK` (no address's term)."""
    if not term.startswith(ADDRESS_MARK):
        return term
    from .ipv6 import written as shown

    return shown(term)


__all__ = ["addresses", "written"]
