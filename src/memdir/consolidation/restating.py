"""The one rule by which consolidation says a memory already says what a person said (restate47, rev49c).

:func:`saved_by` — a memory saves a finding and the finding brings no content word of its own — is asked by every
path that decides "already said": the rules extractor before it proposes (:func:`said_by_any`: an update of the
memory that says it, which the apply step reports ``unchanged``), the run before it keeps an agent extractor's pending finding
(:func:`memdir.consolidation.applying.saying`) and the apply step for an ``update`` or ``supersede`` of any
extractor (:func:`restated`: ``unchanged``). The workspace's AGENTS.md/CLAUDE.md is
read by :func:`in_workspace`: most of a finding's words, and nothing of it corrected. So a negation made of the
memory's words ("the staging deploy no longer needs the VPN" beside "the staging deploy needs the VPN") is a change
on every path, and a restatement ("remember that the staging deploy needs the VPN") is one on none.
"""

from __future__ import annotations

import re

WORKSPACE_SHARE = 0.8  # share of a finding's content words the workspace's AGENTS.md/CLAUDE.md holds when it says it
WORKSPACE_WORDS = 3    # a finding of fewer content words is never taken for what the workspace says
# A body line a memory of the feedback type gives after its rule: its reason and how to apply it.
_LABEL = re.compile(r"^\s*\*\*(why|how to apply):\*\*\s*", re.IGNORECASE)
_DAY = re.compile(r"\b(?:on )?\d{4}-\d{2}-\d{2}\b")


def saved_by(record, text: str) -> bool:
    """Whether the memory ``record`` (its name, description and body) already says the finding ``text``, with
    nothing to add: it saves it (:func:`memdir.prompt.coverage.saves`, the one rule: it covers the finding's words
    and the finding corrects nothing of it — no negation the memory does not make, no value it does not hold), and
    the finding brings no content word the memory lacks (:func:`_words`). "The staging deploy needs the VPN" is
    said by a memory saying "The staging deploy needs the corporate WireGuard VPN"; "… no longer needs the VPN",
    "… needs the VPN and 2FA" and "… needs the VPN and tmux" are not. False for an empty ``text``."""
    from ..prompt import coverage

    text = (text or "").strip()
    held = coverage.memory_text(record.name, record.description, record.body)
    return bool(text) and coverage.saves(text, held) and not _words(text) - _words(record.name.replace("-", " "),
                                                                                      held)


def said_by_any(memories, text: str):
    """The first of ``memories`` (each with ``name``, ``description``, ``body``, ``status``: an
    :class:`~memdir.consolidation.proposals.ExistingMemory` or a record) that already says ``text``
    (:func:`saved_by`), superseded ones left out; None when none does. Each memory's words are read once per call
    and :func:`saved_by` is asked only of a memory holding every content word of ``text`` (its necessary
    condition), so a store of hundreds costs a set test each."""
    wanted = _words(text)
    if not wanted:
        return None
    for memory in memories:
        if getattr(memory, "status", "active") == "superseded":
            continue
        held = _words(memory.name.replace("-", " "), memory.description or "", getattr(memory, "body", "") or "")
        if wanted <= held and saved_by(memory, text):
            return memory
    return None


def in_workspace(text: str, workspace_text: str) -> bool:
    """Whether the workspace's AGENTS.md/CLAUDE.md (``workspace_text``) already says the finding ``text``: it holds
    at least :data:`WORKSPACE_SHARE` of the finding's content words (at least :data:`WORKSPACE_WORDS` of them) and
    the finding corrects nothing of it (:func:`memdir.prompt.coverage.corrects`: "Don't use uv for packaging any
    more" is made of the words of "Always use uv for Python packaging." and is kept). The one rule of both
    extractors."""
    from .extractors.wording import content_words

    words = content_words(text)
    if not workspace_text or len(words) < WORKSPACE_WORDS:
        return False
    held = set(content_words(workspace_text))
    if sum(w in held for w in words) / len(words) < WORKSPACE_SHARE:
        return False
    from ..prompt.coverage import corrects

    return not corrects(text, workspace_text)


def restated(record, p) -> bool:
    """Whether the update or supersede ``p`` (a :class:`~memdir.consolidation.proposals.Proposal`) only restates
    what its target ``record`` already says, so writing it, or proposing it as a candidate, would add nothing: the
    memory says (:func:`saved_by`) the proposal's description and the person's words it came from (``p.evidence``,
    when given, read as :func:`memdir.prompt.coverage.saves` reads them: a request's own words are not new), and each
    line of a body the proposal gives, unless the line quotes the description or the evidence (the rules extractor's
    "The user said on 2026-12-07: “…”"), or is a feedback memory's **Why:** or **How to apply:** line where the
    memory already gives one of that label and the line holds no value of its own but a date (:func:`_labelled`:
    the rules extractor's "**Why:** the user stated this on 2026-12-07 as …" restating a feedback memory). A
    proposal that adds a value, a word or a line of its own ("… Lunch is at noon."), another type or importance, or
    negates the memory, is not a restatement: it is applied, or proposed for review."""
    from ..prompt import coverage

    if p.type not in (None, record.type) or p.importance not in (None, getattr(record, "importance", None)):
        return False  # it retypes or reweighs the memory: a change of its own
    if not saved_by(record, p.description):
        return False
    if p.evidence and not coverage.saves(p.evidence, coverage.memory_text(record.name, record.description,
                                                                          record.body)):
        return False
    quoted = [q for q in (_plain(p.description), _plain(p.evidence or "")) if q]
    return all(saved_by(record, line) or any(q in _plain(line) for q in quoted) or _labelled(record, line)
               for line in (p.body or "").splitlines() if line.strip())


def _labelled(record, line: str) -> bool:
    """Whether ``line`` is a **Why:** or **How to apply:** line (:data:`_LABEL`) of a memory whose body already
    has a line of that label, and ``line`` holds no value but a date that the memory lacks
    (:func:`memdir.prompt.coverage.corrects` of the line without its dates): the reason a restated rule already
    has, said again."""
    from ..prompt.coverage import corrects

    found = _LABEL.match(line)
    if found is None:
        return False
    label = found.group(1).lower()
    held = [_LABEL.match(x) for x in (record.body or "").splitlines()]
    if not any(m is not None and m.group(1).lower() == label for m in held):
        return False
    return not corrects(_DAY.sub("", line[found.end():]), _DAY.sub("", record.body or ""))


def _words(*texts: str) -> set[str]:
    """The content words of ``texts`` (:func:`memdir.consolidation.extractors.wording.content_words`: no request
    words, so "Remember that …" brings none of its own), by their first five letters (``needs`` is ``need``'s), and
    its command-line options whole (``-q``, ``--frozen-lockfile``: "pytest -x -q" adds ``-q`` to "pytest -x")."""
    from .extractors.wording import content_words

    flags = {flag for text in texts for flag in re.findall(r"(?<![\w-])--?[a-z0-9][\w-]*", (text or "").lower())}
    return {word[:5] for text in texts for word in content_words(text or "")} | flags


def _plain(text: str) -> str:
    """``text`` folded for a quote's comparison: lower case, its words joined by single spaces, no end stop."""
    return " ".join(text.lower().split()).rstrip(".!?。！？")


__all__ = ["WORKSPACE_SHARE", "WORKSPACE_WORDS", "in_workspace", "restated", "said_by_any", "saved_by"]
