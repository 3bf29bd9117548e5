"""Scripted model turns for ``loopback_api.LoopbackAPI``: tool calls, then an answer.

A script is a list of turns; each turn is either ``calls(("search", {...}), ...)`` or
``answer("text")``. ``openai(script)`` and ``anthropic(script)`` turn it into the replies each API
would send, with fixed token usage per turn (``USAGE_IN``/``USAGE_OUT``), so a test can assert
the accounting to the token.
"""

from __future__ import annotations

import json

from loopback_api import Reply

USAGE_IN, USAGE_OUT = 1000, 50


def calls(*pairs) -> list[tuple[str, object]]:
    """Tool calls of one turn: ``(name, arguments)``; arguments may be a raw string (bad JSON)."""
    return list(pairs)


def answer(text: str) -> str:
    return text


def openai(script: list) -> list[Reply]:
    replies = []
    for n, turn in enumerate(script):
        usage = {"prompt_tokens": USAGE_IN, "completion_tokens": USAGE_OUT}
        if isinstance(turn, str):
            message = {"role": "assistant", "content": turn}
        else:
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": f"call_{n}_{i}", "type": "function",
                     "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
                    for i, (name, args) in enumerate(turn)
                ],
            }
        replies.append(Reply(200, {"choices": [{"index": 0, "message": message}], "usage": usage}))
    return replies


def anthropic(script: list) -> list[Reply]:
    replies = []
    for n, turn in enumerate(script):
        usage = {"input_tokens": USAGE_IN, "output_tokens": USAGE_OUT}
        if isinstance(turn, str):
            content, stop = [{"type": "text", "text": turn}], "end_turn"
        else:
            content = [{"type": "text", "text": "Looking."}] + [
                {"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": args}
                for i, (name, args) in enumerate(turn)
            ]
            stop = "tool_use"
        replies.append(Reply(200, {"content": content, "stop_reason": stop, "usage": usage}))
    return replies


def tool_results(request, provider: str) -> list[dict]:
    """The tool results a request carries back to the model: ``{"content", "is_error"}`` each."""
    messages = request.body["messages"]
    if provider == "openai":
        out = []
        for m in reversed(messages):
            if m["role"] != "tool":
                break
            out.insert(0, {"content": m["content"], "is_error": "\"error\"" in m["content"]})
        return out
    last = messages[-1]
    return [{"content": b["content"], "is_error": b.get("is_error", False)} for b in last["content"]]
