"""The store: memory files on disk and every rule about them (DESIGN §1–§6).

What it owns, one rule per module: the error tree (``errors``), settings
(``settings``), where things live (``paths``), the session — home, project
root, actor — every entry point builds (``session``), memory names
(``names``), the file format (``memfile``, ``vocabulary``), durable writes
(``fsio``), redaction and fence escaping (``redact``, ``fence``), the one
reader of a layer's files (``scan``), a layer and its critical section
(``layer``), the journal (``journal``), history (``history``), tombstones
(``tombstones``), the write gateway (``gateway``), ``MEMORY.md`` (``index``,
``layout``), the injected context block (``context``), and the operations of
a session with their typed results (``operations``, ``trust``,
``maintenance``, ``results``).

May import: the standard library, PyYAML, filelock and platformdirs — and,
on the hook path (``session``, ``context``, ``layout``, ``paths``,
``settings``, ``fence``, ``vocabulary``), nothing heavier than the standard
library: YAML and locking load only when a layer is opened.

Must not import: any other memdir package (search, consolidation, tools,
api, integrations), not even for type hints.
"""
