"""What memdir does at each moment of a client's session (the moments of
:data:`memdir.integrations.claude_code.dialects.DIALECTS`): the session starts (the context block), a
prompt is submitted (recall), one of memdir's tools ran (record what the conversation now holds), the
session or a turn ends (queue the transcript). :mod:`memdir.integrations.claude_code.hooks` reads the
client's event off its command line and stdin and calls the one of these its moment names.

* ``SessionStart`` (:func:`session_start`) — prints ``{"hookSpecificOutput": {"hookEventName":
  "SessionStart", "additionalContext": <context block>}}``; with no memory
  saved yet, the guidance alone (:func:`memdir.prompt.context.guidance_block`),
  so an agent learns when to save its first memory; a team layer not trusted in this
  clone shows none of its text, one line says so and how to trust it. A ``MEMORY.md`` edited by hand, kept
  aside as this start rebuilds it, is said once to the person (:func:`person_note`: Claude Code's
  ``systemMessage``, the other clients' stderr). Runs on every session
  start, so it imports only the hot path
  (:func:`memdir.prompt.start.start_layout`: no YAML, no SQLite, no MCP —
  the one rule ``status`` and ``doctor`` report). The agent extractor's pending
  findings of this project, if any, follow the block in the same budget
  (:func:`memdir.prompt.pending.with_pending`: at most half of it; the block
  gets the rest).
* ``UserPromptSubmit`` (:func:`user_prompt_submit`) — the recall block for ``prompt`` in the same shape,
  under ``recall_max_bytes``, plus the pending findings when this session
  has not been shown them yet; nothing (and a line naming the extra) when
  search is not installed.
* ``UserPromptSubmit`` gives each memory's body once per session: a body
  given earlier in the session, unchanged, is only named
  (:mod:`memdir.prompt.recalled`); an event that compacts or clears the
  conversation clears that record — one table for every client
  (:data:`memdir.integrations.claude_code.dialects.RESTARTS`: Claude Code's and Codex's ``PreCompact`` and
  ``SessionStart`` of ``source`` ``compact`` or ``clear``, Gemini CLI's
  ``PreCompress`` of ``trigger`` ``manual`` and ``SessionStart`` of ``source`` ``clear``). The context
  block too: a ``SessionStart`` that resumes a conversation holding the block given earlier in the session
  (:data:`memdir.integrations.claude_code.dialects.RESUMES`) gives it only when it changed, else one line
  (:func:`memdir.prompt.start.start_text`). For a client of :data:`START_AT_PROMPT` (Gemini CLI) the
  start's text is held and printed by the session's next prompt hook, in front of its recall block (its
  resume keeps the prompts then); its pending findings are left to that prompt's recall, which counts them
  as shown once it gives them.
* ``PostToolUse`` (:func:`tool_used`; installed for ``mcp__memdir__memory_read`` and ``memory_write``;
  Claude Code and Codex send the same input, Codex's ``tool_response`` the MCP result ``{"content": [...],
  "isError": …}``; Gemini CLI's ``AfterTool``, its tool named as :func:`memdir.integrations.claude_code.dialects.translate` says) — a
  memory the model read whole or wrote the body of is in the conversation: it is recorded as given in the session, so recall
  names it instead of giving its body again; prints nothing.
* ``SessionEnd`` and ``PreCompact`` (:func:`queue_consolidation`) — count as reads the bodies recall gave since
  the last end (:func:`count_given`: the prompt hook only records them), queue the transcript for consolidation
  and start a detached ``memdir consolidate --queue`` that drains it
  (:mod:`memdir.consolidation.queue`); returns at once (SessionEnd's whole
  budget is about 1.5 s). With ``sync_on_session_end`` (and ``memdir sync init`` done), a session's
  end also starts a detached ``memdir sync`` (:func:`spawn_sync`).

Everything a hook prints goes through :func:`hook_output`, which budgets
the serialized JSON, not only the block: Claude Code replaces a hook's output
over 10,000 characters, and ``additionalContext`` over about 8,000, with a
short preview (``reference/landscape.md`` §2.6), so the index would silently
vanish. Whatever blocks a hook carries, its stdout stays under both limits.

The project of every event is the hook input's ``cwd`` (the session rule of
:func:`memdir.session.open_session`, with that directory alone). A moment with nothing to do raises
:class:`HookSkip` with the reason for the hook's one stderr line — a :class:`RoutineSkip` (nothing wrong: a read
shown in parts, consolidation turned off) says it only when ``MEMDIR_LOG_LEVEL`` asks.
"""

from __future__ import annotations

import os
import sys

# json's own C code: a hook's fresh process loads no json, and so no re
from ...text import json_c
from ...text.printable import said_line
from .dialects import (
    DEFERS_MCP_TOOLS,
    START_AT_PROMPT,
    conversation_restarts,
    conversation_resumes,
    keeps_start_blocks,
    kept_whole,
    mcp_tool,
    queues_transcript,
)

HOOK_OUTPUT_MAX_CHARS = 10_000   # characters of a hook's whole stdout (Claude Code, hook output cap)


class HookSkip(Exception):
    """Nothing to do, with the reason for the one stderr line."""


class RoutineSkip(HookSkip):
    """Nothing to do, as a session normally goes (a read shown in parts, consolidation the person turned
    off): its reason is no error, and a client that shows every stderr line of a hook to the person (Gemini
    CLI) would show it on every such event, so it is said only when asked (``MEMDIR_LOG_LEVEL`` info or
    debug: :func:`memdir.integrations.claude_code.hooks.says_routine`)."""


def _session(data: dict, home, environ=None):
    """The session of a hook: its project is the hook input's ``cwd`` (nothing
    else: not MEMDIR_PROJECT, not this process's directory); ``environ``: the
    hook process's environment when a warm process runs the hook."""
    from ...errors import ScopeError
    from ...session import open_session

    cwd = data.get("cwd")
    if not isinstance(cwd, str) or not cwd.strip():
        raise HookSkip("hook input has no cwd")
    if not os.path.isabs(cwd):  # resolving it against this process's directory would pick a project at random
        raise HookSkip(f"hook input cwd {cwd!r} is not an absolute path")
    session_id = data.get("session_id") if isinstance(data.get("session_id"), str) else None
    try:
        return open_session(home, cwd, actor="agent", session_id=session_id, use_cwd=False, environ=environ)
    except ScopeError as exc:  # the CLI's remedy (--project, MEMDIR_PROJECT) is not a hook's
        if exc.fact is None:
            raise
        raise HookSkip(f"{exc.fact}: a hook takes its project from its input's cwd (the directory the agent "
                       f"runs in); nothing done") from None


def _serialize(event: str, text: str, client: str = "claude-code", message: str | None = None) -> str:
    if client == "cursor":  # Cursor's sessionStart output
        return json_c.dumps({"additional_context": text}, ensure_ascii=False)
    out: dict = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    if message:  # Claude Code shows a hook's systemMessage to the person (reference/landscape.md §2.6)
        out["systemMessage"] = message
    return json_c.dumps(out, ensure_ascii=False)


SAYS_TO_PERSON = ("claude-code",)
"""The clients whose hook JSON carries a note for the person (``systemMessage``); the others' hooks say it on
stderr (Gemini CLI shows a hook's stderr to the person; Codex's and Cursor's output takes no such field here)."""


def person_note(notes: list[str], client: str) -> str | None:
    """The one short line a session start says to the person of the hand-edited ``MEMORY.md`` copies kept aside
    while it ran (``notes``: :func:`memdir.files.layout.edited_index_note`'s, one per copy), or None for none.
    Said once: only the start that kept the copy says it (``memdir status``/``doctor`` list the copies since)."""
    if not notes:
        return None
    where = notes[-1].split(" is kept at ", 1)[-1].split(" (", 1)[0]
    return (f"memdir: MEMORY.md was edited by hand; it is rebuilt from the memory files, and the edit is kept at "
            f"{where}" + (f" (and {len(notes) - 1} more copy)" if len(notes) > 1 else "")
            + " — a fact belongs in a memory (memdir write).")


def hook_output(event: str, render, max_bytes: int, client: str = "claude-code", message=None) -> str:
    """The one function that builds what a hook prints: ``render(budget)``
    returns the whole ``additionalContext`` text (every block it carries)
    within ``budget`` UTF-8 bytes, or ``""`` for nothing; this returns the
    serialized hook JSON, or ``""``. ``message()``: the note for the person the JSON carries
    (``systemMessage``), asked after each render, or None.

    The budget starts at ``min(max_bytes, HOOK_CONTEXT_MAX_CHARS)`` (a UTF-8
    byte is at most one character; about 8,000 characters of
    ``additionalContext`` are shown in full:
    :data:`memdir.prompt.context.HOOK_CONTEXT_MAX_CHARS`) and shrinks by what
    overflowed until ``additionalContext`` ≤ that many characters and
    the whole stdout line (JSON escapes and the newline included) ≤
    :data:`HOOK_OUTPUT_MAX_CHARS` characters. ``""`` when nothing fits.
    """
    from ...prompt.context import HOOK_CONTEXT_MAX_CHARS

    budget = min(int(max_bytes), HOOK_CONTEXT_MAX_CHARS)
    while budget >= 1:
        text = render(budget)
        if not text:
            return ""
        out = _serialize(event, text, client, message() if message else None)
        over = max(len(text) - HOOK_CONTEXT_MAX_CHARS, len(out) + 1 - HOOK_OUTPUT_MAX_CHARS)
        if over <= 0:
            return out
        budget -= max(over, 32)  # escapes (quotes, newlines) made the JSON longer than the block
    return ""


def session_start(data: dict, home, event: str = "SessionStart", client: str = "claude-code") -> str:
    """The SessionStart output JSON (see :func:`hook_output`): the context
    block — or, with no memory saved yet, the guidance alone — followed by the
    agent extractor's pending findings of this project, if any (at most half
    the budget; the block gets the rest). ``""`` when nothing fits. A resume
    whose conversation holds the block given earlier in the session
    (:func:`conversation_resumes`) gets it only when it changed (the digest
    recorded: :func:`memdir.prompt.recalled.record_start`), and no finding
    shown earlier in the session."""
    from ...prompt import recalled
    from ...prompt.context import tools_note
    from ...prompt.pending import mark_shown
    from ...prompt.start import start_text, tools_line

    session = _session(data, home)
    # The MCP tools as the client names them; memdir's commands when its server cannot start (no mcp package).
    note = tools_line(session.home_path, tools_note(mcp_tool(client, "memory_write"), client in DEFERS_MCP_TOOLS),
                      client)
    if conversation_restarts(client, event, data):  # a new conversation: recall may give its bodies again
        recalled.clear(session.home_path, session.id, session.root_path)
    resumed = conversation_resumes(client, event, data)  # the conversation holds what earlier starts gave
    given = recalled.start_given(session.home_path, session.id, session.root_path) if resumed else None

    # A client whose start text a later prompt gives (START_AT_PROMPT) leaves the pending findings to that
    # prompt's recall, which counts them as shown once it gives them: held here, they were counted as shown
    # by a start whose text no prompt ever gave (trial22: Gemini started and quit, the findings used up unseen).
    findings = client not in START_AT_PROMPT

    def render(budget: int) -> str:
        # What a session start injects (memdir.prompt.start: the rule status and doctor report too).
        shown["budget"] = budget
        text, shown["layout"], shown["digest"] = start_text(session, budget, note=note, given=given,
                                                            resumed=resumed, findings=findings)
        shown["text"] = text
        return text

    # A warm process for this session's prompt hooks, when none answers (detached; never waits for it): first,
    # so it loads its model while this hook renders (the first prompt waits for it: memdir.search.warm.run_hook).
    from ...search.warm import has_index, launch_if_useful

    launch_if_useful(session.home_path, session.settings)
    shown: dict = {}
    from ...files.layout import reporting_kept_copies

    with reporting_kept_copies() as kept:  # a hand-edited MEMORY.md this start's rebuild keeps aside
        said = (lambda: person_note(kept, client)) if client in SAYS_TO_PERSON else None
        out = hook_output(event, render, session.settings.context_max_bytes, client, said)
    if kept and client not in SAYS_TO_PERSON:
        print(person_note(kept, client), file=sys.stderr)
    # Memories but no search index yet (written by hand, a team's freshly cloned): built in the background now,
    # with their vectors, for the first prompt (memdir.search.warm.first); this hook indexes and embeds nothing.
    memories = sum(total for _scope, _shown, total in shown.get("layout") or ())
    if memories and not has_index(session.home_path):
        from ...search.warm.first import start

        start(session.home_path, data["cwd"], memories)
    if out:
        if findings:  # mark as shown exactly the findings that were printed, once
            mark_shown(session, shown["budget"], once_per_session=resumed)
        # the block the conversation holds from now on: recorded once given (a held one by the prompt giving it)
        block = shown["digest"] if keeps_start_blocks(client) and shown["digest"] not in (None, given) else None
        if client in START_AT_PROMPT and recalled.hold_start(session.home_path, session.id, shown["text"],
                                                                 session.root_path, block):
            return ""  # the session's next prompt gives it, with that prompt
        if block is not None:
            recalled.record_start(session.home_path, session.id, block, session.root_path)
    return out


def user_prompt_submit(data: dict, home, event: str = "UserPromptSubmit", client: str = "claude-code", *,
                       environ=None, dense: bool = False) -> str:
    """The UserPromptSubmit output JSON with the recall block for ``prompt``, or ``""`` (a blank
    prompt too). ``dense``: embed the prompt here (a warm process with the model loaded);
    otherwise the cosines come from a warm process or not at all. Raises :class:`HookSkip` without
    a prompt, :class:`memdir.errors.InvalidInput` for one that is not text."""
    from ...search.query import checked_prompt

    prompt = data.get("prompt")
    if prompt is None:
        raise HookSkip("hook input has no prompt")
    if not checked_prompt(prompt).strip():  # a prompt that is not text: the one line on stderr
        return ""
    from ...errors import MissingExtra
    from ...prompt.pending import mark_shown, with_pending
    from ...search.recall import (  # not the facade: only recall's
        RecallResult,
        mark_recalled,
        recall_with_pending,
    )

    session = _session(data, home, environ)
    held, block = "", None
    if client in START_AT_PROMPT:  # the session start's text, held for this prompt (dialects.START_AT_PROMPT)
        from ...prompt.recalled import take_start

        held, block = take_start(session.home_path, session.id, session.root_path)
    room = len(held.encode("utf-8", "replace")) + 2 if held else 0

    def render(budget: int) -> str:
        # Recall, then the findings the session start did not show in this session (a resumed or hook-less
        # start), in one budget. A fresh process never loads the embedding model: a warm one (the MCP server)
        # embeds the prompt when it runs, else recall is lexical (memdir.search.warm). Once per session:
        # bodies this session was given are only named (memdir.search.recall).
        shown["budget"] = budget - room
        if shown["budget"] < 1:  # no room left beside the held start text: it alone
            shown.pop("result", None)
            return held
        try:
            shown["result"] = recall_with_pending(session, prompt, max_bytes=budget - room, embed_query=dense,
                                                  mark=False, once=True)
        except MissingExtra as exc:  # no recall without the search extra; the held start and the findings still
            shown["missing"] = exc   # (a Gemini start, taken off disk above, was lost with the prompt's error)
            shown["result"] = RecallResult(with_pending(session, budget - room, lambda rest: "", once_per_session=True))
        return "\n\n".join(text for text in (held, shown["result"].block) if text)

    shown: dict = {}
    out = hook_output(event, render, session.settings.recall_max_bytes + room, client)
    if out and block is not None:  # the held start's block is given now: the conversation holds it
        from ...prompt.recalled import record_start

        record_start(session.home_path, session.id, block, session.root_path)
    if out and "result" in shown:  # mark as shown the findings and bodies that were printed (recall is not run again)
        mark_shown(session, shown["budget"], once_per_session=True)
        mark_recalled(session, shown["result"])
    if "missing" in shown:
        print(said_line(f"memdir hook {event}: no recall: {shown['missing']}"), file=sys.stderr)
    return out


def tool_used(data: dict, home, event: str = "PostToolUse", client: str = "claude-code") -> str:
    """After one of memdir's tools ran (``tool_name``, ``tool_input``; install registers the hook for
    ``memory_read`` and ``memory_write`` only): the memory whose body the conversation now holds whole is
    recorded as given in this session (:func:`memdir.tools.handlers.seen_in_conversation` decides), so the next
    prompts' recall names it instead of giving its body again. Returns ``""`` (nothing to add to the context).
    Raises :class:`HookSkip` (no tool, no session id, nothing held whole) and what the lookup raises."""
    tool, arguments = data.get("tool_name"), data.get("tool_input")
    if not isinstance(tool, str) or not tool:
        raise HookSkip("hook input has no tool_name")
    if not isinstance(data.get("session_id"), str) or not data["session_id"]:
        raise HookSkip("hook input has no session_id: nothing to record")
    from ...tools.handlers import seen_in_conversation

    why = seen_in_conversation(_session(data, home), tool, arguments, data.get("tool_response"),
                               kept=kept_whole(client))
    if why is not None:
        raise RoutineSkip(f"{why}; recall may give it")
    return ""


def queue_consolidation(data: dict, home, event: str, client: str = "claude-code") -> str:
    """Queue ``transcript_path`` for consolidation and start a detached drain
    (:mod:`memdir.consolidation.queue`); a compaction (:func:`conversation_restarts`)
    first clears the session's recall record; an event that may compact but does not yet
    (:func:`queues_transcript`) does nothing. Returns ``""`` (Claude Code
    discards the output)."""
    from ...consolidation import queue

    if not queues_transcript(client, event, data):  # Gemini's PreCompress before each request: a normal event
        return ""
    transcript = data.get("transcript_path")
    session = _session(data, home)  # the drain consolidates into this cwd's project
    count_given(session)
    if conversation_restarts(client, event, data):  # about to be summarized: recall may give its bodies again
        from ...prompt import recalled

        recalled.clear(session.home, session.id, session.root_path)
    if event in SYNC_EVENTS and session.settings.sync_on_session_end:  # needs no transcript
        spawn_sync(session.home, data["cwd"])
    if not isinstance(transcript, str) or not transcript:
        raise HookSkip("hook input has no transcript_path")
    if session.settings.consolidation_mode == "off":
        raise RoutineSkip("consolidation is off (consolidation_mode = off)")
    if not os.path.isfile(transcript):  # said now, on stderr: the detached drain only logs
        raise HookSkip(f"transcript {transcript} " + ("is not a file" if os.path.exists(transcript)
                                                      else "does not exist") + "; nothing queued")
    queue.append(session.home, transcript, cwd=data["cwd"], session_id=session.id, event=event)
    queue.spawn_drain(session.home)
    return ""


def count_given(session) -> int:
    """At a session's or turn's end, or before a compaction: the bodies recall gave in the session since the last
    such moment are counted as reads (:func:`memdir.operations.memories.count_given`; the prompt hook only
    records them, in the session's record: :func:`memdir.prompt.recalled.record`). A session whose record holds
    none imports no layer. Returns how many memories were counted; never raises (a count is best effort)."""
    from ...prompt.recalled import take_unread

    try:
        given = take_unread(session.home, session.id, session.root_path)
        if not given:
            return 0
        from ...operations.memories import count_given as count

        return count(session, given)
    except Exception as exc:  # noqa: BLE001 - the queueing that follows must still run
        print(said_line(f"memdir hook: reads of recalled memories not counted: {type(exc).__name__}: {exc}"),
              file=sys.stderr)
        return 0


SYNC_EVENTS = ("SessionEnd", "sessionEnd")  # the ends of a session (not a turn's Stop, not a compaction)


def spawn_sync(home, cwd: str) -> int | None:
    """Start ``memdir sync --quiet`` detached (its own session on POSIX), for the project ``cwd``, when
    sync is set up in ``home`` (:func:`memdir.paths.sync_dir`); its output goes to the sync repository's
    ``.git/memdir-sync.log``. Returns its pid, or None when sync is not set up. An unreachable remote is the
    detached process's warning, never this hook's error."""
    import subprocess

    from ...paths import sync_dir

    gitdir = os.path.join(sync_dir(home), ".git")
    if not os.path.isdir(gitdir):
        return None
    command = [sys.executable, "-m", "memdir", "sync", "--quiet", "--home", str(home), "--project", cwd]
    detach = ({"start_new_session": True} if os.name == "posix"
              else {"creationflags": getattr(subprocess, "DETACHED_PROCESS", 0)})
    fd = os.open(os.path.join(gitdir, "memdir-sync.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "ab") as log:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True,
                                   **detach)
    return process.pid
