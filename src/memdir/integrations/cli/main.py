"""``memdir``: the command line, a thin translation onto the :class:`~memdir.Memory` facade.

Each command parses its options, calls one facade method, prints the result's
text (:mod:`memdir.render.memories`, the same text the tools give a model) or,
with ``--json``, the result's ``to_dict()`` as one JSON document, and maps
errors: a message on stderr and exit 1 for a memdir error (with ``--json``,
also ``{"error", "kind"}`` on stdout), exit 2 for a usage error. The CLI is
the human path: what it writes has origin ``human``.

This module parses and dispatches; the commands live in :mod:`.memories`
(the store's commands), :mod:`.search` (``search``/``recall``/``reindex``),
:mod:`.agents` (``mcp``/``hook``/``install``/``uninstall``),
:mod:`.consolidation` (``consolidate``/``ingest``), :mod:`.team` (``team``,
``promote``, ``import``), :mod:`.sync` (``sync``) and :mod:`.panel` (``panel``), each registering its
own options. ``memdir context`` is the hot path: it is handled here, without
``argparse`` (:func:`_fast_context_args`) and without YAML unless an index
must be rebuilt.
"""

from __future__ import annotations

import sys

from ...errors import Conflict, InvalidInput, MemdirError, NotFound, Refused
from ...text.printable import printable, said_line
from .common import IGNORED, OutputLost, UsageError, emit, warn_unsaid

# ---------------------------------------------------------------- the hot path


def cmd_context(args) -> int:
    """``memdir context [--max-bytes N]``: what a session start injects (:mod:`memdir.prompt.start`: the
    text the hooks print and ``status``/``doctor`` count per layer), its pending findings not marked shown."""
    # The hot path: no YAML, no facade unless an index must be rebuilt.
    from ...prompt.start import start_budget, start_layout
    from ...session import open_session

    if args.max_bytes is not None and args.max_bytes < 1:
        raise UsageError("--max-bytes must be at least 1")
    session = open_session(args.home, args.project, actor="human")
    budget = start_budget(session, args.max_bytes)
    block = start_layout(session, budget)[0]
    emit(args, {"context": block, "bytes": len(block.encode("utf-8")), "budget": budget}, block)
    return 0


# ---------------------------------------------------------------- parsing


class _ParseError(Exception):
    """argparse refused the command line (its message, for ``--json``)."""


def _parser_class():
    import argparse

    class Parser(argparse.ArgumentParser):
        """argparse, with its usage error raised (exit 2 stays main's to decide). A missing argument beside an
        option this command does not take (``memdir search --max-retries``) is most likely a value that starts
        with "-": the message says to put it after ``--``. An invalid choice that is a typo of one
        (``memdir lst``, ``memdir install claude``) ends with the choices it is near (:func:`_near_choices`)."""

        def parse_known_args(self, args=None, namespace=None):
            self._given = list(sys.argv[1:] if args is None else args)  # this (sub)command's own tokens
            return super().parse_known_args(args, namespace)

        def error(self, message):
            if message.startswith("the following arguments are required"):
                unknown = _unknown_dashed(getattr(self, "_given", []), self._option_string_actions)
                if unknown:
                    message += (f" ({unknown[0]!r} is not an option here: a value that starts with \"-\" goes "
                                f"after \"--\", as in `{self.prog} -- {unknown[0]}`)")
            message += _near_choices(message) or _near_options(message, self)
            message = said_line(message)  # a long value it quotes is cut in its middle (the hooks' rule)
            self.print_usage(sys.stderr)
            # as argparse prints: a stderr that cannot take it (a closed pipe, a full disk) loses the line, not the exit 2
            self._print_message(f"{self.prog}: error: {message}\n", sys.stderr)
            raise _ParseError(message)

    return Parser


def _near_choices(message: str) -> str:
    """``"; did you mean 'list'?"`` for argparse's ``invalid choice: 'lst' (choose from 'context', …)``: the
    choices the value is a typo of or the start of, as a memory's "not found" offers names
    (:func:`memdir.operations.lookup.closest`: ``claude`` → ``claude-code``); ``""`` for any other message or
    when no choice is near."""
    import re

    found = re.search(r"invalid choice: (['\"]?)(.*?)\1 \(choose from (.*)\)$", message)
    if found is None:
        return ""
    from ...operations.lookup import closest

    listed = found.group(3)
    choices = re.findall(r"'([^']*)'", listed) or [c.strip() for c in listed.split(",")]
    near = closest(found.group(2), choices)
    return f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""


def _near_options(message: str, parser) -> str:
    """``"; did you mean '--json'?"`` for argparse's ``unrecognized arguments: --jsn``: the options of ``parser`` and
    of the command its command line names (``memdir read x --jsn``: read's) near the first unrecognized one that
    looks like an option (:func:`memdir.operations.lookup.closest`: ``--dry`` → ``--dry-run``); ``""`` for any
    other message or when none is near."""
    if not message.startswith("unrecognized arguments: "):
        return ""
    dashed = [t.partition("=")[0] for t in message.split(": ", 1)[1].split() if t.startswith("--") and len(t) > 2]
    if not dashed:
        return ""
    options = set(parser._option_string_actions)
    command = _command_of(getattr(parser, "_given", []))
    for action in parser._actions:
        sub = action.choices.get(command) if command and isinstance(action.choices, dict) else None
        if sub is not None:
            options |= set(sub._option_string_actions)
    from ...operations.lookup import closest

    near = closest(dashed[0], [o for o in options if o.startswith("--")])
    return f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""


def _unknown_dashed(tokens: list[str], options: dict) -> list[str]:
    """The tokens before any ``--`` that look like options (a "-" then a letter or "-") but are none of
    ``options`` (argparse's option strings), in order."""
    unknown = []
    for token in tokens:
        if token == "--":
            break
        if len(token) > 1 and token[0] == "-" and (token[1].isalpha() or token[1] == "-") \
                and token.partition("=")[0] not in options:
            unknown.append(token)
    return unknown


def _global_option(argv: list[str], name: str) -> str | None:
    """The value of ``--home``/``--project`` in ``argv`` (either form), or None."""
    for index, token in enumerate(argv):
        if token == name and index + 1 < len(argv):
            return argv[index + 1]
        if token.startswith(name + "="):
            return token[len(name) + 1:]
    return None


def _command_of(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (skipping global options), or None."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in ("--home", "--project"):
            skip = True
        elif not token.startswith("-"):
            return token
    return None


def _hook_argv(argv: list[str]) -> list[str] | None:
    """The hook's own command line when ``argv`` runs ``memdir hook`` (without ``-h``/``--help``: argparse
    shows that help), else None. A hook never fails its client, so ``hook CLIENT`` is the hook even where an
    option before it lacks its value (``memdir --home hook claude-code …``): that option goes to the hook, which
    says so (:func:`memdir.integrations.claude_code.hooks.command_line`), instead of swallowing ``hook``."""
    if {"-h", "--help"} & set(argv):
        return None
    if _command_of(argv) == "hook":
        rest = list(argv)
        rest.remove("hook")
        return rest
    if "hook" not in argv[1:-1]:
        return None
    from ..claude_code.hooks import DIALECTS

    for at in range(1, len(argv) - 1):
        if argv[at] == "hook" and argv[at + 1] in DIALECTS and argv[at - 1] in ("--home", "--project"):
            return argv[:at - 1] + argv[at + 1:] + [argv[at - 1]]  # the option, valueless, at the end
    return None


def _fast_context_args(argv: list[str]):
    """``memdir [--home H] [--project P] context [--max-bytes N] [--json]``
    parsed without argparse (whose import alone costs more than the render),
    or None for anything else — help, errors and every other command take
    the full parser."""
    import types

    values = {"home": None, "project": None, "max_bytes": None, "json": False}
    seen_command = False
    tokens = iter(argv)
    for token in tokens:
        name, eq, inline = token.partition("=")
        if token == "context" and not seen_command:
            seen_command = True
        elif token == "--json":
            values["json"] = True
        elif name in ("--home", "--project", "--max-bytes") and (name != "--max-bytes" or seen_command):
            value = inline if eq else next(tokens, None)
            if value is None or (not eq and value.startswith("-") and name != "--max-bytes"):
                return None
            if name == "--max-bytes":
                try:
                    value = int(value)
                except ValueError:
                    return None
            values[name[2:].replace("-", "_")] = value
        else:
            return None
    return types.SimpleNamespace(command="context", handler=cmd_context, **values) if seen_command else None


def _settings_for_help(argv: list[str]):
    """The settings whose limits the help texts state: those of the home the
    command line names; the defaults when they cannot be read (the command
    itself then reports why)."""
    from ...session import open_session
    from ...settings import Settings

    try:
        return open_session(_global_option(argv, "--home"), use_cwd=False).settings
    except MemdirError:
        return Settings()


def build_parser(only: str | None = None, settings=None):
    """The whole parser; with ``only``, just that command's subparser (skips
    building forty others: ``memdir hook`` runs in a hook's time budget).
    ``settings`` gives the limits the help texts state (default: the defaults)."""
    import argparse

    from . import (
        agents as cli_integrations,
    )
    from . import (
        consolidation as cli_consolidate,
    )
    from . import (
        memories as cli_core,
    )
    from . import (
        panel as cli_panel,
    )
    from . import (
        search as cli_search,
    )
    from . import (
        sync as cli_sync,
    )
    from . import (
        team as cli_team,
    )

    if settings is None:
        from ...settings import Settings

        settings = Settings()
    Parser = _parser_class()
    located = Parser(add_help=False)  # where: every command that opens a home
    located.add_argument("--home", default=argparse.SUPPRESS, help="memdir home, an absolute path (default: "
                         "MEMDIR_HOME, $DSH_HOME/memory, or the platform data dir)")
    located.add_argument("--project", default=argparse.SUPPRESS,
                         help="project directory (default: MEMDIR_PROJECT or the working directory)")
    common = Parser(add_help=False, parents=[located])  # and --json: every command that prints a result
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print one JSON document on stdout")
    parser = Parser(
        prog="memdir", parents=[common],
        description="Long-term memory for LLM coding agents: Markdown memory files per layer "
                    "(the user, each project), a derived MEMORY.md index, and the context block "
                    "injected into the system prompt.",
        epilog="Run `memdir COMMAND --help` for a command's options. Errors exit 1, usage errors 2.",
    )
    from ...prompt.context import HOOK_CONTEXT_MAX_CHARS

    parser.add_argument("--version", action="store_true", default=argparse.SUPPRESS,
                        help="show memdir's version and exit (with --json: {\"version\": …})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name, handler, help_text, *, options=True, json=True, **kw):
        """``options=False``: a command that takes none of ``--json``/``--home``/``--project`` (it adds its own);
        ``json=False``: one that takes ``--home``/``--project`` but prints no result (a server)."""
        if only is not None and name != only:
            return IGNORED  # absorbs the options, registers nothing
        parents = ([common] if json else [located]) if options else []
        p = sub.add_parser(name, parents=parents, help=help_text, description=help_text, **kw)
        p.set_defaults(handler=handler)
        return p

    p = add("context", cmd_context, "Print what a session start injects into the agent's context (the hooks' "
            "block: memdir status counts its lines per layer), then the line naming memdir's MCP tools, or its "
            "commands while memdir is installed into no client or its server cannot start.")
    p.add_argument("--max-bytes", type=int, help=f"UTF-8 byte budget (default the context_max_bytes setting, "
                   f"{settings.context_max_bytes}; at most {HOOK_CONTEXT_MAX_CHARS}, what a hook injects in full)")
    for module in (cli_core, cli_search, cli_integrations, cli_consolidate, cli_panel, cli_team, cli_sync):
        module.register(add, settings)
    if only is not None and only not in sub.choices:
        return build_parser(None, settings)  # an unknown command: the full parser names the real ones
    return parser


def _json_args():
    import types

    return types.SimpleNamespace(json=True)


def _hold_closed_streams() -> None:
    """Started with fd 0, 1 or 2 closed (``<&-``, ``>&-``, a daemon's supervisor): the null device takes that
    fd, before anything else opens a file. Else the first file or socket memdir opens would get the number — a
    lock, the search index, the warm process's socket — and the MCP wire would read and write JSON-RPC on it, a
    child process (git) its output into it. ``sys.stdout`` stays None, so a result that cannot be printed is
    said (:class:`~.common.OutputLost`); ``sys.stderr`` is the null device, so ``print(file=sys.stderr)``
    never falls back to stdout (into a ``--json`` document)."""
    import os

    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: fd itself when the lower ones are open
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's stderr


FLAGS = {"k": "--limit", "description": "-d/--description"}  # the library's arguments whose CLI flag is not their name (``as_of``: ``--as-of``)


def _flag(argument: str | None) -> str | None:
    """The CLI's flag for the library argument ``argument`` (``k``: ``--limit``, ``as_of``: ``--as-of``; newuser31:
    errors named ``k`` and ``as_of``, which no command takes). None for None."""
    return None if argument is None else FLAGS.get(argument, "--" + argument.replace("_", "-"))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``memdir`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    _hold_closed_streams()
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a character the stream cannot encode prints as an escape, never fails
            stream.reconfigure(errors="backslashreplace")
    rest = _hook_argv(argv)
    if rest is not None:
        # Claude Code runs `memdir hook …` (project-scope installs) on every event: skip argparse.
        from ..claude_code.hooks import main as hook_main

        return hook_main(rest)
    args = _fast_context_args(argv)
    if args is None:
        command = _command_of(argv)
        # The limits help texts state: loaded only when help is shown (every command opens its own session).
        wants_help = "-h" in argv or "--help" in argv
        parser = build_parser(command, _settings_for_help(argv) if wants_help else None)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version
            return int(exc.code or 0)
        except _ParseError as exc:
            if "--json" in argv:  # scripts reading stdout get one JSON document for a usage error too
                _error_document(_json_args(), str(exc), "UsageError")
            return 2
    for name, default in (("home", None), ("project", None), ("json", False)):
        if not hasattr(args, name):
            setattr(args, name, default)
    if getattr(args, "version", False) is True:  # the top-level flag (restore and show take --version N)
        from ...version import VERSION

        return _printed(lambda: emit(args, {"version": VERSION}, f"memdir {VERSION}"))
    if not getattr(args, "handler", None):
        build_parser(settings=_settings_for_help(argv)).print_help(sys.stderr)
        if args.json:  # a script reading stdout gets its one JSON document for this usage error too
            _error_document(args, "a command is required (memdir --help lists them)", "UsageError")
        return 2
    from ...files.layout import reporting_kept_copies
    from ...files.sweeps import hand_sweeps_off

    try:
        # someone waits for the answer: a large layer's overdue sweep runs detached; a MEMORY.md edited by hand
        # and kept aside by whatever rebuilt it (context, status, a read's take-up) is said once, as a write says it
        with hand_sweeps_off(), reporting_kept_copies() as kept:
            try:
                return int(args.handler(args) or 0)
            finally:
                warn_unsaid([f"warning: {note}" for note in kept])
    except UsageError as exc:
        message = said_line(str(exc))
        _said_on_stderr(message)
        if getattr(args, "json", False):
            _error_document(args, message, "UsageError")
        return 2
    except MemdirError as exc:
        # it may quote a file name or a value; an argument it names is named as the CLI spells it (its flag)
        # a long value it quotes (a 100 KB argument) keeps its head and tail: the hooks' rule, said_line
        message = said_line(printable(exc.worded(_flag(exc.argument)) if isinstance(exc, InvalidInput) else str(exc)))
        if message.startswith("memory not found"):  # the CLI's way to see names (a model's is memory_list)
            message += " — `memdir list` shows the names"
        elif isinstance(exc, NotFound) and exc.deleted:  # the CLI's way to the versions (a model's is memory_history)
            message += f"; `memdir history {exc.deleted}` shows its versions"
        elif isinstance(exc, NotFound) and exc.elsewhere:  # the CLI's way to that layer (a model's is the scope argument)
            message += f": drop --scope or say --scope {exc.elsewhere}"
        elif isinstance(exc, Conflict) and exc.taken:  # the CLI's way to rename or change (a model's: memory_write)
            held, moving, free = exc.taken
            message += f" (`memdir write {free} --rename-from {moving}`, or `memdir write {held}` without --rename-from)"
        elif isinstance(exc, Refused) and exc.reactivate:  # the CLI's way back (a model's: reactivate=true)
            message += (f"; reactivate it with `memdir write {exc.reactivate} --reactivate` (a version of it: "
                        f"`memdir restore {exc.reactivate} --version N --reactivate`)")
        _said_on_stderr(message)
        if getattr(args, "json", False):  # scripts reading stdout get one JSON document too
            _error_document(args, message, type(exc).__name__)
        return 1
    except OutputLost as exc:  # the command ran; only its output is lost
        return _lost(exc)
    except KeyboardInterrupt:
        print("memdir: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _error_document(args, message: str, kind: str) -> None:
    """The ``{"error", "kind"}`` document of an error on stdout (``--json``), said after the error's line on
    stderr: a stdout closed or gone (``| (exec 0<&-; true)``, ``>&-``) takes nothing and the error keeps its exit
    code (2 for a usage error, 1 else) — quietly, as the line already said it (restore43: a traceback, exit 1)."""
    try:
        emit(args, {"error": message, "kind": kind})
    except (OutputLost, BrokenPipeError):
        _drop_stdout()


def _said_on_stderr(message: str) -> None:
    """``memdir: MESSAGE`` on stderr; a stderr gone takes nothing, and the exit code stays the error's."""
    try:
        print(f"memdir: {message}", file=sys.stderr, flush=True)
    except (BrokenPipeError, OSError, ValueError):
        pass


def _drop_stdout() -> None:
    """After a write into a closed pipe: stdout pointed at the null device, so the interpreter's flush at exit
    finds nothing to write and says no "Exception ignored" on stderr."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (AttributeError, OSError, ValueError):  # stdout None (closed at start): nothing is flushed at exit
        pass


def _lost(exc: OutputLost) -> int:
    """Exit code 1, said on stderr: the command ran, its output could not be printed (stdout closed or full)."""
    print(f"memdir: the result was not printed: {exc}", file=sys.stderr)
    return 1


def _printed(show) -> int:
    """Run ``show`` (a print of a result made before any command runs: ``--version``) as a command's output is
    printed: 0; a closed pipe (``| head -1``) 0, quietly; stdout closed or full: 1, said (:func:`_lost`)."""
    try:
        show()
    except OutputLost as exc:
        return _lost(exc)
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    # Run the canonical module, not this __main__ copy, so that the commands'
    # UsageError is the class main() catches.
    from memdir.integrations.cli.main import main as _main

    sys.exit(_main())
