"""The gate's pattern of a value put right after a word saying so: "actually the port is 5434", "make that 5434"
(:data:`PUT_RIGHT`, one alternative of :mod:`memdir.consolidation.gate`'s correction rule). Strings only, no imports:
the gate compiles it with its rule (case-insensitive)."""

from __future__ import annotations

# A value put right after a word saying so (nu49: "actually the port is 5434" fired nothing): the opener, "it is" or
# "the <thing> is|'s", a value with a digit (taken whole, possessively: linear). Not a result (break50a: "Actually the
# output is 404", "the exit code was 1", "it's 12 minutes", "it's 3am" fired): no "was", no result noun before the
# verb, and after the value only the clause's end or a word going on about the setting ("now", "on staging"): no count
# or time ("minutes", "o'clock", "%", "5pm"). "Make that 5434", "oops", "sorry", "my bad" (break50a: missed) fire.
# A measurement is a result too (fix52b: "No, the latency is 300ms", "Actually the p99 is 250 now", "Sorry, the answer
# is 42", "Actually the line is 42", "No, the commit is abc123", "No, the error rate is 5 on staging" fired): its noun
# (latency, rate, p99, line, page, answer, commit) is a result noun, and a number written against its unit ("300ms",
# "2s", "4gb", "3x") is no value (:data:`_MEASURED`). A bare digit after "make it" is a count ("Sure, make it 3").
_RESULT_NOUNS = (r"(?:outputs?|results?|errors?|count|code|status|total|score|diff|response|coverage|runs?|build|tests?"
                 r"|latency|latencies|rates?|p\d+|lines?|pages?|answers?|commits?)")
_MEASURED = (r"(?!\d[\d.,]*(?:ms|us|µs|ns|s|secs?|m|mins?|h|hrs?|d|days?|w|wks?|b|kb|mb|gb|tb|k|x|rps|qps|fps|px|pt"
             r"|em|°c?|%)(?![\w:/-]|\.\w))")
_UNITS = (r"(?<![\d.][ap]m)(?=\s*$|\s*[,.;:!)\u2014]|\s+(?:now|not|instead|then|again|too|here|there|on|in|for|and"
          r"|but|so|please)\b)")
_VALUE = _MEASURED + r"(?=[\w.:/-]*\d)[\w.:/-]*+" + _UNITS
PUT_RIGHT = (r"^(?:no|nope|actually|correction|wait|oops|sorry|my bad)\b[,.!:;\u2014-]?\s+(?:actually,?\s+)?"
             r"(?:it'?s|it is|it should be|(?:the|our|my)\s+(?:[^\s,.;:!?]+\s+){0,4}?(?!" + _RESULT_NOUNS
             + r"(?:'s)?\s)[^\s,.;:!?]+?(?:\s+(?:is|are|should be)|\s*'s)\b)\s+(?:now\s+|actually\s+)?(?:on\s+|at\s+|in\s+)?"
             + _VALUE + r"|^(?:\w+,?\s+)?make (?:that|it)\s+(?!\d\b)" + _VALUE + r"|^correction\s*[:\u2014-]\s*\w")

__all__ = ["PUT_RIGHT"]
