"""One text per result type: what a person (CLI) or a model (tools, MCP) reads.

``memories`` (the memory operations' results), ``team`` (the team layer and
imports), ``setup`` (installs, a moved layer), ``consolidation`` (the gate, a
run, the queue, ingest), ``progress`` (a progress bar on stderr).

Stored text was sanitized by the gateway, but a hand-edited file, a file or
directory name, a git message or an error quoting any of them was not: every
public function of every module here is decorated with
:func:`printable_output`, the one place rendered text is made printable, so
nothing a renderer shows can drive a terminal or forge a line
(``tests/render/test_render.py`` checks that none is left out).

May import: the standard library and the packages before it; results are
read by their attributes, so rendering loads no YAML.

Must not import: tools, api, integrations.
"""

from __future__ import annotations

from ..text.printable import printable


def printable_output(renderer):
    """``renderer`` with its output passed through
    :func:`memdir.text.printable.printable` (no terminal escape, control or
    bidi-override character; tabs and newlines stay): a ``str`` as a whole,
    a ``list`` of them line by line. The wrapper keeps the renderer's name,
    docstring and module and is marked ``made_printable`` (for the test that
    every renderer is wrapped)."""
    def rendered(*args, **kwargs):
        out = renderer(*args, **kwargs)
        return [printable(line) for line in out] if isinstance(out, list) else printable(out)

    rendered.__name__, rendered.__qualname__ = renderer.__name__, renderer.__qualname__
    rendered.__doc__, rendered.__module__, rendered.__wrapped__ = renderer.__doc__, renderer.__module__, renderer
    rendered.made_printable = True
    return rendered


__all__ = ["printable_output"]
