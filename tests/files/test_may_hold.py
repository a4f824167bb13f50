"""``may_hold``: the sieve a write's copy check runs over files no one has parsed yet (issue 28 §7).

It may say "cannot hold" only when the file's value (:func:`memdir.files.memfile.duplicate_key` of what
:func:`memdir.files.memfile.parse` reads) is not the key: checked on generated files — YAML plain, quoted, folded
and literal scalars, lists, tags, comments, numbers and booleans YAML would retype, no description (the title,
the name or the first line stands in), Claude Code's ``<type>_<name>`` stems — each against its own key (must
be True); and what it rules out (another value) beside what it leaves to the parse.
"""

from __future__ import annotations

import string
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from memdir.files.memfile import MalformedMemory, duplicate_key, may_hold, parse

WORD = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=8)
PUNCT = st.sampled_from([" ", "  ", " - ", ": ", ", ", "; ", " #", "#", "!", "'", "''", '"', "*", "_", "`", "\t",
                         "\r\n", "\n", "\n  ", "\x1b[1m", "|", ">", "&a", "~", "%", "@", "0x", "1_0", ".", "-"])
PHRASE = st.lists(st.one_of(WORD, PUNCT, st.sampled_from(["yes", "no", "on", "null", "~", "1e3", "0x1F", "1_000",
                                                          ".inf", "2026-01-02", "12:30", "0o17", "!!binary", "!tag"])),
                  min_size=0, max_size=10).map("".join)


@st.composite
def memory_file(draw) -> tuple[bytes, str]:
    stem = draw(st.sampled_from(["db-port", "user_db-port", "Notes", "hand-note-007", "a", "x_y-z"]))
    lines = []
    for key in draw(st.lists(st.sampled_from(["description", "title", "name", "type", "metadata"]), max_size=4)):
        form = draw(st.sampled_from(["plain", "single", "double", "folded", "literal", "list", "empty"]))
        value = draw(PHRASE).replace("\n", " ").replace("\r", " ")
        if form == "plain":
            lines.append(f"{key}: {value}")
        elif form == "single":
            lines.append(f"{key}: '{value}'")
        elif form == "double":
            lines.append(f'{key}: "{value}"')
        elif form in ("folded", "literal"):
            lines.append(f"{key}: {'>' if form == 'folded' else '|'}")
            lines += [f"  {draw(PHRASE)}".replace("\n", " ") for _ in range(draw(st.integers(1, 3)))]
        elif form == "list":
            lines.append(f"{key}:")
            lines += [f"  - {draw(PHRASE)}".replace("\n", " ") for _ in range(draw(st.integers(1, 3)))]
        else:
            lines.append(f"{key}:")
    body = draw(PHRASE) + draw(st.sampled_from(["", "\n# heading " + draw(PHRASE), "\n> quoted " + draw(PHRASE)]))
    front = draw(st.booleans())
    text = ("---\n" + "\n".join(lines) + "\n---\n\n" + body) if front else body
    return text.encode("ascii", "replace"), stem


def _key(data: bytes, stem: str) -> str | None:
    try:
        record = parse(data.decode("ascii"), stem).record
    except (MalformedMemory, ValueError):
        return None
    return duplicate_key(record.description, record.body)


@settings(max_examples=3000, deadline=None)
@given(memory_file())
def test_a_file_may_always_hold_its_own_value(one):
    data, stem = one
    key = _key(data, stem)
    if key is not None:
        assert may_hold(data, stem, key), (data, stem, key)


def test_what_it_rules_out_and_what_it_leaves_to_the_parse():
    data = b"---\ndescription: the dev db listens on 5433\ntype: project\n---\n\nUse 5433 in dev.\n"
    assert may_hold(data, "db-port", duplicate_key("The dev DB listens on 5433", "use 5433 in   dev."))
    assert not may_hold(data, "db-port", duplicate_key("the dev db listens on 5434", "use 5434 in dev."))
    assert not may_hold(data, "db-port", duplicate_key("the dév db listens on 5433 ½", "x"))  # not ASCII: cannot
    # a file the sieve cannot judge: always "may" (the parse decides)
    escaped = b'---\ndescription: "the dev db listens on \\x35433"\n---\n\nUse 5433 in dev.\n'
    assert may_hold(escaped, "db-port", duplicate_key("the dev db listens on 55433", "use 5433 in dev."))
    tabbed = b"---\ndescription: the dev db\tlistens\n---\n\nbody\n"
    assert may_hold(tabbed, "db-port", duplicate_key("zzz", "yyy"))
    accented = unicodedata.normalize("NFD", "---\ndescription: café\n---\n\nbody\n").encode()
    assert may_hold(accented, "db-port", duplicate_key("zzz", "yyy"))
    # the file name's words count: a file with no description shows its title, which a hashed stem keeps
    assert may_hold(b"just a body line\n", "Squash merges", duplicate_key("just a body line", "just a body line"))
