"""``layer.commit.cut_write`` finds the version a writer killed holding the lock stored but never journaled
by the name its frontmatter declares, read by the one frontmatter reader (:func:`memdir.files.memfile.declared_name`),
not by guessing the name line's bytes: quoted, spaced, flow-style and with another key first, the name is
still recognised; a version of another memory, one the journal names and the hand edit's own are not
(the controls)."""

from __future__ import annotations

import time

import pytest

from memdir.layer.commit import cut_write
from memdir.layer.journal import Journal

SPELLINGS = {
    "double quotes, spaces after the colon": '---\nname:    "deploy-day"\ndescription: deploys on Tuesday\n---\n\nb\n',
    "another key first, single quotes": "---\ndescription: deploys on Tuesday\nname: 'deploy-day'\n---\n\nb\n",
    "a flow mapping": "---\n{name: deploy-day, description: deploys on Tuesday}\n---\n\nb\n",
    "as memdir writes it": "---\nname: deploy-day\ndescription: deploys on Tuesday\n---\n\nb\n",
}


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_killed_writer_s_version_is_found_by_the_name_its_frontmatter_declares(tmp_path, spelling):
    journal = Journal(tmp_path / ".memdir")
    died_at = time.time_ns() - 1_000_000_000
    other = journal.put_object(b"---\nname: release-day\ndescription: deploys on Tuesday\n---\n\nb\n")
    key = journal.put_object(SPELLINGS[spelling].encode())
    assert cut_write(journal, "deploy-day", died_at, lambda k: False, "0" * 64) == key  # before: None but memdir's
    # controls: another memory's version is never taken for it, nor one the journal names, nor the hand edit's
    assert cut_write(journal, "release-day", died_at, lambda k: k != other, "0" * 64) == other
    assert cut_write(journal, "deploy-day", died_at, lambda k: k == key, "0" * 64) is None
    assert cut_write(journal, "deploy-day", died_at, lambda k: False, key) is None
    assert cut_write(journal, "deploy-day", None, lambda k: False, "0" * 64) is None  # no dead holder: no listing
