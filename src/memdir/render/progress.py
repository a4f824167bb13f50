"""A progress bar on stderr for a long command (``reindex``, ``import``,
``ingest``): the one place memdir draws one.

The work itself is done below this package, so it never sees a bar. Every
function that reports progress takes one plain callable, the progress
protocol, and None for none:

    progress(done: int, total: int) -> None

called with how many units of work are done so far (0 to say the work
starts) and how many there are in all; ``total`` may be known only once the
work starts, and may change between calls (a second phase starts over at 0
with its own total). It must not raise. The units are the caller's: files
read (:func:`memdir.search.reindex.reindex`), memories embedded
(:func:`memdir.search.vectors.embed_missing`), items imported
(:func:`memdir.importing.run.run`), transcripts consolidated
(:func:`memdir.consolidation.ingest.ingest`).

:class:`ProgressBar` is such a callable: a tqdm bar on stderr, drawn at its
first call with work left (a bar never called draws nothing) and cleared
when ``done`` reaches ``total``, or a silent one when it is not to be
shown or tqdm (the ``search`` extra) is not installed.
"""

from __future__ import annotations

import sys


class ProgressBar:
    """A progress bar on stderr labelled ``label``, counting ``unit`` (``file``,
    ``memory``), for the progress protocol above: call it as
    ``bar(done, total)``; :meth:`close` (or leaving a ``with`` block) clears it.

    ``show``: True draws it, False never; None (the default) only when
    stderr is a terminal, so a log file gets no bar frames. Without tqdm it
    is silent. Never raises for the bar's sake."""

    def __init__(self, label: str, unit: str, *, show: bool | None = None):
        self.label, self.unit = label, unit
        self.show = sys.stderr.isatty() if show is None else bool(show)
        self._bar = None

    def __call__(self, done: int, total: int) -> None:
        if not self.show:
            return
        if done >= total:  # finished: cleared, so the next phase's bar takes its line
            self.close()
            return
        if self._bar is None:
            try:
                from tqdm import tqdm
            except ImportError:  # tqdm comes with the search extra; without it, no bar
                self.show = False
                return
            # leave=False: the command's summary line says what the finished bar would
            self._bar = tqdm(total=total, desc=self.label, unit=self.unit, file=sys.stderr, leave=False)
        bar = self._bar
        if bar.total != total or done < bar.n:  # a total learned late, or a new phase
            bar.reset(total=total)
        bar.update(done - bar.n)

    def close(self) -> None:
        """Clear the bar from the terminal (nothing when it was never drawn)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["ProgressBar"]
