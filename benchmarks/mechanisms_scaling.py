"""The shared lexing mechanisms (contextpull/dialects/syntax/, parsing/fence_rule.py) against
long runs of their own openers (issue 35, "Linear time"): each input at 100 KB and at 1 MB, the
seconds of one call, and their ratio. A linear scanner's ratio is about 10; a quadratic one's
about 100 (and its 1 MB row takes minutes).

    .venv/bin/python benchmarks/mechanisms_scaling.py
    .venv/bin/python benchmarks/mechanisms_scaling.py --sizes 100000 1000000 4000000

Seconds are the best of three runs (the machine is shared); the ratio is what to read.
"""

from __future__ import annotations

import argparse
import time

from contextpull.dialects.syntax import attributes, container_tree, fences, labels, options, template_tags
from contextpull.dialects.syntax.line_map import LineMap
from contextpull.dialects.vitepress import regions
from contextpull.parsing.fence_rule import code_lines


def _lex(text: str, syntax) -> int:
    lexer, pos, count = template_tags.Lexer(text, syntax), 0, 0
    while (tag := lexer.next(pos)) is not None and tag.end >= 0:
        count, pos = count + 1, tag.end
    return count


def _lines_map(text: str) -> int:
    lines = LineMap(text)
    return sum(lines.line(o) for o in range(0, len(text), 64))


JINJA = template_tags.jinja(("{%", "%}"), ("{{", "}}"), ("{#", "#}"))

# (mechanism, input, how an input of about n characters is made, the call)
CASES = [
    ("fences", "one line of backticks", lambda n: "`" * n, fences.split_code),
    ("fences", "``` lines, none closing ~~~~", lambda n: "~~~~\n" + "```\n" * (n // 4), fences.split_code),
    ("fences", "``` lines, by line", lambda n: ("```\n" * (n // 4)).split("\n"), lambda ls: list(code_lines(ls))),
    ("fences", "blank lines", lambda n: "\n" * n + "```", fences.split_code),
    ("fences", "inline backtick runs", lambda n: "`` ` " * (n // 5), fences.code_spans),
    ("line_map", "blank lines, a lookup every 64", lambda n: "\n" * n, _lines_map),
    ("attributes", "{ repeated, then one }", lambda n: "{" * n + "}", lambda t: list(attributes.find_all(t))),
    ("attributes", "{} repeated", lambda n: "{}" * (n // 2), lambda t: list(attributes.find_all(t))),
    ("attributes", '{a="} repeated', lambda n: '{a="}' * (n // 5), lambda t: list(attributes.find_all(t))),
    ("attributes", "{#a .b c=d} repeated (lists)", lambda n: "{#a .b c=d} " * (n // 12), lambda t: list(attributes.find_all(t))),
    ("options", "quotes", lambda n: '"' * n, lambda t: list(options.arguments(t))),
    ("options", "a= repeated", lambda n: "a=" * (n // 2), lambda t: list(options.arguments(t))),
    ("options", ": field lines", lambda n: [":a: b"] * (n // 6), options.fields),
    ("template_tags", "{{< repeated, one >}}", lambda n: "{{<" * (n // 3) + ">}}", lambda t: _lex(t, template_tags.HUGO)),
    ("template_tags", "{% repeated", lambda n: "{%" * (n // 2), lambda t: _lex(t, template_tags.LIQUID)),
    ("template_tags", "{{ ' repeated (Jinja)", lambda n: "{{ '" * (n // 4), lambda t: _lex(t, JINJA)),
    ("template_tags", "{% raw %} without end", lambda n: "{% raw %}" * (n // 9),
     lambda t: template_tags.end_tag(t, 0, "raw", "{%", "%}")),
    ("labels", "a body of blanks", lambda n: " " * n + "x", lambda t: labels.labelled("Note", t)),
    ("containers", ":::note lines, none closing", lambda n: [":::note"] * (n // 8), lambda ls: _scan(ls, container_tree.COLONS)),
    ("containers", "one line of :", lambda n: [":" * n], lambda ls: _scan(ls, container_tree.COLONS)),
    ("containers", ":::{note} lines (MyST), then :::", lambda n: [":::{note}"] * (n // 10) + [":::"],
     lambda ls: _scan(ls, container_tree.MYST)),
    ("containers", "/// note lines, as many ///", lambda n: ["/// note"] * (n // 13) + ["///"] * (n // 13),
     lambda ls: _scan(ls, container_tree.SLASHES)),
    ("containers", "!!! note lines", lambda n: ["!!! note"] * (n // 9), lambda ls: _scan(ls, container_tree.ADMONITIONS)),
    ("containers", ".. note:: lines (rst)", lambda n: [".. note::"] * (n // 10), lambda ls: _scan(ls, container_tree.RST)),
    ("containers", "::: tip lines then ::: (markdown-it)", lambda n: ["::: tip"] * (n // 16) + [":::"] * (n // 16),
     lambda ls: _scan(ls, container_tree.MARKDOWN_IT_COLONS)),
    ("regions", "// #region a lines, none ending", lambda n: ["// #region a"] * (n // 13), lambda ls: regions.find(ls, "a")),
    ("regions", "#region / #endregion, nested", lambda n: ["# region a", "# endregion"] * (n // 24), lambda ls: regions.find(ls, "a")),
    ("containers", "> [!NOTE] then > x lines", lambda n: ["> [!NOTE]"] + ["> x"] * (n // 4),
     lambda ls: _scan(ls, container_tree.CALLOUTS)),
]


def _scan(lines, syntax) -> int:
    return len(container_tree.scan(lines, syntax))


def _seconds(fn, arg) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    head = "".join(f"{f'{size:,} ch':>14}" for size in args.sizes)
    print(f"{'mechanism':<14}{'input':<34}{head}{'ratio':>8}")
    for mechanism, name, make, call in CASES:
        times = [_seconds(call, make(size)) for size in args.sizes]
        row = "".join(f"{t:>12.4f} s" for t in times)
        ratio = times[-1] / max(times[0], 1e-9)
        print(f"{mechanism:<14}{name:<34}{row}{ratio:>8.1f}")


if __name__ == "__main__":
    main()
