"""The FIFO helper of the never-block tests (tests/fifo.py) tells a reader that blocked from one that did not,
with no wall-clock limit."""

from __future__ import annotations

import os

import pytest

from tests.fifo import fifo


def test_a_reader_that_blocks_on_the_fifo_fails_the_block(tmp_path):
    with pytest.raises(AssertionError, match="a reader blocked on the FIFO"):
        with fifo(tmp_path / "pipe", after=0.2) as pipe:
            assert pipe.read_bytes() == b""  # blocked on the open until released, then end-of-file


def test_a_reader_that_only_looks_at_the_fifo_passes(tmp_path):
    with fifo(tmp_path / "pipe", after=0.2) as pipe:  # control: stat, no open
        assert pipe.is_fifo() and not pipe.is_file() and os.stat(pipe).st_size == 0
