"""What a fresh search process compiles and loads on demand gives the same answers as compiled and loaded up front:
the tokenizer's ASCII segmentation, and the Snowball stemmers read from the package's files one language at a time."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys

from memdir.search import segmenting, tokenize


def _spans(pattern, text: str) -> list[tuple]:
    return [(m.span(), m.group("cjk"), m.group("word")) for m in pattern.finditer(text)]


def test_ascii_text_segments_as_the_full_pattern_reads_it():
    full = segmenting._segment()
    rng = random.Random(7)
    texts = [string.printable, "getUserById OPENAI_API_KEY back-off --x-- a_b_ _c 5,433 v3.2.1 +1 (555) 010-2030",
             *("".join(rng.choice(string.printable) for _ in range(rng.randint(1, 60))) for _ in range(3000))]
    for text in texts:
        assert _spans(segmenting._ASCII_SEGMENT, text) == _spans(full, text), text
    assert [m.group("word") for m in tokenize.segments("getUserById, back-off")] == ["getUserById", "back-off"]
    # control: text that is not ASCII is read by the full pattern (a word with an accent, a CJK run)
    assert [(m.group("cjk"), m.group("word")) for m in tokenize.segments("café 日本語")] == [
        (None, "café"), ("日本語", None)]
    assert _spans(segmenting._ASCII_SEGMENT, "café") != _spans(full, "café")


def test_has_cjk_of_ascii_text_compiles_nothing():
    assert not tokenize.has_cjk("staging redis port") and tokenize.has_cjk("redis 的端口")
    assert not tokenize.has_cjk("café Zürich логи")  # control: not ASCII, and no CJK either


STEMS = """
import json, sys
words = {"english": ["running", "routes", "analysis", "publicity", "generously", "databases", "flies"],
         "russian": ["логах", "логов", "серверами", "заметки"], "greek": ["διακομιστησ", "διακομιστων", "αρχεια"]}
from memdir.search import stemming
alone = {lang: [stemming._stemmer(lang).stemWord(w) for w in ws] for lang, ws in words.items()}
loaded = sorted(m for m in sys.modules if "snowball" in m)
import snowballstemmer
package = {lang: [snowballstemmer.stemmer(lang).stemWord(w) for w in ws] for lang, ws in words.items()}
print(json.dumps([alone == package, alone["russian"], loaded, stemming.snowball()]))
"""


def test_the_stemmers_read_one_language_at_a_time_stem_as_the_package():
    done = subprocess.run([sys.executable, "-c", STEMS], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    same, russian, loaded, release = json.loads(done.stdout)
    assert same and russian == ["лог", "лог", "сервер", "заметк"]
    assert loaded == ["_memdir_snowball", "_memdir_snowball.among", "_memdir_snowball.basestemmer",
                      "_memdir_snowball.english_stemmer", "_memdir_snowball.greek_stemmer",
                      "_memdir_snowball.russian_stemmer"]  # not the package, nor serbian, czech…
    assert release == "3.1.1"


def test_a_process_that_loaded_the_package_stems_with_it():
    """The package imported first (another library's doing) or blocked: the stemmers come from it as before."""
    code = ("import snowballstemmer, sys\nfrom memdir.search import stemming\n"
            "print(stemming.stem('running'), '_memdir_snowball' in sys.modules, type(stemming._stemmer()).__module__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["run", "False", "snowballstemmer.english_stemmer"], done.stderr
