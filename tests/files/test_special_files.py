"""Files that are not regular files where a memory may be (issue 10, trial
items 7 and 9): a FIFO named like a memory never hangs a write (nor holds the
layer lock): it is refused with a clear error; a symlinked ``x.md`` is never
read through, so its outside target is not copied into ``objects/``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.errors import Conflict, StoreError
from memdir.files.fsio import read_bytes

FIFO_SAYS = "fifo.md is a FIFO, not a memory file; memdir does not open or replace it"


@pytest.fixture
def mem(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("port", "Dev DB listens on 5433", "project")
    return mem


@pytest.mark.slow
def test_a_fifo_named_like_a_memory_is_refused_without_hanging(mem, project):
    layer = mem.session.layer("project")
    os.mkfifo(layer.path / "fifo.md")
    out = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "write", "fifo",
                          "-d", "over a fifo", "-t", "project"], capture_output=True, text=True, timeout=30)
    assert out.returncode != 0 and FIFO_SAYS in out.stderr
    with pytest.raises(StoreError, match=FIFO_SAYS):
        mem.write("fifo", "over a fifo", "project")
    assert (layer.path / "fifo.md").is_fifo()  # left as it was
    # Control: the lock is free and the layer otherwise works; reads do not hang either.
    assert mem.write("runner", "Tests run with pytest", "project").operation == "created"
    assert [m.name for m in mem.list().memories] == ["port", "runner"]
    assert read_bytes(layer.path / "fifo.md") is None


def test_writing_over_a_symlinked_memory_never_copies_its_target(mem, tmp_path):
    layer = mem.session.layer("project")
    outside = tmp_path / "outside.md"
    outside.write_text("---\nname: s\ndescription: a secret kept outside\ntype: project\n---\n")
    os.symlink(outside, layer.path / "s.md")
    # left25: the write is refused, the link kept (before: replaced by a regular file, the link lost silently)
    with pytest.raises(Conflict, match="is a symbolic link to .*, outside the layer; memdir writes nothing outside"):
        mem.write("s", "over a symlink", "project")
    objects = layer.meta / "objects"
    stored = [p.read_bytes() for p in objects.iterdir()] if objects.is_dir() else []
    assert not any(b"a secret kept outside" in data for data in stored)
    assert "a secret kept outside" in outside.read_text()  # the target is untouched
    assert (layer.path / "s.md").is_symlink() and read_bytes(layer.path / "s.md", follow=False) is None
    assert mem.write("s2", "beside a symlink", "project").operation == "created"  # control: another name is written
    assert any(b"beside a symlink" in p.read_bytes() for p in objects.iterdir())
    os.symlink(outside, tmp_path / "link")
    assert read_bytes(tmp_path / "link", follow=False) is None and read_bytes(tmp_path / "link") is not None


def test_a_foreign_file_is_read_only_when_it_is_a_regular_file_within_its_cap(tmp_path):
    """The one rule for reading a file memdir did not write (an import's source, a transcript, a workspace
    file): a FIFO, a device, a directory, a link not to be followed or an oversize file is told, never read."""

    from memdir.files.fsio import DIRECTORY, LINK, MISSING, NOT_REGULAR, Foreign, read_foreign
    from tests.fifo import fifo

    plain = tmp_path / "plain.md"
    plain.write_bytes(b"0123456789")
    assert read_foreign(plain, 10) == Foreign(b"0123456789")  # control: read whole, at the cap
    assert read_foreign(plain, 9) == Foreign(None, "larger than 9 bytes")
    assert read_foreign(plain, 4, head=True) == Foreign(b"0123")  # the first bytes, when asked for
    assert read_foreign(tmp_path / "gone.md", 10) == Foreign(None, MISSING)
    assert read_foreign(tmp_path, 10) == Foreign(None, DIRECTORY)
    assert read_foreign("/dev/null", 10) == Foreign(None, NOT_REGULAR)
    (tmp_path / "link.md").symlink_to(plain)
    assert read_foreign(tmp_path / "link.md", 10, follow=False) == Foreign(None, LINK)
    assert read_foreign(tmp_path / "link.md", 10) == Foreign(b"0123456789")
    with fifo(tmp_path / "pipe.md") as pipe:
        assert read_foreign(pipe, 10) == Foreign(None, NOT_REGULAR)
        assert read_foreign(pipe, 10, head=True) == Foreign(None, NOT_REGULAR)
    assert (NOT_REGULAR, LINK) == ("not a regular file", "a symbolic link (not followed)")
