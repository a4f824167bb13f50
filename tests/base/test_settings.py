"""Settings from config.toml and MEMDIR_* are validated by one rule: a small
``context_max_bytes`` never turns memory off, non-finite or out-of-range numbers
fall back with a warning and a doctor line, and a config.toml that is not a
file is reported (issue 11 follow-up, items 1 and 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.prompt import context
from memdir.settings import CONTEXT_MIN_BYTES, load_settings
from tests.conftest import run_cli


def _start(cwd, env=None) -> subprocess.CompletedProcess:
    payload = json.dumps({"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": str(cwd),
                          "hook_event_name": "SessionStart", "source": "startup"})
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=payload.encode(),
                          capture_output=True, env=dict(os.environ, **(env or {})), timeout=60)


def test_the_floor_holds_the_frame_the_policy_and_an_index_line():
    frame = f"{context.OPEN}\n{context.NOTE}\n{context.HEADING}\n\n\n{context.POLICY}\n{context.CLOSE}"
    assert context.guidance_block(CONTEXT_MIN_BYTES) != ""
    line = "- [Deploy notes](deploy-notes.md) — how the service is deployed on the cluster, step by step"
    block = context.render_block([("project", line)], CONTEXT_MIN_BYTES)
    assert "deploy-notes.md" in block and "How to use memory" in block
    widest = context._marker({"user": 999, "team": 999, "project": 999})  # every layer named with its count
    assert len(frame.encode()) + len(widest.encode()) + len(line.encode()) < CONTEXT_MIN_BYTES


@pytest.mark.slow
@pytest.mark.parametrize("raw, said", [("3.7", "must be a whole number"), ("-5", "below the minimum 1536"),
                                       ("0", "below the minimum 1536"), ("256", "below the minimum 1536")])
def test_a_small_context_budget_never_turns_memory_off(isolated_home, project, raw, said):
    Memory.open(home=isolated_home, project=project, actor="human").write(
        "deploy-notes", "How the service is deployed", "project", "Run make deploy.")
    (isolated_home / "config.toml").write_text(f"context_max_bytes = {raw}\n", encoding="utf-8")
    done = _start(project)
    ctx = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    # before: 0 bytes injected, no warning
    assert "deploy-notes" in ctx and "How to use memory" in ctx
    assert said in done.stderr.decode()
    out = run_cli("context", "--project", project)
    assert "deploy-notes" in out.stdout and said in out.stderr
    doctor = run_cli("doctor", "--project", project)
    assert "context_max_bytes" in doctor.stdout and said in doctor.stdout
    # control: the same setting from the environment reads the same way
    env = run_cli("context", "--project", project, env={"MEMDIR_CONTEXT_MAX_BYTES": raw})
    assert said in env.stderr and "deploy-notes" in env.stdout


def test_config_and_environment_share_one_rule(isolated_home):
    isolated_home.mkdir(parents=True)
    for raw_config, raw_env in ((3.7, "3.7"), (2000.0, "2000.0"), (2000, "2000")):
        (isolated_home / "config.toml").write_text(f"context_max_bytes = {raw_config!r}\n", encoding="utf-8")
        from_file = load_settings(isolated_home, environ={})
        from_env = load_settings(None, environ={"MEMDIR_CONTEXT_MAX_BYTES": raw_env})
        assert from_file.context_max_bytes == from_env.context_max_bytes
        assert bool(from_file.warnings) == bool(from_env.warnings)
    assert load_settings(None, environ={"MEMDIR_CONTEXT_MAX_BYTES": "2000.0"}).context_max_bytes == 2000
    assert load_settings(None, environ={"MEMDIR_CONTEXT_MAX_BYTES": "3.7"}).context_max_bytes == 4096


@pytest.mark.slow
@pytest.mark.parametrize("where", ["config", "env"])
@pytest.mark.parametrize("raw", ["nan", "inf", "-inf"])
def test_a_non_finite_lock_timeout_falls_back_and_writes_work(isolated_home, project, where, raw):
    env = {}
    isolated_home.mkdir(parents=True, exist_ok=True)
    if where == "config":
        (isolated_home / "config.toml").write_text(f"lock_timeout = {raw}\n", encoding="utf-8")
    else:
        env = {"MEMDIR_LOCK_TIMEOUT": raw}
    done = run_cli("write", "port", "-d", "The dev port", "-t", "project", "-b", "8080", "--project", project, env=env)
    # before: a traceback from every write (nan), inf accepted
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "must be a finite number" in done.stderr
    assert load_settings(isolated_home, environ=env).lock_timeout == 10.0
    doctor = run_cli("doctor", "--project", project, env=env)
    assert "lock_timeout" in doctor.stdout
    # control: a finite value in range is taken as given, without a warning
    ok = load_settings(None, environ={"MEMDIR_LOCK_TIMEOUT": "2.5"})
    assert ok.lock_timeout == 2.5 and ok.warnings == ()


def test_an_out_of_range_number_is_clamped_with_a_warning():
    settings = load_settings(None, environ={"MEMDIR_LOCK_TIMEOUT": "1e9", "MEMDIR_LIMIT_BODY": "300"})
    assert settings.lock_timeout == 120.0
    assert any("lock_timeout: 1000000000.0 is above the maximum 120" in w for w in settings.warnings)
    assert settings.limit_body == 300 and not any("limit_body" in w for w in settings.warnings)  # control


def test_a_whole_number_beyond_a_float_is_quoted_as_written(isolated_home):
    """break24: an int setting was read through float, so 99999999999999999999999 was quoted back as
    99999999999999991611392 (and 2**53 + 1 as 2**53): the warning named a number nobody wrote."""
    isolated_home.mkdir(parents=True)
    (isolated_home / "config.toml").write_text("context_max_bytes = 99999999999999999999999\n", encoding="utf-8")
    settings = load_settings(isolated_home, environ={"MEMDIR_LIMIT_BODY": "9007199254740993"})
    assert settings.context_max_bytes == 10000 and settings.limit_body == 20000
    assert [w.split(": ", 1)[1] for w in settings.warnings] == [
        "setting context_max_bytes: 99999999999999999999999 is above the maximum 10000; using 10000",
        "setting limit_body: 9007199254740993 is above the maximum 20000; using 20000"]
    ok = load_settings(None, environ={"MEMDIR_LIMIT_BODY": " 300 ", "MEMDIR_CONTEXT_MAX_BYTES": "4e3"})
    assert (ok.limit_body, ok.context_max_bytes, ok.warnings) == (300, 4000, ())  # control: in range, as given


@pytest.mark.slow
def test_search_vectors_takes_auto_on_off_and_warns_otherwise(isolated_home, project):
    isolated_home.mkdir(parents=True)
    (isolated_home / "config.toml").write_text('search_vectors = "maybe"\n', encoding="utf-8")
    settings = load_settings(isolated_home, environ={})
    assert settings.search_vectors == "auto"
    assert settings.warnings and "search_vectors must be auto, on or off (got 'maybe')" in settings.warnings[0]
    assert "search_vectors" in run_cli("doctor", "--project", project).stdout
    (isolated_home / "config.toml").write_text("search_vectors = false\n", encoding="utf-8")
    assert load_settings(isolated_home, environ={}).search_vectors == "off"  # control: a boolean means on/off
    assert load_settings(None, environ={"MEMDIR_SEARCH_VECTORS": "OFF"}).search_vectors == "off"


@pytest.mark.slow
def test_a_config_that_is_a_directory_or_a_dangling_symlink_is_reported(isolated_home, project):
    isolated_home.mkdir(parents=True)
    config = isolated_home / "config.toml"
    config.mkdir()
    settings = load_settings(isolated_home, environ={})
    assert any("config.toml is not a file" in w for w in settings.warnings)
    assert "config.toml is not a file" in run_cli("doctor", "--project", project).stdout
    config.rmdir()
    config.symlink_to(isolated_home / "gone.toml")
    settings = load_settings(isolated_home, environ={})
    assert any("gone.toml" in w and "does not exist" in w for w in settings.warnings)
    config.unlink()
    config.write_text("context_max_bytes = 2000\n", encoding="utf-8")  # control: a real file is read, no warning
    settings = load_settings(isolated_home, environ={})
    assert settings.context_max_bytes == 2000 and settings.warnings == ()


@pytest.mark.parametrize("config, environ, expected", [
    ("tool_output_max_bytes = 4000\n", {"MEMDIR_TOOL_OUTPUT_CEILING": "11900"}, 4000),  # the person's lower value stays
    ("tool_output_max_bytes = 4000\n", {"MEMDIR_TOOL_OUTPUT_CEILING": "1900"}, 1900),  # control: the ceiling caps it
    ("", {"MEMDIR_TOOL_OUTPUT_CEILING": "1900"}, 1900),  # the default, capped
    ("", {"MEMDIR_TOOL_OUTPUT_CEILING": "1900", "MEMDIR_TOOL_OUTPUT_MAX_BYTES": "3000"}, 1900),
    ("", {"MEMDIR_TOOL_OUTPUT_CEILING": "11900", "MEMDIR_TOOL_OUTPUT_MAX_BYTES": "3000"}, 3000),
    ("", {"MEMDIR_TOOL_OUTPUT_CEILING": "200"}, 1000),  # never below the setting's floor
    ("", {}, 11900),  # control: no ceiling, the default
])
def test_a_client_ceiling_caps_the_tool_output_budget_and_never_raises_it(tmp_path, config, environ, expected):
    """trial24: `memdir install codex` states what Codex keeps whole (MEMDIR_TOOL_OUTPUT_CEILING) in memdir's
    server entry; a person's own tool_output_max_bytes (config.toml or MEMDIR_TOOL_OUTPUT_MAX_BYTES) below it
    stays in force, one above it is capped."""
    from memdir.settings import load_settings

    (tmp_path / "config.toml").write_text(config)
    settings = load_settings(tmp_path, environ=environ)
    assert settings.tool_output_max_bytes == expected
    assert settings.warnings == ()


def test_a_ceiling_that_is_not_a_number_is_ignored_with_a_warning(tmp_path):
    from memdir.settings import load_settings

    (tmp_path / "config.toml").write_text("tool_output_max_bytes = 4000\n")
    settings = load_settings(tmp_path, environ={"MEMDIR_TOOL_OUTPUT_CEILING": "lots"})
    assert settings.tool_output_max_bytes == 4000
    assert len(settings.warnings) == 1 and settings.warnings[0].startswith("MEMDIR_TOOL_OUTPUT_CEILING: ")
    assert settings.warnings[0].endswith("; ignored")


def test_a_config_over_the_cap_is_not_read_whole_and_is_reported(isolated_home):
    """left25, item 4: config.toml was read whole, whatever its size (the other configuration reads are
    capped); one over MAX_CONFIG_BYTES is read no further and falls back, as a broken one does."""
    from memdir.settings import MAX_CONFIG_BYTES

    isolated_home.mkdir(parents=True)
    config = isolated_home / "config.toml"
    line = "context_max_bytes = 2000\n"
    config.write_text(line + "# " + "x" * (MAX_CONFIG_BYTES - len(line) - 3) + "\n", encoding="utf-8")
    assert config.stat().st_size == MAX_CONFIG_BYTES  # control: at the cap, read
    settings = load_settings(isolated_home, environ={})
    assert settings.context_max_bytes == 2000 and settings.warnings == ()
    config.write_text(line + "# " + "x" * MAX_CONFIG_BYTES + "\n", encoding="utf-8")
    settings = load_settings(isolated_home, environ={})
    # before: read whole, context_max_bytes 2000 and no warning
    assert settings.context_max_bytes == 4096
    assert settings.warnings == (f"{config} is over {MAX_CONFIG_BYTES:,} bytes, more than any settings file needs; "
                                 "not read, using the defaults for every setting",)
