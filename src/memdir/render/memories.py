"""One text per result type: what a person (CLI) or a model (tools, MCP) reads.

Each function takes a typed result (:mod:`memdir.results`, a search
result) and returns its text (a consolidation's: :mod:`.consolidation`); the CLI and the tools
print the same lines, adding only what differs by where they run (how to ask
for more: a command-line flag or a tool argument). One-line fields are shown
on one line (every run of whitespace collapsed) and long ones are cut with
``…`` at :data:`LINE_BYTES` UTF-8 bytes, so a hand-edited file cannot flood a
terminal or a context window.

Stored text was sanitized by the gateway, but a hand-edited file was not:
every renderer's output is made printable by
:func:`memdir.render.printable_output` (no terminal escape, control or
bidi-override character; tabs and newlines stay), and every one-line field
goes through :func:`cut` (no line break of any kind), so nothing stored can
drive the terminal or forge a line.
"""

from __future__ import annotations

from ..files.conflicts import CONFLICT
from ..files.scan import HELD
from ..text import names
from ..text.fence import escape_stored, quoted
from ..text.plural import counted
from ..text.printable import LINE_BYTES, line_of, visible
from ..vocabulary import PIN_MARK, kind_label
from . import printable_output

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing on the CLI's hook path
if TYPE_CHECKING:  # the renderer reads results by their attributes; importing them would load YAML
    from ..gateway.edits import EditResult
    from ..results.maintenance import JournalResult
    from ..results.memories import (
        ClearResult,
        DeleteResult,
        HistoryResult,
        ListResult,
        MemoryInfo,
        PruneResult,
        ReadResult,
        RestoreResult,
        VersionResult,
        WriteResult,
    )
    from ..results.trust import (
        Decision,
        FlagResult,
        LiftResult,
        ReviewResult,
        TombstoneList,
    )


WHOLE = 1 << 62  # a limit of cut() that keeps the text whole (read shows a description so)


@printable_output
def cut(text: str | None, limit: int = LINE_BYTES) -> str:
    """``text`` on one line (every line break and run of whitespace collapsed,
    no control or bidi character), at most ``limit`` UTF-8 bytes (``…`` marks a cut, between
    characters: :func:`memdir.text.printable.line_of`), read as data (:func:`memdir.render.shown_text`)."""
    return line_of(text, limit)


# ---------------------------------------------------------------- memories


@printable_output
def shown_name(name: str, title: str | None) -> str:
    """A memory's name as a line of a listing or of search hits shows it: the one rule,
    :func:`memdir.text.names.shown_name` (``m-c3f8ff75a0 “部署流程”``), made printable."""
    return names.shown_name(name, title)


@printable_output
def memory_line(m: MemoryInfo) -> str:
    """A memory on one line: ``- name`` (with its title when the name is a hash: :func:`shown_name`),
    the pin mark when pinned (:data:`~memdir.vocabulary.PIN_MARK`), its :func:`~memdir.vocabulary.kind_label`,
    `` (auto-extracted)`` when extracted, ``— description``, `` [state]`` when not active."""
    pin = PIN_MARK if m.pinned else ""
    state = "" if m.state == "active" else f" [{m.state}]"
    if getattr(m, "sync_conflict", False):
        state += f" [sync conflict: memdir sync resolve {m.name} --scope {m.scope}]"
    origin = " (auto-extracted)" if m.origin == "extracted" else ""
    return f"- {shown_name(m.name, m.title)}{pin} {kind_label(m.type, m.scope)}{origin} — {cut(m.description)}{state}"


@printable_output
def unread_label(item, label: str = "unreadable: ") -> str:
    """What a file that is no memory is called before its path: ``label``, nothing for one held back (its
    reason says so: :data:`memdir.files.scan.HELD`)."""
    return "" if item.error.startswith(HELD) else label


@printable_output
def malformed_lines(items, limit: int | None = None, more: str = "") -> list[str]:
    """``! unreadable: path: reason`` per file (``! path: held back: …`` for a file held back,
    :data:`memdir.files.scan.HELD`), at most ``limit``; ``more`` says where the rest are."""
    shown = list(items) if limit is None else list(items)[:limit]
    lines = [f"! {unread_label(item)}{cut(item.path, 1000)}: {cut(item.error)}" for item in shown]
    if len(items) > len(shown):
        lines.append(f"! …and {len(items) - len(shown)} more unreadable files{more}")
    return lines


@printable_output
def no_memories(malformed, at: str = "") -> str:
    """What an empty list says: ``No memories yet.``, or, when files are there that cannot be read (listed
    after it), how many — those with an unresolved merge conflict named as such, with the command that
    settles them. ``at``: the listing looked at another time (``as of 2001-01-01``, ``valid at …``, the
    words of :func:`listing`): then no "yet" (newuser31: memories saved today are not "not yet" of 2001)."""
    if at and not malformed:
        return f"No memory {at}."
    if not malformed:
        return "No memories yet."
    conflicts = sum(1 for item in malformed if item.error == CONFLICT)
    text = f"No memory can be read: {len(malformed)} file(s) cannot be read"
    if conflicts:
        text += (f", {conflicts} of them in an unresolved merge conflict (memdir team status shows how to "
                 "settle it)")
    return text + "."


@printable_output
def listing(result: ListResult, *, offset: int = 0, limit: int | None = None, more: str = "",
            max_malformed: int | None = None, as_of: str | None = None, valid_at: str | None = None) -> str:
    """A memory list, in index order. With ``limit``, one page from ``offset``
    with a header, and ``more`` (how to ask for the next page, ``{offset}``
    filled in) when memories are left. ``as_of``, ``valid_at``: the times the list was asked at, as given
    (:func:`memdir.operations.memories.list_memories`), which an empty list names (:func:`no_memories`)."""
    total = len(result.memories)
    if not total:
        at = " and ".join(f"{what} {cut(when, 80)}" for what, when in (
            ("existed as of", as_of), ("was true at", valid_at)) if when)
        lines = [no_memories(result.malformed, at)]
    elif limit is None:
        lines = [memory_line(m) for m in result.memories]
    else:
        page = result.memories[offset: offset + limit]
        lines = [f"Memories {offset + 1}–{offset + len(page)} of {total}:" if page
                 else f"No memories at offset {offset} (there are {total})."]
        lines += [memory_line(m) for m in page]
        if offset + len(page) < total:
            lines.append(f"…{total - offset - len(page)} more" + more.format(offset=offset + len(page)))
    if result.unavailable:
        lines.append(f"(project memories unavailable: {result.unavailable})")
    lines += malformed_lines(result.malformed, max_malformed, " (see memory_status)")
    return "\n".join(lines)


@printable_output
def write(result: WriteResult, *, title: str | None = None) -> str:
    """What a write did (warnings apart: :func:`warnings`). A candidate is
    said to be one: it is not a memory of the index until a person approves it.
    ``title``: the memory's, shown after a hash name as a listing shows it (:func:`shown_name`)."""
    if result.operation == "dismissed":  # the why is the result's warning
        return f"Not proposed: {result.name} ({result.scope}); a person dismissed this same proposal before."
    what = "Candidate" if result.status == "candidate" else "Memory"
    text = (f"{what} {result.operation}: {names.shown_name(result.name, title)} "
            f"({result.scope}{', pinned' if result.pinned else ''})")
    if result.status == "candidate":
        text += (f"\nIt waits for a person's review (memdir review; memdir approve {result.name}) "
                 "before it joins the index.")
    if result.redactions:
        kinds = ", ".join(f"{k}×{v}" for k, v in sorted(result.redaction_kinds.items()))
        text += f"\n{result.redactions} secret(s) were redacted before saving ({kinds})."
    if kept := kept_edit(result):
        text += "\n" + kept
    return text


@printable_output
def kept_edit(result: WriteResult) -> str:
    """The sentence naming the hand edit a write replaced that no read had seen since it was made, and the
    version that keeps it (:func:`memdir.layer.lasts.unseen_edit`); "" when there is none."""
    kept = result.kept_edit
    if kept is None:
        return ""
    # the journal cannot tell a hand edit from a file git changed (team43); git's state can, for a team memory
    # (kept.by, left44c): neutral where it says nothing
    how = {"git": "by git: its text is the one the repository's last commit holds (a pull, a checkout, a merge or "
                  "a commit of it)",
           "hand": "by hand: no commit git checked out holds its text"}.get(kept.by, "by hand, or by git")
    return (f"This replaced an edit made outside memdir ({how}) at {kept.made} that had not been read "
            f"since; it is kept as version "
            f"{kept.version}: `memdir history {result.name}` lists it, `memdir restore {result.name} --version "
            f"{kept.version}` brings it back.")


@printable_output
def edit(result: EditResult) -> str:
    """What a partial edit did (:func:`write`'s text) and the first line of the body it changed — unless
    it changed nothing (an insert of text that was all control characters, a replacement by the same
    text): then no line is said to have changed."""
    if result.operation == "unchanged":
        return write(result)
    return write(result) + f"\nThe body changed from line {result.line}; memory_read shows it whole."


@printable_output
def warnings(result) -> list[str]:
    """``warning: …`` per warning of a result that carries them (a write's cuts, normalizations and
    removed characters; a layer whose tombstones were not checked, in a write, restore, approval,
    promotion or import)."""
    return [f"warning: {warning}" for warning in result.warnings]


@printable_output
def read(result: ReadResult, *, offset: int = 0, chunk: int | None = None, more: str = "",
         max_bytes: int | None = None, digest: bool = False) -> str:
    """A memory's text: a header, the body escaped and quoted (:func:`memdir.text.fence.escape_stored`,
    then :func:`memdir.text.fence.quoted`: each line after ``> ``, so no line of it passes
    for a header field, a heading or a marker of this output; with ``chunk``, characters ``offset``
    to ``offset + chunk`` and ``more`` telling how to get the next part,
    ``{offset}`` filled in), and the memories it links to.

    ``max_bytes`` (UTF-8 bytes of the whole text, the ``tool_output_max_bytes`` setting): the part is
    shortened, at its last line break when one falls in its second half, until the whole text fits, and
    the ``[truncated: …]`` line names the offset of the rest — so a client that cuts a longer tool output
    (Codex cuts the middle out, saying only how many tokens went) never drops a piece the model cannot ask
    for again. At least one character of the body is shown, so reading on always advances.

    ``digest``: a ``digest:`` header line, the file's digest as a person types it (its first :data:`SHOWN_DIGEST`
    hex digits), what ``--digest`` of ``memdir forget|delete`` takes (newuser31: only ``--json`` showed it);
    the memory tools leave it out (a model's read pays for every line)."""
    total = len(result.record.body)
    end = min(total, offset + chunk) if chunk is not None else total
    shown = result.digest[:SHOWN_DIGEST] if digest and result.digest else ""
    text = _read_text(result, offset, end, more, shown)
    if max_bytes is None or len(text.encode("utf-8", "replace")) <= max_bytes:
        return text
    low, high = offset + 1, end  # the longest part that fits, in characters: bisect (texts of ≤ READ_CHUNK)
    while low < high:
        middle = (low + high + 1) // 2
        if len(_read_text(result, offset, middle, more, shown).encode("utf-8", "replace")) <= max_bytes:
            low = middle
        else:
            high = middle - 1
    line_end = result.record.body.rfind("\n", offset, low)
    if line_end + 1 > offset + (low - offset) // 2:
        low = line_end + 1  # the next part starts on a line of its own
    return _read_text(result, offset, min(low, end), more, shown)


def _read_text(result: ReadResult, offset: int, end: int, more: str, digest: str = "") -> str:
    """:func:`read`'s text showing characters ``offset`` to ``end`` of the body (``digest``: the header's
    ``digest:`` line, none when empty)."""
    r = result.record
    body = r.body
    total = len(body)
    part = body[offset:end]
    # the whole description: a listing line cuts it at LINE_BYTES; a hand-written one may be longer
    head = [f"name: {r.name}", f"description: {cut(r.description, WHOLE)}", f"type: {r.type}",
            f"layer: {result.scope}"]
    if r.title:
        head.append(f"title: {cut(r.title)}")
    if r.status != "active":
        by = f" by {result.successor.phrase()}" if r.status == "superseded" and result.successor else ""
        head.append(f"status: {r.status}{by}")
    if digest:
        head.append(f"digest: {digest}")
    if result.also_in and offset == 0:
        head.append(f"also: {_same_name(r.name, result.also_in)}")
    if offset or end < total:
        head.append(f"body: characters {offset}–{end} of {total}")
    # Escaped before it is quoted (the recall block's order): a tag that spans lines cannot take a quote mark in.
    text = "\n".join(head) + "\n\n" + quoted(escape_stored(part))
    if end < total:
        text += (f"\n\n[truncated: {total - end} more characters; total size {total} characters"
                 + more.format(offset=end) + "]")
    if result.linked and offset == 0:
        more_links = ["- …and more: the body links to further memories"] if result.truncated else []
        text += "\n\nLinked memories:\n" + "\n".join([f"- {link.name} — {cut(link.description)}"
                                                      for link in result.linked] + more_links)
    return text


def _same_name(name: str, scopes: tuple[str, ...]) -> str:
    """The line telling that other layers (``scopes``) hold a memory named ``name`` too, and how to reach each:
    ``another memory named deploy-notes is in the user layer (scope user)``."""
    where = " and ".join(f"the {scope} layer (scope {scope})" for scope in scopes)
    return f"another memory named {name} is in {where}" if len(scopes) == 1 else \
        f"other memories named {name} are in {where}"


@printable_output
def delete(result: DeleteResult, *, title: str | None = None) -> str:
    """A deletion and the tombstone it left (or the live memory that holds its value, for which it left none),
    named by its act as the journal records it: ``Forgot memory:`` for a forget, ``Deleted memory:`` for a delete.
    ``title``: the memory's, shown after a hash name as a listing shows it (:func:`shown_name`)."""
    head = (f"{'Forgot' if result.action == 'forget' else 'Deleted'} memory: {names.shown_name(result.name, title)} "
            f"({result.scope}).")
    if result.kept_by:
        scope, _, name = result.kept_by.partition(":")
        return f"{head} Its value is not tombstoned: the memory {name!r} ({scope}) holds it too."
    return (f"{head} Its value is tombstoned and will not be "
            f"written again" + (f" (tombstone {result.tombstone})." if result.tombstone else "."))


@printable_output
def prune(result: PruneResult, *, apply: str, limit: int | None = None) -> str:
    """A prune's candidates; ``apply`` says how to really delete them (shown on a dry run)."""
    cands = result.candidates
    if result.dry_run:
        head = (f"Prune dry-run: {len(cands)} candidate(s) not updated for {result.older_than_days}+ days"
                + (f" — {apply}" if cands else "."))
    else:
        head = f"Pruned {result.deleted} of {len(cands)} candidate(s)" + ("" if cands else ".")
    shown = cands if limit is None else cands[:limit]
    lines = [head] + [f"- {c.name} ({c.scope}, {c.days_since_update}d since update) — {cut(c.description)}"
                      for c in shown]
    if len(cands) > len(shown):
        lines.append(f"…and {len(cands) - len(shown)} more")
    return "\n".join(lines)


@printable_output
def clear(result: ClearResult) -> str:
    """How many memories each layer lost."""
    return "Deleted " + ", ".join(f"{c.deleted} in {c.scope}" for c in result.layers) + " (tombstones stay)."


@printable_output
def history(result: HistoryResult, *, limit: int | None = None) -> str:
    """The versions of a memory, oldest first (the last ``limit`` when given), after those it had under the names a
    rename took it from (``result.earlier``, each labelled with that name)."""
    versions = result.versions
    shown = versions if limit is None else versions[-limit:]
    lines = [f"{len(versions)} version(s) of {result.name} ({result.scope})"
             + (f", last {len(shown)} shown" if len(shown) < len(versions) else "") + ":"]
    room = len(result.earlier) if limit is None else max(0, limit - len(shown))  # the limit counts them too
    earlier = result.earlier[len(result.earlier) - room:] if room else ()
    if earlier:  # a gateway rename's: each is shown and restored by the name it had then
        olds = ", ".join(dict.fromkeys(v.name for v in earlier))
        lines.append(f"{len(result.earlier)} earlier version(s) under {olds} (show or restore one by that name: "
                     f"`memdir show {earlier[-1].name} --version N`):")
    rows = [*earlier, *shown]
    width = max((len(str(v.version)) for v in rows), default=1)
    name_w = max((len(v.name) + 1 for v in earlier), default=0)
    actor_w = max((len(v.actor) for v in rows), default=0)
    action_w = max((len(v.action) for v in rows), default=0)
    for v in rows:  # every column padded to its widest value, so the columns line up
        if earlier and shown and v is shown[0]:
            lines.append(f"under {result.name}:")
        what = "deleted" if v.digest is None else cut(v.description, 120)
        label = f"{v.name} " if v.name else ""
        lines.append(f"{label:<{name_w}}v{v.version:<{width}}  {v.ts}  {v.actor:<{actor_w}}  {v.action:<{action_w}}  "
                     f"{(v.digest or '-')[:12]:<12}  — {what}")
    if result.scope == "team":
        lines.append(f"{len(result.commits)} git commit(s) of its file, newest first"
                     + (" (restore one with --commit ID):" if result.commits else "."))
        lines += [f"{c.commit[:12]}  {c.date}  {cut(c.author, 80)}  — {cut(c.message, 120)}" for c in result.commits]
    lines += [f"! damaged: {why}" for why in result.damaged]
    if result.also_in:
        lines.append(f"also: {_same_name(result.name, result.also_in)}")
    return "\n".join(lines)


@printable_output
def version(result: VersionResult, *, limit: int | None = None, header: bool = True) -> str:
    """The text of one version (cut at ``limit`` characters), under a header line unless ``header`` is False."""
    text = result.text if limit is None else cut_text(result.text, limit)
    return f"Version {result.version} of {result.name}:\n\n{text}" if header else text


@printable_output
def diff(older: VersionResult, newer: VersionResult) -> str:
    """A unified diff from one version of a memory to another (``--- vA`` / ``+++ vB``); ``""`` when equal."""
    import difflib

    return "".join(difflib.unified_diff(
        older.text.splitlines(keepends=True), newer.text.splitlines(keepends=True),
        fromfile=f"{older.name} v{older.version}", tofile=f"{newer.name} v{newer.version}"))


@printable_output
def journal(result: JournalResult) -> str:
    """Journal events, newest first, one per line (``vN`` for the version an event produced); a last line
    counts the consolidation receipts left out (``result.hidden``)."""
    lines = [f"{e.ts}  {e.scope:<7} #{e.seq:<5} {e.actor:<9} {e.action:<14} {e.name or '-'}"
             + (f" v{e.version}" if e.version else "") + (f"  ({cut(e.reason, 120)})" if e.reason else "")
             for e in result.entries]
    if result.total > len(result.entries):
        lines.append(f"…{result.total - len(result.entries)} older event(s) not shown")
    if not lines:
        lines.append("No journal events." if not result.hidden else "No journal events but consolidation receipts.")
    if result.hidden:
        lines.append(f"+ {counted(result.hidden, 'consolidation receipt')} not shown; --all shows them")
    return "\n".join(lines)


@printable_output
def cut_text(text: str, limit: int) -> str:
    """``text`` (lines kept) at most ``limit`` characters, ``…`` marking a cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@printable_output
def restore(result: RestoreResult, *, title: str | None = None) -> str:
    """A restore.
    ``title``: the memory's, shown after a hash name as a listing shows it (:func:`shown_name`)."""
    if result.commit:
        return (f"Restored {names.shown_name(result.name, title)} as of git commit {result.commit[:12]} "
                f"({result.scope}, {result.operation}); commit it to share it.")
    return f"Restored {names.shown_name(result.name, title)} to version {result.version} ({result.scope}, {result.operation})."


# ---------------------------------------------------------------- trust


@printable_output
def tombstones(result: TombstoneList) -> str:
    """The tombstones in force, one per line: id, layer, name, who forgot it when and why
    (:attr:`~memdir.results.trust.TombstoneInfo.forgotten`), the time only when that does not already say its day
    (newuser31: the date was printed twice), then the forgotten description; a team tombstone whose file left the
    repository unlifted (:attr:`~memdir.results.trust.TombstoneInfo.vanished`) gets a second line saying so and how to
    settle it."""
    lines = [f"{cut(s.id, 40)}  {s.scope + (f' ({s.kept})' if s.kept else ''):<7} {cut(s.name, 120)}  {cut(s.forgotten, 120)}"
             + (f"  {s.ts}" if s.ts and s.ts[:10] not in s.forgotten else "") + f"  — {cut(s.description)}"
             + (f"\n    {s.settle}" if s.settle else "")
             for s in result.tombstones]
    return "\n".join(lines) or "No tombstones."


@printable_output
def lift(result: LiftResult) -> str:
    """A lifted tombstone."""
    return f"Lifted tombstone {result.id} ({result.scope}, {result.name}): its value may be written again."


SHOWN_DIGEST = 16  # hex digits of a review digest printed for a person to type (at least gateway.compare.MIN_DIGEST)


@printable_output
def review(result: ReviewResult) -> str:
    """Candidates waiting for a person: each one's line, what approving it does — a new memory's whole
    text, or the unified diff of the memory it changes (its text now → as approved) — the digest of what
    is shown and the commands that decide on it."""
    blocks = []
    for c in result.candidates:
        short = c.digest[:SHOWN_DIGEST]
        scope = f" --scope {c.scope}"
        if c.change == "new" and c.candidate_for:  # the memory it was proposed to change went meanwhile
            what, text = (f"proposed as a change of {c.candidate_for}, which is no longer there; approving adds it "
                          f"as a new memory named {c.name}:"), c.proposed
        elif c.change == "new":
            what, text = "new memory; approving adds it as shown:", c.proposed
        elif c.change == "change":
            what, text = f"changes {c.target} ({c.scope}); approving makes this diff:", c.diff or "(no change)\n"
            if c.drops:  # what leaves the live memory, said in words: a diff's '-' lines are easy to pass over
                what += (f"\n  it removes {len(c.drops)} line(s) of {c.target}'s text now (its history keeps them; "
                         "to keep them, edit the candidate before approving)")
        else:
            what, text = f"replaces {c.target} (approving retires it); the new memory and its diff:", \
                f"{c.proposed}\n{c.diff or ''}"
        body = "".join(f"    {line}\n" for line in text.rstrip("\n").split("\n"))
        blocks.append(f"{memory_line(c)}\n  {what}\n{body}  digest {short}: memdir approve {c.name}{scope} "
                      f"--digest {short} | dismiss (not this; no tombstone) | reject (wrong; tombstoned)")
    return "\n\n".join(blocks) or "No candidates waiting for review."


@printable_output
def decision(result: Decision, *, title: str | None = None) -> str:
    """An approval, a rejection or a dismissal.
    ``title``: the memory's, shown after a hash name as a listing shows it (:func:`shown_name`)."""
    if result.approved:
        # an approval for the team is a change in the repository: nobody else sees it until it is committed
        share = "; commit it to share it" if result.scope == "team" else ""
        shown = names.shown_name(result.name, title)
        return f"Approved {names.shown_name(result.candidate, title)} → {shown} ({result.scope}){share}"
    if result.dismissed:
        return (f"Dismissed {names.shown_name(result.candidate, title)} ({result.scope}); no tombstone: the fact may "
                "still be written, but this same proposal will not be proposed again")
    return f"Rejected {names.shown_name(result.name, title)} ({result.scope}); its value is tombstoned"


@printable_output
def flag(result: FlagResult, *, title: str | None = None) -> str:
    """A pin, unpin, mute or unmute, said as done (``Pinned: NAME (scope)``), or ``Already pinned: …`` when
    it already was.
    ``title``: the memory's, shown after a hash name as a listing shows it (:func:`shown_name`)."""
    done = {"pinned": "pinned", "disabled": "muted"}[result.flag]
    done = done if result.value else "un" + done
    said = done.capitalize() if result.changed else f"Already {done}"
    return f"{said}: {names.shown_name(result.name, title)} ({result.scope})"


# ---------------------------------------------------------------- search


def _quoted(text: str) -> str:
    """``text`` in quotes as Python writes a string (double quotes when it holds only single ones), its
    escapes (:func:`memdir.text.printable.visible`) left as they are."""
    if "'" in text and '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "\\'") + "'"


@printable_output
def search(results, query: str, offset: int = 0, page: int | None = None) -> str:
    """Search hits, best first: a line per memory (with its relevance score,
    0–1) and its snippet; ``offset`` is how many better hits were skipped;
    ``page`` the most one answer holds: a full page ends with where the next starts; the results'
    ``note`` (:class:`memdir.search.paging.Page`: how many memories rank by words alone while
    vectors are being built, files no search can read), when there is one, ends it, a page of none too, and then the
    results' ``forgotten`` (tombstones the query matches) as :func:`memdir.tombstones.asked.hint` says them."""
    from ..tombstones.asked import hint  # here: a write's render imports this module

    shown = _quoted(cut(visible(query), 120))  # an invisible character shown, not dropped (it was read as absent)
    forgotten = hint(getattr(results, "forgotten", []), shown)  # a tombstone the query matches (newuser46)
    if not results:  # the note too: files no search can read, a word read as a slip (break19: it was dropped)
        empty = f"No memories match {shown}" + (f" after the first {offset}." if offset else ".")
        return "\n".join([empty, *(f"({said})" for said in (getattr(results, "note", ""), forgotten) if said)])
    after = f", after the first {offset}" if offset else ""
    lines = [f"{len(results)} result(s) for {shown}{after}:"]
    for hit in results:
        pin = PIN_MARK if hit.pinned else ""
        lines.append(f"- {shown_name(hit.name, hit.title)}{pin} {kind_label(hit.type, hit.scope)} relevance {hit.score:.2f} — "
                     f"{cut(hit.description)}")
        if hit.snippet:
            lines.append(f"  {cut(hit.snippet)}")
    if page is not None and len(results) >= page:
        lines.append(f"(a full page: more may follow from offset {offset + len(results)})")
    if getattr(results, "note", ""):
        lines.append(f"({results.note})")
    if forgotten:
        lines.append(f"({forgotten})")
    return "\n".join(lines)


__all__ = [
    "LINE_BYTES", "SHOWN_DIGEST", "clear", "cut", "cut_text", "decision", "delete", "edit", "flag", "history", "lift",
    "listing", "malformed_lines", "memory_line", "no_memories", "prune", "read", "restore", "review", "search",
    "shown_name", "tombstones", "unread_label", "version", "warnings", "write",
]
