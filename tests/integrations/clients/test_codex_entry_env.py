"""Whose is a variable in memdir's Codex server entry at a reinstall (trial25, leftover of trial24)? memdir's own
stale value must always go and the person's own always stay. Before, one rule decided by value alone: a
``MEMDIR_TOOL_OUTPUT_MAX_BYTES`` went only when it equalled what the pre-trial24 rule writes for the limit in effect
now, so memdir's own value written under an older limit stayed (overriding the person's budget), and a person's own
value that happened to equal it went. Now install records the env it wrote (``server_env`` in its manifest): a
value memdir wrote goes, any other stays; for an install before that record, a file byte for byte as memdir wrote
it is all memdir's, and a value that cannot be told is kept and named by doctor."""

from __future__ import annotations

import hashlib
import json
import tomllib

from memdir.integrations.clients import codex
from memdir.operations.installed import manifest_path
from tests.conftest import run_cli

PY = "/usr/bin/python3"
LEGACY, CEILING = "MEMDIR_TOOL_OUTPUT_MAX_BYTES", "MEMDIR_TOOL_OUTPUT_CEILING"


def _env(config) -> dict:
    return tomllib.loads(config.read_text())["mcp_servers"]["memdir"].get("env") or {}


def _as_an_old_install(mem, config, env: dict, edited: bool = False) -> None:
    """Turn the entry install wrote into what a pre-trial24 install wrote (``env``) and its manifest record into
    that install's (no ``server_env``; the file's hash, or, with ``edited``, a hash the file no longer has)."""
    text = config.read_text()
    old = text[:text.index("[mcp_servers.memdir]")] + codex._server_text(
        {**tomllib.loads(text)["mcp_servers"]["memdir"], "env": env})
    config.write_text(old)
    path = manifest_path(mem, "codex")
    manifest = json.loads(path.read_text())
    record = manifest[str(config)]
    record.pop("server_env", None)
    record["installed_sha256"] = hashlib.sha256(b"before the edit" if edited else old.encode()).hexdigest()
    path.write_text(json.dumps(manifest))


def _user(tmp_path, limit: str = ""):
    user, mem = tmp_path / "u", tmp_path / "mem"
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'model = "o3"\n{limit}\n')
    return user, mem, config


def test_memdirs_own_stale_value_goes_when_the_limit_changed_in_another_layer(tmp_path):
    """An old install wrote 3,900 bytes under a trusted project's limit of 1,000 tokens; the project's limit is
    2,000 now (7,900 bytes): the user's file is as memdir wrote it, so its value is memdir's and goes."""
    user, mem, config = _user(tmp_path)
    project = tmp_path / "proj"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "config.toml").write_text("tool_output_token_limit = 1000\n")
    config.write_text(config.read_text() + f'\n[projects."{project}"]\ntrust_level = "trusted"\n')
    codex.install("user", mem, user_home=user, python=PY)
    assert _env(config) == {CEILING: "3900"}
    _as_an_old_install(mem, config, {LEGACY: "3900"})
    (project / ".codex" / "config.toml").write_text("tool_output_token_limit = 2000\n")
    codex.install("user", mem, user_home=user, python=PY)
    assert _env(config) == {CEILING: "7900"}  # before: {LEGACY: "3900", CEILING: "7900"}, memdir's 3,900 in force


def test_a_persons_own_value_stays_even_when_it_equals_what_memdir_once_wrote(tmp_path):
    """After a trial25 install the person sets their own budget, the very 3,900 bytes the old rule would write
    under their limit of 1,000 tokens: it is theirs (memdir's record says it wrote only the ceiling), so it stays;
    control: a value of theirs that differs stays too, and the ceiling is memdir's as before."""
    for own in ("3900", "3000"):
        user, mem, config = _user(tmp_path / own, "tool_output_token_limit = 1000")
        codex.install("user", mem, user_home=user, python=PY)
        assert json.loads(manifest_path(mem, "codex").read_text())[str(config)]["server_env"] == {CEILING: "3900"}
        config.write_text(config.read_text().replace(f'{CEILING} = "3900"', f'{LEGACY} = "{own}"\n{CEILING} = "3900"'))
        codex.install("user", mem, user_home=user, python=PY)
        assert _env(config) == {LEGACY: own, CEILING: "3900"}  # before, with 3900: {CEILING: "3900"}, theirs lost


def test_memdirs_stale_ceiling_goes_and_the_persons_variables_stay(tmp_path):
    """The limit changed in the user's own file after a trial25 install: the ceiling memdir wrote is replaced, a
    variable of the person's beside it stays (control)."""
    user, mem, config = _user(tmp_path, "tool_output_token_limit = 1000")
    codex.install("user", mem, user_home=user, python=PY)
    config.write_text(config.read_text().replace(f'{CEILING} = "3900"', f'{CEILING} = "3900"\nMEMDIR_LOG_LEVEL = "INFO"')
                      .replace("tool_output_token_limit = 1000", "tool_output_token_limit = 2000"))
    codex.install("user", mem, user_home=user, python=PY)
    assert _env(config) == {"MEMDIR_LOG_LEVEL": "INFO", CEILING: "7900"}


def test_a_value_that_cannot_be_told_is_kept_and_doctor_names_it(tmp_path, isolated_home):
    """An old install's entry in a file the person edited since (their limit, 1,000 -> 2,000 tokens): its
    MEMDIR_TOOL_OUTPUT_MAX_BYTES = 3900 may be memdir's or theirs; it stays, and doctor says so with the way out.
    Control: the value the old rule writes for the limit now (7,900) is memdir's: it goes, and the note is the
    one that says an older install wrote it."""
    user = isolated_home.parent / "userhome"  # the HOME isolated_home set
    config = user / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    for value, kept in (("3900", True), ("7900", False)):
        config.write_text("tool_output_token_limit = 1000\n")
        codex.install("user", isolated_home, user_home=user, python=PY)
        _as_an_old_install(isolated_home, config, {LEGACY: value}, edited=True)
        config.write_text(config.read_text().replace("= 1000", "= 2000"))
        notes = [n for n in json.loads(run_cli("doctor", "--json").stdout)["notes"] if LEGACY in n]
        said = (f"codex: memdir's server entry in {config} sets {LEGACY} = 3900, which overrides "
                "tool_output_max_bytes; an older `memdir install` wrote that variable and this one keeps it as yours: "
                "if you did not set it, remove the line and run `memdir install codex --scope user` again")
        replaced = (f"codex: memdir's server entry in {config} sets {LEGACY} = 7900 itself (an older `memdir install` "
                    "wrote it), which overrides your own tool_output_max_bytes; run `memdir install codex --scope user` "
                    "again (it states a ceiling instead)")
        assert notes == [said if kept else replaced]
        codex.install("user", isolated_home, user_home=user, python=PY)
        assert _env(config) == ({LEGACY: "3900", CEILING: "7900"} if kept else {CEILING: "7900"})
        codex.uninstall("user", isolated_home, user_home=user)
