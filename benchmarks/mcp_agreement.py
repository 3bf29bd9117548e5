"""Our MCP server and the published 0.2.1 server on the same store (issue 19, "What it must show").

  python benchmarks/mcp_agreement.py STORE [--peer /tmp/peer/bin/contextpull] [--calls N]

Starts ``contextpull serve STORE`` (ours) and ``PEER serve STORE`` (the published server), each on
its own copy of STORE, over stdio through the MCP SDK client, and compares:

- the tool names, in order, and each tool's input schema without its ``description`` keys (the
  descriptions are our own words; everything else must be equal);
- the results of the same calls: for each, whether it is an error, and for a success the result
  as JSON (plain text for ``index``), a search result's ``hint`` included word for word (issue
  28: it is part of what the tool returns). Error messages are not compared: like the
  descriptions they are our own words.

The calls are the five tools with arguments drawn from the store: the index with and without a
prefix, searches for words of section headings (with and without ``in``/``limit``), reads with
context, greps for identifiers found in the text, neighbours with various spans, a few calls
that must fail, and one search for every case in which a hint is returned (``HINT_CASES``):
empty results with and without ``in``, punctuation-only and stop-word-only queries, and hybrid
search on a store without embeddings, with and without hits. Prints the counts and every difference; exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client


def strip_descriptions(value):
    if isinstance(value, dict):
        return {k: strip_descriptions(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [strip_descriptions(v) for v in value]
    return value


def make_calls(store: Path, n: int, seed: int = 19) -> list[tuple[str, dict]]:
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    ids = [r[0] for r in conn.execute("SELECT id FROM sections ORDER BY id")]
    paths = [r[0] for r in conn.execute("SELECT path FROM documents ORDER BY path")]
    headings = [r[0] for r in conn.execute("SELECT DISTINCT heading_path FROM sections ORDER BY 1")]
    texts = [r[0] for r in conn.execute("SELECT text FROM sections ORDER BY id")]
    conn.close()
    rng = random.Random(seed)
    words = sorted({w for h in headings for w in re.findall(r"[A-Za-z][\w.-]{3,}", h)})
    idents = sorted({m for t in texts for m in re.findall(r"[A-Za-z]+[-_.][\w.-]+|--[a-z][\w-]+", t)})
    folders = sorted({p.split("/", 1)[0] for p in paths if "/" in p})
    calls: list[tuple[str, dict]] = [("index", {})]
    calls += [("index", {"prefix": f + "/"}) for f in folders]
    for _ in range(n):
        query = " ".join(rng.sample(words, rng.randint(1, 3)))
        args: dict = {"query": query}
        if rng.random() < 0.3 and folders:
            args["in"] = [rng.choice(folders)]
        if rng.random() < 0.3:
            args["limit"] = rng.randint(1, 20)
        calls.append(("search", args))
        calls.append(("read", {"id": rng.choice(ids), "context": rng.randint(0, 2)}))
        calls.append(("grep", {"pattern": rng.choice(idents), "limit": rng.randint(1, 30)}))
        calls.append(("neighbours", {"id": rng.choice(ids), "before": rng.randint(0, 2), "after": rng.randint(0, 2)}))
    calls += [("read", {"id": "no/such.md#0"}), ("neighbours", {"id": "no/such.md#0"}),
              ("grep", {"pattern": "x" * 201})]
    calls += hint_cases(words[0] if words else "install", folders[0] if folders else None)
    return calls


def hint_cases(word: str, folder: str | None) -> list[tuple[str, dict]]:
    """One search for each way a result carries a hint (store-format "Search" steps 1 and 8,
    supplement.md "search")."""
    absent = "zqxjvkw"  # a word no corpus holds
    cases = [
        {"query": "---"},  # punctuation only
        {"query": "!!! ... ???"},
        {"query": "the of and"},  # stop words only: unicode61 keeps them, so hits or none alike
        {"query": absent},  # no hits, no filter
        {"query": f"{absent} {absent}x"},  # no hits after all three passes
        {"query": word, "in": ["no-such-folder/"]},  # a filter that matches no document
        {"query": absent, "mode": "hybrid"},  # hybrid without embeddings and without hits
        {"query": word, "mode": "hybrid"},  # hybrid without embeddings, with hits
        {"query": "---", "mode": "hybrid"},
    ]
    if folder is not None:
        cases.append({"query": absent, "in": [folder]})  # documents in the filter, no hit
        cases.append({"query": absent, "in": [folder], "mode": "hybrid"})
    return [("search", case) for case in cases]


async def session(command: list[str], calls: list[tuple[str, dict]]):
    params = StdioServerParameters(command=command[0], args=command[1:])
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120) as client:
            tools = [(t.name, strip_descriptions(t.input_schema)) for t in (await client.list_tools()).tools]
            results = []
            for name, args in calls:
                got = await client.call_tool(name, args)
                text = got.content[0].text if got.content else ""
                if got.is_error:
                    results.append(("error", None))
                else:
                    try:
                        value = json.loads(text)
                    except ValueError:
                        value = text
                    results.append(("ok", value))
            return tools, results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("store", type=Path)
    ap.add_argument("--peer", default="/tmp/peer/bin/contextpull")
    ap.add_argument("--calls", type=int, default=100, help="rounds of search, read, grep, neighbours")
    args = ap.parse_args(argv)
    calls = make_calls(args.store, args.calls)
    ours_exe = str(Path(sys.executable).parent / "contextpull")
    with tempfile.TemporaryDirectory(prefix="mcp-agreement-") as tmp:
        ours_store, peer_store = Path(tmp) / "ours.sqlite", Path(tmp) / "peer.sqlite"
        shutil.copyfile(args.store, ours_store)
        shutil.copyfile(args.store, peer_store)
        ours = anyio.run(session, [ours_exe, "serve", str(ours_store)], calls)
        peer = anyio.run(session, [args.peer, "serve", str(peer_store)], calls)
    differences = 0
    if ours[0] != peer[0]:
        differences += 1
        print(f"tools differ:\n  ours {ours[0]}\n  peer {peer[0]}")
    else:
        print(f"tools: {len(ours[0])} names and input schemas identical")
    for (name, call_args), mine, theirs in zip(calls, ours[1], peer[1]):
        if mine != theirs:
            differences += 1
            print(f"differs: {name} {json.dumps(call_args)}\n  ours {str(mine)[:300]}\n  peer {str(theirs)[:300]}")
    errors = sum(1 for r in ours[1] if r[0] == "error")
    hinted = [(m, t) for (name, _), m, t in zip(calls, ours[1], peer[1])
              if name == "search" and m[0] == "ok" and (m[1].get("hint") or (t[1] or {}).get("hint"))]
    same_hints = sum(1 for m, t in hinted if m[1].get("hint") == (t[1] or {}).get("hint"))
    print(f"hints: {same_hints} of {len(hinted)} hinted search results carry the same hint")
    print(f"calls: {len(calls) - differences} of {len(calls)} results identical ({errors} errors on both sides)")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
