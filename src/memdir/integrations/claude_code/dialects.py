"""Each client's hook dialect, in one place: which of its events is which of memdir's moments
(:data:`DIALECTS`), which of them mean the conversation was compacted or cleared (:data:`RESTARTS`,
:func:`conversation_restarts`) or resumed holding the context blocks given before (:data:`RESUMES`,
:func:`conversation_resumes`), and its hook input in Claude Code's fields (:func:`translate`).

Read by :mod:`memdir.integrations.claude_code.hooks` (every client's hook entry point), its moments and the CLI's
``memdir hook`` parser; imports nothing, so a hook's fresh process stays small. The event names and input
fields were read from the real clients (Claude Code 2.1, Codex 0.171, Gemini CLI 0.61, Cursor)."""

from __future__ import annotations

# client -> {its hook event: the moment memdir handles there}
DIALECTS: dict[str, dict[str, str]] = {
    "claude-code": {"SessionStart": "start", "UserPromptSubmit": "prompt", "SessionEnd": "end", "PreCompact": "end",
                    "PostToolUse": "tool"},
    "codex": {"SessionStart": "start", "UserPromptSubmit": "prompt", "Stop": "end", "PreCompact": "end",
              "PostToolUse": "tool"},
    "gemini": {"SessionStart": "start", "BeforeAgent": "prompt", "SessionEnd": "end", "PreCompress": "end",
               "AfterTool": "tool"},
    "cursor": {"sessionStart": "start", "sessionEnd": "end"},
}
# client -> {its hook event: None when the event itself means the conversation was (or is about to be) compacted
# or cleared, else (input field, its values that mean so)}. The one rule of when the session's recall record
# (memdir.prompt.recalled) is cleared; every client's hook asks it (conversation_restarts). Claude Code and
# Codex: PreCompact, SessionStart source compact|clear; Gemini CLI: PreCompress of trigger manual (0.61 sends
# trigger auto before every model request, before it checks whether to compress: its ChatCompressionService), and
# SessionStart source clear (its sources: startup, resume, clear); Cursor: no prompt hook, so no record.
RESTARTS: dict[str, dict[str, tuple[str, tuple[str, ...]] | None]] = {
    "claude-code": {"PreCompact": None, "SessionStart": ("source", ("compact", "clear"))},
    "codex": {"PreCompact": None, "SessionStart": ("source", ("compact", "clear"))},
    "gemini": {"PreCompress": ("trigger", ("manual",)), "SessionStart": ("source", ("clear",))},
    "cursor": {},
}
# client -> how it names an MCP tool to the model and in its hook input ({server}, {tool}), read from the real
# clients: Claude Code 2.1 and Codex 0.171 mcp__memdir__memory_read, Gemini CLI 0.61 mcp_memdir_memory_read.
# Cursor's is not known here (no real client to read it from): it is named as Claude Code names it.
MCP_TOOL_NAMES = {"claude-code": "mcp__{server}__{tool}", "codex": "mcp__{server}__{tool}",
                  "gemini": "mcp_{server}_{tool}"}
# client -> UTF-8 bytes of one tool output it keeps whole in the conversation by default; it cuts the middle out
# of a longer one, while its PostToolUse input still holds the whole output. Codex 0.171, measured on the real
# binary (break17) with a model outside its catalog (its fallback policy, 10,000 bytes and a 1.2 margin): a
# "Wall time: … Output:" item of 33 bytes and memdir's output of 11,933 bytes reached the model whole, of 12,017
# bytes cut (a read of 18,039 bytes: 142 of 220 lines); its catalog's gpt-5.5 kept 18,039. Claude Code and
# Gemini CLI (40,000 characters) keep every memdir tool output whole.
KEEPS_TOOL_OUTPUT: dict[str, int] = {"codex": 11_900}


def kept_whole(client: str, environ=None) -> int | None:
    """UTF-8 bytes of one tool output ``client`` keeps whole for the model (:data:`KEEPS_TOOL_OUTPUT`; None: it
    keeps every memdir output whole), no more than the ceiling its server's entry states
    (:data:`memdir.settings.TOOL_OUTPUT_CEILING` in ``environ``, default ``os.environ``: `memdir install codex`
    sets it in the entry and in each hook's command) when that is a whole number."""
    import os

    from ...settings import TOOL_OUTPUT_CEILING

    kept = KEEPS_TOOL_OUTPUT.get(client)
    ceiling = (os.environ if environ is None else environ).get(TOOL_OUTPUT_CEILING, "").strip()
    if not ceiling.isdigit():
        return kept
    return int(ceiling) if kept is None else min(kept, int(ceiling))


def codex_kept_bytes(token_limit: int) -> int:
    """UTF-8 bytes of one tool output that Codex keeps whole under a person's ``tool_output_token_limit`` of
    ``token_limit`` tokens: 4 bytes a token, less 100 for Codex's own "Wall time: … Output:" item. Measured on
    the real Codex 0.171 (trial19) with the limit at 500: memdir reads of 1,873, 2,116 and 2,278 bytes reached
    the model whole, one of 4,900 bytes as 2,422 (its middle cut out): Codex keeps about 4 × 1.2 bytes a token,
    the 1.2 left here as slack. What `memdir install codex` sets ``tool_output_max_bytes`` to for its server."""
    return 4 * token_limit - 100
DEFERS_MCP_TOOLS = ("claude-code", "codex")  # clients that keep MCP tools behind a tool search (the tools note)


def mcp_tool(client: str, tool: str, server: str = "memdir") -> str:
    """``tool`` of MCP server ``server`` as ``client`` names it (:data:`MCP_TOOL_NAMES`; Claude Code's form for
    a client not in it): ``mcp_tool("gemini", "memory_read")`` is ``"mcp_memdir_memory_read"``. ``tool`` may be
    a regular expression (an installer's matcher)."""
    return MCP_TOOL_NAMES.get(client, MCP_TOOL_NAMES["claude-code"]).format(server=server, tool=tool)


def queues_transcript(client: str, event: str, data: dict) -> bool:
    """Whether an end event (``"end"`` in :data:`DIALECTS`) queues the transcript for consolidation: the end of
    a session or a turn always; an event that may compact (one :data:`RESTARTS` names) only when it does
    (:func:`conversation_restarts`). Gemini CLI 0.61 sends PreCompress with ``trigger`` ``auto`` before every
    model request, whether or not it compresses: queued each time, it started a drain per request (15 for three
    prompts); its SessionEnd queues the whole transcript."""
    return event not in RESTARTS.get(client, {}) or conversation_restarts(client, event, data)


# client -> (SessionStart input field, its values) meaning the conversation goes on holding every context block an
# earlier SessionStart of the session gave: the one rule of when a session start gives the block only if it changed
# (memdir.prompt.start.start_text). Read from the real clients, counting blocks per model request over three prompts:
# Codex 0.171 `exec resume` (source resume) keeps each earlier block, so an unchanged index stood 1, 2, 3 times;
# Claude Code 2.1 `-p --resume ID` and `--continue` (the same session id) keep each earlier block too (a changed
# one stood 1, 2, 3 times; an identical one it showed once). Gemini CLI 0.61 keeps the blocks only since they come
# with the prompt (START_AT_PROMPT): given at SessionStart, its `--resume` dropped them with the prompts they stood
# in front of ([1, 1, 1] whole blocks, each resume's own; with gemini here then, [1, 0, 0]).
# Cursor: not measured, so always given.
RESUMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "claude-code": ("source", ("resume",)),
    "codex": ("source", ("resume",)),
    # Gemini CLI 0.61 since its block comes with the first prompt (START_AT_PROMPT): measured [1, 1, 1] blocks
    # with the one line on each resume (trial19)
    "gemini": ("source", ("resume",)),
}
# Clients whose session start's text is given by the session's next prompt hook instead, with that prompt
# (memdir.prompt.recalled.hold_start / take_start). Gemini CLI 0.61 puts a SessionStart additionalContext in
# front of the first prompt's text and, on `--resume`, drops every earlier user message that begins with
# <hook_context>: the person's earlier prompts were gone from the resumed conversation (measured with a
# SessionStart hook of the person's own, not memdir: [PROMPT-2] alone; without it, or with the context
# from BeforeAgent, which it adds as a part after the prompt, [PROMPT-0, PROMPT-1, PROMPT-2] — trial19).
START_AT_PROMPT = ("gemini",)


def keeps_start_blocks(client: str) -> bool:
    """True when ``client``'s resumed conversation keeps the context blocks its session starts gave
    (:data:`RESUMES`): only then is a given block worth recording."""
    return client in RESUMES


def conversation_resumes(client: str, event: str, data: dict) -> bool:
    """True when ``event`` of ``client`` with input ``data`` is a session start whose conversation still
    holds the context block an earlier start of the session gave (:data:`RESUMES`); False for every
    other event and client, and for a start of another ``source`` (startup; compact and clear, after
    which the conversation is a summary or empty: :data:`RESTARTS`)."""
    rule = RESUMES.get(client)
    return rule is not None and DIALECTS[client].get(event) == "start" and data.get(rule[0]) in rule[1]


def conversation_restarts(client: str, event: str, data: dict) -> bool:
    """True when ``event`` of ``client`` with input ``data`` means the
    conversation was (or is about to be) compacted or cleared, so recall may
    give its bodies again (:data:`RESTARTS`); False for every other event,
    for an unknown client and for a field of another value."""
    rule = RESTARTS.get(client, {})
    if event not in rule:
        return False
    test = rule[event]
    return test is None or data.get(test[0]) in test[1]


def translate(client: str, data: dict) -> dict:
    """A client's hook input in Claude Code's fields (``cwd``, ``session_id``, ``transcript_path``, ``prompt``,
    ``tool_name``): Cursor's first ``workspace_roots`` entry is the directory and its ``conversation_id`` the
    session; Gemini CLI's MCP tool (``tool_name`` ``mcp_memdir_memory_read``, its ``mcp_context`` naming the
    server and the tool) is ``mcp__SERVER__TOOL``, and its ``prompt`` the person's, without the one
    ``<hook_context>…</hook_context>`` block 0.61 puts first in a headless session's first prompt, followed by
    two newlines or by nothing (SessionStart's block: recall would search the index and guidance; read from the
    real binary: its interactive sessions put the block in the history, not the prompt; it escapes ``<`` and
    ``>`` inside, so the first closing tag ends it). A person's own prompt that opens with such a tag is kept,
    unless two newlines follow its first closing tag (break17: every leading block was dropped, the person's
    text with it)."""
    if client == "gemini":
        out, context, prompt = dict(data), data.get("mcp_context"), data.get("prompt")
        if isinstance(context, dict) and isinstance(context.get("server_name"), str) \
                and isinstance(context.get("tool_name"), str):
            out["tool_name"] = mcp_tool("claude-code", context["tool_name"], context["server_name"])
        if isinstance(prompt, str) and prompt.startswith("<hook_context>") and "</hook_context>" in prompt:
            rest = prompt.partition("</hook_context>")[2]
            if rest == "" or rest.startswith("\n\n"):  # SessionStart's one block, as 0.61 joins it
                out["prompt"] = rest[2:]
        return out
    if client != "cursor":
        return data
    out = dict(data)
    roots = data.get("workspace_roots")
    if not out.get("cwd") and isinstance(roots, list) and roots and isinstance(roots[0], str):
        out["cwd"] = roots[0]
    if not isinstance(out.get("session_id"), str) and isinstance(data.get("conversation_id"), str):
        out["session_id"] = data["conversation_id"]
    return out
