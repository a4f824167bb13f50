"""The recall evaluation's ``common.py``, loaded by the slow tests' helper (tests/search/evalstore.py), leaves
``sys.path`` as it was: the script puts its checkout's ``src`` first, where an editable build leaves
``memdir.egg-info`` (no PEP 610 record), and left there every later read of how memdir was installed in the test
process found that record and named the registry's package instead of the checkout (that read now passes over a
record of no package it imported: tests/base/test_install_command.py)."""

from __future__ import annotations

import json
import shutil
import sys
from importlib.metadata import distribution

from memdir import version
from tests.search import evalstore


def test_loading_the_evaluations_common_keeps_sys_path_and_the_install_read(tmp_path, monkeypatch):
    # A checkout laid out as this one: evals/recall/common.py, and src/ holding the egg-info a build leaves.
    checkout = tmp_path / "checkout"
    (checkout / "evals" / "recall").mkdir(parents=True)
    shutil.copy(evalstore.EVALS / "common.py", checkout / "evals" / "recall" / "common.py")
    egg = checkout / "src" / "memdir.egg-info"
    egg.mkdir(parents=True)
    (egg / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: memdir\nVersion: 0.1.0\n")
    # The install this process runs from: an editable one of a clone, first on sys.path.
    clone, site = tmp_path / "clone", tmp_path / "site"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("")
    info = site / "memdir-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: memdir\nVersion: 0.1.0\n")
    (info / "direct_url.json").write_text(json.dumps({"url": clone.as_uri(), "dir_info": {"editable": True}}))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(evalstore, "EVALS", checkout / "evals" / "recall")
    monkeypatch.setattr(version, "_how", [])
    monkeypatch.setattr(version, "PACKAGE", str(clone / "src" / "memdir"))  # the package runs from the clone
    before = list(sys.path)

    common = evalstore.eval_common("recall_eval_common_path")

    assert common.REPO == checkout and callable(common.build_store)  # the checkout's common.py was run
    assert sys.path == before
    assert version.install_source() == (str(clone), True)
    # Control: with the checkout's src first, as common.py leaves it when run, the egg-info is the first record found
    # (it was the one read, which named the registry's package); read now is the record of the package imported.
    version._how.clear()
    monkeypatch.syspath_prepend(str(checkout / "src"))
    assert distribution("memdir").read_text("PKG-INFO") is not None  # the egg-info's file (a dist-info has METADATA)
    assert version.install_source() == (str(clone), True)
