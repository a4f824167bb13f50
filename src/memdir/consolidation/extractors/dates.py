"""Relative dates made absolute from the message time (DESIGN §7: "write dates as absolute dates").

"next Friday" → "next Friday (2026-12-04)": "next <weekday>" is that weekday
in the following Monday-based week, "this/on/by <weekday>" the next such day
from the message date; "tomorrow", "in 3 days", "end of the month", "next
month" and their Chinese forms (明天, 下周五, 3天后, 下个月) likewise. Pure.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

_I = re.I
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_DAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

def _day(ref: datetime, days: int) -> str:
    return (ref + timedelta(days=days)).strftime("%Y-%m-%d")


def _weekday_offset(ref: datetime, weekday: int, next_week: bool) -> int:
    if next_week:
        # "next Friday": the Friday of the following Monday-based week.
        return (7 - ref.weekday()) + weekday
    return (weekday - ref.weekday()) % 7


_REL_EN = re.compile(
    r"\b(the day after tomorrow|tomorrow|today|tonight|yesterday|next week|next month"
    r"|in (\d{1,3}) (day|days|week|weeks)|end of (?:the )?(week|month)"
    r"|(next|this|coming|on|by|until|before) (" + "|".join(_WEEKDAYS) + r"))\b(?! ?\(\d{4}-)", _I)
_REL_ZH = re.compile(r"(后天|明天|今天|昨天|下个?月|(下|本|这)周([一二三四五六日天])|(\d{1,3})天后)")


def absolutize(text: str, ref: datetime | None) -> str:
    """``text`` with each relative date followed by its absolute date in
    parentheses, computed from ``ref`` (the message time, UTC). Unchanged
    when ``ref`` is None. Pure."""
    if ref is None:
        return text
    ref = ref.astimezone(timezone.utc)

    def en(match: re.Match) -> str:
        word = match.group(0)
        low = word.lower()
        if low in ("today", "tonight"):
            date = _day(ref, 0)
        elif low == "tomorrow":
            date = _day(ref, 1)
        elif low == "the day after tomorrow":
            date = _day(ref, 2)
        elif low == "yesterday":
            date = _day(ref, -1)
        elif low == "next week":
            date = "week of " + _day(ref, 7 - ref.weekday())
        elif low == "next month":
            year, month = (ref.year + 1, 1) if ref.month == 12 else (ref.year, ref.month + 1)
            date = f"{year:04d}-{month:02d}"
        elif match.group(2):
            count = int(match.group(2))
            date = _day(ref, count * (7 if match.group(3).lower().startswith("week") else 1))
        elif match.group(4):
            if match.group(4).lower() == "week":
                date = _day(ref, (4 - ref.weekday()) % 7)
            else:
                first_next = (ref.replace(day=1) + timedelta(days=32)).replace(day=1)
                date = (first_next - timedelta(days=1)).strftime("%Y-%m-%d")
        else:
            weekday = _WEEKDAYS.index(match.group(6).lower())
            date = _day(ref, _weekday_offset(ref, weekday, match.group(5).lower() == "next"))
        return f"{word} ({date})"

    def zh(match: re.Match) -> str:
        word = match.group(0)
        fixed = {"今天": 0, "明天": 1, "后天": 2, "昨天": -1}
        if word in fixed:
            date = _day(ref, fixed[word])
        elif word.startswith("下") and word.endswith("月"):
            year, month = (ref.year + 1, 1) if ref.month == 12 else (ref.year, ref.month + 1)
            date = f"{year:04d}-{month:02d}"
        elif match.group(4):
            date = _day(ref, int(match.group(4)))
        else:
            date = _day(ref, _weekday_offset(ref, _ZH_DAYS[match.group(3)], match.group(2) == "下"))
        return f"{word}（{date}）"

    return _REL_ZH.sub(zh, _REL_EN.sub(en, text))


__all__ = ["absolutize"]
