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
    """A ``memdir`` distribution in the directory ``site``, as pip leaves one: METADATA, RECORD, and
    direct_url.json when installed from a directory (``url``) — editable or not. An editable install's RECORD
    lists no package file (its package is the checkout's); another's lists ``memdir/__init__.py`` in ``site``."""
    info = site / "memdir-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: memdir\nVersion: 0.1.0\n")
    listed = "__editable__.memdir-0.1.0.pth" if editable else "memdir/__init__.py"
    (info / "RECORD").write_text(f"{listed},,\nmemdir-0.1.0.dist-info/METADATA,,\nmemdir-0.1.0.dist-info/RECORD,,\n")
    if url is not None:
        dir_info = {} if editable is None else {"editable": editable}
        (info / "direct_url.json").write_text(json.dumps({"url": url, "dir_info": dir_info}))


def _runs_from(monkeypatch, package):
    """This process's memdir package is read as the one in the directory ``package``: the records on ``sys.path``
    are matched against it (:data:`memdir.version.PACKAGE`; by path: nothing need be there), the answer read afresh."""
    monkeypatch.setattr(version, "PACKAGE", str(package))
    version._how.clear()


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A directory first on ``sys.path``, so its distribution is the first ``importlib.metadata`` finds, and a
    fresh read of it (the answer is kept once per process); the package read as this process's is the one a
    regular install there has, ``site/memdir`` (an editable one's test says its clone's, :func:`_runs_from`)."""
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    monkeypatch.setattr(version, "_how", [])
    _runs_from(monkeypatch, path / "memdir")
    return path


def test_an_editable_install_names_its_clone(site, tmp_path, monkeypatch):
    clone = tmp_path / "my clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\nname = 'memdir'\n")
    _installed(site, clone.as_uri(), editable=True)
    _runs_from(monkeypatch, clone / "src" / "memdir")
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


def test_a_clone_moved_away_names_the_package(site, tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    _installed(site, gone.as_uri(), editable=True)  # no such directory now: it installs nothing
    _runs_from(monkeypatch, gone / "src" / "memdir")
    assert version.install_command("search") == "pip install 'memdir[search]'"
    # Control: the same record with the clone there names the clone.
    gone.mkdir()
    (gone / "pyproject.toml").write_text("")
    version._how.clear()
    assert version.install_command("search") == f"pip install -e '{gone}[search]'"


def _stale_egg_info(checkout):
    """The ``src/memdir.egg-info`` a build leaves in ``checkout`` (no PEP 610 record; SOURCES.txt names the
    checkout's paths); returns ``checkout/src``."""
    egg = checkout / "src" / "memdir.egg-info"
    egg.mkdir(parents=True)
    (egg / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: memdir\nVersion: 0.1.0\n")
    (egg / "SOURCES.txt").write_text("pyproject.toml\nsrc/memdir/__init__.py\nsrc/memdir/version.py\n")
    return checkout / "src"


def test_a_stale_egg_info_first_on_the_path_is_passed_over_for_the_package_s_own_record(site, tmp_path,
                                                                                       monkeypatch):
    """A checkout installed editable and run with ``PYTHONPATH=src``: its build's ``src/memdir.egg-info`` is the
    first memdir record on ``sys.path``, and was read, so a message named the registry's package. The record
    read is the one that belongs to the package imported (``src/memdir``): the editable install's."""
    from importlib.metadata import distribution

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("")
    _installed(site, checkout.as_uri(), editable=True)
    monkeypatch.syspath_prepend(str(_stale_egg_info(checkout)))
    _runs_from(monkeypatch, checkout / "src" / "memdir")
    assert distribution("memdir").read_text("PKG-INFO")  # the premise: the egg-info is the first record found
    assert version.install_source() == (str(checkout), True)
    assert version.install_command("search") == f"pip install -e '{checkout}[search]'"


def test_controls_a_record_of_another_package_is_passed_over_and_the_egg_info_alone_names_the_registry(
        site, tmp_path, monkeypatch):
    """Controls, each with records beside each other on ``sys.path``: another clone's editable record first on the
    path, beside the package's own regular install (``site``, from a clone too), is passed over for it; the stale
    egg-info with no other record names no checkout (the registry's package, as before)."""
    own, other = tmp_path / "own", tmp_path / "other"
    for clone in (own, other):
        clone.mkdir()
        (clone / "pyproject.toml").write_text("")
    _installed(site, own.as_uri(), editable=False)  # the package's: site/memdir, from the clone "own"
    elsewhere = tmp_path / "elsewhere"
    _installed(elsewhere, other.as_uri(), editable=True)
    monkeypatch.syspath_prepend(str(elsewhere))
    version._how.clear()
    assert version.install_source() == (str(own), False)
    assert version.install_command("mcp") == f"pip install '{own}[mcp]'"
    # the egg-info alone, first on the path: no record of the package says how it was installed
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("")
    monkeypatch.setattr(sys, "path", [str(_stale_egg_info(checkout)), *[p for p in sys.path
                                                                       if p not in (str(site), str(elsewhere))]])
    _runs_from(monkeypatch, checkout / "src" / "memdir")
    assert version.install_source() == ("", False)
    assert version.install_command("search") == "pip install 'memdir[search]'"


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
