"""A small deterministic embedder for tests: pure Python, no model, vectors that mean something.

Each text becomes counts of its words hashed into ``DIM`` buckets (sha256, so the same on every
machine), so texts sharing words are near each other and the fusion has a real ranking to fuse.
``calls`` records every text embedded, for the caching tests. ``embed_fn`` has the published
reader's ``embed_fn(model, texts)`` shape.
"""

from __future__ import annotations

import hashlib
import re

from contextpull.models.embed import Embedder

DIM = 16
SETTING = "openai:fake-embed"
_WORD = re.compile(r"[a-z0-9]+")


def vector(text: str) -> list[float]:
    out = [0.0] * DIM
    for word in _WORD.findall(text.lower()):
        bucket = hashlib.sha256(word.encode()).digest()[0] % DIM
        out[bucket] += 1.0
    out[0] += 0.01  # never a zero vector
    return out


class FakeEmbedder(Embedder):
    def __init__(self, setting: str = SETTING):
        self.setting = setting
        self.calls: list[str] = []
        self.queries: list[str] = []

    def _documents(self, texts):
        self.calls.extend(texts)
        return [vector(t) for t in texts]

    def _queries(self, texts):
        self.queries.extend(texts)
        return [vector(t) for t in texts]


def embed_fn(model, texts):
    return FakeEmbedder(model).embed_queries(texts)
