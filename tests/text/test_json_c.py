"""memdir.text.json_c: json's answers from json's C code alone (the hooks' fresh processes load no json, no re)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from memdir.text import json_c

DOCUMENTS = ['{"session_id": "abc", "cwd": "/tmp/prøject 日本", "n": [1, 2.5, -0.0, 1e400, null, true, false]}',
             '  \n\t{"a": {"b": ["\\u00e9\\ud800\\"\\\\"]}}\r\n ', "[]", '"just a string"', "NaN", "-Infinity", "12",
             '{"a": 1, "a": 2}']
BAD = ["", "   ", "{", '{"a": 1} x', '{"a": 1}{}', "\ufeff{}", "[1,]", '{"a": 1,}', "nul", '"\x01"', "[1] [2]"]
VALUES = [{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "é\n\"<x>\u2028\ud800\x7f"}},
          [1, 2.5, float("nan"), float("-inf"), None, True, "", {}], {1: "int key", 2.5: "float key", None: 0},
          ("a", "tuple"), 10**30]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_loads_is_json_loads(text):
    assert repr(json_c.loads(text)) == repr(json.loads(text))


@pytest.mark.parametrize("text", BAD)
def test_loads_refuses_as_json_does(text):
    with pytest.raises(json.JSONDecodeError) as ours:
        json_c.loads(text)
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(text)
    assert (str(ours.value), ours.value.pos) == (str(theirs.value), theirs.value.pos)


@pytest.mark.parametrize("value", VALUES)
def test_dumps_is_json_dumps(value):
    for ensure_ascii in (True, False):
        assert json_c.dumps(value, ensure_ascii=ensure_ascii) == json.dumps(value, ensure_ascii=ensure_ascii)


def test_dumps_refuses_as_json_does():
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        json_c.dumps({"a": object()})
    assert json_c.dumps({"a": [1]}) == '{"a": [1]}'  # control


def test_neither_loads_json_nor_re():
    code = ("import sys\nfrom memdir.text import json_c\n"
            "v = json_c.loads('{\"a\": [1, \"x\"]}'); s = json_c.dumps(v, ensure_ascii=False)\n"
            "print(s, sorted(m for m in ('json', 're') if m in sys.modules))\n"
            "json_c.loads('{')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == '{"a": [1, "x"]} []\n'
    # control: an error is json's own, raised by json (loaded then)
    assert "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes" in done.stderr
