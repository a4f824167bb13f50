"""The results of upkeep (:mod:`memdir.operations.maintenance`, :mod:`memdir.operations.verify`): a layer's journal
events, the home's project layers, a journal check (verify), the session's status and a health check (doctor)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from ..files.scan import FileNote, Malformed
from . import Result

if TYPE_CHECKING:  # a status's findings: :mod:`memdir.results.findings`, loaded by the status that makes them
    from .findings import AnsweredFinding, Finding

# ---------------------------------------------------------------- journal and home


@dataclass(frozen=True)
class JournalEntry(Result):
    """One journal event of a layer: ``seq``, ``ts`` (ISO-8601 UTC), who
    (``actor``) did what (``action``) to which memory (``name``), why, in
    which agent ``session``; ``before``/``after`` digests of the file bytes;
    ``version``: the version of ``name`` it produced (see ``memdir history``),
    None when it is no content version (a read, a receipt, a lift)."""

    scope: str
    seq: int
    ts: str
    actor: str
    action: str
    name: str | None
    reason: str | None
    session: str | None
    before: str | None
    after: str | None
    version: int | None


@dataclass(frozen=True)
class JournalResult(Result):
    """Journal events, newest first; how many matched before the limit cut (``total``); how many
    bookkeeping events (consolidation receipts, :data:`memdir.layer.journal.BOOKKEEPING`) matched
    but were left out (``hidden``; 0 when every event was asked for)."""

    entries: tuple[JournalEntry, ...]
    total: int
    hidden: int = 0


@dataclass(frozen=True)
class ProjectInfo(Result):
    """A project layer of a home: its ``key`` (directory name), ``path``, the
    project ``root`` its description records (None: unknown) and whether
    that directory still ``exists``."""

    key: str
    path: str
    root: str | None
    exists: bool


@dataclass(frozen=True)
class ProjectList(Result):
    """Every project layer of a home, in key order."""

    projects: tuple[ProjectInfo, ...]


# ---------------------------------------------------------------- status, verify, doctor


@dataclass(frozen=True)
class LayerCheck(Result):
    """One layer's journal check: ``ok``, ``events`` checked, and the first
    bad event (``bad_seq``, ``bad_line``) and why (``error``); ``note``: what
    is so without being wrong (a home on a read-only file system: nothing
    can be journaled there)."""

    layer: str
    ok: bool
    events: int
    bad_seq: int | None = None
    bad_line: int | None = None
    error: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class VerifyResult(Result):
    """Every layer of a home, checked (after a repair when ``repaired``)."""

    layers: tuple[LayerCheck, ...]
    repaired: bool = False

    @property
    def ok(self) -> bool:
        """True when every layer checked clean."""
        return all(check.ok for check in self.layers)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "repaired": self.repaired, "layers": [c.to_dict() for c in self.layers]}


@dataclass(frozen=True)
class LayerStatus(Result):
    """One layer of the session: its path, counts (``in_context``: its index
    lines in the context block as rendered now), and the files that are not
    memories (``malformed``) or were read leniently (``fallback_parsed``:
    frontmatter that is not YAML; ``no_frontmatter``: plain Markdown;
    ``notes``: every leniency by file, those two included — a foreign type
    or status, a description taken from the title or body); ``pending``: the pending findings a session
    start of this project still shows the agent to save (its count: ``len``), as :class:`~memdir.results.findings.Finding` values;
    ``answered``: the findings an edit outside memdir answered lately, no longer shown, as
    :class:`~memdir.results.findings.AnsweredFinding` values — both what ``memdir review`` lists, in its shape
    (:func:`memdir.operations.findings.project_findings`)."""

    scope: str
    path: str
    memories: int
    visible: int
    candidates: int
    tombstones: int
    malformed: tuple[Malformed, ...] = ()
    fallback_parsed: tuple[str, ...] = ()
    no_frontmatter: tuple[str, ...] = ()
    notes: tuple[FileNote, ...] = ()
    in_context: int = 0  # index lines of this layer the context block really holds (the fair budget may cut)
    superseded: int = 0  # counted in ``memories``, kept for history: out of the index and of a default list
    pending: tuple[Finding, ...] = ()  # the project layer's pending findings still to show
    answered: tuple[AnsweredFinding, ...] = ()  # its findings an edit outside memdir answered lately
    edited_index: tuple[str, ...] = ()  # hand-edited MEMORY.md copies kept aside (memdir.files.layout.edited_copies)


@dataclass(frozen=True)
class InstalledClient(Result):
    """One coding agent memdir is installed into, in one scope, as its installer recorded it
    (:func:`memdir.operations.installed.installed`): ``client`` (``claude-code``, ``codex``, …),
    ``scope`` (``user`` or ``project``) and ``files``, the absolute paths of the settings files memdir wrote."""

    client: str
    scope: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class StatusResult(Result):
    """Where memories live and how the session stands: home, project root (or
    why there is none), per-layer status, the injected context's size in
    UTF-8 bytes against its budget, the search mode, the consolidation
    extractor in effect with why (``extractor``), ``untrusted_team``: the line saying the
    repository's team layer is not trusted in this clone (:mod:`memdir.files.trust`), else empty, and
    ``duplicates``: the groups of live memories holding the same description and body
    (:func:`memdir.gateway.duplicates.duplicate_groups`), each member as ``scope:name``, and
    ``team_merge_driver``: the line saying this clone lacks the team layer's merge driver and how to register
    it (:func:`memdir.operations.team.merge_driver_missing`), else empty; ``sync``: the sync state in one
    line (remote, last sync, ahead, behind, conflicts), else empty; ``clients``: the coding agents memdir is
    installed into (:class:`InstalledClient`), as the installers' records say
    (:func:`memdir.operations.installed.installed`: the Python API, the CLI and the MCP tool alike);
    ``moved_away``: when the project layer holds no memory and layers of projects that no longer exist hold
    some, the line saying so and how to bring them here (:func:`memdir.operations.maintenance.moved_note`, the
    rule ``list`` warns with), else empty; ``installable``: the clients ``memdir install`` knows, the first the one
    a person is shown first (:data:`memdir.operations.installed.CLIENTS`), for the line saying memdir is in none;
    ``warm``: the warm search process's state as :func:`memdir.search.warmth.probe` gives it (``{"state": …,
    "loading_for": seconds or None, "hooks": bool or None}``, looked at once with
    :data:`~memdir.search.warmth.STATUS_TIMEOUT`), None when not looked at; ``socket_dir``: the directory of its
    socket and why each one before it was not used (``{"directory": str or None, "passed": [str, ...]}``:
    :func:`memdir.search.warmth.socket_dir`), None when not looked at.

    ``extractor`` may hold two lines (:func:`memdir.consolidation.extractors.describe`: by hand, then indented, at
    a session's end); :meth:`to_dict` gives one line each: ``extractor`` the first, ``extractor_at_session_end``
    the second (``""`` when every transcript gets the same extractor; ux49: one JSON string spanned two lines)."""

    home: str
    project_root: str | None
    project_error: str | None
    layers: tuple[LayerStatus, ...]
    context_bytes: int
    context_budget: int
    search: str
    extractor: str = ""
    untrusted_team: str = ""
    duplicates: tuple[tuple[str, ...], ...] = ()
    team_merge_driver: str = ""
    sync: str = ""  # the sync state in one line (memdir.operations.sync.summary); "" when sync is not set up
    clients: tuple[InstalledClient, ...] = ()
    moved_away: str = ""
    installable: tuple[str, ...] = ()
    warm: dict | None = None  # the warm search process's state (memdir.search.warmth.probe); None: not looked at
    socket_dir: dict | None = None  # {"directory", "passed"}: memdir.search.warmth.socket_dir; None: not looked at

    def to_dict(self) -> dict:
        first, _, at_end = self.extractor.partition("\n")
        return {**super().to_dict(), "extractor": first, "extractor_at_session_end": at_end.strip()}


@dataclass(frozen=True)
class DoctorResult(Result):
    """A health check: the session's :class:`StatusResult`, every layer's
    journal check, and the ``problems`` found (unreadable files, broken
    journals); ``ok`` when there are none. ``warm``: the warm search process's state as
    :func:`memdir.search.warmth.probe` gives it (``{"state": …, "loading_for": seconds or None, "hooks": bool
    or None}``), None when not looked at. ``warnings``: installs a client will not run until the person acts (a
    folder or hooks not trusted yet: :func:`memdir.integrations.clients.reach.unseen`), each with its fix — memdir
    itself is sound, so not problems (``ok`` stays True), but never said as ``ok`` either: :attr:`state`."""

    status: StatusResult
    journal: tuple[LayerCheck, ...]
    problems: tuple[Malformed, ...]
    notes: tuple[str, ...] = ()
    orphans: tuple = ()  # memdir.operations.relocate.OrphanLayer, one per layer of a vanished project
    warm: dict | None = None
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when no problem was found (leniently read files, notes and warnings are not problems)."""
        return not self.problems

    @property
    def state(self) -> str:
        """``"problem"`` (some problem: doctor exits 1), ``"warning"`` (none, but an install a client will not
        run yet: exit 0) or ``"ok"``."""
        return "problem" if self.problems else "warning" if self.warnings else "ok"

    def to_dict(self) -> dict:
        return {**self.status.to_dict(), "journal": [c.to_dict() for c in self.journal],
                "problems": [asdict(p) for p in self.problems], "notes": list(self.notes),
                "orphans": [o.to_dict() for o in self.orphans], "warm": self.warm, "warnings": list(self.warnings),
                "state": self.state, "ok": self.ok}
