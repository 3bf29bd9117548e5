"""One JSON-over-HTTP client for every hosted provider (standard library only).

Why one: summaries, embeddings and the evaluation loop all talk to the same two APIs, and each
needs the same care. A provider answers 429 or 5xx under load, drops connections and sometimes
returns a page that is not JSON; a build must ride out the first two within a bound, and say in
one line what went wrong with the rest. So:

- every request has a timeout;
- 429, 5xx, timeouts, connection errors and garbled or truncated answers are retried with exponential backoff and jitter-free
  waits (builds are reproducible, and so is their retry schedule), honouring ``Retry-After``
  (seconds) up to a cap, at most ``Retry.attempts`` times;
- any other status, or a body that is not a JSON object, is a ``ProviderError`` at once;
- no message ever carries a key: ``Endpoint.secrets()`` are scrubbed from every error text, and
  request headers are never rendered.

``Counters`` is shared by the threads of one run and feeds the build report.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import ContextPullError

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})


class ProviderError(ContextPullError):
    """A model provider did not give a usable answer; the message is one line and key-free."""

    def __init__(self, message: str, suggestion: str | None = None, *, retryable: bool = False):
        super().__init__(message, suggestion)
        self.retryable = retryable


@dataclass(frozen=True)
class Retry:
    """How hard to try: ``attempts`` in all, waits of ``base * 2**n`` seconds capped at ``cap``."""

    attempts: int = 4
    base: float = 0.5
    cap: float = 30.0

    def wait(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.cap)
        return min(self.base * (2**attempt), self.cap)


class Counters:
    """Requests, retries and tokens of one run, safe to bump from worker threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests = 0
        self.retries = 0
        self.tokens_in = 0
        self.tokens_out = 0

    def add(self, *, requests: int = 0, retries: int = 0, tokens_in: int = 0, tokens_out: int = 0) -> None:
        with self._lock:
            self.requests += requests
            self.retries += retries
            self.tokens_in += tokens_in
            self.tokens_out += tokens_out

    def to_dict(self) -> dict[str, int]:
        with self._lock:
            return {
                "requests": self.requests,
                "retries": self.retries,
                "tokens_in": self.tokens_in,
                "tokens_out": self.tokens_out,
            }


def scrub(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return " ".join(text.split())


def _retry_after(headers) -> float | None:
    value = headers.get("Retry-After") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:  # an HTTP date: treat as "no advice" and back off as usual
        return None


def post_json(
    url: str,
    body: dict,
    *,
    headers: dict[str, str],
    secrets: Iterable[str] = (),
    timeout: float = 60.0,
    retry: Retry = Retry(),
    counters: Counters | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> dict:
    """POST ``body`` as JSON and return the JSON object answered, retrying what is transient."""
    secrets = tuple(secrets)
    data = json.dumps(body).encode("utf-8")
    request_headers = {"Content-Type": "application/json", "Accept": "application/json", **headers}
    last: ProviderError | None = None
    last_retry_after: float | None = None
    for attempt in range(retry.attempts):
        if attempt:
            if counters:
                counters.add(retries=1)
            sleep(retry.wait(attempt - 1, last_retry_after))
        last_retry_after = None
        if counters:
            counters.add(requests=1)
        request = urllib.request.Request(url, data=data, headers=request_headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read(500).decode("utf-8", "replace") if exc.fp else ""
            last = ProviderError(
                scrub(f"{url} answered HTTP {exc.code}: {detail}", secrets)[:300],
                retryable=exc.code in RETRY_STATUS,
            )
            last_retry_after = _retry_after(exc.headers)
            if not last.retryable:
                raise last from None
            continue
        except (http.client.HTTPException, OSError) as exc:
            # OSError covers URLError, timeouts and dropped connections; HTTPException is a
            # garbled status line or a body cut short, as transient as a dropped connection.
            reason = getattr(exc, "reason", exc)
            last = ProviderError(scrub(f"{url}: {reason or type(exc).__name__}", secrets)[:300], retryable=True)
            continue
        try:
            answer = json.loads(raw)
        except ValueError:
            raise ProviderError(scrub(f"{url} answered with a body that is not JSON", secrets)) from None
        if not isinstance(answer, dict):
            raise ProviderError(f"{url} answered with JSON that is not an object")
        return answer
    assert last is not None
    raise ProviderError(f"{last.message} (after {retry.attempts} attempts)", retryable=True)
