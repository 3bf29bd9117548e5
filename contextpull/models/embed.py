"""Section and query embeddings: the interface, the vector encoding and the model registry.

store-format.txt "Search" step 8 and supplement.md ``embed_model``: a store holds one vector per
section in ``embeddings``, computed from the heading path and the text (``heading_path + "\\n" +
text``, the published 0.2.1 writer's input), L2-normalised, as float32 little-endian bytes, with
``model`` holding the whole setting (``openai:text-embedding-3-small``, ``local:minilm``). Writing
them exactly so lets the published reader run hybrid search on our stores and ours on its.

An ``Embedder`` embeds documents (sections) and queries separately because some models want a
different prefix for each (e5: ``passage:``/``query:``); the setting is the same either way.
``embedders.load`` turns a setting into one, or raises ``EmbedUnavailable`` naming what is
missing (an extra, a key) so a reader can fall back to lexical search with that in its hint.

Standard library only.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence

from ..search.dense import from_blob, section_text, to_blob  # noqa: F401 - the store's encoding, the reader's to own
from ..errors import ContextPullError

# Texts a request to an OpenAI-compatible /embeddings endpoint carries: fewer requests against
# a rate limit, and an answer still small enough to retry whole.
OPENAI_BATCH = 100

Vector = Sequence[float]


class EmbedUnavailable(ContextPullError):
    """This process cannot embed with the setting: an extra is missing, or a key is not set."""


def need(module: str, package: str, extra: str):
    """``module`` imported, or ``EmbedUnavailable`` naming the package and the extra that brings it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise EmbedUnavailable(
            f"embed_model local models need the package {package!r}, which is not installed", extra
        ) from None


class EmbedError(ContextPullError):
    """A model answered with something that is not a usable vector."""


class Embedder(ABC):
    """One model. Subclasses implement ``_documents`` and may override ``_queries``."""

    #: the setting as stored in ``embeddings.model`` and the manifest
    setting: str = ""
    #: texts a writer hands ``embed_documents`` at once: one request's worth for a hosted model
    #: (``OPENAI_BATCH``); a local model runs each text alone, so this only bounds the rows a
    #: writer holds between lookups and inserts
    batch: int = 32

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors for the texts, in order; checked for count and length."""
        return self._checked(texts, self._documents(list(texts)))

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._checked(texts, self._queries(list(texts)))

    @abstractmethod
    def _documents(self, texts: list[str]) -> list[Vector]:
        """The model's raw vectors for ``texts``, in order."""

    def _queries(self, texts: list[str]) -> list[Vector]:
        return self._documents(texts)

    def _checked(self, texts: Sequence[str], vectors: Sequence[Vector]) -> list[list[float]]:
        if len(vectors) != len(texts):
            raise EmbedError(f"{self.setting}: {len(vectors)} vectors for {len(texts)} texts")
        out = [normalize(v, self.setting) for v in vectors]
        dims = {len(v) for v in out}
        if len(dims) > 1:
            raise EmbedError(f"{self.setting}: vectors of different lengths {sorted(dims)} in one answer")
        return out


def normalize(vector: Vector, setting: str = "") -> list[float]:
    """L2-normalised floats; an empty, zero or non-finite vector is an ``EmbedError``."""
    values = [float(x) for x in vector]
    if not values:
        raise EmbedError(f"{setting}: an empty vector")
    norm = math.sqrt(math.fsum(x * x for x in values))
    if not math.isfinite(norm) or norm == 0.0:
        raise EmbedError(f"{setting}: a vector that cannot be normalised (zero or not finite)")
    return [x / norm for x in values]


class FunctionEmbedder(Embedder):
    """A caller's ``embed_fn(model, texts) -> vectors`` (the published library's signature) as an
    embedder: the library's way to bring a model this release does not ship. ``model`` is
    whatever the caller names it; it is stored in ``embeddings.model`` as given."""

    def __init__(self, model: str, embed_fn):
        self.setting = model
        self.embed_fn = embed_fn

    def _documents(self, texts: list[str]) -> list[Vector]:
        return list(self.embed_fn(self.setting, texts))
