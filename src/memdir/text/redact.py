"""Write-time sanitizing: secret redaction.

Secret kinds follow seed-behaviour §A7 (dsh-auto-memory v0.6), applied in that
order with ASCII ``\\b``/``\\d`` semantics (so ``电话13812345678`` still matches),
plus memdir's adds: PEM/OpenSSH private-key blocks, Stripe secret and
restricted keys (``sk_live_…``, ``rk_test_…``; not the publishable ``pk_…``), each model provider's key by its
provider (Anthropic ``sk-ant-…``, OpenRouter ``sk-or-v1-…``, Groq ``gsk_…``, xAI ``xai-…``, Hugging Face
``hf_…``; any other ``sk-…`` is ``openai-key``, as the seed names it), a GitLab token (``glpat-…``),
a bare JSON Web Token (``eyJ….eyJ….…``), a Bearer token of 20+ characters holding a digit and a letter,
an incoming-webhook URL (Slack, Discord: whoever holds it may post),
the password part of connection URIs (``postgres://admin:pw@host`` keeps user and host; a password holding
``@`` goes up to the last one), a basic-auth pair's password (``curl -u admin:pw …``, any value; alone,
``deploy:Pa55w0rd!x``, when the value holds a letter, a digit and a symbol such as ``!#$%^&*=?~``, so
``host:port``, ``key:value`` and ``http://host:8080/`` stay; the user is kept), and a
secret stated in words (``the password is hunter2-Xk9``, ``the password for staging is …`` — up to three
words of what it is for — ``Das Passwort für staging ist …``, ``le mot de passe est …``,
``la contraseña es …``, ``密码是…``, ``パスワードは…``; the value must hold a digit or a symbol), an environment or configuration assignment
to a secret-named key (``export DB_PASSWORD=…``, ``SECRET_KEY='…'``,
``DEPLOY_TOKEN: …``; the key is kept, the value goes; a full stop ending
the sentence, before a space or the end, is not part of the value) and the ``-p<password>``
of a ``mysql``/``mysqldump``/``mysqladmin`` command line. Each match becomes
``[REDACTED:<kind>]``. Redacting redacted text changes nothing and counts nothing.

Which assignments count (false positives kept low on purpose): the key is
one word joined by ``_`` (any case) ending in ``_PASSWORD``, ``_PASSWD``,
``_PWD``, ``_TOKEN``, ``_KEY`` or ``_SECRET`` (``SECRET_*`` and
``*_SECRET_*`` too), or is a bare ``PASSWORD``/``PASSWD``/``SECRET``; a bare
``KEY=value`` or ``TOKEN=value`` (common in docs for any key) is left alone.
A value that refers to a secret instead of holding it stays: ``$VAR``,
``${VAR}``, ``%VAR%``, ``<placeholder>``, a call or lookup (``os.environ[…]``,
``getenv(…)``), and a value of fewer than 4 characters. The value must also
hold a digit or a symbol, except after ``=`` with an upper-case key and 8+
characters (``SECRET_KEY=abcdefghij``): so ``sort_key = lambda x: x`` and
``primary_key=True`` in code stay as they are.

Fence-tag escaping lives in :mod:`memdir.text.fence` (the hot path needs it
without these patterns).
"""

from __future__ import annotations

import re

_A = re.ASCII

# GB 11643-1999 resident ID: weights for the first 17 digits, check characters by sum mod 11.
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


class _Lazy:
    """A pattern compiled at its first use (``search``, ``sub`` … are the compiled pattern's, kept on the instance
    once asked for): importing this module compiles nothing, so a module naming only its placeholder or
    :func:`tally` pays no pattern, and a write compiles those it reads, once. (A plain class: this module is on
    the hook path.)"""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str):
        found = getattr(re.compile(self.pattern, self.flags), name)
        setattr(self, name, found)
        return found


class _Skipping:
    """``whole`` matched only where ``first`` is found, left to right, never overlapping (what ``whole.sub`` does
    when every match of ``whole`` starts with one of ``first``), in linear time: after a candidate that matches
    nothing, the text up to where ``past`` ends from it is passed over, because every later candidate there
    fails too (a later ``curl`` of the same line reads only part of what the first one read). As one expression
    each such pattern read a line of ``curl curl curl …`` once from each ``curl``: quadratic (0.3 s at 8,000
    characters). (A plain class: this module is on the hook path.)"""

    __slots__ = ("first", "flags", "past", "pattern")

    def __init__(self, whole: str, first: str, past: str, flags: int):
        # compiled at the first use (re's cache keeps them): importing this module costs no more than before
        self.pattern, self.first, self.past, self.flags = whole, first, past, flags

    def sub(self, replace, text: str) -> str:
        """``text`` with each match ``m`` replaced by ``replace(m)`` (a function of the :class:`re.Match`)."""
        whole, first, past = (re.compile(p, self.flags) for p in (self.pattern, self.first, self.past))
        out, done, at = [], 0, 0
        while (found := first.search(text, at)) is not None:
            match = whole.match(text, found.start())
            if match is None:
                at = max(past.match(text, found.start()).end(), found.start() + 1)
                continue
            out += (text[done:match.start()], replace(match))
            done = at = max(match.end(), match.start() + 1)
        return "".join(out) + text[done:]


class _PairAlone:
    """``user`` + ``(?=…)`` for each of ``needs`` + ``value``, matched as ``sub`` does, in linear time. A need is
    ``[^X]*+(K)?``: a K before any character of X (the lookahead ``(?=[^X]*K)`` at the value's start). What a need
    found at one start holds for every start up to where it found it (K there) or up to where it stopped (no K):
    kept, so the next candidate's need reads nothing again. As one expression a word of ``,a:1,a:1,…`` was read to
    its end from each candidate for a symbol it did not hold: quadratic (0.4 s at 8,000 characters)."""

    __slots__ = ("flags", "lead", "needs", "pattern")

    def __init__(self, lead: str, value: str, needs: tuple[str, ...], flags: int):
        # compiled at the first use (re's cache keeps them): importing this module costs no more than before
        self.lead, self.needs, self.pattern, self.flags = lead, needs, lead + value, flags

    def sub(self, replace, text: str) -> str:
        """``text`` with each match ``m`` replaced by ``replace(m)`` (a function of the :class:`re.Match`)."""
        leads, whole = re.compile(self.lead, self.flags), re.compile(self.pattern, self.flags)
        needs = [re.compile(need, self.flags) for need in self.needs]
        known = [(-1, -1, False)] * len(needs)  # per need: (from, to, holds) for every start in [from, to]
        out, done, at = [], 0, 0
        while (lead := leads.search(text, at)) is not None:
            start, value = lead.start(), lead.end()
            holds = True
            for i, need in enumerate(needs):
                low, high, found = known[i]
                if not low <= value <= high:
                    read = need.match(text, value)
                    found = read.group(1) is not None
                    known[i] = (value, read.start(1) if found else read.end(), found)
                if not found:
                    holds = False
                    break
            match = whole.match(text, start) if holds else None
            if match is None:
                at = start + 1
                continue
            out += (text[done:start], replace(match))
            done = at = match.end()
        return "".join(out) + text[done:]


def id_card_valid(number: str) -> bool:
    """True when an 18-character mainland resident ID passes the GB 11643 check digit."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS))
    return _ID_CHECK[total % 11] == number[17].upper()


_PATTERNS: tuple[tuple[str, _Lazy | _Skipping | _PairAlone], ...] = (
    ("private-key", _Lazy(
        r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END \1-----|\Z)", re.S)),
    ("aws-key", _Lazy(r"\bAKIA[0-9A-Z]{16}\b", _A)),
    ("github-token", _Lazy(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b|\bgithub_pat_[A-Za-z0-9_]{20,}\b", _A)),
    ("npm-token", _Lazy(r"\bnpm_[A-Za-z0-9]{20,}\b", _A)),
    ("gitlab-token", _Skipping(r"\bglpat-[A-Za-z0-9_-]{20,}\b", r"\bglpat-", r"[A-Za-z0-9_-]*", _A)),
    # Keys of providers other than OpenAI that start "sk-" too, named before the "sk-" of OpenAI's (and of others
    # alike: DeepSeek's) takes them: Anthropic's "sk-ant-api03-…"/"sk-ant-admin01-…", OpenRouter's "sk-or-v1-<hex>".
    ("anthropic-key", _Skipping(r"\bsk-ant-[A-Za-z0-9_-]{20,}\b", r"\bsk-ant-", r"[A-Za-z0-9_-]*", _A)),
    # (its hex first, then the rest of the run of key characters: a "-…" tail is the key's too, never left shown)
    ("openrouter-key", _Skipping(r"\bsk-or-v1-[0-9a-f]{32,}[A-Za-z0-9_-]*\b", r"\bsk-or-v1-", r"[A-Za-z0-9_-]*", _A)),
    # (a failed "sk-" fails every later one of the same run of key characters: the run is passed over)
    ("openai-key", _Skipping(r"\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}\b", r"\bsk-", r"[A-Za-z0-9_-]*", _A)),
    ("stripe-key", _Lazy(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b", _A)),
    ("bearer", _Lazy(
        r"\bbearer\s+(?:eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]+){0,2}"
        r"|[A-Za-z0-9_-]{16,}[=+/][A-Za-z0-9_\-=/+]{10,}"
        # an opaque token: 20+ characters holding a digit and a letter ("Bearer abcdef0123456789abcdef01…")
        r"|(?=[A-Za-z0-9._~-]*\d)(?=[A-Za-z0-9._~-]*[A-Za-z])[A-Za-z0-9._~-]{20,})", _A | re.I)),
    # A JSON Web Token without "Bearer" before it: three base64url parts, the first two JSON objects ("eyJ").
    ("jwt", _Lazy(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", _A)),
    # An incoming-webhook URL is its own credential: whoever holds it may post.
    ("webhook-url", _Lazy(
        r"\bhttps?://(?:hooks\.slack\.com/(?:services|workflows|triggers)/"
        r"|(?:(?:canary\.|ptb\.)?discord(?:app)?\.com)/api/webhooks/)[A-Za-z0-9/_-]{8,}", _A)),
    ("slack-token", _Lazy(r"\bxox[bposa]-[0-9A-Za-z-]{10,}\b", _A)),
    ("google-key", _Lazy(r"\bAIza[0-9A-Za-z_-]{30,}\b", _A)),
    # Groq's "gsk_…", xAI's "xai-…", Hugging Face's "hf_…": letters and digits only after the prefix, so a run of
    # prefixes ("gsk_gsk_…") stops each candidate at its next "_" or "-" (linear); a name such as "hf_hub_download"
    # or "xai-sdk" is too short or holds "_"/"-" and stays.
    ("groq-key", _Lazy(r"\bgsk_[A-Za-z0-9]{40,}\b", _A)),
    ("xai-key", _Lazy(r"\bxai-(?=[A-Za-z]*\d)[A-Za-z0-9]{40,}\b", _A)),
    ("huggingface-token", _Lazy(r"\bhf_[A-Za-z0-9]{30,}\b", _A)),
    # The password of a URI's user: up to the last "@" before the host (a password may hold "@": the URL's
    # delimiter is the last one, and "https://u:p@ss@host" kept "ss" when the first one ended it).
    ("uri-password", _Lazy(
        r"\b([A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@]+):([^\s/]+)@", _A)),
    # A basic-auth pair: after curl's -u/--user (any value: the flag says what it is) ...
    # (a "curl" that finds no -u fails every later one of its line: the line is passed over)
    ("basic-auth", _Skipping(
        r"(\bcurl\b[^\n]*?[ \t](?:-u|--user|-U|--proxy-user)(?:[ \t]+|=)[\"']?[^\s:\"']+):([^\s\"']+)", r"\bcurl\b",
        r"[^\n]*", _A)),
    # ... or alone ("login with deploy:Pa55w0rd!x", "admin:Tr0ub4dor&3@db"), when the value looks like a
    # password: 6+ characters holding a letter, a digit and a symbol no identifier, version or path holds
    # (so host:port, key:value prose, node:20-alpine, sha256:<hex>, file.py:12 and http://host:8080/ stay).
    # (the value's three conditions, "a letter / a digit / a symbol before the word ends", are known at once for
    # every value starting before the one found: :class:`_PairAlone`)
    ("basic-auth", _PairAlone(
        r"(?<![\w.:/@%+\\-])([A-Za-z_][A-Za-z0-9._@+-]{0,63}):",
        r"([^\s/:@'\"`<>\[\]]{6,128}?)(?=[.,;!?]?(?:[\s@'\"`)>\]]|$))",
        ((r"[^\s/A-Za-z]*+([A-Za-z])?"), r"[^\s/\d]*+(\d)?", r"[^\s/@!#$%^&*=?~]*+([!#$%^&*=?~])?"), _A)),
    ("phone", _Lazy(r"\b1[3-9]\d{9}\b", _A)),
)
# A secret stated in words: "the password is hunter2-Xk9", "api key: abc123…", "密码是…".
# The value must look like a secret (a digit or a symbol in it), so "the token is
# stored in the vault" stays as it is.
_STATED = _Lazy(
    r"(?P<lead>\b(?:pass(?:word|wd|phrase)?|pwd|pw|secret|api[ _-]?key|access[ _-]?token|auth[ _-]?token|token"
    r"|passwort|kennwort|mot de passe|contrase(?:ñ|n)a|senha)"
    # what the secret is for, between the word and the verb: "the password for staging is …" (up to 3 words)
    r"(?:\s+(?:for|of|on|to|in|at|für|zum|zur|de|du|pour|para|del)(?:\s+(?!(?:is|was|ist|war|est|es|é)\b)"
    r"[^\s:=：]+){1,3}?)?"
    r"\s*(?:is|was|ist|war|est|es|é|=|:|：)\s*[\"'`]?|(?:密码|口令|密钥|令牌|パスワード)\s*(?:是|为|は|:|：|=)\s*)"
    r"(?P<value>(?=[^\s\"'`，。；]*[\d!@#$%^&*+=/_~-])[^\s\"'`，。；]{6,})",
    re.I,
)
# (The value's lookahead reads the rest of its word for a digit or a symbol, again from every lead ending in that word
# and from every place a word after "for" may end: a long word holding none ("密码是密码是…", "password for isis…")
# was read to its end once from each, quadratic: 10 s at 32,000 characters. Such a stretch, a "dead tail" (no stop,
# no digit or symbol, up to a stop or the end), holds no value: its middle is read with stops in its place.)
_DEAD_LONG = 64
_DEAD_TAIL = _Lazy(r"(?<![^\s\"'`，。；\d!@#$%^&*+=/_~-])[^\s\"'`，。；\d!@#$%^&*+=/_~-]{" + str(_DEAD_LONG)
                   + r",}+(?![\d!@#$%^&*+=/_~-])")
_DEAD_EDGE = 24  # kept as written at each end of a dead tail: a lead reaching past it starts at most 15 before its end
_STOPPED = _Lazy(r"[^:：]")  # what the middle becomes: "，" (a stop); ":" and "：" end a word after "for"
_VALUE_RUN = _Lazy(r"[^\s\"'`，。；]*")


def _stated_sub(replace, text: str) -> str:
    """``text`` with each match of :data:`_STATED` replaced by ``replace(lead, value, whole)`` (the texts of its groups
    and of the match), as ``_STATED.sub`` does, in linear time. Each dead tail of 64+ characters is read with its middle
    (all but 24 at each end) turned to "，", except ":" and "：": a lead starting in that middle ends in the tail, whose
    values all fail, and one reaching into it from before ends its word after "for" at the same places, so every match
    starts where it did; a value running into such a middle is read on to its word's end in ``text``."""
    # (a dead tail is inside one word between spaces, str.isspace()'s being re's \s: without a word of its length, the
    # text holds none and the pattern is not even compiled)
    long = len(text) >= _DEAD_LONG and any(len(word) >= _DEAD_LONG for word in text.split())
    tails = [(m.start() + _DEAD_EDGE, m.end() - _DEAD_EDGE) for m in _DEAD_TAIL.finditer(text)] if long else []
    if not tails:
        return _STATED.sub(lambda m: replace(m.group("lead"), m.group("value"), m.group(0)), text)
    parts, done = [], 0
    for start, end in tails:
        parts += (text[done:start], _STOPPED.sub("，", text[start:end]))
        done = end
    read = "".join(parts) + text[done:]
    out, done = [], 0
    while (match := _STATED.search(read, done)) is not None:
        start, value = match.start(), match.start("value")
        end = _VALUE_RUN.match(text, match.end()).end()
        out += (text[done:start], replace(text[start:value], text[value:end], text[start:end]))
        done = end
    return "".join(out) + text[done:]


_ID_CARD = _Lazy(r"\b\d{17}[\dXx]\b", _A)
_ENV_KEY = (r"(?:[A-Za-z][A-Za-z0-9]*_)*(?:[A-Za-z0-9]+_(?:PASSWORD|PASSWD|PWD|TOKEN|KEY|SECRET)"
            r"|SECRET(?:_[A-Za-z0-9]+)*|PASSWORD|PASSWD)")
# (The key is the whole word it starts, however its parts split: it is checked to be parts joined by single "_" in one
# pass, then taken once, atomic. A word of "SECRET_" again and again was parsed every way its parts split, each time
# read on to its end, and parsed again when no "=" followed: quadratic, 0.8 s at 8,000 characters.)
_ENV_WORD = r"(?=(?:[A-Za-z0-9]++_)*+[A-Za-z0-9]++(?![A-Za-z0-9_]))"
_ENV_ASSIGN = _Lazy(
    r"(?<![A-Za-z0-9_.$-])(?P<key>(?>" + _ENV_WORD + _ENV_KEY + r"(?![A-Za-z0-9_])))"
    r"(?P<sep>[ \t]*(?P<op>=|:)[ \t]*)(?P<q>[\"']?)"
    r"(?P<value>(?![$%<{(\[*])[^\s\"'`]{4,}?)(?P=q)(?=[\s,;)}\]]|\.?$|\.\s)", re.I | _A)
_VALUE_REFERENCE = _Lazy(r"[(\[]|^(?:os\.|process\.env|env\.|ENV\[)", re.I)
_MYSQL_PASSWORD = _Skipping(r"(?P<lead>\bmysql(?:dump|admin|import|show|check)?\b[^\n]*?[ \t])-p(?P<value>[^\s'\"]+)",
                            r"\bmysql(?:dump|admin|import|show|check)?\b", r"[^\n]*", _A)


class Redaction:
    """The redacted text and how many secrets of each kind were replaced.
    (A plain class: this module is on the hook path, where ``dataclasses``
    would cost more to import than the whole render.)"""

    __slots__ = ("text", "counts")

    def __init__(self, text: str, counts: dict):
        self.text = text
        self.counts = counts

    @property
    def total(self) -> int:
        return sum(self.counts.values())


PLACEHOLDER = "[REDACTED:"  # how every redaction begins: [REDACTED:<kind>]
# Every kind :func:`redact` names, in the order it applies them.
KINDS = (*dict.fromkeys(kind for kind, _ in _PATTERNS), "id-card", "password", "env-secret")
_KEEPS_USER = ("uri-password", "basic-auth")  # group 1 (the user) is kept, group 2 (the secret) goes
# A placeholder :func:`redact` makes, as a regular expression to embed in another: one of :data:`KINDS`,
# no space. A person's own "[REDACTED: ssn]" is text, not a redaction.
PLACEHOLDER_PATTERN = re.escape(PLACEHOLDER) + "(?:" + "|".join(map(re.escape, KINDS)) + r")\]"
_PLACEHOLDER = _Lazy(PLACEHOLDER_PATTERN)


def placeholder(kind: str) -> str:
    """What stands for a secret of ``kind`` (one of :data:`KINDS`) once redacted: ``[REDACTED:<kind>]``."""
    return f"{PLACEHOLDER}{kind}]"


def holds_redaction(text: str) -> bool:
    """True when ``text`` holds a placeholder :func:`redact` makes (a secret was replaced in it);
    bracketed text of the person's that only looks alike (``[REDACTED: ssn]``) is not one."""
    return PLACEHOLDER in text and _PLACEHOLDER.search(text) is not None


def redact(text: str) -> Redaction:
    """Replace secrets in ``text`` with their :func:`placeholder`. Pure."""
    counts: dict[str, int] = {}

    def sub(kind: str, pattern: _Lazy | _Skipping | _PairAlone, value: str) -> str:
        def replace(match: re.Match) -> str:
            if kind in _KEEPS_USER:  # the user and what follows the secret stay: "admin:[REDACTED:…]@host"
                if match.group(2).startswith(PLACEHOLDER):
                    return match.group(0)  # redacted before: text redacted twice is counted once
                counts[kind] = counts.get(kind, 0) + 1
                return f"{match.group(1)}:{placeholder(kind)}{match.group(0)[match.end(2) - match.start():]}"
            counts[kind] = counts.get(kind, 0) + 1
            return placeholder(kind)

        return pattern.sub(replace, value)

    for kind, pattern in _PATTERNS:
        text = sub(kind, pattern, text)

    def id_replace(match: re.Match) -> str:
        if not id_card_valid(match.group(0)):
            return match.group(0)
        counts["id-card"] = counts.get("id-card", 0) + 1
        return placeholder("id-card")

    text = _ID_CARD.sub(id_replace, text)

    def stated_replace(lead: str, said: str, whole: str) -> str:
        value = said.rstrip(".,;:!?)")
        if value.startswith(PLACEHOLDER) or len(value) < 6:
            return whole
        counts["password"] = counts.get("password", 0) + 1
        return lead + placeholder("password") + said[len(value):]

    text = _stated_sub(stated_replace, text)

    def env_replace(match: re.Match) -> str:
        value = match.group("value")
        plain = not re.search(r"[\d!@#$%^&*+=/_~-]", value)
        if (value.startswith(PLACEHOLDER) or _VALUE_REFERENCE.search(value)
                or (plain and (match.group("op") == ":" or not match.group("key").isupper() or len(value) < 8))):
            return match.group(0)
        counts["env-secret"] = counts.get("env-secret", 0) + 1
        return f"{match.group('key')}{match.group('sep')}{match.group('q')}{placeholder('env-secret')}{match.group('q')}"

    text = _ENV_ASSIGN.sub(env_replace, text)

    def mysql_replace(match: re.Match) -> str:
        if match.group("value").startswith(PLACEHOLDER):
            return match.group(0)
        counts["password"] = counts.get("password", 0) + 1
        return match.group("lead") + "-p" + placeholder("password")

    text = _MYSQL_PASSWORD.sub(mysql_replace, text)
    return Redaction(text, counts)


def tally(counts: dict, joiner: str = ", ") -> str:
    """``counts`` (kind -> how many: :attr:`Redaction.counts`) as a person reads them, by the kind's name:
    ``"basic-auth×1, github-token×2"`` (``joiner`` between kinds: ``","`` for a log's one field); ``""`` for none."""
    return joiner.join(f"{kind}×{count}" for kind, count in sorted(counts.items()))


def redact_value(value):
    """``value`` (a frontmatter value: text, or lists and mappings holding text at any depth) with
    every text in it redacted by :func:`redact` (mapping keys kept), as a :class:`Redaction` whose
    ``text`` is the redacted value. Other values (numbers, booleans, None) are kept. Pure."""
    counts: dict[str, int] = {}

    def walk(item):
        if isinstance(item, str):
            result = redact(item)
            for kind, count in result.counts.items():
                counts[kind] = counts.get(kind, 0) + count
            return result.text
        if isinstance(item, list):
            return [walk(part) for part in item]
        if isinstance(item, dict):
            return {key: walk(part) for key, part in item.items()}
        return item

    return Redaction(walk(value), counts)


# A credential that no pattern above names: an assignment to a secret-ish key, or a long
# random-looking token (letters of both cases and digits, high entropy). Hex digests
# (commit ids, checksums) are not credentials and are left alone.
_ASSIGNED = _Lazy(
    r"(?i)\b(?:api[_-]?key|secret|token|passw(?:or)?d|passwd|pwd|credentials?|private[_-]?key|access[_-]?key)"
    r"\s*[:=]\s*['\"]?(?!" + re.escape(PLACEHOLDER) + r")[^\s'\"]{8,}", _A)
_TOKEN = _Lazy(r"[A-Za-z0-9+/_\-]{32,}={0,2}", _A)


def _entropy(token: str) -> float:
    import math

    counts: dict[str, int] = {}
    for ch in token:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(c / len(token) * math.log2(c / len(token)) for c in counts.values())


def looks_like_credential(text: str) -> str | None:
    """Why ``text`` (already redacted) still looks like it holds a
    credential, or None: a value assigned to a secret-named key
    (``api_key = …``, ``password: …``), or a token of 32+ characters mixing
    upper case, lower case and digits with more than 4 bits of entropy per
    character. Stricter than :func:`redact`, which must not eat ordinary
    text; used to refuse writes that would enter a shared repository."""
    found = _ASSIGNED.search(text)
    if found:
        return f"a value assigned to a secret-named key ({found.group(0).split()[0][:24]}…)"
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if (any(c.isupper() for c in token) and any(c.islower() for c in token)
                and any(c.isdigit() for c in token) and _entropy(token) > 4.0):
            return f"a random-looking token of {len(token)} characters ({token[:4]}…)"
    return None


def credential_in(key: str, value) -> str | None:
    """Why the frontmatter entry ``key: value`` (``value`` a frontmatter value, lists and mappings
    searched through at any depth) still looks like it holds a credential, or None: each text in
    it is read as :func:`looks_like_credential` reads a line, after the key that holds it
    (``api_key: …``)."""
    if isinstance(value, str):
        return looks_like_credential(f"{key}: {value}")
    parts = value.items() if isinstance(value, dict) else ((key, item) for item in value) \
        if isinstance(value, list) else ()
    for inner, item in parts:
        why = credential_in(str(inner), item)
        if why:
            return why
    return None
