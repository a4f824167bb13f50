"""A long message is redacted before it is cut, and its cut keeps the requests between its start and its end
(inject40). The cut keeps the first 1,000 and the last 1,000 characters of a person's message: a token standing
across the cut lost the half a pattern needed to know it, so the other half survived; and "remember that …"
in the middle of a 5 KB paste was lost where it used to survive the older start-only cut."""

from __future__ import annotations

from memdir.consolidation.transcripts import USER_LIMIT, cut_message, read_transcript
from memdir.consolidation.transcripts.cutting import REQUEST_LIMIT, REQUEST_SHARE

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"
FILLER = "The build log goes on with more lines of output from the compiler and the linker here. "


def _user(text: str):
    return read_transcript([{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}])


def test_a_token_across_the_start_of_the_cut_is_redacted_whole():
    start = USER_LIMIT - USER_LIMIT // 2 - 10  # the head ends 10 characters into the token
    text = "x" * (start - 1) + " " + TOKEN + " " + "y " * 2500
    read = _user(text)
    assert read.turns[0].cut and read.redactions == 1
    # the head would end inside the placeholder: it ends before it (a placeholder is kept whole or not at all)
    assert read.turns[0].text.startswith("x" * (start - 1) + "\n…\n")
    assert TOKEN[:10] not in read.turns[0].text  # before: "ghp_A1b2C3" was kept
    short = _user("x" * 20 + " " + TOKEN)  # control: the same token in a message under the bound
    assert (short.turns[0].text, short.redactions) == ("x" * 20 + " [REDACTED:github-token]", 1)


def test_a_token_across_the_end_of_the_cut_is_redacted_whole():
    text = "z" * 3000 + " " + TOKEN + " " + "v" * (USER_LIMIT // 2 - 20)  # one line: the end starts in the token
    read = _user(text)
    assert read.turns[0].cut and read.redactions == 1
    assert TOKEN[-10:] not in read.turns[0].text  # before: "n4O5p6Q7r8" was kept
    assert read.turns[0].text.endswith("\n…\n[REDACTED:github-token] " + "v" * (USER_LIMIT // 2 - 20))


def test_a_basic_auth_pair_across_the_cut_is_redacted_and_counted_in_the_report(mem):
    pair = "deploy:Pa55w0rd!x"
    text = "x" * (USER_LIMIT - USER_LIMIT // 2 - 12) + " " + pair + " " + "y " * 2500
    report = mem.consolidate([{"role": "user", "content": text}], extractor="rules", mode="always", dry_run=True)
    assert report.redactions == 1  # counted once: the reading redacted it, consolidation found nothing left
    assert "Pa55" not in _user(text).turns[0].text


def _paste(middle: str) -> str:
    """A 5 KB message: a pasted log, ``middle`` at its middle (around character 2,500), more log."""
    return FILLER * 28 + "\n" + middle + "\n" + FILLER * 28


def test_a_request_in_the_middle_of_a_long_message_is_kept_and_filler_there_is_cut(mem):
    request = "Remember that the staging database listens on port 6543."
    text = _paste(request)
    assert 4900 < len(text) < 5200 and 2300 < text.index(request) < 2600
    cut = _user(text).turns[0].text
    assert "\n…\n" + request + "\n…\n" in cut
    assert len(cut) <= USER_LIMIT + USER_LIMIT // REQUEST_SHARE
    filler = "The deploy notes mention the staging database and port numbers in passing here."
    assert filler not in _user(_paste(filler)).turns[0].text  # control: filler at the same place is cut
    assert _user(_paste(filler)).turns[0].text == cut_message(_paste(filler), USER_LIMIT, requests=False)
    mem.consolidate([{"role": "user", "content": text}], extractor="rules", mode="gated")
    assert [m.description for m in mem.list().memories] == ["The staging database listens on port 6543."]


def test_a_paste_of_requests_adds_a_quarter_at_most_and_rules_in_it_are_cut():
    requests = "".join(f"Remember that step {i} runs before step {i + 1}. " for i in range(60))
    rules = "You must always run the linter before the tests."
    cut = _user(_paste(rules + " " + requests)).turns[0].text
    assert len(cut) <= USER_LIMIT + USER_LIMIT // REQUEST_SHARE + 4
    kept = [line for line in cut.split("\n") if line.startswith("Remember that step")]
    assert kept[:2] == ["Remember that step 0 runs before step 1.", "Remember that step 1 runs before step 2."]
    assert 5 <= len(kept) < 60  # as many as fit, in order
    assert rules not in cut  # a rule is no request: the middle keeps requests alone


def test_a_long_line_in_the_middle_costs_little():
    import time

    line = "x" * 200_000  # one "sentence" of 200 KB: never read by the gate's rules
    started = time.process_time()
    cut = _user(_paste(line + "\nRemember that the cache lives in /var/cache/ci.")).turns[0].text
    assert "\n…\nRemember that the cache lives in /var/cache/ci.\n…\n" in cut
    assert time.process_time() - started < 5  # main-like reading of it took minutes (a quadratic rule)


def test_a_request_pointing_back_keeps_what_it_points_to():
    said = "We deploy from the release branch on Fridays. Remember it."
    cut = _user(_paste(said)).turns[0].text
    # the gate's hit: the request and the sentences it points back to (the last of them the fact)
    assert [line for line in cut.split("\n") if line.endswith(said)] == [FILLER * 2 + said]


def _checklist(steps: int) -> str:
    return ("Remember that the release checklist is: "
            + ", ".join(f"step {i} checks artifact {i} against the manifest" for i in range(steps)) + ".")


def test_a_request_longer_than_the_quarter_is_kept_whole_up_to_the_limit():
    request = _checklist(16)  # over 500 characters: main read no sentence longer than the quarter's room
    assert USER_LIMIT // REQUEST_SHARE < len(request) <= REQUEST_LIMIT
    cut = _user(_paste(request)).turns[0].text
    assert "\n…\n" + request + "\n…\n" in cut
    assert len(cut) <= USER_LIMIT + REQUEST_LIMIT + 6
    plain = request.replace("Remember that the", "Yesterday the")  # control: the same sentence, no request
    assert plain not in _user(_paste(plain)).turns[0].text


def test_a_request_over_the_limit_is_left_out():
    request = _checklist(60)  # control: over REQUEST_LIMIT characters, no request of a person's
    assert len(request) > REQUEST_LIMIT
    cut = _user(_paste(request)).turns[0].text
    assert "release checklist" not in cut and len(cut) <= USER_LIMIT + 3  # the start, "\\n…\\n", the end


def test_a_long_request_after_a_short_one_waits_its_turn():
    short = "Remember that the cache lives in /var/cache/ci."
    cut = _user(_paste(short + "\n" + _checklist(16))).turns[0].text
    assert "\n…\n" + short + "\n…\n" in cut  # in order: the first that fits is kept ...
    assert _checklist(16) not in cut  # ... and the longer one after it is not (the room stays a quarter)
