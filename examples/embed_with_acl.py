"""Embedding ContextPull in a product where users may see only some documents.

    python examples/embed_with_acl.py --store .contextpull/store.sqlite bob "refund window"

The store knows nothing about users, and need not: your product knows which document paths a
user may see, and ``ScopedTools`` puts that rule in front of every tool call a model makes.

- ``search`` and ``grep`` run with ``in`` limited to the user's paths (the model's own ``in`` is
  narrowed, never widened);
- ``read`` and ``neighbours`` of a section the user may not see fail exactly like an unknown id,
  and the sections they return are filtered, so a model cannot learn what it may not see;
- ``index`` (and the index in the system prompt, ``scoped.instructions()``) lists the user's
  documents only, and counts only them.

Hand ``scoped.call`` to your model loop where ``contextpull.tools.call`` was (see
``direct_api_loop.py``). Permissions here are path prefixes per user; in a product they come from
your directory or an ACL table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

from contextpull import Ops, Store, ToolError
from contextpull.ops import unknown_section
from contextpull.tools import call, validate

# "12 documents · 40 sections" in a header, "3 documents, 9 sections" on a folder line
_COUNTS = re.compile(r"\d[\d,]* documents(,| ·) \d[\d,]* sections")

ACL = {
    "alice": ["policies/", "guides/"],
    "bob": ["guides/"],
    "auditor": [""],  # the empty prefix: everything
}


class ScopedTools:
    """The five tools as one user may use them."""

    def __init__(self, ops: Ops, allowed: list[str]):
        self.ops = ops
        self.allowed = allowed

    def permitted(self, path: str) -> bool:
        return any(path == p or ((p.endswith("/") or p == "") and path.startswith(p)) for p in self.allowed)

    def _visible(self, section_id: str) -> None:
        if not self.permitted(section_id.rsplit("#", 1)[0]):
            raise unknown_section(section_id)  # the very error of an absent id

    def _scope(self, requested: list[str] | None) -> list[str]:
        """The model's ``in`` narrowed to the user's paths; the user's paths when it gave none."""
        if not requested:
            return [p.rstrip("/") or "*" for p in self.allowed]
        return [e for e in requested if self.permitted(e.rstrip("/") + "/") or self.permitted(e)]

    def call(self, name: str, arguments: dict | None = None):
        args = dict(validate(name, arguments))  # the schema check first, as contextpull.tools.call does
        if name in ("search", "grep"):
            args["in"] = self._scope(args.get("in"))
            if not args["in"]:
                return {"hits": [], "mode": "lexical", "hint": "no document you may see matches the in filter"} \
                    if name == "search" else {"matches": [], "truncated": False}
            result = call(self.ops, name, args)
            key = "hits" if name == "search" else "matches"
            result[key] = [item for item in result[key] if self.permitted(item["doc"])]
            return result
        if name == "read":
            self._visible(args["id"])
            result = call(self.ops, name, args)
            result["context"] = [c for c in result["context"] if self.permitted(c["doc"])]
            return result
        if name == "neighbours":
            self._visible(args["id"])
            result = call(self.ops, name, args)
            result["sections"] = [s for s in result["sections"] if self.permitted(s["doc"])]
            if result["header"] and not self.permitted(result["header"]["doc"]):
                result["header"] = None
            return result
        return self._index(call(self.ops, name, args), args.get("prefix") or "")

    def instructions(self) -> str:
        return self._index(self.ops.index())

    def _index(self, text: str, prefix: str = "") -> str:
        """The index without the documents the user may not see; the header's counts (and a
        folder line's) are recounted from the user's documents, so they do not tell how much
        is hidden."""
        sizes = dict(self.ops.store.conn.execute("SELECT path, n_sections FROM documents"))
        kept = []
        for number, line in enumerate(text.splitlines()):
            first = line.split(" ", 1)[0]
            if first in sizes and not self.permitted(first):
                continue
            if first.endswith("/") and not any(self.permitted(p) for p in sizes if p.startswith(first)):
                continue
            if number == 0 or first.endswith("/"):
                under = prefix if number == 0 else first
                mine = [n for p, n in sizes.items() if p.startswith(under) and self.permitted(p)]
                line = _COUNTS.sub(lambda m: f"{len(mine):,} documents{m[1]} {sum(mine):,} sections", line, count=1)
            kept.append(line)
        return "\n".join(kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Show what one user's model may see of a store.")
    parser.add_argument("user", choices=sorted(ACL))
    parser.add_argument("query")
    parser.add_argument("--store", default=os.environ.get("CONTEXTPULL_STORE", ".contextpull/store.sqlite"))
    args = parser.parse_args(argv)
    with Store.open(args.store) as store:
        scoped = ScopedTools(Ops(store), ACL[args.user])
        print(f"--- index as {args.user} sees it")
        print(scoped.call("index", {}))
        print(f"--- search {args.query!r}")
        for hit in scoped.call("search", {"query": args.query, "limit": 5})["hits"]:
            print(f"{hit['id']}  {hit['heading_path']}")
        print("--- read of every document's first section")
        for path in sorted(scoped.ops.doc_paths.values()):
            try:
                scoped.call("read", {"id": f"{path}#0"})
                print(f"{path}#0  readable")
            except ToolError as exc:
                print(f"{path}#0  {json.dumps(exc.to_dict())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
