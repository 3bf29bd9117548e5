"""Shared by the model-summary tests: a corpus, provider answers and a loopback 'model'."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from loopback_api import LoopbackAPI, Reply

SENTINEL = "sk-sentinel-4f0c2a9e1b"

DOCS = {
    "cache.md": "# Caching\n\nuv keeps a cache of downloaded wheels.\n\n## Cache directory\n\n"
    "Set UV_CACHE_DIR to move the cache, or pass --no-cache for one run.\n",
    "guide/install.md": "# Installing uv\n\nInstall uv with the standalone installer or with pip.\n\n"
    "## Upgrading\n\nRun uv self update to upgrade in place.\n",
    "tools.md": "# Tools\n\nRun command line tools from Python packages with uvx.\n",
}


def write_corpus(root: Path, docs: dict[str, str] | None = None) -> Path:
    for rel, text in (docs or DOCS).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def title_of(request) -> str:
    """The document title in a request of either API."""
    body = request.body or {}
    messages = body.get("messages") or []
    prompt = messages[-1]["content"] if messages else ""
    match = re.search(r"^Title: (.*)$", prompt, re.MULTILINE)
    return match.group(1) if match else "?"


def openai_answer(text: str, tokens_in: int = 40, tokens_out: int = 8) -> dict:
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out},
    }


def anthropic_answer(text: str, tokens_in: int = 30, tokens_out: int = 6) -> dict:
    return {
        "content": [{"type": "text", "text": text}],
        "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
    }


def model(answer=openai_answer, text=lambda title: f"What {title} covers"):
    """A handler that summarises each document as ``text(title)``."""
    return lambda request: Reply(200, answer(text(title_of(request))))


class Concurrency:
    """A handler wrapper that counts requests in flight at once."""

    def __init__(self, handler, delay: float = 0.15):
        self.handler, self.delay = handler, delay
        self.now = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, request):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(self.delay)
        with self.lock:
            self.now -= 1
        return self.handler(request)


def env_for(api: LoopbackAPI, provider: str = "openai", **extra: str) -> dict[str, str]:
    if provider == "openai":
        env = {"OPENAI_API_KEY": SENTINEL, "OPENAI_BASE_URL": api.url + "/v1"}
    else:
        env = {"ANTHROPIC_API_KEY": SENTINEL, "ANTHROPIC_BASE_URL": api.url}
    return {**env, **extra}
