"""Bytes on disk: durable writes, one memory file, a layer's files (DESIGN §2, §3).

``fsio`` (atomic writes, fsync, the content digest), ``frontmatter`` (the one
reader of YAML frontmatter: no anchors or aliases, a size cap), ``memfile``
(the record, parsed and serialized), ``conflicts`` (merge-conflict markers),
``merge`` (a memory file merged field by field: the team layer's git merge driver),
``layout`` (which files of a layer are memories, the meta directory,
``layer.json``, the index freshness check), ``scan`` (the one reader of a
layer's files).

May import: the standard library, PyYAML, the base modules and :mod:`memdir.text`.
``layout`` is on the hooks' hot path: the standard library only.

Must not import: tombstones, layer and every package after them.
"""
