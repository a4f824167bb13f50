"""A CLI write in a fresh process loads no importer: the facade (memdir.api) imported the importing package at
its own import (importing.run, items, sources, folders, outcomes, export: 20 M of the write's ~990 M
instructions, ``benchmarks/bench_hooks.py --fresh --instructions --commands cli_write``), and through
operations.maintenance -> prompt.start the session record's modules; an import loads them when asked.

hot44: nor the modules of the facade's other methods (upkeep, team, sync, a person's decisions, versions: the
facade imports each in its method), install's installers (its help's file list, built only for install's
parser), git's plumbing and the merge rules (the sync repository's module imports them where it runs git; a
write reads its state file alone): a fresh write at 1,000 memories 984 -> 740 M instructions, at 10,000
1,084 -> 843 M (``benchmarks/bench_hooks.py --fresh --instructions``, main and this tree in one run)."""

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
# hot44: every other method's module, and the installers install's help lists (their files per client)
UPKEEP = ("memdir.operations.maintenance", "memdir.results.maintenance", "memdir.operations.team",
          "memdir.operations.candidates", "memdir.results.trust", "memdir.operations.sync", "memdir.operations.verify")
DECISIONS = ("memdir.operations.trust", "memdir.operations.versions")
INSTALLERS = ("memdir.integrations.clients.edits", "memdir.integrations.clients.codex")
ABSENT = ("memdir.importing", "memdir.importing.run", "memdir.importing.items", "memdir.prompt.recalled",
          "memdir.prompt.sessionfiles", *TOMBSTONE_TEXT, *FINDINGS, *UPKEEP, *DECISIONS, *INSTALLERS)
# hot44: once its layer is made (the first write describes it, asking git), a write runs no git and merges nothing
GIT = ("memdir.git", "memdir.files.merge", "memdir.layer.team", "subprocess")


def _run(*args) -> tuple[subprocess.CompletedProcess, list[str]]:
    done, loaded = run_cli_modules(*args)
    assert done.returncode == 0, done.stderr
    return done, loaded


def test_a_cli_write_loads_no_importer(project, tmp_path):
    done, loaded = _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433",
                        "-b", "Moved from 5432.")
    assert done.stdout == "Memory created: db-port (project)\n"
    assert [m for m in ABSENT if m in loaded] == []
    assert {"memdir.api", "memdir.gateway.writing", "memdir.operations.memories"} <= set(loaded)  # control: its own
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
    (:mod:`memdir.operations.findings`), nor the upkeep module whose status lists them
    (:mod:`memdir.operations.maintenance`, :mod:`memdir.results.maintenance`); control in the same store: a status
    loads all four and lists the project layer's findings (none here)."""
    done, loaded = _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433",
                        "-b", "Moved from 5432.")
    assert done.stdout == "Memory created: db-port (project)\n"
    assert [m for m in FINDINGS + UPKEEP[:2] if m in loaded] == []
    assert "memdir.operations.memories" in loaded  # control: the write's own operation
    done, loaded = _run("--project", str(project), "--json", "status")
    assert set(FINDINGS + UPKEEP[:2]) <= set(loaded)  # control: a status gathers the findings
    layers = {layer["scope"]: layer for layer in json.loads(done.stdout)["layers"]}
    assert (layers["project"]["pending"], layers["project"]["answered"]) == ([], [])


def test_a_cli_write_into_its_layer_runs_no_git_and_no_other_method_s_module(project):
    """hot44: a write into a layer already made loads no git plumbing, merge rule or team layer (:data:`GIT`),
    none of the facade's other methods' modules (:data:`UPKEEP`, :data:`DECISIONS`) and no installer; it reads
    the sync state file (:mod:`memdir.files.repository`, a held memory's warning). Controls in the same store: the
    first write (which describes the new layer, asking git) loads git; ``status`` loads the upkeep, team, sync and
    git modules; ``tombstones`` and ``history`` load a person's decisions and the versions; ``install --help``
    imports every installer to list its files."""
    done, loaded = _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433",
                        "-b", "Moved from 5432.")
    assert "memdir.git" in loaded  # control: the first write describes its new layer (git's view of the project)
    done, loaded = _run("--project", str(project), "write", "cache", "-d", "Redis listens on 6380", "-b", "x")
    assert done.stdout == "Memory created: cache (project)\n"
    assert [m for m in ABSENT + GIT if m in loaded] == []
    assert {"memdir.api", "memdir.operations.memories", "memdir.files.repository"} <= set(loaded)  # control
    done, loaded = _run("--project", str(project), "status")
    assert "project: 2 memories (2 in the index" in done.stdout
    assert set(UPKEEP + GIT) <= set(loaded)  # control: upkeep loads what a write does not
    done, loaded = _run("--project", str(project), "tombstones")
    assert "memdir.operations.trust" in loaded  # control: a person's decisions, loaded by their command
    done, loaded = _run("--project", str(project), "history", "cache")
    assert done.stdout.startswith("1 version(s) of cache (project):\nv1  ")
    assert "memdir.operations.versions" in loaded  # control: the versions, loaded by their command
    done, loaded = _run("install", "--help")
    assert "~/.codex/config.toml" in done.stdout  # control: install's help lists each client's files
    assert set(INSTALLERS) <= set(loaded)


# hot46: a write's result has a module of its own (results.writes); the thirteen other results of a memory (a listing,
# a read, a delete, a history…: ≈ 4 M instructions each to build) load with the command that returns one.
OTHER_RESULTS = ("memdir.results.memories",)


def test_a_cli_write_builds_its_own_result_and_none_of_the_others(project):
    """A write (created, then updated) loads :mod:`memdir.results.writes` and not :mod:`memdir.results.memories`;
    controls in the same store: ``list``, ``read`` and ``delete`` load it and say what they did, and the facade's
    names of the write's result are the same classes either way."""
    for text, said in (("Moved from 5432.", "Memory created: db-port (project)\n"),
                       ("Moved from 5432 in May.", "Memory updated: db-port (project)\n")):
        done, loaded = _run("--project", str(project), "write", "db-port", "-d", "Dev PostgreSQL listens on 5433",
                            "-b", text)
        assert done.stdout == said
        assert [m for m in OTHER_RESULTS if m in loaded] == []
        assert "memdir.results.writes" in loaded  # control: its own result
    done, loaded = _run("--project", str(project), "list")
    assert "- db-port (type: project; layer: project) — Dev PostgreSQL listens on 5433" in done.stdout
    assert "memdir.results.memories" in loaded  # control: a listing's result
    done, loaded = _run("--project", str(project), "read", "db-port")
    assert "Moved from 5432 in May." in done.stdout and "memdir.results.memories" in loaded  # control: a read's
    done, loaded = _run("--project", str(project), "delete", "db-port")
    assert "db-port" in done.stdout and "memdir.results.memories" in loaded  # control: a delete's
    import memdir
    from memdir.results import memories, writes

    assert memdir.WriteResult is memories.WriteResult is writes.WriteResult
    assert memories.KeptEdit is writes.KeptEdit and memories.ReplacedVersion is writes.ReplacedVersion
