"""What of a query's text is read: a pasted block as its distinct lines, a long prompt's ends first.

A prompt often carries what a person pasted — a log, a stack trace, a file —
with a line of their own before or after it. Search and recall
(:func:`memdir.search.ranking.ranked`) read a query's text as :func:`read`
gives it, the one rule:

* **Repeated lines of a paste are read once.** In a text of
  :data:`PASTE_LINES` lines or more (a paste; what a person types is a few
  lines, and ``what runs on port 5432`` / ``… 6379`` on two of them are two
  questions), a line whose shape (its words that hold
  no digit, lower-cased; the line itself when it has none) an earlier line
  had is left out: thirty lines of ``INFO worker processed batch ok at
  11:MM`` are one line, so their times and counters do not pile up as
  thirty numbers that a memory mentioning ``09:00`` happens to hold (a pasted
  log recalled the on-call memory at 0.50; it is now read as one line, and
  the memory is not recalled). A log line naming something a memory is about
  (``kafka retention``) is still read.
* **A long prompt's ends come first.** When the lines kept are still over
  :data:`~memdir.search.tokenize.MAX_QUERY_CHARS` characters, its first and
  its last lines — at most :data:`EDGE_CHARS` characters each, what a person
  writes before or after a paste, the one line at each end whole up to
  :data:`EDGE_LINE_CHARS` (a question of 384 characters after a log was read
  from its last 300 only) — come before the lines between, all within
  :data:`~memdir.search.tokenize.MAX_QUERY_CHARS`. A question after a 7 KB
  log was not read at all (only the first 4,096 characters were); now its
  terms are among the first ones the query keeps
  (:data:`~memdir.search.tokenize.MAX_QUERY_TERMS`) and in the text embedded
  (:data:`~memdir.search.vectors.EMBED_CHARS`).

* **A person's question among pasted sentences is read alone.** In a text
  of fewer than :data:`PASTE_LINES` lines and at most :data:`EDGE_LINE_CHARS`
  characters, split into sentences (at ``.``, ``?``, ``!`` or ``;`` and a
  space, at a dash between spaces, and at line ends), a sentence *looks
  pasted* when it holds an error or exception name as a program prints it
  (``psycopg2.OperationalError``, ``KeyError: 'x'``, ``re.error:``; a
  person's "our billing client catches TimeoutError." is theirs: it was
  dropped and the billing retry memory, 0.909 alone, tied at 0.965 with the
  search client's), a log level in capitals or
  a timestamp, a file and line (``stats.py:17``) or a stack frame
  (``File "…", line 23``, ``at com.x.Main(Main.java:42)``); a path, a URL or
  a call (``bind()``) alone does not make it so — a person names them too:
  "Our app server settings live in config/app.toml. Which port does it use?"
  was read as "Which port does it use?" (the app server's port memory, 0.969
  and alone, tied at 0.962 with every port memory; break12). When some
  sentences look pasted and another is a question (it ends with ``?`` or
  begins with a question word) holding a word a prompt can be about
  (:func:`memdir.search.weighing.is_topic`) and no word pointing at the
  paste (``this``, ``these``, ``above``, ``below``, ``my``), the text is read
  as its sentences that do not look pasted: "which port does postgres use?
  psycopg2.OperationalError: connection refused" scored the memory on the
  dev database's port 0.21 (the error's words, which no memory holds, were
  most of the query's weight) and is now read as the question (0.998). A
  question with no such word ("what does this mean? KeyError: …", "what does
  this log mean?", "what's wrong with my docker run command?") is read with
  its paste, and so is a longer paste (its lines folded as above). On the fit
  data (evals/recall/pasted.jsonl and every other fit set, 2026-12-03
  paste12) only pasted.jsonl lines change: false recalls 3 → 1 (fold 0) and
  1 → 1 (fold 1) with vectors, 1 → 0 and 0 → 0 on words alone, hits as
  before (15 and 14 of 16).

A query of distinct lines within the limit that is not such a mix — every
query a person types — is read as it is.
"""

from __future__ import annotations

import re

from .tokenize import MAX_QUERY_CHARS

EDGE_CHARS = 300  # each end of a long prompt, read first: a question or a request is a line or two
EDGE_LINE_CHARS = 1024  # the line at each end of a long prompt, read whole up to this: a long question
PASTE_LINES = 8  # a text of this many non-blank lines or more is read as a paste (its repeated lines once)
# A longer text is read from its first SCAN_CHARS and its last EDGE_LINE_CHARS: what the query can hold lies there, and
# reading every line of a 1.3 MB pasted log took 0.2-1 s of a prompt hook (a loaded 2-core machine).
SCAN_CHARS = 32768
_SHAPE = re.compile(r"\b[^\W\d]+\b")  # a word without a digit: "worker" of "worker-12", not "abc123" or "11"
_SENTENCE_END = re.compile(r"(?<=[.?!;])\s+|\s+(?:--?|—|–)\s+")  # where one sentence of a line ends
_POINTING = frozenset({"this", "these", "above", "below", "my"})  # "what does this log mean?", "my command": the paste
_LOOKS_PASTED = re.compile("|".join((
    # an error's name as a program prints it: dotted (psycopg2.OperationalError), before ':' or '(' (KeyError: 'x'),
    # quoted or beginning a sentence or a message; a person's "we catch TimeoutError." is their own words
    r"\b(?:\w+\.)+[A-Za-z]*(?:Error|Exception|Warning|Fault)\b|\b[A-Za-z]*(?:Error|Exception|Warning|Fault)[:(']",
    r"(?:^|: |['\"])[A-Za-z]*(?:Error|Exception|Warning|Fault)\b",
    r"(?:^|\s)(?:\w+\.)+error:|\bnpm ERR!|^(?:error|fatal|hint|Killed)\b",  # re.error:, git's "error: …"
    r"\b(?:ERROR|WARN|WARNING|INFO|DEBUG|FATAL|CRITICAL|TRACE)\b|\[(?:emerg|error|warn|crit)\]",  # log levels
    r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\b\d\d:\d\d:\d\d\b",  # a log line's timestamp
    r"\b\w+\.(?:py|js|ts|java|go|rb|c|rs):\d+",  # a file and line: stats.py:17
    r"\bFile \"|\bline \d+|\bat [\w.$]+\(|\(\w+\.\w+:\d+\)|\bexit code \d+",  # stack frames
)))
# A path, a URL or a call names a thing, in a person's sentence as in a paste ("our settings live in config/app.toml",
# "we call init_db() for tenants"): a sentence holding one and none of the signs above is the person's and is read.
_NAMES_A_THING = re.compile(  # a path: /usr/lib/, src/app.py; a URL; a call: bind()
    r"(?:^|[\s(\"'])(?:~|\.{1,2})?/[\w.-]+/|\b[\w-]+/[\w./-]*\.\w{1,5}\b|\b\w+://\S+|\b\w+\(\)")


def read(text: str) -> str:
    """``text`` (a query or a prompt, as typed or pasted) as search and recall
    read it (the module's rule): its non-blank lines, stripped (of a text over
    :data:`SCAN_CHARS` characters, those of its first :data:`SCAN_CHARS` −
    :data:`EDGE_LINE_CHARS` and its last :data:`EDGE_LINE_CHARS` characters),
    in a paste of :data:`PASTE_LINES` lines or more without those repeating
    an earlier line's shape; when that is over
    :data:`~memdir.search.tokenize.MAX_QUERY_CHARS` characters, its first and
    last lines of at most :data:`EDGE_CHARS` characters together (the line at
    each end cut to its first or its last :data:`EDGE_LINE_CHARS`; one long
    line's ends are read so too), then the lines between, cut to
    :data:`~memdir.search.tokenize.MAX_QUERY_CHARS`. ``text`` itself when it
    is within the limit and no line is left out."""
    text = _asked(text)
    if len(text) > SCAN_CHARS:  # whole lines of both parts (a line longer than a part is cut)
        head, tail = text[:SCAN_CHARS - EDGE_LINE_CHARS], text.rstrip()[-EDGE_LINE_CHARS:]
        head, tail = head[:head.rfind("\n")] if "\n" in head else head, tail[tail.find("\n") + 1:]
        text = f"{head}\n{tail}"
    lines, seen, written = [], set(), 0
    pasted = sum(1 for line in text.splitlines() if line.strip()) >= PASTE_LINES
    for line in text.splitlines():
        line = line.strip()
        shape = (tuple(_SHAPE.findall(line.lower())) or line) if pasted else line
        written += bool(line)
        if line and shape not in seen:
            seen.add(shape)
            lines.append(line)
    if len(lines) == written and len(text) <= MAX_QUERY_CHARS:
        return text
    kept = "\n".join(lines)
    if len(kept) <= MAX_QUERY_CHARS:
        return kept
    if len(lines) == 1:  # one long line: its ends first
        return "\n".join((kept[:EDGE_LINE_CHARS], kept[-EDGE_LINE_CHARS:],
                          kept[EDGE_LINE_CHARS:-EDGE_LINE_CHARS]))[:MAX_QUERY_CHARS]
    first = _edge(lines)
    last = _edge(lines[len(first):][::-1], from_end=True)[::-1]
    middle = lines[len(first):len(lines) - len(last)]
    return "\n".join((*first, *last, *middle))[:MAX_QUERY_CHARS]


def _asked(text: str) -> str:
    """``text`` as its sentences that do not look pasted when it mixes pasted sentences with a person's question
    (the module's rule), else ``text`` itself; a sentence's line breaks are kept. Pure."""
    from ..text.words import QUESTION_WORDS
    from .weighing import is_topic
    from .tokenize import query_terms

    if len(text) > EDGE_LINE_CHARS or sum(1 for line in text.splitlines() if line.strip()) >= PASTE_LINES:
        return text
    lines = [[part.strip() for part in _SENTENCE_END.split(line) if part.strip()] for line in text.splitlines()]
    parts = [part for line in lines for part in line]
    pasted = [bool(_LOOKS_PASTED.search(part)) for part in parts]
    asked = any(not paste and (part.endswith("?") or part.split()[0].lower() in QUESTION_WORDS)
                and any(map(is_topic, query_terms(part))) and _POINTING.isdisjoint(re.findall(r"\w+", part.lower()))
                for part, paste in zip(parts, pasted))
    if not asked or not any(pasted):
        return text
    kept = [" ".join(part for part in line if not _LOOKS_PASTED.search(part)) for line in lines]
    return "\n".join(line for line in kept if line)


def _edge(lines: list[str], from_end: bool = False) -> list[str]:
    """The leading ``lines`` within :data:`EDGE_CHARS` characters together (at least one, cut to
    :data:`EDGE_LINE_CHARS`); ``from_end``: ``lines`` are a text's last ones, reversed, and a line is cut to
    its last characters."""
    out, used = [], 0
    for line in lines:
        if out and used + len(line) > EDGE_CHARS:
            break
        cut = EDGE_LINE_CHARS
        out.append(line if len(line) <= cut else line[-cut:] if from_end else line[:cut])
        used += len(out[-1]) + 1
    return out


__all__ = ["EDGE_CHARS", "EDGE_LINE_CHARS", "PASTE_LINES", "SCAN_CHARS", "read"]
