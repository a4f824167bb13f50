"""Take-backs read by what they name (take46), each through the real path (the CLI's rules consolidation, the
SessionEnd hook's agent extractor) with its control in the same setup:

* a correction of one of two values puts right the one its words place ("Sorry, the db is on port 5434." after
  "Remember: the db is on port 5433 and the cache on port 6379." → db 5434, cache 6379 kept), and one that names
  no place ("Sorry, it's port 5434.") is neither applied nor dropped: the request and the correction are held
  pending for a person (main: the wrong pair was saved as it was);
* "Forget that — we don't use npm" names another thing than "Remember to use pnpm.": nothing cancelled (main:
  pnpm lost);
* "Scratch that. We deploy on Thursdays.": the replacement in the next sentence is kept (main: nothing kept);
* "Never mind, the cache is on 6380." is no rule "never …" (main: never-cache-6380, a directive);
* said_before is linear and answers as before; wrong_and_right's subject is the subject's phrase."""

from __future__ import annotations

import json
import random
import time

import pytest

from memdir.consolidation.gate import (
    Sentences,
    check,
    said_before,
    said_hits,
    sentence_rules,
    sentences,
)
from memdir.consolidation.retraction import (
    correction,
    subject_phrase,
    withdrawn,
    wrong_and_right,
)
from memdir.consolidation.takeback import denies_request
from memdir.consolidation.transcripts import Transcript, Turn
from tests.conftest import run_cli
from tests.consolidation.test_agent_mode import session_end
from tests.consolidation.test_retraction import (
    _pending_texts,
    _session,
    consolidate,
    names,
)

TWO_PORTS = "Remember: the db is on port 5433 and the cache on port 6379."
HELD = (f"{TWO_PORTS} Then: \u201cSorry, it's port 5434.\u201d Which of 5433 or 6379 it puts right is not clear: "
        "ask the person.")


def transcript(*said) -> Transcript:
    turns = []
    for text in said:
        turns += [Turn("user", text), Turn("assistant", "ok")]
    return Transcript(tuple(turns[:-1]), "text", "digest")


def said(*turns) -> str:
    return "".join(f"USER: {text}\nASSISTANT: ok\n" for text in turns)


def descriptions(isolated_home, project) -> list[str]:
    from memdir import Memory

    return sorted(m.description for m in Memory.open(home=isolated_home, project=project).list().memories)


# ---------------------------------------------------------------- (a) which value a correction puts right


@pytest.mark.parametrize("after, kept", [
    ("Sorry, the db is on port 5434.", "The db is on port 5434 and the cache on port 6379."),
    ("Never mind, the cache port is 6380.", "The db is on port 5433 and the cache on port 6380."),
    ("Scratch that, the db is on port 5434.", "The db is on port 5434 and the cache on port 6379."),
])
def test_cli_rules_the_value_whose_place_the_correction_names_is_put_right(isolated_home, project, after, kept):
    out = consolidate(project, isolated_home, said(TWO_PORTS, after))
    assert f"not kept: {TWO_PORTS}" in out
    assert descriptions(isolated_home, project) == [kept]  # the other port kept as said, the one named changed
    assert not any(n.startswith("never") for n in names(isolated_home, project))


def test_cli_rules_a_correction_naming_no_place_is_held_for_a_person(isolated_home, project):
    out = consolidate(project, isolated_home, said(TWO_PORTS, "Sorry, it's port 5434."))
    assert ("turn 3 puts right a value of turn 1 (\u201cSorry, it's port 5434.\u201d) but not which one: held for a "
            f"person (pending), not kept: {TWO_PORTS}") in out
    assert names(isolated_home, project) == []  # neither the pair as said (one is wrong) nor a guess
    assert _pending_texts(isolated_home, project) == [HELD]  # the person is asked at the next session start
    # control, same setup: a correction naming the db puts the db right and holds nothing
    out = consolidate(project, isolated_home, said(TWO_PORTS, "Sorry, the db is on port 5434."), name="u.txt")
    assert names(isolated_home, project) == ["db-port-5434-cache-6379"]
    assert _pending_texts(isolated_home, project) == [HELD]


def test_a_held_correction_is_in_the_receipt_json(isolated_home, project):
    path = project / "t.txt"
    path.write_text(said(TWO_PORTS, "Sorry, it's port 5434."), encoding="utf-8")
    done = run_cli("consolidate", path, "--extractor", "rules", "--json", "--home", isolated_home, "--project", project)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["gate"]["withdrawn"] == [{"turn": 3, "said": "Sorry, it's port 5434.",
                                            "cancelled": {"turn": 1, "sentence": TWO_PORTS}, "held": HELD}]
    assert report["status"] == "pending" and report["pending"]


@pytest.mark.parametrize("before, after, held_values", [
    (TWO_PORTS, "Never mind, it's port 5434", "5433 or 6379"),
    ("Remember the db is on port 5433 and redis on 6379.", "Never mind, it's port 5434", "5433 or 6379"),
    ("Remember we deploy on Mondays and release on Fridays.", "Sorry, it's Thursdays.", "Mondays or Fridays"),
])
def test_two_values_of_the_kind_and_nothing_saying_which_is_held(before, after, held_values):
    taken = withdrawn(transcript(before, after))
    assert [(w.cancelled[2], w.replaced_by) for w in taken.said] == [(before, None)]
    held = f"{before} Then: \u201c{after}\u201d Which of {held_values} it puts right is not clear: ask the person."
    assert taken.holds() == [(2, held)]
    assert taken.replaced == {} and taken.skip(0) == frozenset({0}) and taken.skip(2) == frozenset({0})
    # control: the same correction naming its place puts that value right
    named = after.replace("it's", "we release on") if "day" in after else after.replace("it's", "the db is on")
    taken = withdrawn(transcript(before, named))
    assert taken.holds() == [] and len(taken.replaced) == 1


def test_a_sorry_with_a_value_after_one_fact_puts_it_right_and_alone_takes_nothing_back():
    taken = withdrawn(transcript("Remember the db is on port 5433.", "Sorry, it's port 5434."))
    assert [w.replaced_by for w in taken.said] == ["Remember the db is on port 5434."]
    assert correction("Sorry, it's port 5434.") == "it's port 5434."
    for plain in ("Sorry, I was late.", "Ok, the db is on 5434.", "Sorry, it's port 5434?"):
        assert correction(plain) is None  # control: no value, no correcting word, a question
    taken = withdrawn(transcript("Run the tests.", "Sorry, it's port 5434."))  # control: no request before
    assert taken.said == () and taken.holds() == []
    taken = withdrawn(transcript("Remember to use pnpm.", "Sorry, use npm 10."))  # a value, no swap: kept as said
    assert taken.said == ()


@pytest.mark.slow
def test_hook_a_correction_naming_no_place_is_one_pending_finding(isolated_home, project, tmp_path):
    session_end(project, _session(tmp_path, TWO_PORTS, "Sorry, it's port 5434."), isolated_home)
    assert _pending_texts(isolated_home, project) == [HELD]


@pytest.mark.slow
def test_hook_control_a_correction_naming_the_db_is_the_finding(isolated_home, project, tmp_path):
    session_end(project, _session(tmp_path, TWO_PORTS, "Sorry, the db is on port 5434."), isolated_home)
    assert _pending_texts(isolated_home, project) == ["Remember: the db is on port 5434 and the cache on port 6379."]


@pytest.mark.parametrize("first, after, kept", [
    (TWO_PORTS, "Sorry, the database is on port 5434.", "The db is on port 5434 and the cache on port 6379."),
    ("Remember: the db is on port 5433.", "Sorry, the database is on port 5434.", "The database is on port 5434."),
    ("Remember: the prod database is on port 5433 and the dev cache on port 6379.",
     "Sorry, the production db is on port 5434.", "The prod database is on port 5434 and the dev cache on port 6379."),
])
def test_cli_rules_a_correction_naming_the_place_by_its_long_or_short_form(isolated_home, project, first, after, kept):
    """break47: "the database" did not name the place of "the db" (a word the request did not say), so the correction
    was dropped and the wrong port saved (5433), as search and the tombstones read db as database. Control, same
    setup: the cache's port, not named, is kept as said; a correction naming no place is held for a person."""
    out = consolidate(project, isolated_home, said(first, after))
    assert f"not kept: {first}" in out and descriptions(isolated_home, project) == [kept]
    consolidate(project, isolated_home, said(TWO_PORTS, "Sorry, it's port 5434."), name="u.txt")
    assert _pending_texts(isolated_home, project) == [HELD] and descriptions(isolated_home, project) == [kept]


def test_cli_rules_a_correction_opening_with_correction_puts_its_value_right(isolated_home, project):
    """break47: "Correction: the cache port is 6380." was no correction: 6379 was saved. Controls, same setup: one
    naming no place is held for a person; "Correction: the tests run on Thursdays." puts nothing right."""
    out = consolidate(project, isolated_home, said(TWO_PORTS, "Correction: the cache port is 6380."))
    assert f"not kept: {TWO_PORTS}" in out
    assert descriptions(isolated_home, project) == ["The db is on port 5433 and the cache on port 6380."]
    consolidate(project, isolated_home, said(TWO_PORTS, "Correction: it's port 6380."), name="u.txt")
    held = (f"{TWO_PORTS} Then: \u201cCorrection: it's port 6380.\u201d Which of 5433 or 6379 it puts right is not "
            "clear: ask the person.")
    assert _pending_texts(isolated_home, project) == [held]
    out = consolidate(project, isolated_home, said("Remember: the tests run on port 9000.",
                                                   "Correction: the tests run on Thursdays."), name="v.txt")
    assert "not kept" not in out
    assert "The tests run on port 9000." in descriptions(isolated_home, project)


# ---------------------------------------------------------------- (b) a retraction naming another thing


def test_cli_rules_a_denial_of_another_thing_cancels_nothing(isolated_home, project):
    out = consolidate(project, isolated_home, said("Remember to use pnpm.", "Forget that \u2014 we don't use npm."))
    assert "took back" not in out and names(isolated_home, project) == ["use-pnpm"]
    # control, same setup: the denial of the thing itself cancels it
    out = consolidate(project, isolated_home, said("Remember to use yarn.", "Forget that \u2014 we don't use yarn."),
                      name="u.txt")
    assert "not kept: Remember to use yarn." in out and names(isolated_home, project) == ["use-pnpm"]


@pytest.mark.parametrize("denial", [
    "Forget that, we don't use pnpm anymore.", "Forget that, we no longer use pnpm.",
    "Forget that, we don't use pnpm in this repo.", "Forget that, pnpm is not needed.",
])
def test_cli_rules_a_denial_of_the_thing_itself_with_more_words_cancels_it(isolated_home, project, denial):
    """break47: a denial holding every word of the request and more ("anymore", "no longer", "in this repo") was
    read as naming another thing and the retracted "To use pnpm." was saved; "pnpm is not needed" (no word in
    another's place) as well. Control, same setup: npm in pnpm's place, words around it or not, cancels nothing."""
    out = consolidate(project, isolated_home, said("Remember to use pnpm.", denial))
    assert "not kept: Remember to use pnpm." in out and names(isolated_home, project) == []
    out = consolidate(project, isolated_home, said("Remember to use yarn.", "Forget that \u2014 we don't use npm here."),
                      name="u.txt")
    assert "took back" not in out and names(isolated_home, project) == ["use-yarn"]


@pytest.mark.slow
def test_hook_a_denial_of_the_thing_itself_with_more_words_leaves_nothing_pending(isolated_home, project, tmp_path):
    """break47, the SessionEnd hook on a Claude Code transcript (agent extractor: findings pending): "Forget that, we
    don't use pnpm anymore." left "Remember to use pnpm." pending. Control, another session: npm in pnpm's place."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    session_end(project, _session(tmp_path / "a", "Remember to use pnpm.", "Forget that, we don't use pnpm anymore."),
                isolated_home)
    assert _pending_texts(isolated_home, project) == []
    session_end(project, _session(tmp_path / "b", "Remember to use yarn.", "Forget that \u2014 we don't use npm."),
                isolated_home)
    assert _pending_texts(isolated_home, project) == ["Remember to use yarn."]


def test_a_word_in_place_of_the_requests_is_another_thing():
    about = ["Remember to use pnpm."]
    assert not denies_request(about, "we don't use npm") and not denies_request(about, "we don't use npm here")
    assert denies_request(about, "we don't use pnpm anymore") and denies_request(about, "pnpm is not needed")
    assert denies_request(about, "we no longer use pnpm") and denies_request(about, "we don't use pnpm")


# ---------------------------------------------------------------- (c) the replacement in the next sentence


@pytest.mark.parametrize("turns", [
    ("Remember we deploy on Mondays.", "Scratch that. We deploy on Thursdays."),
    ("Remember we deploy on Mondays. Scratch that. We deploy on Thursdays.",),
])
def test_cli_rules_a_replacement_in_the_next_sentence_is_kept(isolated_home, project, turns):
    out = consolidate(project, isolated_home, said(*turns))
    assert ("took back turn 1 (\u201cScratch that.\u201d), not kept: Remember we deploy on Mondays. \u2014 in its "
            "place: Remember: we deploy on Thursdays.") in out
    assert names(isolated_home, project) == ["deploy-thursdays"]


@pytest.mark.parametrize("request_, after, kept", [
    ("Remember we deploy on Mondays.", "Scratch that. We deploy on Thursdays and Fridays.",
     "We deploy on Thursdays and Fridays."),
    ("Remember: use pnpm for installs.", "Scratch that. Use pnpm for installs and bun for scripts.",
     "Use pnpm for installs and bun for scripts."),
])
def test_cli_rules_a_replacement_saying_the_request_again_with_more_is_kept(isolated_home, project, request_, after,
                                                                           kept):
    """break47: a replacement putting one value right by two of its kind, or saying the whole request again and more,
    was read as naming another thing: the request cancelled and nothing kept. Control, same setup: a next sentence on
    something else replaces nothing."""
    out = consolidate(project, isolated_home, said(request_, after))
    assert f"not kept: {request_}" in out and "in its place" in out
    assert descriptions(isolated_home, project) == [kept]
    out = consolidate(project, isolated_home, said(request_, "Scratch that. Run the tests."), name="u.txt")
    assert "in its place" not in out and descriptions(isolated_home, project) == [kept]


def test_controls_a_next_sentence_about_something_else_replaces_nothing():
    for after in ("Scratch that. Run the tests.", "Scratch that. The tests run on Thursdays.",
                  "Scratch that. Is it Thursdays?"):
        taken = withdrawn(transcript("Remember we deploy on Mondays.", after))
        assert [(w.cancelled[2], w.replaced_by) for w in taken.said] == [("Remember we deploy on Mondays.", None)]
        assert taken.replaced == {}
    # a next sentence that asks itself is kept as it is, the request before cancelled
    said_ = transcript("Remember we deploy on Mondays.", "Scratch that. Remember we deploy on Thursdays.")
    assert [hit.sentence for hit in check(said_, "gated", withdrawn(said_)).hits] == ["Remember we deploy on Thursdays."]
    # and the replacement taken back in turn keeps nothing
    said_ = transcript("Remember we deploy on Mondays.", "Scratch that. We deploy on Thursdays.", "Scratch that.")
    assert check(said_, "gated", withdrawn(said_)).fire is False


# ---------------------------------------------------------------- (d) a take-back word is no directive word


def test_cli_rules_never_mind_is_no_never_rule(isolated_home, project):
    out = consolidate(project, isolated_home, said("Remember the db is on port 5433.", "Never mind, the cache is on 6380."))
    assert "[rule]" not in out
    # main: also never-cache-6380, a directive; then (rev49c) the cache's port lost: now a plain statement beside it
    assert descriptions(isolated_home, project) == ["The cache is on 6380.", "The db is on port 5433."]
    assert sentence_rules("Never mind, the cache is on 6380.") == []
    assert sentence_rules("Never mind the lint, never push to main.")[0] == ("rule", ", never push")  # control


# ---------------------------------------------------------------- said_before: linear, the same answers


def test_said_before_answers_as_the_whole_scan_did():
    pool = ["We use Vite 6 now.", "Is it up?", "Maybe later.", "Remember it.", "The db runs postgres 16.", "ok",
            "Put this into CLAUDE.md.", "Staging is on 6543 today."]
    rng = random.Random(46)
    for _ in range(200):
        turn = [rng.choice(pool) for _ in range(rng.randrange(0, 12))]
        from memdir.consolidation.extractors.wording import content_words
        from memdir.consolidation.gate import is_question_or_hedge

        for i in range(len(turn) + 1):
            whole = [s for s in turn[:i] if len(content_words(s)) >= 2 and not is_question_or_hedge(s)][-3:]
            assert said_before(Sentences(turn), i) == whole == said_before(list(turn), i)
    kept = sentences("We use Vite 6 now. The db runs postgres 16. Remember it.")
    assert said_before(kept, 2) == ["We use Vite 6 now.", "The db runs postgres 16."]
    kept[0] = "ok"  # a change is seen: the carriers are read again
    assert said_before(kept, 2) == ["The db runs postgres 16."]


def test_said_before_over_a_long_turn_is_linear():
    n = 4000
    text = " ".join(f"Service{k} listens on port {5000 + k} in staging." if k % 2 == 0 else "Remember it."
                    for k in range(n))
    started = time.perf_counter()
    hits = said_hits(text)
    assert time.perf_counter() - started < 8  # main: 53 to 113 s (about 1 s here: bench_said_before)
    assert len(hits) == n // 2 and hits[-1][0] == " ".join(  # the last three facts before it
        [f"Service{k} listens on port {5000 + k} in staging." for k in (n - 6, n - 4, n - 2)] + ["Remember it."])


# ---------------------------------------------------------------- wrong_and_right: the subject's phrase


@pytest.mark.parametrize("sentence, expected", [
    ("I checked and the db port is wrong, it's 5432.", ("the db port", "The db port is 5432.", None)),
    ("Heads up: the db-port memory is wrong: staging uses 5432 now.",
     ("the db-port memory", "Staging uses 5432 now.", "db-port")),
    ("I think the staging URL in the README is wrong, it is staging.example.com.",
     ("the staging URL in the README", "The staging URL in the README is staging.example.com.", None)),
    ("Actually port 5433 is wrong, it's 5432.", ("port 5433", "Port 5433 is 5432.", None)),
    # controls: a sentence that is only the subject keeps it whole
    ("The db port is wrong, it's 5432.", ("The db port", "The db port is 5432.", None)),
    ("The db-port memory is wrong: dev postgres is on 5432 again.",
     ("The db-port memory", "Dev postgres is on 5432 again.", "db-port")),
])
def test_wrong_and_right_takes_the_subject_phrase(sentence, expected):
    assert wrong_and_right(sentence) == expected


def test_subject_phrase_keeps_a_subject_with_nothing_before_it():
    assert subject_phrase("So the port that you saved") == "the port that you saved"
    assert subject_phrase("Node 18") == "Node 18"
    assert subject_phrase("and") == "and"  # nothing left: the words as they were


def test_cli_rules_a_correction_after_other_words_updates_the_memory_it_names(isolated_home, project):
    from memdir import Memory

    Memory.open(home=isolated_home, project=project).write("db-port", "Dev postgres listens on 5433", "project",
                                                           "Dev postgres listens on 5433.")
    out = consolidate(project, isolated_home, "USER: I checked and the db-port memory is wrong: staging uses 5432 now.\n")
    assert "update db-port \u2192 db-port-candidate (layer: project): candidate" in out  # main: a correction of nothing
    out = consolidate(project, isolated_home, "USER: I checked and the db port is wrong, it's 5432.\n", name="u.txt")
    assert "The db port is 5432." in out and "I checked and" not in out.split("extractor:")[1]
