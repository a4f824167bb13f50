"""Whether a memory's text covers, corrects or names a pending finding (DESIGN §7): the one rule of the words.

:func:`covers` (a memory that saves a finding), :func:`corrects` (a finding that gives another value than the
memory, or turns it around), :func:`shares`, :func:`requested` (the memory a vague request asked for) and
:func:`memory_text` (a memory's fields as these read them). Read by :mod:`memdir.prompt.pending` (which
re-exports them: a write that covers a finding ends it), :mod:`memdir.prompt.answered` (an edit outside memdir
that answers one) and consolidation (what a session saved). Split from :mod:`memdir.prompt.pending` along
that seam. Standard library only; ``re`` and :mod:`memdir.text.words` are imported at the first comparison,
never on a session start that only shows findings.
"""

from __future__ import annotations

COVERAGE = 0.5           # share of an item's content words a covering memory holds
NEGATION_REACH = 3       # words after a negation it turns around ("do not ever deploy")

# Compiled at its first use (re's cache), not at import: 2–10 ms, and a session start with nothing
# pending never needs it.
_WORD = r"(?i)[a-z0-9]+|[\u4e00-\u9fff]"
# An item's content words: all but the function words (memdir.text.words) and chat words, "first" too;
# _COUNTED are function words the coverage test has always counted as content (which memory covers an item
# stays what it was). Words of one or two ASCII letters are never counted (see _stems).
_COUNTED = frozenset("being her his their may might must shall where why how".split())
# Words that, after a choice, name the option turned down ("I prefer pnpm over npm", "pnpm instead of npm",
# "pnpm rather than npm"): they turn the words after them around like a negation ("never npm" saves it), and
# hold no value of their own (newuser46: "I prefer pnpm over npm here." was kept as a pending finding after the
# agent saved "Use pnpm, never npm" in that session, so the next session's agent was asked to save it again).
_TURNED_DOWN = frozenset(("over", "instead", "rather"))


def _stop() -> frozenset[str]:
    """The words an item's content leaves out (the comment above); :mod:`memdir.text.words` imported on
    the first use, under the layer lock — never on a session start's path."""
    global _STOP
    if _STOP is None:
        from ..text.words import CHAT_WORDS, FUNCTION_WORDS

        _STOP = frozenset(FUNCTION_WORDS - _COUNTED | CHAT_WORDS | _TURNED_DOWN | {"first"})
    return _STOP


_STOP: frozenset[str] | None = None


def _stems(text: str) -> set[str]:
    import re  # late: the hot path (showing the findings) never compares texts

    stop = _stop()
    return {w[:5] for w in re.findall(_WORD, text.lower()) if w not in stop and (len(w) > 2 or not w.isascii())}


def _negated(text: str, stems: set[str]) -> bool:
    """Whether a negation (:data:`memdir.text.words.NEGATIONS`) of ``text`` turns around one of ``stems``:
    the stem is among the :data:`NEGATION_REACH` words after it in its clause ("never deploy", "don't ever deploy",
    "不部署", "Fridays: no deploys"; not "dev" in "not pip here, dev db is on 5433")."""
    return bool(_turned(text, stems))


# What ends the clause a negation turns around: a comma, a sentence's end, a line (one field a line:
# memory_text), in Latin and CJK punctuation.
_CLAUSE_END = frozenset(",;.!?\n，、。；！？")


def _turned(text: str, stems: set[str]) -> set[str]:
    """Which of ``stems`` a negation of ``text`` turns around (:func:`_negated`); a word naming the option turned
    down is one too (:func:`_turns_down`: "I prefer pnpm over npm", "instead of npm", "rather than npm" turn
    "npm")."""
    import re  # late, as in _stems

    from ..text.words import NEGATIONS

    spans = list(re.finditer(_WORD, text))
    found = [m.group().lower() for m in spans]
    turned: set[str] = set()
    for at, word in enumerate(found):
        if word not in NEGATIONS and not _turns_down(text, spans, found, at):
            continue
        for after in range(at + 1, min(at + 1 + NEGATION_REACH, len(found))):
            # a negation ends at its clause (newuser38: "uv not pip here, dev db is on 5433" does not turn "dev")
            if _CLAUSE_END.intersection(text[spans[after - 1].end():spans[after].start()]):
                break
            if found[after][:5] in stems:
                turned.add(found[after][:5])
    return turned


def _turns_down(text: str, spans: list, found: list[str], at: int) -> bool:
    """Whether word ``at`` (``found``: the lower-cased words of ``spans``, ``re`` matches of :data:`_WORD` in
    ``text``) names the option turned down after it (:data:`_TURNED_DOWN`): "instead of", "rather than", or
    "over" after a verb of liking in its clause ("I prefer pnpm over npm"). Not "rather" before the option kept
    ("rather pin Node 20 than float"), nor "over" after no choice ("takes over the queue")."""
    word, after = found[at], found[at + 1] if at + 1 < len(found) else ""
    if word == "instead" or word == "rather":
        return after == {"instead": "of", "rather": "than"}[word]
    return word == "over" and _chose(text, spans, at)


def _chose(text: str, spans: list, at: int) -> bool:
    """Whether a verb of liking (:data:`_STANCE`) comes before word ``at`` of ``spans`` (``re`` matches of
    :data:`_WORD` in ``text``) in its clause (:data:`_CLAUSE_END`)."""
    for before in range(at - 1, -1, -1):
        if _CLAUSE_END.intersection(text[spans[before].end():spans[before + 1].start()]):
            return False
        if spans[before].group().lower()[:5] in _STANCE:
            return True
    return False


def _values(text: str) -> set[str]:
    """The stems of the words of ``text`` that carry a value: a word with a digit (a port, a version, a
    date) or a name — a capitalized word of two letters or more that does not begin a sentence (a day, a tool,
    a place; not "I")."""
    import re  # late, as in _stems

    values = set()
    for found in re.finditer(r"[A-Za-z0-9]+", text):
        word, before = found.group(), text[:found.start()].rstrip()
        begins = not before or before[-1] in ".!?:;\n-*#>"
        if any(c.isdigit() for c in word) or (word[0].isupper() and len(word) > 1 and not begins):
            values.add(word.lower()[:5])
    return values


def corrects(item_text: str, memory_text: str) -> bool:
    """True when ``item_text`` corrects ``memory_text`` though made of its words (:func:`covers` may hold):
    it turns around words the memory states as they are (a negation of ``item_text`` the memory does not
    make of the same words: "deploys not on Tuesday" against "deploys on Tuesday; not on Mondays"), or it
    gives a value the memory does not hold (:func:`_values`: "listens on 6543" against "listens on 5433",
    "moved from Tuesday to Thursday" against "on Tuesday"). A restatement ("Remember that we deploy on
    Tuesday") corrects nothing."""
    import re  # late, as in _stems

    memory = _stems(memory_text)
    if _values(item_text) - {w[:5] for w in re.findall(_WORD, memory_text.lower())}:  # every word: "4" too
        return True
    # The memory puts the same value right ("5434, not 5433"): beside a word both say, a name of the memory's
    # ("dev PostgreSQL" for "dev database"; not a field's first word, read line by line) is the item's thing in the
    # memory's words, no other value. Any other word there still is one ("test database" against "Dev database":
    # another database with the same pair; break50a: int49 dropped that finding as saved).
    # Only of a finding saying that alone: one clause ("…; staging stays on 5433" says more: break50a).
    pairs = _put_right(item_text)
    alone = not re.search(r"[;!?]|\.\s+\S|\s(?:and|but|while|except)\s", item_text.strip())
    named = _stance({v for line in memory_text.splitlines() for v in _values(line) if v.isalpha()}) \
        if alone and pairs and pairs <= _put_right(memory_text) else set()
    item = _stems(item_text)
    shared = item & memory
    return bool(_turned(item_text, shared) - _turned(memory_text, shared)) or _replaced(item_text, memory_text,
                                                                                       item, memory, shared, named)


def _put_right(text: str) -> set[tuple[str, str]]:
    """The values ``text`` puts right, each with the one it replaces: ``{("5434", "5433")}`` of "listens on 5434
    now, not 5433" (a value holds a digit, as :func:`_values` reads it; lower-cased). A finding whose every such
    pair the memory also states restates the memory's correction, in words of its own (newuser49: the agent saved
    "Dev PostgreSQL listens on 5434, not 5433" for "The dev database port is 5434 now, not 5433.", and the finding
    stayed pending: "dev database" beside "dev PostgreSQL" read as another value)."""
    import re  # late, as in _stems

    return {(kept.lower().rstrip(".:/-"), gone.lower().rstrip(".:/-")) for kept, gone in re.findall(
        r"(?<![\w.:/-])((?=[\w.:/-]*\d)[\w.:/-]*+)(?:\s+now)?,?\s+not\s+((?=[\w.:/-]*\d)[\w.:/-]*+)", text)}


def _replaced(item_text: str, memory_text: str, item: set[str], memory: set[str], shared: set[str],
              named: set[str] = frozenset()) -> bool:
    """Whether ``item_text`` gives another value in lower case: next to a word both say, on the same side,
    the item has a content word the memory never says and the memory one the item never says ("deploys
    daily" against "deploys weekly", "weekly deploys" against "daily deploys"). Only the word right
    beside it counts, function words included, with nothing but spaces between, so a restatement with
    words of its own ("we deploy the app on Tuesday" against "deploys on Tuesday", "Remember: backups run
    weekly") corrects nothing. A side of a word the memory also writes once ending a phrase with a function word
    there ("edits in vim" at a line's end, beside "give vim keybindings") holds no value of the memory's: "I use
    vim" against that memory corrects nothing (newuser44: it kept the sentence the agent had just saved as a
    pending finding); a function word inside a phrase ("a deploy to prod") clears nothing (:func:`_beside`).
    ``named``: the memory's words (as :func:`_stance` reads them) that hold no other value beside a shared word
    (:func:`corrects`: names of a memory putting the same value right)."""
    item_sides, memory_sides = _beside(item_text, shared), _beside(memory_text, shared, bare=True)
    item, memory = _stance(item), _stance(memory)
    return any(theirs - item - named and ours - memory for key, ours in item_sides.items()
               if (theirs := memory_sides.get(key)))


# Verbs of liking (their first five letters, as _stems reads them: "like", "likes", "prefers", "wanted"), read as
# one word beside a value (newuser38: "I like terse answers" saved as "prefers terse answers" or "likes terse
# answers" is no other value); "hate", "dislike" say another stance and stay themselves.
_STANCE = frozenset(("like", "likes", "liked", "love", "loves", "loved", "prefe", "want", "wants", "wante", "favor",
                     "favou"))
_PREFER = "prefe"


def _stance(stems: set[str]) -> set[str]:
    """``stems`` as :func:`_replaced` compares them: each verb of liking (:data:`_STANCE`) read as one, and
    one final "s" dropped, so a short word's third person or plural is the word itself ("uses" and "use",
    whose first five letters differ). Only one, and not after another "s" or from a word of three letters,
    where it is no ending ("pass", "class", "less", "gas": ``rstrip("s")`` made "pass" "pa")."""
    return {_PREFER if stem in _STANCE else _singular(stem) for stem in stems}


def _singular(stem: str) -> str:
    """``stem`` without one final "s" that is an ending (:func:`_stance`)."""
    return stem[:-1] if len(stem) > 3 and stem.endswith("s") and not stem.endswith("ss") else stem


def _beside(text: str, stems: set[str], bare: bool = False) -> dict[tuple[str, int], set[str]]:
    """``{(stem, side): the stems of the content words right beside it}`` for each of ``stems`` in ``text``
    (side -1: before, 1: after), each word of ``text`` as :func:`_stems` reads it; a function word beside
    it gives none. ``bare``: leave out each ``(stem, side)`` where some occurrence of the stem ends its phrase
    with a function word on that side and no word right beside it on the other ("edits in vim" at a line's end:
    the word is what the phrase names, holding no value there). An occurrence inside a phrase ("before a deploy
    to prod": a function word on each side) leaves both sides in, so the value another occurrence holds
    ("deploys weekly") stays (fix45s: "We deploy daily" was no correction of that memory)."""
    import re  # late, as in _stems

    stop = _stop()
    lower = text.lower()
    spans = [(m.group(), m.start(), m.end()) for m in re.finditer(_WORD, lower)]
    found: dict[tuple[str, int], set[str]] = {}
    unpinned: set[tuple[str, int]] = set()
    for at, (word, _, _) in enumerate(spans):
        if word[:5] not in stems:
            continue
        beside: dict[int, str] = {}  # side: the word right beside this occurrence there
        for side in (-1, 1):
            if not 0 <= at + side < len(spans):
                continue
            first, second = sorted((spans[at], spans[at + side]), key=lambda span: span[1])
            if not lower[first[2]:second[1]].strip(" \t"):  # punctuation or a line end between: not beside it
                beside[side] = spans[at + side][0]
        for side, near in beside.items():
            key = (word[:5], side)
            if near in stop:  # "edits in vim" ending its phrase: this occurrence holds no value on that side
                if -side not in beside:
                    unpinned.add(key)
            elif (len(near) > 2 or not near.isascii()) and near[:5] not in stems:
                found.setdefault(key, set()).update(_stance({near[:5]}))
    if bare:
        for key in unpinned:
            found.pop(key, None)
    return found


def memory_text(*fields: str | None) -> str:
    """A memory's fields (name, description, body; title, …) as the one text :func:`covers`, :func:`corrects`
    and :func:`requested` read: one field a line, so the last word of one field is never read as standing
    beside the first of the next (a description ending "over npm" and a body starting "Use pnpm" are not
    "npm use", which read "Always use pnpm" as a correction of the memory that saved it)."""
    return "\n".join(field for field in fields if field)


def shares(item_text: str, memory_text: str) -> bool:
    """Whether ``memory_text`` holds one of the item's content words at least (compared as :func:`covers` does):
    a memory that may hold part of a finding of several facts."""
    return bool(_stems(item_text) & _stems(memory_text))


def covers(item_text: str, memory_text: str) -> bool:
    """True when ``memory_text`` holds at least :data:`COVERAGE` of the
    item's content words (compared by their first five letters; CJK by
    character) and, when the item negates them, negates them too
    (:func:`_negated`): "Deploys happen on Fridays" is the opposite of "Never
    deploy on Fridays.", not the finding saved. Only that way round: a memory
    that states a corrected finding with a "not" of its own ("lines are not
    spectral orders" for "You're confusing lines with spectral orders") saves it."""
    wanted = _stems(item_text)
    if not wanted:
        return False
    shared = wanted & _stems(memory_text)
    if len(shared) / len(wanted) < COVERAGE:
        return False
    return not _negated(item_text, shared) or _negated(memory_text, shared)


def saves(item_text: str, memory_text: str) -> bool:
    """Whether ``memory_text`` (:func:`memory_text`: a memory's fields) saves the finding ``item_text``: it covers it
    (:func:`covers`) and the finding corrects nothing of it (:func:`corrects`). The one rule by which a write ends
    a pending finding (:func:`memdir.prompt.pending.expire_covered`), an edit outside memdir answers one
    (:mod:`memdir.prompt.answered`) and a memory saved during a session holds one (consolidation's ``_held``):
    "Use npm, never pnpm" covers the words of "I prefer pnpm over npm" but is its reversal, so it saves nothing
    (newuser46: the write path asked :func:`covers` alone, and such a reversal ended the finding)."""
    return covers(item_text, memory_text) and not corrects(item_text, memory_text)


# Words that stand for "what there is to know about it" in a request ("the search service facts", "deploy
# stuff"): no topic of their own. The request words themselves ("remember", "notes", "details") are
# memdir.text.words.REQUEST_WORDS.
_PLACEHOLDERS = frozenset("fact facts thing things stuff bit bits point points part parts".split())
TOPIC_WORDS = 3  # at most this many topic words make a request vague ("remember the search service facts")


def request_topic(item_text: str) -> frozenset[str]:
    """The topic of a vague request (its content words' first five letters, as :func:`covers` compares them),
    or an empty set when ``item_text`` is no vague request. Vague: it holds a request word
    (:data:`memdir.text.words.REQUEST_WORDS`: "remember", "note", "details") or a placeholder ("facts",
    "stuff"), no value (:func:`_values`: no number, no name), and 1 to :data:`TOPIC_WORDS` content words
    besides them: "Remember the search service facts" → ``{"searc", "servi"}``; "Remember that staging is
    staging-7 and deploys need a VPN" → ``{}`` (it states the facts: :func:`covers` judges it)."""
    import re  # late, as in _stems

    from ..text.words import REQUEST_WORDS

    stop = _stop()
    words = [w for w in re.findall(_WORD, item_text.lower()) if w not in stop and (len(w) > 2 or not w.isascii())]
    asks = [w for w in words if w in REQUEST_WORDS or w in _PLACEHOLDERS]
    topic = frozenset(w[:5] for w in words if w not in REQUEST_WORDS and w not in _PLACEHOLDERS)
    if not asks or not 1 <= len(topic) <= TOPIC_WORDS or _values(item_text):
        return frozenset()
    return topic


def requested(item_text: str, head_text: str) -> bool:
    """True when ``item_text`` is a vague request (:func:`request_topic`) and ``head_text`` — a memory's name,
    title and description, never its body — names every word of its topic: the memory the request asked for
    ("Remember the search service facts" and ``search-service — Search service runs Elasticsearch 8``), which
    :func:`covers` may miss (the facts are not the request's words) and :func:`corrects` may take for a
    correction ("service facts" beside "service runs"). A memory naming only part of the topic
    (``auth-service``) or another topic does not; a request that states values is no vague one. Only a memory
    written after the request asks this (the same session's write: consolidation's ``_held``; a later write:
    :func:`expire_covered`)."""
    topic = request_topic(item_text)
    return bool(topic) and topic <= _stems(head_text)


__all__ = ["COVERAGE", "NEGATION_REACH", "TOPIC_WORDS", "corrects", "covers", "memory_text", "request_topic",
           "requested", "saves", "shares"]
