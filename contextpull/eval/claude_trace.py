"""Reading a ``claude -p --output-format stream-json`` trace into a ``LoopRecord``.

The trace is one JSON event per line. ``assistant`` events carry ``tool_use`` blocks (our tools
are named ``mcp__contextpull__<tool>``); ``user`` events carry the ``tool_result`` blocks that
answer them, whose text is the JSON our MCP server returned; the final ``result`` event carries
the answer, the turn count, the usage and the cost in dollars. The ids read are taken from the
results, not the requests, so a ``read`` of an unknown id reads nothing, as in the API loop.
Lines that are not JSON (a warning printed by a plugin) are skipped; a trace without a
``result`` event is an error.
"""

from __future__ import annotations

import json

from .chat import anthropic_tokens_in, as_count
from .record import LoopRecord

PREFIX = "mcp__contextpull__"


def parse_trace(text: str) -> LoopRecord:
    rec = LoopRecord()
    pending: dict[str, str] = {}  # tool_use id -> our tool name
    got_result = False
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        if kind == "assistant":
            for block in _blocks(event):
                if block.get("type") == "tool_use" and str(block.get("name", "")).startswith(PREFIX):
                    name = str(block["name"])[len(PREFIX):]
                    rec.count_call(name)
                    pending[str(block.get("id"))] = name
        elif kind == "user":
            for block in _blocks(event):
                if block.get("type") == "tool_result" and str(block.get("tool_use_id")) in pending:
                    name = pending.pop(str(block.get("tool_use_id")))
                    if block.get("is_error"):
                        rec.tool_errors += 1
                        continue
                    rec.note_result(name, _result_json(block.get("content")))
        elif kind == "result":
            got_result = True
            _take_result(rec, event)
    if not got_result:
        rec.error = "the trace has no result event (claude stopped early)"
    return rec


def _blocks(event: dict) -> list[dict]:
    message = event.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _result_json(content) -> object:
    """The tool's JSON from a ``tool_result`` content: a string or a list of text blocks."""
    if isinstance(content, list):
        content = "".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    if not isinstance(content, str):
        return None
    try:
        return json.loads(content)
    except ValueError:
        return None


def _take_result(rec: LoopRecord, event: dict) -> None:
    rec.answer = str(event.get("result") or "")
    rec.turns = as_count(event.get("num_turns"))
    cost = event.get("total_cost_usd")
    rec.usd = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else 0.0
    usage = event.get("usage") if isinstance(event.get("usage"), dict) else {}
    rec.tokens_in = anthropic_tokens_in(usage)
    rec.tokens_out = as_count(usage.get("output_tokens"))
    if event.get("is_error") or event.get("subtype", "success") != "success":
        rec.error = f"claude ended with {event.get('subtype') or 'an error'}: {rec.answer[:200]}".strip()
