"""Compare-and-set: a change is made only on the version of a memory its caller read (DESIGN §1.2).

A caller that read a memory (a page of the panel, an edit, a promotion, consolidation's snapshot)
passes the digest it read — SHA-256 of the file's bytes, :attr:`memdir.files.scan.Entry.digest` — as
``expect_digest``; every gateway change that takes one (write, delete, pin, mute, restore) asks
:func:`unchanged` inside its transaction, before it changes anything, so a change asked on a page loaded
before another process wrote the memory never lands on the version the person did not see.
"""

from __future__ import annotations

from ..errors import Conflict, InvalidInput
from ..files.scan import Entry

NO_CHECK = False
"""``expect_digest`` not given: the change is made on whatever version is there (the default)."""

MIN_DIGEST = 12  # hex digits of a digest a person may type instead of all 64 (review's, history's)


def typed(given: str, digest: str) -> bool:
    """Whether ``given``, a digest a person typed (all 64 hex digits or a prefix of at least :data:`MIN_DIGEST`,
    any case, spaces around), names ``digest``. Raises :class:`InvalidInput` for a shorter one, and for one that
    is no digest: a character not a hex digit, more than 64 digits (refused before as a digest that changed)."""
    given = given.strip().lower()
    if len(given) > 64 or given.strip("0123456789abcdef"):
        raise InvalidInput(f"digest {given[:80]!r} is not a digest: give the one memdir showed "
                           f"({MIN_DIGEST} to 64 hex digits)")
    if len(given) < MIN_DIGEST:
        raise InvalidInput(f"digest {given!r} is too short: give the digest memdir showed "
                           f"(at least {MIN_DIGEST} hex digits)")
    return digest.startswith(given)


def unchanged(entry: Entry | None, expected: str | None | bool, name: str, change: str) -> None:
    """Refuse ``change`` (a noun: ``"write"``, ``"delete"``, ``"pin"``…) of memory ``name`` unless its file
    is still the version the caller read. ``entry``: the memory as the transaction finds it now (None: no
    such file); ``expected``: :data:`NO_CHECK` (False: nothing checked), the digest read (64 hex digits), or
    None (there was no such memory when read). Raises :class:`Conflict` naming the memory and its digest
    now (``memory``, ``current``), saying the change was not made; nothing is changed. Raises
    :class:`InvalidInput` for an ``expected`` of another kind (True, a number)."""
    if expected is NO_CHECK:
        return
    if expected is not None and not isinstance(expected, str):
        raise InvalidInput(f"expect_digest must be the digest read (text), None or False (got {expected!r})")
    now = entry.digest if entry is not None else None
    if now == expected:
        return
    since = "was deleted" if now is None else "was written" if expected is None else "changed"
    raise Conflict(f"memory {name!r} {since} since it was read; the {change} was not made: re-read it and try again",
                   memory=name, current=now)


__all__ = ["MIN_DIGEST", "NO_CHECK", "typed", "unchanged"]
