"""What every command module of the CLI shares: the usage error, the stand-in for a subparser not built, opening
the facade for ``--home``/``--project``, and printing a result (its text, or
with ``--json`` its ``to_dict()``) and warnings."""

from __future__ import annotations

import sys

from ...errors import InvalidInput
from ...text.printable import unhidden


def _json_escape(char: str) -> str:
    """``char`` as a JSON string escape (a character beyond the BMP as its UTF-16 pair, as JSON spells it)."""
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


class UsageError(Exception):
    """Bad command-line usage: exit 2."""


class Ignored:
    """Stands in for the subparsers ``build_parser(only=…)`` does not build (:data:`IGNORED`): absorbs the
    options a ``register`` adds; a register skips work only its parser's help needs when given it."""

    def add_argument(self, *args, **kwargs):
        return None

    def set_defaults(self, **kwargs):
        return None

    def add_mutually_exclusive_group(self, **kwargs):
        return self


IGNORED = Ignored()


class OutputLost(Exception):
    """The result could not be printed: stdout is closed (``>&-``) or cannot be written (``/dev/full``: no
    space left). The message says why; the command itself ran (exit 1, one line on stderr)."""


def _write(text: str) -> None:
    """``text`` on stdout, flushed, so a stdout that cannot take it is said here, not as a traceback at exit.
    Raises :class:`OutputLost`; a closed pipe (``memdir list | head -1``) stays :class:`BrokenPipeError`."""
    if sys.stdout is None:
        raise OutputLost("stdout is closed")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputLost(f"stdout cannot be written ({exc.strerror or exc})") from None


def open_memory(args, actor: str = "human"):
    """The facade for the CLI's ``--home`` / ``--project`` (:func:`memdir.session.open_session`)."""
    from ...api import Memory

    return Memory.open(home=args.home, project=args.project, actor=actor)


def emit(args, data, text: str | None = None) -> None:
    """Print ``data`` (a typed result or a dict) as JSON with ``--json``, else ``text``. Raises
    :class:`OutputLost` when stdout cannot take it."""
    if getattr(args, "json", False):
        import json
        payload = data.to_dict() if hasattr(data, "to_dict") else data
        text = json.dumps(payload, ensure_ascii=False, indent=2, default=str)
        # JSON escapes C0 controls itself; every other character a body may not show (printable.unhidden: C1,
        # bidi and other format controls, U+2028/2029, tags, a run of variation selectors) is escaped too: the
        # same JSON, nothing hidden in what an agent reads.
        _write(unhidden(text, body=True, shown=_json_escape) + "\n")
    elif text is not None:
        _write(text if text.endswith("\n") or not text else text + "\n")


_said: set[str] = set()  # the lines warn printed in this process (warn_unsaid)


def warn(lines: list[str]) -> None:
    """Print ``memdir: <line>`` on stderr for each line."""
    for line in lines:
        _said.add(line)
        print(f"memdir: {line}", file=sys.stderr)


def warn_unsaid(lines: list[str]) -> None:
    """:func:`warn` for each of ``lines`` not printed yet in this process (a write's result already said its
    hand-edited ``MEMORY.md``: the command's closing report does not say it again)."""
    warn([line for line in dict.fromkeys(lines) if line not in _said])


def body_source(args) -> str | None:
    """Where ``write``'s body is read from a stream (``stdin`` for ``--body-file -``, ``--body-file F``),
    for :func:`memdir.gateway.fields.inherit`: an empty one does not empty a memory's body (a failed
    producer in a pipe); None for ``--body`` (``--body ''`` empties) and for piped stdin (empty: no body)."""
    if args.body_file is None or args.body is not None:
        return None
    return "stdin" if args.body_file == "-" else f"--body-file {args.body_file}"


def read_body(args, limit: int) -> str | None:
    """The body of ``write``: ``--body``, ``--body-file`` (``-`` = stdin) or piped stdin; None (not given:
    an update keeps the memory's body, :func:`memdir.gateway.fields.inherit`) otherwise, and for piped
    stdin that holds only white space (a script's or hook's empty stdin is no body); ``--body ''`` is
    given, and empties it; an empty ``--body-file`` is given too, but refused for a memory that has a
    body (:func:`body_source`). A stream is read to at most ``limit`` bytes (the ``max_file_bytes``
    setting, which no body can pass): :class:`InvalidInput` beyond, so ``/dev/zero`` ends too. A closed
    stdin (``<&-``) is no body; with ``--body-file -`` it is :class:`InvalidInput`."""
    if args.body is not None and args.body_file is not None:
        raise UsageError("give --body or --body-file, not both")
    if args.body is not None:
        return args.body
    if args.body_file is not None and args.body_file != "-":
        try:
            with open(args.body_file, "rb") as stream:
                text = _bounded(stream, limit, f"--body-file {args.body_file}")
        except OSError as exc:
            raise InvalidInput(f"cannot read --body-file {args.body_file}: {exc.strerror or exc}") from None
        return text.replace("\r\n", "\n").replace("\r", "\n")  # a file's line ends read as text mode reads them
    if sys.stdin is None:  # started with stdin closed (`<&-`, a daemon): no piped body
        if args.body_file == "-":
            raise InvalidInput("--body-file - reads the body from stdin, which is closed; nothing was written")
        return None
    if args.body_file == "-" or not sys.stdin.isatty():
        if args.body_file is None and not _ready(sys.stdin, STDIN_QUIET):
            # A pipe left open with nothing in it (a script's subprocess, `(sleep 8) | memdir write …`) waited
            # in silence (newuser30): say what it waits for; still read it, so a slow producer's body is kept.
            warn(["waiting for the body on stdin (a pipe still open); close it, or give --body, --body-file, "
                  "or </dev/null for no body"])
        text = _bounded(sys.stdin.buffer, limit, "stdin")
        return text if args.body_file == "-" or text.strip() else None
    return None


STDIN_QUIET = 1.0  # seconds a write waits for piped stdin to hold something (or end) before saying it waits


def _ready(stream, seconds: float) -> bool:
    """Whether ``stream`` has bytes or its end to read within ``seconds``; True when that cannot be asked
    (no descriptor, a platform whose ``select`` takes no pipes), so the caller just reads."""
    import select

    try:
        return bool(select.select([stream.fileno()], [], [], seconds)[0])
    except (OSError, ValueError, AttributeError):
        return True


def _bounded(stream, limit: int, what: str) -> str:
    """At most ``limit`` bytes of ``stream`` as UTF-8 text; :class:`InvalidInput` when it holds more or is
    not UTF-8 (``what`` names it: ``stdin``, ``--body-file F``)."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InvalidInput(f"{what} holds more than {limit} bytes, over the {limit}-byte ceiling of a memory file "
                           "(max_file_bytes); nothing was written (split it into several memories)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{'the body on stdin' if what == 'stdin' else what} is not valid UTF-8") from None


def read_prompt() -> str:
    """A prompt on stdin (``memdir recall`` without one given): at most what a hook reads
    (:data:`memdir.integrations.claude_code.hooks.MAX_STDIN`), as text (undecodable bytes replaced);
    :class:`InvalidInput` beyond, so an endless stream ends too."""
    from ..claude_code.hooks import MAX_STDIN

    if sys.stdin is None:  # started with stdin closed
        raise InvalidInput("no prompt: give the prompt's words (stdin is closed)")
    data = sys.stdin.buffer.read(MAX_STDIN + 1)
    if len(data) > MAX_STDIN:
        raise InvalidInput(f"stdin holds more than {MAX_STDIN} bytes, more than a prompt a hook reads; nothing "
                           "recalled (give the prompt's words)")
    return data.decode("utf-8", "replace")


def field_sides(choices) -> dict[str, str]:
    """``--field FIELD=ours|theirs`` choices (a list, or None) as ``{field: side}`` — the one reading of
    them for ``team resolve`` and ``sync resolve``. Raises :class:`UsageError` for anything else."""
    fields = {}
    for choice in choices or ():
        field, _, side = choice.partition("=")
        if not field or side not in ("ours", "theirs"):
            raise UsageError(f"--field takes FIELD=ours or FIELD=theirs (got {choice!r})")
        fields[field] = side
    return fields


__all__ = ["OutputLost", "UsageError", "body_source", "emit", "field_sides", "open_memory", "read_body", "read_prompt", "warn"]
