"""Claude Code hook entry points: ``memdir hook claude-code EVENT`` — and
those of the clients whose hooks speak Claude Code's protocol in their own
dialect (:data:`DIALECTS`: Codex, Gemini CLI, Cursor), ``memdir hook CLIENT
EVENT``. Each client event is one of four moments: the session starts
(the context block), a prompt is submitted (recall), one of memdir's tools ran
(record what the conversation now holds), the session or a turn ends (queue
the transcript). Codex sends Claude Code's fields; Gemini CLI
too, with its own event names (``BeforeAgent``, ``PreCompress``); Cursor
sends ``workspace_roots`` for the directory and ``conversation_id`` and
reads ``{"additional_context": …}`` back (its prompt hook cannot add context).

Claude Code runs a command hook with the event's JSON on stdin (``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name`` and per-event fields; see
``reference/landscape.md`` §2.6) and reads JSON from its stdout.

* ``SessionStart`` — prints ``{"hookSpecificOutput": {"hookEventName":
  "SessionStart", "additionalContext": <context block>}}``; with no memory
  saved yet, the guidance alone (:func:`memdir.prompt.context.guidance_block`),
  so an agent learns when to save its first memory; a team layer not trusted in this
  clone shows none of its text, one line says so and how to trust it. Runs on every session
  start, so it imports only the hot path
  (:func:`memdir.prompt.start.start_layout`: no YAML, no SQLite, no MCP —
  the one rule ``status`` and ``doctor`` report). The agent extractor's pending
  findings of this project, if any, follow the block in the same budget
  (:func:`memdir.prompt.pending.with_pending`: at most half of it; the block
  gets the rest).
* ``UserPromptSubmit`` — the recall block for ``prompt`` in the same shape,
  under ``recall_max_bytes``, plus the pending findings when this session
  has not been shown them yet; nothing (and a line naming the extra) when
  search is not installed.
* ``UserPromptSubmit`` run as installed (:func:`main`) is a thin client when
  the home has a warm process (:mod:`memdir.search.warm`: the MCP server, or
  the one the hooks start): the input goes to it whole, it runs this same
  hook with its index, the hook process's ``MEMDIR_*`` settings and the
  prompt's cosines (:func:`answer_warm`), and the fresh process prints the
  answer, importing no search, layer, YAML or SQLite code. With no warm
  process answering, the fresh process runs the hook itself.
* ``UserPromptSubmit`` gives each memory's body once per session: a body
  given earlier in the session, unchanged, is only named
  (:mod:`memdir.prompt.recalled`); an event that compacts or clears the
  conversation clears that record — one table for every client
  (:data:`RESTARTS`: Claude Code's and Codex's ``PreCompact`` and
  ``SessionStart`` of ``source`` ``compact`` or ``clear``, Gemini CLI's
  ``PreCompress`` of ``trigger`` ``manual`` and ``SessionStart`` of ``source`` ``clear``). The context
  block too: a ``SessionStart`` that resumes a conversation holding the block given earlier in the session
  (:data:`RESUMES`) gives it only when it changed, else one line (:func:`memdir.prompt.start.start_text`).
  For a client of :data:`START_AT_PROMPT` (Gemini CLI) the start's text is held and printed by the
  session's next prompt hook, in front of its recall block (its resume keeps the prompts then); its pending
  findings are left to that prompt's recall, which counts them as shown once it gives them.
* ``PostToolUse`` (installed for ``mcp__memdir__memory_read`` and ``memory_write``; Claude Code and Codex
  send the same input, Codex's ``tool_response`` the MCP result ``{"content": [...], "isError": …}``;
  Gemini CLI's ``AfterTool``, its tool named as :func:`translate` says) — a
  memory the model read whole or wrote the body of is in the conversation: it is recorded as given in the session, so recall
  names it instead of giving its body again (:func:`tool_used`); prints nothing.
* ``SessionEnd`` and ``PreCompact`` — queue the transcript for consolidation
  and start a detached ``memdir consolidate --queue`` that drains it
  (:mod:`memdir.consolidation.queue`); returns at once (SessionEnd's whole
  budget is about 1.5 s). With ``sync_on_session_end`` (and ``memdir sync init`` done), a session's
  end also starts a detached ``memdir sync`` (:func:`spawn_sync`).

Everything a hook prints goes through :func:`hook_output`, which budgets
the serialized JSON, not only the block: Claude Code replaces a hook's output
over 10,000 characters, and ``additionalContext`` over about 8,000, with a
short preview (``reference/landscape.md`` §2.6), so the index would silently
vanish. Whatever blocks a hook carries, its stdout stays under both limits.
Output is written as UTF-8 bytes, whatever the locale's encoding
(``PYTHONIOENCODING=cp1252`` cannot encode the pin mark of a pinned memory).

The project of every event is the hook input's ``cwd`` (the session rule of
:func:`memdir.session.open_session`, with that directory alone).

A memory problem never blocks the agent: a bad command line (``--home``
without a value, empty or twice, an option a hook does not take:
:func:`command_line`), malformed, empty or closed stdin, a missing ``cwd``,
a home that is relative or a file, an unknown event, a broken store or any
other failure ends with exit 0, nothing on stdout and one line on stderr
(:func:`main`, the one place of that rule). A ``--home`` given without a
value never falls back to the default home.

Run as ``python -m memdir.hooks claude-code EVENT [--home DIR]`` (what the
installer writes: the stable command path :mod:`memdir.hooks`, which skips
the CLI's parser) or through ``memdir hook``.
"""

from __future__ import annotations

import io
import os
import sys

from ...text import json_c  # json's own C code: a hook's fresh process loads no json, and so no re
from .dialects import (  # noqa: F401 (hooks.DIALECTS, hooks.RESUMES)
    DEFERS_MCP_TOOLS, DIALECTS, KEEPS_TOOL_OUTPUT, RESTARTS, RESUMES, START_AT_PROMPT, conversation_restarts,
    conversation_resumes,
    keeps_start_blocks, mcp_tool, queues_transcript, translate)

EVENTS = ("SessionStart", "UserPromptSubmit", "SessionEnd", "PreCompact", "PostToolUse")
HOOK_OUTPUT_MAX_CHARS = 10_000   # characters of a hook's whole stdout (Claude Code, hook output cap)
MAX_STDIN = 4 * 1024 * 1024      # bytes of hook input read; the JSON is small, a transcript is not sent


class HookSkip(Exception):
    """Nothing to do, with the reason for the one stderr line."""


def _input(stream) -> dict:
    raw = _read_stdin(stream)
    if not raw.strip():
        raise HookSkip("empty hook input on stdin")
    try:
        data = json_c.loads(raw)
    except ValueError as exc:
        raise HookSkip(f"hook input is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise HookSkip("hook input is not a JSON object")
    return data


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


def _serialize(event: str, text: str, client: str = "claude-code") -> str:
    if client == "cursor":  # Cursor's sessionStart output
        return json_c.dumps({"additional_context": text}, ensure_ascii=False)
    return json_c.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}},
                      ensure_ascii=False)


def hook_output(event: str, render, max_bytes: int, client: str = "claude-code") -> str:
    """The one function that builds what a hook prints: ``render(budget)``
    returns the whole ``additionalContext`` text (every block it carries)
    within ``budget`` UTF-8 bytes, or ``""`` for nothing; this returns the
    serialized hook JSON, or ``""``.

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
        out = _serialize(event, text, client)
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
    from ...prompt.start import start_text

    session = _session(data, home)
    note = tools_note(mcp_tool(client, "memory_write"), client in DEFERS_MCP_TOOLS)  # as the client names them
    if conversation_restarts(client, event, data):  # a new conversation: recall may give its bodies again
        recalled.clear(session.home_path, session.id)
    resumed = conversation_resumes(client, event, data)  # the conversation holds what earlier starts gave
    given = recalled.start_given(session.home_path, session.id, session.root_path) if resumed else None

    # A client whose start text a later prompt gives (START_AT_PROMPT) leaves the pending findings to that
    # prompt's recall, which counts them as shown once it gives them: held here, they were counted as shown
    # by a start whose text no prompt ever gave (trial22: Gemini started and quit, the findings used up unseen).
    findings = client not in START_AT_PROMPT

    def render(budget: int) -> str:
        # What a session start injects (memdir.prompt.start: the rule status and doctor report too).
        shown["budget"] = budget
        text, _, shown["digest"] = start_text(session, budget, note=note, given=given, resumed=resumed,
                                              findings=findings)
        shown["text"] = text
        return text

    # A warm process for this session's prompt hooks, when none answers (detached; never waits for it): first,
    # so it loads its model while this hook renders (the first prompt waits for it: memdir.search.warm.run_hook).
    from ...search.warm import launch_if_useful

    launch_if_useful(session.home_path, session.settings)
    shown: dict = {}
    out = hook_output(event, render, session.settings.context_max_bytes, client)
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
    from ...search.recall import RecallResult, mark_recalled, recall_with_pending  # not the facade: only recall's

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
        print(f"memdir hook {event}: no recall: {shown['missing']}", file=sys.stderr)
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
                               kept=KEEPS_TOOL_OUTPUT.get(client))
    if why is not None:
        raise HookSkip(f"{why}; recall may give it")
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
    if conversation_restarts(client, event, data):  # about to be summarized: recall may give its bodies again
        from ...prompt import recalled

        recalled.clear(session.home, session.id)
    if event in SYNC_EVENTS and session.settings.sync_on_session_end:  # needs no transcript
        spawn_sync(session.home, data["cwd"])
    if not isinstance(transcript, str) or not transcript:
        raise HookSkip("hook input has no transcript_path")
    if session.settings.consolidation_mode == "off":
        raise HookSkip("consolidation is off (consolidation_mode = off)")
    if not os.path.isfile(transcript):  # said now, on stderr: the detached drain only logs
        raise HookSkip(f"transcript {transcript} " + ("is not a file" if os.path.exists(transcript)
                                                      else "does not exist") + "; nothing queued")
    queue.append(session.home, transcript, cwd=data["cwd"], session_id=session.id, event=event)
    queue.spawn_drain(session.home)
    return ""


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


def run(event: str, stdin=None, home=None, client: str = "claude-code", *, environ=None, dense: bool = False) -> str:
    """Handle one hook ``event`` of ``client`` (:data:`DIALECTS`); returns what
    to print on stdout (``""`` for nothing). ``environ`` and ``dense``: a
    prompt hook run by a warm process (:func:`answer_warm`). Raises :class:`HookSkip`,
    :class:`memdir.MemdirError` or ``OSError``; :func:`main` turns every
    failure into exit 0."""
    events = DIALECTS.get(client)
    if events is None:
        raise HookSkip(f"unknown client {client!r} (handled: {', '.join(DIALECTS)})")
    if event not in events:
        raise HookSkip(f"unknown hook event {event!r} of {client} (handled: {', '.join(events)})")
    data = translate(client, _input(stdin if stdin is not None else sys.stdin))
    moment = events[event]
    if moment == "start":
        return session_start(data, home, event, client)
    if moment == "prompt":
        return user_prompt_submit(data, home, event, client, environ=environ, dense=dense)
    if moment == "tool":
        return tool_used(data, home, event, client)
    return queue_consolidation(data, home, event, client)


def main(argv: list[str] | None = None) -> int:
    """``python -m memdir.hooks CLIENT EVENT [--home DIR]``. Always exit 0: the
    one place where a hook never fails its client — a bad command line
    (:func:`command_line`), input, store or any other failure of this process
    is one line on stderr and nothing on stdout. A prompt hook is first sent
    whole to the home's warm process (:func:`_through_warm`); only when none
    answers does this process run it."""
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except HookSkip as exc:
        print(f"memdir hook: {exc}", file=sys.stderr)
    except Exception as exc:  # never block the agent on a memory problem
        print(f"memdir hook: skipped after an error: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 0


USAGE = f"usage: memdir hook {{{','.join(DIALECTS)}}} EVENT [--home DIR]"


def command_line(argv: list[str]) -> tuple[str, str, str | None]:
    """``(client, event, home or None)`` of a hook's command line ``CLIENT EVENT
    [--home DIR]`` (``--home=DIR`` too, anywhere). Raises :class:`HookSkip`
    with the reason and :data:`USAGE` for any other: an option a hook does not
    take, ``--home`` without a value (at the end, empty, or followed by an
    option — never the default home in its place), ``--home`` twice, a client
    not in :data:`DIALECTS`, not exactly two words. An unknown event of a known
    client is :func:`run`'s to say."""
    words, homes = [], []
    tokens = iter(argv)
    for token in tokens:
        name, eq, inline = token.partition("=")
        if name == "--home":
            value = inline if eq else next(tokens, None)
            if not value or (not eq and value.startswith("-") and value != "-"):
                raise HookSkip(f"option --home needs a value (the memdir home, an absolute path); nothing done; "
                               f"{USAGE}")
            homes.append(value)
        elif token in ("-h", "--help"):  # a person asking: the events too, still nothing on stdout
            raise HookSkip(f"{USAGE}; EVENT: " + "; ".join(f"{client}: {', '.join(events)}"
                                                          for client, events in DIALECTS.items())
                           + "; the client's hook JSON on stdin (`memdir hook --help` explains)")
        elif token.startswith("-") and token != "-":
            # --json, --project …: a hook writes what its client reads and takes its project from the input's cwd
            raise HookSkip(f"option {name} is not taken (a hook takes only --home; its project is its input's "
                           f"cwd); nothing done; {USAGE}")
        else:
            words.append(token)
    if len(homes) > 1:
        raise HookSkip(f"option --home is given {len(homes)} times ({', '.join(map(repr, homes))}); give it once; "
                       f"nothing done; {USAGE}")
    if len(words) != 2 or words[0] not in DIALECTS:
        raise HookSkip(USAGE)
    return words[0], words[1], (homes[0] if homes else None)


def _main(argv: list[str]) -> int:
    client, event, home = command_line(argv)
    stdin = None
    if DIALECTS[client].get(event) == "prompt":
        try:
            raw = _read_stdin(sys.stdin)
        except HookSkip as exc:
            print(_line(event, exc), file=sys.stderr)
            return 0
        if _through_warm(client, event, raw, home):
            return 0
        stdin = io.StringIO(raw)  # no warm process answered: this process runs the hook
    return handle(event, home=home, client=client, stdin=stdin)


def _read_stdin(stream) -> str:
    """The hook input: at most :data:`MAX_STDIN` bytes of ``stream`` (characters of a text-only
    one), as text. Raises :class:`HookSkip` naming the limit when there is more, and when there
    is no stdin at all (the hook started with it closed)."""
    if stream is None:
        raise HookSkip("no hook input (stdin is closed)")
    raw = stream.buffer.read(MAX_STDIN + 1) if hasattr(stream, "buffer") else stream.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        raise HookSkip(f"hook input is larger than {MAX_STDIN} bytes ({MAX_STDIN // 1024 // 1024} MiB), the most a "
                       "hook reads; nothing done")
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw


def _through_warm(client: str, event: str, raw: str, home) -> bool:
    """The thin client: send the hook's input to the warm process of the
    home (:mod:`memdir.search.warm`), which runs this module's prompt hook
    with its index, settings read with this process's ``MEMDIR_*``
    environment, and the model loaded (:func:`answer_warm`); print its
    answer. False — nothing printed — when no warm process answers
    (:func:`memdir.search.warm.run_hook`, which waits, bounded, for one being
    started for the home: the session's first prompt) or the home cannot be resolved
    (the caller then runs the hook itself, which reports that). Imports only
    the socket client: no search, layer, YAML or SQLite code."""
    from ...errors import MemdirError
    from ...paths import home_path
    from ...search import warm

    try:
        path = home_path(home)  # a string: this process loads no pathlib
    except MemdirError:
        return False
    environ = {name: value for name, value in os.environ.items() if name.startswith("MEMDIR_")}
    answer = warm.run_hook(path, {"client": client, "event": event, "input": raw, "home": path,
                                  "environ": environ})
    if answer is None or not isinstance(answer.get("stdout"), str):
        return False
    global _relayed
    _relayed = True
    if answer.get("stderr"):
        print(str(answer["stderr"]), file=sys.stderr)
    if answer["stdout"]:
        _write_utf8(answer["stdout"] + "\n")
    return True


_relayed = False  # this process printed a warm process's answer (_through_warm), and did nothing else


def finish(code: int) -> int:
    """End the process of ``python -m memdir.hooks`` with ``code``: at once (:func:`os._exit`), its stdout
    and stderr flushed, when it only relayed a warm process's answer (:func:`_through_warm`) — it opened
    no file of the store, wrote none, started no thread, so the interpreter's teardown of its modules
    guards nothing and only delays the agent (≈ 5 ms, several times that on a loaded machine). Otherwise
    returns ``code`` (for ``sys.exit``: a hook that ran here ends as every process does)."""
    if not _relayed:
        return code
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken pipe: what a normal exit would not write either
            pass
    os._exit(code)


def answer_warm(hook: dict, dense: bool = False) -> dict:
    """Run a prompt hook sent by :func:`_through_warm`, in the warm process
    (:class:`memdir.search.warm.WarmServer`'s ``hooks``): ``hook`` holds
    ``client``, ``event``, ``input`` (the hook's stdin), ``home`` and the
    hook process's ``MEMDIR_*`` ``environ``; ``dense`` when the model is
    loaded here. Returns ``{"stdout": what to print, "stderr": the one line
    or None}`` — what :func:`handle` would print, the index's warnings too
    (:func:`memdir.search.stale.warnings_handed_back`) — or ``{"error": …}`` for an
    event that is not a prompt hook and for a hook that failed here other
    than by its input (a store error, a full disk under the warm process's
    log): the hook process then runs it itself (:func:`_through_warm`), by
    words alone at worst. Never raises."""
    client, event = hook.get("client"), hook.get("event")
    if DIALECTS.get(client, {}).get(event) != "prompt" or not isinstance(hook.get("input"), str):
        return {"error": "not a prompt hook"}
    given = hook.get("environ") if isinstance(hook.get("environ"), dict) else {}
    environ = {str(k): v for k, v in given.items() if str(k).startswith("MEMDIR_") and isinstance(v, str)}
    from ...search.stale import warnings_handed_back

    try:
        with warnings_handed_back() as warned:  # said on the hook's stderr, where a person sees it
            out, line = _outcome(event, io.StringIO(hook["input"]), hook.get("home"), client, hand_back=True,
                                 environ=environ, dense=dense)
    except Exception as exc:  # this process's trouble: the hook's own process answers instead
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"stdout": out, "stderr": "\n".join([*warned, *([line] if line else [])]) or None}


def handle(event: str, home=None, stdin=None, client: str = "claude-code") -> int:
    """Run :func:`run`, print its output, and map every failure to one stderr line. Returns 0."""
    out, line = _outcome(event, stdin, home, client)
    if line:
        print(line, file=sys.stderr)
    if out:
        _write_utf8(out + "\n")
    return 0


def _outcome(event: str, stdin, home, client: str, *, hand_back: bool = False, **how) -> tuple[str, str | None]:
    """``(stdout, stderr line or None)`` of :func:`run`: every failure is one line. ``hand_back``
    (a warm process answering for a hook): a failure of the store as this process meets it
    (:class:`StoreError`) or of this process is raised instead, for the hook's own process to try;
    the input's fault is the same anywhere and stays a line."""
    from ...errors import MemdirError, StoreError
    from ...files.sweeps import hand_sweeps_off

    try:
        with hand_sweeps_off():  # the agent waits: a large layer's overdue sweep runs detached (memdir.files.sweeps)
            return run(event, stdin=stdin, home=home, client=client, **how), None
    except (HookSkip, MemdirError) as exc:
        if hand_back and isinstance(exc, StoreError):
            raise
        return "", _line(event, exc)
    except Exception as exc:  # never block the agent on a memory problem
        if hand_back:
            raise
        return "", f"memdir hook {event}: skipped after an error: {type(exc).__name__}: {exc}"


def _line(event: str, exc: Exception) -> str:
    """The one stderr line of a hook that did nothing because of ``exc``."""
    return f"memdir hook {event}: {exc}"


def _write_utf8(text: str) -> None:
    """Write ``text`` to stdout as UTF-8 bytes: Claude Code reads UTF-8 JSON
    whatever this process's locale encoding is (cp1252, gbk …)."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text-only stream (a test's StringIO): it takes str
        stream.write(text)
        stream.flush()
        return
    stream.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()


if __name__ == "__main__":
    sys.exit(main())
