"""Tombstones: forgotten values that may not come back (DESIGN §5).

``match`` (what a forgotten value matches: exact up to case, spacing, width
and invisible characters, same words, restated, reworded; the refusal's
text; letters drawn like letters of another script are read by
:mod:`memdir.text.lookalike`), and the tombstone files themselves.

May import: the standard library, the base modules, :mod:`memdir.text` and :mod:`memdir.files`.

Must not import: layer and every package after it.
"""
