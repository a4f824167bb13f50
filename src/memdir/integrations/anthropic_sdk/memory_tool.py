"""memdir as the backend of the Claude API's memory tool, for the ``anthropic`` SDK's tool runner.

The SDK declares the handler of the memory tool (``memory_20250818``) as
``BetaAbstractMemoryTool``: one method per command. :class:`MemdirMemoryTool`
implements each by handing the command, as the API sent it, to
:func:`memdir.tools.memory_directory.run`, which decides everything (paths,
layers, the gateway, the JSON type of every argument); a failed command
becomes the SDK's ``ToolError``, so the runner sends its text back with
``is_error``. ``call`` (the runner's entry) hands over the raw input: the
SDK's command model, built unchecked, would turn ``true`` into line 1. Use it as any tool of the
runner::

    from anthropic import Anthropic
    from memdir.integrations.anthropic_sdk.memory_tool import MemdirMemoryTool

    tool = MemdirMemoryTool(project=".")
    runner = Anthropic().beta.messages.tool_runner(model=..., max_tokens=1024, tools=[tool], messages=[...])

:class:`AsyncMemdirMemoryTool` is the same for ``AsyncAnthropic`` (each
command runs in a worker thread: memdir's store is synchronous).

Commands at once (the async runner's parallel tool calls, several agents on one store): each
``str_replace`` and ``insert`` is made on the memory as it is when it runs, as if the commands
had come one by one — none is lost to another's write (:func:`memdir.gateway.edits.edit` makes
it again holding the layer's lock). An ``insert`` sends no digest of the view its line number
comes from, so it is anchored to the lines above it as the command found them: when another
write changed one of those first, it is refused (``ToolError``: "changed above line N since it
was read … view it again"), never put somewhere the number now means something else; a change
below its line does not stop it (40 inserts after line 1 at once all land there).
"""

from __future__ import annotations

import os

from anthropic.lib.tools import ToolError
from anthropic.tools.memory import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool
from anyio.to_thread import run_sync

from ...api import Memory
from ...tools.memory_directory import run


def _memory(memory: Memory | None, home, project, session_id: str | None) -> Memory:
    return memory if memory is not None else Memory.open(home, project, actor="agent", session=session_id)


def _answer(memory: Memory, command) -> str:
    """The text of ``command`` run on ``memory``'s session; raises ``ToolError``. ``command``: the
    tool_use input as the API sent it (a dict: what :meth:`MemdirMemoryTool.call` passes), or an SDK
    command model (a direct call of ``view``, ``create``, …)."""
    raw = command if not hasattr(command, "model_dump") else command.model_dump(exclude_none=True)
    output = run(memory.session, raw)
    if output.is_error:
        raise ToolError(output.text)
    return output.text


class MemdirMemoryTool(BetaAbstractMemoryTool):
    """The memory tool with memdir's layers as its ``/memories`` directory
    (:mod:`memdir.tools.memory_directory`). ``memory``: an open
    :class:`~memdir.api.Memory` to use; else one is opened for ``home`` and
    ``project`` (:meth:`memdir.api.Memory.open`'s rules) as the agent, its
    journal entries marked with ``session_id``. ``cache_control`` is the
    SDK's (prompt caching of the tool definition)."""

    def __init__(self, memory: Memory | None = None, *, home: str | os.PathLike | None = None,
                 project: str | os.PathLike | None = None, session_id: str | None = None,
                 cache_control=None) -> None:
        super().__init__(cache_control=cache_control)
        self.memory = _memory(memory, home, project, session_id)

    def call(self, input: object) -> str:
        """Run one command as the API sent it (the runner passes ``tool_use.input``). memdir checks it
        itself (:func:`memdir.tools.memory_directory.run`): the SDK's command model is built without
        validation and coerces on dump, so ``"insert_line": true`` and ``"view_range": ["1", "2"]``
        would arrive as line numbers, and a malformed input would raise outside ``ToolError``."""
        return _answer(self.memory, input)

    def view(self, command) -> str:
        return _answer(self.memory, command)

    def create(self, command) -> str:
        return _answer(self.memory, command)

    def str_replace(self, command) -> str:
        return _answer(self.memory, command)

    def insert(self, command) -> str:
        return _answer(self.memory, command)

    def delete(self, command) -> str:
        return _answer(self.memory, command)

    def rename(self, command) -> str:
        return _answer(self.memory, command)


class AsyncMemdirMemoryTool(BetaAsyncAbstractMemoryTool):
    """:class:`MemdirMemoryTool` for the SDK's async client and runner."""

    def __init__(self, memory: Memory | None = None, *, home: str | os.PathLike | None = None,
                 project: str | os.PathLike | None = None, session_id: str | None = None,
                 cache_control=None) -> None:
        super().__init__(cache_control=cache_control)
        self.memory = _memory(memory, home, project, session_id)

    async def _answer(self, command) -> str:
        return await run_sync(_answer, self.memory, command)

    async def call(self, input: object) -> str:
        """:meth:`MemdirMemoryTool.call`: the input as the API sent it, checked by memdir."""
        return await self._answer(input)

    async def view(self, command) -> str:
        return await self._answer(command)

    async def create(self, command) -> str:
        return await self._answer(command)

    async def str_replace(self, command) -> str:
        return await self._answer(command)

    async def insert(self, command) -> str:
        return await self._answer(command)

    async def delete(self, command) -> str:
        return await self._answer(command)

    async def rename(self, command) -> str:
        return await self._answer(command)


__all__ = ["AsyncMemdirMemoryTool", "MemdirMemoryTool"]
