"""The providers' HTTP client and settings (contextpull/models/http.py, spec.py) on loopback."""

from __future__ import annotations

import socket
import threading

import pytest

from contextpull.errors import ConfigError
from contextpull.models import spec
from contextpull.models.http import Counters, ProviderError, Retry, post_json
from loopback_api import LoopbackAPI, Reply

KEY = "sk-sentinel-7c1d9e"
FAST = Retry(attempts=3, base=0.01, cap=0.05)


def call(api, counters=None, retry=FAST, timeout=5.0, sleeps=None):
    return post_json(
        api.url + "/v1/x",
        {"q": 1},
        headers={"Authorization": f"Bearer {KEY}"},
        secrets=(KEY,),
        timeout=timeout,
        retry=retry,
        counters=counters,
        sleep=(sleeps.append if sleeps is not None else (lambda s: None)),
    )


def test_success_sends_json_and_counts_one_request():
    counters = Counters()
    with LoopbackAPI([Reply(200, {"ok": True})]) as api:
        assert call(api, counters) == {"ok": True}
    assert api.requests[0].body == {"q": 1}
    assert api.requests[0].headers["Authorization"] == f"Bearer {KEY}"
    assert counters.to_dict() == {"requests": 1, "retries": 0, "tokens_in": 0, "tokens_out": 0}


def test_429_then_success_honours_retry_after():
    counters, sleeps = Counters(), []
    with LoopbackAPI([Reply(429, {"e": 1}, {"Retry-After": "0.04"}), Reply(200, {"ok": 1})]) as api:
        assert call(api, counters, sleeps=sleeps) == {"ok": 1}
    assert sleeps == [0.04]
    assert counters.to_dict()["requests"] == 2 and counters.to_dict()["retries"] == 1


def test_5xx_backs_off_exponentially_then_fails_with_the_attempt_count():
    sleeps = []
    with LoopbackAPI([Reply(503, "down")] * 3) as api:
        with pytest.raises(ProviderError) as info:
            call(api, sleeps=sleeps)
    assert sleeps == [0.01, 0.02]
    assert "HTTP 503" in info.value.message and "after 3 attempts" in info.value.message


def test_a_client_error_is_not_retried_and_the_key_is_scrubbed():
    with LoopbackAPI([Reply(401, {"error": f"bad key {KEY}"})]) as api:
        with pytest.raises(ProviderError) as info:
            call(api)
    assert len(api.requests) == 1
    assert KEY not in str(info.value) and "***" in str(info.value)


def test_a_timeout_is_retried_and_reported():
    with LoopbackAPI([Reply(200, {}, delay=0.5)] * 3) as api:
        with pytest.raises(ProviderError) as info:
            call(api, timeout=0.1)
    assert "after 3 attempts" in info.value.message


def test_malformed_json_is_one_line():
    with LoopbackAPI([Reply(200, "<html>oops</html>")]) as api:
        with pytest.raises(ProviderError, match="not JSON"):
            call(api)
    with LoopbackAPI([Reply(200, [1, 2])]) as api:
        with pytest.raises(ProviderError, match="not an object"):
            call(api)


class RawAPI:
    """A loopback socket that answers every connection with fixed bytes, however malformed."""

    def __init__(self, answer: bytes):
        self.answer, self.connections = answer, 0
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % self._sock.getsockname()[1]

    def __enter__(self) -> "RawAPI":
        threading.Thread(target=self._serve, daemon=True).start()
        return self

    def _serve(self):
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:  # closed by __exit__
                return
            with conn:
                self.connections += 1
                conn.recv(65536)
                conn.sendall(self.answer)

    def __exit__(self, *exc):
        self._sock.close()


@pytest.mark.parametrize(
    "answer",
    [b"garbage\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"ok\": 1}"],
    ids=["bad-status-line", "short-body"],
)
def test_a_garbled_or_cut_off_answer_is_retried_then_a_provider_error(answer):
    with RawAPI(answer) as api:
        with pytest.raises(ProviderError) as info:
            call(api)
    assert "after 3 attempts" in info.value.message and api.connections == 3


def test_settings_parse_and_name_the_missing_variable():
    model = spec.parse("openai:text-embedding-3-small", setting="embed_model", providers=("openai", "local"))
    assert (model.provider, model.model, model.text) == ("openai", "text-embedding-3-small", "openai:text-embedding-3-small")
    with pytest.raises(ConfigError, match="unknown provider 'mistral'"):
        spec.parse("mistral:x", setting="summarizer", providers=("openai", "anthropic"))
    with pytest.raises(ConfigError, match="must be provider:model"):
        spec.parse("gpt", setting="summarizer", providers=("openai", "anthropic"))
    with pytest.raises(ConfigError, match="needs the environment variable ANTHROPIC_API_KEY"):
        spec.endpoint(spec.ModelSpec("anthropic", "m"), setting="summarizer", environ={})
    end = spec.endpoint(model, setting="embed_model", environ={"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1/"})
    assert end.base_url == "http://127.0.0.1:9/v1" and KEY not in repr(end)
