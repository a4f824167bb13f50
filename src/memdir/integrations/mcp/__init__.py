"""``memdir mcp``: the memory tools as an MCP server over stdio (DESIGN §10).

``server`` (the tools, roots, instructions), ``wire`` (the stdio wire around
the MCP SDK's transport: malformed JSON-RPC gets the error it calls for).
"""
