"""What an import did (:mod:`memdir.importing.run`): one :class:`ImportOutcome` per item read, and the
:class:`ImportReport` of the whole import; a dry run's words for what it would do (:func:`would`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..results import Result

# A dry run's word for what it would do: the verb, not the past the real run reports ("would-imported", trial28).
_WOULD = {"imported": "would-import", "updated": "would-update"}
_DONE = {would: done for done, would in _WOULD.items()}


def would(result: str) -> str:
    """The dry run's ``result``: ``would-import``, ``would-update``, ``would-candidate``, ``would-unchanged``."""
    return _WOULD.get(result, f"would-{result}")


def settled(result: str) -> str:
    """``result`` as the real run says it (a dry run's ``would-import`` is ``imported``)."""
    return _DONE.get(result, result.removeprefix("would-"))


@dataclass(frozen=True)
class ImportOutcome:
    """What happened to one item: its ``source``, the memory ``name`` and
    ``scope`` (None when skipped before either was known), the ``result``
    (imported | updated | candidate | unchanged | skipped; in a dry run
    :func:`would`'s word: would-import, would-update, would-candidate,
    would-unchanged), ``detail`` (why, and every change a write made to the text),
    ``cut`` (what of the body was cut to fit ``max_file_bytes``; empty: the
    whole text was kept), ``type`` (the memory's type as imported; None when skipped),
    ``original_type`` (the type its source wrote when that is none of memdir's four: the item got
    its layer's, :func:`memdir.vocabulary.default_type`; else None) and ``left_out`` (what the source's
    reader left out of the item's text as saying nothing, each with its count and reason:
    ``("2 null and 1 blank observations left out: they say nothing",)``; also in ``detail``)."""

    source: str
    name: str | None
    scope: str | None
    result: str
    detail: str = ""
    cut: str = ""
    type: str | None = None
    original_type: str | None = None
    left_out: tuple[str, ...] = ()

    @property
    def kept(self) -> str:
        """``whole``, ``cut`` or ``skipped``: what of the item's text this import keeps."""
        return "skipped" if settled(self.result) == "skipped" else "cut" if self.cut else "whole"


@dataclass(frozen=True)
class ImportReport(Result):
    """An import of ``kind`` from ``source``: every outcome, in source order,
    and the counts by result; ``warnings`` for the whole import (a layer whose
    tombstones could not be read, so were not checked)."""

    kind: str
    source: str
    dry_run: bool
    outcomes: tuple[ImportOutcome, ...]
    warnings: tuple[str, ...] = ()

    def retyped(self) -> dict[tuple[str, str], int]:
        """``{(original type, type imported as): how many items}``: the items whose source wrote a type
        that is none of memdir's, in source order (skipped ones aside)."""
        out: dict[tuple[str, str], int] = {}
        for o in self.outcomes:
            if o.original_type is not None and o.type is not None:
                out[(o.original_type, o.type)] = out.get((o.original_type, o.type), 0) + 1
        return out

    def count(self, result: str) -> int:
        """How many outcomes are ``result`` (a dry run's counted as the real run's: :func:`settled`)."""
        return sum(1 for o in self.outcomes if settled(o.result) == result)

    def nothing(self) -> str | None:
        """Why this import brought nothing (every item skipped, or none found), or None when an item
        was imported, updated, proposed or found already there: an adapter exits non-zero on it."""
        if any(o.kept != "skipped" for o in self.outcomes):
            return None
        if not self.outcomes:
            return f"nothing imported: no memory found in {self.source}"
        if len(self.outcomes) == 1:
            return f"nothing imported: {self.outcomes[0].detail or 'its one item was skipped'}"
        return f"nothing imported: all {len(self.outcomes)} items found in {self.source} were skipped"


__all__ = ["ImportOutcome", "ImportReport", "settled", "would"]
