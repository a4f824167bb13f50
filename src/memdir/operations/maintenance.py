"""Maintenance: status, health checks, the journal and the home's projects (DESIGN §5).

:func:`status`, :func:`doctor` and :func:`journal` describe the session's
layers; :func:`projects` and :func:`orphans` work on every layer of the
home, as ``verify`` and ``repair`` do (:mod:`memdir.operations.verify`,
whose findings :func:`doctor` reports). What only the layers above can
tell — the search state, the consolidation extractor in effect, their
notes — comes in as plain
strings, so this module needs nothing from search or consolidation; the one
caller that gathers them is :func:`memdir.tools.handlers.status` (and
``doctor``), which the facade and the ``memory_status`` tool both use.
"""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from .. import git
from ..errors import InvalidInput, InvalidName, MemdirError, ScopeError, StoreError
from ..files.layout import (
    LAYER_FILE,
    described_root,
    edited_copies,
    edited_index_note,
    index_refusal,
    read_layer_info,
)
from ..files.memfile import text_digest
from ..files.repository import held_memories
from ..files.scan import FALLBACK_NOTE, NO_FRONTMATTER_NOTE, FileNote, Malformed, Scan
from ..files.trust import untrusted_note
from ..gateway.duplicates import duplicate_groups
from ..layer import leftovers
from ..layer.history import numbered_events
from ..layer.index import is_visible
from ..layer.journal import BOOKKEEPING, now_utc
from ..layer.layer import home_layers
from ..layer.team import nested_memory_files, nested_note, team_journal_dirs
from ..paths import PROJECTS_DIR, TEAM_DIR, layer_dirs
from ..prompt.start import mcp_importable, start_budget, start_layout
from ..results.maintenance import (
    DoctorResult,
    JournalEntry,
    JournalResult,
    LayerStatus,
    ProjectInfo,
    ProjectList,
    StatusResult,
)
from ..session import Session
from ..text.names import normalize_name
from ..text.plural import counted
from ..text.printable import LINE_BYTES, clipped, one_line
from ..tombstones.match import match
from ..tombstones.refusals import lift_command
from ..tombstones.stones import misnamed_tombstones, unreadable_tombstones
from ..vocabulary import ACTORS, JOURNAL_ACTIONS, SYNC_HELD
from . import moves
from . import team as teamops
from .installed import CLIENTS, installed
from .lookup import guard
from .sync import summary as sync_summary
from .verify import verify


def status(session: Session, search: str, extractor: str = "", *, full: bool = False) -> StatusResult:
    """Home, project (or why there is none), per-layer counts, unreadable files, what a session start
    injects (:func:`memdir.prompt.start.start_layout`: the context block the agent receives, with the
    tools note and any pending findings; what ``memdir context`` prints) — its size against its budget and its index lines per layer —, and the memories that are exact duplicates of each other
    (:func:`memdir.gateway.duplicates.duplicate_groups`). ``search`` is the search mode to report
    (``bm25``, ``hybrid (…)``, …); ``extractor`` the consolidation extractor in effect and why.

    A hand edit is taken up and counted as :meth:`memdir.layer.layer.Layer.facts_now` sees it (a file
    added, removed or renamed at once; one edited in place of a large layer at its next sweep), and only
    files changed since the layer recorded them are parsed: the counts and copies come from what each layer keeps per memory
    (:meth:`memdir.layer.layer.Layer.facts_now`); so do the files read leniently (``fallback_parsed``,
    ``no_frontmatter``, ``notes``: what the layer recorded of how each file was read). With ``full``
    (``doctor``) every file is parsed."""
    with _collector_paused():
        return _status(session, search, extractor, full)


@contextmanager
def _collector_paused():
    """Python's cyclic collector off while a status reads every layer (a record per memory, none of them in a
    cycle that outlives the status), on again after if it was on: its passes walked every object those reads made,
    133 M of the 1,895 M instructions of a status at 10,000 memories (27 M at 1,000)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _status(session: Session, search: str, extractor: str, full: bool) -> StatusResult:
    """:func:`status`, the collector paused by its caller."""
    # a status's alone: a write, which loads this module, lists no finding (tests/integrations/cli/test_write_imports.py)
    from .findings import project_findings

    now = now_utc()
    stale = session.settings.stale_after_days
    layers, everything = [], []
    for layer in session.layers():
        try:
            scan, records = _memories(layer, full)
        except StoreError as exc:  # a symlinked layer, an unreadable directory: a problem to report
            layers.append(LayerStatus(scope=layer.scope, path=str(layer.path), memories=0, visible=0, candidates=0,
                                      tombstones=0, malformed=(Malformed(str(layer.path), str(exc)),)))
            continue
        everything += [(layer.scope, name, facts.status, digest) for name, facts, digest in records]
        records = [facts for _, facts, _ in records]
        leniently = _lenient(layer, scan)
        waiting, answered = project_findings(layer.path) if layer.scope == "project" else ((), ())  # kept per project
        try:
            stones = len(layer.tombstones())
            unread = [Malformed(path, why) for path, why in (unreadable_tombstones(layer.tombstone_file)
                                                             + misnamed_tombstones(layer.tombstone_file))]
        except StoreError as exc:  # an unreadable tombstones.json: a problem of this layer, the others go on
            stones, unread = 0, [Malformed(str(layer.tombstone_file.path), str(exc))]
        layers.append(LayerStatus(
            scope=layer.scope, path=str(layer.path), memories=len(records),
            visible=sum(1 for r in records if is_visible(r, now, stale)),
            candidates=sum(1 for r in records if r.status == "candidate")
            + (len(teamops.pending(session)) if layer.scope == "team" else 0),  # the team's wait in the home
            superseded=sum(1 for r in records if r.status == "superseded"),
            tombstones=stones, malformed=(*scan.malformed, *unread),
            fallback_parsed=tuple(path for path, notes in leniently if FALLBACK_NOTE in notes),
            no_frontmatter=tuple(path for path, notes in leniently if NO_FRONTMATTER_NOTE in notes),
            notes=tuple(FileNote(path, note) for path, notes in leniently for note in notes),
            pending=waiting, answered=answered))
    budget = start_budget(session)
    try:  # what a session start injects: the block the agent receives (memdir.prompt.start)
        block, shown = start_layout(session, budget)
    except StoreError:
        block, shown = "", ()  # the layer that cannot be read is reported above
    untrusted = untrusted_note(session.layer_dir("team")) if session.team_untrusted() else ""
    in_block = {scope: count for scope, count, _total in shown}
    # the hand-edited MEMORY.md copies kept aside, counted last: the block above may have rebuilt one
    layers = [replace(layer, in_context=in_block.get(layer.scope, 0),
                      edited_index=tuple(edited_copies(session.layer(layer.scope).meta))) for layer in layers]
    # a moved or renamed project starts with an empty layer: where its memories may be (list says it too)
    moved = moved_note(_moved_away(session, any(layer.memories for layer in layers if layer.scope == "project")))
    return StatusResult(str(session.home), str(session.project_root) if session.project_root else None,
                        session.project_error if session.project_root is None else None, tuple(layers),
                        len(block.encode("utf-8")), budget, search, extractor,
                        untrusted, tuple(tuple(f"{scope}:{name}" for scope, name in group)
                                         for group in duplicate_groups(everything)),
                        teamops.merge_driver_missing(session), sync_summary(session), installed(session.home),
                        moved, CLIENTS)


def _memories(layer, full: bool) -> tuple[Scan, list[tuple[str, object, str]]]:
    """The layer's scan and ``(name, record or facts, text digest)`` of each memory, in name order:
    with ``full`` every file parsed; else :meth:`memdir.layer.layer.Layer.facts_now`'s facts and the
    text digests the scan keeps per file (a file it keeps none of is read). Raises :class:`StoreError`."""
    if full:
        scan = layer.scan()
        rows = [(e.record.name, e.record, text_digest(e.record.description, e.record.body))
                for e in scan.entries.values()]
    else:
        scan, facts = layer.facts_now()
        rows = []
        for name, fact in facts.items():
            state = scan.files.get(scan.names.get(name, ""))
            digest = state.text if state is not None else None
            if digest is None:
                if (entry := scan.entries.get(name)) is None:  # its file went since the listing
                    continue
                digest = text_digest(entry.record.description, entry.record.body)
            rows.append((name, fact, digest))
    return scan, sorted(rows, key=lambda row: row[0])


def _lenient(layer, scan: Scan) -> list[tuple[str, tuple[str, ...]]]:
    """``(path, notes)`` of each memory file of ``scan`` read leniently, by path: the notes the scan
    keeps per file (:attr:`memdir.files.scan.FileState.notes`, recorded with the rest by the layer, so
    no file is read again for them)."""
    found = []
    for filename in scan.names.values():
        state, parsed = scan.files.get(filename), layer.files.get(filename)
        if parsed is not None and parsed.entry is not None and (state is None or parsed.key == state.key):
            state = parsed  # parsed in this process (doctor reads every file)
        if state is not None and state.notes:
            found.append((str(layer.path / filename), state.notes))
    return sorted(found)


def unsettled_team_files(session: Session) -> list[str]:
    """One note per team memory file git left deleted on one side and changed on the other
    (:func:`memdir.operations.team.deleted_on_one_side`) that is not held back — a held one is a problem of its
    layer already —: its changed text reaches the agent until the person settles the merge (trial35: doctor said
    nothing of it). A merge is the person's to finish: said, not counted. Runs ``git status`` of the team
    directory; ``[]`` without a team layer or when git cannot answer."""
    if session.project_root is None or "team" not in session.scopes():
        return []
    layer = session.layer("team")
    try:
        changes = git.status(Path(session.checkout_path), layer.path)
    except StoreError:
        return []
    return [f"team: {path} was deleted on one side and changed on the other (git's modify/delete)"
            f"{f', {name} forgotten (tombstone {stone})' if stone else ''}; its changed text reaches the agent "
            "until you settle the merge: `memdir team status` says how"
            for path, name, stone, held in teamops.deleted_on_one_side(layer, changes) if not held]


def nested_team_files(session: Session) -> list[str]:
    """One note per memory file in a folder of the team directory (:func:`memdir.layer.team.nested_memory_files`):
    read by no one, so said (not counted: the file is no memory, moving it is the team's choice). ``[]``
    without a team layer."""
    if session.project_root is None or "team" not in session.scopes():
        return []
    path = session.layer("team").path
    return [f"team: {nested_note(path, found)}" for found in nested_memory_files(path)]


def team_forgotten_here(session: Session) -> list[str]:
    """One note per visible team memory whose value a tombstone of this person's other layers forgets (their
    user or project layer's, a team candidate they rejected: :func:`memdir.operations.lookup.guard`'s, the rule
    every write obeys): git brings a teammate's file without a write, so no refusal stopped it, and it
    reaches this person's agent although they forgot that fact. Said, not counted (the team's text is
    not this person's to hide): the note names the two commands that settle it. ``[]`` without a
    team layer this session reads."""
    if session.project_root is None or "team" not in session.scopes():
        return []
    team = session.layer("team")
    stones = guard(session, team)
    if not stones:
        return []
    now, notes = now_utc(), []
    for name, entry in sorted(team.scan().entries.items()):
        record = entry.record
        found = match(stones, record.description, record.body, title=record.title) if is_visible(record, now) else None
        if found is not None:
            stone = found[0]
            notes.append(f"team: {name} holds a value you forgot in your {stone.scope or 'own'} layer (tombstone "
                         f"{stone.id}), and the team layer brings it to your agent: `memdir forget {name} --scope "
                         f"team` forgets it for the team (then commit), `{lift_command(stone.id, stone.scope)}` "
                         "takes your forget back")
    return notes


def doctor(session: Session, search: str, extractor: str = "", notes: tuple[str, ...] = ()) -> DoctorResult:
    """:func:`status` plus :func:`verify`, with the problems found: files that
    are not memories (a file with conflict markers, one held back because a tombstone of its layer matches
    it — :mod:`memdir.layer.held`: its reason names the two commands that settle it), journals that do not
    check out, settings that could not be read, a ``layer.json`` that does not read (:func:`unreadable_layer_files`),
    orphaned layers (:func:`memdir.operations.relocate.orphans_of`); and
    notes (a context budget the hooks clamp), then ``notes`` given by the
    layers above, which this one cannot see (a search index kept in memory,
    hooks registered twice). It reads every memory file (:func:`status` with ``full``): files read
    leniently are reported by that status, not counted as problems."""
    from ..prompt.context import HOOK_CONTEXT_MAX_CHARS

    current = status(session, search, extractor, full=True)
    unread = unreadable_layer_files(session)  # each listed with its layer's files, as a malformed file is
    current = replace(current, layers=tuple(replace(layer, malformed=(*layer.malformed, *unread.get(layer.scope, ())))
                                            for layer in current.layers))
    checks = verify(session.home, session.settings).layers
    problems = [bad for layer in current.layers for bad in layer.malformed]
    problems += [Malformed(check.layer, f"journal: {check.error}") for check in checks if not check.ok]
    problems += [Malformed(check.layer, check.note) for check in checks if check.note]  # verify: so; here: to fix
    problems += [Malformed("index", said) for scope in session.scopes()
                 if (said := index_refusal(session.meta_path(scope) or session.layer_path(scope)))]
    problems += [Malformed("settings", warning) for warning in session.settings.warnings]
    problems += [Malformed("team", said) for said in filter(None, [team_refused(session)])]
    problems += [Malformed(f"team:{gone.name}", gone.said) for gone in teamops.unlifted(session)]
    try:
        problems += [Malformed(cut.where, cut.said) for cut in moves.cuts(session)]
    except StoreError:
        pass  # the layer that cannot be read is reported above
    found_notes = []
    if session.settings.context_max_bytes > HOOK_CONTEXT_MAX_CHARS:
        found_notes.append(f"context_max_bytes {session.settings.context_max_bytes} is above the "
                     f"{HOOK_CONTEXT_MAX_CHARS} characters Claude Code shows in full; a session start (the hooks, "
                     f"`memdir context`) injects at most {HOOK_CONTEXT_MAX_CHARS} bytes")
    found_notes += long_descriptions(session)
    found_notes += left_behind(session)
    found_notes += [edited_index_note(kept) for layer in current.layers for kept in layer.edited_index]
    found_notes += nested_team_files(session)
    found_notes += team_forgotten_here(session)
    if current.untrusted_team:  # the person's choice, not a problem: said, not counted
        found_notes.append(current.untrusted_team)
    if current.team_merge_driver:  # a clone's setup, fixed by one command: said, not counted
        found_notes.append(current.team_merge_driver)
    found_notes += unsettled_team_files(session)
    if current.sync:  # conflicts wait for the person, an unreachable remote for the network: said, not counted
        found_notes.append(f"sync: {current.sync}")
    problems += [Malformed(f"{scope}:{name}", f"{SYNC_HELD}: memdir sync resolve {name} --scope "
                           f"{scope} (shows both values)") for scope, name in sorted(held_memories(session.home))]
    found_notes += [layer.note for layer in misrecorded_layers(session.home, session.project_root)]
    found_notes += [gone.note for gone in removed_worktrees(session.home, session.project_root)]
    problems += [Malformed(*layer.problem) for layer in stranded_layers(session.home, session.project_root)]
    found = orphans(session.home, session.project_root)
    problems += [Malformed(o.key, f"orphaned layer: its project {o.root} no longer exists ({counted(o.memories, 'memory')})")
                 for o in found]
    problems += [Malformed("install", said) for said in unserved(current.clients, search)]
    return DoctorResult(current, checks, tuple(problems), (*found_notes, *notes), tuple(found))


def unserved(clients, search: str, verb: str = "is installed") -> list[str]:
    """What a coding agent memdir is installed into cannot do with the extras installed here, one line each
    (``memdir doctor`` counts them as problems; newuser30: after a plain ``pip install .``, ``memdir install
    claude-code`` registered a server that cannot start, and doctor said "ok"): its MCP server needs the
    ``mcp`` package, its recall and the ``memory_search`` tool the ``search`` extra (``search``, the
    :func:`memdir.search.reindex.search_mode` word, starts with "unavailable"). ``clients``: the
    :class:`memdir.results.maintenance.InstalledClient` records; nothing without one. ``verb``: how memdir stands with
    them (``memdir install`` says these lines too, newuser31: ``"would be installed"`` for a dry run). Never raises."""
    from ..version import install_command

    if not clients:
        return []
    names = ", ".join(dict.fromkeys(client.client for client in clients))
    said = []
    if not mcp_importable():
        said.append(f"memdir {verb} into {names}, but its MCP server (`memdir mcp`) cannot start: the 'mcp' "
                    f"package is not installed ({install_command('mcp')})")
    if search.startswith("unavailable"):
        said.append(f"memdir {verb} into {names}, but recall and search cannot run: the 'search' extra is not "
                    f"installed ({install_command('search')}, or {install_command('vectors')} for meaning too)")
    return said


def team_refused(session: Session) -> str | None:
    """Why the repository's team directory is no team layer although it is there — a symbolic link on its way
    or a real path out of the repository (:func:`memdir.paths.team_dir_problem`, the rule): every reader passes
    over it and every team command refuses, so a person's team memories left the agent with no word from
    doctor (break28). None without a project, or when the team directory is usable or absent."""
    if session.project_root is None:
        return None
    try:
        session.layer_path("team")
    except ScopeError as exc:
        return str(exc)
    return None


def unreadable_layer_files(session: Session) -> dict[str, list[Malformed]]:
    """The ``layer.json`` of each layer of the session that is there but does not read as a JSON object
    (:func:`memdir.files.layout.read_layer_info`), by scope: every command goes on without it, but what finds the
    layer again when its project moves is lost. The transaction writes a missing one again, never
    replaces one that is there: removing it is the fix."""
    found: dict[str, list[Malformed]] = {}
    for scope in session.scopes():
        try:
            meta = session.layer(scope).meta
        except MemdirError:  # a layer that cannot be opened: the status above says why
            continue
        if os.path.lexists(meta / LAYER_FILE) and read_layer_info(meta) is None:
            found.setdefault(scope, []).append(Malformed(
                str(meta / LAYER_FILE), "cannot be read as a JSON object: what finds this layer again when its project "
                "moves (memdir move-layer, memdir sync) is lost; remove it and the next change writes it again"))
    return found


def left_behind(session: Session) -> list[str]:
    """One note per layer of the home (those ``memdir verify --repair`` repairs) holding side files
    killed writers left that :func:`memdir.layer.leftovers.remove_stale` would remove (temp files,
    backups, files renamed aside, unchanged for the lock timeout; :func:`memdir.layer.leftovers.stale`):
    how many, their bytes, and the command that removes them. Nothing when there are none. Read
    without the lock: a layer that cannot be listed has none."""
    from ..text.plural import counted

    notes = []
    for layer in home_layers(session.home, session.settings):
        count, size = leftovers.stale(layer, session.settings.lock_timeout)
        if count:
            notes.append(f"{layer.path}: {counted(count, 'file')} ({size:,} bytes) left by writers killed mid-change "
                         f"(temp files, backups); `memdir verify --repair` removes them")
    return notes


def long_descriptions(session: Session) -> list[str]:
    """One note per memory file whose description is longer than ``limit_description`` (a file placed
    or edited by hand: a write shortens it and keeps the whole text in the body), naming the file and what
    the index line shows of it, as :func:`memdir.layer.index.index_line` cuts it (:func:`~memdir.text.printable.clipped`
    to :data:`~memdir.text.printable.LINE_BYTES` UTF-8 bytes): all of it, or its first N characters. Every
    file of every layer is parsed (``doctor`` does so
    anyway); a layer that cannot be read is reported by :func:`status`."""
    limit = session.settings.limit_description
    found = []
    for layer in session.layers():
        try:
            scan = layer.scan()
        except StoreError:
            continue
        for name in sorted(scan.names):
            entry = scan.entries.get(name)
            description = entry.record.description if entry is not None else ""
            length = len(description)
            if length > limit:
                line = one_line(description)
                shown = clipped(line)
                if shown == line:  # trial29: "shows its first 163" of 163 read as a cut that is not there
                    what = f"the index line shows all of it (a line is cut past {LINE_BYTES} UTF-8 bytes)"
                else:
                    what = f"the index line shows its first {len(shown) - 1}"  # the characters before the "…"
                found.append(f"{layer.path / scan.names[name]}: its description is {length} characters, over "
                             f"limit_description {limit}; {what} — shorten it (a write keeps the whole text in "
                             "the body)")
    return found


def journal(session: Session, scope: str | None = None, *, actor: str | None = None, action: str | None = None,
            name: str | None = None, limit: int = 200, everything: bool = False) -> JournalResult:
    """The journal events of the session's layers (or ``scope``'s), newest
    first in journal order: one layer's events by their ``seq`` (the order they were made, whatever its
    clock said), the layers' merged by time, each event dated for this order by the earliest ``ts`` of
    itself and every later event of its layer (it was made no later than those; so one stamped by a clock
    set ahead, 2099, comes after every later event of its layer, never first for good), ties by layer
    order; those of ``actor``, ``action`` and
    memory ``name`` only when given (exact matches; ``name`` is also read as a name is written,
    :func:`memdir.text.names.normalize_name`: ``회의록 규칙`` in NFC or NFD, ``Café-Notes``), at most ``limit``
    (1–10000). Bookkeeping events (:data:`~memdir.layer.journal.BOOKKEEPING`:
    consolidation's receipts) are left out and counted in ``hidden`` unless
    ``everything`` is true or ``action`` names one; ``total`` and ``limit``
    count the events shown. Each carries the version of its memory it
    produced. Raises :class:`InvalidInput` for a bad limit, an action not of
    :data:`~memdir.vocabulary.JOURNAL_ACTIONS` or an actor not of
    :data:`~memdir.vocabulary.ACTORS` (who journals an event), :class:`ScopeError`."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10000:
        raise InvalidInput(f"limit must be an integer from 1 to 10000 (got {limit!r})")
    if action and action not in JOURNAL_ACTIONS:
        raise InvalidInput(f"action must be one of {', '.join(JOURNAL_ACTIONS)} (got {action!r})")
    if actor and actor not in ACTORS:
        raise InvalidInput(f"actor must be one of {', '.join(ACTORS)} (got {actor!r})")
    names = _filtered_names(name)
    found, hidden = [], 0
    for order, layer in enumerate(session.layers(scope)):
        by = None  # the earliest ts of this event and every later one of the layer (newest first below)
        for event, version in reversed(numbered_events(layer)):
            by = event.ts if by is None or event.ts < by else by
            if (actor and event.actor != actor) or (action and event.action != action) or (names and event.name not in names):
                continue
            if not everything and not action and event.action in BOOKKEEPING:
                hidden += 1
                continue
            found.append((by, -order, JournalEntry(layer.scope, event.seq, event.ts, event.actor, event.action,
                                                         event.name, event.reason, event.session, event.before,
                                                         event.after, version)))
    found.sort(key=lambda item: (item[0], item[1], item[2].seq), reverse=True)
    return JournalResult(tuple(item[2] for item in found[:limit]), len(found), hidden)


def _filtered_names(name: str | None) -> tuple[str, ...]:
    """The stored names :func:`journal`'s ``name`` filter matches: ``name`` as given and the name it normalizes to
    (as a write names it); ``()`` for no filter."""
    if not name:
        return ()
    try:
        return (name, normalize_name(name).name)
    except InvalidName:  # not a name a write takes: only an event of that exact stored name
        return (name,)


def projects(home: Path) -> ProjectList:
    """Every project layer under ``home`` (and every repository known only
    by its team layer) with the root it records and whether that directory
    still exists (a moved or deleted project's layer
    stays until a person clears it)."""
    out = []
    for path in layer_dirs(home):
        if path.parent.name != PROJECTS_DIR:
            continue
        root = described_root(path)
        out.append(ProjectInfo(path.name, str(path), root, bool(root) and Path(root).is_dir()))
    # A repository whose only memories here are its team layer's (a clone that only pulled them).
    keys = {info.key for info in out}
    for meta in team_journal_dirs(home):
        # team/<key>/.memdir, or team/<key>/candidates/.memdir: only candidates wait there so far
        path = meta.parent if meta.parent.parent.name == TEAM_DIR else meta.parent.parent
        if path.parent.name == TEAM_DIR and path.name not in keys:
            keys.add(path.name)
            root = described_root(path) or described_root(meta.parent)
            # its (empty) personal project layer is where it would be: the same key
            out.append(ProjectInfo(path.name, str(Path(home) / PROJECTS_DIR / path.name), root,
                                   bool(root) and Path(root).is_dir()))
    return ProjectList(tuple(sorted(out, key=lambda info: info.key)))


def orphans(home: Path, project_root: Path | None = None, *, live: Path | None = None) -> list:
    """The project layers of :func:`projects` whose recorded root is gone and whose key no live project has
    (:func:`memdir.operations.relocate.live_keys`: the session's project ``live`` or ``project_root``, the
    roots the home's layers record), as :class:`memdir.operations.relocate.OrphanLayer` (memory count; with
    ``project_root``, whether it is that project's, by git remote or first commit). A removed git worktree's
    team journal is not one (:func:`removed_worktrees`: no checkout takes it over)."""
    from .relocate import gone_checkouts, live_keys, orphans_of

    keys = live_keys(home, live if live is not None else project_root)
    listed = projects(home).projects
    worktrees = {gone.key for gone in gone_checkouts(home, listed, keys)}  # no checkout takes them over
    return orphans_of([p for p in listed if p.root and not p.exists and p.key not in keys and p.key not in worktrees],
                      project_root, home)


def moved_away(session, listed, scope: str | None = None) -> list:
    """Where a moved or renamed project's memories may be: the layers of :func:`orphans` that hold memories,
    when ``listed`` (a :class:`memdir.results.memories.ListResult` of ``session``'s layers) shows no memory of its
    project layer, since a project at a new path starts with an empty layer while its user-layer memories
    still show. ``[]`` without a project root, for a listing of another ``scope`` than the project's (None:
    every layer), or when ``listed`` shows a project memory."""
    if scope not in (None, "project"):
        return []
    return _moved_away(session, any(info.scope == "project" for info in listed.memories))


def _moved_away(session, project_memories: bool) -> list:
    """The rule of :func:`moved_away` (``list``) and of ``status``'s
    :attr:`~memdir.results.maintenance.StatusResult.moved_away`: the orphaned layers holding memories, when the
    session's project layer holds none (``project_memories`` False); ``[]`` without a project root or when it
    holds some."""
    if session.project_root is None or project_memories:
        return []
    return [found for found in orphans(session.home, live=session.project_root) if found.memories]


def moved_note(found: list) -> str:
    """The sentence ``list`` warns and ``status`` shows when :func:`moved_away` finds layers (``found``, of
    :class:`memdir.operations.relocate.OrphanLayer`): how many, their memories, and the two commands that
    tell which is this project's and bring it here; ``""`` for none."""
    from ..text.agreement import agreeing

    if not found:
        return ""
    return (f"{counted(len(found), 'layer')} of projects that no longer exist {agreeing(len(found), 'holds')} "
            f"memories ({sum(o.memories for o in found)} in all); if this project moved, `memdir doctor` shows "
            "which is its own and `memdir move-layer` brings it here")


def removed_worktrees(home: Path, project_root: Path | None = None) -> list:
    """The team layers' local sides of git worktrees that were removed, which no live project has
    (:func:`memdir.operations.relocate.gone_checkouts`), the session's ``project_root`` among the live ones."""
    from .relocate import gone_checkouts, live_keys

    return gone_checkouts(home, projects(home).projects, live_keys(home, project_root))


def stranded_layers(home: Path, project_root: Path | None = None) -> list:
    """The layers of :func:`projects` that record a living project not their key's and are no live project's
    (:func:`memdir.operations.relocate.stranded`: a move cut before its rename), the session's ``project_root``
    among the live ones."""
    from .relocate import live_keys, stranded

    return stranded(projects(home).projects, live_keys(home, project_root))


def misrecorded_layers(home: Path, project_root: Path | None = None) -> list:
    """The live projects' layers of :func:`projects` whose ``layer.json`` names another root
    (:func:`memdir.operations.relocate.misrecorded`), the session's ``project_root`` among the live ones."""
    from .relocate import live_keys, misrecorded

    return misrecorded(projects(home).projects, live_keys(home, project_root))


__all__ = ["doctor", "journal", "left_behind", "long_descriptions", "misrecorded_layers", "moved_away", "moved_note",
           "orphans",
           "projects", "removed_worktrees", "status", "unreadable_layer_files"]
