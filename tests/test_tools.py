"""Tool definitions and the shared dispatch (issue 3, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from contextpull import Ops, Store, ToolError
from contextpull.tool_schema import problems, unsupported
from contextpull.tools import TOOLS, call, openai_tools, tools_json, validate
from read_store import make_store

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ops(tmp_path_factory):
    with Store.open(make_store(tmp_path_factory.mktemp("tools") / "s.sqlite")) as store:
        yield Ops(store)


def test_tools_json_equals_tools():
    assert (ROOT / "tools.json").read_text(encoding="utf-8") == tools_json()
    assert json.loads(tools_json()) == {"version": "1.0", "tools": TOOLS}


def test_five_tools_with_valid_closed_schemas():
    assert [t["name"] for t in TOOLS] == ["index", "search", "read", "grep", "neighbours"]
    for tool in TOOLS:
        Draft202012Validator.check_schema(tool["input_schema"])
        assert tool["input_schema"]["additionalProperties"] is False
        assert "cite" in tool["description"] and "read" in tool["description"]


def test_schemas_use_only_keywords_the_stdlib_checker_knows():
    for tool in TOOLS:
        assert unsupported(tool["input_schema"]) == set(), tool["name"]


_VALUES = [None, True, False, 0, 1, 2.0, 2.5, -1, 5, 6, 50, 51, 100, 101, "", "x", "lexical", "hybrid", "dense",
           "é" * 200, "é" * 201, [], ["guides"], [""], ["a", 3], {}, {"k": 1}]


def _cases(tool, rng):
    names = list(tool["input_schema"]["properties"]) + ["extra"]
    yield None
    yield []
    yield "query"
    for _ in range(300):
        chosen = rng.sample(names, rng.randint(0, len(names)))
        yield {name: rng.choice(_VALUES) for name in chosen}


def test_the_stdlib_checker_agrees_with_jsonschema_on_generated_arguments():
    import random

    rng = random.Random(11)
    for tool in TOOLS:
        reference = Draft202012Validator(tool["input_schema"])
        for args in _cases(tool, rng):
            ours = {(tuple(p.path), p.keyword) for p in problems(tool["input_schema"], args)}
            theirs = {(tuple(e.absolute_path), e.validator) for e in reference.iter_errors(args)}
            assert ours == theirs, (tool["name"], args)


def test_supplement_limits_are_in_the_schemas():
    props = {t["name"]: t["input_schema"]["properties"] for t in TOOLS}
    assert (props["search"]["limit"]["minimum"], props["search"]["limit"]["maximum"]) == (1, 50)
    assert (props["grep"]["limit"]["minimum"], props["grep"]["limit"]["maximum"]) == (1, 100)
    assert props["grep"]["pattern"]["maxLength"] == 200
    assert props["neighbours"]["before"]["maximum"] == props["neighbours"]["after"]["maximum"] == 5
    assert props["search"]["mode"]["enum"] == ["lexical", "hybrid"]


def test_openai_shape():
    tools = openai_tools()
    assert [t["function"]["name"] for t in tools] == [t["name"] for t in TOOLS]
    assert all(t["type"] == "function" and t["function"]["parameters"] for t in tools)


@pytest.mark.parametrize(
    "name, args, named",
    [
        ("search", {}, "'query'"),
        ("search", {"query": 3}, "'query'"),
        ("search", {"query": "x", "limit": 0}, "'limit'"),
        ("search", {"query": "x", "limit": "3"}, "'limit'"),
        ("search", {"query": "x", "in": "guides"}, "'in'"),
        ("search", {"query": "x", "mode": "dense"}, "'mode'"),
        ("read", {"id": "x", "context": 9}, "'context'"),
        ("read", {"id": "x", "extra": 1}, "'extra'"),
        ("grep", {"pattern": "x" * 201}, "'pattern'"),
        ("grep", {"pattern": "x", "regex": "yes"}, "'regex'"),
        ("neighbours", {}, "'id'"),
    ],
)
def test_validation_errors_name_the_argument(name, args, named):
    with pytest.raises(ToolError) as err:
        validate(name, args)
    assert named in err.value.message
    assert "\n" not in err.value.message


def test_unknown_tool():
    with pytest.raises(ToolError) as err:
        validate("delete", {})
    assert "delete" in err.value.message


def test_call_dispatches_every_tool(ops):
    assert call(ops, "index", {}) == ops.index()
    assert call(ops, "index", {"prefix": "guides/"}) == ops.index("guides/")
    assert call(ops, "search", {"query": "refund window", "limit": 2}) == ops.search("refund window", limit=2).to_dict()
    assert call(ops, "read", {"id": "errors.md#1", "context": 1}) == ops.read("errors.md#1", 1).to_dict()
    assert call(ops, "grep", {"pattern": "TX", "in": ["errors.md"]}) == ops.grep("TX", ["errors.md"]).to_dict()
    assert call(ops, "neighbours", {"id": "errors.md#1", "after": 0}) == ops.neighbours("errors.md#1", 1, 0).to_dict()


def test_call_raises_tool_errors(ops):
    with pytest.raises(ToolError) as err:
        call(ops, "read", {"id": "nope#1"})
    assert err.value.to_dict() == {"error": "no section 'nope#1'", "suggestion": err.value.suggestion}


def test_integral_floats_are_integers(ops):
    assert call(ops, "search", {"query": "refund", "limit": 2.0}) == call(ops, "search", {"query": "refund", "limit": 2})
    with pytest.raises(ToolError) as err:
        call(ops, "search", {"query": "refund", "limit": 2.5})
    assert "'limit'" in err.value.message


def _without_descriptions(value):
    if isinstance(value, dict):
        return {k: _without_descriptions(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [_without_descriptions(v) for v in value]
    return value


def test_schemas_are_the_published_ones_but_for_descriptions(data_regression):
    """Names, parameters, types, bounds, defaults and required lists as in the published 0.2.1
    tools.json (benchmarks/mcp_agreement.py compares with it directly); descriptions are ours."""
    data_regression.check({t["name"]: _without_descriptions(t["input_schema"]) for t in TOOLS})


def test_every_section_says_whether_it_is_context(ops):
    """As the published results: false in neighbours (and its header), true in read's context."""
    got = call(ops, "neighbours", {"id": "errors.md#1"})
    assert [s["context"] for s in got["sections"]] == [False] * len(got["sections"])
    assert list(got["sections"][0]) == ["id", "doc", "heading_path", "kind", "text", "prev_id", "next_id", "context"]
    read = call(ops, "read", {"id": "errors.md#1", "context": 1})
    assert read["context"] and all(c["context"] is True for c in read["context"])
    assert list(read)[-1] == "context"


def test_grep_lines_are_trimmed_as_published():
    from contextpull.grep import literal as literal_grep
    from contextpull.grep import regex as regex_grep

    text = "intro\n    --publish \\\n\tend"
    assert literal_grep.first_line(text, "--PUBLISH") == "--publish \\"
    assert regex_grep.compile_pattern(r"pub\w+").first_line(text) == "--publish \\"
    assert regex_grep.compile_pattern(r"^\s+--pub").first_line(text) == "--publish \\"
