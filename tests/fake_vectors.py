"""The fake embedder's vectors as plain code, importable by any reader (the published one
included): counts of a text's words hashed into ``DIM`` buckets with sha256, so texts sharing
words are near each other on every machine."""

from __future__ import annotations

import hashlib
import math
import re

DIM = 16
_WORD = re.compile(r"[a-z0-9]+")


def vector(text: str) -> list[float]:
    out = [0.0] * DIM
    for word in _WORD.findall(text.lower()):
        out[hashlib.sha256(word.encode()).digest()[0] % DIM] += 1.0
    out[0] += 0.01  # never a zero vector
    return out


def embed_fn(model, texts):
    """The published reader's ``embed_fn(model, texts)``: unit vectors."""
    out = []
    for text in texts:
        v = vector(text)
        norm = math.sqrt(math.fsum(x * x for x in v))
        out.append([x / norm for x in v])
    return out
