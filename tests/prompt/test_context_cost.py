"""The context block costs what fits, not what the index holds (issue 28 item 7): a 10,000-line
``MEMORY.md`` of which a few dozen lines fit the budget escapes a few dozen lines, and the block it
renders is the one the walk over every escaped line renders."""

from __future__ import annotations

import random

import pytest

from memdir.prompt import context
from memdir.prompt.context import layout


def _index(rng: random.Random, count: int, prefix: str) -> str:
    lines = []
    for i in range(count):
        pin = " 📌" if rng.random() < 0.02 else ""
        words = " ".join(rng.choices(["deploy", "port", "redis", "<memory_context>", "{{x}}", "Human: hi",
                                      "staging", "a" * rng.randint(1, 300)], k=rng.randint(1, 12)))
        lines.append(f"- [{prefix}{i}]({prefix}{i}.md){pin} — {words}")
    return "\n".join(lines) + "\n"


def _counting(monkeypatch) -> list[int]:
    calls = [0]
    real = context.escape_stored

    def counted(text):
        calls[0] += 1
        return real(text)

    monkeypatch.setattr(context, "escape_stored", counted)
    return calls


def test_a_10000_line_index_escapes_only_what_the_walk_can_keep(monkeypatch):
    user = "".join(f"- [u{i}](u{i}.md) — user fact {i:05d} of a fair length of words\n" for i in range(10_000))
    project = "".join(f"- [p{i}](p{i}.md) — project fact {i:05d} of a fair length\n" for i in range(10_000))
    calls = _counting(monkeypatch)
    text, shown = layout([("user", user), ("project", project)], 4096)
    assert calls[0] < 200  # before: 20,000 (every line of both indexes)
    (_, user_shown, user_total), (_, project_shown, project_total) = shown
    assert (user_total, project_total) == (10_000, 10_000)
    assert 10 < user_shown < 100 and 10 < project_shown < 100
    assert text.count("](u") == user_shown and "(u0.md)" in text and "(p0.md)" in text  # control: both layers in
    assert f"left out: user {10_000 - user_shown}, project {10_000 - project_shown} —" in text
    assert len(text.encode()) <= 4096


@pytest.mark.parametrize("seed", range(12))
def test_the_bounded_walk_renders_what_escaping_every_line_renders(monkeypatch, seed):
    rng = random.Random(seed)
    sections = [("user", _index(rng, rng.randint(0, 400), "u")), ("team", _index(rng, rng.randint(0, 50), "t")),
                ("project", _index(rng, rng.randint(1, 400), "p"))]
    budget = rng.choice([300, 1024, 4096, 8000, 60_000])
    fast = layout(sections, budget)
    monkeypatch.setattr(context, "are_clean_lines", lambda text: False)  # no lower bounds: each line escaped
    slow = layout(sections, budget)
    assert slow == fast
    assert budget < 1024 or (fast[0].startswith("<memory_context>") and "(p" in fast[0])  # control: not empty


def test_the_quick_cleanliness_check_answers_as_the_rule_does():
    from memdir.text.printable import BIDI_CONTROLS, INVISIBLE, LINE_BREAKS, are_clean_lines, is_clean_line

    base = "- [db](db.md) — Dev PostgreSQL listens on 5433\t(ports)\n- [ü](u.md) — Zürich office, 東京\n"
    assert are_clean_lines(base) and is_clean_line(base.replace("\n", " "))  # control: clean text is clean
    odd = [*INVISIBLE, *LINE_BREAKS.replace("\n", ""), *BIDI_CONTROLS, "\x00", "\x1b", "\x7f", "\x9b",
           "\U000e0041", "\u00a0", "\u3000"]
    for char in odd:
        text = base + f"- [x](x.md) — a{char}b\n"
        assert are_clean_lines(text) == is_clean_line(text.replace("\n", " ")), repr(char)
    assert not are_clean_lines(base + "- [x](x.md) — a\u3164b\n")  # printable, yet invisible: not clean
