"""What each page and API route of the web panel asks the store, and what it changes.

Each function takes the :class:`~.home.PanelHome`, calls the facade of
the layer's session (:mod:`memdir.api`, so the same operations, gateway,
limits, redaction and tombstone checks as the CLI and the tools) and returns
the typed results (:mod:`memdir.results`). Both the HTML pages and the
JSON API are made from these; nothing here decides a rule of the store. A
change returns ``(result, text)``: the text is the renderer's
(:mod:`memdir.render.memories`), the same line ``memdir`` prints.

Request bodies are checked for their JSON shape only (which keys, which
JSON types); every value is judged by the operation it is handed to.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import Conflict, InvalidInput, MemdirError, NotFound
from ...gateway.fields import MemoryChange
from ...layer.history import version_number
from ...render import memories as render
from ...results.maintenance import JournalEntry
from ...results.memories import HistoryResult, ListResult, ReadResult, VersionResult
from ...results.trust import Candidate, TombstoneInfo
from ...text.names import normalize_name
from ...vocabulary import CLEARABLE
from .home import LayerView, PanelHome

EDIT_FIELDS = {"name": str, "title": str, "description": str, "type": str, "body": str, "importance": int,
               "valid_from": str, "valid_until": str, "expect_digest": str, "reason": str}


def fields(body, allowed: dict) -> dict:
    """The keys of a JSON object ``body`` checked against ``allowed`` (key →
    JSON type; null is always accepted, and ``""`` for a key of
    :data:`CLEARABLE`, meaning "empty it"). Raises :class:`InvalidInput`."""
    if not isinstance(body, dict):
        raise InvalidInput("the request body must be a JSON object")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(unknown)} (expected {', '.join(sorted(allowed))})")
    for key, kind in allowed.items():
        value = body.get(key)
        if value is None or (value == "" and key in CLEARABLE):
            continue
        if not isinstance(value, kind) or (kind is not str and kind is not bool and isinstance(value, bool)):
            clears = ' (or "" to clear it)' if key in CLEARABLE else ""
            what = {int: "an integer", (int, str): "a number or text"}.get(kind) or "a " + kind.__name__
            raise InvalidInput(f"{key} must be {what}"
                               f"{' or true/false' if kind is bool else ''}{clears}")
    return body


# ---------------------------------------------------------------- reading


def layers(home: PanelHome) -> list[LayerView]:
    """Every layer of the home with its status and budget use."""
    return home.views()


@dataclass(frozen=True)
class LayerPage:
    """One layer's memories in index order (``listing``), or the ones a
    search for ``query`` found, best first; ``error``: why a search failed."""

    ref: str
    scope: str
    root: str | None
    listing: ListResult
    query: str = ""
    error: str | None = None


def layer(home: PanelHome, ref: str, query: str = "") -> LayerPage:
    """Layer ``ref``'s memories, all states (candidates, muted, superseded,
    expired too), in index order; with ``query``, ranked by the search."""
    mem, scope = home.resolve(ref)
    listing = mem.list(scope, include_all=True)
    root = str(mem.project_root) if mem.project_root else None  # the user layer is listed under the session without one
    if not query.strip():
        return LayerPage(ref, scope, root, listing)
    try:
        hits = mem.search(query, k=100, scope=scope, include_muted=True)
    except MemdirError as exc:  # the search extra missing, a bad query: shown above the full list
        return LayerPage(ref, scope, root, listing, query, str(exc))
    by_name = {m.name: m for m in listing.memories}
    found = tuple(by_name[h.name] for h in hits if h.name in by_name)
    return LayerPage(ref, scope, root, ListResult(found, listing.malformed, listing.unavailable), query)


@dataclass(frozen=True)
class MemoryPage:
    """A memory (``read``, not counted as a read; None once deleted, or while only a candidate of its name
    exists), its ``history``, the ``digest`` of its current version (for compare-and-set),
    one version's text (``shown``), a diff between two versions (``diff``) and ``pending``: the candidate
    of this name waiting for review, as review shows it (a team candidate waits in the home, beside the
    team memory it changes, so ``read`` is never it)."""

    ref: str
    scope: str
    name: str
    read: ReadResult | None
    history: HistoryResult
    digest: str | None
    shown: VersionResult | None = None
    diff: str | None = None
    diff_of: tuple[int, int] | None = None
    pending: "ReviewItem | None" = None


def memory(home: PanelHome, ref: str, name: str, version: int | str | None = None,
           diff: tuple[int | str, int | str] | None = None) -> MemoryPage:
    """The memory page's data (``version`` and the two of ``diff`` as 3 or ``"v3"``,
    :func:`memdir.layer.history.version_number`); a deleted memory still has its history (to
    restore from); a candidate of this name is shown as review shows it (:func:`review`). Raises
    :class:`NotFound` for a name with neither history nor a candidate."""
    version = None if version is None else version_number(version)
    diff = None if diff is None else (version_number(diff[0]), version_number(diff[1]))
    mem, scope = home.resolve(ref)
    try:
        read, unread = mem.read(name, scope, count=False), None
    except NotFound as exc:
        read, unread = None, exc
    pending = next(iter(_candidates(ref, mem, scope, read.record.name if read else normalize_name(name).name)), None)
    try:
        history = mem.history(read.record.name if read else name, scope)
    except NotFound:
        if pending is None:
            # Neither a memory nor versions: the read says why (a file there that is no memory — too large,
            # not UTF-8, conflict markers — with its path; a near name), where "no history" said it never was.
            if unread is not None:
                raise unread from None
            raise
        history = HistoryResult(pending.candidate.name, scope, ())  # a new candidate has no versions yet
    key = history.name
    digest = read.digest if read else None
    shown = mem.show(key, version, scope) if version is not None else None
    text = render.diff(mem.show(key, diff[0], scope), mem.show(key, diff[1], scope)) if diff else None
    return MemoryPage(ref, scope, key, read, history, digest, shown, text, diff, pending)


@dataclass(frozen=True)
class ReviewItem:
    """A candidate of layer ``ref`` as review shows it (:class:`memdir.results.trust.Candidate`: its whole text,
    or the live and the proposed text of the memory it changes with their diff, and the digest a decision
    carries) and its ``record`` as approving writes it (what the edit-then-approve form starts from)."""

    ref: str
    candidate: Candidate
    record: object


def review(home: PanelHome) -> list[ReviewItem]:
    """Every candidate of every layer (:meth:`memdir.Memory.review`), team candidates included."""
    return [item for ref, mem, scope in home.layers() for item in _candidates(ref, mem, scope)]


def _candidates(ref: str, mem, scope: str, name: str | None = None) -> list[ReviewItem]:
    """The candidates of layer ``ref`` (``mem``'s ``scope``) as review shows them; with ``name``, those
    of that name."""
    out = []
    for candidate in mem.review(scope).candidates:
        if name is not None and candidate.name != name:
            continue
        try:
            out.append(ReviewItem(ref, candidate, mem.candidate(candidate.name, scope, as_approved=True).record))
        except NotFound:
            continue  # decided since it was listed
    return out


def tombstones(home: PanelHome) -> list[tuple[str, TombstoneInfo]]:
    """``(ref, tombstone)`` for every tombstone in force, per layer."""
    return [(ref, stone) for ref, mem, scope in home.layers() for stone in mem.tombstones(scope).tombstones]


@dataclass(frozen=True)
class JournalPage:
    """Journal events of the chosen layers, newest first, each with its
    layer's ref; ``total`` matched before ``limit``; ``hidden``: the
    consolidation receipts left out (0 when ``everything`` was asked)."""

    entries: tuple[tuple[str, JournalEntry], ...]
    total: int
    refs: tuple[str, ...]
    hidden: int = 0


def journal(home: PanelHome, layer_ref: str = "", actor: str = "", action: str = "", name: str = "",
            limit: int = 200, everything: bool = False) -> JournalPage:
    """The journal page: every layer's events (or ``layer_ref``'s), filtered
    by ``actor``, ``action`` and memory ``name`` when given; consolidation
    receipts only with ``everything`` (:func:`memdir.operations.maintenance.journal`)."""
    all_layers = home.layers()
    chosen = [item for item in all_layers if not layer_ref or item[0] == layer_ref]
    if layer_ref and not chosen:
        home.resolve(layer_ref)  # raises NotFound naming the layer
    found, total, hidden = [], 0, 0
    for ref, mem, scope in chosen:
        result = mem.journal(scope, actor=actor or None, action=action or None, name=name or None, limit=limit,
                             everything=everything)
        total += result.total
        hidden += result.hidden
        found.extend((ref, entry) for entry in result.entries)
    found.sort(key=lambda item: (item[1].ts, item[1].seq), reverse=True)
    return JournalPage(tuple(found[:limit]), total, tuple(item[0] for item in all_layers), hidden)


# ---------------------------------------------------------------- changing


def edit(home: PanelHome, ref: str, name: str, body) -> tuple:
    """Write the edited fields of memory ``name`` (``EDIT_FIELDS``) through
    the same facade call as ``memdir write``: a field left out (or null)
    keeps its value; ``""`` empties an optional one (title, importance,
    valid_from, valid_until). A new ``name`` renames the memory (the new
    name must be free: :class:`Conflict`), keeping every setting not given.
    A candidate stays a candidate until approved. ``expect_digest`` (the
    version the person edited) refuses the edit when the memory changed
    meanwhile, on a rename too. Raises what the write raises."""
    mem, scope = home.resolve(ref)
    result = mem.apply(_edited(body, mem.read(name, scope, count=False).record), scope)
    return result, render.write(result, title=_title(lambda: mem.read(result.name, scope, count=False)))


def _edited(body, current) -> MemoryChange:
    """The :class:`MemoryChange` the edit form's JSON ``body`` asks of the memory ``current`` (its record)."""
    data = fields(body, EDIT_FIELDS)
    new_name = current.name if data.get("name") is None else data["name"]
    renamed = new_name != current.name

    def given(key):  # None: keep; "" was asked to clear
        value = data.get(key)
        return None if value == "" else value

    return MemoryChange(
        # Name, description and type as sent (None keeps them): an emptied one is the write's to refuse by
        # name (as `memdir write -d ''`), never taken for "keep" — the person would see the old text saved.
        new_name, data.get("description"), data.get("type"), data.get("body"),
        title=given("title"), importance=given("importance"),
        status="candidate" if current.status == "candidate" else None,
        valid_from=given("valid_from"), valid_until=given("valid_until"), reason=data.get("reason") or None,
        rename_from=current.name if renamed else None, clear=tuple(k for k in sorted(CLEARABLE) if data.get(k) == ""),
        expect_digest=expected(data))


def expected(data: dict) -> str | None | bool:
    """The ``expect_digest`` of a change's checked JSON body (:func:`fields`): the digest of the version the
    page showed; ``""``: the page showed no such memory (a deleted one's history) — None to the
    operations; absent or null: not checked (False), for a caller of the API that read nothing."""
    value = data.get("expect_digest")
    return False if value is None else (value or None)


def _title(find) -> str | None:
    """The title of the memory ``find()`` reads (a :class:`~memdir.results.memories.ReadResult`: a memory, a candidate),
    what a change's success line names a hash-named memory by (``m-c3f8ff75a0 “部署流程”``:
    :func:`memdir.render.memories.shown_name`, as the layer page's row does); None when it has none or is not
    found (the line then names it alone: the change is done either way)."""
    try:
        return find().record.title
    except MemdirError:
        return None


FLAG_FIELDS = {"value": bool, "expect_digest": str}
DELETE_FIELDS = {"reason": str, "expect_digest": str}
RESTORE_FIELDS = {"version": (int, str), "commit": str, "expect_digest": str}


def flag(home: PanelHome, ref: str, name: str, which: str, body) -> tuple:
    """Pin (``which="pin"``) or mute (``"mute"``) a memory, or undo it with ``{"value": false}``;
    ``expect_digest`` (:func:`expected`): refused when the memory changed since the page showed it."""
    data = fields(body, FLAG_FIELDS)
    value = True if data.get("value") is None else data["value"]  # null is "not given", as for every field
    mem, scope = home.resolve(ref)
    result = (mem.pin if which == "pin" else mem.mute)(name, value, scope, expect_digest=expected(data))
    return result, render.flag(result, title=_title(lambda: mem.read(result.name, scope, count=False)))


def delete(home: PanelHome, ref: str, name: str, body) -> tuple:
    """Delete a memory; its value is tombstoned (``{"reason": …}`` kept with the tombstone);
    ``expect_digest`` (:func:`expected`): refused when the memory changed since the page showed it."""
    data = fields(body, DELETE_FIELDS)
    mem, scope = home.resolve(ref)
    title = _title(lambda: mem.read(name, scope, count=False))  # before: the memory is gone after
    result = mem.delete(name, scope, reason=data.get("reason") or None, expect_digest=expected(data))
    return result, render.delete(result, title=title)


def restore(home: PanelHome, ref: str, name: str, body) -> tuple:
    """Write version ``{"version": N}`` of a memory back, or a team memory as git holds it at
    ``{"commit": ID}`` (a tombstoned value stays refused; one of the two, as
    :func:`memdir.operations.versions.restore` says); ``expect_digest`` (:func:`expected`; ``""``: the page
    showed it deleted): refused when the memory changed, or was written again, since the page showed it."""
    data = fields(body, RESTORE_FIELDS)
    mem, scope = home.resolve(ref)
    result = mem.restore(name, data.get("version"), scope, commit=data.get("commit") or None,
                         expect_digest=expected(data))
    return result, render.restore(result, title=_title(lambda: mem.read(result.name, scope, count=False)))


def current(home: PanelHome, ref: str, name: str) -> ReadResult | None:
    """Memory ``name`` of layer ``ref`` as it is now (not counted as a read), None when there is none:
    what a change refused as stale shows instead of the version its page showed."""
    mem, scope = home.resolve(ref)
    try:
        return mem.read(name, scope, count=False)
    except NotFound:
        return None


DECISIONS = ("approve", "reject", "dismiss")


def decide(home: PanelHome, ref: str, name: str, how: str, body) -> tuple:
    """Approve, reject or dismiss (``how``: :data:`DECISIONS`) a candidate; ``digest`` (what the review page
    showed) is required: a decision on a candidate that changed since is refused. ``{"edit": {…}}``
    (approve only) first writes the edited fields (as :func:`edit`, the candidate staying one, refused when
    it changed since it was shown), then approves what the person wrote; ``reason`` is journaled."""
    data = fields(body, {"reason": str, "edit": dict, "digest": str})
    if not data.get("digest"):
        raise InvalidInput("digest is required: the panel decides on the candidate it showed (reload the review)")
    mem, scope = home.resolve(ref)
    reason = data.get("reason") or None
    title = _title(lambda: mem.candidate(name, scope))
    try:
        if data.get("edit"):
            if how != "approve":
                raise InvalidInput("edit-then-approve only: a rejected or dismissed candidate is not edited")
            change = _edited(data["edit"], mem.candidate(name, scope).record)
            result = mem.approve(name, scope, reason=reason, digest=data["digest"], edit=change)
        else:
            decide_on = {"approve": mem.approve, "reject": mem.reject, "dismiss": mem.dismiss}[how]
            result = decide_on(name, scope, reason=reason, digest=data["digest"])
    except Conflict as exc:  # the operation's text names no command: in the browser, the page shows it again
        raise Conflict(f"{exc} (reload the review to see it as it is now)") from None
    if result.approved:  # the memory it made or changed: its title now
        title = _title(lambda: mem.read(result.name, scope, count=False)) or title
    return result, render.decision(result, title=title)


def lift(home: PanelHome, ref: str, tombstone_id: str, body) -> tuple:
    """Lift a tombstone of layer ``ref`` — of that layer only (journaled as the person's action)."""
    reason = fields(body, {"reason": str}).get("reason")
    mem, scope = home.resolve(ref)
    result = mem.lift_tombstone(tombstone_id, reason=reason or None, scope=scope)
    return result, render.lift(result)


__all__ = ["DECISIONS", "DELETE_FIELDS", "EDIT_FIELDS", "FLAG_FIELDS", "RESTORE_FIELDS", "JournalPage", "LayerPage",
           "MemoryPage", "ReviewItem", "current", "decide", "delete", "edit", "expected", "fields", "flag", "journal",
           "layer", "layers", "lift", "memory", "restore", "review", "tombstones"]
