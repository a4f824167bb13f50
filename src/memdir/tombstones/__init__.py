"""Tombstones: forgotten values that may not come back (DESIGN §5).

``match`` (what a forgotten value matches: exact up to case, spacing, width
and invisible characters, same words, restated, reworded; the refusal's
text; letters drawn like letters of another script are read by
:mod:`memdir.text.lookalike`), ``reading`` (the words a reader sees, markup seen
through), ``addresses`` (when a value read as seen the same is a correction of a
link's address), ``refusals`` (what a refusal says), and the tombstone files
themselves (``stones``).

May import: the standard library, the base modules, :mod:`memdir.text` and :mod:`memdir.files`.

Must not import: layer and every package after it.
"""
