"""A CLI write in a fresh process loads no importer: the facade (memdir.api) imported the importing package at
its own import (importing.run, items, sources, folders, outcomes, export: 20 M of the write's ~990 M
instructions, ``benchmarks/bench_hooks.py --fresh --instructions --commands cli_write``), and through
operations.maintenance -> prompt.start the session record's modules; an import loads them when asked."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import run_cli_modules

# misc42: what a tombstone's refusal says (tombstones.refusals) and whether a value corrects a forgotten link's
# address (tombstones.addresses) load when a value is refused or a tombstone made, not with every write.
TOMBSTONE_TEXT = ("memdir.tombstones.addresses", "memdir.tombstones.refusals")
# hot43: a project's findings (their shapes, two dataclasses: ≈ 8 M instructions of a fresh write, and how a status
# gathers them) load with a command that lists them, not with the upkeep module every write loads.
FINDINGS = ("memdir.operations.findings", "memdir.results.findings")
ABSENT = ("memdir.importing", "memdir.importing.run", "memdir.importing.items", "memdir.prompt.recalled",
          "memdir.prompt.sessionfiles", *TOMBSTONE_TEXT, *FINDINGS)


def _run(*args) -> tuple[subprocess.CompletedProcess, list[str]]:
    done, loaded = run_cli_modules(*args)
    assert done.returncode == 0, done.stderr
    return done, loaded


def test_a_cli_write_loads_no_importer(project, tmp_path):
    done, loaded = _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433",
                        "-b", "Moved from 5432.")
    assert done.stdout == "Memory created: db-port (project)\n"
    assert [m for m in ABSENT if m in loaded] == []
    assert {"memdir.api", "memdir.gateway.writing", "memdir.prompt.shown"} <= set(loaded)  # control: the write's own
    source = tmp_path / "notes"
    source.mkdir()
    (source / "deploy-day.md").write_text("---\nname: deploy-day\ndescription: Deploys happen on Tuesdays\n"
                                          "type: project\n---\nNever on Fridays.\n")
    done, loaded = _run("--project", str(project), "import", "dir", str(source))
    assert "deploy-day" in done.stdout  # control: an import loads its importer when asked
    assert {"memdir.importing.run", "memdir.importing.items"} <= set(loaded)


def test_a_cli_write_loads_a_tombstone_s_texts_only_to_refuse(project):
    """A write loads neither :mod:`memdir.tombstones.refusals` nor :mod:`memdir.tombstones.addresses`, while the
    layer holds a tombstone too; controls in the same store: the delete that makes the tombstone loads
    ``addresses`` (its digests), and the write of the forgotten value, refused, loads ``refusals``."""
    _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433", "-b", "Moved.")
    done, loaded = _run("--project", str(project), "delete", "db-port")
    assert "memdir.tombstones.addresses" in loaded  # control: a tombstone is made
    done, loaded = _run("--project", str(project), "write", "cache", "-d", "Redis listens on 6380", "-b", "x")
    assert done.stdout == "Memory created: cache (project)\n"
    assert [m for m in TOMBSTONE_TEXT if m in loaded] == [] and "memdir.tombstones.match" in loaded
    done, loaded = run_cli_modules("--project", str(project), "write", "db-port", "-d",
                                   "Dev PostgreSQL listens on 5433", "-b", "Moved.")
    assert done.returncode == 1 and "forgotten" in done.stderr  # refused
    assert "memdir.tombstones.refusals" in loaded  # control: the refusal's text, loaded to refuse


def test_a_cli_write_loads_a_project_s_findings_only_to_list_them(project):
    """A write loads neither the findings' shapes (:mod:`memdir.results.findings`) nor how they are gathered
    (:mod:`memdir.operations.findings`), though it loads the upkeep module whose status lists them
    (:mod:`memdir.operations.maintenance`, :mod:`memdir.results.maintenance`); control in the same store: a status
    loads both and lists the project layer's findings (none here)."""
    done, loaded = _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433",
                        "-b", "Moved from 5432.")
    assert done.stdout == "Memory created: db-port (project)\n"
    assert [m for m in FINDINGS if m in loaded] == []
    assert {"memdir.operations.maintenance", "memdir.results.maintenance"} <= set(loaded)  # control: the upkeep
    done, loaded = _run("--project", str(project), "--json", "status")
    assert set(FINDINGS) <= set(loaded)  # control: a status gathers the findings
    layers = {layer["scope"]: layer for layer in json.loads(done.stdout)["layers"]}
    assert (layers["project"]["pending"], layers["project"]["answered"]) == ([], [])
