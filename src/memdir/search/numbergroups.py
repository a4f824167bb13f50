"""Numbers written in groups, for :mod:`memdir.search.tokenize` (moved out of it whole, issue 28).

A number with thousands separators is one number (``5,433`` is ``5433``: :data:`GROUPED`, :func:`ungrouped`); a
number written in groups (a phone number, an IBAN, a dotted date) is also its groups run together, whole and each of
its ends (:func:`run_end`); the one-digit groups of a dotted number are no terms of their own
(:func:`within_numbers`: ``port 2`` is no ``v3.2.1``). A two-digit number led by a zero is its digit
(:func:`as_number`: ``09`` of ``09:00`` is ``9``). A date written with its year last is also its ISO digits
(:func:`year_first`: ``04.12.2026`` meets ``2026-12-04``, ``04/12/2026`` both ``2026-04-12`` and
``2026-12-04``). Pure functions of text.
"""

from __future__ import annotations

import re
from datetime import date

_ZERO_LED = re.compile(r"0[1-9]")  # 09 of 09:00 or 2026-02-03: the number 9


def as_number(part: str) -> str:
    """``part`` (a word's digits) as the number it names: a two-digit one led by a zero is its digit (``09`` →
    ``9``), any other as it is. Pure."""
    return part[1] if _ZERO_LED.fullmatch(part) else part


# A number written with thousands separators: 1 to 3 digits, then groups of a comma and 3 digits, not part of a
# longer run of digits and commas (a list such as 1,2,3 or 10,20 is not one number).
GROUPED = re.compile(r"(?<![\d,])\d{1,3}(?:,\d{3})+(?![\d]|,\d)")


def ungrouped(match: re.Match) -> str:
    """A match of :data:`GROUPED` without its commas (``5,433`` → ``5433``), for ``GROUPED.sub``."""
    return match.group(0).replace(",", "")


# A number written in groups: words of digits (hyphenated ones too; a word may begin with letters: an IBAN's DE89) one
# after another, apart by a space, a parenthesis or a plus ("+1 (555) 010-2030", "DE89 3704 0044"), or by dots or
# slashes when there are three groups or more (555.010.2030; 3.14 is a decimal). Up to MAX_GROUPS parts: a longer run
# is a list of numbers, not one.
NUMBER_GROUP = re.compile(r"(?:[^\W\d_]{1,4})?\d+(?:[_\-]+\d+)*")
SPACED = re.compile(r"[ \t()+]{1,3}")
DOTTED = re.compile(r"[./]")
# A number written with dots or slashes between its groups (v3.2.1, 10.0.0.1, 02/11/2026, 3.14, 24/7).
_DOTTED_NUMBER = re.compile(r"(?<![\w./])[^\W\d_]{0,4}\d+(?:[./][^\W\d_]{0,4}\d+)+(?![\w]|[./]\w)")
MAX_GROUPS = 8


def _joins(groups: list[tuple[str, ...]], dotted: bool) -> list[tuple[str, tuple[str, ...]]]:
    """``(joined token, the tokens it joins)`` of a run of number groups (each its parts as written,
    :func:`memdir.search.wordterms.read_word`): the whole run written together and each of its ends of two parts or more,
    a group's hyphenated parts counted apart (``+1 (555) 010-2030`` → ``15550102030``, ``5550102030``,
    ``0102030``), its digits as written (``02.11.2026`` → ``02112026``, joining the tokens ``2 11 2026``), a
    version's without its letter (``v3.2.1`` is also ``321``); none for one part, a dotted pair (``3.14``) or a run
    of over :data:`MAX_GROUPS` parts."""
    parts = [t for written in groups for t in written]
    if len(parts) < 2 or len(parts) > MAX_GROUPS or (dotted and len(groups) < 3):
        return []
    if dotted and parts[0][:1].isalpha() and parts[0][1:].isdigit():  # v3.2.1: the version 3.2.1
        return [("".join(parts), tuple(parts)), *_joins([(parts[0][1:],), *groups[1:]], True)]
    return [("".join(parts[start:]), tuple(map(as_number, parts[start:]))) for start in range(len(parts) - 1)]


def within_numbers(text: str, versions: set[int] = frozenset()) -> frozenset[int]:
    """Where the one-digit groups of ``text``'s dotted numbers (:data:`_DOTTED_NUMBER`) start: no terms (``port 2``
    is no ``v3.2.1``, its other groups and joins say it, :func:`_joins`) but in a pair of them (``1/2``) that starts
    no version of ``versions`` (``1.5`` is its term ``1⋅5``: :func:`~memdir.search.versions.dotted_versions`)."""
    out: set[int] = set()
    for match in _DOTTED_NUMBER.finditer(text):
        groups = [(m.start(), m.group()) for m in re.finditer(r"[^./]+", match.group())]
        lone = [match.start() + at for at, g in groups if len(as_number(g)) == 1]
        if len(lone) < len(groups) or len(groups) > 2 or match.start() in versions:
            out.update(lone)
    return frozenset(out)


def run_end(run: list[tuple[tuple[str, ...], tuple[str, ...]]], dotted: bool, groups: dict | None) -> list[str]:
    """The joined tokens a finished ``run`` of number groups adds (each ``(its parts as written, its tokens)``;
    ``dotted`` when a dot or slash stood between two of them: :func:`_joins`), those its words gave left out; with
    ``groups``, each joined token's parts are recorded there (:func:`memdir.search.tokenize.compound_groups`)."""
    have = {t for _, toks in run for t in toks}
    added = []
    for joined, parts in _joins([written for written, _ in run], dotted):
        if joined not in have:
            added.append(joined)
            have.add(joined)
        if groups is not None:
            groups.setdefault(joined, parts)
    return added


# A date written with its year last (04.12.2026, 12/04/2026, 4/12/2026, 04-12-2026): day or month, the same dot,
# slash or hyphen, a day or month, the year of four digits; or with its year first and a month or day of one digit
# (2026-4-12, 2026/4/12: the ISO digits its groups run together are not, 2026412). No word or dotted group on
# either side.
_YEAR_LAST = re.compile(r"(?<![\w./-])(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?![\w]|[./-]\w)")
_YEAR_FIRST = re.compile(r"(?<![\w./-])(\d{4})([./-])(\d{1,2})\2(\d{1,2})(?![\w]|[./-]\w)")


def year_first(text: str) -> list[tuple[int, list[str]]]:
    """``(where a date ends, its terms)`` for each date of ``text`` written otherwise than ISO's year, month and
    day of two digits (:data:`_YEAR_LAST`, :data:`_YEAR_FIRST`): the date as the ISO form ``2026-12-04`` joins it,
    ``20261204``, so it meets that date written any way (vers20: ``04.12.2026`` met ``2026-12-04`` only by
    ``2026`` and ``12``, as ``2026-12-05`` did; vers22: ``2026-4-12`` was ``2026412``, no ``2026-04-12``).
    With dots the day comes first (``04.12.2026``, as the countries writing dates with dots do); with slashes or
    hyphens (``04/12/2026``: 4 December in the UK, April 12 in the US) each order that is a date of the calendar
    (:class:`datetime.date`), both when both are (``04/12/2026`` → ``20260412``, ``20261204``), one when one is
    (``13/04/2026`` → ``20260413``; ``04/13/2026`` the same day), so either ISO date finds it; year first, the
    month comes second. No term for a date the calendar has not (``13.13.2026``, ``31/04/2026``,
    ``29/02/2026``). Pure."""
    out = []
    for match in _YEAR_LAST.finditer(text):
        first, sep, second, year = int(match[1]), match[2], int(match[3]), int(match[4])
        readings = [(second, first)] if sep == "." else [(first, second), (second, first)]
        terms = list(dict.fromkeys(_iso(year, month, day) for month, day in readings if _iso(year, month, day)))
        if terms:
            out.append((match.end(), terms))
    for match in _YEAR_FIRST.finditer(text):
        if (len(match[3]) == 1 or len(match[4]) == 1) and (term := _iso(int(match[1]), int(match[3]), int(match[4]))):
            out.append((match.end(), [term]))
    return sorted(out)


def _iso(year: int, month: int, day: int) -> str:
    """``20261204`` for a day the calendar has (:class:`datetime.date`), else ``""``."""
    try:
        date(year, month, day)
    except ValueError:
        return ""
    return f"{year:04d}{month:02d}{day:02d}"


__all__ = ["DOTTED", "GROUPED", "MAX_GROUPS", "NUMBER_GROUP", "SPACED", "as_number", "run_end", "ungrouped",
           "within_numbers", "year_first"]
