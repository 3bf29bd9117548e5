"""One-shot retrievers: one ``search`` call per question, the rows beside ragbisect's bm25,
dense and hybrid baselines (ADR 008).

Both satisfy ragbisect's ``Retriever`` protocol (``retrieve(query, k) -> list[str]``) without
importing ragbisect. The ids are section ids, equal to the ids ``contextpull export-chunks``
prints, so ragbisect's own baselines run over exactly the sections these rank. ``search`` returns
at most 50 hits (supplement.md, argument limits); a larger ``k`` is answered with 50.
"""

from __future__ import annotations

import os
import threading

from ..ops import SEARCH_LIMIT
from .stores import ThreadStores


class LexicalRetriever:
    """``search(query, limit=k)``: the store-format ranking (phrase, AND, OR passes by bm25)."""

    mode = "lexical"
    concurrency = 2

    def __init__(self, store_path: str | os.PathLike | None = None):
        self.stores = ThreadStores(store_path)
        self.hints: dict[str, int] = {}  # search hints seen, e.g. "no embeddings in store"
        self._hints_lock = threading.Lock()  # --workers asks from several threads at once

    def retrieve(self, query: str, k: int) -> list[str]:
        limit = max(SEARCH_LIMIT[0], min(int(k), SEARCH_LIMIT[1]))
        result = self.stores.ops().search(query, limit=limit, mode=self.mode)
        if result.hint:
            with self._hints_lock:  # a read and a write: unguarded, two threads lose a count
                self.hints[result.hint] = self.hints.get(result.hint, 0) + 1
        return [hit.id for hit in result.hits][:k]

    def stats(self) -> dict:
        with self._hints_lock:
            return {"mode": self.mode, "hints": dict(self.hints)}

    def close(self) -> None:
        self.stores.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class HybridRetriever(LexicalRetriever):
    """``search(query, limit=k, mode="hybrid")``: lexical ranks fused with stored embeddings.

    A store without embeddings answers lexically and says so in the hint; ``stats()["hints"]``
    counts it, so a "hybrid" row measured on such a store cannot pass for a hybrid figure.
    """

    mode = "hybrid"
