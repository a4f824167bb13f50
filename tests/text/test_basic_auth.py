"""A basic-auth pair's password is redacted (inject40): ``deploy:Pa55w0rd!x`` alone, after curl's ``-u``, and
inside a URL — also one whose password holds ``@`` (``https://u:p@ss@host`` kept ``ss``). The user stays;
``host:port``, ``key:value`` prose, ``http://host:8080/`` and their kin stay byte for byte. Redacting text
that was redacted before changes nothing and counts nothing (a transcript is redacted before it is cut, and
consolidation redacts again what a caller hands it)."""

from __future__ import annotations

import pytest

from memdir.text.redact import redact

PAIRS = [
    ("login with deploy:Pa55w0rd!x today", "login with deploy:[REDACTED:basic-auth] today", "basic-auth"),
    ("use user:Pa55w0rd!x.", "use user:[REDACTED:basic-auth].", "basic-auth"),
    ("admin:Tr0ub4dor&3@db.internal:5432", "admin:[REDACTED:basic-auth]@db.internal:5432", "basic-auth"),
    ("john@example.com:Pa55w0rd!x", "john@example.com:[REDACTED:basic-auth]", "basic-auth"),
    ("curl -u admin:hunter2 https://api.example.com", "curl -u admin:[REDACTED:basic-auth] https://api.example.com",
     "basic-auth"),
    ('curl -s --user "bob:plainword" x', 'curl -s --user "bob:[REDACTED:basic-auth]" x', "basic-auth"),
    ("https://user:Pa55w0rd!x@host/x", "https://user:[REDACTED:uri-password]@host/x", "uri-password"),
    ("https://user:pass@host", "https://user:[REDACTED:uri-password]@host", "uri-password"),
    ("https://user:p@ss@host/x", "https://user:[REDACTED:uri-password]@host/x", "uri-password"),
]


@pytest.mark.parametrize("text, redacted, kind", PAIRS)
def test_the_password_of_a_pair_is_its_placeholder_and_the_user_stays(text, redacted, kind):
    result = redact(text)
    assert (result.text, result.counts) == (redacted, {kind: 1})


@pytest.mark.parametrize("text", [
    "host:port", "localhost:5432", "connect to db.internal:5432 first", "key:value",
    "the config is key:value pairs, one per line", "http://host:8080/", "http://host:8080/path?q=1",
    "ws://host:8080/?token=abc", "node:20-alpine", "python:3.11-slim", "sha256:e3b0c44298fc1c149afbf4c8996fb924",
    "file.py:123", "ratio 16:9 at 12:30:45", "std::vector<int>", "fe80::1%eth0", "TODO:fix-it!",
    "docker run -u 1000:1000 img", "see user:pass in the docs", "mailto:alice@example.com",
])
def test_what_only_looks_like_a_pair_stays_byte_for_byte(text):
    assert redact(text).text == text
    secret = f"{text} deploy:Pa55w0rd!x"  # control: the same text with a pair after it
    assert redact(secret).text == f"{text} deploy:[REDACTED:basic-auth]"


SAMPLES = {  # one secret of each kind a redaction keeps something of, and the rest
    "uri-password": "postgres://admin:pw123@db:5432/app",
    "basic-auth": "curl -u admin:hunter2 x; deploy:Pa55w0rd!x",
    "password": "the password is hunter2-Xk9; mysql -uroot -pS3cret db",
    "env-secret": "export DB_PASSWORD=Tr0ub4dor&3",
    "aws-key": "AKIAIOSFODNN7EXAMPLE",
    "phone": "13812345678",
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_redacting_twice_changes_nothing_and_counts_once(kind):
    once = redact(SAMPLES[kind])
    assert once.total >= 1 and kind in once.counts
    twice = redact(once.text)
    assert (twice.text, twice.counts) == (once.text, {})
