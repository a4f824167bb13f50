"""The gate's rules read a sentence in time linear in its length (inject41): the German request after its clause
("…, merk dir das"), "wrong … should", a value put right by the one it replaces ("6543 now, not 5433") and a
request pointing back at the end of its sentence ("…, ok, remember that") each tried every start of a long
sentence that never finished them, reading it on to its end (0.4 s for a German clause of 2,000 characters).
Rewritten, they match what they matched: these tests pin the matches, each with a control that matches nothing
(benchmarks/bench_patterns.py has the times, main against the rewrite)."""

from __future__ import annotations

from memdir.consolidation.gate import TAIL_FILLERS, pointed_to, sentence_rules

CLAUSE = "wir nutzen den alten Port weiter " * 60  # about 2,000 characters, no comma


def test_the_german_request_after_its_clause_quotes_the_clause_from_its_first_word():
    assert sentence_rules("Der Port ist 6543, merk dir das") == [("remember", "Der Port ist 6543, merk dir das")]
    assert sentence_rules("Wir nutzen pnpm; der Port ist 6543, merk dir das") == [
        ("remember", "der Port ist 6543, merk dir das")]
    assert sentence_rules("- - der Port ist 6543: vergiss es nicht") == [
        ("remember", "der Port ist 6543: vergiss es nicht")]
    assert sentence_rules("Der Port ist 6543, merk dir") == []  # control: the request's last word missing


def test_a_long_german_clause_fires_with_its_request_and_not_without():
    said = CLAUSE.strip()
    assert sentence_rules(said + ", merk dir das") == [("remember", said + ", merk dir das")]
    assert sentence_rules(said) == []  # control: the clause alone (main read it 2,000 times over)


def test_a_value_put_right_is_the_whole_run_of_its_characters():
    assert sentence_rules("The staging db listens on 6543 now, not 5433") == [("correction", "6543 now, not 5433")]
    assert sentence_rules("v1.2.3-rc1, not v1.2.2") == [("correction", "v1.2.3-rc1, not v1.2.2")]
    assert sentence_rules("it listens on 6543 now, and 5433") == []  # control: no "not"
    assert sentence_rules("1" * 5000) == []  # control: a run of digits alone


def test_wrong_then_should_quotes_from_the_first_wrong():
    assert sentence_rules("that was wrong wrong, the port should be 6543") == [
        ("correction", "wrong wrong, the port should")]
    assert sentence_rules("that went wrong, the port is 6543") == []  # control: no "should"
    # ("that was wrong, the port is 6543" is a correction since retract43: what was wrong, then what is right)
    assert sentence_rules("that was wrong, the port is 6543") == [("correction", "was wrong, ")]
    assert sentence_rules("wrong " * 1000) == []  # control: "wrong" a thousand times, no "should"


def test_a_request_pointing_back_at_its_sentence_or_the_one_before():
    assert pointed_to(["We use Vite 6 now.", "ok, ok, remember it."], 1) == ["We use Vite 6 now."]
    assert pointed_to(["The port is 6543, ok ok remember that"], 0) == ["The port is 6543."]
    assert pointed_to(["ok " * 1000], 0) is None  # control: openers and no request
    assert pointed_to(["The port is 6543, " + "ok, " * 1000], 0) is None  # control: fillers and no request


def test_fillers_before_a_request_at_a_sentences_end_are_bounded():
    # the one change of what matches: at most TAIL_FILLERS fillers before the request at the end of a sentence
    fillers = "ok " * TAIL_FILLERS
    assert pointed_to([f"The port is 6543, {fillers}remember that"], 0) == ["The port is 6543."]
    assert pointed_to([f"The port is 6543, {fillers}ok remember that"], 0) is None


def test_a_paste_of_blank_lines_is_gone_before_log_lines_are_looked_for():
    # inject42: the log-line pattern alone reads a run of blank lines again from each of them (6 s at 32,000
    # newlines); clean_user_text takes such runs out first (the quoted-line pattern: four spaces, newlines count),
    # so it never sees one — this feeds the path the run and pins what comes out
    from memdir.consolidation.gate import clean_user_text

    said = "We deploy on Fridays.\n" + " \n" * 16000
    assert clean_user_text(said + "Error: boom\nok then") == "We deploy on Fridays.\n \nok then"
    assert clean_user_text("We deploy on Fridays.\n" + "\n" * 32000 + "at foo(bar)\nok then") == (
        "We deploy on Fridays.\n \nok then")
    assert clean_user_text("We deploy on Fridays.\nok then") == "We deploy on Fridays.\nok then"  # control: kept
