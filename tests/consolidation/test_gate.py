"""The consolidation gate: deterministic, English and Chinese, biased to under-trigger."""

from __future__ import annotations

import json

import pytest

from memdir.consolidation.gate import check, sentence_rules
from memdir.consolidation.transcripts import read_transcript
from memdir.render import consolidation as render
from tests.conftest import DATA, run_cli

TRANSCRIPTS = DATA / "transcripts"


def rules_of(sentence: str) -> set[str]:
    return {rule for rule, _ in sentence_rules(sentence)}


@pytest.mark.parametrize("sentence, rule", [
    ("Remember that the staging DB listens on 5433.", "remember"),
    ("Please keep in mind the API is rate limited.", "remember"),
    ("That's wrong, the config lives in settings.toml.", "correction"),
    ("Use 4 spaces, not tabs.", "correction"),
    ("I prefer pytest over unittest.", "preference"),
    ("Always run make lint before you commit.", "rule"),
    ("From now on write commit messages in English.", "rule"),
    ("We decided to drop Python 3.9 support.", "decision"),
    ("The deadline is next Friday.", "deadline"),
    ("You must not push to main directly.", "constraint"),
    ("I'm a backend engineer at a bank.", "personal"),
    ("记住：部署前先跑 make check。", "remember"),
    ("不对，应该用 pnpm。", "correction"),
    ("我更喜欢用 Vim。", "preference"),
    ("以后都用中文写提交信息。", "rule"),
    ("我们决定用 PostgreSQL。", "decision"),
    ("下周五之前完成迁移。", "deadline"),
    ("生产环境禁止直接改数据库。", "constraint"),
    ("我是后端工程师。", "personal"),
])
def test_each_rule_fires_in_english_and_chinese(sentence, rule):
    assert rule in rules_of(sentence)


@pytest.mark.parametrize("sentence", [
    "Do you remember the port?",
    "Should we always use tabs?",
    "Maybe we should always use tabs.",
    "If you want, I prefer the other one.",
    "Run the tests and show me the output.",
    "Create a zip file with the output.",
    "I have a question about the build.",
    "I'm a bit confused by this error.",
    "你记得端口吗？",
    "也许我们以后都用 pnpm",
])
def test_questions_hedges_and_plain_requests_do_not_fire(sentence):
    assert rules_of(sentence) == set()


def test_only_the_persons_words_fire_and_pasted_text_does_not():
    t = read_transcript([
        {"role": "assistant", "content": "You might prefer Poetry. Always use tabs. Remember that."},
        {"role": "user", "content": "```\n# always use tabs\nI prefer nothing\n```\n> never push on Fridays"},
        {"role": "user", "content": "ok, thanks"},
    ])
    assert check(t).fire is False and check(t).hits == ()
    fired = read_transcript([*[{"role": m.role, "content": m.text} for m in t.turns],
                             {"role": "user", "content": "Always run the tests before pushing."}])
    result = check(fired)
    assert result.fire is True
    assert [(h.rule, h.turn, h.sentence) for h in result.hits] == [
        ("rule", 3, "Always run the tests before pushing.")]


def test_modes_and_explain():
    t = read_transcript([{"role": "user", "content": "Run the tests."}])
    assert check(t, "gated").fire is False
    assert check(t, "always").fire is True
    assert check(t, "off").fire is False
    assert "nothing durable" in render.gate(check(t))
    fired = read_transcript([{"role": "user", "content": "I prefer uv. Run the tests."}])
    text = render.gate(check(fired))
    assert text.splitlines() == ["gate: fired (preference)", "  turn 1 [preference] “I prefer” in: I prefer uv."]
    assert render.gate(check(t, "off")).startswith("gate: consolidation is off")


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="../shared/data/transcripts is absent")
def test_real_transcripts_gate_decisions():
    ocr = check(read_transcript(TRANSCRIPTS / "claude-code-deepseek-ocr.jsonl"))
    assert ocr.fire and [(h.rule, h.turn, h.cue) for h in ocr.hits] == [("rule", 3, "only ever")]
    slit = check(read_transcript(TRANSCRIPTS / "claude-code-charslit.jsonl"))
    assert slit.fire and [(h.rule, h.turn, h.cue) for h in slit.hits] == [
        ("correction", 3, "you misunderstand"), ("correction", 22, "you're confusing"),
        ("remember", 22, "putting this info as *important* into CLAUDE.md")]


@pytest.mark.slow
def test_cli_explain_prints_which_line_fired_which_rule(tmp_path, project):
    path = tmp_path / "t.txt"
    path.write_text("USER: Run the tests please.\nASSISTANT: Always use tabs.\nUSER: I prefer uv for packaging.\n",
                    encoding="utf-8")
    done = run_cli("consolidate", path, "--dry-run", "--explain", "--project", project)
    assert done.returncode == 0, done.stderr
    assert "turn 3 [preference] “I prefer” in: I prefer uv for packaging." in done.stdout  # counted from 1
    assert "Always use tabs" not in done.stdout.split("extractor:")[0]
    # ux49: --json gives the same number as the text (it gave the 0-based index, 2); the turns array holds 3
    as_json = run_cli("consolidate", path, "--dry-run", "--json", "--project", project)
    gate = json.loads(as_json.stdout)["gate"]
    assert [(h["turn"], h["rule"], h["sentence"]) for h in gate["hits"]] == [(3, "preference", "I prefer uv for packaging.")]
    assert json.loads(as_json.stdout)["transcript"]["turns"] == 3  # control: the last message is message 3
    helped = run_cli("consolidate", "--help")
    assert "(messages counted from 1, as --json's turn numbers are)" in " ".join(helped.stdout.split())


@pytest.mark.parametrize("sentence", [
    "I like this approach.",
    "I love how clean that is.",
    "Rewrite this function using a loop instead of recursion.",
    "The output must be a JSON file.",
])
def test_one_off_reactions_and_task_specs_do_not_fire(sentence):
    assert rules_of(sentence) == set()


@pytest.mark.parametrize("sentence", [
    "hello Remember that we deploy on Fridays only.",
    "ok so remember we deploy on Fridays only.",
    "Hey, remember that the staging DB listens on 5433.",
    "btw note: the API is rate limited.",
])
def test_a_greeting_or_discourse_word_before_remember_still_fires(sentence):
    assert rules_of(sentence) == {"remember"}


@pytest.mark.parametrize("sentence", [
    "hello, do you remember what we deployed?",  # a question
    "ok so I remember that day well.",  # the person remembering, not asking to be remembered
    "so we noted the port earlier.",
])
def test_a_greeting_before_a_question_or_a_memory_of_their_own_does_not_fire(sentence):
    assert rules_of(sentence) == set()


def test_standing_instead_still_fires():
    assert "correction" in rules_of("Use the logging module instead of print.")


def test_a_request_pointing_back_fires_and_carries_what_it_points_to(tmp_path, project):
    """trial28: "We use Vite 6 now, pnpm dev on 5173. Remember it." said "gate: nothing durable found"."""
    said = "We use Vite 6 now, pnpm dev on 5173. Remember it."
    path = tmp_path / "t1.txt"
    path.write_text(f"USER: {said}\nASSISTANT: Saved.\n", encoding="utf-8")
    done = run_cli("consolidate", path, "--dry-run", "--explain", "--project", project)
    assert done.returncode == 0, done.stderr
    assert f"turn 1 [remember] “Remember it.” in: {said}" in done.stdout
    assert "would-create\n   We use Vite 6 now, pnpm dev on 5173.\n" in done.stdout
    # control: the same fact said as "Remember that …" fires as it did
    path.write_text("USER: Remember that we use Vite 6 now, pnpm dev on 5173.\nASSISTANT: Saved.\n", encoding="utf-8")
    control = run_cli("consolidate", path, "--dry-run", "--explain", "--project", project)
    assert "gate: fired (remember)" in control.stdout and "We use Vite 6 now, pnpm dev on 5173." in control.stdout


@pytest.mark.parametrize("text, carried", [
    ("We use Vite 6 now. Remember it.", "We use Vite 6 now. Remember it."),
    ("We deploy from the v2 tag. Keep that in mind.", "We deploy from the v2 tag. Keep that in mind."),
    ("We deploy from the v2 tag. Note that down.", "We deploy from the v2 tag. Note that down."),
    ("We deploy from the v2 tag. Don't forget it!", "We deploy from the v2 tag. Don't forget it!"),
    ("We deploy from the v2 tag. Please remember this for next time.",
     "We deploy from the v2 tag. Please remember this for next time."),
    ("The dev database is on 6543 now, remember that.", "The dev database is on 6543 now, remember that."),
])
def test_each_request_pointing_back_fires_with_the_fact(text, carried):
    result = check(read_transcript([{"role": "user", "content": text}]))
    assert [(h.rule, h.sentence) for h in result.hits] == [("remember", carried)]


@pytest.mark.parametrize("text", [
    "I don't remember it.",  # a recollection, negated
    "We deployed v2 on Monday. Do you remember it?",  # a question
    "We deployed v2 on Monday. Remember it was broken yesterday?",
    "Remember it was broken yesterday.",  # the person recalling, not asking to keep "it"
    "Remember it.",  # points back at nothing the person said
    "We deployed v2 on Monday. I will remember it.",
])
def test_a_question_a_recollection_or_a_request_with_nothing_before_does_not_fire(text):
    result = check(read_transcript([{"role": "user", "content": text}]))
    assert result.hits == () and result.fire is False
    # control: the same turn with a request pointing back at a fact fires
    fired = check(read_transcript([{"role": "user", "content": "We deploy from the v2 tag. Remember it."}]))
    assert fired.rules == ["remember"]


def test_a_dont_that_tells_is_no_question_and_one_that_asks_is():
    assert rules_of("Don't forget that the API is rate limited.") == {"remember"}  # was a "question"
    assert rules_of("Don't you think we should always use tabs?") == set()


def test_a_value_put_right_by_the_value_it_replaces_fires_correction():
    """newuser32: a person in a real Claude Code session said "Correction: the dev PostgreSQL listens on 6543 now,
    not 5433." and nothing was kept (the gate knew "it's X, not Y" and "use X, not Y" only), while the
    "Remember that …" of the same session was. A value given with the one it replaces is a correction; the
    controls, the same facts without a replaced value and a count in chatter, fire nothing."""
    t = read_transcript([{"role": "user", "content": "Correction: the dev PostgreSQL listens on 6543 now, not 5433."}])
    assert [(h.rule, h.sentence) for h in check(t).hits] == [
        ("correction", "Correction: the dev PostgreSQL listens on 6543 now, not 5433.")]
    assert rules_of("The dev database port is 6543, not 5433.") == {"correction"}
    assert rules_of("We target Python 3.12, not 3.11.") == {"correction"}
    assert rules_of("The dev PostgreSQL listens on 6543.") == set()  # control: no value replaced
    assert rules_of("Port 6543 is not open yet.") == set()
    assert rules_of("I ran 3 tests, not 4.") == set()  # a count in chatter: the values are not side by side
    assert rules_of("Is it 6543, not 5433?") == set()  # a question never fires


def test_a_value_put_right_after_actually_or_no_fires_correction():
    """newuser49: "actually the port is 5434" — a person putting a value right, the way people do — fired nothing
    (the gate knew "5434, not 5433" only), so a session that said only that kept nothing. The word that says so
    ("actually", "no", "wait", "correction:") then "it is" or "the <thing> is" and a value with a digit fires
    correction, the value taken whole; the controls, the same openers in chatter, fire nothing."""
    t = read_transcript([{"role": "assistant", "content": "The dev database listens on 5433."},
                         {"role": "user", "content": "Actually the port is 5434. Actually, let me check the logs."}])
    assert [(h.rule, h.sentence) for h in check(t).hits] == [("correction", "Actually the port is 5434.")]
    assert sentence_rules("No, the dev database port is 5434 now.") == [
        ("correction", "No, the dev database port is 5434")]
    assert rules_of("no, it's 5434") == {"correction"}
    assert rules_of("Wait, the staging host is at 10.0.0.5") == {"correction"}
    assert rules_of("Correction: we deploy on Thursdays.") == {"correction"}
    assert rules_of("Actually the test took 3 minutes.") == set()  # control: an opener in chatter, no "is <value>"
    assert rules_of("No, I ran 3 tests.") == set()
    assert rules_of("No, the tests are failing.") == set()  # no value
    assert rules_of("actually the port is 5434?") == set()  # a question never fires
    assert rules_of("The port is 5434.") == set()  # no word saying it is put right


@pytest.mark.parametrize("said", [
    "Actually the output is 404.", "No, the error is 500 Internal Server Error.", "Nope, the count is 0.",
    "No, the exit code was 1.", "Actually the result was 42.", "actually the diff is 200 lines",
    "Wait, the test run is 12 minutes long.", "No, it's 5 failures now.", "Actually it's 3am here, let's stop.",
    "Actually it's 5pm, I need to go.", "Sorry, it's 90% done.", "Wait, it's 10 o'clock.", "Actually it's 2 of them.",
    "No, the error rate is 3 per minute.", "Actually it's 1.5x faster.", "No, the latency is 300ms",
    "No, the latency is 300ms.", "Actually the p99 is 250 now", "Sorry, the answer is 42", "Actually the line is 42",
    "Actually the page is 2", "No, the commit is abc123", "No, the error rate is 5 on staging", "Sure, make it 3",
    "Actually the timeout is 30s."])
def test_a_result_reported_after_actually_or_no_fires_nothing(said):
    """break50a: int49's "actually/no/wait … is <value>" fired correction on a result reported (an output, an exit
    code, a count, a duration, the time of day): each would have become a pending finding the agent is asked to
    save. fix52b: so did a measurement (a latency, a p99, a rate, a line, a commit; a number against its unit, "300ms",
    "30s"; a bare count after "make it"). What happened ("was"), a result ("the output", "the exit code"), a count or time (a unit after the value,
    "3am") fires nothing; the control in the same setup, the setting put right, fires correction."""
    assert rules_of(said) == set()
    assert rules_of("Actually the port is 5434.") == {"correction"}  # control


@pytest.mark.parametrize("said", [
    "Actually, it should be 5434.", "Make that 5434.", "Ok, make it 6543 then.", "Sorry, the port is 5434.",
    "My bad, the port is 5434.", "Oops, it's 5434.", "Actually the port's 5434.", "No, the exit code timeout is 30",
    "no, the port is 5434", "Correction: the port is 5434", "Actually the timeout is 30."])
def test_a_value_put_right_in_other_words_fires_correction(said):
    """break50a: "it should be", "make that", "sorry"/"my bad"/"oops" and "the port's" putting a value right fired
    nothing in int49; a result word not naming the thing ("exit code timeout") does not stop it. Control: the
    same opener without a value put right fires nothing."""
    assert rules_of(said) == {"correction"}
    assert rules_of("Sorry, I was away.") == set()  # control: the opener alone
