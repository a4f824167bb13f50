"""A message over its bound keeps its start and its end (break39): a person pasted a 5 KB trace and said "Remember
that the staging database listens on port 6543." after it; the cut kept the first 2,000 characters, and the gate
found nothing durable — the request was lost. The same for an assistant's closing proposal that a bare yes
confirms."""

from __future__ import annotations

from memdir.consolidation.transcripts import USER_LIMIT, cut_message

TRACE = "Here is the trace:\n" + "\n".join(f'  File "/app/x{i}.py", line {i}, in handler' for i in range(120))


def test_a_request_after_a_long_paste_becomes_a_memory(mem):
    said = f"{TRACE}\n\nRemember that the staging database listens on port 6543."
    report = mem.consolidate([{"role": "user", "content": said}, {"role": "assistant", "content": "Noted."}],
                             extractor="rules", mode="gated")
    assert report.transcript.cut == 1
    assert [(m.name, m.description) for m in mem.list().memories] == [
        ("staging-database-listens-port-6543", "The staging database listens on port 6543.")]


def test_a_request_before_a_long_paste_is_kept_too(mem):  # control: the start is still there
    said = f"Remember that the build cache lives in /var/cache/build.\n{TRACE}"
    mem.consolidate([{"role": "user", "content": said}], extractor="rules", mode="gated")
    assert [m.description for m in mem.list().memories] == ["The build cache lives in /var/cache/build."]


def test_a_bare_yes_confirms_the_proposal_that_closed_a_long_answer(mem):
    answer = "I changed these files:\n" + "\n".join(f"- src/module_{i}.py: renamed helpers" for i in range(40)) + \
        "\n\nShould I always run ruff before committing from now on?"
    report = mem.consolidate([{"role": "user", "content": "Tidy the helpers."}, {"role": "assistant", "content": answer},
                              {"role": "user", "content": "Yes."}], extractor="rules", mode="gated")
    assert report.transcript.cut == 1
    assert [m.type for m in mem.list().memories] == ["feedback"]
    assert "ruff before committing" in mem.list().memories[0].description


def test_the_cut_is_the_start_a_marker_and_the_end_from_a_whole_line():
    text = "a" * 1500 + "\nmiddle line\n" + "b" * 600 + "\nlast line"
    cut = cut_message(text, USER_LIMIT)
    # the last 1,000 characters begin inside the a's: the end is kept from the next whole line on
    assert cut == "a" * 1000 + "\n…\nmiddle line\n" + "b" * 600 + "\nlast line"
    assert cut_message("short", USER_LIMIT) == "short"
