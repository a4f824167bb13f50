"""The command extractor: the model the person already has, through a command they configure.

The setting ``extractor_command`` names a command — Claude Code's headless
mode (``claude -p``), the ``llm`` CLI with the person's model (``llm -m
MODEL``), any script. memdir writes the same extraction prompt the model
extractor sends (:func:`memdir.consolidation.extractors.llm.build_messages`: system and
user text joined) to its stdin and reads the proposals, as JSON, from its
stdout, parsed as tolerantly as a model's reply
(:func:`memdir.consolidation.extractors.llm.parse_reply`: prose, fences and ``<think>``
around the JSON are fine).

Safety is the model extractor's: the transcript is redacted before the
prompt is built (the command never sees a secret memdir recognises); the
command is split with :mod:`shlex` and run without a shell; its output is
data — every proposal goes through the tombstones, the gateway and review
like any other. Bounds: ``extractor_command_timeout`` seconds (default 120,
at most 600), after which the command and its process group are killed;
:data:`MAX_OUTPUT` bytes of stdout (killed as soon as it prints more); :data:`MAX_STDERR` characters of stderr
kept for the error. A command that cannot start, times out, exits non-zero,
prints too much or prints no JSON raises
:class:`~memdir.errors.ModelError`: the run writes nothing and its
receipt says why.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time

from ...errors import ModelError
from ...vocabulary import EXTRACTOR_ENV
from ...text.redact import redact
from ..proposals import ExtractionContext, ExtractionResult
from .llm import build_messages, parse_reply, read_proposals

MAX_OUTPUT = 1_000_000   # bytes of the command's stdout read at most
MAX_STDERR = 500         # characters of stderr quoted in an error
WATCH_SECONDS = 0.05     # how often a running command's output size and time are looked at


def _too_much(size: int) -> str:
    return f"extractor_command printed {size} bytes (more than {MAX_OUTPUT}); nothing used"


def split_command(command: str) -> list[str]:
    """The argument list of ``command`` (POSIX shell words; Windows rules on
    Windows). Raises :class:`ModelError` for an empty or unparsable command."""
    try:
        argv = shlex.split(command or "", posix=os.name != "nt")
    except ValueError as exc:
        raise ModelError(f"extractor_command cannot be read: {exc}") from None
    if not argv:
        raise ModelError("no extractor_command is set (e.g. extractor_command = \"llm -m MODEL\")")
    return argv


def prompt_text(transcript, context: ExtractionContext) -> str:
    """The prompt a command reads on stdin: the model extractor's system and
    user messages, one after the other."""
    return "\n\n".join(m["content"] for m in build_messages(transcript, context))


class CommandExtractor:
    """The command :class:`~memdir.consolidation.proposals.Extractor` (``name = "command"``).

    ``command`` (default the ``extractor_command`` setting) and ``timeout``
    seconds (default ``extractor_command_timeout``). ``model`` is the
    command line as configured, so the receipt says what answered.
    """

    name = "command"

    def __init__(self, settings, *, command: str | None = None, timeout: float | None = None):
        self.command = command if command is not None else settings.extractor_command
        self.timeout = float(timeout or settings.extractor_command_timeout)
        self.model = redact(self.command).text or None

    def run(self, text: str) -> str:
        """Run the command with ``text`` on stdin, :data:`~memdir.vocabulary.EXTRACTOR_ENV` set in its
        environment (memdir's hooks in the session it starts do nothing); its stdout. Raises :class:`ModelError`."""
        argv = split_command(self.command)
        detach = {"start_new_session": True} if os.name == "posix" else {}
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            try:
                process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=err,
                                           env={**os.environ, EXTRACTOR_ENV: "1"}, **detach)
            except OSError as exc:
                raise ModelError(f"cannot run extractor_command {argv[0]!r}: {exc.strerror or exc}") from None
            self._watch(process, text.encode("utf-8"), out)
            size = out.seek(0, os.SEEK_END)
            err.seek(0)
            stderr = redact(err.read(MAX_STDERR * 4).decode("utf-8", "replace").strip()).text[-MAX_STDERR:]
            if process.returncode != 0:
                raise ModelError(f"extractor_command exited with status {process.returncode}"
                                 + (f": {stderr}" if stderr else ""))
            if size > MAX_OUTPUT:
                raise ModelError(_too_much(size))
            out.seek(0)
            return out.read().decode("utf-8", "replace")

    def _watch(self, process: subprocess.Popen, data: bytes, out) -> None:
        """Feed ``data`` to the command's stdin (a thread: it may stop reading) and wait for it to exit,
        watching ``out``, the file its stdout fills: past :data:`MAX_OUTPUT` bytes or the timeout its
        process group is killed at once and :class:`ModelError` says why. (Waiting for the exit alone let a
        command printing in a loop fill the disk until the timeout: 400 MB a second, 120 s by default.)"""
        def feed() -> None:
            try:
                process.stdin.write(data)
            except OSError:  # BrokenPipeError: it stopped reading; its exit status says the rest
                pass
            finally:
                try:
                    process.stdin.close()
                except OSError:
                    pass

        threading.Thread(target=feed, daemon=True).start()
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                process.wait(timeout=WATCH_SECONDS)
                return
            except subprocess.TimeoutExpired:
                pass
            size = os.fstat(out.fileno()).st_size
            if size > MAX_OUTPUT:
                self._kill(process)
                raise ModelError(_too_much(size))
            if time.monotonic() > deadline:
                self._kill(process)
                raise ModelError(f"extractor_command did not finish within {self.timeout:g} s "
                                 f"(extractor_command_timeout)")

    @staticmethod
    def _kill(process: subprocess.Popen) -> None:
        # The command may have started children (a CLI wrapping a model call): end the whole group.
        try:
            if os.name == "posix":
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except OSError:
            pass
        process.wait()

    def extract(self, transcript, context: ExtractionContext) -> ExtractionResult:
        """Run the command on the prompt; its proposals (the caller caps how many apply)."""
        text = self.run(prompt_text(transcript, context))
        try:
            items = parse_reply(text)
        except ModelError as error:
            error.raw = text
            raise
        proposals, invalid = read_proposals(items)
        return ExtractionResult(proposals, raw=text, model=self.model, invalid=invalid)


__all__ = ["CommandExtractor", "MAX_OUTPUT", "prompt_text", "split_command"]
