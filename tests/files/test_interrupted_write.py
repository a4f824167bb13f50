"""A write interrupted before its rename leaves the old file and no temp file: break26 sent SIGINT to
``memdir import jsonl`` mid-run and found ``.s-168.md.<random>.tmp`` files left in the layer
(``files.fsio.atomic_write`` removed its temp file on a disk error only)."""

from __future__ import annotations

import pytest

from memdir.errors import StoreError
from memdir.files.fsio import atomic_write


def _interrupt():
    raise KeyboardInterrupt  # what SIGINT raises in the main thread, here once the new bytes are on disk


def test_an_interrupted_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path):
    layer = tmp_path / "layer"
    layer.mkdir()
    target = layer / "deploy.md"
    atomic_write(target, b"first")  # control: a write that runs through replaces the file
    atomic_write(target, b"second")
    assert target.read_bytes() == b"second" and sorted(p.name for p in layer.iterdir()) == ["deploy.md"]

    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, b"third", before_replace=_interrupt)
    assert target.read_bytes() == b"second"
    assert sorted(p.name for p in layer.iterdir()) == ["deploy.md"]


def test_a_refused_backup_fails_the_write_with_no_temp_file(tmp_path):
    layer = tmp_path / "layer"
    layer.mkdir()
    target = layer / "deploy.md"
    atomic_write(target, b"kept")

    def refuse():
        raise StoreError("the backup could not be taken")

    with pytest.raises(StoreError, match="backup could not be taken"):
        atomic_write(target, b"lost?", before_replace=refuse)
    assert target.read_bytes() == b"kept" and sorted(p.name for p in layer.iterdir()) == ["deploy.md"]
