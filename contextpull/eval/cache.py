"""The run cache: one finished agent run per question, model and settings (ADR 008).

An agent-loop run costs requests and tokens, so re-running a benchmark must cost nothing and give
the same figures. A run is stored under a key that holds everything that could change it: the
adapter and its record version, the model, the settings (turns, prompt, tools), the store's
``corpus_fingerprint`` and the question. A new corpus or a new prompt is a new key, never a stale
hit. Only finished runs are stored: a run that failed (an API error, no answer within the turns)
is measured again next time rather than frozen as a data point.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path

from ..errors import InputError

# Where ``contextpull eval`` and both loop retrievers keep finished runs unless told otherwise:
# one default, so a library run and a command-line run of the same questions share their answers.
DEFAULT_CACHE = ".contextpull-eval/cache.sqlite"


def cache_key(*parts: object) -> str:
    """A stable digest of ``parts`` (JSON with sorted keys)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class RunCache:
    """A SQLite file of ``key -> JSON record``; safe to share between worker threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), check_same_thread=False)
            self._conn.execute("CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, record TEXT NOT NULL)")
            self._conn.commit()
        except (OSError, sqlite3.Error) as exc:
            raise InputError(f"{self.path}: cannot open the evaluation cache ({exc})") from None
        self._lock = threading.Lock()

    def get(self, key: str) -> dict | None:
        with self._lock:
            row = self._conn.execute("SELECT record FROM runs WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, record: dict) -> None:
        text = json.dumps(record, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO runs (key, record) VALUES (?, ?)", (key, text))
            self._conn.commit()

    def close(self) -> None:
        with self._lock:
            self._conn.close()
