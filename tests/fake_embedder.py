"""A small deterministic embedder for tests: pure Python, no model, vectors that mean something.

The vectors are ``fake_vectors.vector`` (hashed word counts), so texts sharing words are near
each other and the fusion has a real ranking to fuse. ``calls`` records every text embedded, for
the caching tests.
"""

from __future__ import annotations

from contextpull.models.embed import Embedder
from fake_vectors import embed_fn, vector  # noqa: F401  (embed_fn: the published reader's shape)

SETTING = "openai:fake-embed"


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
