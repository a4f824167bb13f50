"""The digest of what was shown to a session (DESIGN §6): one rule for what the session record keeps
(:mod:`memdir.prompt.recalled`) and what a session start compares a block with (:mod:`memdir.prompt.start`).

Kept apart from :mod:`memdir.prompt.recalled` so ``memdir context`` and the session start, which only
compute a digest, load neither the record's files nor their lock (:mod:`memdir.prompt.sessionfiles`,
:mod:`memdir.prompt.delivery`, :mod:`memdir.runtime`, :mod:`memdir.text.json_c`, ``fcntl``). On the hot
path: standard library only, its digest without OpenSSL (:func:`memdir.paths.sha256`).
"""

from __future__ import annotations

from ..paths import sha256


def digest(text: str) -> str:
    """The digest a session's record keeps of what was shown (:func:`memdir.prompt.recalled.record`,
    :func:`memdir.prompt.recalled.record_start`): 16 lowercase hex digits of SHA-256 of ``text`` (UTF-8;
    a lone surrogate as ``?``). Never raises."""
    return sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


__all__ = ["digest"]
