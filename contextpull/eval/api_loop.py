"""``ApiLoopRetriever``: the five tools in a direct model API loop, measured (ADR 003, ADR 008).

The system prompt is what the MCP server hands a host (``mcp_instructions``: the pull discipline
and the index, or the directory listing past the index budget); the tools are
``contextpull.tools.TOOLS`` exactly as they ship. The loop posts the conversation until the model
answers without calling a tool or ``max_turns`` requests have been made.

- A tool error (unknown tool, invalid arguments, an unknown id) goes back to the model as the
  tool's result, marked as an error, and is counted in ``tool_errors``.
- A store failure inside a tool (SQLite, the file system) is an infrastructure failure: it is
  counted in ``infra_errors``, and a run in which every tool call failed that way has an error.
- A provider failure (429 past the retries, 5xx, a reply the loop cannot read) ends the run with
  ``error`` set. Errored runs are counted in ``stats()["errors"]`` and never cached.

``retrieve(query, k)`` returns the ids whose text the model read, in reading order (see
``record.LoopRecord``); ``count_surfaced=True`` appends the ids it only saw in search and grep
results. Runs are cached by question, model, endpoint, settings and the store's corpus
fingerprint (``cache.RunCache``); ``cache_path=None`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Mapping

from ..errors import ContextPullError
from ..serving.mcp_instructions import build_instructions
from ..models import spec as model_spec
from ..models.http import Counters, ProviderError, Retry
from ..tools import TOOLS, call
from .cache import DEFAULT_CACHE, RunCache, cache_key
from .chat import CONVERSATIONS, ToolAnswer, ToolCall
from .record import LoopRecord, RecordedRuns, summarize
from .stores import ThreadStores

RECORD_VERSION = 1  # bump when LoopRecord or what the loop counts changes
SETTING = "api-loop model"

ASK = "\n\nFind the answer in the documents with the tools, read the sections you rely on, and cite their ids like [path.md#3]."
ASK_STRICT = (
    "\n\nSearch results are pointers, not evidence: read a section before you use it, and cite only "
    "ids you have read, like [path.md#3]. Keep reading until a section you read answers the question."
)


class ApiLoopRetriever(RecordedRuns):
    concurrency = 4

    def __init__(
        self,
        store_path: str | None = None,
        model: str = "openai:gpt-5.4-mini",
        max_turns: int = 8,
        cache_path: str | None = DEFAULT_CACHE,
        timeout: float = 120.0,
        strict: bool = False,
        count_surfaced: bool = False,
        *,
        retry: Retry = Retry(),
        environ: Mapping[str, str] | None = None,
    ):
        """Checks the model setting, its key and the store before any question is asked."""
        if not isinstance(max_turns, int) or max_turns < 1:
            raise ContextPullError(f"max_turns must be a positive integer, got {max_turns!r}")
        self.spec = model_spec.parse(model, setting=SETTING, providers=tuple(CONVERSATIONS))
        # A retriever is constructed by the evaluation runner or an external harness (ragbisect),
        # the surface that owns the process: without ``environ`` it takes the process's keys.
        environ = os.environ if environ is None else environ
        self.endpoint = model_spec.endpoint(self.spec, setting=SETTING, environ=environ, unset=None)
        self.stores = ThreadStores(store_path)
        first = self.stores.first
        self.system = build_instructions(first.conn, first.meta)
        self.fingerprint = first.corpus_fingerprint
        self.max_turns = max_turns
        self.timeout = timeout
        self.retry = retry
        self.strict = strict
        self.count_surfaced = count_surfaced
        self.cache = RunCache(cache_path) if cache_path else None
        self.records: dict[str, LoopRecord] = {}
        self._lock = threading.Lock()
        prompt = json.dumps([self.system, self._ask(), TOOLS], sort_keys=True)
        self._prompt_digest = hashlib.sha256(prompt.encode("utf-8")).hexdigest()

    # -- ragbisect's protocol, and what it reads besides ---------------------------------------
    def retrieve(self, query: str, k: int) -> list[str]:
        return self.record(query).ranked(k, count_surfaced=self.count_surfaced)

    def generate(self, query: str, chunk_ids: list[str] | None = None) -> str:
        """The loop's own final answer; ``chunk_ids`` is ignored: the model chose what to read."""
        return self.record(query).answer

    def stats(self) -> dict:
        with self._lock:
            records = list(self.records.values())
        return {**summarize(records), "model": self.spec.text, "strict": self.strict,
                "count_surfaced": self.count_surfaced}

    def close(self) -> None:
        self.stores.close()
        if self.cache:
            self.cache.close()

    # -- the loop ------------------------------------------------------------------------------
    def _ask(self) -> str:
        return ASK_STRICT if self.strict else ASK

    def _key(self, query: str) -> str:
        return cache_key("api-loop", RECORD_VERSION, self.spec.text, self.endpoint.base_url, self.max_turns,
                         self._prompt_digest, self.fingerprint, query)

    def _run(self, query: str) -> LoopRecord:
        rec = LoopRecord()
        counters = Counters()
        started = time.perf_counter()
        conversation = CONVERSATIONS[self.spec.provider](
            self.endpoint, self.spec.model, self.system, query + self._ask(),
            timeout=self.timeout, retry=self.retry, counters=counters,
        )
        try:
            self._turns(conversation, rec)
        except ProviderError as exc:
            rec.error = exc.message
        finally:
            rec.requests = counters.requests
            rec.ms = round((time.perf_counter() - started) * 1000, 1)
        calls = sum(rec.tool_calls.values())
        if rec.error is None and calls and rec.infra_errors == calls:
            rec.error = f"every one of the {calls} tool calls failed in the store"
        return rec

    def _turns(self, conversation, rec: LoopRecord) -> None:
        for _ in range(self.max_turns):
            turn = conversation.send()
            rec.turns += 1
            rec.tokens_in += turn.tokens_in
            rec.tokens_out += turn.tokens_out
            if not turn.calls:
                rec.answer = turn.text
                return
            conversation.answer([self._tool(rec, c) for c in turn.calls])
        rec.error = f"no answer within {self.max_turns} turns"

    def _tool(self, rec: LoopRecord, tool_call: ToolCall) -> ToolAnswer:
        rec.count_call(tool_call.name)
        if tool_call.problem is not None:
            rec.tool_errors += 1
            return ToolAnswer(tool_call, _error_text(tool_call.problem, "send the arguments as one JSON object"), True)
        try:
            result = call(self.stores.ops(), tool_call.name, tool_call.arguments)
        except (sqlite3.Error, OSError) as exc:
            rec.infra_errors += 1
            return ToolAnswer(tool_call, _error_text(f"the store failed: {type(exc).__name__}: {exc}", None), True)
        except ContextPullError as exc:
            rec.tool_errors += 1
            return ToolAnswer(tool_call, json.dumps(exc.to_dict(), ensure_ascii=False), True)
        rec.note_result(tool_call.name, result)
        content = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        return ToolAnswer(tool_call, content, False)


def _error_text(message: str, suggestion: str | None) -> str:
    return json.dumps({"error": message, "suggestion": suggestion}, ensure_ascii=False)
