"""A Markdown table's cells read as MDX renders them (contextpull/dialects/mdx/table_cells.py):
react-native-website's API tables break a cell's lines with ``<br/>`` and write a pipe in a cell
as ``&#124;``; the row must stay one table row, the cell's text readable."""

from __future__ import annotations

from contextpull.dialects.mdx.mdx import prepare
from contextpull.parsing.parse_markdown import parse_markdown
from mdx_helpers import FakeContext

TABLE = (
    "| Flow | TypeScript |\n"
    "| ---- | ---------- |\n"
    "| Type Unions<br /><code>'SUCCESS'&#124;'FAIL'</code> | <code>string &#124; null</code> |\n"
    "| `taskKey`<br/><div className=\"label\">Required</div> | function<hr/>[Button](alert#button) |\n"
    "| `a &#124; b` | Callbacks<br />`() =>` |"
)


def test_a_cell_line_break_and_pipe_reference_keep_the_row_one_table_row():
    out = prepare(TABLE, FakeContext())
    assert out.split("\n")[2:] == [
        "| Type Unions; 'SUCCESS'\\|'FAIL' | string \\| null |",
        "| `taskKey`; Required | function; [Button](alert#button) |",
        "| `a &#124; b` | Callbacks; `() =>` |",  # code is never edited
    ]
    tables = [b for b in parse_markdown(out, "page").blocks if type(b).__name__ == "Table"]
    assert len(tables) == 1 and len(tables[0].rows) == 3


def test_a_line_break_outside_a_table_is_still_a_new_line():
    out = prepare("Before<br/>after &#124; here.\n\n" + TABLE, FakeContext())
    assert out.startswith("Before\nafter | here.\n\n| Flow")


def test_a_plain_build_reads_its_mdx_tables_as_before():
    out = prepare(TABLE, FakeContext(dialect="plain"))
    assert "Type Unions\n'SUCCESS'|'FAIL'" in out
