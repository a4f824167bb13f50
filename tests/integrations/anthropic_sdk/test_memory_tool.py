"""memdir as the Claude API memory tool's handler, driven by the anthropic SDK's own tool runner
over real HTTP against a scripted Messages API endpoint (tests/messages_server.py)."""

from __future__ import annotations

import asyncio

import pytest

anthropic = pytest.importorskip("anthropic", reason="the anthropic extra is not installed (pip install memdir[anthropic])")

from memdir.integrations.anthropic_sdk.memory_tool import AsyncMemdirMemoryTool, MemdirMemoryTool  # noqa: E402
from tests.messages_server import MessagesServer  # noqa: E402


def memory_call(**command):
    return [{"type": "tool_use", "name": "memory", "input": command}]


def result_text(block) -> str:
    content = block["content"]
    return content if isinstance(content, str) else "".join(part["text"] for part in content)


@pytest.mark.slow
def test_the_sdk_tool_runner_drives_memdir_through_the_memory_tool(mem):
    with MessagesServer() as server:
        server.replies += [
            memory_call(command="view", path="/memories"),
            memory_call(command="create", path="/memories/user/coffee.md",
                        file_text="# Drinks espresso\nNo sugar; a double in the morning.\n"),
            memory_call(command="str_replace", path="/memories/user/coffee.md", old_str="a double", new_str="a single"),
            memory_call(command="view", path="/memories/../../etc/passwd"),
            memory_call(command="view", path="/memories/user/coffee.md"),
            "Noted: you drink espresso.",
        ]
        client = anthropic.Anthropic(base_url=server.url, api_key="dummy", max_retries=0)
        runner = client.beta.messages.tool_runner(
            model="claude-test", max_tokens=256, tools=[MemdirMemoryTool(mem)],
            messages=[{"role": "user", "content": "I drink espresso, no sugar. Remember that."}])
        final = runner.until_done()
    assert final.content[0].text == "Noted: you drink espresso."
    assert len(server.requests) == 6
    assert server.requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    listing, created, edited, escaped, shown = (server.tool_results(i)[0] for i in range(1, 6))
    assert result_text(listing).splitlines()[1:] == ["0B\t/memories/user/", "0B\t/memories/project/"]
    assert result_text(created) == (  # plain text: the user layer's type, said
        "File created successfully at: /memories/user/coffee.md\nnote: saved as type user, the default in "
        "/memories/user: the file says no type (to choose, begin the file with frontmatter that says type: user, "
        "feedback, project or reference)")
    assert "     2\tNo sugar; a single in the morning." in result_text(edited)
    assert escaped["is_error"] is True
    assert result_text(escaped) == "Path /memories/../../etc/passwd would escape /memories directory"
    assert not shown.get("is_error") and result_text(shown).endswith("2\tNo sugar; a single in the morning.")
    record = mem.read("coffee", count=False).record
    assert (record.description, record.type, record.origin) == ("Drinks espresso", "user", "agent")
    assert [v.action for v in mem.history("coffee").versions] == ["create", "update"]


@pytest.mark.slow
def test_the_async_runner_and_a_refused_command(mem):
    mem.write("deploy", "Deploys go out on Tuesdays", "project", "never Fridays")
    mem.delete("deploy")

    async def session():
        with MessagesServer() as server:
            server.replies += [
                memory_call(command="create", path="/memories/project/deploy.md",
                            file_text="Deploys go out on Tuesdays\nnever Fridays"),
                memory_call(command="create", path="/memories/project/lint.md", file_text="Lint runs before tests"),
                "ok",
            ]
            client = anthropic.AsyncAnthropic(base_url=server.url, api_key="dummy", max_retries=0)
            runner = client.beta.messages.tool_runner(
                model="claude-test", max_tokens=256, tools=[AsyncMemdirMemoryTool(mem)],
                messages=[{"role": "user", "content": "Save the deploy rule again."}])
            await runner.until_done()
            return server.tool_results(1)[0], server.tool_results(2)[0]

    refused, saved = asyncio.run(session())
    assert refused["is_error"] is True and "tombstone" in result_text(refused)
    assert not saved.get("is_error") and result_text(saved).splitlines()[0] == "File created successfully at: /memories/project/lint.md"
    assert [m.name for m in mem.list().memories] == ["lint"]
