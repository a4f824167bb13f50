"""The one tokenizer: identifiers, stemming, CJK, and query quoting."""

from __future__ import annotations

from memdir.search.tokenize import document_text, fts_query, query_terms, tokens


def test_identifiers_kept_whole_and_split():
    assert tokens("getUserById") == ["getuserbyid", "get", "user", "by", "id"]
    assert tokens("parseHTMLResponse") == ["parsehtmlrespons", "pars", "html", "respons"]  # the whole stemmed as written joined
    assert tokens("sha256") == ["sha256", "sha"]  # digits written against letters are the name's, no number
    assert tokens("sha-256") == ["sha256", "sha", "256"]  # control: written apart, the number is a part


def test_snake_kebab_and_spaced_forms_meet():
    snake, kebab, spaced = tokens("OPENAI_API_KEY"), tokens("openai-api-key"), tokens("openai api key")
    assert snake == kebab == ["openaiapikey", "openai", "api", "key"]
    assert spaced == ["openai", "api", "key"]
    assert set(spaced) <= set(snake)


def test_nfkc_casefold_and_stemming():
    assert tokens("ＤＯＣＫＥＲ Running deployments") == ["docker", "run", "deploy"]
    assert tokens("Straße") == tokens("STRASSE") == ["strass"]


def test_cjk_runs_become_bigrams_and_single_characters():
    assert tokens("雾凇词库") == ["雾凇", "凇词", "词库"]
    assert tokens("しりとり") == ["しり", "りと", "とり"]
    assert tokens("끝말잇기 한") == ["끝말", "말잇", "잇기", "한"]
    assert tokens("docker部署") == ["docker", "部署"]


def test_query_terms_drop_stopwords_unless_nothing_is_left():
    assert query_terms("where is the user by id") == ["user", "id"]
    assert query_terms("the who") == ["the", "who"]
    assert query_terms("a a a b") == ["b"]


def test_fts_query_quotes_every_term():
    assert fts_query(["not", "or"]) == '"not" OR "or"'
    for hostile in ('NOT', '"', '*', 'a OR b', '(', 'col:x', 'NEAR(a b)', '^x', 'a AND'):
        expression = fts_query(query_terms(hostile))
        for part in filter(None, expression.split(" OR ")):
            assert part.startswith('"') and part.endswith('"') and '"' not in part[1:-1]


def test_document_text_is_space_joined_tokens():
    assert document_text("Dev DB: port 5433") == "develop databas port 5433"  # short forms as their long words
    assert document_text("") == ""


def test_word_tokens_are_the_tokens_of_one_word_kept():
    from memdir.search.tokenize import segments, word_tokens

    text = "Zürich's PostgreSQL ci-box-2 runner listens; 東京 office"
    for match in segments(text):
        assert word_tokens(match.group(0)) == tuple(tokens(match.group(0)))
    assert word_tokens("PostgreSQL") == ("postgresql", "postgr", "sql") and word_tokens("Zürich") == ("zurich", "zuerich")
    assert word_tokens("PostgreSQL") is word_tokens("PostgreSQL")  # kept: the second call reads the first's answer


def test_characters_that_show_as_nothing_are_read_as_absent():
    assert tokens("stag\u200bing") == tokens("stag\u00ading") == tokens("staging") == ["stage"]
    assert tokens("stag ing") == ["stag", "ing"]  # control: a visible space still splits


def test_a_long_hyphenated_compound_is_read_in_linear_time():
    import time

    words = "-".join(f"ab{i % 10}" for i in range(20000))
    started = time.perf_counter()
    read = tokens(words)
    assert time.perf_counter() - started < 1.0  # 2.5-2.95 s when each part was looked up in a list of the others
    assert len(read) == 1 + 20000 + 10 and read[-10:] == [f"ab{i}" for i in range(10)]  # each named part once
    assert tokens("ab1-ab2-ab1") == ["ab1ab2ab1", "ab", "ab", "ab", "ab1", "ab2"]  # control: a short one, the same terms
