"""The team layers' journal directories under a home are found where such a layer keeps its journal
(``Layer.meta``, :func:`memdir.layer.layer.meta_dir`), not by spelling ``.memdir`` again (paths did);
a local side with no journal directory is not listed (the control)."""

from __future__ import annotations

from memdir.layer.layer import Layer
from memdir.layer.team import CANDIDATE_DIR, team_journal_dirs
from memdir.paths import TEAM_DIR
from memdir.settings import Settings


def test_team_journal_dirs_are_where_each_layer_keeps_its_journal(tmp_path):
    base = tmp_path / TEAM_DIR
    kept, waiting, bare = base / "aaa-1", base / "bbb-2" / CANDIDATE_DIR, base / "ccc-3"
    layers = [Layer(path, "team", Settings()) for path in (kept, waiting)]
    for layer in layers:
        layer.meta.mkdir(parents=True)
    bare.mkdir()
    assert team_journal_dirs(tmp_path) == [layer.meta for layer in layers]
    assert [meta.parent for meta in team_journal_dirs(tmp_path)] == [kept, waiting]  # not ccc-3: no journal
    assert team_journal_dirs(tmp_path / "nowhere") == []
