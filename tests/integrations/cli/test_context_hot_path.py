"""``memdir context`` in a fresh process loads what it uses and no more (issue 28: fast at any size;
instruction counts: ``benchmarks/bench_hooks.py --fresh --instructions``)."""

from __future__ import annotations

import json
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
