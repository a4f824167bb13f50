"""The command a message names to add an extra follows how memdir was installed (left32): from a clone with
``pip install -e .`` (the README's way) it is ``pip install -e '<clone>[search]'``, since ``pip install
'memdir[search]'`` asks a package registry instead. Each case is a real distribution on ``sys.path`` with
the PEP 610 ``direct_url.json`` pip writes, read through ``importlib.metadata`` as memdir reads its own."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from memdir import version
from memdir.errors import MissingExtra

from ..conftest import REPO


def _installed(site, url=None, editable=None):
    """A ``memdir`` distribution in the directory ``site``, as pip leaves one: METADATA, and direct_url.json
    when installed from a directory (``url``) — editable or not."""
    info = site / "memdir-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: memdir\nVersion: 0.1.0\n")
    if url is not None:
        dir_info = {} if editable is None else {"editable": editable}
        (info / "direct_url.json").write_text(json.dumps({"url": url, "dir_info": dir_info}))


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A directory first on ``sys.path``, so its distribution is the one ``importlib.metadata`` finds,
    and a fresh read of it (the answer is kept once per process)."""
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    monkeypatch.setattr(version, "_how", [])
    return path


def test_an_editable_install_names_its_clone(site, tmp_path):
    clone = tmp_path / "my clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\nname = 'memdir'\n")
    _installed(site, clone.as_uri(), editable=True)
    assert version.install_source() == (str(clone), True)
    assert version.install_command("search") == f"pip install -e '{clone}[search]'"
    assert str(MissingExtra("search", "search", "snowballstemmer")) == (
        f"search needs the 'snowballstemmer' package, which is not installed: pip install -e '{clone}[search]'")


def test_a_plain_install_from_a_clone_names_it_without_e(site, tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("")
    _installed(site, clone.as_uri(), editable=False)
    assert version.install_command("mcp") == f"pip install '{clone}[mcp]'"


def test_a_registry_install_or_a_gone_clone_names_the_package(site, tmp_path):
    _installed(site)  # from a registry or a wheel: no direct_url.json
    assert version.install_command("vectors") == "pip install 'memdir[vectors]'"
    assert str(MissingExtra("search", "search", "snowballstemmer")).endswith(": pip install 'memdir[search]'")


def test_a_clone_moved_away_names_the_package(site, tmp_path):
    gone = tmp_path / "gone"
    _installed(site, gone.as_uri(), editable=True)  # no such directory now: it installs nothing
    assert version.install_command("search") == "pip install 'memdir[search]'"
    # Control: the same record with the clone there names the clone.
    gone.mkdir()
    (gone / "pyproject.toml").write_text("")
    version._how.clear()
    assert version.install_command("search") == f"pip install -e '{gone}[search]'"


@pytest.mark.slow
def test_the_cli_from_this_checkout_names_the_checkout(tmp_path):
    # This test suite runs from an editable install of this checkout (the README's pip install -e); a
    # missing extra is hidden as Python sees one that cannot be imported.
    direct = json.loads(__import__("importlib.metadata").metadata.distribution("memdir").read_text("direct_url.json"))
    if not direct.get("dir_info", {}).get("editable"):
        pytest.skip("memdir is not installed editable here: the case is the clone's")
    code = ("import sys; sys.modules['snowballstemmer'] = None; from memdir.integrations.cli.main import main; "
            "sys.exit(main(['search', 'port']))")
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode != 0
    assert done.stderr.strip() == ("memdir: search needs the 'snowballstemmer' package, which is not installed: "
                                   f"pip install -e '{REPO}[search]'")
    # not the registry's package (a clone named memdir ends in "memdir[search]'" too: the quote tells them apart)
    assert "'memdir[search]'" not in done.stderr and "[search]" in done.stderr  # control: the extra is named
