"""Consolidation: from a finished session's transcript to memory changes (DESIGN §7).

``transcripts`` (reading Claude Code JSONL, message lists, plain text),
``gate`` (is anything durable said?), ``proposals`` (what extractors return,
outcomes, the report), the extractors ``rules`` (offline) and ``llm`` (any
OpenAI-compatible model), ``consolidate`` (one run: snapshot, extract
without a lock, apply under compare-and-set, receipt), ``queue`` (what the
hooks queue and a detached drain consolidates) and ``ingest`` (past Claude
Code sessions).

May import: the standard library, :mod:`memdir.store` (every change goes
through its operations and gateway) and the optional ``openai`` client
(``llm`` extra).

Must not import: search, tools, api, integrations.
"""
