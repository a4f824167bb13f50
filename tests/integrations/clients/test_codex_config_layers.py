"""Codex's config layers beyond the user's file and the project root's, as the real Codex 0.171 reads them
(trial23): ``/etc/codex/config.toml`` under the user's file, ``/etc/codex/managed_config.toml`` over everything,
a trusted project's ``.codex/config.toml`` in each folder from the root down to where a session starts; and
memdir's project entry, which Codex merges into the user's entry key by key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memdir.integrations.clients.outputlimit import (
    project_limit,
    smallest_limit,
    token_limit,
)
from tests.integrations.clients.test_codex_output_limit import TRUST, _cuts

L = "tool_output_token_limit = {}\n".format


@pytest.mark.slow
@pytest.mark.parametrize("user, own, cwd, system, cut", [
    ("", None, "", {}, False),  # control: an /etc/codex with nothing in it
    ("", None, "", {"config.toml": L(300)}, True),  # the system's file (before: not read, 11,900 bytes cut)
    (L(20000), None, "", {"config.toml": L(300)}, False),  # the user's wins over it
    (L(20000), None, "", {"managed_config.toml": L(300)}, True),  # the managed file wins over the user's
    (TRUST, {"": L(20000)}, "", {"managed_config.toml": L(300)}, True),  # and over a trusted project's
    (TRUST, {"sub": L(300)}, "sub/deep", None, True),  # a subfolder's, below it (before: not read)
    (TRUST, {"sub": L(300)}, "", None, False),  # control: a session at the root does not read it
    (TRUST, {"": L(20000), "sub": L(300)}, "sub", None, True),  # the closest wins
    (TRUST, {"": L(300), "sub": L(20000)}, "sub", None, False),
    ("", {"sub": L(300)}, "sub", None, False),  # an untrusted project's: not read
])
def test_codex_reads_the_system_managed_and_subfolder_layers_the_reader_reads(tmp_path, user, own, cwd, system, cut):
    """Measured with a 6,000-byte command output (a limit of 300 tokens keeps about 1,400 bytes; gpt-5.5's default
    keeps it whole): which layers cut it; the reader names a limit under 1,000 exactly where Codex cut."""
    assert _cuts(tmp_path, user, own, cwd=cwd, system=system) is cut
    home, root = tmp_path / "home", tmp_path / "proj"
    etc = tmp_path / "etc" / "codex" if system is not None else tmp_path / "no-etc"
    limit = token_limit(home / ".codex" / "config.toml", root, root / cwd, system=etc)[0]
    assert (limit is not None and limit < 1000) is cut


def _project(tmp_path, own: dict, trust: bool = True):
    """A git work tree with ``own`` ({folder: .codex/config.toml text}) and a user config.toml trusting it."""
    root, user = tmp_path / "proj", tmp_path / "u" / "config.toml"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    user.parent.mkdir()
    user.write_text(L(4000) + (TRUST.format(root=root) if trust else ""))
    for folder, text in own.items():
        (root / folder / ".codex").mkdir(parents=True)
        (root / folder / ".codex" / "config.toml").write_text(text)
    return root, user


def test_a_project_entry_is_sized_by_the_smallest_limit_of_any_folder_a_session_starts_in(tmp_path):
    """`memdir install codex --scope project` serves every folder of the project: a subfolder's own 300 (Codex
    applies it to a session started there) sizes it, and the user's entry too; an untrusted project's is read by
    no session. Control: the root's own 2000 alone."""
    root, user = _project(tmp_path, {"": L(2000), "services/api": L(300), "docs": "model = 'o3'\n"})
    etc = tmp_path / "etc"
    api = root / "services" / "api" / ".codex" / "config.toml"
    assert token_limit(user, root, system=etc) == (2000, root / ".codex" / "config.toml")  # control: at the root
    assert token_limit(user, root, root / "services" / "api" / "src", system=etc) == (300, api)
    assert project_limit(user, root, system=etc) == (300, api)
    assert smallest_limit(user, system=etc) == (300, api)
    (api).unlink()
    assert project_limit(user, root, system=etc) == (2000, root / ".codex" / "config.toml")

    other, other_user = _project(tmp_path / "b", {"sub": L(300)}, trust=False)
    assert project_limit(other_user, other, system=etc) == (4000, other_user)
    assert smallest_limit(other_user, system=etc) == (4000, other_user)


def test_the_system_files_frame_the_users(tmp_path):
    """/etc/codex/config.toml sets a limit under the user's file; managed_config.toml over every layer."""
    user, etc = tmp_path / "config.toml", tmp_path / "etc"
    etc.mkdir()
    user.write_text("model = 'o3'\n")
    (etc / "config.toml").write_text(L(300))
    assert token_limit(user, system=etc) == (300, etc / "config.toml")
    assert smallest_limit(user, system=etc) == (300, etc / "config.toml")
    user.write_text(L(5000))
    assert token_limit(user, system=etc) == (5000, user)  # the user's wins
    (etc / "managed_config.toml").write_text(L(700))
    assert token_limit(user, system=etc) == (700, etc / "managed_config.toml")


def _codex_env(user_home, memdir_home, cwd) -> dict | None:
    """The env of memdir's server as the real Codex resolves it in ``cwd`` (`codex mcp get memdir --json`)."""
    from tests.integrations.clients.realclients import binary, client_env

    done = subprocess.run([binary("codex"), "mcp", "get", "memdir", "--json"], capture_output=True, text=True,
                          env=client_env(user_home, memdir_home), cwd=cwd, timeout=120, stdin=subprocess.DEVNULL,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["transport"].get("env")


def _codex_project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``(user_home, root, user)``: a person's home under ``tmp_path`` with its ``.codex`` folder, a git project
    ``proj`` and the path of the person's Codex ``config.toml`` (not yet written)."""
    user_home, root = tmp_path / "userhome", tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (user_home / ".codex").mkdir()
    return user_home, root, user_home / ".codex" / "config.toml"


@pytest.mark.slow
def test_a_project_entry_names_its_budget_so_it_does_not_run_with_the_users(tmp_path, isolated_home):
    """trial23, measured with `codex mcp get memdir`: the user's entry carries MEMDIR_TOOL_OUTPUT_MAX_BYTES 1900
    (a user limit of 500); a trusted project with its own 20,000 gets a project entry without `env`, and Codex,
    merging that entry into the user's key by key, ran it with 1900. Now the project entry names 11900. Control:
    outside the project the user's 1900 applies. doctor says so of an entry written without a budget."""
    from tests.conftest import run_cli

    user_home, root, user = _codex_project(tmp_path)
    user.write_text(L(500) + TRUST.format(root=root))
    (root / ".codex").mkdir()
    (root / ".codex" / "config.toml").write_text(L(20000))
    assert run_cli("install", "codex", "--scope", "user").returncode == 0
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for a project entry
    done = run_cli("--project", root, "install", "codex", "--scope", "project", env={"PATH": path})
    assert done.returncode == 0, done.stderr
    assert _codex_env(user_home, isolated_home, root) == {"MEMDIR_TOOL_OUTPUT_CEILING": "11900"}  # was 1900
    assert _codex_env(user_home, isolated_home, tmp_path) == {"MEMDIR_TOOL_OUTPUT_CEILING": "1900"}  # control

    def notes():
        out = run_cli("--project", root, "doctor", "--json")
        return [n for n in json.loads(out.stdout)["notes"] if "tool_output_token_limit" in n]

    assert notes() == []
    own = root / ".codex" / "config.toml"
    own.write_text(own.read_text().replace('\n[mcp_servers.memdir.env]\nMEMDIR_TOOL_OUTPUT_CEILING = "11900"\n', ""))
    assert _codex_env(user_home, isolated_home, root) == {"MEMDIR_TOOL_OUTPUT_CEILING": "1900"}  # what it was
    assert notes() == [(
        f"codex: tool_output_token_limit in {own} is 20000: memdir's server there (it names no budget, so Codex "
        f"gives it the one of {user}) gives memory_read in parts of up to 1900 bytes where that limit calls for "
        "11900; run `memdir install codex --scope project` again")]


@pytest.mark.slow
def test_a_project_entry_never_overrides_the_persons_own_budget(tmp_path, isolated_home):
    """trial24, measured with `codex mcp get memdir`: a person's own MEMDIR_TOOL_OUTPUT_MAX_BYTES = 4000 in memdir's
    user entry was replaced by the project entry's 11900 in a trusted project (Codex merges env key by key), and a
    second `memdir install codex --scope user` dropped it. Now the entries state MEMDIR_TOOL_OUTPUT_CEILING: the
    server Codex starts in the project keeps the person's 4000; control: without the person's value, the ceiling
    (11900) is the budget. The same for their tool_output_max_bytes in memdir's config.toml. A reinstall keeps the
    person's variable."""
    from memdir.settings import load_settings
    from tests.conftest import run_cli

    user_home, root, user = _codex_project(tmp_path)
    user.write_text(TRUST.format(root=root))
    assert run_cli("install", "codex", "--scope", "user").returncode == 0
    path = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")  # `memdir` for a project entry
    done = run_cli("--project", root, "install", "codex", "--scope", "project", env={"PATH": path})
    assert done.returncode == 0, done.stderr

    def budget(env):
        return load_settings(isolated_home, environ=env or {}).tool_output_max_bytes

    assert _codex_env(user_home, isolated_home, root) == {"MEMDIR_TOOL_OUTPUT_CEILING": "11900"}  # control
    assert budget(_codex_env(user_home, isolated_home, root)) == 11900
    (isolated_home / "config.toml").write_text("tool_output_max_bytes = 3000\n")  # the person's memdir setting
    assert budget(_codex_env(user_home, isolated_home, root)) == 3000  # was 11900: the entry's variable won
    (isolated_home / "config.toml").unlink()
    user.write_text(user.read_text() + '\n[mcp_servers.memdir.env]\nMEMDIR_TOOL_OUTPUT_MAX_BYTES = "4000"\n')
    merged = _codex_env(user_home, isolated_home, root)
    assert merged == {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "4000", "MEMDIR_TOOL_OUTPUT_CEILING": "11900"}
    assert budget(merged) == 4000  # was 11900: the project entry's MEMDIR_TOOL_OUTPUT_MAX_BYTES won
    assert run_cli("install", "codex", "--scope", "user").returncode == 0
    assert _codex_env(user_home, isolated_home, tmp_path) == {"MEMDIR_TOOL_OUTPUT_MAX_BYTES": "4000"}  # was dropped
    assert budget(_codex_env(user_home, isolated_home, root)) == 4000


@pytest.mark.slow
@pytest.mark.parametrize("trust, read", [
    ({"": "trusted"}, ["", "sub", "sub/deep"]),  # the root trusted: every folder down to the session's
    ({"sub": "trusted"}, ["sub"]),  # a subfolder trusted on its own: only it (before: the reader read none)
    ({"": "trusted", "sub": "untrusted"}, ["", "sub/deep"]),  # one marked untrusted is skipped (before: read)
    ({}, []),  # control: nothing trusted, nothing read
])
def test_the_reader_reads_the_project_folders_codex_reads(tmp_path, isolated_home, trust, read):
    """trial24: which `.codex/config.toml` of a project Codex 0.171 reads for a session in sub/deep, by each
    folder's own `[projects."<folder>"]` entry, else the root's — each file marks its folder in memdir's entry's env,
    read back with `codex mcp get memdir`; :func:`outputlimit.layers` lists exactly those folders."""
    from memdir.integrations.clients.outputlimit import layers

    user_home = tmp_path / "userhome"
    root = tmp_path / "proj"
    deep = root / "sub" / "deep"
    deep.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for folder in ("", "sub", "sub/deep"):
        (root / folder / ".codex").mkdir()
        (root / folder / ".codex" / "config.toml").write_text(
            f'[mcp_servers.memdir]\ncommand = "memdir"\n[mcp_servers.memdir.env]\nAT_{folder.replace("/", "_").upper() or "ROOT"} = "1"\n')
    (user_home / ".codex").mkdir(parents=True)
    user = user_home / ".codex" / "config.toml"
    user.write_text('[mcp_servers.memdir]\ncommand = "memdir-user"\n' + "".join(
        f'[projects."{root / folder if folder else root}"]\ntrust_level = "{level}"\n' for folder, level in trust.items()))
    env = _codex_env(user_home, isolated_home, deep) or {}
    marks = {"AT_ROOT": "", "AT_SUB": "sub", "AT_SUB_DEEP": "sub/deep"}
    assert sorted(marks[key] for key in env) == read
    listed = [p for p in layers(user, root, deep, system=tmp_path / "etc") if p.parent.name == ".codex" and p != user]
    assert listed == [(root / folder if folder else root) / ".codex" / "config.toml" for folder in read]
