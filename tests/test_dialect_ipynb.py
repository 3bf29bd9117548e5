"""Notebooks as Markdown: cells in order, code in the kernel's language, short plain outputs
(issue 26, "Formats")."""

from __future__ import annotations

import json

import pytest

from contextpull.dialects.read_ipynb import to_markdown
from contextpull.parsing.blocks import ParseError
from rst_context import FakeContext


def notebook(cells, language="python", nbformat=4):
    meta = {"kernelspec": {"name": "k", "language": language}} if language else {}
    return json.dumps({"nbformat": nbformat, "nbformat_minor": 5, "metadata": meta, "cells": cells})


def md(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def code(source, outputs=()):
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": list(outputs),
            "execution_count": 1}


def test_cells_become_markdown_and_fenced_code(tmp_path, file_regression):
    ctx = FakeContext(tmp_path, "guide.ipynb")
    text = to_markdown(notebook([
        md(["# Watering\n", "\n", "Plants need *water*."]),
        code("print('hi')\n", [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]),
        code("bed", [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/plain": ["Bed(size=3)"], "text/html": ["<b>Bed</b>"]}}]),
        code("plot()", [{"output_type": "display_data", "metadata": {},
                         "data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"]}}]),
        code("1/0", [{"output_type": "error", "ename": "ZeroDivisionError",
                      "evalue": "division by zero", "traceback": ["\x1b[0;31m..."]}]),
        {"cell_type": "raw", "metadata": {}, "source": "\\newpage"},
        code("x = '```'"),
        md(""),
    ]), ctx)
    file_regression.check(text, extension=".md")
    assert ctx.notes == [("notebook output", "converted", 0, "cell 4: image not stored"),
                         ("notebook cell", "converted", 0, "cell 6: raw cell not rendered")]


def test_long_outputs_are_cut_with_a_marker(tmp_path):
    ctx = FakeContext(tmp_path, "log.ipynb")
    lines = [f"line {n}\n" for n in range(1, 26)]
    wide = "x" * 5000
    text = to_markdown(notebook([
        code("run()", [{"output_type": "stream", "name": "stdout", "text": lines}]),
        code("dump()", [{"output_type": "stream", "name": "stdout", "text": wide}]),
    ]), ctx)
    assert "line 10\n… (15 more lines)\n```" in text
    assert "line 11" not in text
    assert "x" * 1000 + "…\n```" in text and "x" * 1001 not in text
    assert [n[3] for n in ctx.notes] == ["cell 1: output shortened", "cell 2: output shortened"]


def test_kernel_language_and_older_formats(tmp_path):
    ctx = FakeContext(tmp_path, "r.ipynb")
    assert to_markdown(notebook([code("summary(x)")], language="R"), ctx) == "```r\nsummary(x)\n```\n"
    v3 = json.dumps({"nbformat": 3, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "heading", "level": 2, "source": "Old"},
        {"cell_type": "code", "input": "x = 1", "outputs": []}]}]})
    assert to_markdown(v3, ctx) == "## Old\n\n```\nx = 1\n```\n"


@pytest.mark.parametrize(("text", "reason"), [
    ("{not json", "notebook is not JSON: Expecting property name"),
    ("[1, 2]", "not a Jupyter notebook: no nbformat field"),
    ('{"cells": []}', "not a Jupyter notebook: no nbformat field"),
    ('{"nbformat": 4, "cells": "x"}', "not a Jupyter notebook: no list of cells"),
    ("[" * 100_000 + "]" * 100_000, "notebook is not JSON"),
])
def test_a_file_that_is_not_a_notebook_is_a_named_skip(tmp_path, text, reason):
    with pytest.raises(ParseError, match=reason.replace("(", r"\(")):
        to_markdown(text, FakeContext(tmp_path, "bad.ipynb"))
