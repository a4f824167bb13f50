"""The stems of the word lists held computed in :mod:`memdir.search.wordstems` are what the rules compute from
the lists today (the lists stay the one source; a fresh process reads the literals instead of stemming a few
hundred words). After changing a word list or a stemming rule, rewrite the module:

    .venv/bin/python tests/search/test_wordstems.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[2] / "src" / "memdir" / "search" / "wordstems.py"

HEAD = '''"""The stems of memdir's word lists, computed once (written by ``tests/search/test_wordstems.py``,
which asserts they are what the rules compute from the lists: edit the lists, never this file).

Each set is a rule's answer that is the same in every process: :data:`STOPWORDS`
(:func:`memdir.search.stopwords.stopword_stems`), :data:`CHAT` (:func:`memdir.search.stopwords.chat_stems`),
:data:`REQUESTS` (:func:`memdir.search.tokenize.request_terms_of_words`), :data:`QUESTIONS`
(:func:`memdir.search.weighing.question_terms_of_words`). They hold (:func:`hold`) where the Snowball
stemmers are those of :data:`SNOWBALL`; elsewhere (another release, PyStemmer's C stemmers) the rules compute them.
"""

from __future__ import annotations

from .stemming import snowball


def hold() -> bool:
    """True when this process stems as the sets were computed (the same Snowball release, :data:`SNOWBALL`).
    Raises :class:`memdir.errors.MissingExtra` without ``snowballstemmer``."""
    return snowball() == SNOWBALL

'''


def computed() -> dict[str, object]:
    """Each literal of the module as the rules compute it now."""
    from memdir.search import stemming
    from memdir.search.weighing import question_terms_of_words
    from memdir.search.stopwords import chat_stems, stopword_stems
    from memdir.search.tokenize import request_terms_of_words

    return {"SNOWBALL": stemming.snowball(), "STOPWORDS": stopword_stems(), "CHAT": chat_stems(),
            "REQUESTS": request_terms_of_words(), "QUESTIONS": question_terms_of_words()}


def render() -> str:
    """The module's source: :data:`HEAD` and each literal, sorted, a few words a line."""
    out = [HEAD]
    for name, value in computed().items():
        if isinstance(value, str):
            out.append(f"SNOWBALL = {json.dumps(value)}  # the release whose stemmers computed the sets\n")
            continue
        words = sorted(value)
        quoted = [json.dumps(w, ensure_ascii=False) for w in words]
        lines = [", ".join(quoted[i:i + 8]) + "," for i in range(0, len(quoted), 8)]
        out.append(f"{name} = frozenset({{\n" + "".join(f"    {line}\n" for line in lines) + "})\n")
    out.append('\n__all__ = ["CHAT", "QUESTIONS", "REQUESTS", "SNOWBALL", "STOPWORDS", "hold"]\n')
    return "\n".join(out)


def test_the_literals_are_what_the_rules_compute_from_the_lists():
    from memdir.search import wordstems

    now = computed()
    assert wordstems.SNOWBALL == now["SNOWBALL"] == "3.1.1"
    assert wordstems.STOPWORDS == now["STOPWORDS"]
    assert wordstems.CHAT == now["CHAT"]
    assert wordstems.REQUESTS == now["REQUESTS"]
    assert wordstems.QUESTIONS == now["QUESTIONS"]
    assert {"becaus", "doe", "the", "um"} <= wordstems.STOPWORDS  # stems, not the words: "because" is no term
    assert "because" not in wordstems.STOPWORDS and "redis" not in wordstems.STOPWORDS  # control
    assert MODULE.read_text(encoding="utf-8") == render()  # the file is the renderer's, byte for byte


def test_another_stemmer_computes_the_sets_instead_of_reading_them():
    """Where the stemmer is not the one the literals were computed with (another Snowball release), the rules
    compute them: a query's stopwords are those of the stemmer that stems it."""
    code = (
        "from memdir.search import stemming, stopwords, tokenize, wordstems\n"
        "stemming.snowball = lambda: '2.2.0'\n"
        "wordstems.snowball = stemming.snowball\n"
        "wordstems.STOPWORDS = frozenset({'redis'})\n"  # what a stale literal would say
        "print(wordstems.hold(), stopwords.is_stopword('becaus'), stopwords.is_stopword('redis'),"
        " tokenize.query_terms('because the redis port'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "False True False ['redi', 'port']"


if __name__ == "__main__":
    MODULE.write_text(render(), encoding="utf-8")
    print(f"wrote {MODULE}")
