"""ContextPull as ragbisect adapters: rows beside ragbisect's bm25, dense and hybrid (ADR 008).

    contextpull export-chunks --store STORE > chunks.jsonl     # ragbisect's corpus: the same sections
    export CONTEXTPULL_STORE=STORE
    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_adapter.py:ContextPullSearch
    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_adapter.py:ContextPullHybrid
    CONTEXTPULL_LOOP_MODEL=openai:<model> \\
    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_adapter.py:ApiLoop --sample 50

ragbisect needs Python 3.12 or newer (``pip install "contextpull[eval]"`` brings it there); these
classes need only contextpull. Each is built with no arguments, as ragbisect builds an adapter,
and reads the store from ``CONTEXTPULL_STORE``. ``contextpull eval`` runs the same retrievers
without ragbisect.
"""

from __future__ import annotations

import os

from contextpull.eval import ApiLoopRetriever, ClaudeCodeRetriever, HybridRetriever, LexicalRetriever


class ContextPullSearch(LexicalRetriever):
    """One lexical ``search`` per question."""


class ContextPullHybrid(HybridRetriever):
    """One ``search(mode="hybrid")`` per question; lexical, with a hint, on a store without embeddings."""


class ApiLoop(ApiLoopRetriever):
    """The five tools in a model loop; the ids the model read. Needs the provider's key.

    ragbisect builds it with no arguments; the keywords are for variants that change one setting
    and keep the model from ``CONTEXTPULL_LOOP_MODEL`` (``ragbisect_agentic.py``)."""

    def __init__(self, **settings) -> None:
        super().__init__(model=os.environ.get("CONTEXTPULL_LOOP_MODEL", "openai:gpt-5.4-mini"), **settings)


class ClaudeCode(ClaudeCodeRetriever):
    """``claude -p`` with ``contextpull serve`` attached. Tens of cents a question: use --sample."""

    def __init__(self) -> None:
        super().__init__(model=os.environ.get("CONTEXTPULL_CC_MODEL") or None)
