"""``memdir context`` in a fresh process loads what it uses and no more (issue 28: fast at any size;
instruction counts: ``benchmarks/bench_hooks.py --fresh --instructions``)."""

from __future__ import annotations

import json
import subprocess
import sys

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
          "memdir.text.lookalike", "memdir.layer.layer", "memdir.api")
LOADED = ("memdir.prompt.context", "memdir.files.outline", "pathlib", "re")  # control: what it does use


def test_context_renders_and_loads_no_module_it_does_not_use(person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    person.write("llama-markers", "Llama [INST] markers in prompts", "project", "")
    done = subprocess.run([sys.executable, "-c", CONSOLE, "--project", str(project), "context",
                           ",".join(ABSENT + LOADED)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in done.stdout
    assert "- [llama-markers](llama-markers.md) — Llama &#91;INST&#93; markers in prompts" in done.stdout  # escaped
    assert json.loads(done.stderr.strip().splitlines()[-1]) == sorted(LOADED)
