"""A pending finding ends when a memory saves it — not when a memory says the opposite (issue 24, §5)."""

import pytest

from memdir import Memory
from memdir.prompt import coverage, pending


@pytest.mark.parametrize("finding, memory, covered", [
    ("Never deploy on Fridays.", "Deploys happen on Fridays", False),
    ("Never deploy on Fridays.", "never-fridays Never deploy on Fridays: releases wait for Monday", True),
    ("Never deploy on Fridays.", "We don't deploy on Fridays", True),
    ("You're confusing lines with spectral orders.", "Lines are not spectral orders", True),  # a correction saved
    ("Deploy on Fridays.", "Deploys happen on Fridays", True),
    ("Fridays: no deploys.", "Deploys happen on Fridays", False),
    ("周五不部署", "周五部署", False),
    ("周五不部署", "周五不部署新版本", True),
])
def test_a_memory_covers_a_negated_finding_only_when_it_negates_it_too(finding, memory, covered):
    assert coverage.covers(finding, memory) is covered


def test_the_opposite_memory_leaves_the_finding_pending_and_the_same_one_ends_it(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    report = person.consolidate([{"role": "user", "content": "Remember: never deploy on Fridays."}],
                                extractor="agent")
    assert report.pending == ("Remember: never deploy on Fridays.",)
    layer = person.session.layer("project").path

    agent = Memory.open(home=isolated_home, project=project, session="s1")
    agent.call_tool("memory_write", {"name": "deploy-day", "type": "project",
                                     "description": "Deploys happen on Fridays", "body": ""})
    assert [i["text"] for i in pending.load(layer)] == ["Remember: never deploy on Fridays."]  # still pending

    agent.call_tool("memory_write", {"name": "no-friday-deploys", "type": "feedback",
                                     "description": "Never deploy on Fridays",
                                     "body": "Why: said by the user.\nHow to apply: wait for Monday."})
    assert pending.load(layer) == []  # the control: saving the finding ends it


DEPLOY_MEMORY = "deploy-cadence\nDeploys weekly. Ask before a deploy to prod."
VIM_MEMORY = "editor\nThe user edits in vim\n**How to apply:** give vim keybindings, not VS Code ones."


@pytest.mark.parametrize("finding, memory, corrected", [
    # a negation ends at its clause: "not pip here" turns nothing after the comma (newuser38)
    ("Use uv not pip here, dev db is on 5433.", "Dev PostgreSQL listens on 5433\nUse uv, never pip", False),
    ("Use uv not pip here; dev db is on 5433.", "Dev PostgreSQL listens on 5433\nUse uv, never pip", False),
    # control: within its clause it still turns the word around
    ("Use uv not pip here, not dev db on 5433.", "Dev PostgreSQL listens on 5433\nUse uv, never pip", True),
    ("Dev db is not on 5433.", "Dev PostgreSQL listens on 5433", True),
    # "like" and "prefer" say the same stance beside a word; "hate" says another (control)
    ("I like terse answers.", "The user prefers terse answers", False),
    ("I use neovim and like terse answers.", "The user uses Neovim and likes terse answers", False),
    ("I hate terse answers.", "The user prefers terse answers", True),
    # a word the memory also writes with a function word beside it ("edits in vim") holds no value on that side:
    # "use vim" is no correction of "give vim keybindings" (newuser44: the sentence the agent saved stayed pending)
    ("I use vim as my editor", VIM_MEMORY, False),
    # control: the side the memory pins wherever it writes "vim" ("vim keybindings"; "vim" ending a line pins none)
    ("Give vim shortcuts.", VIM_MEMORY, True),
    # a function word inside a phrase ("before a deploy to prod") clears no value another occurrence holds:
    # "deploy daily" corrects "deploys weekly" (fix45s: it read as no correction), a restatement does not (control)
    ("We deploy daily.", DEPLOY_MEMORY, True),
    ("We deploy weekly.", DEPLOY_MEMORY, False),
])
def test_a_correction_is_read_within_its_clause_and_a_liking_is_a_preference(finding, memory, corrected):
    assert coverage.corrects(finding, memory) is corrected


@pytest.mark.parametrize("stem, read", [
    # one final "s" that is an ending goes: a short word's third person or plural is the word itself
    ("uses", "use"), ("loads", "load"), ("runs", "run"), ("likes", "prefe"), ("loves", "prefe"),
    # an "s" after another, or in a word of three letters, is no ending (rstrip("s") made "pass" "pa")
    ("pass", "pass"), ("class", "class"), ("less", "less"), ("gas", "gas"), ("bus", "bus"),
    ("use", "use"),
])
def test_a_liking_and_one_final_s_are_read_as_one_word_beside_a_value(stem, read):
    assert coverage._stance({stem}) == {read}


def test_words_that_differ_by_an_s_of_their_own_are_two_values():
    # "pass" and "pas" were one word ("pa") to rstrip("s"): "runs pas" was no other value than "runs pass"
    assert coverage.corrects("The linter runs one pass.", "The linter runs one pas.")
    assert not coverage.corrects("The linter runs one pass.", "The linter run one pass.")  # control: "runs" is "run"


def test_a_memory_putting_the_same_value_right_in_other_words_saves_the_finding(isolated_home, project):
    """newuser49, in a real Claude Code session: the person said "Actually the dev database port is 5434 now, not
    5433."; the next session's agent saved "Dev PostgreSQL listens on 5434, not 5433" and the finding stayed pending
    ("dev database" beside "dev PostgreSQL" read as another value), so the agent was asked to save it again. A memory
    that puts the same value right ("5434, not 5433") saves it; the controls, another value or the pair turned
    around, leave it pending."""
    memory = coverage.memory_text("db-port", "Dev PostgreSQL listens on 5434, not 5433", "Moved on 2026-11-02.")
    said = "The dev database port is 5434 now, not 5433."
    assert coverage.saves(said, memory) is True
    assert coverage.saves("The dev database port is 5435 now, not 5433.", memory) is False  # another value
    assert coverage.saves("The dev database port is 5433, not 5434.", memory) is False  # turned around
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    report = person.consolidate([{"role": "user", "content": "Actually the dev database port is 5434 now, not 5433."}],
                                extractor="agent")
    assert report.pending == ("The dev database port is 5434 now, not 5433.",)
    layer = person.session.layer("project").path
    agent = Memory.open(home=isolated_home, project=project, session="s1")
    agent.call_tool("memory_write", {"name": "db-port", "description": "Dev PostgreSQL listens on 5435, not 5433"})
    assert [i["text"] for i in pending.load(layer)] == [said]  # control: another value leaves it pending
    agent.call_tool("memory_write", {"name": "db-port", "description": "Dev PostgreSQL listens on 5434, not 5433"})
    assert pending.load(layer) == []  # the same value put right ends it


def test_a_memory_putting_the_same_value_right_about_another_thing_saves_nothing():
    """break50a: int49 read any memory stating the finding's "5434, not 5433" as saving it, so a finding about the
    test database was dropped as saved by the memory about the dev database (and staging by prod, the dev server by
    the dev database). Another word beside a word both say is another thing; the memory's own name for the thing
    ("dev PostgreSQL" for "dev database") is not, the control in the same setup."""
    dev_db = coverage.memory_text("db-port", "Dev database port: 5434, not 5433")
    assert coverage.saves("The test database port is 5434 now, not 5433.", dev_db) is False
    assert coverage.saves("The dev database port is 5434 now, not 5433.", dev_db) is True  # control: same thing
    assert coverage.saves("The dev server port is 5434 now, not 5433.", dev_db) is False
    prod = coverage.memory_text("python", "The prod server runs 3.12, not 3.11")
    assert coverage.saves("The staging server runs 3.12, not 3.11.", prod) is False
    assert coverage.saves("The prod server runs 3.12 now, not 3.11.", prod) is True  # control
    named = coverage.memory_text("db-port", "Dev PostgreSQL listens on 5434, not 5433")
    assert coverage.saves("The dev database port is 5434 now, not 5433.", named) is True  # the memory's name for it
    # a finding saying more than the pair: the rest is no memory's (it was dropped with the pair)
    assert coverage.saves("The dev database port is 5434 now, not 5433; staging stays on 5433.", named) is False
