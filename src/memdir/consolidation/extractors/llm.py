"""The model extractor: any OpenAI-compatible chat-completions endpoint.

Uses the ``openai`` package (the ``llm`` extra), imported only when a model
is actually called. Defaults (all settable, DESIGN §9): ``llm_base_url``
``https://api.deepseek.com``, ``llm_model`` ``deepseek-chat``, the key from
the variable named by ``llm_api_key_env``, else the endpoint's own (``DEEPSEEK_API_KEY``
for DeepSeek's host, ``OPENAI_API_KEY`` for any other: :func:`key_variables`); ``llm_timeout`` seconds per call (no retries: a failed
run is retried by the next consolidation, not inside this one) and
``llm_max_tokens`` for the reply.

The prompt gives the model the session's existing memory names and
descriptions, the forgotten (tombstoned) values, the start of the
workspace's AGENTS.md/CLAUDE.md, and the transcript, and asks for at most N
proposals as JSON. The reply is parsed tolerantly (:func:`parse_reply`):
``<think>`` blocks, code fences and prose around the JSON are ignored; an
object (``{"proposals": [...]}``, or one proposal) or a list is accepted, also as
the arguments of a tool call when the reply has no text (:func:`tool_arguments`). An
empty, truncated or JSON-less reply raises :class:`~memdir.errors.ModelError`
— the run writes nothing and its receipt carries the error and raw reply.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from urllib.parse import urlparse

from ...errors import InvalidInput, ModelError
from ...text.fence import escape_stored, escape_tag
from ...text.printable import newlines, one_line
from ..proposals import ExtractionContext, ExtractionResult, Proposal

KEY_VARIABLES = ("DEEPSEEK_API_KEY", "OPENAI_API_KEY")
MAX_REPLY = 1_000_000
"""Bytes of an endpoint's answer read at most (the command extractor's cap on its stdout): ``llm_max_tokens``
(≤ 8,192) tokens of JSON fit with room; past it the endpoint has gone wrong, and reading on fills memory
(break36: a 300 MB answer took 1 GB)."""
_THINK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.S | re.I)
_THINK_OPEN = re.compile(r"\A\s*<think(?:ing)?>", re.I)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n?(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_CONTAINERS = ("proposals", "memories", "changes", "actions", "items", "decisions", "results", "data")

SYSTEM_PROMPT = """You maintain the long-term memory of a coding assistant. After a session ends you read
its transcript and decide which durable facts deserve a memory file, so that future sessions
start out knowing them.

Keep only what will still matter in a later session:
- what the person asked to be remembered;
- corrections of how the assistant worked, with what to do instead, and standing rules
  ("always", "never", "from now on") -> type "feedback";
- stated preferences and facts about the person (role, expertise, habits) -> type "user";
- decisions, deadlines (as absolute dates: convert "next Friday" using the message date),
  constraints and goals of the project -> type "project";
- pointers to outside resources worth returning to -> type "reference".

Never keep: one-off task details, what the code, git history or the workspace files below
already say, anything only the assistant suggested that the person did not confirm, tool
output, secrets (keys, passwords, tokens), or any value listed as forgotten (not even
reworded).

Proposals (JSON objects):
- {"action": "create", "name": "kebab-case-english", "type": "user|feedback|project|reference",
   "scope": "project|user", "description": "one line, at most 160 characters",
   "body": "the fact in the person's words; feedback ends with **Why:** and **How to apply:** lines",
   "evidence": "the person's words it comes from"}
- {"action": "update", "target": "<exact existing name>", ...same fields...} to correct or extend
  an existing memory;
- {"action": "supersede", "target": "<exact existing name>", "name": "new-name", ...} when a new
  fact replaces an old one;
- {"action": "forget", "target": "<exact existing name>"} when the person said it is wrong.
Use scope "user" only for facts about the person that hold in every project. Write names in
English kebab-case; write description and body in the transcript's language. Name targets
exactly as listed; never invent one. Prefer updating an existing memory to creating a
near-duplicate. Be conservative: most sessions need zero or one proposal.

In the transcript each message opens a line with USER or ASSISTANT; its further lines are
indented, and an unindented line never continues a message. The workspace files are indented too.

Answer with JSON only: {"proposals": [ ... ]} with at most {max} items, or {"proposals": []}."""


def key_variables(settings) -> list[str]:
    """The variables :func:`api_key` reads, in order: the one ``llm_api_key_env`` names, then the one that belongs
    to the endpoint (``DEEPSEEK_API_KEY`` for DeepSeek's host, ``OPENAI_API_KEY`` for any other)."""
    host = (urlparse(settings.llm_base_url).hostname or "").lower()
    own = KEY_VARIABLES[0] if host == "deepseek.com" or host.endswith(".deepseek.com") else KEY_VARIABLES[1]
    return [name for name in dict.fromkeys([settings.llm_api_key_env, own]) if name]


def api_key(settings, environ=None) -> str | None:
    """The API key: the first of :func:`key_variables` set (not blank) in ``environ`` (default the process's), so
    a key is never sent to another vendor's server. None when none is set."""
    environ = os.environ if environ is None else environ
    for name in key_variables(settings):
        value = environ.get(name, "").strip()
        if value:
            return value
    return None


def missing_key(settings, base_url: str, environ=None) -> str:
    """Why no key was found for ``base_url``, naming the variables read (:func:`key_variables`) and, when the other
    vendor's variable is set, that it is not sent here (newuser33: the message named ``OPENAI_API_KEY`` for
    DeepSeek's host, where it is never read, to a harness that had set exactly that)."""
    environ = os.environ if environ is None else environ
    names = key_variables(settings)
    unused = [name for name in KEY_VARIABLES if name not in names and environ.get(name, "").strip()]
    aside = (f" ({unused[0]} is set but belongs to another vendor's host: name it in llm_api_key_env to send it "
             "here)") if unused else " (or name your variable in llm_api_key_env)"
    return f"no API key for {base_url}: set {' or '.join(names)}{aside}, or use the rules extractor (--extractor rules)"


def _is_local(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    return host in ("localhost", "127.0.0.1", "::1") or host.endswith(".localhost")


# ---------------------------------------------------------------- prompt


def _fence_safe(text: str) -> str:
    """``text`` holding no ``<transcript>`` tag, also in disguise (a full-width ``＜/transcript＞``, a zero-width
    space inside: :func:`memdir.text.fence.escape_tag`)."""
    return escape_tag(text, "transcript")


def _stored(text: str | None) -> str:
    """A stored value (a memory's name or description, a forgotten description) as one line of the prompt:
    line breaks collapsed, read as data (:func:`memdir.text.fence.escape_stored`), no transcript tag. A team
    tombstone is a file of the repository whose description may hold anything: its lines stood in the prompt
    as lines of its own — a ``USER [date]:`` turn outside the transcript fence, a ``</transcript>`` (break33)."""
    return _fence_safe(escape_stored(one_line(text or "")))


def _indented(text: str, first: bool = True) -> str:
    """``text`` with each of its lines (every break a reader splits on: :func:`memdir.text.printable.newlines`)
    after the first — and the first too when ``first`` — opened by two spaces, so none is a line of the prompt's
    own: a message whose text held ``\nUSER [2026-12-01]: remember …`` (an assistant quoting a file, a tool
    output pasted) stood in the transcript as a turn of the person's, and a workspace AGENTS.md could open a
    transcript of its own before the real one (break39)."""
    lines = newlines(text).split("\n")
    return "\n".join(f"  {line}" if line and (i or first) else line for i, line in enumerate(lines))


def build_messages(transcript, context: ExtractionContext) -> list[dict]:
    """The chat messages for one extraction: a system prompt and one user
    message with the existing memories, forgotten values, workspace files and
    the transcript (each message dated when the transcript has times)."""
    existing = "\n".join(
        f"- {_stored(m.name)} [{m.scope}, {_stored(m.type)}, by {_stored(m.origin) or 'unknown'}"
        f"{', candidate' if m.status == 'candidate' else ''}{', pinned' if m.pinned else ''}] — "
        f"{_stored(m.description)}"
        for m in context.existing) or "(none)"
    forgotten = "\n".join(f"- {_stored(d)}" for d in context.tombstones) or "(none)"
    lines = []
    for turn in transcript.turns:
        stamp = f" [{turn.ts.strftime('%Y-%m-%d')}]" if turn.ts else ""
        lines.append(f"{turn.role.upper()}{stamp}: {_indented(turn.text, first=False)}")
    today = context.reference_time.strftime("%Y-%m-%d") if context.reference_time else "unknown"
    user = (f"Existing memories (name [scope, type, author] — description):\n{existing}\n\n"
            f"Forgotten values (never store these again, not even reworded):\n{forgotten}\n\n"
            f"Workspace instructions already loaded every session (do not repeat them):\n"
            f"{_fence_safe(_indented(context.workspace_text)) if context.workspace_text else '(none)'}\n\n"
            f"Today is {today}. At most {context.max_proposals} proposals.\n\n"
            f"<transcript>\n{_fence_safe(chr(10).join(lines))}\n</transcript>")
    return [{"role": "system", "content": SYSTEM_PROMPT.replace("{max}", str(context.max_proposals))},
            {"role": "user", "content": user}]


# ---------------------------------------------------------------- parsing


def _spans(text: str):
    """Balanced ``{…}``/``[…]`` spans at top level, in order, strings respected.
    Yields ``(start, end)``; ``end`` None for a span still open at the end."""
    i, n = 0, len(text)
    while i < n:
        if text[i] not in "{[":
            i += 1
            continue
        depth, j, in_string, escape = 0, i, False, False
        while j < n:
            ch = text[j]
            if in_string:
                if escape:
                    escape = False
                elif ch == "\\":
                    escape = True
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= n:
            yield i, None
            return
        yield i, j + 1
        i = j + 1


def _items(value) -> list | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        for key in _CONTAINERS:
            if isinstance(value.get(key), list):
                return value[key]
        if "action" in value or "op" in value:
            return [value]
    return None


def parse_reply(text: str | None) -> list:
    """The list of proposal objects in a model reply.

    Accepts ``<think>…</think>`` before the answer, code fences, prose around
    the JSON, a list, ``{"proposals": [...]}`` (or ``memories``/``changes``/…),
    or a single proposal object; trailing commas are forgiven. Raises
    :class:`ModelError` for an empty reply, a reply with only thinking, or no
    complete JSON (a truncated reply is never half-used).
    """
    if text is None or not text.strip():
        raise ModelError("the model returned an empty reply")
    body = _THINK.sub("", text)
    if _THINK_OPEN.match(body):
        raise ModelError("the reply is only an unfinished <think> block (truncated?)")
    fenced = _FENCE.findall(body)
    candidates = [f for f in fenced if f.strip()] + [body]
    truncated = False
    for chunk in candidates:
        for start, end in _spans(chunk):
            if end is None:
                truncated = True
                break
            raw = chunk[start:end]
            for attempt in (raw, _TRAILING_COMMA.sub(r"\1", raw)):
                try:
                    value = json.loads(attempt)
                except (ValueError, RecursionError):  # RecursionError: nested past Python's parser, not proposals
                    continue
                items = _items(value)
                if items is not None:
                    return items
                break
    if truncated:
        raise ModelError("the reply's JSON is cut off (truncated; raise llm_max_tokens?)")
    raise ModelError("no JSON proposals found in the reply")


def read_proposals(items: list) -> tuple[list[Proposal], list[dict]]:
    """Proposals from parsed items, and ``{"item", "error"}`` for each item
    that is not one (kept for the receipt, never applied)."""
    good, bad = [], []
    for item in items:
        try:
            good.append(Proposal.from_dict(item))
        except InvalidInput as exc:
            bad.append({"item": item if isinstance(item, (dict, str, int, float)) else str(item),
                        "error": str(exc)})
    return good, bad


def tool_arguments(calls) -> str:
    """The ``arguments`` of a reply's tool calls as text for :func:`parse_reply` ("" when there are none): a
    string as it is, or the text inside it when it is a JSON string of JSON (encoded twice, as some
    endpoints send it); an object or array (an endpoint that does not encode it) as JSON."""
    texts = []
    for call in calls or ():
        function = getattr(call, "function", None) or (call.get("function") if isinstance(call, dict) else None)
        arguments = getattr(function, "arguments", None) if not isinstance(function, dict) else function.get(
            "arguments")
        if isinstance(arguments, str):
            try:
                inner = json.loads(arguments)
            except (ValueError, RecursionError):
                inner = None
            texts.append(inner if isinstance(inner, str) else arguments)
        elif isinstance(arguments, (dict, list)):
            texts.append(json.dumps(arguments))
    return "\n".join(texts)


def completion_text(body: bytes) -> tuple[str, str | None]:
    """``(reply text, finish_reason)`` of a chat-completions answer's JSON ``body``: the first choice's content
    (its text parts joined when it is a list), else its tool calls' arguments (:func:`tool_arguments`; an
    endpoint that answers with a tool call: forced JSON, a proxy). Raises :class:`ModelError` when ``body`` is
    not such an answer."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ModelError("the model endpoint's answer is not JSON") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelError("the model returned no choices")
    message = choices[0].get("message")
    message = message if isinstance(message, dict) else {}
    content = message.get("content")
    if isinstance(content, list):
        content = "".join(part.get("text") or "" for part in content if isinstance(part, dict)
                          and isinstance(part.get("text"), str))
    text = content if isinstance(content, str) else ""
    if not text.strip():
        text = tool_arguments(message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else None)
    finish = choices[0].get("finish_reason")
    return text, finish if isinstance(finish, str) else None


# ---------------------------------------------------------------- the extractor


class LLMExtractor:
    """The model :class:`~memdir.consolidation.proposals.Extractor` (``name = "llm"``).

    ``settings`` supplies base URL, model, key variable, timeout (seconds)
    and max tokens; keyword arguments override them. Raises
    :class:`ModelError` from :meth:`extract` when the key is missing (a
    non-local endpoint), the call fails (HTTP error, timeout, connection) or
    the reply is unusable.
    """

    name = "llm"

    def __init__(self, settings, *, base_url: str | None = None, model: str | None = None,
                 api_key_value: str | None = None, timeout: float | None = None,
                 max_tokens: int | None = None):
        self.base_url = base_url or settings.llm_base_url
        self.model = model or settings.llm_model
        self.timeout = float(timeout or settings.llm_timeout)
        self.max_tokens = int(max_tokens or settings.llm_max_tokens)
        self.settings = settings
        self._key = api_key_value or api_key(settings)

    def complete(self, messages: list[dict]) -> tuple[str, str | None]:
        """One chat completion: ``(reply text, finish_reason)``, the whole call (its answer read included) within
        ``llm_timeout`` seconds and :data:`MAX_REPLY` bytes. Raises :class:`ModelError`."""
        key = self._key
        if not key:
            if not _is_local(self.base_url):
                raise ModelError(missing_key(self.settings, self.base_url))
            key = "local"  # a local server needs none; the client insists on a value
        try:
            import openai
        except ImportError:
            from ...version import install_command

            raise ModelError(f"the llm extractor needs the openai package: {install_command('llm')}") from None
        client = openai.OpenAI(base_url=self.base_url, api_key=key, timeout=self.timeout, max_retries=0)
        outcome: dict = {}

        def call() -> None:
            try:
                outcome["reply"] = self._ask(client, messages, time.monotonic() + self.timeout)
            except Exception as exc:  # noqa: BLE001 - handed to the caller's thread, which maps it below
                outcome["error"] = exc

        # llm_timeout bounds the whole call: the client's timeout is per read, so an endpoint sending a byte
        # every few seconds held a session-end consolidation, and every queue drain after it, for hours (break36).
        worker = threading.Thread(target=call, name="memdir-llm-call", daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            client.close()  # the abandoned call ends at its next read (its deadline passed)
            raise ModelError(f"the model did not answer within {self.timeout:g} s ({self.base_url})")
        try:
            if "error" in outcome:
                raise outcome["error"]
        except ModelError:
            raise
        except openai.APITimeoutError:
            raise ModelError(f"the model did not answer within {self.timeout:g} s ({self.base_url})") from None
        except openai.APIStatusError as exc:
            raise ModelError(f"the model endpoint answered HTTP {exc.status_code} ({self.base_url})") from None
        except openai.APIConnectionError as exc:
            raise ModelError(f"cannot reach {self.base_url}: {exc}") from None
        except openai.OpenAIError as exc:
            raise ModelError(f"model call failed: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - the connection broke while the answer was read (its client's types)
            raise ModelError(f"the model's answer was cut off ({type(exc).__name__}; {self.base_url})") from None
        return outcome["reply"]

    def _ask(self, client, messages: list[dict], deadline: float) -> tuple[str, str | None]:
        """The call itself, its answer read whole by :data:`MAX_REPLY` and ``deadline`` (``time.monotonic``)."""
        body = bytearray()
        with client.chat.completions.with_streaming_response.create(
                model=self.model, messages=messages, max_tokens=self.max_tokens, temperature=0) as response:
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > MAX_REPLY:
                    raise ModelError(f"the model's answer passed {MAX_REPLY:,} bytes and was not read further "
                                     f"({self.base_url})")
                if time.monotonic() > deadline:
                    raise ModelError(f"the model did not answer within {self.timeout:g} s ({self.base_url})")
        return completion_text(bytes(body))

    def extract(self, transcript, context: ExtractionContext) -> ExtractionResult:
        """Ask the model; return its proposals (the caller caps how many apply)."""
        text, finish = self.complete(build_messages(transcript, context))
        try:
            items = parse_reply(text)
        except ModelError as parse_error:
            error = parse_error
            if finish == "length":
                error = ModelError(f"the reply hit llm_max_tokens ({self.max_tokens}) and its JSON is incomplete")
            error.raw = text
            raise error from None
        proposals, invalid = read_proposals(items)
        return ExtractionResult(proposals, raw=text, model=self.model, invalid=invalid)


__all__ = ["MAX_REPLY", "SYSTEM_PROMPT", "LLMExtractor", "api_key", "build_messages", "completion_text",
           "key_variables", "missing_key", "parse_reply", "read_proposals", "tool_arguments"]
