"""Redaction's curl -u, mysql -p and sk- key patterns skip what a failed candidate already read (inject41): a line
of "curl curl curl …" was read once from each "curl" (0.3 s at 8,000 characters, quadratic). The matches are
main's: pinned here with controls (benchmarks/bench_patterns.py has the times)."""

from __future__ import annotations

from memdir.text.redact import redact, tally


def _redacted(text: str) -> tuple[str, dict]:
    found = redact(text)
    return found.text, found.counts


def test_curl_user_after_an_earlier_curl_of_the_line_is_redacted():
    assert _redacted("curl curl -u admin:s3cret https://x") == (
        "curl curl -u admin:[REDACTED:basic-auth] https://x", {"basic-auth": 1})
    assert _redacted("curl https://x && curl -u bob:pw1 y") == (
        "curl https://x && curl -u bob:[REDACTED:basic-auth] y", {"basic-auth": 1})
    assert _redacted("curl -u a:x1\ncurl -u b:y2") == (
        "curl -u a:[REDACTED:basic-auth]\ncurl -u b:[REDACTED:basic-auth]", {"basic-auth": 2})
    assert _redacted("curl " * 2000) == ("curl " * 2000, {})  # control: no -u anywhere


def test_mysql_password_after_an_earlier_mysql_of_the_line_is_redacted():
    assert _redacted("mysql mysql -h db -pHunter22 x") == ("mysql mysql -h db -p[REDACTED:password] x", {"password": 1})
    assert _redacted("mysql -h db") == ("mysql -h db", {})  # control: no -p


def test_an_sk_key_after_sk_dashes_is_redacted_whole():
    assert _redacted("sk-sk-sk-abcdefghij1234567890abcd") == ("[REDACTED:openai-key]", {"openai-key": 1})
    assert _redacted("key sk-abcdefghij1234567890abcd and sk-" + "x" * 30) == (
        "key [REDACTED:openai-key] and sk-" + "x" * 30, {"openai-key": 1})  # the second holds no digit
    assert _redacted("sk-" * 3000) == ("sk-" * 3000, {})  # control: no digit, no key


def test_tally_names_each_kind_by_name():
    assert tally({"github-token": 2, "basic-auth": 1}) == "basic-auth×1, github-token×2"
    assert tally({"github-token": 2, "basic-auth": 1}, ",") == "basic-auth×1,github-token×2"
    assert tally({}) == ""


def test_a_secret_named_key_of_many_parts_is_read_once():
    assert _redacted("SECRET_SECRET_SECRET_A=hunter2!") == ("SECRET_SECRET_SECRET_A=[REDACTED:env-secret]",
                                                           {"env-secret": 1})
    assert _redacted("MY_SECRET_NAME=abc1234") == ("MY_SECRET_NAME=[REDACTED:env-secret]", {"env-secret": 1})
    assert _redacted("DB_PASSWORD: s3cret!x") == ("DB_PASSWORD: [REDACTED:env-secret]", {"env-secret": 1})
    assert _redacted("SECRET_SECRET_=hunter2!") == ("SECRET_SECRET_=hunter2!", {})  # control: the key ends in "_"
    assert _redacted("x " + "SECRET_" * 2000) == ("x " + "SECRET_" * 2000, {})  # control: a key, no value


def test_a_pair_alone_after_many_near_pairs_is_redacted():
    assert _redacted("login with deploy:Pa55w0rd!x now") == ("login with deploy:[REDACTED:basic-auth] now",
                                                            {"basic-auth": 1})
    assert _redacted(",a:1" * 500 + ",deploy:Pa55w0rd!x") == (",a:1" * 500 + ",deploy:[REDACTED:basic-auth]",
                                                              {"basic-auth": 1})
    assert _redacted("admin:Tr0ub4dor&3@db") == ("admin:[REDACTED:basic-auth]@db", {"basic-auth": 1})
    assert _redacted("node:20-alpine and host:8080") == ("node:20-alpine and host:8080", {})  # control: no symbol
    assert _redacted("!a:b" * 2000) == ("!a:b" * 2000, {})  # control: no digit anywhere


def test_a_password_stated_after_a_long_word_of_leads_is_redacted_as_before():
    # inject42: the value's look for a digit or a symbol read a long word of leads once from each lead (10 s at 32,000
    # characters); the middle of such a word is read with stops in its place, the matches are main's
    assert _redacted("密码是" * 40 + "1") == ("密码是[REDACTED:password]", {"password": 1})
    # (the last lead of the long word reaches over the space: "密码是 " + the value, as on main)
    assert _redacted("x " + "密码是" * 40 + " 密码是hunter2-x") == ("x " + "密码是" * 40 + " [REDACTED:password]",
                                                               {"password": 1})
    assert _redacted("密码是" * 3000) == ("密码是" * 3000, {})  # control: no digit, no symbol: no value
    assert _redacted("password for " + "is" * 40 + " is s3cret!x") == (
        "password for " + "is" * 40 + " is [REDACTED:password]", {"password": 1})
    assert _redacted("password for " + "is" * 4000) == ("password for " + "is" * 4000, {})  # control


def test_a_word_after_for_ends_at_a_colon_in_the_middle_of_a_long_word():
    # a word after "for" ends at ":" as it did: read on through it, it reached "is s3cret!" after the quote
    said = "password for " + "x" * 30 + ":" + "x" * 40 + "'y is s3cret!x"
    assert _redacted(said) == (said, {})
    said = "password for " + "x" * 70 + "'y is s3cret!x"  # control: no colon, the same words after it
    assert _redacted(said) == ("password for " + "x" * 70 + "'y is [REDACTED:password]", {"password": 1})


def test_importing_redact_compiles_no_pattern_and_a_redaction_compiles_what_it_reads():
    import subprocess
    import sys

    # (inject42: the import compiled some 25 patterns, 66 M instructions with memdir.text, for modules naming only the
    # placeholder or tally; benchmarks/bench_patterns.py --imports has the counts)
    code = ("import re; asked = []; compile = re.compile\n"
            "re.compile = lambda *args: asked.append(args[0]) or compile(*args)\n"
            "import memdir.text.redact as r; imported = len(asked)\n"
            "print(imported, r.redact('the password is hunter2-x').text, len(asked) > 10)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "the", "password", "is", "[REDACTED:password]", "True"]  # control: compiled
