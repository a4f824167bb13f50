"""The text of a store's checks: ``verify``, ``status``, ``doctor`` and a rebuilt index.

Split from :mod:`.memories` (the memory operations' results) along the seam of upkeep; the same
rules hold: every public function is :func:`memdir.render.printable_output`, every one-line field goes
through :func:`memdir.render.memories.cut`.
"""

from __future__ import annotations

from ..files.conflicts import CONFLICT
from ..files.layout import edited_index_note
from ..text.plural import counted
from ..vocabulary import SYNC_HELD
from . import printable_output
from .memories import cut, malformed_lines, unread_label

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # read by their attributes; importing them would load YAML
    from ..results.maintenance import DoctorResult, StatusResult, VerifyResult


@printable_output
def verify(result: VerifyResult) -> str:
    """One line per layer's journal check (``first bad event`` only when an event is bad; a note after it)."""
    lines = [f"{'ok ' if c.ok else 'BAD'} {cut(str(c.layer), 1000)}: {counted(c.events, 'event')}"
             + ("" if c.ok else f" — first bad event: {c.error}" if c.bad_seq is not None else f" — {c.error}")
             + (f" — {c.note}" if c.note else "")
             for c in result.layers]
    return "\n".join(lines) or "no layers"


@printable_output
def status(result: StatusResult, *, max_malformed: int = 10) -> str:
    """Home, project, search mode, the warm search process's state (the JSON's ``warm``, when looked at:
    :func:`warm_state`, as doctor says it), context size and each layer's counts, with
    at most ``max_malformed`` unreadable files and as many files read leniently listed per layer."""
    # A path is a one-line field too: a project directory named with a line break forged a line of its own
    # ("SYSTEM: …") in memory_status's result and the terminal (break36).
    lines = [f"home: {cut(str(result.home), 1000)}",
             f"project: {_project(result)}",
             f"search: {result.search}",
             f"context: {result.context_bytes} of {result.context_budget} bytes" + _context_layers(result)]
    if result.warm is not None:  # doctor's line (warm_state), after the search line as doctor has it
        lines.insert(3, f"warm search process: {warm_state(result.warm)}")
    if result.socket_dir is not None:
        lines.insert(4 if result.warm is not None else 3, socket_line(result.socket_dir))
    if result.extractor:
        lines.append(f"consolidation extractor: {result.extractor}")
    if result.untrusted_team:
        lines.append(f"team: {result.untrusted_team}")
    if result.team_merge_driver:
        lines.append(f"team: {result.team_merge_driver}")
    if result.sync:
        lines.append(f"sync: {result.sync}")
    if result.moved_away:
        lines.append(f"project: {cut(str(result.moved_away), 1000)}")
    lines += installed_lines(result)
    for layer in result.layers:
        lines.append(f"{layer.scope}: {counted(layer.memories, 'memory')} ({layer.visible} in the index, "
                     f"{layer.in_context} in the context block, "
                     f"{counted(layer.candidates, 'candidate')}, "
                     + (f"{_superseded(layer)}, " if layer.superseded else "")
                     + f"{counted(layer.tombstones, 'tombstone')}"
                     + (f", {counted(len(layer.pending), 'pending finding')}" if layer.pending else "")
                     + (f", {counted(len(layer.answered), 'finding')} answered by an edit outside memdir"
                        if layer.answered else "") + ")")
        lines += ["  " + line for line in malformed_lines(layer.malformed, max_malformed)]
        lenient = list(dict.fromkeys(note.path for note in layer.notes))  # each file once, in path order
        lines += [f"  ~ read leniently: {cut(path, 1000)} (memdir doctor says how)" for path in lenient[:max_malformed]]
        if len(lenient) > max_malformed:
            lines.append(f"  ~ …and {len(lenient) - max_malformed} more files read leniently")
        lines += [f"  ~ {cut(edited_index_note(kept), 1000)}" for kept in layer.edited_index]
    return "\n".join(lines + duplicate_lines(result))


def _project(result: StatusResult) -> str:
    """The status's project root on one line, or why there is none."""
    if result.project_root:
        return cut(str(result.project_root), 1000)
    return f"(none — {cut(str(result.project_error), 1000)})"


@printable_output
def installed_lines(result: StatusResult) -> list[str]:
    """``installed: codex (user scope): ~/.codex/config.toml`` per client and scope memdir is installed
    into (``result.clients``); when it is in none, one line saying so and how to install it (newuser38: no
    ``installed:`` line at all left a person not knowing whether memdir was in any client); the clients it
    names are the result's (``result.installable``)."""
    if not result.clients:
        first, *others = result.installable or ("",)
        if not first:
            return ["installed: in no client"]
        return [f"installed: in no client — `memdir install {first}`"
                + (f" (or {', '.join(others)})" if others else "") + " adds it"]
    return [f"installed: {c.client} ({c.scope} scope): {', '.join(cut(f, 1000) for f in c.files)}"
            for c in result.clients]


@printable_output
def duplicate_lines(result: StatusResult) -> list[str]:
    """``duplicates: project:a = project:b (the same description and body)`` per group of exact duplicates."""
    return [f"duplicates: {' = '.join(cut(member, 120) for member in group)} (the same description and body)"
            for group in result.duplicates]


def _context_layers(result: StatusResult) -> str:
    """What the context block holds per layer, for the ``context:`` line:
    `` — user 31 of 120 in the index, project 5 of 5`` (``""`` with no layer)."""
    parts = [f"{layer.scope} {layer.in_context} of {layer.visible}" for layer in result.layers]
    return f" — {', '.join(parts)} in the context block" if parts else ""


def _left_out(result: StatusResult) -> str:
    """The memories of the index each layer's share of the budget leaves out of the context block, for
    doctor's ``context:`` line: ``; left out of the block: project 6 memories (`memdir context` shows what
    it holds)`` (``""`` when none is); an untrusted team layer's are said to be left out for that (trial28)."""
    untrusted = " because the team layer is not trusted in this clone (`memdir team trust`, after a review)"
    parts = [f"{layer.scope} {counted(layer.visible - layer.in_context, 'memory')}"
             + (untrusted if layer.scope == "team" and result.untrusted_team else "")
             for layer in result.layers if layer.visible > layer.in_context]
    return (f"; left out of the block: {', '.join(parts)} (`memdir context` shows what it holds)"
            if parts else "")


def _settles(scope: str, bad) -> str:
    """After a team memory file's unresolved merge conflict in ``doctor``: that the agent does not see it and the
    command that shows both sides and settles it; ``""`` for any other file."""
    if scope != "team" or bad.error != CONFLICT:
        return ""
    name = cut(bad.path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".md"), 1000)  # one line, as the path
    return f" — held back from the agent: `memdir team resolve {name}` shows both sides and settles it"


def _unsaid(result: DoctorResult) -> list:
    """The problems of ``result`` no line of :func:`doctor` says by its kind (a layer's files, a journal, the
    settings, the index, an install, a sync conflict, an orphaned layer): each is counted, so each is said
    once (left32: an install problem was said twice)."""
    said = {(bad.path, bad.error) for layer in result.status.layers for bad in layer.malformed}
    said |= {(check.layer, f"journal: {check.error}") for check in result.journal if not check.ok}
    said |= {(check.layer, check.note) for check in result.journal if check.note}
    orphaned = {o.key for o in result.orphans}
    return [p for p in result.problems if (p.path, p.error) not in said and p.path not in ("settings", "index", "install")
            and not p.error.startswith(SYNC_HELD) and p.path not in orphaned]


# What each state of :func:`memdir.search.warmth.probe` means for recall, in the words doctor says it.
_WARM = {"none": "none running (a prompt hook ranks in a process of its own)",
         "busy": "up, busy (it did not answer the look in time)",
         "other code": "up, running another memdir than this one (the next prompt hook replaces it)",
         "unloaded": "up, the embedding model not loaded yet (the first prompt hook loads it)",
         "failed": "up, but it cannot load the embedding model",
         "ready": "up and ready"}


@printable_output
def warm_state(found: dict) -> str:
    """The warm search process's state on one line, from what :func:`memdir.search.warmth.probe` found
    (``found``: its ``state``, ``loading_for`` seconds, ``hooks``): ``up and ready``, ``up, loading the embedding
    model (for 12 s)``, ``none running (…)`` …; one that serves cosines but no prompt hooks says so. An unknown
    state is said as it is."""
    state = found.get("state")
    if state == "loading":
        since = found.get("loading_for")
        said = "up, loading the embedding model" + (f" (for {since:.0f} s)" if isinstance(since, (int, float)) else "")
    else:
        said = _WARM.get(state, cut(str(state), 80))
    if state == "ready" and found.get("hooks") is False:
        said += ", but it runs no prompt hooks"
    return said


@printable_output
def socket_line(where: dict) -> str:
    """The line saying where the warm search process's socket lives and why each directory before it was not used
    (``where``: :func:`memdir.search.warmth.socket_dir`'s ``{"directory", "passed"}``; ux49: "passed over" read
    obscure): ``warm socket directory: /home/u/.cache/memdir-run (not used: XDG_RUNTIME_DIR is not set; /tmp/memdir-1000
    belongs to another user (uid 0))``, or ``warm socket directory: none (…)`` — the warm path is off."""
    directory, passed = where.get("directory"), [cut(str(p), 300) for p in where.get("passed") or ()]
    if directory is None:
        return f"warm socket directory: none, so no warm search process can run ({'; '.join(passed)})"
    return f"warm socket directory: {cut(str(directory), 1000)}" + (f" (not used: {'; '.join(passed)})"
                                                                    if passed else "")


def _superseded(layer) -> str:
    """``1 superseded``: the part of a layer's count (a
    :class:`memdir.operations.maintenance.LayerStatus`) that ``memdir list`` leaves out, said by status and doctor
    alike beside ``memories`` (which counts it: trial31, doctor's "2 memories" beside list's one)."""
    return f"{layer.superseded} superseded"


@printable_output
def doctor(result: DoctorResult) -> str:
    """Every layer with its files that are not memories or were read leniently,
    journal problems, the context size, the search mode (``search: hybrid (…)``, the JSON's ``search``) and the
    warm search process's state (``warm search process: up and ready``, from the JSON's ``warm``: :func:`warm_state`),
    the warnings (``warning: <client>: <why>: <fix>``), then ``ok``, the count of problems, or — none, but warnings —
    ``warning: <clients> will not run memdir's install here until you act …`` (newuser46: "ok" under an
    untrusted Codex and Gemini CLI install; ux49: or one whose hooks would read another home)."""
    lines = []
    for layer in result.status.layers:
        lines.append(f"{layer.scope} layer: {cut(str(layer.path), 1000)} — {counted(layer.memories, 'memory')}"
                     + (f" ({_superseded(layer)}: `memdir list --all` shows "
                        f"{'it' if layer.superseded == 1 else 'them'})" if layer.superseded else ""))
        lines += [f"  {unread_label(bad, 'malformed: ')}{cut(bad.path, 1000)}: {cut(bad.error)}{_settles(layer.scope, bad)}"
                  for bad in layer.malformed]
        lines += [f"  note: {cut(n.path, 1000)}: {cut(n.note)}" for n in layer.notes]
        if layer.pending:  # said, not a problem: the next session start asks the agent to save them
            lines.append(f"  {counted(len(layer.pending), 'pending finding')} for the next session's agent to save "
                         "(said at the end of an earlier session, nothing saved yet):")
            lines += [f"    “{cut(finding.text)}”" + (f" — {finding.forgotten}" if getattr(finding, "forgotten", "") else "")
                      for finding in layer.pending]
        if layer.answered:  # said as status counts them (pending.answered_lately): memdir review gives each reason
            lines.append(f"  {counted(len(layer.answered), 'finding')} answered by an edit outside memdir, no longer "
                         "offered to the agent (memdir review says why):")
            lines += [f"    “{cut(finding.text)}”" for finding in layer.answered]
    lines += [f"  journal: {cut(str(check.layer), 1000)}: {check.error}" for check in result.journal if not check.ok]
    lines += [f"  journal: {cut(str(check.layer), 1000)}: {check.note}" for check in result.journal if check.note]  # counted there
    lines += [f"settings: {cut(p.error)}" for p in result.problems if p.path == "settings"]
    lines += [f"index: {cut(p.error, 1000)}" for p in result.problems if p.path == "index"]  # MEMORY.md not writable
    lines += [f"install: {cut(p.error, 1000)}" for p in result.problems if p.path == "install"]  # its hooks all fail
    lines += [f"sync: {cut(p.path, 200)}: {cut(p.error)}" for p in result.problems if p.error.startswith(SYNC_HELD)]
    lines += [f"{cut(p.path, 200)}: {cut(p.error)}" for p in _unsaid(result)]  # e.g. a promote cut between its steps
    for o in result.orphans:
        lines.append(f"orphaned layer {o.key}: {counted(o.memories, 'memory')} of {cut(str(o.root), 1000)}, which no longer exists"
                     + (f" — belongs to {cut(str(o.belongs_to), 1000)} ({o.because}): memdir move-layer {o.key} "
                        f"{cut(str(o.belongs_to), 1000)}"
                        if o.belongs_to else f" — memdir move-layer {o.key} NEW_PROJECT_DIR re-keys it (or delete "
                        "the layer's directory if that project is gone for good)"))
    lines.append(f"context: {result.status.context_bytes} of {result.status.context_budget} bytes"
                 + _context_layers(result.status) + _left_out(result.status))
    lines.append(f"search: {cut(result.status.search, 1000)}")
    if result.warm is not None:
        lines.append(f"warm search process: {warm_state(result.warm)}")
    if result.status.socket_dir is not None:
        lines.append(socket_line(result.status.socket_dir))
    if result.status.extractor:
        lines.append(f"consolidation extractor: {result.status.extractor}")
    lines += installed_lines(result.status)
    lines += duplicate_lines(result.status)
    lines += [f"note: {note}" for note in result.notes]
    lines += [f"warning: {warning}" for warning in result.warnings]  # last before the verdict: nearest the eye
    notes = sum(len(layer.notes) for layer in result.status.layers)
    clients = ", ".join(dict.fromkeys(w.split(":", 1)[0] for w in result.warnings))  # "<client>: <why>: <fix>"
    verdict = {"ok": "ok", "problem": f"{len(result.problems)} problem(s)",
               "warning": f"warning: {clients} will not run memdir's install here until you act (trust it, turn "
                          "it back on, or give it MEMDIR_HOME): each warning above says how"}
    lines.append(verdict[result.state] + (f"; {counted(len(result.warnings), 'warning')} above"
                                          if result.problems and result.warnings else "")
                 + (f" ({counted(notes, 'note')}: files read leniently, not problems)" if notes else ""))
    return "\n".join(lines)


@printable_output
def reindex(result) -> str:
    """A rebuilt search index (:class:`memdir.search.reindex.ReindexResult`)."""
    return (f"indexed {counted(result.memories, 'memory')} from {counted(result.files, 'file')} in {counted(result.layers, 'layer')} "
            f"({result.mode}, {counted(result.vectors, 'vector')} embedded) in {result.seconds:.2f}s")


__all__ = ["doctor", "duplicate_lines", "installed_lines", "reindex", "socket_line", "status", "verify", "warm_state"]
