"""The write gateway: the one path every change to a memory takes (DESIGN §1.2).

``fields`` (the fields of a write: validated, cut to their limits, redacted;
what an update keeps), ``writing`` (a memory's write, one or a batch in one transaction), ``changes`` (every other
validated change to a layer:
restore, status, flags, tombstone lift, receipts), ``deletion`` (delete, prune, clear), ``forgotten`` (which
tombstones refuse a write and which only warn, by who writes), ``duplicates`` (an exact copy of another
memory: refused or warned, by who writes), ``variants`` (a free variant of a name: ``-candidate``, ``-2``…), ``edits``
(partial edits of a body: replace one unique piece of text, insert lines).

May import: the standard library and the packages before it (base modules,
text, files, tombstones, layer, session, results).

Must not import: prompt, operations and every package after them.
"""
