"""Imports from sources a person did not make with memdir's import in mind (break round 26).

* A folder of another layer's files (a copied ``projects/<key>/``) holds candidates waiting for a
  person's review and superseded memories: a candidate stays a candidate (it never reaches the
  prompt unreviewed), a superseded memory is not brought back to life.
* An export's line naming a layer this session cannot use (the team layer of another repository)
  is skipped with the reason; the rest of the file is imported, not cut off halfway.
* A line whose name is reserved says so, not "it needs a name".
"""

from __future__ import annotations

import json

from memdir import Memory


def _other_layer(tmp_path, isolated_home) -> tuple:
    """A second project with an active memory, a candidate and a superseded one; its layer folder."""
    other = tmp_path / "work" / "other"
    (other / ".git").mkdir(parents=True)
    them = Memory.open(home=isolated_home, project=other, actor="human")
    them.write("alpha", "Alpha listens on 7000", "project", "old alpha")
    them.write("gamma", "Gamma replaced alpha, on 7001", "project", "new", supersedes="alpha")
    them.write("beta", "Beta proposal nobody approved", "project", "unreviewed", status="candidate")
    states = {key: entry.record.status for key, entry in them.session.layer("project").scan().entries.items()}
    assert states == {"alpha": "superseded", "beta": "candidate", "gamma": "active"}  # the source as meant
    return them.session.layer("project").path


def test_a_folder_candidate_stays_a_candidate_and_a_superseded_memory_stays_out(tmp_path, isolated_home, person):
    folder = _other_layer(tmp_path, isolated_home)
    report = person.import_from("dir", str(folder))
    by_source = {o.source: (o.name, o.result) for o in report.outcomes}
    assert by_source["gamma.md"] == ("gamma", "imported")  # control: the active memory arrives
    assert by_source["beta.md"] == ("beta", "candidate")
    assert by_source["alpha.md"] == (None, "skipped")
    assert person.read("beta").record.status == "candidate"
    listed = {key: entry.record.status for key, entry in person.session.layer("project").scan().entries.items()}
    assert listed == {"beta": "candidate", "gamma": "active"}
    context = person.context()
    assert "Gamma replaced alpha" in context  # control: what was live at the source is injected
    assert "Beta proposal" not in context and "Alpha listens" not in context


def test_a_jsonl_candidate_stays_a_candidate_and_a_superseded_line_is_skipped(tmp_path, person):
    lines = [{"name": "live-one", "description": "A live fact from the export"},
             {"name": "proposed", "description": "A proposal waiting for review", "status": "candidate"},
             {"name": "retired", "description": "A retired fact", "status": "superseded"}]
    path = tmp_path / "memories.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = person.import_from("jsonl", str(path))
    assert [(o.name, o.result) for o in report.outcomes] == [("live-one", "imported"), ("proposed", "candidate"),
                                                            (None, "skipped")]
    assert "superseded at its source" in report.outcomes[2].detail
    context = person.context()
    assert "A live fact from the export" in context and "A proposal waiting" not in context


def test_an_export_line_of_an_unusable_layer_is_skipped_and_the_rest_imported(tmp_path, person):
    lines = [{"scope": "project", "name": "before", "description": "The line before the team line"},
             {"scope": "team", "name": "team-rule", "description": "A team rule from another repository"},
             {"scope": "user", "name": "after", "description": "The line after the team line", "type": "user"}]
    path = tmp_path / "memories.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = person.import_from("jsonl", str(path))
    assert [(o.name, o.scope, o.result) for o in report.outcomes] == [
        ("before", "project", "imported"), ("team-rule", "team", "skipped"), ("after", "user", "imported")]
    assert "team scope unavailable" in report.outcomes[1].detail
    assert {m.name for m in person.list().memories} == {"before", "after"}


def test_an_import_into_an_unusable_layer_is_refused_before_anything_is_written(tmp_path, person):
    from memdir.errors import ScopeError

    path = tmp_path / "memories.jsonl"
    path.write_text(json.dumps({"name": "one", "description": "First line"}) + "\n", encoding="utf-8")
    try:
        person.import_from("jsonl", str(path), scope="team")
    except ScopeError as exc:
        assert "team scope unavailable" in str(exc)
    else:
        raise AssertionError("an import into a missing team layer was not refused")
    assert person.list().memories == ()
    assert [o.result for o in person.import_from("jsonl", str(path)).outcomes] == ["imported"]  # control


def test_a_reserved_name_says_so(tmp_path, person):
    path = tmp_path / "memories.jsonl"
    path.write_text(json.dumps({"name": "con", "description": "A device name"}) + "\n"
                    + json.dumps({"name": "fine", "description": "An ordinary name"}) + "\n", encoding="utf-8")
    first, second = person.import_from("jsonl", str(path)).outcomes
    assert (first.result, second.result) == ("skipped", "imported")
    assert "reserved" in first.detail and "needs a name" not in first.detail
