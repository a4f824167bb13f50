"""One text per result type: what a person (CLI) or a model (tools, MCP) reads.

``memories`` (the memory operations' results), ``maintenance`` (verify, status,
doctor, a rebuilt index), ``team`` (the team layer and imports), ``setup``
(installs, a moved layer), ``consolidation`` (the gate, a run, the queue,
ingest), ``progress`` (a progress bar on stderr).

Stored text was sanitized by the gateway, but a hand-edited file, a file or
directory name, a git message or an error quoting any of them was not: every
public function of every module here is decorated with
:func:`printable_output`, the one place rendered text is made printable and
read as text (:func:`shown_text`), so nothing a renderer shows can drive a
terminal, forge a line or open or close a fence or frame of a prompt the
output is piped into (``tests/render/test_render.py`` checks that none is left
out). The tools' results (their errors too) take the same :func:`shown_text`.

May import: the standard library and the packages before it; results are
read by their attributes, so rendering loads no YAML.

Must not import: tools, api, integrations.
"""

from __future__ import annotations

from ..text.fence import escape_stored
from ..text.printable import printable


def shown_text(text: str) -> str:
    """``text`` as memdir shows what a memory holds, to a terminal or a model alike: printable
    (:func:`memdir.text.printable.printable`: no terminal escape, control or bidi-override character;
    tabs and newlines stay), then read as data (:func:`memdir.text.fence.escape_stored`, the prompt paths'
    one rule: a ``memory_context``/``memory_recall``/``memory_pending`` tag, a harness's frame tag or
    special token, a line-initial ``Human:``/``Assistant:`` as entities, ``{{`` as ``{ {``), so a script
    piping ``memdir list`` or ``read`` into a prompt carries no fence a hand-edited file holds. Idempotent;
    text holding none of these comes back as printable made it. (``--json`` gives the stored values.)"""
    return escape_stored(printable(text))


def printable_output(renderer):
    """``renderer`` with its output passed through :func:`shown_text`: a ``str`` as a whole,
    a ``list`` of them line by line. The wrapper keeps the renderer's name,
    docstring and module and is marked ``made_printable`` (for the test that
    every renderer is wrapped)."""
    def rendered(*args, **kwargs):
        out = renderer(*args, **kwargs)
        return [shown_text(line) for line in out] if isinstance(out, list) else shown_text(out)

    rendered.__name__, rendered.__qualname__ = renderer.__name__, renderer.__qualname__
    rendered.__doc__, rendered.__module__, rendered.__wrapped__ = renderer.__doc__, renderer.__module__, renderer
    rendered.made_printable = True
    return rendered


__all__ = ["printable_output", "shown_text"]
