"""The tool set (store-format "Things readers must not do": the tool set is tools.json) and its dispatch.

``TOOLS`` holds the five tools in Anthropic form (name, description, JSON Schema ``input_schema``
with the limits of supplement.md); ``openai_tools()`` rewraps them for OpenAI-style APIs;
``tools.json`` at the repository root is ``tools_json()``, the same list for other languages in
the published file's shape, ``{"version": "1.0", "tools": [...]}``, which the TypeScript and Go
servers load (a test keeps it equal). Names, parameters, types, bounds, defaults and required
lists are those of the published 0.2.1 tools, so a host or a golden file made against either
sees the same schemas; only the descriptions are ours. Empty strings (a ``pattern`` or an ``in``
entry) are refused by the operations, as in 0.2.1, not by a ``minLength``. ``call(ops, name, arguments)`` is the one dispatch table the CLI ``--json``, the MCP server
and the conformance runner share: it validates the arguments against the schema first, so a
missing or mistyped argument is a ``ToolError`` naming the argument.

Arguments are checked by ``tool_schema.py``, which implements the JSON Schema keywords these
schemas use in the standard library, so the reader core needs no third-party package (ADR 001).
"""

from __future__ import annotations

import json

from .errors import ToolError
from .tool_schema import Problem, problems

TOOLS_VERSION = "1.0"
_DISCIPLINE = "Search for pointers, read for text, cite ids like [path.md#3]."
_IN = {
    "type": "array",
    "items": {"type": "string"},
    "description": "Document paths, directory prefixes or globs to restrict to, e.g. ['policy-2024.md', 'guides']",
}


def _schema(properties: dict, required: list[str]) -> dict:
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


TOOLS: list[dict] = [
    {
        "name": "index",
        "description": (
            "Table of contents of the document corpus: one line per document with its path, summary and "
            "section count (usually already in your instructions). Call it with a prefix to expand a "
            "directory. " + _DISCIPLINE
        ),
        "input_schema": _schema(
            {"prefix": {"type": "string", "description": "Path prefix to expand, e.g. 'guides/'"}}, []
        ),
    },
    {
        "name": "search",
        "description": (
            "Find sections by words, quoted phrases or identifiers. Returns section ids, heading paths and "
            "short snippets, never full text: read the ids you need before answering. Use in= with paths "
            "from the index to target documents (to compare versions, search each). " + _DISCIPLINE
        ),
        "input_schema": _schema(
            {
                "query": {"type": "string", "description": "Words, quoted phrases or identifiers"},
                "in": _IN,
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                "mode": {"type": "string", "enum": ["lexical", "hybrid"], "default": "lexical"},
            },
            ["query"],
        ),
    },
    {
        "name": "read",
        "description": (
            "Return one section verbatim by id, optionally with neighbouring sections of the same document "
            "(marked context: true). Quote from what you read and cite its id. " + _DISCIPLINE
        ),
        "input_schema": _schema(
            {
                "id": {"type": "string", "description": "A section id from search, grep or the index, e.g. 'guide.md#3'"},
                "context": {"type": "integer", "minimum": 0, "maximum": 5, "default": 0},
            },
            ["id"],
        ),
    },
    {
        "name": "grep",
        "description": (
            "Exact, case-insensitive substring match over section text (or a regex with regex=true); "
            "returns the first matching line of each section with its id. Best for error codes, flags, "
            "environment variables and other identifiers. " + _DISCIPLINE
        ),
        "input_schema": _schema(
            {
                "pattern": {"type": "string", "maxLength": 200},
                "in": _IN,
                "regex": {"type": "boolean", "default": False},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
            },
            ["pattern"],
        ),
    },
    {
        "name": "neighbours",
        "description": (
            "Sections before and after a section in the same document, plus the header part of a table "
            "split across sections. Use it for the next clause or a table's column names. " + _DISCIPLINE
        ),
        "input_schema": _schema(
            {
                "id": {"type": "string", "description": "A section id"},
                "before": {"type": "integer", "minimum": 0, "maximum": 5, "default": 1},
                "after": {"type": "integer", "minimum": 0, "maximum": 5, "default": 1},
            },
            ["id"],
        ),
    },
]

_BY_NAME = {tool["name"]: tool for tool in TOOLS}


def tools_document() -> dict:
    """What tools.json holds: the tool list under a format version."""
    return {"version": TOOLS_VERSION, "tools": TOOLS}


def tools_json() -> str:
    """The text of tools.json, as ``contextpull tools-json`` prints it."""
    return json.dumps(tools_document(), indent=2, ensure_ascii=False) + "\n"


def openai_tools() -> list[dict]:
    """The same tools in the OpenAI function-calling shape."""
    return [
        {
            "type": "function",
            "function": {"name": t["name"], "description": t["description"], "parameters": t["input_schema"]},
        }
        for t in TOOLS
    ]


class UnknownTool(ToolError, KeyError):
    """A tool name not in ``TOOLS``: a ``ToolError`` like every other refusal, and a ``KeyError``
    because the name is missing from the dispatch table, which is what 0.2.1's ``call`` raised
    (docs/library.md), so ``except KeyError`` around ``call`` keeps working."""


def _unknown(name) -> ToolError:
    return UnknownTool(f"unknown tool {name!r}", "tools are: " + ", ".join(_BY_NAME))


def validate(name: str, arguments) -> dict:
    """Check ``arguments`` against the tool's schema; a ToolError names the offending argument."""
    tool = _BY_NAME.get(name)
    if tool is None:
        raise _unknown(name)
    if arguments is None:
        arguments = {}
    found = sorted(problems(tool["input_schema"], arguments), key=lambda p: ([str(x) for x in p.path], p.keyword))
    if found:
        message, cli_message = _describe(name, found[0])
        raise ToolError(
            message,
            f"the {name} tool's input schema gives each argument's type and limits",
            cli_message=cli_message,
            cli_suggestion=f"see contextpull {name} --help",
        )
    return arguments


# How the read commands spell each argument (contextpull/cli/read.py): positional arguments in
# capitals, every other one as the option of the same name. Used for CLI wording only.
_CLI_POSITIONAL = {"query": "QUERY", "pattern": "PATTERN", "id": "ID"}


def _describe(name: str, problem: Problem) -> tuple[str, str]:
    """The problem in the tools' words (argument 'limit') and in the CLI's (--limit)."""
    path = list(problem.path)
    if problem.keyword == "required":
        text = f"{name}: missing required argument '{problem.value}'"
        return text, text
    if problem.keyword == "additionalProperties":
        text = f"{name}: unknown argument {', '.join(repr(e) for e in problem.value)}"
        return text, text
    if problem.keyword == "type" and not path:
        return f"{name}: arguments must be an object", f"{name}: arguments must be an object"
    argument = str(path[0]) if path else "arguments"
    where = "".join(f"[{p}]" for p in path[1:])
    option = _CLI_POSITIONAL.get(argument, f"--{argument}")
    if problem.keyword == "maxLength":
        reason = f"longer than {problem.value} characters"
    else:
        reason = problem.message if len(problem.message) <= 120 else problem.message[:117] + "..."
    return f"{name}: argument '{argument}'{where} is invalid: {reason}", f"{name}: {option} is invalid: {reason}"


def call(ops, name: str, arguments: dict | None = None):
    """Validate and dispatch one tool call: the result dict, or plain text for index."""
    args = validate(name, arguments)
    if name == "index":
        return ops.index(args.get("prefix"))
    if name == "search":
        return ops.search(args["query"], args.get("in"), args.get("limit", 10), args.get("mode", "lexical")).to_dict()
    if name == "read":
        return ops.read(args["id"], args.get("context", 0)).to_dict()
    if name == "grep":
        return ops.grep(args["pattern"], args.get("in"), args.get("regex", False), args.get("limit", 20)).to_dict()
    if name == "neighbours":
        return ops.neighbours(args["id"], args.get("before", 1), args.get("after", 1)).to_dict()
    raise _unknown(name)  # pragma: no cover - validate() has already refused it
