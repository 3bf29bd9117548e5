"""What an agent-loop evaluation costs, against a scripted model server on loopback.

    python benchmarks/eval_scripted_loop.py --store /tmp/eval-uv/store.sqlite \
        --questions ../shared/bench/uv-questions.jsonl [--provider openai|anthropic]

No model is reachable here, so the model is a script: for each question it searches with the
question's words, reads the first hit and answers citing it (three requests). The server reports
usage as the spec's estimate, characters / 4, of what it received and what it sent, so the figures
are the requests and tokens one such run sends through ``contextpull eval --retriever api-loop``:
the system prompt (pull discipline and index) and the five tool schemas are in every request.
The recall printed is the script's (search's top hit), not a model's. The server binds 127.0.0.1,
answers only this run and stops with it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def tokens(value) -> int:
    return math.ceil(len(json.dumps(value, ensure_ascii=False)) / 4)


def openai_turn(body: dict) -> dict:
    messages = body["messages"]
    results = [m for m in messages if m["role"] == "tool"]
    if not results:
        question = messages[1]["content"].split("\n\n")[0]
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": json.dumps({"query": question})}}]}
    elif len(results) == 1:
        hits = json.loads(results[0]["content"]).get("hits") or []
        if hits:
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c2", "type": "function", "function": {"name": "read", "arguments": json.dumps({"id": hits[0]["id"]})}}]}
        else:
            message = {"role": "assistant", "content": "Not found in the documents."}
    else:
        section = json.loads(results[-1]["content"])
        message = {"role": "assistant", "content": f"{section.get('text', '')[:200]} [{section.get('id')}]"}
    return {"choices": [{"index": 0, "message": message}],
            "usage": {"prompt_tokens": tokens(body), "completion_tokens": tokens(message)}}


def anthropic_turn(body: dict) -> dict:
    messages = body["messages"]
    results = [b for m in messages if m["role"] == "user" and isinstance(m["content"], list) for b in m["content"]]
    if not results:
        question = messages[0]["content"].split("\n\n")[0]
        content = [{"type": "tool_use", "id": "t1", "name": "search", "input": {"query": question}}]
    elif len(results) == 1:
        hits = json.loads(results[0]["content"]).get("hits") or []
        content = [{"type": "tool_use", "id": "t2", "name": "read", "input": {"id": hits[0]["id"]}}] if hits else \
            [{"type": "text", "text": "Not found in the documents."}]
    else:
        section = json.loads(results[-1]["content"])
        content = [{"type": "text", "text": f"{section.get('text', '')[:200]} [{section.get('id')}]"}]
    stop = "tool_use" if content[0]["type"] == "tool_use" else "end_turn"
    return {"content": content, "stop_reason": stop,
            "usage": {"input_tokens": tokens({k: body[k] for k in ("system", "messages", "tools")}), "output_tokens": tokens(content)}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        reply = openai_turn(body) if self.path.endswith("/chat/completions") else anthropic_turn(body)
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--questions", required=True)
    parser.add_argument("--provider", choices=["openai", "anthropic"], default="openai")
    parser.add_argument("--contextpull", default=os.path.join(os.path.dirname(sys.executable), "contextpull"))
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    env = dict(os.environ)
    if args.provider == "openai":
        env.update(OPENAI_API_KEY="sk-scripted", OPENAI_BASE_URL=url + "/v1")
    else:
        env.update(ANTHROPIC_API_KEY="sk-scripted", ANTHROPIC_BASE_URL=url)
    cmd = [args.contextpull, "eval", args.questions, "--store", args.store, "--retriever",
           f"api-loop:{args.provider}:scripted", "--no-cache", "--json"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    finally:
        server.shutdown()
    if proc.returncode:
        sys.stderr.write(proc.stderr)
        return proc.returncode
    report = json.loads(proc.stdout)
    pq, stats = report["per_question"], report["stats"]
    print(f"{args.provider} scripted loop over {report['n']} questions: {stats['requests']} requests, "
          f"{stats['tokens_in']:,} tokens in, {stats['tokens_out']:,} out, {stats['tool_calls']} tool calls, "
          f"{report['errors']} errors, {report['wall_s']} s")
    print(f"per question: {pq['requests']} requests, {pq['tokens_in']:,.0f} tokens in, {pq['tokens_out']:,.0f} out, "
          f"{pq['tool_calls']} tool calls {pq['by_tool']}, {report['ms_per_question']} ms")
    print(f"recall of the script (search's top hit, read): @1 {report['recall@1']}, @5 {report['recall@5']}, mrr {report['mrr']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
