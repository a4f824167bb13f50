"""One text per result type: what a person (CLI) or a model (tools, MCP) reads.

``memories`` (the memory operations' results), ``team`` (the team layer and
imports), ``setup`` (installs, a moved layer), ``consolidation`` (the gate, a
run, the queue, ingest).

May import: the standard library and the packages before it; results are
read by their attributes, so rendering loads no YAML.

Must not import: tools, api, integrations.
"""
