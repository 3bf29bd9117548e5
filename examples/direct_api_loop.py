"""The embedding recipe (ADR 003): ContextPull's five tools in your own model loop, no MCP server.

    export OPENAI_API_KEY=...            # OPENAI_BASE_URL for any OpenAI-compatible server
    python examples/direct_api_loop.py --store .contextpull/store.sqlite "How do I move the cache?"

Three pieces do all the work:
  1. the system prompt is the pull discipline plus the store's index (what the MCP server sends);
  2. the tools are ``contextpull.tools.openai_tools()`` (``TOOLS`` as they are for Anthropic);
  3. every tool call goes through ``contextpull.tools.call``, which checks the arguments against
     the schema; an error goes back to the model as the tool's result, so it can correct itself.
The answer cites section ids; the ids the model read are printed after it. Standard library
only besides contextpull. Without a key it says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.request

from contextpull import ContextPullError, Ops, Store
from contextpull.serving.mcp_instructions import build_instructions
from contextpull.tools import call, openai_tools


def chat(base_url: str, key: str, model: str, messages: list[dict]) -> dict:
    """One chat completions request; the reply's message."""
    body = {"model": model, "messages": messages, "tools": openai_tools(), "tool_choice": "auto"}
    request = urllib.request.Request(
        base_url.rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode("utf-8"),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)["choices"][0]["message"]


def run_tool(ops: Ops, name: str, raw_arguments: str) -> tuple[str, list[str]]:
    """The tool's result as text for the model, and the ids of the sections it returned in full."""
    try:
        result = call(ops, name, json.loads(raw_arguments or "{}"))
    except ValueError:
        return json.dumps({"error": f"{name}: the arguments are not valid JSON"}), []
    except ContextPullError as exc:  # unknown tool, bad argument, unknown id: the model can fix it
        return json.dumps(exc.to_dict()), []
    if isinstance(result, str):
        return result, []
    read = []
    if name == "read":
        read = [result["id"]] + [c["id"] for c in result["context"]]
    elif name == "neighbours":
        read = [s["id"] for s in result["sections"]]
    return json.dumps(result, ensure_ascii=False), read


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Answer a question from a ContextPull store with a model and the five tools.")
    parser.add_argument("question")
    parser.add_argument("--store", default=os.environ.get("CONTEXTPULL_STORE", ".contextpull/store.sqlite"))
    parser.add_argument("--model", default=os.environ.get("CONTEXTPULL_LOOP_MODEL", "gpt-5.4-mini"))
    parser.add_argument("--max-turns", type=int, default=8)
    args = parser.parse_args(argv)
    key = os.environ.get("OPENAI_API_KEY", "").strip()
    if not key:
        print("direct_api_loop: set OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) to run this example",
              file=sys.stderr)
        return 2
    base_url = os.environ.get("OPENAI_BASE_URL", "").strip() or "https://api.openai.com/v1"

    with Store.open(args.store) as store:
        ops = Ops(store)
        messages = [
            {"role": "system", "content": build_instructions(store.conn, store.meta)},
            {"role": "user", "content": args.question},
        ]
        read: list[str] = []
        for _ in range(args.max_turns):
            message = chat(base_url, key, args.model, messages)
            messages.append({k: v for k, v in message.items() if v is not None})
            if not message.get("tool_calls"):
                print(message.get("content") or "")
                print("sections read: " + (", ".join(dict.fromkeys(read)) or "none"), file=sys.stderr)
                return 0
            for tool_call in message["tool_calls"]:
                name, raw = tool_call["function"]["name"], tool_call["function"].get("arguments")
                print(f"  {name}({raw})", file=sys.stderr)
                content, ids = run_tool(ops, name, raw)
                read.extend(ids)
                messages.append({"role": "tool", "tool_call_id": tool_call["id"], "content": content})
    print(f"direct_api_loop: no answer within {args.max_turns} turns", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
