"""A free variant of a name is one rule (:func:`memdir.gateway.fields.free_name`): the first free
``<name>-<suffix>``, ``<name>-<suffix>-2``… cut so that it never exceeds ``MAX_NAME_CHARS`` (64) and
never leaves a ``-`` before the suffix. Every path that makes one — a candidate beside a live memory
(the agent's, consolidation's), consolidation's ``-v2``, an import's ``-import`` candidate (also for
the team), an import's colliding names, the distinct name a refusal suggests — gives a long name the
same, valid name. The long names here are 63–64 characters, each with a ``-`` where an older cut ended."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.consolidation.proposals import Proposal
from memdir.errors import Conflict
from memdir.gateway.fields import free_name
from memdir.text.names import MAX_NAME_CHARS, normalize_name
from tests.conftest import run_cli
from tests.scripted import Scripted

BACKUP = "the-nightly-staging-database-backup-is-kept-for-two-weeks-in-s3"  # 63; a cut at 52 or 58 ends in '-'
RELEASE = "release-notes-are-drafted-from-merged-pull-requests-every-friday"  # 64; a cut at 52 ends in '-'
MONTH = "the-staging-database-backup-runs-nightly-and-is-kept-for-a-month"  # 64; a cut at 57 ends in '-'


def say(text: str) -> list[dict]:
    return [{"role": "user", "content": f"Remember: {text}"}]


def valid(name: str) -> bool:
    """A name its own normalization leaves alone (so it reads back by its own spelling)."""
    return len(name) <= MAX_NAME_CHARS and normalize_name(name).name == name


def test_the_rule_cuts_the_base_for_the_whole_tail_and_numbers_from_2():
    assert free_name("db-port", "candidate", lambda name: False) == "db-port-candidate"
    assert free_name("db-port", "candidate", {"db-port-candidate"}.__contains__) == "db-port-candidate-2"
    assert free_name("db-port", "", {"db-port"}.__contains__) == "db-port-2"
    eleventh = free_name(RELEASE, "candidate", lambda name: not name.endswith("-11"))  # ten taken before it
    assert eleventh == "release-notes-are-drafted-from-merged-pull-requests-candidate-11"
    assert valid(eleventh) and len(eleventh) == 64
    assert free_name(BACKUP, "v2") == "the-nightly-staging-database-backup-is-kept-for-two-weeks-in-v2"  # no taken
    assert free_name("db-port", "candidate", lambda name: True, most=3) is None  # the caller says why


def test_an_agent_candidate_beside_a_person_s_long_memory_has_a_valid_name(isolated_home, project, person):
    person.write(BACKUP, "Staging backups are kept two weeks", "project", "In s3://backups/staging.")
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    proposed = agent.write(BACKUP, "Staging backups are kept three weeks", status="candidate")
    assert (proposed.name, proposed.status) == ("the-nightly-staging-database-backup-is-kept-for-two-we-candidate",
                                                "candidate")
    candidate = person.read(proposed.name, count=False).record
    assert (candidate.description, dict(candidate.extra)["candidate_for"]) == (
        "Staging backups are kept three weeks", BACKUP)
    assert person.read(BACKUP, count=False).record.description == "Staging backups are kept two weeks"  # control
    again = agent.write(BACKUP, "Staging backups are kept four weeks", status="candidate")
    assert again.name == proposed.name  # the pending candidate is what a further proposal changes
    assert [c.name for c in person.review().candidates] == [proposed.name]


def test_a_consolidation_candidate_for_a_person_s_long_memory_has_a_valid_name(isolated_home, project, person):
    person.write(RELEASE, "Release notes are drafted on Fridays", "project", "From merged pull requests.")
    update = Proposal("update", target=RELEASE, description="Release notes are drafted on Thursdays",
                      body="From merged pull requests.")
    expected = "release-notes-are-drafted-from-merged-pull-requests-ev-candidate"
    dry = person.consolidate(say("release notes moved to Thursdays."), extractor=Scripted(update), dry_run=True)
    assert (dry.outcomes[0].result, dry.outcomes[0].name) == ("would-candidate", expected)
    outcome = person.consolidate(say("release notes moved to Thursdays."), extractor=Scripted(update)).outcomes[0]
    assert (outcome.result, outcome.name, outcome.target) == ("candidate", expected, RELEASE)
    assert person.read(expected, count=False).record.description == "Release notes are drafted on Thursdays"
    assert person.read(RELEASE, count=False).record.description == "Release notes are drafted on Fridays"


def test_consolidation_supersedes_its_own_long_memory_with_a_valid_v2_name(isolated_home, project, person):
    create = Proposal("create", name=BACKUP, description="Staging backups are kept two weeks",
                      body="In s3://backups/staging.")
    assert person.consolidate(say("staging backups: two weeks."), extractor=Scripted(create)).outcomes[0].result \
        == "created"
    supersede = Proposal("supersede", target=BACKUP, description="Staging backups are kept a month",
                         body="In s3://backups/staging, since the audit.")
    outcome = person.consolidate(say("staging backups: a month now."), extractor=Scripted(supersede)).outcomes[0]
    expected = "the-nightly-staging-database-backup-is-kept-for-two-weeks-in-v2"
    assert (outcome.result, outcome.name, outcome.target) == ("superseded", expected, BACKUP)
    assert person.read(expected, count=False).record.supersedes == BACKUP
    assert person.read(BACKUP, count=False).record.superseded_by == expected


def _source(tmp_path, files: dict[str, str]):
    source = tmp_path / "exported"
    source.mkdir(exist_ok=True)
    for name, description in files.items():
        (source / name).write_text(f"---\ndescription: {description}\ntype: project\n---\nKept in s3.\n")
    return source


@pytest.mark.slow
def test_an_import_candidate_for_a_long_name_has_a_valid_name(isolated_home, project, tmp_path, person):
    source = _source(tmp_path, {f"{MONTH}.md": "Staging backups are kept a month"})
    out = run_cli("--project", project, "import", "dir", source)
    assert f"imported         {MONTH} (project)" in out.stdout, out.stdout + out.stderr
    person.write(MONTH, "Staging backups are kept five weeks")  # a person's change since
    _source(tmp_path, {f"{MONTH}.md": "Staging backups are kept six weeks"})
    out = run_cli("--project", project, "import", "dir", source)
    expected = "the-staging-database-backup-runs-nightly-and-is-kept-for-import"
    assert f"candidate        {expected} (project)" in out.stdout, out.stdout + out.stderr
    assert person.read(expected, count=False).record.description == "Staging backups are kept six weeks"
    assert person.read(MONTH, count=False).record.description == "Staging backups are kept five weeks"


def test_a_team_import_candidate_for_a_long_name_has_a_valid_name(isolated_home, project, tmp_path, person):
    person.team_init()
    person.write(MONTH, "Staging backups are kept five weeks", "project", "Kept in s3.", scope="team")
    source = _source(tmp_path, {f"{MONTH}.md": "Staging backups are kept six weeks"})
    report = person.import_from("dir", str(source), scope="team")
    expected = "the-staging-database-backup-runs-nightly-and-is-kept-for-import"
    assert [(o.result, o.name, o.scope) for o in report.outcomes] == [("candidate", expected, "team")]
    assert [c.name for c in person.review("team").candidates] == [expected]
    assert person.read(MONTH, "team", count=False).record.description == "Staging backups are kept five weeks"


def test_colliding_long_names_in_one_import_get_valid_numbered_names(isolated_home, project, tmp_path, person):
    spaced = MONTH.replace("-", " ").title()  # normalizes to MONTH
    source = _source(tmp_path, {f"{MONTH}.md": "Staging backups are kept a month",
                                f"{spaced}.md": "Production backups are kept a year"})
    report = person.import_from("dir", str(source))
    assert sorted((o.result, o.name) for o in report.outcomes) == [
        ("imported", "the-staging-database-backup-runs-nightly-and-is-kept-for-a-mon-2"), ("imported", MONTH)]


def test_the_distinct_name_a_refusal_suggests_for_a_long_name_is_valid(isolated_home, project, person):
    port = "dev-postgresql-for-the-billing-service-listens-on-port-5433-now"  # 63; a cut at 60 ends in '-'
    person.write(port, "Dev PostgreSQL for billing listens on 5433", "project")
    with pytest.raises(Conflict, match="choose a distinct name such as "
                                       "'dev-postgresql-for-the-billing-service-listens-on-port-5433-no-2'"):
        person.write(port.replace("-now", "!now"), "Dev PostgreSQL for billing listens on 5434", "project")
    assert person.read(port, count=False).record.description == "Dev PostgreSQL for billing listens on 5433"


def test_the_rules_extractor_names_two_subjects_sharing_their_first_words_validly(isolated_home, project, person):
    """Two statements whose first five content words make one 48-character name (the rules extractor's
    ``name_for``) are two proposals: the second gets the first free ``-2`` variant, a valid name (a cut
    at 44 left ``…json--2``)."""
    first = "Always regenerate internationalization json catalogs before tagging a release, so translators see them."
    second = "Always regenerate internationalization json catalogs with the extract script, never by editing files."
    report = person.consolidate([{"role": "user", "content": first}, {"role": "user", "content": second}],
                                extractor="rules")
    base = "always-regenerate-internationalization-json-cata"
    assert [(p.action, p.name) for p in report.proposals] == [("create", base), ("create", f"{base}-2")]
    assert [(o.result, o.name) for o in report.outcomes] == [("created", base), ("created", f"{base}-2")]
