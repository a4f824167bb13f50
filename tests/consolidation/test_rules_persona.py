"""First-person statements by kind: the lead-in before a statement, feelings of the moment, hypotheticals,
statements with "I" left out."""

from __future__ import annotations

from memdir.consolidation.extractors.persona import after_passing, is_passing, own_clause
from memdir.consolidation.extractors.rules import classify


def test_a_statement_after_a_lead_in_is_kept_without_it():
    assert classify("Luckily I spend most of my time at work and school.") == (
        "user", "I spend most of my time at work and school.")
    assert classify("Nah, I have an airboat but my dream is a camaro.") == (
        "user", "I have an airboat but my dream is a camaro.")
    assert own_clause("That is cool, I am a struggling artist.") == "I am a struggling artist."
    # control: a lead-in that is a clause of its own (someone else, a condition) keeps nothing
    assert own_clause("When he left I moved to a new city.") is None
    assert classify("Yeah he said I should quit my job.") is None
    assert classify("Just finished feeding my pet racoon.") is None  # "my" as the object, not the subject


def test_a_preference_after_a_lead_in_is_the_persons_not_a_project_rule():
    # was ("feedback", "That is great, I love hiking in the mountains.")
    assert classify("That is great, I love hiking in the mountains.") == ("user", "I love hiking in the mountains.")
    assert classify("I love hiking in the mountains.") == ("user", "I love hiking in the mountains.")  # control


def test_a_feeling_of_the_moment_is_not_kept_whichever_rule_fires():
    assert classify("I'm a little stressed actually.") is None
    assert classify("I am so done with winter.") is None
    assert classify("I am pretty tired.") is None
    assert is_passing("I'm a little jealous, my sister lives in Hawaii.")
    # controls: a trait, a skill and a standing feeling about something are kept
    assert classify("I am so proud of my three kids.") == ("user", "I am so proud of my three kids.")
    assert classify("I'm pretty good at painting landscapes.") == ("user", "I'm pretty good at painting landscapes.")
    assert not is_passing("I'm tired of long commutes.")


def test_a_hypothetical_is_not_kept_the_fact_after_it_is():
    assert classify("I wish my husband was that woke.") is None  # the personal rule fires on "my husband"
    assert classify("I may send my parents a post card.") is None
    assert classify("I'll have to see if anyone can watch my children.") is None
    assert classify("I may not have finished college but I love to read.") == ("user", "I love to read.")
    assert classify("I'm so excited, I love concerts.") == ("user", "I love concerts.")
    assert after_passing("I wish I were a student.") is None
    # control: asking for something is no hypothetical about the person
    assert not is_passing("I wish you would run the linter first.")


def test_a_statement_with_i_left_out_is_the_persons():
    assert classify("Grew up in Tallahassee.") == ("user", "Grew up in Tallahassee.")
    assert classify("Yes, born and raised here in the Sierras.") == ("user", "Born and raised here in the Sierras.")
    assert classify("Love sports, specifically tennis.") == ("user", "Love sports, specifically tennis.")
    # controls: pointing back, a figure of speech, speaking to the other person, a report of this session's work
    assert classify("Love it!") is None
    assert classify("Like I said, use tabs.") is None
    assert classify("Love your idea about the cache.") is None
    assert classify("Moved the config to settings.py.") is None


def test_consolidation_keeps_the_statement_in_the_user_layer_and_drops_the_mood(isolated_home, project, person):
    text = "That is great, I love hiking in the mountains. I'm a little stressed actually."
    said = [{"role": "user", "content": text}]
    report = person.consolidate(said, extractor="rules")
    assert [(o.result, o.scope) for o in report.outcomes] == [("created", "user")]
    record = person.read(report.outcomes[0].name, count=False).record
    assert record.type == "user" and record.description == "I love hiking in the mountains."
    assert "stressed" not in record.body


def test_a_statement_that_only_points_back_keeps_nothing_whichever_rule_fires():
    from memdir.consolidation.extractors.persona import points_back

    # a preference whose object is only a pronoun or a quantifier (the preference/personal rules fire)
    assert classify("I love him!") is None
    assert classify("I enjoy both.") is None
    assert classify("I love doing that anyway.") is None
    # a favorite named by "it"/"that", the same as what was said before
    assert classify("It's my favorite activity.") is None
    assert classify("It is one of my favorite hobbies.") is None
    assert classify("My mother did the same.") is None
    assert points_back("I use to be in that same situation.")
    # controls: the same shapes with what they are about are kept, as the person's
    assert classify("I love hiking with my dog.") == ("user", "I love hiking with my dog.")
    assert classify("Hiking is my favorite activity.") == ("user", "Hiking is my favorite activity.")
    assert classify("My mother is a nurse.") == ("user", "My mother is a nurse.")
    # a standing rule is not judged so: "do the same" in a rule is kept
    assert classify("From now on, always do the same.") == ("feedback", "From now on, always do the same.")


def test_a_fragment_is_no_statement():
    from memdir.consolidation.extractors.persona import is_fragment

    assert classify("My favorite colour.") is None
    assert classify("My best friend.") is None
    assert is_fragment("My new cut and color.")
    # controls: with a verb it is a statement
    assert classify("My favorite colour is green.") == ("user", "My favorite colour is green.")
    assert not is_fragment("My grandkids love mexican food.")
    assert not is_fragment("My dad works nights.")


def test_hearsay_a_guess_a_hope_and_what_the_person_is_doing_now_are_passing():
    assert classify("I hear they have great vegan food in hawaii.") is None
    assert classify("I don't think 40 is old.") is None
    assert classify("I figure it would be harder with a laptop.") is None
    assert classify("I hope to keep illustrating books in the future.") is None
    assert classify("I'm just taking a break for the night.") is None
    assert classify("I was going into full counsellor mode there, haha.") is None
    # the fact after a passing first clause is kept
    assert classify("I understand that, but I like sports.") == ("user", "I like sports.")
    # controls: a standing fact in the same shapes
    assert classify("I hear music in my head all day since the accident.") == (
        "user", "I hear music in my head all day since the accident.")
    assert classify("I'm still living with my parents.") == ("user", "I'm still living with my parents.")
    assert not is_passing("I was born in Ohio.")


def test_the_persons_own_taste_is_a_user_memory_not_feedback():
    # was ("feedback", …): a person's taste filed as a rule about the work
    assert classify("Punk is my favorite.") == ("user", "Punk is my favorite.")
    assert classify("In my spare time I enjoy gardening.") == ("user", "In my spare time I enjoy gardening.")
    # control: a preference about how the work is done stays feedback
    assert classify("Vim is my favorite editor, use it for the docs.") == (
        "feedback", "Vim is my favorite editor, use it for the docs.")


def test_running_something_of_ones_own_is_a_fact_running_this_sessions_work_is_not():
    """"run" sat among the session-work verbs, so "I run a bakery downtown" kept nothing (noticed at issue 12)."""
    assert classify("I run a bakery downtown.") == ("user", "I run a bakery downtown.")
    assert classify("I run every day before work.") == ("user", "I run every day before work.")
    assert classify("I run the tests now.") is None  # this session's work
    assert classify("I ran the tests.") is None
    assert classify("I run it again.") is None  # points back


def test_a_question_back_to_the_other_person_is_dropped_the_statement_before_it_kept():
    assert classify("My fav band is 21 pilots, you like them?") == ("user", "My fav band is 21 pilots.")
    assert classify("I own a jeep do you drive?") == ("user", "I own a jeep.")
    assert classify("Do you drive?") is None  # control: a question alone keeps nothing
    assert classify("You like them?") is None


def test_a_statement_about_a_pronoun_is_one_that_refers_back():
    from memdir.consolidation.extractors.persona import refers_back

    for said in ("He is my favorite artist.", "I enjoy learning them.", "I have been there three times.",
                 "Me, I enjoy their food.", "I actually have five!", "I go every once in awhile.",
                 "I've been three times it is that lovely!", "I have 5, one is a pizza slice.",
                 "I invented it myself.", "Those have to be a handful as well!"):
        assert refers_back(said), said
    # controls: what the pronoun stands for is named before it, or there is no pronoun to stand for anything
    for said in ("I love hamburgers too much to give them up.", "There are three dogs in my house.",
                 "I have five kids.", "I go to the gym every day.", "I have been to Hawaii three times.",
                 "My sister lives in Ohio and I visit her often.", "I visited Paris and loved it.",
                 "I love my bed, it is comfy."):
        assert not refers_back(said), said


def test_a_statement_that_refers_back_is_joined_to_the_sentence_it_needs_or_keeps_nothing(isolated_home, project, person):
    said = [{"role": "user", "content": "Have you listened to Sufjan Stevens? He is my favorite artist."},
            {"role": "assistant", "content": "I went to Hawaii last year."},
            {"role": "user", "content": "I have been there three times. I have been to Japan twice."},
            {"role": "user", "content": "I love my profession. I find it keeps me focused."}]
    report = person.consolidate(said, extractor="rules")
    described = sorted(person.read(o.name, count=False).record.description for o in report.outcomes)
    assert described == ["Have you listened to Sufjan Stevens? He is my favorite artist.",  # the sentence it needs
                         "I have been to Japan twice.",  # control: the statement beside the dropped one
                         "I love my profession. I find it keeps me focused."]  # one memory, not two
    # "there" was Hawaii, the other speaker's word: "I have been there three times." keeps nothing


def test_a_standing_rule_about_a_pronoun_is_joined_or_kept_never_dropped(isolated_home, project, person):
    said = [{"role": "assistant", "content": "The integration tests are slow."},
            {"role": "user", "content": "They must always run before a release."},
            {"role": "user", "content": "We deploy the billing service on Fridays. It must never run migrations "
                                        "during business hours."}]
    report = person.consolidate(said, extractor="rules")
    described = sorted(person.read(o.name, count=False).record.description for o in report.outcomes)
    assert "They must always run before a release." in described  # opens the turn: kept as it is, a rule
    assert any(d.startswith("We deploy the billing service on Fridays. It must never run migrations")
               for d in described), described  # joined to the sentence that names it


def test_a_rule_about_a_pronoun_is_not_joined_to_a_sentence_holding_a_secret(isolated_home, project, person):
    key = "sk_live_" + "51HqLyjWDarjtT1zdp7dcXYZabc123"
    said = [{"role": "user", "content": f"The payments sandbox key {key} is shared by the team. Always use it for "
                                        "the checkout tests."},
            {"role": "user", "content": "My token is sk-proj-" + "a1B2c3D4e5" * 3 + ". Always use it for builds."},
            {"role": "user", "content": "We deploy the billing service on Fridays. It must never run migrations "
                                        "during business hours."}]
    report = person.consolidate(said, extractor="rules")
    described = sorted(person.read(o.name, count=False).record.description for o in report.outcomes)
    # the rule is kept as it is, without the sentence holding the secret (nor its [REDACTED:…] stand-in)
    assert described == ["Always use it for builds.", "Always use it for the checkout tests.",
                         "We deploy the billing service on Fridays. It must never run migrations during business "
                         "hours."], described  # control: a sentence without a secret is still joined
    blob = b"".join(p.read_bytes() for p in isolated_home.rglob("*") if p.is_file())
    assert b"51HqLyjWDarjtT1zdp7dcXYZ" not in blob and b"a1B2c3D4e5" not in blob and b"REDACTED" not in blob
    assert b"checkout tests" in blob  # control: the same files were read


def test_a_persons_own_bracketed_text_is_not_taken_for_a_redacted_secret(isolated_home, project, person):
    """"[REDACTED: ssn]" typed by the person is not a placeholder redaction made (no such kind, a space):
    a statement ending in it is kept, and it is a sentence a later "it" can stand for; a real secret's
    stand-in ([REDACTED:github-token]) still keeps nothing, and is no antecedent."""
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"
    said = [{"role": "user", "content": "Remember that the audit log's stand-in for a social security number is "
                                        "[REDACTED: ssn]."},
            {"role": "user", "content": f"Remember that the staging deploy token is {token}."}]
    report = person.consolidate(said, extractor="rules")
    described = [person.read(o.name, count=False).record.description for o in report.outcomes]
    assert described == ["The audit log's stand-in for a social security number is [REDACTED: ssn]."], described
    blob = b"".join(p.read_bytes() for p in isolated_home.rglob("*") if p.is_file())
    assert b"K1l2M3n4O5p6Q7r8" not in blob  # the secret itself is nowhere
    assert b"[REDACTED: ssn]" in blob  # control: the same files were read
    rule = "Always use it in new log lines."
    assert _kept(f"Our audit log's stand-in for a social security number is [REDACTED: ssn]. {rule}") == [
        ("feedback", f"Our audit log's stand-in for a social security number is [REDACTED: ssn]. {rule}")]
    assert _kept(f"Our audit log's stand-in for a social security number is [REDACTED:phone]. {rule}") == [
        ("feedback", rule)]  # control: a real placeholder is no antecedent


def test_a_rule_written_as_a_list_item_is_kept_without_its_marker(isolated_home, project, person):
    said = [{"role": "user", "content": "Team rules:\n- Always run the tests with -x.\n* Never push to main directly."
                                        "\n• We lint Python with ruff in CI. Always use it with --fix locally."},
            {"role": "user", "content": "Always answer in English."}]  # control: a rule that is no list item
    report = person.consolidate(said, extractor="rules")
    kept = sorted((person.read(o.name, count=False).record.type, person.read(o.name, count=False).record.description)
                  for o in report.outcomes)
    assert kept == [("feedback", "Always answer in English."), ("feedback", "Always run the tests with -x."),
                    ("feedback", "Never push to main directly."),
                    ("feedback", "We lint Python with ruff in CI. Always use it with --fix locally.")], kept


def _kept(text: str) -> list:
    from memdir.consolidation.extractors.rules import turn_statements
    from memdir.consolidation.transcripts import read_transcript

    transcript = read_transcript([{"role": "user", "content": text}, {"role": "assistant", "content": "ok"}])
    return [found for _, found in turn_statements(transcript, 0) if found]


def test_a_request_to_remember_this_keeps_what_came_before_it():
    assert _kept("We pin Node to 20.11 in this repo. Remember this for later.") == [
        ("project", "We pin Node to 20.11 in this repo.")]  # was ("project", "For later.")
    assert _kept("The CI cache lives in the ci-cache bucket on S3. Please remember it.") == [
        ("project", "The CI cache lives in the ci-cache bucket on S3.")]  # was nothing
    assert _kept("以后所有的提交信息都用英文写。记住这一点。")[0][1] == "以后所有的提交信息都用英文写。"  # was "这一点。"
    # control: a request with its content after it keeps that content
    assert _kept("Remember that the API integration tests are slow.") == [
        ("project", "The API integration tests are slow.")]


def test_a_rule_joined_to_a_long_sentence_keeps_its_own_words_whole():
    from memdir.consolidation.extractors.wording import DESCRIPTION_LIMIT, joined

    long = ("We maintain the legacy payments reconciliation service in services/recon, which talks to the old "
            "Oracle warehouse through a hand-written JDBC bridge that nobody else understands anymore.")
    (kind, statement), = _kept(f"{long} It must never be deployed on Fridays.")
    assert kind == "feedback" and statement.endswith("warehouse… It must never be deployed on Fridays.")
    assert len(statement) <= DESCRIPTION_LIMIT and statement.startswith("We maintain the legacy payments")
    assert joined("We use pytest.", "Always run it with -x.") == "We use pytest. Always run it with -x."  # fits


def test_a_rule_about_a_pronoun_with_nothing_of_its_own_keeps_nothing():
    assert _kept("Always do it.") == []
    assert _kept("Never push it to main.") == [("feedback", "Never push it to main.")]  # control
