"""Which embedder a setting names: ``openai:<model>`` or ``local:<name>`` (supplement.md
``embed_model``), checked before a build starts and loaded once a process for queries. A bare
``local`` is the default local model (``embed_local.DEFAULT``); stores and manifests record the
setting it expands to, so they always name the model that made their vectors.

Standard library only at import; a local model imports its extra when it is loaded.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence

from ..errors import ConfigError
from . import embed_local
from . import spec as spec_mod
from .embed import EmbedUnavailable, Embedder

SETTING = "embed_model"
UNSET = "lexical search only"  # what a store without vectors still offers
PROVIDERS = ("openai", "local")


def expand(text: str) -> str:
    """``local`` -> ``local:<default model>``; any other text unchanged."""
    return f"local:{embed_local.DEFAULT}" if str(text).strip() == "local" else text


def parse(text: str) -> spec_mod.ModelSpec:
    return spec_mod.parse(expand(text), setting=SETTING, providers=PROVIDERS)


def check(text: str, environ: Mapping[str, str]) -> spec_mod.ModelSpec:
    """Validate a setting before a build starts: provider, known local name, the key (looked up
    in ``environ``, the variables the caller read)."""
    spec = parse(text)
    if spec.provider == "openai":
        spec_mod.endpoint(spec, setting=SETTING, environ=environ, unset=UNSET)
    elif spec.model not in embed_local.MODELS:
        raise ConfigError(
            f"{SETTING}: unknown local model {spec.model!r}",
            "use one of " + ", ".join(f"local:{name}" for name in sorted(embed_local.MODELS)),
        )
    return spec


def load(text: str, environ: Mapping[str, str]) -> Embedder:
    """The embedder for a setting; ``EmbedUnavailable`` names what this process lacks."""
    try:
        spec = check(text, environ)
    except ConfigError as exc:
        raise EmbedUnavailable(exc.message, exc.suggestion) from None
    if spec.provider == "openai":
        from .embed_openai import OpenAIEmbedder

        return OpenAIEmbedder(spec, spec_mod.endpoint(spec, setting=SETTING, environ=environ, unset=UNSET))
    return embed_local.load(spec.model)


_loaded: dict[str, Embedder] = {}
_lock = threading.Lock()


def query_vectors(setting: str, texts: Sequence[str]) -> list[list[float]]:
    """``embed_fn`` for readers: query vectors with the store's model, the model loaded once a
    process (a local model takes about a second to load; MiniLM about 3 s more on its first
    query, to quantize itself). A reader built without its own ``embed_fn`` (``Ops``, the MCP
    server, ``contextpull search``) is where a hosted model's key is taken from the process
    environment, as docs/library.md says: the one read on the read side."""
    with _lock:
        embedder = _loaded.get(setting)
        if embedder is None:
            embedder = _loaded[setting] = load(setting, os.environ)
    return embedder.embed_queries(texts)
