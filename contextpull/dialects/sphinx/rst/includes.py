"""Sphinx's directives that read another file of the repository, for docutils (issue 26):
``literalinclude`` as code sliced as Sphinx slices it (``literal_include``), ``include`` parsed in
place (or as code, or as Markdown under a Markdown ``:parser:``), ``csv-table``'s ``:file:``.
Each reads through ``ctx.include``, so the guard, the budget and the fingerprint are the ones
every include has; a URL is never fetched. The stand-ins' common parts are ``rst.directives``'.
"""

from __future__ import annotations

import contextlib

from docutils import nodes, statemachine
from docutils.parsers.rst.directives.tables import CSVTable

from ..literal_include import LiteralIncludeError, between_markers, select_lines
from .directives import MARKDOWN, AnyOptions, Base, caption, parse_state, where, code_node, note_at


class LiteralInclude(Base):
    """A file of the repository as code, sliced as Sphinx slices it (``literal_include``)."""

    has_content = False
    required_arguments = 1
    optional_arguments = 0

    def run(self):
        state = parse_state(self)
        source, _line = where(self)
        included = _include(self, self.arguments[0], "rst literalinclude")
        if included is None:
            return []
        try:
            text = select_lines(included.text, self.options, plain=state.ctx.site.dialect == "plain")
        except LiteralIncludeError as exc:
            state.note("rst literalinclude", "unresolved", source, self.lineno,
                       f"{included.path}: {exc}")
            return []
        language = self.options.get("language")
        return [*caption(self), code_node(text, language)]


def _include(directive, target: str, construct: str):
    """Read ``target`` through the context: Sphinx resolves it against the document (even from
    an included file), and ``/x`` against the source directory."""
    state = parse_state(directive)
    source, line = where(directive)
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        state.note(construct, "unresolved", source, line,
                   f"{target}: docutils' standard include files are not read")
        return None
    base = state.doc_folder
    if target.startswith("/"):
        base, target = state.source_dir, target.lstrip("/")
    within = state.included.get(source)
    return state.ctx.include(target, base=base, line=state.line_in_document(source, line),
                             construct=construct, within=within)


class Include(Base):
    """rst ``include``: the file's text parsed in place, or as code with ``:literal:``/``:code:``."""

    has_content = False
    required_arguments = 1
    optional_arguments = 0

    def run(self):
        state = parse_state(self)
        source, line = where(self)
        included = _include(self, self.arguments[0], "rst include")
        if included is None:
            return []
        text = between_markers(included.text, self.options.get("start-after"),
                               self.options.get("end-before"))
        lines = statemachine.string2lines(text, 8, convert_whitespace=True)
        limit = self.state.document.settings.line_length_limit
        if any(len(line) > limit for line in lines):
            state.note("rst include", "unresolved", source, line,
                       f"{included.path}: a line is longer than {limit:,} characters")
            return []
        start, end = self.options.get("start-line"), self.options.get("end-line")
        with contextlib.suppress(ValueError):
            lines = lines[int(start) if start else None : int(end) if end else None]
        if "literal" in self.options or "code" in self.options:
            language = self.options.get("code") or ""
            return [code_node("\n".join(lines), language.strip())]
        if _is_markdown(self.options.get("parser", "")):
            return [_markdown_node("\n".join(lines), state, included)]
        state.included[included.path] = included
        state.include_lines.setdefault(included.path, state.line_in_document(source, line))
        self.state_machine.insert_input(lines, included.path)
        return []


def _is_markdown(parser: str) -> bool:
    """``:parser: myst_parser.sphinx_`` (or another Markdown parser) on an include."""
    return any(word in parser.lower() for word in ("myst", "markdown", "commonmark"))


def _markdown_node(text: str, state, included) -> nodes.container:
    """An included Markdown file (a README under ``:parser: myst_parser.sphinx_``), its blocks
    carried to the walker whole (MARKDOWN). Read by the shared Markdown parser as a dialect reads
    it (``markdown_blocks``), not as MyST: such a file is written to be read on a forge too, so it
    carries no MyST of its own, and the Sphinx dialect's reader itself reads rst (``eval-rst``),
    which this module must not depend back on."""
    from ...markdown_blocks import parse

    node = nodes.container()
    node[MARKDOWN] = parse(text, included.path.rsplit("/", 1)[-1], state.ctx).blocks
    return node


class SafeCSVTable(CSVTable):
    """``csv-table``: inline data as docutils reads it; ``:file:`` through ``ctx.include``;
    ``:url:`` refused."""

    option_spec = AnyOptions(CSVTable.option_spec)

    def run(self):
        if "url" in self.options:
            note_at(self, "rst csv-table", "unresolved", "csv-table :url: is never fetched")
            return []
        if "file" in self.options and not self.content:
            included = _include(self, self.options.pop("file"), "rst csv-table")
            if included is None:
                return []
            self.content = statemachine.StringList(included.text.splitlines(), included.path)
        return super().run()
