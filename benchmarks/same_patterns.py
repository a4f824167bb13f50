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
# a run of one unit, long enough to be a dead tail (64+ characters without a stop, a digit or a symbol)
RUNS = ("密码是", "password:", "is", "pw:", "x", "passwort", "：", "パスワードは", "isé", "aß", "pass", "for", "ab:", "zz：", "x" * 30 + ":", "y" * 30 + "：")


def random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 40)):
        if rng.random() < 0.06:
            unit = rng.choice(RUNS)
            parts.append(unit * rng.randint(8, 120 // len(unit) + 30))
        else:
            parts.append(rng.choice(PIECES))
        if rng.random() < 0.4:
            parts.append(rng.choice((" ", " ", "\n", "  ")))
    return "".join(parts)


def _module(name: str, source: str, folder: Path):
    path = folder / (name.replace(".", "_") + ".py")
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"_main_{name.replace('.', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _redact(module):
    def call(text: str):
        found = module.redact(text)
        return [found.text, found.counts]
    return call


CHECKS = {  # name: (module, what is called on each text)
    "redact": ("memdir.text.redact", _redact),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--texts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--main", default="main")
    parser.add_argument("--only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memdir-same-patterns-") as tmp:
        for name, (module_name, wrap) in CHECKS.items():
            if args.only and name != args.only:
                continue
            path = "src/" + module_name.replace(".", "/") + ".py"
            source = subprocess.run(["git", "-C", str(HERE), "show", f"{args.main}:{path}"], capture_output=True,
                                    text=True, check=True).stdout
            old, new = wrap(_module(module_name, source, Path(tmp))), wrap(importlib.import_module(module_name))
            rng = random.Random(args.seed)
            same, differ, changed = 0, None, 0
            for _ in range(args.texts):
                text = random_text(rng)
                before, after = old(text), new(text)
                if before != after:
                    differ = {"text": text, "main": before, "this": after}
                    break
                same += 1
                changed += before[0] != text if isinstance(before, list) and isinstance(before[0], str) else 0
            print(json.dumps({"check": name, "same": same, "changed_by_both": changed, "differ": differ},
                             ensure_ascii=False))


if __name__ == "__main__":
    main()
