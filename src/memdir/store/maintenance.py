"""Maintenance: status, health checks, the journal, verification and repair (DESIGN §5).

:func:`status`, :func:`doctor` and :func:`journal` describe the session's
layers; :func:`verify`, :func:`repair` and :func:`projects` work on every
layer of the home. The search mode is passed in by the caller, so this
module needs nothing from the search package.
"""

from __future__ import annotations

from pathlib import Path

from .context import session_block
from .errors import InvalidInput, StoreError
from .index import is_visible
from .journal import Journal, now_utc
from .history import numbered_events
from .layer import described_root, home_layers
from .layout import META_DIR, symlink_refusal
from .paths import PROJECTS_DIR, layer_dirs, team_journal_dirs
from .results import (
    DoctorResult, FileNote, JournalEntry, JournalResult, LayerCheck, LayerStatus, ProjectInfo, ProjectList,
    StatusResult, VerifyResult,
)
from .scan import Entry, Malformed
from .session import Session


def verify(home: Path) -> VerifyResult:
    """Check every layer's journal under ``home`` (the team layers' local
    journals too): line syntax, sequence, the hash chain and every version
    object's digest. Never raises for bad data."""
    checks = []
    journals = [(path, path / META_DIR) for path in layer_dirs(home)]
    journals += [(path, path) for path in team_journal_dirs(home)]  # the team layers' local side
    for path, meta in journals:
        refusal = symlink_refusal(path) if meta != path else None
        if refusal:  # never followed, not even to read
            checks.append(LayerCheck(str(path), False, 0, None, None, refusal))
            continue
        result = Journal(meta).verify()
        checks.append(LayerCheck(str(path), result.ok, result.events, result.bad_seq, result.bad_line, result.error))
    return VerifyResult(tuple(checks))


def repair(session: Session) -> VerifyResult:
    """Bring every layer of the home to a consistent state — cut torn journal
    tails, journal hand edits, rebuild ``MEMORY.md`` — then :func:`verify`.
    Raises :class:`LockTimeout`, :class:`StoreError`."""
    for layer in home_layers(session.home, session.settings):
        layer.refresh_index()
    checked = verify(session.home)
    return VerifyResult(checked.layers, repaired=True)


def status(session: Session, search: str, extractor: str = "") -> StatusResult:
    """Home, project (or why there is none), per-layer counts, unreadable and
    leniently read files, and the context block's size against its budget.
    ``search`` is the search mode to report (``bm25``, ``hybrid (…)``, …);
    ``extractor`` the consolidation extractor in effect and why."""
    now = now_utc()
    stale = session.settings.stale_after_days
    layers = []
    for layer in session.layers():
        try:
            scan = layer.scan()
        except StoreError as exc:  # a symlinked layer, an unreadable directory: a problem to report
            layers.append(LayerStatus(scope=layer.scope, path=str(layer.path), memories=0, visible=0, candidates=0,
                                      tombstones=0, malformed=(Malformed(str(layer.path), str(exc)),)))
            continue
        records = [e.record for e in scan.entries.values()]
        layers.append(LayerStatus(
            scope=layer.scope, path=str(layer.path), memories=len(records),
            visible=sum(1 for r in records if is_visible(r, now, stale)),
            candidates=sum(1 for r in records if r.status == "candidate"),
            tombstones=len(layer.tombstones()), malformed=tuple(scan.malformed),
            fallback_parsed=tuple(str(e.path) for e in scan.entries.values() if e.fallback),
            no_frontmatter=tuple(str(e.path) for e in scan.entries.values() if e.no_frontmatter),
            notes=tuple(FileNote(str(e.path), note) for e in sorted(scan.entries.values(), key=lambda e: e.path)
                        for note in _notes(e))))
    try:
        block = session_block(session)
    except StoreError:
        block = ""  # the layer that cannot be read is reported above
    return StatusResult(str(session.home), str(session.project_root) if session.project_root else None,
                        session.project_error if session.project_root is None else None, tuple(layers),
                        len(block.encode("utf-8")), session.settings.context_max_bytes, search, extractor)


def _notes(entry: Entry) -> list[str]:
    """How ``entry``'s file was read leniently, one note per leniency."""
    notes = []
    if entry.fallback:
        notes.append("read with the line fallback (frontmatter is not valid YAML)")
    if entry.no_frontmatter:
        notes.append("no frontmatter (listed under its file name)")
    return notes + list(entry.notes)


def doctor(session: Session, search: str, extractor: str = "") -> DoctorResult:
    """:func:`status` plus :func:`verify`, with the problems found: files that
    are not memories and journals that do not check out. Files read leniently
    are reported by the status, not counted as problems."""
    current = status(session, search, extractor)
    checks = verify(session.home).layers
    problems = [bad for layer in current.layers for bad in layer.malformed]
    problems += [Malformed(check.layer, f"journal: {check.error}") for check in checks if not check.ok]
    return DoctorResult(current, checks, tuple(problems))


def journal(session: Session, scope: str | None = None, *, actor: str | None = None, action: str | None = None,
            name: str | None = None, limit: int = 200) -> JournalResult:
    """The journal events of the session's layers (or ``scope``'s), newest
    first (by time, then layer order), those of ``actor``, ``action`` and
    memory ``name`` only when given (exact matches), at most ``limit``
    (1–10000). Each carries the version of its memory it produced. Raises
    :class:`InvalidInput` for a bad limit, :class:`ScopeError`."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10000:
        raise InvalidInput(f"limit must be an integer from 1 to 10000 (got {limit!r})")
    found = []
    for order, layer in enumerate(session.layers(scope)):
        for event, version in numbered_events(layer):
            if (actor and event.actor != actor) or (action and event.action != action) or (name and event.name != name):
                continue
            found.append((event.ts, -order, JournalEntry(layer.scope, event.seq, event.ts, event.actor, event.action,
                                                         event.name, event.reason, event.session, event.before,
                                                         event.after, version)))
    found.sort(key=lambda item: (item[0], item[1], item[2].seq), reverse=True)
    return JournalResult(tuple(item[2] for item in found[:limit]), len(found))


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
    for path in team_journal_dirs(home):
        if path.name != ".memdir" and path.name not in keys:
            root = _team_root(path)
            # its (empty) personal project layer is where it would be: the same key
            out.append(ProjectInfo(path.name, str(Path(home) / PROJECTS_DIR / path.name), root,
                                   bool(root) and Path(root).is_dir()))
    return ProjectList(tuple(sorted(out, key=lambda info: info.key)))


def _team_root(path: Path) -> str | None:
    """The repository root a team layer's local side records (its ``layer.json``)."""
    import json

    try:
        info = json.loads((path / "layer.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    root = info.get("root") if isinstance(info, dict) else None
    return root if isinstance(root, str) and root else None


__all__ = ["doctor", "journal", "projects", "repair", "status", "verify"]
