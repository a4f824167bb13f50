"""A search's filters: what it may return by type, origin, pin and update time, applied in the SQL before ranking.

Split from :mod:`memdir.search.ranking` (which uses and re-exports :class:`Filters`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import InvalidInput
from ..vocabulary import ORIGINS, TYPES


@dataclass(frozen=True)
class Filters:
    """What a search may return, applied in the SQL before ranking: memory
    ``types`` and ``origins`` (empty: any), ``pinned`` (None: either), and
    the last update (or creation) time ``since``/``until`` in Unix seconds
    (a memory with no recorded time passes neither). Build from user input
    with :meth:`parse`."""

    types: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()
    pinned: bool | None = None
    since: float | None = None
    until: float | None = None

    @classmethod
    def parse(cls, types=None, origins=None, pinned=None, since=None, until=None) -> "Filters":
        """Filters from names and ISO-8601 dates or times (``2026-11-01``,
        ``2026-11-01T12:00:00Z``; a date alone is midnight UTC). ``types`` and
        ``origins`` take a string or a list. Raises :class:`InvalidInput`
        naming the bad value and what is allowed."""
        def names(value, allowed, what):
            if value is None:
                return ()
            items = (value,) if isinstance(value, str) else tuple(value)
            for item in items:
                if item not in allowed:
                    raise InvalidInput(f"unknown {what} {item!r} (one of: {', '.join(allowed)})")
            return tuple(dict.fromkeys(items))

        if pinned is not None and not isinstance(pinned, bool):
            raise InvalidInput("pinned must be true or false")
        since_t, until_t = _when(since, "since"), _when(until, "until")
        if since_t is not None and until_t is not None and since_t > until_t:
            raise InvalidInput("since is after until")
        return cls(names(types, TYPES, "type"), names(origins, ORIGINS, "origin"), pinned, since_t, until_t)

    def sql(self) -> tuple[str, list]:
        """``(" AND …", arguments)`` over the ``docs`` alias ``d``; ``("", [])`` for none. An ``updated``
        after now is read as now (:func:`memdir.layer.index.read_as_now`, SQLite's ``MIN``)."""
        parts, args = [], []
        if self.types:
            parts.append(f"d.type IN ({','.join('?' * len(self.types))})")
            args += self.types
        if self.origins:
            parts.append(f"d.origin IN ({','.join('?' * len(self.origins))})")
            args += self.origins
        if self.pinned is not None:
            parts.append("d.pinned = ?")
            args.append(int(self.pinned))
        if self.since is not None:
            parts.append("MIN(d.updated, ?) >= ?")
            args += [time.time(), self.since]
        if self.until is not None:
            parts.append("MIN(d.updated, ?) <= ?")
            args += [time.time(), self.until]
        return ("".join(" AND " + p for p in parts), args)


def _when(value, what: str) -> float | None:
    from datetime import datetime, timezone

    if value is None or value == "":
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be an ISO-8601 date such as 2026-11-01")
    text = value.strip()
    try:
        stamp = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    except ValueError:
        raise InvalidInput(f"{what} must be an ISO-8601 date such as 2026-11-01 (got {value!r})") from None
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=timezone.utc)
    return stamp.timestamp()


__all__ = ["Filters"]
