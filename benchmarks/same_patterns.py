"""Main's patterns against this checkout's on random hostile texts: the same matches, or the first text that differs.
Prints one JSON object per line.

    python benchmarks/same_patterns.py [--texts 100000] [--seed 42] [--main REF] [--only NAME]

A rewrite made to read hostile text in linear time must match what it matched. Each check imports one module twice,
from ``git show REF:path`` (default ``main``) and from this checkout, and calls both on the same random texts: short
pieces of what the patterns look for (keywords in any case, "for" and up to three words, verbs, ":" and "=", quotes,
stops, digits, symbols, runs of spaces), joined with or without a space, and now and then a long run of one piece
(a word of 64+ characters holding no digit nor symbol is what :func:`memdir.text.redact._stated_sub` reads
differently). Texts are at most a few hundred characters: main's quadratic patterns stay fast there. ``same``:
how many texts gave the same result; ``differ``: the first that did not, with both results.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "src"))

PIECES = (
    "password", "PassWord", "passwd", "pass", "passphrase", "pwd", "pw", "PW", "secret", "api key", "api_key", "apikey",
    "access token", "access-token", "auth token", "token", "Token", "passwort", "kennwort", "mot de passe",
    "contraseña", "contrasena", "senha", "密码", "口令", "密钥", "令牌", "パスワード", "pаss", "paſs", "KEY",
    "for", "of", "on", "to", "in", "at", "für", "zum", "de", "del", "du", "pour", "para", "staging", "prod db",
    "is", "was", "ist", "war", "est", "es", "é", "É", "isis", "esté", "=", ":", "：", "是", "为", "は",
    " ", " ", " ", "  ", "\t", "\n", "\u3000", "\xa0", '"', "'", "`", "，", "。", "；", ".", ",", ";", "!", "?", ")",
    "hunter2", "Xk9-", "abc", "abcdef", "s3cret!x", "1", "42", "!", "@", "#", "$", "%", "^", "&", "*", "+", "/",
    "_", "~", "-", "[REDACTED:password]", "curl -u ", "mysql -p", "SECRET_KEY=", "x", "y", "zzz", "wort",
)
# the rules extractor's questions after a statement, corrections, requests after what they ask to keep, asks to write
RULE_PIECES = (
    "I hike", "in the mountains", "we use pnpm", "the port is 6543", ",", ", ", " ,", ",  ", "and ", "but ", "so ",
    "what", "where", "how", "do", "does", "did", "are", "is", "have", "can", "would", "will", "you", "u", "You", "?",
    "?\n", "\n", " ", "  ", "   ", "\t", "\xa0", "not", "Not", "not x", "instead", "rather than", "but", "should be",
    "should use", "不是", "而是", "应该", "put", "putting", "add", "write", "save", "keep", "this", "that", "it", "these",
    "into", "in", "to", "the", "your", "CLAUDE.md", "agents.md", "memory", "memories", "把", "这个", "记", "写", "进",
    "到", "记忆", "merk dir das", "merke euch es bitte", "vergiss das nicht", "기억해 줘", "忘れないでください",
    "souviens-toi", "recuérdalo", "lembre-se disso", "запомни это", "，", "、", ":", "：", ";", ".", "!", "。", "！",
    "Always run tests", "never push", "use X", "Y", ", do you", " do you ", ", and what", " can u", "put this into CLAUDE.md",
    "save it to your memory", "把这个记到记忆", ", merk dir das", "、忘れないで", ", not Y", " not\n",
)
# words and breaks for the person's lead-ins ("Well, I …", "x - but I …") and for a text put on one line
OTHER_PIECES = (
    "I", "i'm", "im", "I've", "I'd", "my", "My", "but", "and", "so", "well", "Luckily", "that is cool", "x", "-", "--",
    "'", ",", "!", ".", ":", ";", " ", " ", "  ", "\t", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028",
    "\u2029", "\xa0", "\u3000", "é", "\x1b[2J", "\x1b]0;t\x07", "\u200b", "hike", "love", "Ich",
)
RULE_ENDS = ("?", "?", "?\n", "?\n\n", "", ".", "!")
# a run of one unit, long enough to be a dead tail (64+ characters without a stop, a digit or a symbol)
RUNS = ("密码是", "password:", "is", "pw:", "x", "passwort", "：", "パスワードは", "isé", "aß", "pass", "for", "ab:", "zz：", "x" * 30 + ":", "y" * 30 + "：")


def random_text(rng: random.Random, pieces: tuple[str, ...] = PIECES, runs: tuple[str, ...] = RUNS,
                ends: tuple[str, ...] = ("",)) -> str:
    parts = []
    for _ in range(rng.randint(1, 40)):
        if rng.random() < 0.06:
            unit = rng.choice(runs)
            parts.append(unit * rng.randint(8, 120 // len(unit) + 30))
        else:
            parts.append(rng.choice(pieces))
        if rng.random() < 0.4:
            parts.append(rng.choice((" ", " ", "\n", "  ")))
    return "".join(parts) + rng.choice(ends)


def _module(name: str, source: str, folder: Path):
    path = folder / (name.replace(".", "_") + ".py")
    path.write_text(source, encoding="utf-8")
    # a sibling of the module it stands for, so its relative imports read this checkout's package
    spec = importlib.util.spec_from_file_location(name.rpartition(".")[0] + "._main_" + name.rpartition(".")[2], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _redact(module):
    def call(text: str):
        found = module.redact(text)
        return [found.text, found.counts]
    return call


def _rules(module):
    old = not hasattr(module, "_without_question_tail")  # main's: the four expressions as they were

    def call(text: str):
        instead = module._INSTEAD.search(text)
        return [module._QUESTION_TAIL.sub(".", text) if old else module._without_question_tail(text),
                instead and instead.span(), module._REMEMBER_TAIL.sub("", text),
                bool(module._WRITE_DOWN.search(text)) if old else module._asks_to_write_down(text),
                module.classify(text)]
    return call


def _persona(module):
    def call(text: str):
        lead = module._LEAD_IN.match(text)
        return [module._THEN_I.split(text, maxsplit=1), lead and lead.groupdict(), lead and lead.span(),
                module.own_clause(text), module.after_passing(text)]
    return call


def _printable(module):
    return module.one_line


CHECKS = {  # name: (module, what is called on each text, its pieces, its runs, how a text ends)
    "redact": ("memdir.text.redact", _redact, PIECES, RUNS, ("",)),
    "rules": ("memdir.consolidation.extractors.rules", _rules, RULE_PIECES,
              (" ", "do you ", "put this ", ", ", "not ", ", what"), RULE_ENDS),
    "persona": ("memdir.consolidation.extractors.persona", _persona, OTHER_PIECES, (" ", "-", "x-", " but", "a, "), ("",)),
    "printable": ("memdir.text.printable", _printable, OTHER_PIECES, (" ", "\t", " \n", "\n", "é "), ("",)),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--texts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--main", default="main")
    parser.add_argument("--only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memdir-same-patterns-") as tmp:
        for name, (module_name, wrap, pieces, runs, ends) in CHECKS.items():
            if args.only and name != args.only:
                continue
            path = "src/" + module_name.replace(".", "/") + ".py"
            source = subprocess.run(["git", "-C", str(HERE), "show", f"{args.main}:{path}"], capture_output=True,
                                    text=True, check=True).stdout
            old, new = wrap(_module(module_name, source, Path(tmp))), wrap(importlib.import_module(module_name))
            rng = random.Random(args.seed)
            same, differ, changed = 0, None, 0
            for _ in range(args.texts):
                text = random_text(rng, pieces, runs, ends)
                before, after = old(text), new(text)
                if before != after:
                    differ = {"text": text, "main": before, "this": after}
                    break
                same += 1
                shown = before[0] if isinstance(before, list) else before
                changed += isinstance(shown, str) and shown != text
            print(json.dumps({"check": name, "same": same, "changed_by_both": changed, "differ": differ},
                             ensure_ascii=False))


if __name__ == "__main__":
    main()
