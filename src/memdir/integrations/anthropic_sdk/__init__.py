"""The anthropic SDK (DESIGN §10): memdir as the handler of the Claude API's memory tool.

``memory_tool`` (:class:`~memdir.integrations.anthropic_sdk.memory_tool.MemdirMemoryTool`
and its async twin: the ``anthropic`` SDK's memory-tool base classes, each
command handed to :func:`memdir.tools.memory_directory.run`). Needs the
``anthropic`` extra.
"""
