"""Measuring what an agent reads with the five tools (ADR 008; the ``eval`` extra).

Every retriever here satisfies ragbisect's ``Retriever`` protocol, ``retrieve(query, k) ->
list[str]`` of section ids (the ids ``contextpull export-chunks`` prints), without importing
ragbisect, which needs Python 3.12 or newer; the adapters run on 3.10.

- ``LexicalRetriever``, ``HybridRetriever`` (``one_shot``): one ``search`` per question.
- ``ApiLoopRetriever`` (``api_loop``): the index in the system prompt and the five tools in a
  loop against an OpenAI-compatible or Anthropic API; returns the ids the model read.
- ``ClaudeCodeRetriever`` (``claude_code``): ``claude -p`` headless against ``contextpull serve``.

``questions`` reads question files, ``metrics`` scores them, ``cache`` keeps finished agent runs
and ``runner`` drives a question file through a retriever for ``contextpull eval``. This package
imports the reader core and ``contextpull.models``, never the write side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .api_loop import ApiLoopRetriever
    from .claude_code import ClaudeCodeRetriever
    from .one_shot import HybridRetriever, LexicalRetriever

__all__ = ["ApiLoopRetriever", "ClaudeCodeRetriever", "HybridRetriever", "LexicalRetriever"]

_HOMES = {
    "ApiLoopRetriever": "api_loop",
    "ClaudeCodeRetriever": "claude_code",
    "HybridRetriever": "one_shot",
    "LexicalRetriever": "one_shot",
}


def __getattr__(name: str):
    """Each adapter loads on first use, so ``LexicalRetriever`` does not load the HTTP client."""
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
