"""JSON as :mod:`json` reads and writes it, from its C accelerator alone (:mod:`_json`).

The SessionStart hook reads its input and writes its output as JSON in a fresh process; importing
:mod:`json` loads :mod:`re` (its decoder's patterns) and :mod:`enum` with it, about a fifth of the
hook's instructions. :func:`loads` and :func:`dumps` give what ``json.loads`` and ``json.dumps`` give
(the same C scanner and encoder ``json`` itself calls), with :mod:`json` loaded only for what the
accelerator does not do: an interpreter without it, and every error, so the exception raised is
``json``'s own (:class:`json.JSONDecodeError` with its message).
"""

from __future__ import annotations

try:
    import _json
except ImportError:  # an interpreter without the accelerator: json's pure-Python code
    _json = None

_WHITESPACE = " \t\n\r"  # what json skips around a document


class _Reading:
    """The decoder settings the C scanner reads (``json.JSONDecoder()``'s defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_scan = None


def loads(text: str):
    """``json.loads(text)`` for a ``str``: the value. Raises what it raises
    (:class:`json.JSONDecodeError`: not JSON, extra data)."""
    global _scan
    if _json is not None and isinstance(text, str):
        if _scan is None:
            _scan = _json.make_scanner(_Reading())
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _scan(text, start)
        except Exception:  # noqa: BLE001 - json says what it was (StopIteration: no value at all)
            pass
        else:
            if len(text[end:].lstrip(_WHITESPACE)) == 0:
                return value
    import json

    return json.loads(text)


def _refuse(value):
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps(value, *, ensure_ascii: bool = True) -> str:
    """``json.dumps(value, ensure_ascii=ensure_ascii)`` (its separators ``", "`` and ``": "``, no
    indent). Raises what it raises (:class:`TypeError` for a value JSON cannot hold)."""
    if _json is not None and not isinstance(value, str):
        try:
            encode = _json.make_encoder({}, _refuse, _json.encode_basestring_ascii if ensure_ascii
                                        else _json.encode_basestring, None, ": ", ", ", False, False, True)
            return "".join(encode(value, 0))
        except Exception:  # noqa: BLE001 - json says what it was
            pass
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii)


__all__ = ["dumps", "loads"]
