"""Which memory a written name means: the one rule for reads (:func:`memdir.operations.lookup.find`)
and writes (:func:`memdir.gateway.changes.write`).

A name as written normalizes to a file name (:func:`memdir.text.names.normalize_name`). A memory is
found under that file name; else under a file name an older memdir gave the name
(:func:`memdir.text.names.legacy_names`: ``ｿｰｽ`` hashed before NFKC, ``Łódź-notes`` stored as
``odz-notes`` before ``ł`` folded to ``l``); else as the one memory whose title the name is spelled
like and normalizes to the same file name (:func:`by_title`) — a memory an older memdir stored under
the hash of a compatibility form (``ｿｰｽ``), asked for by its usual form (``ソース``), or under the
slug of a name whose letters it dropped (``odz-notes``), asked for as ``Lodz-notes``
(:func:`older_names` says which file names may be one); or a hand-written file whose ``name:`` is
not its stem. Such a memory keeps its file name: every path reads, updates, deletes and restores it
there, and no write makes a second memory beside it. Two names that normalize alike
but are spelled otherwise (``C# tips``, ``C++ tips``) are two memories: a write of the second is
refused (:func:`check_same_name`, :func:`name_taken`), and one spelled alike but not as the memory is
written updates it, saying which memory it updated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable

from ..errors import Conflict, InvalidInput
from ..text.fold import LATIN_SPELLED
from ..text.names import legacy_names, normalize_name, older_file_name, raw_name, same_name, spelled_name, spelling
from .fields import distinct_name, name_note

# What the letters an older memdir dropped from a name (LATIN_SPELLED: ø, æ, ß) are spelled as now.
_SPELLINGS = frozenset(LATIN_SPELLED.values())
_LETTERS = frozenset("".join(_SPELLINGS))
_DROPPABLE = "[" + "".join(sorted(_LETTERS)) + "-]*"  # what an older name may lack, and its dashes
_HASHED = re.compile(r"^m-[0-9a-f]+$", re.M)


def older_names(key: str, names: Iterable[str]) -> list[str]:
    """The names of ``names`` (a layer's file names) other than ``key`` (a normalized Latin name)
    an older memdir may have given a name that now normalizes to ``key``: ``key`` with some of the
    spellings of letters it did not fold (:data:`memdir.text.fold.LATIN_SPELLED`: ``o`` of ``ø``,
    ``ss`` of ``ß``) dropped, ``-`` where they were (``odz-notes`` and ``k-benhavn-notes`` for
    ``lodz-notes`` and ``kobenhavn-notes``); and, for a ``key`` made of such spellings only (``o``,
    ``ss``), every hash name (``m-…``: ``Ø`` had one). Candidates only, by name (no file read):
    :func:`by_title` says which holds the memory. One pass of a regular expression with no
    backtracking over the names (a few ms at 10,000), then :func:`_older_match` of each name it
    keeps: time linear in the names' length times ``key``'s, whatever the letters (a pattern of
    optional letters backtracked for minutes on ``ooo…oa`` beside ``ooo…o``)."""
    text = "\n".join(names)
    if not text:  # nothing to look through (a batch's index found no name): no pattern to compile
        return []
    rest = kept_letters(key)
    kept = re.compile("^" + _DROPPABLE + "".join(re.escape(c) + _DROPPABLE for c in rest) + "$", re.M)
    parts = _older_parts(key)
    found = [name for name in kept.findall(text) if name != key and len(name) <= len(key)
             and _older_match(parts, name)]
    if key and all("" in choices for choices in parts):  # only spellings and '-' (no regular expression: th-th-…
        # split as t+h or th backtracked exponentially)
        found += [name for name in _HASHED.findall(text) if name != key]
    return found


class NameIndex(dict):
    """A layer's names (:attr:`memdir.files.scan.Scan.names`: name → file name, a plain dict) that also
    knows them by :func:`kept_letters`, kept as names are set and popped: its ``names_from`` (the
    protocol of :meth:`memdir.layer.rows.Names.names_from`) gives :func:`candidates` the names that may
    be an older name of a key — exactly those whose kept letters are the key's, every name when they are
    none — without a pass over every name: what a batch of writes puts in its transaction's scan
    (:func:`memdir.gateway.writing.write_batch`; 10,000 new names were a pass each)."""

    def __init__(self, names: dict):
        super().__init__(names)
        self._kept: dict[str, set[str]] = {}
        for name in self:
            self._kept.setdefault(kept_letters(name), set()).add(name)

    def __setitem__(self, name: str, filename: str) -> None:
        super().__setitem__(name, filename)
        self._kept.setdefault(kept_letters(name), set()).add(name)

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self._kept.get(kept_letters(name), set()).discard(name)

    def pop(self, name: str, *default):
        """As :meth:`dict.pop`."""
        self._kept.get(kept_letters(name), set()).discard(name)
        return super().pop(name, *default)

    def names_from(self, prefix: str = "", letters: str = "") -> list[str]:
        """The names starting with ``prefix`` whose :func:`kept_letters` are ``letters`` (``""``: every
        name), in name order: a subset of :meth:`memdir.layer.rows.Names.names_from`'s that holds every
        name :func:`older_names` keeps (an older name's letters, spellings and ``-`` aside, are its key's)."""
        listed = self._kept.get(letters, ()) if letters else self
        return sorted(name for name in listed if name.startswith(prefix))


def kept_letters(key: str) -> str:
    """The letters (a-z, 0-9) of ``key`` (a normalized name) that every name an older memdir may have
    given its memory kept, in order (:func:`older_names`): ``key`` without ``-`` and without the
    letters of the spellings an older memdir dropped (``o``, ``s``, ``t`` …). Every older name holds
    them in this order, whatever else it holds."""
    return "".join(c for c in key if c not in _LETTERS and c != "-")


def _older_parts(key: str) -> list[tuple[str, ...]]:
    """``key`` as the spellings each of its letters may have had in an older name, in order (``-``
    left out: any run of ``-`` may stand between two parts): a letter a-z or digit as itself; a
    spelling of a letter an older memdir dropped (``o`` of ``ø``) as itself or nothing; ``ae``,
    ``oe``, ``th``, ``ss`` as both letters or neither, or one of them when that one is a spelling too
    (``ø`` + ``e``)."""
    parts, i = [], 0
    while i < len(key):
        two = key[i:i + 2]
        if two in _SPELLINGS and len(two) == 2:
            parts.append(tuple(dict.fromkeys([two] + [two[1]] * (two[0] in _SPELLINGS)
                                              + [two[0]] * (two[1] in _SPELLINGS) + [""])))
            i += 2
        elif key[i] in _SPELLINGS:
            parts.append((key[i], ""))
            i += 1
        elif key[i] == "-":
            i += 1
        else:
            parts.append((key[i],))
            i += 1
    return parts


def _older_match(parts: list[tuple[str, ...]], name: str) -> bool:
    """True when ``name`` is ``parts`` (:func:`_older_parts`) spelled with one choice of each part,
    any run of ``-`` before, between and after them. The set of the positions of ``name`` each
    prefix of ``parts`` may end at (at most ``len(name) + 1``), part by part: no backtracking."""
    dashes_from = [0] * (len(name) + 1)  # the position after the run of '-' starting at each position
    dashes_from[len(name)] = len(name)
    for j in range(len(name) - 1, -1, -1):
        dashes_from[j] = dashes_from[j + 1] if name[j] == "-" else j

    def after_dashes(ends):
        return {k for j in ends for k in range(j, dashes_from[j] + 1)}

    at = after_dashes({0})
    for choices in parts:
        at = after_dashes({j + len(c) for j in at for c in choices if name.startswith(c, j)})
        if not at:
            return False
    return len(name) in at


def by_title(raw: str, key: str, records: Iterable) -> str | None:
    """The name of the one record of ``records`` (objects with ``name`` and ``title``) other than
    ``key`` whose title normalizes to ``key`` (``raw``'s normalized name) and is spelled like ``raw``
    (:func:`memdir.text.names.same_name`); None when none is. Raises :class:`InvalidInput`
    (:func:`ambiguous`, listing them) when more than one is."""
    found = []
    for record in records:
        if not record.title or record.name == key or not same_name(raw, record.name, record.title):
            continue
        try:
            if normalize_name(record.title).name == key:
                found.append(record)
        except InvalidInput:
            continue
    if len(found) > 1:
        raise InvalidInput(ambiguous(raw, found))
    return found[0].name if found else None


def ambiguous(raw: str, records: list) -> str:
    """The refusal of a name ``raw`` that more than one memory of a layer answers to (``records``, with
    ``name`` and ``title``): memories an older memdir stored apart under names that are one name today
    (``Заметки-Проекта`` and ``ЗАМЕТКИ-ПРОЕКТА`` hashed as written), or one each machine wrote. Lists
    them by file name, and says to name one so: that reads, writes and deletes that one alone."""
    records = sorted(records, key=lambda r: r.name)
    shown = ", ".join(f"{r.title!r} ({r.name})" if r.title else repr(r.name) for r in records)
    return (f"{raw_name(raw)!r} is the name of {len(records)} memories of this layer (stored apart by an older "
            f"memdir or another machine): {shown}; nothing was done: say which by its file name "
            f"(read, write or delete {records[0].name!r} for the first)")


def written_as(raw: str, record) -> bool:
    """True when the memory ``record`` (with ``name`` and ``title``) is called ``raw`` exactly as written
    (:func:`memdir.text.names.raw_name`, before folding): its file name or its title. Such a memory wins
    over one ``raw`` only folds to (:func:`stored_name`)."""
    return raw_name(raw) in (record.name, record.title)


def stored_name(raw: str, key: str, held: Callable[[str], object | None],
                records: Callable[[], Iterable] | None = None) -> str | None:
    """The file name (a normalized name) the memory ``raw`` names is stored under in one layer:
    ``key`` (``raw``'s normalized name) when ``held(key)`` — the record under a file name, or None —
    is a memory ``raw`` names; else one of ``raw``'s :func:`~memdir.text.names.legacy_names` when the
    memory there is spelled alike; else, with ``records`` (called only then: a walk of the layer's
    records, or of :func:`candidates`'), :func:`by_title`'s. None when no memory of the layer is
    ``raw``'s. Of ``key`` and the legacy names, a memory whose file name or title is ``raw`` as written
    (:func:`memdir.text.names.raw_name`, before folding) wins over one ``raw`` only folds to
    (``Łódź-notes`` is ``odz-notes`` titled so, not a ``lodz-notes`` without a title; ``Lodz-notes`` is
    ``lodz-notes``). When two are spelled exactly so, or neither is and two are spelled alike
    (``Заметки-Проекта`` under today's hash and an older memdir's, brought together by a sync), or
    :func:`by_title` finds two, raises :class:`InvalidInput` (:func:`ambiguous`: they are listed, and
    each is reached by its file name). Raises :class:`InvalidName` as
    :func:`memdir.text.names.normalize_name` does."""
    exact, alike = [], []
    for name in (key, *legacy_names(raw)):
        record = held(name)
        if record is not None and same_name(raw, record.name, record.title):
            (exact if written_as(raw, record) else alike).append(record)
    found = exact or alike
    if len(found) > 1:  # two memories answer to it (an older memdir's and today's): neither is guessed
        raise InvalidInput(ambiguous(raw, found))
    if found:
        return found[0].name
    return by_title(raw, key, records()) if records is not None else None


def candidates(raw: str, key: str, names: Iterable[str]) -> list[str]:
    """The file names of ``names`` (a layer's) whose memory may be ``raw``'s (normalizing to
    ``key``) under a name an older memdir gave it, for :func:`by_title` to decide: every hash name
    for a hashed name (``ソース``: ``ｿｰｽ`` had another hash; ``ЗАМЕТКИ``: ``Заметки`` was hashed as
    written), else :func:`older_names`. A new memory's write reads no file but these (issue 28 §7), and no row of
    the layer's manifest but the names that may be one: ``names`` that can list them by prefix and
    letters without settling every file (``names_from``: :meth:`memdir.layer.rows.Names.names_from`,
    a layer's names as its manifest holds them) are asked for those holding :func:`kept_letters` of
    ``key``, not for every name of the layer."""
    hashed = normalize_name(raw).title is not None
    names_from = getattr(names, "names_from", None)
    if names_from is None:
        listed = names
    else:  # only the names holding the letters every older name of key kept (by the manifest, not in Python)
        listed = names_from("m-") if hashed else names_from("", kept_letters(key))
    if hashed:
        return [name for name in listed if name.startswith("m-") and name != key]
    return older_names(key, listed)


def written_to(fresh, scan_names: Iterable[str], raw: str, key: str) -> str:
    """The file name a write of ``raw`` (normalizing to ``key``) goes to in a transaction
    (``fresh``: file name → its entry or None; ``scan_names``: the layer's names): ``key`` when a
    memory is stored there (:func:`check_same_name` then decides whether ``raw`` names it), else
    :func:`stored_name`'s over the layer's :func:`candidates` — the reads' rule, so a write updates
    the memory a read of ``raw`` finds (a legacy name's memory spelled exactly as ``raw`` before ``key``'s
    that only folds to it). A new memory's write reads no file but the candidates' (issue 28 §7)."""
    def held(name: str):
        entry = fresh(name)
        return entry.record if entry is not None else None

    if fresh(key) is not None:
        return stored_name(raw, key, held) or key

    def older():
        for name in candidates(raw, key, scan_names):
            if (record := held(name)) is not None:
                yield record

    return stored_name(raw, key, held, older) or key


def inherited_title(asked: str, name: str, title: str | None, old, renamed: bool,
                    warnings: list[str] | None = None) -> str | None:
    """The title a write of ``asked`` (normalizing to ``name``) that gives none keeps of the memory it
    changes (``old``, its record, or None for a new memory); ``title`` is the title the new name gives
    itself (:func:`memdir.gateway.fields.prepare`: its hash's name as written, ``C# tips`` of ``c-tips``,
    or None). An update keeps ``old``'s title (else ``title``). A rename (``renamed``) keeps it only when a
    person set it apart from the old name (it is not the old name as written,
    :func:`memdir.text.names.spelled_name`: ``Database port`` of ``db-port``) and ``asked`` still finds the
    memory with it (:func:`memdir.text.names.same_name`; never a hash name's, whose title is its name);
    else the memory takes ``title``: ``로그-규칙`` renamed ``로그-정책`` is titled ``로그-정책`` (it kept
    ``로그-규칙``, and no read of ``로그-정책`` found it — issue 28), ``Café-notes`` renamed ``Thé-notes`` is
    titled ``Thé-notes``, ``db-port`` titled ``DB port`` renamed ``pg-port`` has none. A title a person set
    that the new name cannot keep (``Database port`` of a memory renamed ``数据库端口``) is said in one line
    of ``warnings``."""
    if old is None or not old.title:
        return title
    if not renamed:
        return old.title
    person_set = spelled_name(old.name, old.title) != old.title
    if not person_set or same_name(asked, name, old.title):
        return old.title if person_set else title
    if warnings is not None:
        warnings.append(f"title {old.title!r} was not kept: the renamed memory is titled {title!r}, its new name "
                        "as written, so that name finds it" if title else f"title {old.title!r} was not kept")
    return title


def name_taken(raw: str, name: str, title: str | None, taken: Container[str]) -> str:
    """The refusal for ``raw`` normalizing to the file of another memory
    (``name``, ``title``), with a distinct name not in ``taken`` (:func:`distinct_name`)."""
    written = raw_name(raw)
    shown = f"{title!r} ({name})" if title else repr(name)
    return (f"{written!r} normalizes to {name!r}, the file of the existing memory {shown}, which is another "
            f"name: choose a distinct name such as {distinct_name(written, taken)!r} (or write {name!r} to "
            "update the existing memory)")


def check_older_file(asked: str, old, taken: Container[str], *, read: bool = False,
                     given_title: str | None = None) -> None:
    """Refuse a write of ``asked`` that lands on the memory ``old`` (its record) by a file name an older
    memdir gave ``old``'s title, which today is another name (:func:`memdir.text.names.older_file_name`:
    ``v2`` on ``v2.md`` titled ``배포-v2``; ``odz-notes`` on ``odz-notes.md`` titled ``Łódź-notes``): in a
    fresh store they are two memories, so updating would put another memory's text over this one's.
    A write that names this memory otherwise updates it: one that read it (``read``: its digest given,
    compare-and-set: an edit, the panel, consolidation) or gives its title (``given_title`` spelled like
    it). Raises :class:`Conflict` naming the memory by title and file name, how to update it (write it
    under its title) and a distinct name for a new memory (:func:`distinct_name`, none of ``taken``);
    nothing is written."""
    if read or not older_file_name(asked, old.name, old.title) or (
            given_title is not None and spelling(given_title) == spelling(old.title)):
        return
    written = raw_name(asked)
    raise Conflict(f"{written!r} is the file name an older memdir gave the memory {old.title!r} ({old.name}); "
                   f"today {written!r} and {old.title!r} are two names, so nothing was written. To update that "
                   f"memory, write it under its title {old.title!r}; for a new memory, choose a distinct name "
                   f"such as {distinct_name(written, taken)!r}")


def check_same_name(asked: str, old, taken: Container[str], warnings: list[str], title: str | None = None) -> None:
    """The one rule of a write whose name normalizes to an existing memory ``old`` (its record):
    a name spelled otherwise (``C# tips`` over ``C++ tips``, :func:`memdir.text.names.same_name`)
    is refused (:class:`Conflict`, :func:`name_taken`); one spelled alike but not as the memory is
    written (``Café Notes``, ``ｃａｆｅ-ｎｏｔｅｓ`` for ``café-notes``; ``ソース`` for ``ｿｰｽ``) updates
    it, and ``warnings`` gets one line naming the memory updated, why, and its title after the
    write (``title``: the updated record's). What the write said of the name as for a new memory
    (:func:`memdir.gateway.fields.name_note`) is removed from every update — also one by the memory's
    own spelling (its title ``Café menu``), which says nothing more: the memory keeps its name, and
    its title unless it had none."""
    if not same_name(asked, old.name, old.title):
        raise Conflict(name_taken(asked, old.name, old.title, taken))
    written, note = raw_name(asked), name_note(asked)
    if note in warnings:  # an update: what a new memory's name would become is not what happened
        warnings.remove(note)
    if written in (old.name, spelled_name(old.name, old.title)):
        return  # the memory's own spelling (its name, its title): "Memory updated" says it all
    shown = f"{old.title!r} ({old.name})" if old.title else repr(old.name)
    kept = (f"its title is now {title!r}" if title and title != old.title
            else f"its title stays {old.title!r}" if old.title else "it has no title")
    warnings.append(f"{written!r} is the name of the existing memory {shown} written otherwise (in case, accents, "
                    f"width or spacing): that memory was updated; {kept}")


__all__ = ["NameIndex", "ambiguous", "by_title", "check_older_file", "check_same_name", "inherited_title", "name_taken", "stored_name", "written_as", "written_to"]
