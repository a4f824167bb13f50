"""Secrets that went through redaction into memories (break39): a bare JWT, a Slack webhook URL, an opaque Bearer
token, and a password stated with what it is for between the word and the verb ("the password for staging is …")
or in German, French, Spanish, Japanese. Each comes out as its placeholder; the text around it, and the same
words holding no secret, stay as they are."""

from __future__ import annotations

import pytest

from memdir.text.redact import redact

JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"


@pytest.mark.parametrize("text, redacted, kind", [
    (f"the jwt {JWT} expires daily", "the jwt [REDACTED:jwt] expires daily", "jwt"),
    ("hook: https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX ok",
     "hook: [REDACTED:webhook-url] ok", "webhook-url"),
    ("https://discord.com/api/webhooks/123456789012/abcDEF_ghi-jkl", "[REDACTED:webhook-url]", "webhook-url"),
    ("curl -H 'Authorization: Bearer abcdef0123456789abcdef0123456789' api",
     "curl -H 'Authorization: [REDACTED:bearer]' api", "bearer"),
    ("the password for the staging box is Zx9kLm2Qp77.", "the password for the staging box is [REDACTED:password].",
     "password"),
    ("Das Passwort für staging ist Zx9kLm2Qp77", "Das Passwort für staging ist [REDACTED:password]", "password"),
    ("le mot de passe du serveur est Zx9kLm2Qp77", "le mot de passe du serveur est [REDACTED:password]", "password"),
    ("la contraseña es Zx9kLm2Qp77!", "la contraseña es [REDACTED:password]!", "password"),
    ("パスワードは Zx9kLm2Qp77", "パスワードは [REDACTED:password]", "password"),
])
def test_each_secret_is_its_placeholder(text, redacted, kind):
    result = redact(text)
    assert (result.text, result.counts) == (redacted, {kind: 1})


@pytest.mark.parametrize("text", [
    "the password for staging is stored in the vault",  # no digit or symbol: no value
    "Use Bearer authentication with the token from vault",
    "the token of the day is great",
    "https://hooks.slack.com/ is where webhooks live",
    "the header eyJhbGciOiJIUzI1NiJ9 alone is not a token",
    "es posible que el servidor esté caído",
])
def test_the_same_words_without_a_secret_stay(text):
    result = redact(text)
    assert (result.text, result.counts) == (text, {})
