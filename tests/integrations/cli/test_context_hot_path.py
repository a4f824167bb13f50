"""``memdir context`` in a fresh process loads what it uses and no more (issue 28: fast at any size;
instruction counts: ``benchmarks/bench_hooks.py --fresh --instructions``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import run_cli_modules

# What pip's console script runs (it imports re itself), then the modules the run left loaded.
CONSOLE = (
    "import json, re, sys\n"
    "from memdir.integrations.cli.main import main\n"
    "rc = main(sys.argv[1:-1])  # the last argument: the modules asked about\n"
    "sys.stdout.flush()\n"
    "print(json.dumps(sorted(m for m in sys.modules if m in sys.argv[-1].split(','))), file=sys.stderr)\n"
)
# Not on the path: contextlib (a class is the sweeps' context manager), heapq.py (its C functions are),
# the trust module (a repository without a team layer), and the modules of everything else memdir does.
ABSENT = ("contextlib", "heapq", "memdir.files.trust", "argparse", "yaml", "sqlite3", "hashlib", "unicodedata",
          "memdir.text.lookalike", "memdir.layer.layer", "memdir.api", "pathlib",
          # the session record's modules: the block's digest is prompt.shown's (start imported it from recalled)
          "memdir.prompt.recalled", "memdir.prompt.sessionfiles", "memdir.prompt.delivery", "memdir.runtime", "fcntl")
LOADED = ("memdir.prompt.context", "memdir.files.outline", "re", "memdir.prompt.shown")  # control: what it does use


def test_context_renders_and_loads_no_module_it_does_not_use(person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    person.write("llama-markers", "Llama [INST] markers in prompts", "project", "")
    done = subprocess.run([sys.executable, "-c", CONSOLE, "--project", str(project), "context",
                           ",".join(ABSENT + LOADED)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in done.stdout
    assert "- [llama-markers](llama-markers.md) — Llama &#91;INST&#93; markers in prompts" in done.stdout  # escaped
    assert json.loads(done.stderr.strip().splitlines()[-1]) == sorted(LOADED)


PATH_LAYER = ("pathlib", "re", "enum", "fnmatch", "urllib.parse")


def _module_run(*args) -> tuple[str, list[str]]:
    """``python -m memdir ARGS`` (:func:`tests.conftest.run_cli_modules`): its stdout, and which of the path
    layer's modules and ``memdir.prompt.context`` it loaded."""
    done, loaded = run_cli_modules(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout, [m for m in loaded if m in PATH_LAYER + ("memdir.prompt.context",)]


def test_context_loads_neither_pathlib_nor_re(person, project):
    """The path layer of the hot path works on strings (:mod:`memdir.paths`, :class:`memdir.session.Session`):
    ``python -m memdir context`` loads no :mod:`pathlib` and no :mod:`re` (≈ 40M instructions of a fresh
    process, more than the render) while nothing it shows needs a pattern."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    person.write("tabs", "Indent with tabs — café, 日本語", "user", "", scope="user")
    out, loaded = _module_run("--project", str(project), "context")
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in out
    assert "- [tabs](tabs.md) — Indent with tabs — café, 日本語" in out
    assert loaded == ["memdir.prompt.context"]  # control: it did render
    # Controls in the same store: a line that needs a pattern loads re (not pathlib); a cold command loads both.
    person.write("llama-markers", "Llama [INST] markers in prompts", "project", "")
    out, loaded = _module_run("--project", str(project), "context")
    assert "- [llama-markers](llama-markers.md) — Llama &#91;INST&#93; markers in prompts" in out
    assert loaded == ["enum", "memdir.prompt.context", "re"]
    out, loaded = _module_run("--project", str(project), "list")
    assert "db-port" in out and {"pathlib", "re"} <= set(loaded)


# hot46: what the prompt hook (vectors off) loads or compiles only for a prompt that needs it — the IPv6 module
# (search.ipv6: a prompt or a memory's term holding an address), the embedder's modules (vectors on), and the
# tokenizer's largest patterns: a version written with dots (search.versions' class of every script written with
# spaces, ≈ 13 M instructions) and a phrasal verb's followers (search.oneword). ≈ 70 M of 667 M instructions of a
# fresh prompt hook at 1,000 memories (benchmarks/bench_hooks.py --fresh --instructions --commands user_prompt_submit).
PROMPT_ONLY = ("memdir.search.ipv6",  # search.addressing loads it for a text that may hold an address
               "memdir.search.embedder", "memdir.search.passagevectors",
               "memdir.search.sentencestore", "memdir.search.unembedded", "memdir.layer.joblock")
PROMPT_USED = ("memdir.search.recall", "memdir.search.vectors", "memdir.search.versions")


def _prompt_hook(project, prompt: str, session: str) -> tuple[str, list[str], dict]:
    """The prompt hook (vectors off) in a fresh process as installed (``python -m memdir.hooks``): its stdout, which
    of :data:`PROMPT_ONLY` and :data:`PROMPT_USED` it loaded, and which of the lazy patterns it compiled."""
    payload = {"session_id": session, "transcript_path": "/nonexistent/t.jsonl", "cwd": str(project),
               "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    code = (
        "import io, json, sys, runpy\n"
        "sys.argv = ['memdir.hooks', 'claude-code', 'UserPromptSubmit']\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(payload)!r}.encode()))\n"
        "try:\n"
        "    runpy.run_module('memdir.hooks', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "from memdir.search import oneword, versions\n"
        f"print(json.dumps([sorted(m for m in {PROMPT_ONLY + PROMPT_USED!r} if m in sys.modules), "
        "{'version': versions._version.cache_info().currsize, 'pre_release': versions._pre_releases.cache_info()"
        ".currsize, 'followed': oneword._followed.cache_info().currsize}]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    loaded, compiled = json.loads(done.stderr.strip().splitlines()[-1])
    return done.stdout, loaded, compiled


def test_the_prompt_hook_loads_the_address_module_and_compiles_a_version_s_pattern_only_for_a_prompt_holding_one(
        person, project):
    """A prompt with no address, no version and no phrasal verb loads neither :mod:`memdir.search.ipv6` nor the
    embedder's modules (vectors off) and compiles none of the three lazy patterns, and still recalls; controls in
    the same store: the recall's own modules are there (and :mod:`memdir.search.vectors`, which said vectors are
    off); the store's first prompt, indexing the memories, reads their address and version; a prompt asking for ``fe80::1`` and ``v2.3.1`` loads the address module, compiles the version's and
    pre-release's patterns, and recalls the memory holding both (an address exact: not the one of ``fe80::1ff``)."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    person.write("gateway", "The staging gateway answers on fe80::1 since v2.3.1", "project", "Moved from the old VLAN.")
    person.write("other-host", "The lab router answers on fe80::1ff:fe23:4567:890a", "project", "Its console is in rack 4.")
    out, loaded, compiled = _prompt_hook(project, "which port does dev postgresql listen on?", "first")
    assert "5433" in out and "memdir.search.ipv6" in loaded  # control: the store's first prompt indexes its memories
    assert compiled["version"] == 1  # control: ... one holding an address and a version (v2.3.1)
    out, loaded, compiled = _prompt_hook(project, "which port does dev postgresql listen on?", "plain")
    assert "5433" in out and "db-port" in out
    assert loaded == sorted(PROMPT_USED)  # control: recall, the tokenizer's versions module and the vectors check
    assert compiled == {"version": 0, "pre_release": 0, "followed": 0}
    out, loaded, compiled = _prompt_hook(project, "what answers on fe80::1 since v2.3.1?", "address")
    assert "## gateway (type: project; layer: project)" in out and "old VLAN" in out  # control: read as such
    assert "other-host" not in out and "rack 4" not in out  # fe80::1 exact: not the address under it
    assert "memdir.search.ipv6" in loaded and "memdir.search.embedder" not in loaded
    assert (compiled["version"], compiled["pre_release"]) == (1, 1)
    _, _, compiled = _prompt_hook(project, "how do I log in to the staging gateway?", "phrasal")
    assert compiled["followed"] == 1  # control: a verb and its particle written apart ("log in")
