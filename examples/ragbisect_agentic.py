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

from ragbisect_adapter import ApiLoop, ClaudeCode

__all__ = ["ApiLoop", "ApiLoopStrict", "ApiLoopSurfaced", "ClaudeCode"]


class ApiLoopStrict(ApiLoop):
    def __init__(self) -> None:
        super().__init__(strict=True)


class ApiLoopSurfaced(ApiLoop):
    def __init__(self) -> None:
        super().__init__(count_surfaced=True)
