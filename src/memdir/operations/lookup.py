"""Which memory a name means, which tombstones guard a write, and what a "not found" says.

:func:`find` is the one lookup of a name in a session's layers (user first;
a name that only normalizes like another memory's is not that memory; a
hand-written file's title stands in for its name when only one has it).
:func:`guard` gives the tombstones of the session's other layers a write into
one layer must also respect. A "not found" says more than "not found" (one
place for the CLI, the API and the tools): a memory the journal saw deleted is told as deleted, with the tombstone its deletion left (when that is
still in force), and the error carries its name so each interface says where its versions are; a rename from a memory that is in another layer than the one
asked names that layer; a name that normalizes to another memory's file says so; a name whose file is
there but is not a readable memory (emptied, conflict markers) says why, as ``list`` does. A name no layer ever held keeps the plain "memory not found".
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress

from ..errors import InvalidInput, NotFound, StoreError
from ..files.conflicts import CONFLICT, unsettled
from ..files.memfile import MalformedMemory, parse
from ..files.scan import Entry
from ..gateway.forgotten import Guard
from ..gateway.naming import by_title, candidates, stored_name, written_as
from ..layer.journal import changes_content
from ..layer.layer import Layer
from ..session import Session
from ..text.names import asked_name, legacy_names, normalize_name, same_name
from ..tombstones.stones import unreadable_tombstones


def find(session: Session, name: str, scope: str | None = None, *, explain: bool = True) -> tuple[Layer, Entry]:
    """The layer and entry of memory ``name``: in ``scope``, or in the first
    of the session's layers that has it (user first). Raises
    :class:`NotFound` (with ``explain``, a deleted memory is told as deleted:
    :func:`deleted`), :class:`InvalidName`, :class:`ScopeError`."""
    key = normalize_name(name).name
    layers = session.layers(scope)
    for layer in layers:  # the common case: one file read in the layer that holds it, no layer scanned
        read: dict[str, Entry | None] = {}
        try:  # its file name, or the one an older memdir gave it (memdir.gateway.naming)
            stored = stored_name(name, key, lambda n: _record(read.setdefault(n, layer.read_now(n))))
            entry = read[stored or key]
        except StoreError:
            break  # the walk below says why, and goes on to the other layers
        if stored is not None:
            return layer, entry
        if entry is not None:
            break  # a name that only normalizes like this one: the walk below decides
    readable = []
    failed = other = None
    for layer in layers:
        try:
            entries = layer.scan().entries
            stored = stored_name(name, key, lambda n: _record(entries.get(n)))  # its file name, an older memdir's
        except StoreError as exc:  # one unreadable layer never hides the others
            failed = exc
            continue
        readable.append(layer)
        if stored is not None:
            return layer, entries[stored]
        if entries.get(key) is not None:
            other = other or entries[key]  # `C# tips` is not `C++ tips`, though both normalize to c-tips
    # The index shows a memory by its title (a hand-written file's `name:` that is not its file stem;
    # ソース of a memory an older memdir stored as ｿｰｽ; Łódź-notes of odz-notes, asked as Lodz-notes): a model
    # that calls it by that title means that memory, when only one has it (memdir.gateway.naming.by_title, the
    # writes' rule too). The names an older memdir may have given it first (candidates): no other file is read.
    for layer in readable:
        found = layer.scan()
        entries = found.entries
        older = [e.record for n in candidates(name, key, found.names) if (e := entries.get(n)) is not None]
        titled = by_title(name, key, older) or by_title(name, key, (e.record for e in entries.values()))
        if titled is not None:
            return layer, entries[titled]
    if failed is not None and scope is not None:
        raise failed
    where = f"the {scope} layer" if scope else "any layer"
    if other is not None:
        raise NotFound(other_name(name, other))
    for layer in readable:
        if (found := unreadable(layer, name)) is not None:
            raise found
    for layer in readable if explain else ():  # each interface names its own way to the versions (NotFound.deleted)
        try:  # deleted under its name, or under an older memdir's name for it (odz-notes of Lodz-notes)
            stored = history_name(layer, name)
        except (StoreError, OSError):
            stored = key
        if gone := deleted([layer], stored, asked=name):
            raise NotFound(gone, deleted=stored)
    raise NotFound(f'memory not found: {asked_name(name, key)} in {where}' + unsearched(session, scope)
                   + did_you_mean(key, readable))


def did_you_mean(key: str, layers) -> str:
    """What a "not found" of ``key`` (a normalized name) adds: ``"; did you mean 'db-port'?"`` naming the live
    memories of ``layers`` it is closest to (:func:`closest`), ``""`` when none is. The one wording of the
    suggestion, for a read, a forget and a history alike (newuser49: `memdir history db-prot` offered none).
    A layer that cannot be listed is passed over."""
    names = []
    for layer in layers:
        with suppress(StoreError, OSError):
            names += list(layer.scan().entries)
    near = closest(key, names)
    return f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""


def unreadable(layer: Layer, name: str) -> NotFound | None:
    """The refusal when the file of memory ``name`` is in ``layer`` but is no memory (permission denied,
    emptied, git's conflict markers, too large, not UTF-8, a directory, a link, a FIFO): said as list says it
    (path and reason: the layer's scan's malformed list), never "deleted" or "not found" — a
    :class:`NotFound` whose ``unreadable`` is the path, so each interface words it as a file that exists and
    cannot be read. None when the layer has no such file. From the layer's scan; raises :class:`StoreError`
    when the layer cannot be listed, :class:`InvalidName`."""
    key = normalize_name(name).name
    found = layer.scan()
    path = layer.path / f"{key}.md"
    state = found.files.get(f"{key}.md")  # a file read; one never read (not a regular file) is only listed
    why = next((bad.error for bad in found.malformed if bad.path == str(path)), None)
    if why is None:
        return None
    return NotFound(f'memory {asked_name(name, key)} of the {layer.scope} layer is not read: ' + (
        unsettled(path) if state is not None and state.error == CONFLICT
        else f"its file exists but is not a readable memory: {path}: {why}"), unreadable=str(path))


CLOSEST = 3  # names a "not found" offers at most
CLOSE_RATIO = 0.75  # difflib's similarity a typo keeps (officce-wifi for office-wifi: 0.96; zoe for joe: 0.67)


def closest(key: str, names: Iterable[str]) -> list[str]:
    """The names of ``names`` a "not found" of ``key`` (a normalized name) offers, at most :data:`CLOSEST`,
    closest first: those ``key`` is a typo of (:func:`difflib.get_close_matches`, ratio at least
    :data:`CLOSE_RATIO`), then those that hold ``key`` as one of their dash-separated words (``zoe`` in
    ``zoe-martin``, ``martin`` too) or start with it (three characters at least: ``zoe-m``), in name order.
    ``[]`` when none is."""
    import difflib

    pool = sorted(set(names) - {key})
    near = difflib.get_close_matches(key, pool, n=CLOSEST, cutoff=CLOSE_RATIO)
    near += [n for n in pool if n not in near and (key in n.split("-") or n.startswith(key + "-")
                                                   or len(key) >= 3 and n.startswith(key))]
    return near[:CLOSEST]


def held_name(layer: Layer, name: str) -> str | None:
    """The file name ``layer`` holds the memory ``name`` under, as a write decides where a memory is:
    ``name``'s normalized name when a memory is there (whether ``name`` names it is the gateway's to
    say: ``C# tips`` is not ``C++ tips``), else the name an older memdir gave it
    (:func:`memdir.gateway.naming.stored_name`: ``odz-notes`` of ``Łódź-notes``, asked as
    ``Lodz-notes`` too); None when the layer holds neither. From the layer's last scan
    (:meth:`memdir.layer.layer.Layer.lookup`); reads no file but the few an older name may hold.
    Raises :class:`StoreError`, :class:`InvalidName`."""
    key = normalize_name(name).name
    if layer.lookup(key) is not None:  # an older memdir's file spelled as written wins (odz-notes of Łódź-notes)
        return stored_name(name, key, lambda n: _record(layer.lookup(n))) or key
    found = layer.glance(edits=False)  # names: a file placed by hand is parsed only when it may be name's
    return stored_name(name, key, lambda n: _record(layer.lookup(n)), lambda: filter(None, (
        _record(found.entries.get(n)) for n in candidates(name, key, found.names))))


def history_name(layer: Layer, name: str) -> str:
    """The file name whose versions ``layer``'s journal keeps for memory ``name``: where a live memory
    of that name is (:func:`held_name`), else its normalized name when the journal has it, else the
    name an older memdir gave it whose last version is a memory spelled so (deleted since:
    ``odz-notes`` for ``Łódź-notes``), else its normalized name. Raises :class:`StoreError`,
    :class:`InvalidName`. A deleted memory an older memdir named, spelled exactly as ``name``
    (:func:`memdir.gateway.naming.written_as`: ``odz-notes`` titled ``Łódź-notes``), is ``name``'s
    before a live one ``name`` only folds to (``lodz-notes``), as :func:`find` decides among live ones."""
    key = normalize_name(name).name
    last: dict[str, str | None] = {}

    def version(stored: str):
        if (live := _record(layer.lookup(stored))) is not None:
            return live
        try:
            return parse(layer.journal.get_object(last[stored]).decode("utf-8"), stored).record
        except (KeyError, TypeError, NotFound, MalformedMemory, UnicodeDecodeError):
            return None

    if legacy_names(name):  # the journal is read only for a name an older memdir named otherwise
        _last_versions(layer, last)
        exact = stored_name(name, key, version)
        if exact is not None and written_as(name, version(exact)):
            return exact
    held = held_name(layer, name)
    if held is not None:
        return held
    _last_versions(layer, last)
    if key in last:
        return key
    return stored_name(name, key, version, lambda: filter(None, map(version, candidates(name, key, last)))) or key


def _last_versions(layer: Layer, last: dict[str, str | None]) -> None:
    """Fill ``last`` (once) with each file name of ``layer``'s journal → the object of its last content
    version, also once deleted."""
    if last:
        return
    for event in layer.journal.events():
        if changes_content(event):
            last[event.name] = event.after or last.get(event.name)


def refuse_ambiguous(session: Session, name: str, verb: str) -> list[tuple[str, str]]:
    """Refuse an unscoped ``verb`` (``write``, ``delete``) of ``name`` held by more than one of the
    session's layers: one may be shared (the team layer, committed) and one personal, so guessing
    could put private text into the repository or remove the other person's fact. The one rule of
    every unscoped change by name. A layer that cannot be read is passed over (:func:`find` says
    why, where it matters). Returns the one holder, ``[(scope, file name)]`` (:func:`held_name`:
    an older memdir's name too), or ``[]``. Raises :class:`InvalidInput` naming the layers and its
    ``scope`` argument (each interface's own name for it: :meth:`memdir.errors.InvalidInput.worded`)."""
    key = normalize_name(name).name
    holders = []
    for scope in session.scopes():
        try:
            if (stored := held_name(session.layer(scope), name)) is not None:
                holders.append((scope, stored))
        except StoreError:
            continue
    if len(holders) > 1:
        layers = " and ".join(f"{s} ({_KIND[s]})" for s, _ in holders)
        which = " or ".join(s for s, _ in holders)
        raise InvalidInput(f"{key!r} is in the {layers} layers; say which to {verb} with {{argument}} {which}",
                           argument="scope")
    return holders


_KIND = {"user": "personal, every project", "team": "shared in the repository", "project": "personal"}


def spelled_as_other(layer: Layer, name: str) -> str | None:
    """The refusal when ``name`` normalizes to a live memory of ``layer`` it
    does not name (:func:`memdir.text.names.same_name`), else None. Only that memory's file is parsed
    (:meth:`memdir.layer.layer.Layer.glance`): not the layer's other files placed by hand."""
    try:
        entry = layer.glance().entries.get(normalize_name(name).name)
    except StoreError:
        return None
    if entry is not None and not same_name(name, entry.record.name, entry.record.title):
        return other_name(name, entry)
    return None


def _record(entry: Entry | None):
    return entry.record if entry is not None else None


def unsearched(session: Session, scope: str | None) -> str:
    """What a "not found" adds when the project layer was not looked in (no
    project root): ``""`` otherwise."""
    if scope is None and session.project_root is None:
        return f"; the project layer was not searched: {session.project_error}"
    return ""


def guard(session: Session, target: Layer | None = None) -> Guard:
    """The tombstones of the session's layers other than ``target``: a write
    into one layer is refused for a value forgotten in another (``target``'s
    own are checked in its transaction). ``target`` None, or a layer outside
    the session (a team candidate in the home): every layer's — for a check
    made before the layer is chosen (consolidation, imports). The one rule of
    every write path (the tools, team proposals and decisions, imports,
    consolidation). A layer whose tombstones cannot be read (another user's,
    a damaged file) is skipped, named in ``skipped`` as a warning for the
    result: it must not block writes to the layers this user owns. A team
    tombstone file that does not read
    (:meth:`memdir.tombstones.stones.TombstoneDir.problems`) is named
    there too — also of ``target``, whose transaction passes over it in silence. The tombstones of a
    team layer the session may not see (untrusted: :meth:`memdir.session.Session.bound_layers`)
    bind as well, and so do the values this person rejected as team candidates (kept in the home): an
    agent cannot write a rejected value into another layer of the project; a person is warned. ``live``:
    the memories of the session's visible layers other than ``target``
    (:meth:`memdir.session.Session.layers`; an untrusted team layer's are not: its text is not the
    session's), which a write must not copy (:mod:`memdir.gateway.duplicates`), as each layer's
    :meth:`~memdir.layer.layer.Layer.current_scan` (nothing parsed until a copy is suspected); an
    unreadable layer holds none."""
    stones, skipped, live = Guard(), [], []
    for layer in session.layers():
        if layer is not target:
            try:
                live.append((layer.scope, layer.glance()))  # hand-placed files read only as copies are sought
            except StoreError:
                continue  # an unreadable layer holds nothing a write could copy
    own = target.path if target is not None else None
    for layer in session.bound_layers():  # an untrusted team layer's tombstones bind too, and rejected values
        try:
            if layer.path != own:
                stones.extend(layer.tombstones())
            unread = unreadable_tombstones(layer.tombstone_file)
        except StoreError as exc:
            if layer.path != own:  # target's own: its transaction refuses the write, saying why
                skipped.append(f"the {layer.scope} layer's tombstones were not checked: {exc}")
            continue
        skipped += [f"the {layer.scope} layer's tombstones were not all checked: {path}: {why}" for path, why in unread]
    stones.skipped, stones.live = tuple(skipped), tuple(live)
    return stones


def writable(session: Session, scope: str | None) -> list[Layer]:
    """The layers an operation over a whole scope changes: the team layer
    only for a person, or when asked by name (then the team layer refuses
    anyone else, saying why)."""
    return [layer for layer in session.layers(scope)
            if layer.scope != "team" or scope == "team" or session.actor == "human"]


def deleted(layers: Iterable[Layer], key: str, *, asked: str | None = None) -> str | None:
    """The message for ``key`` (a normalized name) when the last content version the journal of one of
    ``layers`` (first that has it) holds of it is a deletion: ``memory "beta" was deleted from the project
    layer (tombstone t-…)`` (the tombstone only while it is in force); ``asked``, the name as asked, is
    named as :func:`memdir.text.names.asked_name` names it (``memory "Beta" (read as "beta") was deleted …``).
    Where its versions are is each
    interface's to say (``deleted`` of :class:`memdir.errors.NotFound`: the CLI names ``memdir history``, the tools
    ``memory_history``). None when no layer's journal shows ``key`` deleted (never there, or living). A
    layer whose journal or tombstones cannot be read is passed over."""
    for layer in layers:
        try:
            last = next((e for e in reversed(layer.journal.events()) if e.name == key and changes_content(e)), None)
            if last is None or last.after is not None:
                continue
            stone = last.data.get("tombstone")
            if stone and not any(s.id == stone for s in layer.tombstones()):
                stone = None  # lifted since: the value may come back, no id to tell
        except (StoreError, OSError):
            continue
        how = "" if last.action == "delete" else f" (by {last.action})"
        shown = asked_name(asked, key) if asked is not None else f'"{key}"'
        return (f'memory {shown} was deleted{how} from the {layer.scope} layer'
                + (f" (tombstone {stone})" if stone else ""))
    return None


def other_name(name: str, entry: Entry) -> str:
    """The refusal when ``name`` normalizes to the file of a memory (``entry``) it does not name
    (:func:`memdir.text.names.same_name`: ``C# tips`` is not ``C++ tips``)."""
    record = entry.record
    shown = f"{record.title!r} ({record.name})" if record.title else repr(record.name)
    return (f"memory not found: {name.strip()!r}; its file name {record.name!r} belongs to the memory {shown}, "
            f"which is another name (use {record.name!r} to mean that one)")


def rename_missing(rename_from: str, looked: tuple[str, ...]) -> NotFound:
    """The refusal of a rename from ``rename_from``, which none of the ``looked`` scopes holds (each
    named: ``user or project``, ``user, team or project``)."""
    where = " or ".join(filter(None, (", ".join(looked[:-1]), looked[-1])))
    return NotFound(f"cannot rename {asked_name(rename_from)}: no such memory in the {where} layer")


def same_name_elsewhere(session: Session, scope: str, name: str, asked: str | None) -> tuple[str, ...]:
    """The other scopes of ``session`` (context order: user, team, project) whose layer holds a memory by the
    name ``name`` (:func:`held_name`), when a read or a history shows the one in ``scope``: a project memory and
    a personal one may share a name, and a read without a scope shows the user layer's alone (newuser36: the
    other went unmentioned). ``asked``: the scope the caller asked for; None when :func:`find` looked through the
    layers in order and stopped at ``scope``, so those before it are not read again (a read stays one file's
    work). A layer that cannot be read is left out. () when none."""
    order = session.scopes()
    skipped = order[:order.index(scope)] if asked is None and scope in order else ()
    found = []
    for other in order:
        try:
            if other != scope and other not in skipped and held_name(session.layer(other), name) is not None:
                found.append(other)
        except (StoreError, OSError):
            continue
    return tuple(found)


def created_beside(session: Session, scope: str, name: str) -> str | None:
    """The warning of a write that created memory ``name`` in ``scope`` while another layer of ``session`` holds a
    memory of that name (:func:`same_name_elsewhere`; newuser49: ``memdir write db-port --scope user`` beside the
    project's db-port said only "Memory created", and the next unscoped write of db-port was refused): a second
    memory, not the one the writer may have meant, and every later write or delete of the name needs its scope.
    None when no other layer holds it."""
    others = same_name_elsewhere(session, scope, name, scope)
    if not others:
        return None
    where = " and ".join(f"the {other} layer (scope {other})" for other in others)
    return (f"another memory named {name} is in {where}: this created a second one, in the {scope} layer; "
            f"a write or delete of {name} now needs its scope")


def renamed_elsewhere(exc: NotFound, session, rename_from: str, scope: str) -> NotFound:
    """``exc`` (a rename from ``rename_from`` refused as missing in ``scope``), told which other layer of
    ``session`` holds it: ``('nb' is in the project layer)``, with ``elsewhere="project"`` (each interface
    says how to name that layer: :class:`memdir.errors.NotFound`); ``exc`` itself when no other layer does."""
    key = normalize_name(rename_from).name
    for other in session.scopes():
        try:
            found = other != scope and held_name(session.layer(other), rename_from) is not None
        except (StoreError, OSError):
            continue
        if found:
            return NotFound(f"{exc} ({key!r} is in the {other} layer)", elsewhere=other)
    return exc


__all__ = ["Guard", "created_beside", "deleted", "did_you_mean", "find", "guard", "held_name", "history_name", "other_name", "refuse_ambiguous", "rename_missing", "renamed_elsewhere",
           "same_name_elsewhere",
           "spelled_as_other",
           "unreadable", "unsearched", "writable"]
