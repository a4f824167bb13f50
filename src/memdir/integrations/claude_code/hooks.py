"""Claude Code hook entry points: ``memdir hook claude-code EVENT`` — and
those of the clients whose hooks speak Claude Code's protocol in their own
dialect (:data:`DIALECTS`: Codex, Gemini CLI, Cursor), ``memdir hook CLIENT
EVENT``. Each client event is one of four moments: the session starts
(the context block), a prompt is submitted (recall), one of memdir's tools ran
(record what the conversation now holds), the session or a turn ends (queue
the transcript) — what each does is :mod:`memdir.integrations.claude_code.moments`;
this module is the hook as a process: its command line, its stdin, the warm relay, its exit.
Codex sends Claude Code's fields; Gemini CLI
too, with its own event names (``BeforeAgent``, ``PreCompress``); Cursor
sends ``workspace_roots`` for the directory and ``conversation_id`` and
reads ``{"additional_context": …}`` back (its prompt hook cannot add context).

Claude Code runs a command hook with the event's JSON on stdin (``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name`` and per-event fields; see
``reference/landscape.md`` §2.6) and reads JSON from its stdout.

``UserPromptSubmit`` run as installed (:func:`main`) is a thin client when
the home has a warm process (:mod:`memdir.search.warm`: the MCP server, or
the one the hooks start): the input goes to it whole, it runs this same
hook with its index, the hook process's ``MEMDIR_*`` settings and the
prompt's cosines (:func:`answer_warm`), and the fresh process prints the
answer, importing no search, layer, YAML or SQLite code. With no warm
process answering, the fresh process runs the hook itself.

Output is written as UTF-8 bytes, whatever the locale's encoding
(``PYTHONIOENCODING=cp1252`` cannot encode the pin mark of a pinned memory).

A memory problem never blocks the agent: a bad command line (``--home``
without a value, empty or twice, an option a hook does not take:
:func:`command_line`), malformed, empty or closed stdin, a missing ``cwd``,
a home that is relative or a file, an unknown event, a broken store or any
other failure ends with exit 0, nothing on stdout and one line on stderr
(:func:`main`, the one place of that rule); a routine skip (:class:`RoutineSkip`: nothing wrong) says
its line only when ``MEMDIR_LOG_LEVEL`` is info or debug (:func:`says_routine`). A ``--home`` given without a
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
from ...vocabulary import EXTRACTOR_ENV
from . import once
from .dialects import DIALECTS, RESTARTS, RESUMES, conversation_restarts, translate  # noqa: F401 (hooks.RESTARTS …)
from .moments import (
    HookSkip,
    RoutineSkip,
    queue_consolidation,
    said_line,
    session_start,
    tool_used,
    user_prompt_submit,
)

EVENTS = ("SessionStart", "UserPromptSubmit", "SessionEnd", "PreCompact", "PostToolUse")
MAX_STDIN = 4 * 1024 * 1024      # bytes of hook input read; the JSON is small, a transcript is not sent


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


def run(event: str, stdin=None, home=None, client: str = "claude-code", *, environ=None, dense: bool = False) -> str:
    """Handle one hook ``event`` of ``client`` (:data:`DIALECTS`); returns what
    to print on stdout (``""`` for nothing). ``environ`` and ``dense``: a
    prompt hook run by a warm process (:func:`answer_warm`). In the session of memdir's own
    ``extractor_command`` (:data:`~memdir.vocabulary.EXTRACTOR_ENV` in the hook's environment) every
    event is a :class:`HookSkip`. Raises :class:`HookSkip`,
    :class:`memdir.MemdirError` or ``OSError``; :func:`main` turns every
    failure into exit 0."""
    events = DIALECTS.get(client)
    if events is None:
        raise HookSkip(f"unknown client {client!r} (handled: {', '.join(DIALECTS)})")
    if event not in events:
        raise HookSkip(f"unknown hook event {event!r} of {client} (handled: {', '.join(events)})")
    if (os.environ if environ is None else environ).get(EXTRACTOR_ENV):
        raise RoutineSkip(f"this session is memdir's own extractor_command ({EXTRACTOR_ENV} is set): its hooks give "
                       "no memory and queue nothing")
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
        print(said_line(f"memdir hook: {exc}"), file=sys.stderr)
    except Exception as exc:  # never block the agent on a memory problem
        print(said_line(f"memdir hook: skipped after an error: {type(exc).__name__}: {exc}"), file=sys.stderr)
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
    moment = DIALECTS[client].get(event)
    if moment in ("start", "prompt"):
        try:
            raw = _read_stdin(sys.stdin)
        except HookSkip as exc:
            print(_line(event, exc), file=sys.stderr)
            return 0
        if not _first(client, event, raw, home):
            return 0
        if moment == "prompt" and _through_warm(client, event, raw, home):
            return 0
        stdin = io.StringIO(raw)  # no warm process answered: this process runs the hook
    return handle(event, home=home, client=client, stdin=stdin)


def _first(client: str, event: str, raw: str, home) -> bool:
    """False when another of memdir's hooks (memdir installed in two scopes: the client runs both) already gives
    this event's block (:func:`memdir.integrations.claude_code.once.first`); it says so only when routine skips
    are said (:func:`says_routine`). True for input this process cannot read: :func:`run` says what is wrong."""
    try:
        data = translate(client, json_c.loads(raw))
    except Exception:  # noqa: BLE001 — malformed input is run's to report, on its one line
        return True
    if not isinstance(data, dict) or once.first(home, client, event, data, once.origin()):
        return True
    if says_routine():
        print(f"memdir hook {event}: another of memdir's hooks gives this block (memdir is installed in two "
              "scopes; memdir doctor)", file=sys.stderr)
    return False


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
        if isinstance(exc, RoutineSkip) and not says_routine(how.get("environ")):
            return "", None  # no error: a client showing every stderr line (Gemini CLI) would show it each time
        return "", _line(event, exc)
    except Exception as exc:  # never block the agent on a memory problem
        if hand_back:
            raise
        return "", said_line(f"memdir hook {event}: skipped after an error: {type(exc).__name__}: {exc}")


def says_routine(environ=None) -> bool:
    """True when a hook says its routine skips (:class:`RoutineSkip`) on stderr: ``MEMDIR_LOG_LEVEL``
    (in ``environ``, default ``os.environ``: a warm process passes the hook process's) is ``info`` or
    ``debug``. Otherwise stderr carries only what is wrong, since Gemini CLI shows each line to the person."""
    level = (os.environ if environ is None else environ).get("MEMDIR_LOG_LEVEL", "")
    return level.strip().lower() in ("info", "debug")


def _line(event: str, exc: Exception) -> str:
    """The one stderr line of a hook that did nothing because of ``exc`` (long values cut: :func:`said_line`)."""
    return said_line(f"memdir hook {event}: {exc}")


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
