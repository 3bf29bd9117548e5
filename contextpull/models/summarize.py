"""One-line document summaries from a hosted model (system-design.txt section 3 "Summarize";
store-format.txt ``documents.summary``: one line, at most 160 characters).

The write side hands each changed document over as a ``Document`` (title, heading list, opening
text) and gets back either a summary or the reason there is none; it keeps the offline summary
then. This module knows the two APIs and nothing of stores, records or caches, so the model room
stays separate from the rooms that write (docs/architecture.md).

- One request per document: the title, the heading list and the first ``HEAD_CHARS``
  characters of its text (the spec's 1,500).
- ``openai:<model>`` speaks chat completions (any compatible server at ``OPENAI_BASE_URL``);
  ``anthropic:<model>`` speaks the Messages API. Both with temperature 0 and a small output cap:
  a summary is one line.
- The answer is cleaned into one line (``clean``): markdown and surrounding quotes stripped,
  whitespace collapsed, at most 160 characters. An answer with nothing left is a failure, so
  the document keeps its offline summary rather than an empty line in the index.
- ``Summarizer.stream`` runs the requests on a bounded thread pool and hands results back in
  input order, holding a bounded window of documents, so the writer keeps writing while requests
  are in flight and a build stays deterministic in what it writes where.

Retries, timeouts and key scrubbing are ``http.post_json``'s; the counters feed the report.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from ..scan.inline_links import links_as_text
from .http import Counters, ProviderError, Retry, post_json
from .spec import Endpoint, ModelSpec, endpoint, parse

PROVIDERS = ("openai", "anthropic")
SUMMARY_MAX = 160
HEAD_CHARS = 1500
HEADINGS_CHARS = 1200  # the heading list of a long manual is cut, so the prompt stays small
MAX_OUTPUT_TOKENS = 120
ANTHROPIC_VERSION = "2023-06-01"
# Per request; tests lower them. The retry schedule is deterministic (http.Retry).
TIMEOUT = 60.0
RETRY = Retry()

INSTRUCTIONS = (
    "You write the entry a table of contents shows for one document. An AI assistant reads the "
    "table to decide which document to open. Reply with a single line of at most 120 characters "
    "saying what the document covers and what someone would open it for; name concrete things "
    "(commands, settings, file names, error codes). Plain text only: no markdown, no quotes, no "
    "label, and do not repeat the title."
)

T = TypeVar("T")


@dataclass(frozen=True)
class Document:
    """What the model sees of one document."""

    title: str
    headings: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Outcome:
    """A summary, or the one-line reason there is none (``summary`` is None then)."""

    summary: str | None
    error: str | None = None


def prompt(doc: Document) -> str:
    headings = "\n".join(doc.headings)[:HEADINGS_CHARS]
    return f"Title: {doc.title}\n\nHeadings:\n{headings}\n\nStart of the text:\n{doc.text[:HEAD_CHARS]}"


# -- cleaning the answer ----------------------------------------------------------------------
_LINE_MARK = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|>\s?|\d{1,3}[.)]\s+)")
_STRONG = re.compile(r"(\*\*|__|~~|`+)")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])|(?<![\w_])_(?=\S)([^_]*?\S)_(?![\w_])")
_LABEL = re.compile(r"^(?:one[- ]line\s+)?summary\s*:\s*", re.IGNORECASE)
_QUOTES = "\"'“”‘’«»`"


def clean(answer: str) -> str:
    """One line of at most ``SUMMARY_MAX`` characters; empty when nothing usable is left."""
    lines = [_LINE_MARK.sub("", line) for line in str(answer).splitlines()]
    text = " ".join(" ".join(lines).split())
    text = links_as_text(text)
    text = _STRONG.sub("", text)
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    text = _LABEL.sub("", text).strip()
    text = text.strip(_QUOTES + " ").strip()
    if len(text) > SUMMARY_MAX:
        text = text[: SUMMARY_MAX - 1].rstrip() + "…"
    return text


# -- the two APIs -----------------------------------------------------------------------------
def _openai(model: str, doc: Document, base: str, key: str) -> tuple[str, dict, dict[str, str]]:
    body = {
        "model": model,
        "messages": [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": prompt(doc)}],
        "temperature": 0,
        "max_tokens": MAX_OUTPUT_TOKENS,
    }
    return f"{base}/chat/completions", body, {"Authorization": f"Bearer {key}"}


def _anthropic(model: str, doc: Document, base: str, key: str) -> tuple[str, dict, dict[str, str]]:
    body = {
        "model": model,
        "system": INSTRUCTIONS,
        "messages": [{"role": "user", "content": prompt(doc)}],
        "temperature": 0,
        "max_tokens": MAX_OUTPUT_TOKENS,
    }
    # The SDK's convention: ANTHROPIC_BASE_URL is the host, the path is /v1/messages.
    return f"{base}/v1/messages", body, {"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION}


def _tokens(usage: Any, names: tuple[str, str]) -> tuple[int, int]:
    if not isinstance(usage, dict):
        return 0, 0
    values = [usage.get(name) for name in names]
    return tuple(v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0 for v in values)  # type: ignore[return-value]


def answer_text(provider: str, answer: dict) -> tuple[str, int, int]:
    """(text, tokens in, tokens out) of a provider's answer; ``ProviderError`` on another shape."""
    try:
        if provider == "openai":
            text = answer["choices"][0]["message"]["content"]
            tokens = _tokens(answer.get("usage"), ("prompt_tokens", "completion_tokens"))
        else:
            blocks = answer["content"]
            text = "".join(b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text")
            tokens = _tokens(answer.get("usage"), ("input_tokens", "output_tokens"))
    except (KeyError, IndexError, TypeError):
        raise ProviderError(f"the {provider} answer has no message text") from None
    if not isinstance(text, str):
        raise ProviderError(f"the {provider} answer's message is not text")
    return text, *tokens


class Summarizer:
    """One model behind one endpoint; ``name`` is the setting as the store records it."""

    def __init__(
        self, spec: ModelSpec, where: Endpoint, *, concurrency: int = 8,
        timeout: float | None = None, retry: Retry | None = None, counters: Counters | None = None,
    ):
        self.spec = spec
        self.name = spec.text
        self._endpoint = where
        self.concurrency = max(1, int(concurrency))
        self.timeout = TIMEOUT if timeout is None else timeout
        self.retry = RETRY if retry is None else retry
        self.counters = counters or Counters()

    def summarize(self, doc: Document) -> Outcome:
        """One request (and its retries); never raises for what a provider does."""
        build = _openai if self.spec.provider == "openai" else _anthropic
        url, body, headers = build(self.spec.model, doc, self._endpoint.base_url, self._endpoint.key)
        try:
            answer = post_json(
                url, body, headers=headers, secrets=self._endpoint.secrets(),
                timeout=self.timeout, retry=self.retry, counters=self.counters,
            )
            text, tokens_in, tokens_out = answer_text(self.spec.provider, answer)
        except ProviderError as exc:
            return Outcome(None, exc.message)
        self.counters.add(tokens_in=tokens_in, tokens_out=tokens_out)
        summary = clean(text)
        if not summary:
            return Outcome(None, "the model answered with an empty summary")
        return Outcome(summary)

    def stream(self, items: Iterable[T], ask: Callable[[T], Document | None]) -> Iterator[tuple[T, Outcome | None]]:
        """``(item, outcome)`` for each item in input order; ``ask(item)`` is the document to
        summarise, or None to pass the item through (outcome None). At most ``concurrency``
        requests run at once and at most ``4 * concurrency`` items wait in memory."""
        window = 4 * self.concurrency
        pending: deque[tuple[T, Future | None]] = deque()
        pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="summary")
        finished = False
        try:
            for item in items:
                doc = ask(item)
                pending.append((item, pool.submit(self.summarize, doc) if doc is not None else None))
                while pending and (len(pending) > window or pending[0][1] is None or pending[0][1].done()):
                    head, future = pending.popleft()
                    yield head, future.result() if future is not None else None
            while pending:
                head, future = pending.popleft()
                yield head, future.result() if future is not None else None
            finished = True
        finally:
            # Stopped early (an error downstream, Ctrl-C): queued requests are dropped and the
            # ones in flight are not waited for; their threads end with their timeout.
            pool.shutdown(wait=finished, cancel_futures=True)


def open_summarizer(setting: str, *, environ: Mapping[str, str], concurrency: int = 8) -> Summarizer:
    """The summarizer a ``summarizer`` setting names; a ``ModelSettingError`` (exit 3) naming the
    provider or the missing variable, before any work starts."""
    spec = parse(setting, setting="summarizer", providers=PROVIDERS)
    return Summarizer(spec, endpoint(spec, setting="summarizer", environ=environ), concurrency=concurrency)
