"""The two chat-with-tools wire formats the API loop speaks: OpenAI-compatible chat completions
and Anthropic messages (ADR 003, the embedding recipe).

A ``Conversation`` holds one question's messages. ``send()`` posts them through
``contextpull.models.http.post_json`` (timeouts, bounded retries honouring ``Retry-After``,
key-free errors) and returns a ``Turn``: the model's text, its tool calls and the tokens the
provider reported. ``answer(results)`` appends the tool results in the provider's shape, errors
marked as such, so the model can correct itself. A reply the loop cannot read (no choices, a
tool call without a name) is a ``ProviderError``: an infrastructure failure, not a model answer.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from ..models.http import Counters, ProviderError, Retry, post_json
from ..models.spec import Endpoint
from ..tools import TOOLS, openai_tools

ANTHROPIC_VERSION = "2023-06-01"
MAX_TOKENS = 2048


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict | None  # None when the model's arguments could not be decoded
    problem: str | None = None


@dataclass
class Turn:
    text: str
    calls: list[ToolCall] = field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0


@dataclass
class ToolAnswer:
    call: ToolCall
    content: str
    is_error: bool


class Conversation(ABC):
    """Base: the endpoint, the model and how to post; subclasses know the message shapes."""

    def __init__(self, endpoint: Endpoint, model: str, system: str, question: str, *,
                 timeout: float, retry: Retry, counters: Counters):
        self.endpoint = endpoint
        self.model = model
        self.system = system
        self.timeout = timeout
        self.retry = retry
        self.counters = counters
        self.messages: list[dict] = []
        self.start(question)

    @abstractmethod
    def start(self, question: str) -> None:
        """The first messages: the question as the API's user turn."""

    @abstractmethod
    def send(self) -> Turn:
        """Post the conversation so far; the model's turn (tool calls, or the answer)."""

    @abstractmethod
    def answer(self, results: list[ToolAnswer]) -> None:
        """Append the tool results in the API's message shape."""

    def _post(self, path: str, body: dict, headers: dict[str, str]) -> dict:
        return post_json(
            self.endpoint.base_url + path,
            body,
            headers=headers,
            secrets=self.endpoint.secrets(),
            timeout=self.timeout,
            retry=self.retry,
            counters=self.counters,
        )

    def _malformed(self, what: str) -> ProviderError:
        return ProviderError(f"{self.endpoint.base_url}: the {self.endpoint.provider} reply {what}")


class OpenAIConversation(Conversation):
    """``POST {OPENAI_BASE_URL}/chat/completions`` with the tools in function form."""

    def start(self, question: str) -> None:
        self.messages = [{"role": "system", "content": self.system}, {"role": "user", "content": question}]

    def send(self) -> Turn:
        body = {"model": self.model, "messages": self.messages, "tools": openai_tools(), "tool_choice": "auto"}
        reply = self._post("/chat/completions", body, {"Authorization": f"Bearer {self.endpoint.key}"})
        choices = reply.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self._malformed("has no choices")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise self._malformed("has no message")
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        turn = Turn(str(message.get("content") or ""), tokens_in=as_count(usage.get("prompt_tokens")),
                    tokens_out=as_count(usage.get("completion_tokens")))
        for raw in message.get("tool_calls") or []:
            function = raw.get("function") if isinstance(raw, dict) else None
            if not isinstance(function, dict) or not function.get("name") or not raw.get("id"):
                raise self._malformed("has a tool call without an id or a name")
            turn.calls.append(_decode_call(str(raw["id"]), str(function["name"]), function.get("arguments")))
        self.messages.append({k: v for k, v in message.items() if v is not None})
        return turn

    def answer(self, results: list[ToolAnswer]) -> None:
        for result in results:
            self.messages.append({"role": "tool", "tool_call_id": result.call.id, "content": result.content})


class AnthropicConversation(Conversation):
    """``POST {ANTHROPIC_BASE_URL}/v1/messages`` with ``contextpull.tools.TOOLS`` as they ship."""

    def start(self, question: str) -> None:
        self.messages = [{"role": "user", "content": question}]

    def send(self) -> Turn:
        body = {"model": self.model, "max_tokens": MAX_TOKENS, "system": self.system,
                "messages": self.messages, "tools": TOOLS}
        headers = {"x-api-key": self.endpoint.key, "anthropic-version": ANTHROPIC_VERSION}
        reply = self._post("/v1/messages", body, headers)
        content = reply.get("content")
        if not isinstance(content, list):
            raise self._malformed("has no content")
        usage = reply.get("usage") if isinstance(reply.get("usage"), dict) else {}
        text = "".join(str(b.get("text") or "") for b in content if isinstance(b, dict) and b.get("type") == "text")
        turn = Turn(text, tokens_in=anthropic_tokens_in(usage), tokens_out=as_count(usage.get("output_tokens")))
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            if not block.get("id") or not block.get("name"):
                raise self._malformed("has a tool_use block without an id or a name")
            arguments = block.get("input")
            if isinstance(arguments, dict):
                turn.calls.append(ToolCall(str(block["id"]), str(block["name"]), arguments))
            else:
                turn.calls.append(ToolCall(str(block["id"]), str(block["name"]), None, "the tool input is not a JSON object"))
        self.messages.append({"role": "assistant", "content": content})
        return turn

    def answer(self, results: list[ToolAnswer]) -> None:
        blocks = [
            {"type": "tool_result", "tool_use_id": r.call.id, "content": r.content, **({"is_error": True} if r.is_error else {})}
            for r in results
        ]
        self.messages.append({"role": "user", "content": blocks})


CONVERSATIONS = {"openai": OpenAIConversation, "anthropic": AnthropicConversation}


def _decode_call(call_id: str, name: str, arguments) -> ToolCall:
    if arguments in (None, ""):
        return ToolCall(call_id, name, {})
    if isinstance(arguments, dict):  # some compatible servers send an object, not a string
        return ToolCall(call_id, name, arguments)
    try:
        decoded = json.loads(arguments)
    except (TypeError, ValueError):
        return ToolCall(call_id, name, None, f"{name}: the arguments are not valid JSON")
    if not isinstance(decoded, dict):
        return ToolCall(call_id, name, None, f"{name}: the arguments must be a JSON object")
    return ToolCall(call_id, name, decoded)


def as_count(value) -> int:
    """A count a provider reports (tokens, turns), or 0: a missing or malformed field costs a
    figure, never the run."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def anthropic_tokens_in(usage: dict) -> int:
    """Anthropic splits the prompt into uncached, cache-read and cache-written tokens; all three
    were sent, so all count (the Messages API here and ``claude -p``'s result event alike)."""
    return sum(as_count(usage.get(k)) for k in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"))
