"""Consolidation: from a finished session's transcript to memory changes (DESIGN §7).

``transcripts`` (reading a session's transcript: one reader per client —
``claude``, ``codex``, ``gemini`` — and ``messages`` for message lists and
plain text, on ``turns``, what they return and the cleaning they share),
``gate`` (is anything durable said?), ``proposals`` (what extractors return,
outcomes, the report), ``extractors`` (which one ``auto`` picks and why; the
extractors themselves: ``rules`` (offline, with ``persona``, ``subjects``,
``wording``, ``dates``), ``llm`` (any OpenAI-compatible model), ``command``
(a command the person configures) and ``agent`` (findings left pending for
the next session's agent)), ``consolidate`` (one run: snapshot, extract
without a lock, apply under compare-and-set, receipt), ``applying`` (the
snapshot, and one proposal applied under its layer's lock, compare-and-set
against it), ``queue`` (what the
hooks queue and a detached drain consolidates) and ``ingest`` (past Claude
Code sessions).

May import: the standard library, the packages before it (every change goes
through :mod:`memdir.operations` and the gateway) and the optional ``openai``
client (``llm`` extra).

Must not import: search, render, tools, api, integrations.
"""
