"""Settings: defaults < ``$MEMDIR_HOME/config.toml`` < ``MEMDIR_*`` environment <
explicit arguments (DESIGN §9).

Read only at the entry points (CLI, hooks, MCP, panel) and passed down as one
frozen :class:`Settings`. Resource settings are clamped to hard ceilings so a
config file cannot make the injected context or a model call unbounded.

``config.toml`` uses the same names as the fields, grouped or flat::

    context_max_bytes = 4096
    [limits]            # -> limit_title, limit_description, limit_body
    body = 4000
    [consolidation]     # -> consolidation_mode, consolidation_max_proposals …
    mode = "gated"

Environment: ``MEMDIR_<FIELD>`` upper-case, e.g. ``MEMDIR_CONTEXT_MAX_BYTES``.

A broken ``config.toml`` (a TOML syntax error, an unknown key, a value of the
wrong type) or a bad ``MEMDIR_*`` value must not turn memory off for every
hook and server: what cannot be read falls back to its default, one warning
per problem goes to stderr once per process, and the warnings stay on
:attr:`Settings.warnings` for ``memdir doctor``. Only an explicit argument
with a bad value is an error (:class:`InvalidInput`).

The file and the environment are read by one rule (:func:`_coerce`): an int
setting takes a whole number (``3.7`` is refused in both, never truncated), a
float setting a finite one (``nan``, ``inf`` refused), a choice setting one of
:data:`CHOICES`; a number outside :data:`CLAMPS` is clamped with a warning.
"""

from __future__ import annotations

import os

from .errors import InvalidInput

CONTEXT_MIN_BYTES = 1536
"""Floor of ``context_max_bytes``: the frame, the note, the heading and the
policy of the context block take about 1,300 UTF-8 bytes (the guidance block
given on an empty store about 1,150), so a smaller budget would inject
nothing at all; this leaves room for the left-out marker and a few index
lines. ``tests/base/test_settings.py`` checks it against
:mod:`memdir.prompt.context`."""

# field -> (minimum, hard ceiling)
CLAMPS: dict[str, tuple[float, float]] = {
    "context_max_bytes": (CONTEXT_MIN_BYTES, 10_000),  # Claude Code caps additionalContext at 10,000 chars
    "recall_max_bytes": (128, 8192),
    "tool_output_max_bytes": (1000, 60_000),
    "limit_title": (16, 200),
    "limit_description": (40, 500),
    "limit_body": (200, 20_000),
    "stale_after_days": (0, 36_500),
    "lock_timeout": (0.1, 120),
    "max_file_bytes": (16 * 1024, 16 * 1024 * 1024),
    "consolidation_max_proposals": (1, 20),
    "llm_max_tokens": (64, 8192),
    "llm_timeout": (1, 600),
    "extractor_command_timeout": (1, 600),
}


# name -> default; the type of the default is the setting's type.
DEFAULTS: dict[str, object] = {
    "context_max_bytes": 4096,
    "recall_max_bytes": 2048,
    # UTF-8 bytes of one memory_read output: a longer body is read in parts, each naming the offset of the next.
    # 11,900: what Codex 0.171 keeps whole by default (memdir.integrations.claude_code.dialects.KEEPS_TOOL_OUTPUT);
    # `memdir install codex` caps it for its server to a person's lower tool_output_token_limit (TOOL_OUTPUT_CEILING).
    "tool_output_max_bytes": 11_900,
    "limit_title": 80,
    "limit_description": 160,
    "limit_body": 2000,
    "stale_after_days": 0,
    "enable_user_scope": True,
    "lock_timeout": 10.0,
    "max_file_bytes": 256 * 1024,  # a memory file larger than this is listed as too large, never read
    "consolidation_mode": "gated",  # off | gated | always
    "consolidation_max_proposals": 5,
    "consolidation_extractor": "auto",  # auto | rules | llm | command | agent
    "llm_base_url": "https://api.deepseek.com",
    "llm_model": "deepseek-chat",
    "llm_api_key_env": "",  # empty: the endpoint's own, DEEPSEEK_API_KEY for DeepSeek's host, else OPENAI_API_KEY
    "llm_timeout": 60.0,
    "llm_max_tokens": 2048,
    "extractor_command": "",  # e.g. "claude -p" or "llm -m my-model": the prompt on stdin, JSON on stdout
    "extractor_command_timeout": 120.0,
    "search_vectors": "auto",  # auto | on | off
    "team_dir": ".claude/memory",  # the team layer, relative to the repository root
    "sync_on_session_end": False,  # start a detached `memdir sync` when a session ends (after `memdir sync init`)
}

# Not a setting: what the client of a `memdir mcp` server keeps whole of one tool output (UTF-8 bytes), set in the
# server's entry by `memdir install codex` (memdir.integrations.clients.outputlimit). It caps tool_output_max_bytes
# and never raises it, so a person's own value (config.toml, MEMDIR_TOOL_OUTPUT_MAX_BYTES) stays in force below it.
TOOL_OUTPUT_CEILING = "MEMDIR_TOOL_OUTPUT_CEILING"

# field -> the values it accepts; for search_vectors a boolean word (true, no, …) means on or off.
CHOICES: dict[str, tuple[str, ...]] = {
    "consolidation_mode": ("off", "gated", "always"),
    "search_vectors": ("auto", "on", "off"),
}


class Settings:
    """Every tunable of memdir, already merged and clamped; immutable.

    Byte budgets are UTF-8 bytes; limits are characters (code points); times
    are seconds unless the name says days. The fields and their defaults are
    :data:`DEFAULTS`. (A hand-written value class rather than a dataclass:
    the hook path imports this module, and ``dataclasses`` alone would cost
    more than rendering the context.)
    """

    __slots__ = (*DEFAULTS, "warnings")

    def __init__(self, warnings: tuple[str, ...] = (), **values):
        unknown = set(values) - set(DEFAULTS)
        if unknown:
            raise InvalidInput(f"unknown setting(s): {', '.join(sorted(unknown))}")
        for name, default in DEFAULTS.items():
            object.__setattr__(self, name, values.get(name, default))
        # What could not be read and fell back to a default (shown by doctor); not a setting.
        object.__setattr__(self, "warnings", tuple(warnings))

    def __setattr__(self, name, value):
        raise AttributeError("Settings are immutable; use .replace(...)")

    def __eq__(self, other) -> bool:
        return isinstance(other, Settings) and all(getattr(self, n) == getattr(other, n) for n in DEFAULTS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in DEFAULTS))

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in DEFAULTS) + ")"

    def as_dict(self) -> dict:
        """Every setting by name."""
        return {n: getattr(self, n) for n in DEFAULTS}

    def replace(self, **changes) -> "Settings":
        """A copy with ``changes`` applied and clamped (the warnings kept)."""
        return _clamped(Settings(self.warnings, **{**self.as_dict(), **changes}))


def _coerce(name: str, value, target_type):
    """``value`` (a TOML value or an environment string) as ``target_type``,
    by the same rule for both: an int setting takes a whole number only
    (``3.7`` is refused, not truncated), a float setting a finite number
    (``nan`` and ``inf`` are refused), a choice setting one of :data:`CHOICES`.
    Raises :class:`InvalidInput` naming the setting."""
    def refuse(why: str = ""):
        return InvalidInput(f"setting {name}: cannot read {value!r} as {target_type.__name__}{why}")

    if target_type is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise refuse()
    if target_type in (int, float):
        if isinstance(value, bool):
            raise refuse()
        if target_type is int and isinstance(value, int):
            return value  # a TOML integer, exact at any size: through float 2**53 + 1 would read as 2**53
        if target_type is int and isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass  # "4e3", "3.7", "inf": read as a number below
        try:
            number = float(value.strip()) if isinstance(value, str) else float(value)
        except (TypeError, ValueError, OverflowError):
            raise refuse() from None
        if number != number or abs(number) == float("inf"):  # not finite (no math import on the hot path)
            raise refuse(" (it must be a finite number)")
        if target_type is float:
            return number
        if not number.is_integer():
            raise refuse(" (it must be a whole number)")
        return int(number)
    if not isinstance(value, (str, bool)):
        raise refuse()
    text = str(value)
    if name in CHOICES:
        text = text.strip().lower()
        text = {"true": "on", "yes": "on", "1": "on", "false": "off", "no": "off", "0": "off"}.get(text, text) \
            if "on" in CHOICES[name] else text
        if text not in CHOICES[name]:
            raise InvalidInput(f"setting {name} must be {', '.join(CHOICES[name][:-1])} or {CHOICES[name][-1]} "
                               f"(got {value!r})")
    return text


def _bounded(name: str, value):
    """``(value within CLAMPS, text saying how it was clamped or "")``."""
    if name not in CLAMPS:
        return value, ""
    low, high = CLAMPS[name]
    bounded = type(value)(min(max(value, low), high))
    if bounded == value:
        return value, ""
    side = "below the minimum" if value < low else "above the maximum"
    return bounded, f"setting {name}: {value!r} is {side} {type(value)(low if value < low else high)!r}; using {bounded!r}"


def _clamped(settings: Settings) -> Settings:
    changes = {}
    for name in CLAMPS:
        value = getattr(settings, name)
        bounded, _ = _bounded(name, value)
        if bounded != value:
            changes[name] = bounded
    for name, allowed in CHOICES.items():
        if getattr(settings, name) not in allowed:
            raise InvalidInput(f"{name} must be {', '.join(allowed[:-1])} or {allowed[-1]} "
                               f"(got {getattr(settings, name)!r})")
    return Settings(settings.warnings, **{**settings.as_dict(), **changes}) if changes else settings


def _flatten(data: dict, prefix: str = "") -> dict:
    """``{"limits": {"body": 1}}`` → ``{"limit_body": 1}``: a table name, in the
    singular or the plural, prefixes its keys."""
    flat = {}
    for key, value in data.items():
        name = f"{prefix}{key}".replace("-", "_")
        if isinstance(value, dict):
            for inner, item in _flatten(value, name + "_").items():
                singular = name[:-1] + inner[len(name):] if name.endswith("s") else inner
                flat[singular if singular in DEFAULTS and inner not in DEFAULTS else inner] = item
        else:
            flat[name] = value
    return flat


_WARNED: set[str] = set()


def _warn(warnings: list[str], text: str) -> None:
    """Keep ``text`` for doctor and print it on stderr, once per process."""
    warnings.append(text)
    if text not in _WARNED:
        import sys

        _WARNED.add(text)
        sys.stderr.write(f"memdir: warning: {text}\n")


def load_settings(home: str | os.PathLike | None, overrides: dict | None = None, environ=None) -> Settings:
    """Merge defaults, ``<home>/config.toml``, ``MEMDIR_*`` variables and
    ``overrides`` (``None`` values ignored) into a clamped :class:`Settings`.
    ``tool_output_max_bytes`` from the first three is capped by :data:`TOOL_OUTPUT_CEILING` when set.

    What cannot be read in the file or the environment — a TOML syntax error
    (the whole file), an unknown key, a value of the wrong type, an unknown
    ``consolidation_mode`` — falls back to the default with a warning (see
    the module docstring). Raises :class:`InvalidInput` only for a bad
    ``overrides`` value or name.
    """
    environ = os.environ if environ is None else environ
    types = {name: type(default) for name, default in DEFAULTS.items()}
    warnings: list[str] = []
    sourced: list[tuple[str, str, object]] = []  # (where, name, raw value), later sources win
    if home is not None:
        path = os.path.join(os.fspath(home), "config.toml")
        data = _read_config(path, warnings)
        for name, value in _flatten(data).items():
            if name not in types:
                _warn(warnings, f"{path}: unknown setting {name!r} ignored")
                continue
            sourced.append((str(path), name, value))
    for name in types:
        env = environ.get("MEMDIR_" + name.upper())
        if env is not None and env != "":
            sourced.append(("MEMDIR_" + name.upper(), name, env))
    values: dict = {}
    for where, name, value in sourced:
        try:
            coerced = _coerce(name, value, types[name])
        except InvalidInput as exc:
            _warn(warnings, f"{where}: {exc}; using {values.get(name, DEFAULTS[name])!r}")
            continue
        values[name], clamped = _bounded(name, coerced)
        if clamped:
            _warn(warnings, f"{where}: {clamped}")
    values["tool_output_max_bytes"] = _capped(values.get("tool_output_max_bytes", DEFAULTS["tool_output_max_bytes"]),
                                              environ.get(TOOL_OUTPUT_CEILING), warnings)
    for name, value in (overrides or {}).items():
        if value is not None:
            if name not in types:
                raise InvalidInput(f"unknown setting {name!r}")
            values[name] = _coerce(name, value, types[name])
    return _clamped(Settings(tuple(warnings), **values))


def set_by(name: str, home: str | os.PathLike | None, environ=None) -> str:
    """Where the value of setting ``name`` that :func:`load_settings` gives (with no ``overrides``) comes from:
    ``MEMDIR_<NAME>`` when that variable holds a value it takes, else the path of ``<home>/config.toml`` when that
    file sets it to one, else ``"memdir's default"`` — the later source of the three that set it, as the merge
    reads them. For a message that says which ceiling or budget was applied. Never raises (an unknown ``name``
    is the default's)."""
    environ = os.environ if environ is None else environ
    kind = type(DEFAULTS.get(name, ""))
    env = environ.get("MEMDIR_" + name.upper())
    sources = []
    if home is not None:
        path = os.path.join(os.fspath(home), "config.toml")
        sources.append((path, _flatten(_read_config(path, [])).get(name)))
    sources.append(("MEMDIR_" + name.upper(), env if env != "" else None))
    found = "memdir's default"
    for where, value in sources:
        if value is None:
            continue
        try:
            _coerce(name, value, kind)
        except InvalidInput:  # load_settings passes it over with a warning: the earlier source stands
            continue
        found = where
    return found


def _capped(budget: int, ceiling: str | None, warnings: list[str]) -> int:
    """``budget`` (``tool_output_max_bytes``, whichever source set it) no larger than ``ceiling`` (the text of
    :data:`TOOL_OUTPUT_CEILING`, UTF-8 bytes a client keeps whole; None or empty: no cap). A ceiling that is
    not a whole number is ignored with a warning; one below the setting's floor caps at the floor."""
    if ceiling is None or ceiling == "":
        return budget
    try:
        cap = _coerce("tool_output_max_bytes", ceiling, int)
    except InvalidInput as exc:
        _warn(warnings, f"{TOOL_OUTPUT_CEILING}: {exc}; ignored")
        return budget
    return min(budget, max(cap, int(CLAMPS["tool_output_max_bytes"][0])))


# The most of config.toml read (every setting with a comment is under 4 KB), as the other configuration
# reads are capped (a git config: gitfiles.MAX_GIT_CONFIG_BYTES, the trust file: files.trust.MAX_TRUST_BYTES).
MAX_CONFIG_BYTES = 64 * 1024


def _read_config(path: str, warnings: list[str]) -> dict:
    """The table of ``config.toml`` at ``path``; ``{}`` when there is none,
    with a warning when something is there that cannot be read (a directory,
    a dangling symlink, bad TOML, bad UTF-8, more than :data:`MAX_CONFIG_BYTES`: read no further)."""
    if not os.path.lexists(path):
        return {}
    if os.path.islink(path) and not os.path.exists(path):
        _warn(warnings, f"{path} is a symlink to {os.readlink(path)!r}, which does not exist; using the defaults")
        return {}
    if not os.path.isfile(path):
        _warn(warnings, f"{path} is not a file; using the defaults")
        return {}
    import tomllib

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)  # never more: a huge file (a log written there) is not read whole
        if len(data) > MAX_CONFIG_BYTES:
            _warn(warnings, f"{path} is over {MAX_CONFIG_BYTES:,} bytes, more than any settings file needs; not read, "
                  "using the defaults for every setting")
            return {}
        return tomllib.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        _warn(warnings, f"{path} cannot be read ({exc}); using the defaults for every setting in it")
        return {}
