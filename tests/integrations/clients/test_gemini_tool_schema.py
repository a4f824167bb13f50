"""What the real Gemini CLI 0.61 offers the model of memdir's MCP tools (issue 28 leftovers): ``version`` of
``memory_history`` and ``memory_restore`` is ``anyOf`` [integer, string ``^[vV]?[0-9]+$``]
(:func:`memdir.layer.history.version_number`), which Gemini's older function-calling schema subset refused. 0.61
sends each MCP tool's JSON Schema as the declaration's ``parametersJsonSchema``, whole: the request body the
scripted Gemini API (tests/gemini_server.py) records holds it as memdir serves it, and a model's call with
``"v1"`` or ``1`` runs the tool through the real client."""

from __future__ import annotations

import json
import subprocess

import pytest

from memdir.tools.specs import tool_specs
from tests.gemini_server import GeminiServer
from tests.integrations.clients.realclients import binary, client_env
from tests.integrations.clients.test_gemini_session import MODEL, _installed

BODY = "Moved on 2026-11-02."  # the body of db-port's version 1 (_installed)
CALLS = [{"name": "db-port", "version": "v1"}, {"name": "db-port", "version": 1}, {"name": "db-port", "version": "x1"}]


def _responses(body: dict) -> list[dict]:
    return [part["functionResponse"] for content in body.get("contents") or [] for part in content.get("parts") or []
            if "functionResponse" in part]


def _script(body: dict):
    """The scripted model: memory_history of db-port with each of :data:`CALLS` in turn, then a text."""
    done = len(_responses(body))
    return {"function_call": "mcp_memdir_memory_history", "args": CALLS[done]} if done < len(CALLS) else "done"


@pytest.mark.slow
def test_gemini_offers_the_version_schema_whole_and_runs_both_forms(tmp_path, isolated_home, project):
    exe = binary("gemini")
    user_home = _installed(tmp_path, isolated_home, project)
    with GeminiServer(_script) as server:
        env = client_env(user_home, isolated_home, GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url,
                         GEMINI_CLI_TRUST_WORKSPACE="true", PWD=str(project), MEMDIR_SEARCH_VECTORS="off")
        # --yolo: a headless run offers (and runs) MCP tools only when it need not ask
        done = subprocess.run([exe, "-p", "show me version 1 of db-port", "-m", MODEL, "--yolo"], capture_output=True,
                              text=True, env=env, cwd=project, timeout=180, stdin=subprocess.DEVNULL, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        main = [body for path, body in server.requests if f"models/{MODEL}:streamGenerateContent" in path]
    offered = {d["name"]: d for tool in main[0].get("tools") or [] for d in tool.get("functionDeclarations") or []}
    served = {spec.name: spec.schema for spec in tool_specs()}
    for tool in ("memory_history", "memory_restore"):
        sent = offered[f"mcp_memdir_{tool}"]["parametersJsonSchema"]
        assert sent["properties"]["version"] == served[tool]["properties"]["version"]  # whole: anyOf, pattern
        assert sent["properties"]["version"]["anyOf"][1]["pattern"] == "^[vV]?[0-9]+$"
    assert "mcp_memdir_memory_read" in offered  # control: the other tools are offered too
    assert main[-1]["contents"] and len(main) == len(CALLS) + 1
    by_call = [json.dumps(response["response"], ensure_ascii=False) for response in _responses(main[-1])]
    assert len(by_call) == len(CALLS)
    assert BODY in by_call[0] and BODY in by_call[1]  # "v1" and 1: version 1's text
    # control: a version that is no number is refused — by Gemini CLI itself, checking the schema it was given
    assert BODY not in by_call[2] and 'params/version must match pattern \\"^[vV]?[0-9]+$\\"' in by_call[2]
