"""Take-backs that deny and put something in place, or let a request go on to another fact, and denials in Chinese
and German (rev49c), each through the real paths (the CLI's rules consolidation, the Python API's agent extractor,
the SessionEnd hook) with its control in the same setup:

* "Scratch that. Don't use pnpm for installs, use bun." after "Remember to use pnpm for installs." kept nothing
  (bun lost): now "Don't use pnpm for installs, use bun." is kept, pnpm's request is not;
* "Never mind, the cache is on 6380." after "Remember the db is on port 5433." lost the cache's port: both facts
  are kept, the cache's as the plain statement "The cache is on 6380.";
* "算了，我们不用 pnpm 了" and "Vergiss das, wir nutzen kein pnpm mehr" deny the request (it was kept); 不 inside
  非常, 不错, 不过 denies nothing (controls)."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.consolidation.takeback import (
    another_fact,
    denies_and_puts,
    denies_request,
    negates,
)
from memdir.prompt import pending
from tests.consolidation.test_agent_mode import session_end
from tests.consolidation.test_retraction import _pending_texts, _session, consolidate
from tests.consolidation.test_take_backs import descriptions, said

PNPM = "Remember to use pnpm for installs."
BUN = "Don't use pnpm for installs, use bun."


def agent_findings(isolated_home, project, tmp_path, *turns) -> list[str]:
    """The pending findings the Python API's agent consolidation keeps from ``turns`` (a fresh project layer)."""
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    path = _session(tmp_path, *turns)
    mem.consolidate(path, mode="always", extractor="agent")
    return [i["text"] for i in pending.load(mem.session.layer_path("project"))]


# ---------------------------------------------------------------- a denial with something in its place


@pytest.mark.parametrize("after", ["Scratch that. " + BUN, "Scratch that, don't use pnpm for installs, use bun."])
def test_cli_rules_a_denial_with_a_replacement_keeps_the_replacement(isolated_home, project, after):
    out = consolidate(project, isolated_home, said(PNPM, after))
    assert f"not kept: {PNPM}" in out and f"in its place: Remember: {BUN[0].lower()}{BUN[1:]}" in out
    assert descriptions(isolated_home, project) == [BUN]  # main: [] (bun lost)
    # control, same setup: a denial alone puts nothing in place
    out = consolidate(project, isolated_home, said("Remember to use yarn.", "Scratch that. We don't use yarn."),
                      name="u.txt")
    assert "not kept: Remember to use yarn." in out and descriptions(isolated_home, project) == [BUN]


def test_api_agent_a_denial_with_a_replacement_is_the_finding(isolated_home, project, tmp_path):
    assert agent_findings(isolated_home, project, tmp_path, PNPM, "Scratch that. " + BUN) == [
        "Remember: don't use pnpm for installs, use bun."]


def test_denies_and_puts_needs_both_parts():
    about = [PNPM]
    assert denies_and_puts(about, BUN) and not denies_request(about, BUN)
    assert denies_and_puts(about, "we don't use pnpm anymore but bun")
    assert not denies_and_puts(["Remember to use pnpm."], "we don't use pnpm anymore")  # a denial alone
    assert denies_request(["Remember to use pnpm."], "we don't use pnpm anymore")
    assert not denies_and_puts(about, "we don't use npm")  # another thing denied: nothing of the request's
    assert denies_and_puts(about, "我们不用 pnpm 了，改用 bun") and not denies_and_puts(about, "我们不用 pnpm 了")
    assert denies_and_puts(about, "wir nutzen kein pnpm mehr, sondern bun")
    assert not denies_and_puts(about, "wir nutzen kein pnpm mehr")


def test_a_denial_with_a_remark_after_it_puts_nothing_in_place():
    """A remark after the denial is no replacement (review of rev49c: each was kept as a memory, e.g.
    ``don-use-pnpm-anymore-sadly``); control in the same call: "use bun" in the request's own frame is."""
    about = [PNPM]
    for remark in ("we don't use pnpm anymore, sadly", "don't use pnpm, ever", "we don't use pnpm, it's slow"):
        assert not denies_and_puts(about, remark), remark
    assert denies_and_puts(about, BUN)


def test_cli_rules_a_denial_with_a_remark_keeps_nothing(isolated_home, project):
    out = consolidate(project, isolated_home, said(PNPM, "Scratch that. We don't use pnpm anymore, sadly."))
    assert f"not kept: {PNPM}" in out and descriptions(isolated_home, project) == []
    consolidate(project, isolated_home, said(PNPM, "Scratch that. " + BUN), name="u.txt")  # control
    assert descriptions(isolated_home, project) == [BUN]


# ---------------------------------------------------------------- another fact after "never mind"


def test_api_agent_never_mind_and_another_fact_keeps_both(isolated_home, project, tmp_path):
    assert agent_findings(isolated_home, project, tmp_path, "Remember the db is on port 5433.",
                          "Never mind, the cache is on 6380.") == [
        "Remember the db is on port 5433.", "Remember: the cache is on 6380."]


def test_another_fact_is_a_statement_with_a_value():
    assert another_fact("the cache is on 6380") == "Remember: the cache is on 6380."
    assert another_fact("rerun the tests") is None  # control: no value
    assert another_fact("it's not 5433") is None and another_fact("is the cache on 6380?") is None


def test_another_fact_is_a_setting_not_a_result():
    """A result after "never mind" is no fact to keep (review of rev49c: "Never mind, the tests took 12 minutes."
    made the memory ``tests-took-12-minutes``); controls: settings with a value still are."""
    for result in ("the tests took 12 minutes", "the build is 12 minutes", "it's 3 tests"):
        assert another_fact(result) is None, result
    assert another_fact("the cache is on port 6380") == "Remember: the cache is on port 6380."
    assert another_fact("staging lives at 10.0.0.5") == "Remember: staging lives at 10.0.0.5."


def test_cli_rules_never_mind_and_a_result_keeps_only_the_request(isolated_home, project):
    consolidate(project, isolated_home, said("Remember the db is on port 5433.",
                                             "Never mind, the tests took 12 minutes."))
    assert descriptions(isolated_home, project) == ["The db is on port 5433."]


# ---------------------------------------------------------------- Chinese and German denials


DENIALS = ["算了，我们不用 pnpm 了", "Vergiss das, wir nutzen kein pnpm mehr"]


@pytest.mark.parametrize("denial", DENIALS)
def test_cli_rules_a_chinese_or_german_denial_cancels_the_request(isolated_home, project, denial):
    out = consolidate(project, isolated_home, said(PNPM, denial))
    assert f"not kept: {PNPM}" in out and descriptions(isolated_home, project) == []  # main: pnpm kept
    # control, same setup: no take-back, the request kept
    consolidate(project, isolated_home, said(PNPM, "这个非常不错"), name="u.txt")
    assert descriptions(isolated_home, project) == ["To use pnpm for installs."]


@pytest.mark.parametrize("denial", DENIALS)
def test_api_agent_a_chinese_or_german_denial_leaves_nothing_pending(isolated_home, project, tmp_path, denial):
    assert agent_findings(isolated_home, project, tmp_path, PNPM, denial) == []


def test_api_agent_control_a_take_back_of_no_denial_keeps_the_request(isolated_home, project, tmp_path):
    assert agent_findings(isolated_home, project, tmp_path, PNPM, "算了，pnpm 非常不错") == [PNPM]


def test_a_cjk_negation_is_not_read_inside_words_that_deny_nothing():
    assert negates("我们不用 pnpm 了") and negates("别用 npm") and negates("wir nutzen kein pnpm mehr")
    assert negates("das ist nicht richtig")
    assert not negates("pnpm 非常不错") and not negates("不过我们用 pnpm") and not negates("这个很不错")
    assert not negates("we use pnpm") and not negates("wir nutzen pnpm")
    assert denies_request([PNPM], "我们不用 pnpm 了") and not denies_request([PNPM], "pnpm 非常不错")


@pytest.mark.slow
def test_hook_take_backs_chinese_denial_and_a_replacement(isolated_home, project, tmp_path):
    """The SessionEnd hook (agent extractor, a Claude Code transcript): the Chinese denial leaves nothing pending,
    the denial with bun keeps bun's sentence; control, another session: the request alone stays pending."""
    for sub in "abc":
        (tmp_path / sub).mkdir()
    session_end(project, _session(tmp_path / "a", PNPM, DENIALS[0]), isolated_home)
    assert _pending_texts(isolated_home, project) == []
    session_end(project, _session(tmp_path / "b", PNPM, "Scratch that. " + BUN), isolated_home)
    assert _pending_texts(isolated_home, project) == ["Remember: don't use pnpm for installs, use bun."]
    session_end(project, _session(tmp_path / "c", "Remember to use yarn for scripts."), isolated_home)
    assert _pending_texts(isolated_home, project) == ["Remember: don't use pnpm for installs, use bun.",
                                                      "Remember to use yarn for scripts."]
