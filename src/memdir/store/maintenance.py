"""Maintenance: status, health checks, journal verification and repair (DESIGN §5).

:func:`status` and :func:`doctor` describe the session's layers;
:func:`verify` and :func:`repair` work on every layer of the home. The
search mode is passed in by the caller, so this module needs nothing from
the search package.
"""

from __future__ import annotations

from pathlib import Path

from .context import session_block
from .index import is_visible
from .journal import Journal, now_utc
from .layer import home_layers
from .layout import META_DIR
from .paths import layer_dirs, team_journal_dirs
from .results import DoctorResult, LayerCheck, LayerStatus, StatusResult, VerifyResult
from .scan import Malformed
from .session import Session


def verify(home: Path) -> VerifyResult:
    """Check every layer's journal under ``home`` (the team layers' local
    journals too): line syntax, sequence, the hash chain and every version
    object's digest. Never raises for bad data."""
    checks = []
    journals = [(path, path / META_DIR) for path in layer_dirs(home)]
    journals += [(path, path) for path in team_journal_dirs(home)]  # the team layers' local side
    for path, meta in journals:
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
        scan = layer.scan()
        records = [e.record for e in scan.entries.values()]
        layers.append(LayerStatus(
            scope=layer.scope, path=str(layer.path), memories=len(records),
            visible=sum(1 for r in records if is_visible(r, now, stale)),
            candidates=sum(1 for r in records if r.status == "candidate"),
            tombstones=len(layer.tombstones()), malformed=tuple(scan.malformed),
            fallback_parsed=tuple(str(e.path) for e in scan.entries.values() if e.fallback),
            no_frontmatter=tuple(str(e.path) for e in scan.entries.values() if e.no_frontmatter)))
    block = session_block(session)
    return StatusResult(str(session.home), str(session.project_root) if session.project_root else None,
                        session.project_error if session.project_root is None else None, tuple(layers),
                        len(block.encode("utf-8")), session.settings.context_max_bytes, search, extractor)


def doctor(session: Session, search: str, extractor: str = "") -> DoctorResult:
    """:func:`status` plus :func:`verify`, with the problems found: files that
    are not memories and journals that do not check out. Files read leniently
    are reported by the status, not counted as problems."""
    current = status(session, search, extractor)
    checks = verify(session.home).layers
    problems = [bad for layer in current.layers for bad in layer.malformed]
    problems += [Malformed(check.layer, f"journal: {check.error}") for check in checks if not check.ok]
    return DoctorResult(current, checks, tuple(problems))


__all__ = ["doctor", "repair", "status", "verify"]
