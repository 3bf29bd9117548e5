"""The agent-loop adapters under the names 0.2.1's adapter files use.

    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_agentic.py:ApiLoop
    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_agentic.py:ApiLoopStrict
    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_agentic.py:ApiLoopSurfaced
    ragbisect run --corpus chunks.jsonl --adapter examples/ragbisect_agentic.py:ClaudeCode --sample 20

``ApiLoopStrict`` tells the model search results are not evidence; ``ApiLoopSurfaced`` credits
the ids it only saw in search and grep results after those it read. Model from
``CONTEXTPULL_LOOP_MODEL``; store from ``CONTEXTPULL_STORE``.
"""

from __future__ import annotations

import os

from contextpull.eval import ApiLoopRetriever
from ragbisect_adapter import ApiLoop, ClaudeCode

__all__ = ["ApiLoop", "ApiLoopStrict", "ApiLoopSurfaced", "ClaudeCode"]


def _model() -> str:
    return os.environ.get("CONTEXTPULL_LOOP_MODEL", "openai:gpt-5.4-mini")


class ApiLoopStrict(ApiLoopRetriever):
    def __init__(self) -> None:
        super().__init__(model=_model(), strict=True)


class ApiLoopSurfaced(ApiLoopRetriever):
    def __init__(self) -> None:
        super().__init__(model=_model(), count_surfaced=True)
