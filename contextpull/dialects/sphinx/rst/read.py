"""reStructuredText through docutils into the shared block stream (issue 26, "Formats").

Why docutils: it is the reference parser, the one Sphinx itself runs, so titles, sections, lists,
tables and literal blocks are found exactly as the rendered site finds them; a second parser of
our own would disagree with it at the edges (shared/style/dialects.md, section 2).

docutils is a document processor with doors to the file system, the network and the clock. Every
door is shut here (proposal 8): no file insertion, no raw passthrough, no configuration files
(a repository's ``docutils.conf`` could open the doors again in CI), no reports on stderr, no
halting. The directives that read files (``include``, ``literalinclude``, ``csv-table :file:``)
are replaced by ones that read through ``ctx.include`` with the repository-root guard; those that
would fetch a URL or format the clock are refused. Sphinx's names are registered for the time of
one parse and the process-global registries are restored afterwards, as Sphinx's own
``docutils_namespace()`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

import posixpath
import re
import threading
from collections import Counter

from ....parsing.blocks import ParsedDocument, ParseError
from ....parsing.parse_markdown import parse_markdown
from ...api import Context

# Lines longer than this are refused by docutils itself (one named error, not a stall): a
# minified blob in an .rst file would otherwise cost the inline parser quadratic time.
LINE_LENGTH_LIMIT = 10_000

SAFE_SETTINGS = {
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "_disable_config": True,
    "report_level": 5,
    "halt_level": 5,
    "exit_status_level": 5,
    "warning_stream": False,
    "line_length_limit": LINE_LENGTH_LIMIT,
    "input_encoding": "utf-8",
    # Sections stay sections: the first title is a level-1 heading, not a document attribute.
    "doctitle_xform": False,
    "sectsubtitle_xform": False,
    "docinfo_xform": False,
    "smart_quotes": False,
    "syntax_highlight": "none",
    "character_level_inline_markup": False,
    "language_code": "en",
}

# docutils' directive and role registries are module globals; one parse at a time swaps them.
_REGISTRY_LOCK = threading.Lock()


@dataclass
class Scope:
    """Where an ``eval-rst`` block of a MyST page stands in its page: the module autodoc names
    complete with (``{currentmodule}`` above it sets it; a ``.. currentmodule::`` in the block
    sets it for what follows), and the page line its first line is on, for notes."""

    module: str = ""
    first_line: int = 1


class ParseState:
    """What the Sphinx stand-ins need during one parse, carried on the document settings."""

    def __init__(self, ctx: Context, scope: Scope | None = None) -> None:
        self.ctx = ctx
        self.current_module = scope.module if scope is not None else ""
        self.first_line = scope.first_line if scope is not None else 1
        self.doc_path, self.doc_folder, self.source_dir = document_folders(ctx)
        config = ctx.config if isinstance(ctx.config, dict) else {}
        self.config = config
        highlight = config.get("highlight_language")
        self.highlight = highlight if isinstance(highlight, str) and highlight != "default" else ""
        role = config.get("default_role")
        self.default_role = role if isinstance(role, str) else ""
        self.doc_titles: dict[str, str | None] = {}  # :doc: targets read, for this parse
        self.labels: dict = {}  # the site's label table, once fetched (labels.lookup)
        self.included: dict[str, object] = {}  # source path -> Included, for nested includes
        self.include_lines: dict[str, int] = {}  # source path -> line of its include in the doc

    def line_in_document(self, source: str | None, line: int | None) -> int:
        """A 1-based line of the document for a note: an included file's constructs are
        reported at the include directive that brought them in."""
        if source in self.include_lines:
            return self.include_lines[source]
        return int(line or 0) + self.first_line - 1 if line else 0

    def note(self, construct: str, outcome: str, source: str | None, line: int | None,
             detail: str = "") -> None:
        self.ctx.note(construct, outcome, self.line_in_document(source, line), detail)


def document_folders(ctx: Context) -> tuple[str, str, str]:
    """The document's repository path, its folder and the source directory, which both syntaxes
    resolve includes and ``:doc:`` targets against: Sphinx resolves "/x" against the source
    directory, the folder of conf.py (the docs folder when there is none)."""
    site = ctx.site
    if site.config_file and site.config_file.endswith("conf.py"):
        return ctx.repo_path, ctx.folder, _clean(posixpath.dirname(site.config_file))
    return ctx.repo_path, ctx.folder, ctx.reader.docs_folder


def _clean(path: str) -> str:
    path = posixpath.normpath(path) if path else ""
    return "" if path == "." else path


def parse_rst(text: str, ctx: Context, scope: Scope | None = None) -> ParsedDocument:
    """Parse reStructuredText ``text`` into a title and blocks; ``ParseError`` when docutils
    cannot read it at all (a named skip). Markup errors docutils recovers from are notes. A
    block of a MyST page is read in its ``scope``, whose module is left as the block sets it."""
    try:
        from docutils.frontend import get_default_settings
        from docutils.parsers.rst import Parser
        from docutils.readers.standalone import Reader
        from docutils.utils import new_document
    except ModuleNotFoundError:
        raise ParseError("reStructuredText support needs docutils (pip install docutils)") from None
    from . import chunks, doctree, lines, registry

    long_line = _long_line(text)
    if long_line:
        # docutils refuses the whole document then; say which line, as a named skip.
        raise ParseError(f"line {long_line} is longer than {LINE_LENGTH_LIMIT:,} characters")
    why = ""
    if len(text) > lines.DOCUTILS_LIMIT:
        why = f"{len(text):,} characters, over the {lines.DOCUTILS_LIMIT:,} docutils reads in time"
    elif address_cost(text) > ADDRESS_RUN_BUDGET:
        why = "runs of address characters (a URI or e-mail address) docutils would read in time quadratic in their length"
    elif most_addresses(text) > PARAGRAPH_ADDRESSES:
        why = f"a paragraph of more than {PARAGRAPH_ADDRESSES} addresses, which docutils reads one level of recursion each"
    if why:
        ctx.note("rst page", "unresolved", 0, f"{why}: read line by line (titles, code, admonitions; other markup as text)")
        stem = posixpath.splitext(posixpath.basename(ctx.path))[0]
        config = ctx.config if isinstance(ctx.config, dict) else None
        return parse_markdown(lines.to_markdown(text, config, plain=ctx.site.dialect == "plain"), stem)
    state = ParseState(ctx, scope)
    text += _sphinx_substitutions(text, state.config)
    settings = get_default_settings(Parser, Reader)
    for key, value in SAFE_SETTINGS.items():
        setattr(settings, key, value)
    settings.contextpull = state
    stem = posixpath.splitext(posixpath.basename(ctx.path))[0]

    def observe(message) -> None:
        # An error is markup docutils could not turn into its meaning; a warning is markup it
        # read another way (an unclosed backquote as text, shown as written): both are the
        # author's to see, so both are unresolved, each with its text and line, as Sphinx
        # prints them.
        level = message["level"]
        if level >= 2:
            construct = "rst markup error" if level >= 3 else "rst markup warning"
            outcome = "unresolved"
            text = message.children[0].astext() if message.children else message.astext()
            state.note(construct, outcome, message.get("source"), message.get("line"),
                       _first_line(text))

    with _REGISTRY_LOCK, registry.registered():
        try:
            parser = Parser()
            reader = Reader(parser=parser)
            document = new_document(state.doc_path, settings)
            document.reporter.attach_observer(observe)
            chunks.parse(parser, text, document)
            document.transformer.populate_from_components((reader, parser))
            document.transformer.apply_transforms()
        except RecursionError:
            raise ParseError("reStructuredText nested too deeply to read") from None
        except ParseError:
            raise
        except Exception as exc:  # docutils has no single error type for input it cannot read
            raise ParseError(f"reStructuredText could not be read: {_first_line(str(exc))}") from None
    try:
        title, blocks = doctree.to_blocks(document, state)
    except RecursionError:
        raise ParseError("reStructuredText nested too deeply to read") from None
    if scope is not None:
        scope.module = state.current_module
    return ParsedDocument(title or stem, blocks)


# Substitutions Sphinx defines on every page from conf.py; "today" only when conf.py fixes it,
# since the build never reads the clock.
_SPHINX_SUBSTITUTIONS = ("version", "release", "today")


def _sphinx_substitutions(text: str, config: dict) -> str:
    """Definitions for ``|version|``, ``|release|`` and ``|today|``, appended after the page
    (a substitution may be defined anywhere in it) so its own line numbers do not move."""
    out = []
    for name in _SPHINX_SUBSTITUTIONS:
        value = config.get(name)
        if f"|{name}|" in text and isinstance(value, str) and value.strip() and "\n" not in value:
            if f".. |{name}|" not in text:
                out.append(f".. |{name}| replace:: {value.strip()}")
    return "\n\n" + "\n".join(out) + "\n" if out else ""


# docutils looks for a standalone URI or e-mail address wherever inline markup may start, and its
# pattern runs from there to the end of the run of address characters: a run of n of them costs
# up to n squared (one line of 10,000 "{%" takes about a second, a page of them minutes). The sum
# of the squares of a page's runs bounds that time; a page over the budget is read line by line,
# as a page over DOCUTILS_LIMIT is. Prose and URLs are far below it (Flask's largest page, 580,000).
_ADDRESS_RUN = re.compile(r"[-_.!~*'(){|}/#?^`&=+$%;:@,\[\]a-zA-Z0-9\x00]+")
ADDRESS_RUN_BUDGET = 25_000_000


def address_cost(text: str) -> int:
    """The sum of the squares of the lengths of ``text``'s runs of URI and e-mail characters."""
    if len(text) ** 2 <= ADDRESS_RUN_BUDGET:
        return 0
    # Counted by length in C (findall, map, Counter), not by a Python step per run: a line of
    # 333,000 short runs ("{{<" repeated) took 0.18 s the other way.
    lengths = Counter(map(len, _ADDRESS_RUN.findall(text)))
    return sum(length * length * count for length, count in lengths.items())


# docutils reads the standalone addresses of a run of text by recursion, one level per address
# found (``Inliner.implicit_inline``), so a paragraph of thousands (a megabyte of
# ``<!--@include:``, each ``!--@include`` an e-mail address to it) runs past Python's recursion
# limit after a second of work, and the page was a named skip. A paragraph with more ``@`` and
# ``://`` than this is read line by line instead: its text kept, in time linear in its length.
PARAGRAPH_ADDRESSES = 400
# Where one run of docutils' text can end: a blank line, or a line that starts a list item (each
# item is a paragraph of its own, so a changelog of 450 links, one an item, is not one run).
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[-*+\u2022]|\d+[.)]|#[.)]|\(\d+\))[ \t])")


def most_addresses(text: str) -> int:
    """The most ``@`` and ``://`` one paragraph (a run of lines between blank ones, or a list
    item) holds: a bound on the addresses docutils finds in one run of its text."""
    if text.count("@") + text.count("://") <= PARAGRAPH_ADDRESSES:
        return 0
    return max(part.count("@") + part.count("://") for part in _PARAGRAPH_BREAK.split(text))


def _long_line(text: str) -> int:
    """The 1-based number of the first line over the limit, or 0."""
    if len(text) <= LINE_LENGTH_LIMIT:
        return 0
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > LINE_LENGTH_LIMIT:
            return number
    return 0


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line[:200]
