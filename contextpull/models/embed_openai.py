"""``openai:<model>``: the OpenAI-compatible ``/embeddings`` endpoint, batched.

Covers the hosted API and any local server that speaks it (``OPENAI_BASE_URL``). Requests go
through ``http.post_json`` (timeouts, bounded retries honouring ``Retry-After``, key-free
errors); each answer is checked: one vector per input, ordered by ``index``, numeric, or an
``EmbedError`` naming the model and what was wrong (``Embedder._checked`` adds one length).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import http
from .embed import OPENAI_BATCH, EmbedError, Embedder, Vector
from .spec import Endpoint, ModelSpec


class OpenAIEmbedder(Embedder):
    def __init__(self, spec: ModelSpec, endpoint: Endpoint, *, batch: int = OPENAI_BATCH,
                 timeout: float = 60.0, retry: http.Retry = http.Retry(), counters: http.Counters | None = None):
        self.setting = spec.text
        self.model = spec.model
        self.endpoint = endpoint
        self.batch = batch
        self.timeout = timeout
        self.retry = retry
        self.counters = counters or http.Counters()

    def _documents(self, texts: list[str]) -> list[Vector]:
        out: list[Vector] = []
        for start in range(0, len(texts), self.batch):
            out.extend(self._request(texts[start:start + self.batch]))
        return out

    def _request(self, batch: list[str]) -> list[Vector]:
        answer = http.post_json(
            f"{self.endpoint.base_url}/embeddings",
            {"model": self.model, "input": batch},
            headers={"Authorization": f"Bearer {self.endpoint.key}"},
            secrets=self.endpoint.secrets(),
            timeout=self.timeout,
            retry=self.retry,
            counters=self.counters,
        )
        usage = answer.get("usage")
        if isinstance(usage, dict) and isinstance(usage.get("prompt_tokens"), int):
            self.counters.add(tokens_in=usage["prompt_tokens"])
        data = answer.get("data")
        where = f"{self.endpoint.base_url}/embeddings ({self.setting})"
        if not isinstance(data, list) or len(data) != len(batch):
            count = len(data) if isinstance(data, list) else "no"
            raise EmbedError(f"{where} answered {count} embeddings for {len(batch)} inputs")
        try:
            items = sorted(data, key=lambda item: item["index"])
        except (TypeError, KeyError):
            raise EmbedError(f"{where} answered embeddings without an index") from None
        if [item["index"] for item in items] != list(range(len(batch))):
            raise EmbedError(f"{where} answered indexes that are not 0 to {len(batch) - 1}")
        vectors: list[Vector] = []
        for item in items:
            vector = item.get("embedding")
            if not isinstance(vector, list) or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) for x in vector
            ):
                raise EmbedError(f"{where} answered an embedding that is not a list of numbers")
            vectors.append(vector)
        return vectors  # counts, lengths and norms: Embedder._checked
