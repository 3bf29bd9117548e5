"""The read commands: readable text, --json equal to the tool dispatch, one-line errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from contextpull import Ops, Store
from contextpull.cli import cli
from contextpull.tools import TOOLS, call
from read_store import make_store


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return str(make_store(tmp_path_factory.mktemp("cli") / "store.sqlite"))


def run(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env)


def test_index(store):
    result = run("index", "--store", store)
    assert (result.exit_code, result.output) == (0, "ContextPull index · test\n")
    result = run("index", "--prefix", "guides/", "--store", store)
    assert result.output.splitlines()[0] == "ContextPull index · guides/ · 2 documents · 4 sections"


def test_index_prefix_with_no_documents_says_which_paths_exist(store):
    result = run("index", "--prefix", "nope/", "--store", store)
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "ContextPull index · nope/ · 0 documents · 0 sections",
        "hint: no document path starts with 'nope/'; top-level paths: errors.md, guides/, guidesextra.md, policies/",
    ]
    result = run("index", "--prefix", "nope/", "--store", store, "--json")
    assert json.loads(result.output)["hint"].startswith("no document path starts with 'nope/'")
    assert "hint" not in json.loads(run("index", "--prefix", "guides/", "--store", store, "--json").output)


def test_store_from_environment(store):
    result = run("index", env={"CONTEXTPULL_STORE": store})
    assert (result.exit_code, result.output) == (0, "ContextPull index · test\n")


def test_search_text(store):
    result = run("search", "support email", "--store", store)
    assert result.exit_code == 0
    with Store.open(store) as opened:
        hits = Ops(opened).search("support email").hits
    expected = "".join(
        f"{h.score:7.2f}  {h.id:<40} {h.heading_path}\n         {h.snippet}\n" for h in hits
    )
    assert result.output == expected
    assert [line.split()[1] for line in result.output.splitlines()[::2]] == ["policies/a.md#1", "policies/b.md#1"]


def test_search_without_searchable_words_is_exit_4(store):
    result = run("search", "??? ---", "--store", store)
    assert result.exit_code == 4
    assert result.output == "Error: no searchable words in query (use grep for punctuation or symbols)\n"
    result = run("search", "???", "--json", "--store", store)
    assert result.exit_code == 4
    assert json.loads(result.output)["hits"] == []


def test_search_without_hits_prints_hint_exit_0(store):
    result = run("search", "zebra", "--store", store)
    assert (result.exit_code, result.output) == (0, "hint: no hits; try grep for exact codes, drop the in= filter, or use fewer words\n")


def test_search_json_is_the_tool_result(store):
    result = run("search", "refund", "--in", "policies", "--in", "guidesextra.md", "--limit", "3", "--json", "--store", store)
    with Store.open(store) as opened:
        expected = call(Ops(opened), "search", {"query": "refund", "in": ["policies", "guidesextra.md"], "limit": 3})
    assert result.exit_code == 0
    assert json.loads(result.output) == expected


def test_read_text_and_context(store):
    result = run("read", "errors.md#2", "--store", store)
    assert (result.exit_code, result.output) == (0, "## TX-45xx\n\n- TX-4501: gateway timeout.\n- Retry with the same key.\n")
    result = run("read", "guides/setup.md#1", "--context", "1", "--store", store)
    assert result.output.splitlines()[0] == "=== guides/setup.md#0 · Setup · prose · context"
    assert "=== guides/setup.md#1 · Setup > Cache · prose" in result.output.splitlines()
    assert result.output.splitlines()[-4] == "=== guides/setup.md#2 · Setup > Later · prose · context"


def test_grep_text_and_truncation(store):
    result = run("grep", "TX-450", "--store", store)
    assert (result.exit_code, result.output) == (0, f"{'errors.md#2':<40} - TX-4501: gateway timeout.\n")
    result = run("grep", "the", "--limit", "1", "--store", store)
    assert result.output.splitlines()[-1].startswith("(more sections match")


def test_neighbours_text_and_json(store):
    result = run("neighbours", "policies/b.md#4", "--before", "0", "--after", "0", "--store", store)
    assert result.output.splitlines()[0] == "=== policies/b.md#2 · Fees · table · table header"
    result = run("neighbours", "policies/b.md#4", "--json", "--store", store)
    data = json.loads(result.output)
    assert [s["id"] for s in data["sections"]] == ["policies/b.md#3", "policies/b.md#4", "policies/b.md#5"]
    assert data["header"]["id"] == "policies/b.md#2"


def test_export_chunks(store):
    result = run("export-chunks", "--store", store)
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 16
    assert rows[0] == {"id": "errors.md#0", "text": "# Error codes\n\nCodes returned by the gateway.", "source": "errors.md"}
    assert [r["id"] for r in rows if r["source"] == "policies/b.md"] == [f"policies/b.md#{i}" for i in range(6)]


def test_tools_json():
    result = run("tools-json")
    assert result.exit_code == 0 and json.loads(result.output) == {"version": "1.0", "tools": TOOLS}


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["read", "missing.md#0"], 4, "Error: no section 'missing.md#0' (search for it first; ids look like path.md#3)\n"),
        (["search", "x", "--limit", "0"], 4, None),
        (["grep", "(", "--regex"], 4, None),
        (["grep", "x" * 201], 4, None),
    ],
)
def test_tool_errors_are_one_line_exit_4(store, args, code, message):
    result = CliRunner().invoke(cli, [*args, "--store", store])
    assert result.exit_code == code
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ")
    if message:
        assert result.output == message


@pytest.mark.parametrize(
    "args, expected",
    [
        (["grep", "(", "--regex"], "(drop --regex for a literal match)"),
        (["search", "x", "--limit", "0"], "Error: search: --limit is invalid:"),
        (["search", "x", "--limit", "0"], "(see contextpull search --help)"),
        (["read", "a.md#0", "--context", "9"], "Error: read: --context is invalid:"),
        (["grep", ""], "Error: pattern is empty (give at least one character)"),
    ],
)
def test_cli_errors_speak_of_options_never_of_tool_arguments(store, args, expected):
    result = CliRunner().invoke(cli, [*args, "--store", store])
    assert result.exit_code == 4 and expected in result.output
    assert "regex=" not in result.output and "argument '" not in result.output


@pytest.mark.parametrize(
    "name, arguments, expected",
    [
        ("grep", {"pattern": "(", "regex": True}, "set regex=false for a literal match"),
        ("search", {"query": "x", "limit": 0}, "the search tool's input schema gives each argument's type and limits"),
    ],
)
def test_tool_errors_speak_of_arguments_never_of_cli_commands(store, name, arguments, expected):
    from contextpull.errors import ToolError

    with Store.open(store) as opened, pytest.raises(ToolError) as err:
        call(Ops(opened), name, arguments)
    told = json.dumps(err.value.to_dict())  # what a model receives
    assert expected in told
    assert "contextpull " not in told and "--" not in told


def test_missing_store_names_it_and_how_to_build(tmp_path):
    missing = tmp_path / "nope.sqlite"
    result = run("search", "x", "--store", str(missing))
    assert result.exit_code == 3
    assert result.output.count("\n") == 1
    assert str(missing) in result.output and "contextpull build" in result.output
    assert not missing.exists()


def test_usage_error_is_click_exit_2(store):
    assert run("search", "x", "--mode", "dense", "--store", store).exit_code == 2


def test_output_into_head_ends_quietly(tmp_path):
    corpus = [(f"d{i:03}.md", f"D{i}", None, [(f"D{i}", "prose", "word " * 200)] * 5) for i in range(60)]
    path = make_store(tmp_path / "big.sqlite", corpus)
    proc = subprocess.run(
        f"set -o pipefail; '{sys.executable}' -m contextpull export-chunks --store '{path}' | head -n 1",
        shell=True, capture_output=True, text=True, executable="/bin/bash",
    )
    assert proc.stdout.startswith('{"id": "d000.md#0"') and proc.stdout.count("\n") == 1
    assert proc.stderr == ""
    assert proc.returncode == 0  # a closed pipe is not an error (click alone would exit 1)


@pytest.mark.parametrize("damage", ["bad-utf8", "blob"])
def test_export_of_a_damaged_store_is_one_line_exit_3(tmp_path, damage):
    corpus = [("a.md", "A", None, [("A", "prose", "alpha marker text " * 20)])]
    path = make_store(tmp_path / "damaged.sqlite", corpus)
    if damage == "blob":  # a value whose type changed: what a flipped serial-type byte does
        import sqlite3

        conn = sqlite3.connect(path)
        conn.execute("UPDATE sections SET text = CAST(text AS BLOB)")
        conn.commit()
        conn.close()
    else:  # a byte that is never valid UTF-8, in every copy of the text
        data = bytearray(path.read_bytes())
        at = data.find(b"alpha marker")
        while at >= 0:
            data[at] = 0xFF
            at = data.find(b"alpha marker", at + 1)
        path.write_bytes(bytes(data))
    result = CliRunner().invoke(cli, ["export-chunks", "--store", str(path)])
    assert result.exit_code == 3, result.output
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert "damaged" in result.stderr
