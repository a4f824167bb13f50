"""Each provider's key is redacted under its own provider's name (left44b: an Anthropic key
``sk-ant-api03-…`` was labelled ``openai-key``; Groq's ``gsk_…``, xAI's ``xai-…``, Hugging Face's ``hf_…`` and
GitLab's ``glpat-…`` were not redacted at all). Each kind has its key and, as control, a word of the same prefix
that is no key (a library or model name, a short id) and stays as written."""

from __future__ import annotations

import pytest

from memdir.text.redact import KINDS, redact

KEYS = {
    "anthropic-key": "sk-ant-api03-" + "aB3dE5fG7h" * 9 + "AA",
    "openai-key": "sk-proj-" + "a1B2c3D4e5" * 5,
    "openrouter-key": "sk-or-v1-" + "0123456789abcdef" * 4,
    "groq-key": "gsk_" + "aB3dE5fG7h" * 5 + "ab",
    "xai-key": "xai-" + "aB3dE5fG7h" * 8,
    "google-key": "AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q",
    "huggingface-token": "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH",
    "github-token": "ghp_" + "aB3dE5fG7h" * 4,
    "gitlab-token": "glpat-" + "aB3dE5fG7hIjKlMnOpQr",
    "slack-token": "xoxb-1234567890-1234567890123-aBcDeFgHiJkLmNoPqRsTuVwX",
    "aws-key": "AKIAIOSFODNN7EXAMPLE",
}
NOT_KEYS = {
    "anthropic-key": "the sk-ant-short prefix",
    "openai-key": "sk-learn is a typo for scikit-learn",
    "openrouter-key": "an sk-or-v1-notes.md file",
    "groq-key": "the gsk_test fixture",
    "xai-key": "pip install xai-sdk and use xai-grok-beta",
    "google-key": "AIza alone",
    "huggingface-token": "call hf_hub_download first",
    "github-token": "the ghp_ prefix",
    "gitlab-token": "glpat-short",
    "slack-token": "xoxb-short",
    "aws-key": "AKIA is the prefix",
}


@pytest.mark.parametrize("kind", sorted(KEYS))
def test_each_providers_key_is_named_by_its_provider(kind):
    result = redact(f"the key {KEYS[kind]} works")
    assert (result.text, result.counts) == (f"the key [REDACTED:{kind}] works", {kind: 1})
    assert kind in KINDS


@pytest.mark.parametrize("kind", sorted(NOT_KEYS))
def test_a_word_of_the_same_prefix_stays(kind):
    text = NOT_KEYS[kind]
    assert (redact(text).text, redact(text).counts) == (text, {})
    assert redact(f"{text} {KEYS[kind]}").counts == {kind: 1}  # control: the key beside it is redacted


def test_a_key_with_a_tail_after_its_hex_is_redacted_whole():
    # break45: "sk-or-v1-<40 hex>-<40 f>" left its 40-character tail shown after the label (main: openai-key, whole)
    key = "sk-or-v1-" + "a1" * 20 + "-" + "f" * 40
    assert redact(f"key {key} here").text == "key [REDACTED:openrouter-key] here"
    assert redact("an sk-or-v1-notes.md file").text == "an sk-or-v1-notes.md file"  # control: no key, kept


def test_the_sdk_key_of_any_other_sk_provider_stays_openai_key():
    # DeepSeek's keys ("sk-" and 32 hex) look like OpenAI's older ones: no shape tells them apart
    assert redact("sk-" + "0123456789abcdef" * 2).counts == {"openai-key": 1}
    assert redact("sk-ant-api03-" + "aB3dE5fG7h" * 9 + "AA").counts == {"anthropic-key": 1}  # control


def test_a_run_of_prefixes_is_read_in_linear_time():
    import time

    started = time.perf_counter()
    for unit in ("gsk_", "xai-", "hf_"):
        assert redact(unit * 20000).counts == {}
    # one run of key characters, holding a digit for "sk-": one key (harmless)
    for unit, kind in (("sk-ant-", "anthropic-key"), ("glpat-", "gitlab-token"), ("sk-or-v1-", "openai-key")):
        assert redact(unit * 20000).counts == {kind: 1}
    assert time.perf_counter() - started < 2.0
    assert redact("hf_ " * 100 + KEYS["huggingface-token"]).counts == {"huggingface-token": 1}  # control
