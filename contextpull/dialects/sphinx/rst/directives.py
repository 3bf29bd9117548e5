"""Sphinx's directives as a reader of the rendered page sees them, for docutils (issue 26).

Registered only for the time of one parse (``rst.registry.registered()``), like Sphinx's
``docutils_namespace()``, because docutils keeps its registries in module globals. Each stand-in
returns plain docutils nodes so that ``rst.doctree`` needs no Sphinx node types:

- code (``code-block``, ``sourcecode``, ``code``, ``literalinclude``) becomes a literal block
  with a ``language`` attribute; ``literalinclude``, ``include`` and ``csv-table``'s ``:file:``
  read through ``ctx.include`` (``rst.includes``);
- admonitions Sphinx adds (``seealso``, ``versionadded``...) and tabs become ``admonition``
  nodes whose title is the label the page shows (``rst.labelled``);
- object descriptions (``function``, ``py:data``...) become their signature and body;
- navigation and metadata (``toctree``, ``index``, ``currentmodule``...) are dropped; autodoc is
  read from the repository's source, never imported (``apiref``), or, without API reference,
  dropped with an ``unresolved`` note;
- any other directive keeps its body (pandoc's rule), noted ``converted``; one that no one
  defines (``directive_names``) is noted ``unresolved``, its body still kept.

Which name maps to which stand-in is ``rst.registry``; roles are in ``rst.roles``.
"""

from __future__ import annotations

import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives

from ..directive_names import CODE, autodoc_detail, has_info_fields, object_fields, only_hidden, productions, signatures, toc_entry
from ..literal_include import LiteralIncludeError, dedent


# The attribute of a container holding an included Markdown file's blocks, already parsed.
MARKDOWN = "contextpull-markdown"
# The attribute of a ``highlight`` marker: the language it sets.
HIGHLIGHT = "contextpull-highlight"
# Marks an admonition node whose directive already made its note.
NOTED = "contextpull-noted"
# Marks a field list of a Python object's body: Sphinx groups its fields ("Parameters:"),
# ``directive_names.info_fields``.
INFO_FIELDS = "contextpull-info-fields"
# The attribute of an object description's container that the page's table of contents lists:
# (the heading's text, its label or None), ``directive_names.toc_entry``.
OBJECT = "contextpull-object"


class AnyOptions(dict):
    """An option spec that accepts every option: Sphinx extensions add options docutils does not
    know, and an unknown option must not turn a whole directive into an error."""

    def __missing__(self, key):
        return directives.unchanged

    def __bool__(self) -> bool:  # docutils parses options only when the spec is truthy
        return True


def parse_state(directive) -> object:
    return directive.state.document.settings.contextpull


def where(directive) -> tuple[str | None, int | None]:
    return directive.state_machine.get_source_and_line(directive.lineno)


def note_at(directive, construct: str, outcome: str, detail: str = "") -> None:
    source, line = where(directive)
    parse_state(directive).note(construct, outcome, source, line, detail)


def parse_body(directive) -> list[nodes.Node]:
    """The directive's content parsed as rst, in a container the block walker flattens."""
    box = nodes.container()
    if directive.content:
        directive.state.nested_parse(directive.content, directive.content_offset, box)
    return list(box.children)


class Base(Directive):
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = AnyOptions()


class Dropped(Base):
    """Navigation, index entries and metadata: nothing of it is on the rendered page."""

    optional_arguments = 50

    def run(self):
        note_at(self, f"rst {self.name}", "converted")
        if self.name.lower().rpartition(":")[2] in ("module", "currentmodule") and self.arguments:
            # The module autodoc completes names with (issue 37); "None" clears it.
            name = self.arguments[0].strip()
            parse_state(self).current_module = "" if name == "None" else name
        return []


# Autodoc's class-level documenters: only they complete a bare name with the current class
# (autosummary tries the class's prefix first too).
_CLASS_LEVEL = frozenset(("automethod", "autoattribute", "autoproperty", "autosummary"))


def _scope(state, name: str, target: str) -> str:
    """What autodoc completes a name with: the current module, and the class whose
    description holds the directive (``.. class:: Builder`` around ``.. automethod:: build``).
    A name written with a dot (``automethod:: TextResponse.follow``, scrapy) names its class
    itself, and a module-level directive never takes the class: the module alone, as autodoc
    resolves them."""
    module, cls = getattr(state, "current_module", ""), getattr(state, "current_class", "")
    key = name.lower().removeprefix("py:")
    if not cls or key not in _CLASS_LEVEL or "." in target.split("(", 1)[0]:
        return module
    return cls if not module or cls.startswith(module + ".") else f"{module}.{cls}"


class Autodoc(Dropped):
    """Documentation generated from code: read from the repository's source, never imported
    (``autodoc.py``), its Markdown carried to the walker whole (MARKDOWN); without API
    reference the directive is dropped, unresolved."""

    def run(self):
        state = parse_state(self)
        argument = " ".join(self.arguments)
        source, line = where(self)
        rendered = None
        if state.ctx.reader.api_reference() is not None:  # else the API modules are never imported (12 ms)
            from ..autodoc import handles, render_directive

            if handles(self.name):
                rendered = render_directive(
                    state.ctx, self.name, argument, dict(self.options), list(self.content),
                    _scope(state, self.name, argument), state.line_in_document(source, line))
        if rendered is None:
            note_at(self, "rst autodoc", "unresolved", autodoc_detail(self.name, argument))
            return []
        from ...markdown_blocks import parse

        node = nodes.container()
        node[MARKDOWN] = parse("\n".join(rendered), "api", state.ctx).blocks
        return [node]


class Highlight(Dropped):
    """Sets the language of the code blocks that follow it without one (``::``): a marker in
    the tree, read in document order by the block walker."""

    def run(self):
        note_at(self, "rst highlight", "converted")
        marker = nodes.comment()
        marker[HIGHLIGHT] = self.arguments[0].strip() if self.arguments else ""
        return [marker]


def code_node(text: str, language: str | None) -> nodes.literal_block:
    """A literal block; without a language the walker gives it the highlight in force."""
    node = nodes.literal_block(text, text)
    if language:
        node["language"] = language
    return node


def caption(directive) -> list[nodes.Node]:
    """A ``:caption:`` is shown above the code, with its inline markup rendered."""
    caption = directive.options.get("caption")
    if not caption:
        return []
    inline, _messages = directive.state.inline_text(caption, directive.lineno)
    return [nodes.paragraph(caption, "", *inline)]


class CodeBlock(Base):
    """``code-block``, ``sourcecode`` and ``code``: the code exactly, fenced in its language."""

    def run(self):
        language = self.arguments[0].strip() if self.arguments else None
        if not self.content:
            note_at(self, "rst code-block", "unresolved", f"{self.name} without code")
            return []
        text = "\n".join(self.content)
        if "dedent" in self.options:
            try:
                text = dedent(text, self.options.get("dedent"))
            except LiteralIncludeError as exc:
                note_at(self, "rst code-block", "unresolved", str(exc))
                return [code_node(text, language)]
        note_at(self, "rst code-block", "converted")
        return [*caption(self), code_node(text, language)]


class Raw(Base):
    """``raw``: HTML shows on the page as its text; other formats are not on it. A ``:file:`` or
    ``:url:`` is refused: a URL is never fetched and raw files are not documentation."""

    optional_arguments = 50

    def run(self):
        if "file" in self.options or "url" in self.options:
            note_at(self, "rst raw", "unresolved", "raw :file: and :url: are not read")
            return []
        note_at(self, "rst raw", "converted")
        formats = " ".join(self.arguments).lower().split()
        if "html" not in formats:
            return []
        text = _html_text("\n".join(self.content))
        return [nodes.paragraph(text, text)] if text else []


def _html_text(source: str) -> str:
    """Tags go, their text stays (``markup.html_to_text``); a script or style block is not text
    a reader sees, so it goes first, with comments."""
    from ...syntax.markup import html_to_text, strip_html_comments

    source = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", "", strip_html_comments(source))
    return html_to_text(source).strip()


class Date(Directive):
    """``date`` would format the wall clock; a build is deterministic, so it is empty unless
    ``SOURCE_DATE_EPOCH`` fixes the time."""

    has_content = False
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self):
        import time

        epoch = parse_state(self).ctx.site.epoch  # the build's, checked once (settings/environment.py)
        if epoch is None:
            return [nodes.Text("")]
        fmt = self.arguments[0] if self.arguments else "%Y-%m-%d"
        return [nodes.Text(time.strftime(fmt, time.gmtime(epoch)))]


class Describe(Base):
    """An object description (``function``, ``py:data``, ``envvar``...): the signature as code,
    one per line, then the body, as the page shows them; headed by its name where Sphinx's table
    of contents lists it (``OBJECT``), so its section and heading path name the object as an
    autodoc one's do."""

    optional_arguments = 1

    def run(self):
        note_at(self, "rst object description", "converted")
        argument = self.arguments[0] if self.arguments else ""
        state = parse_state(self)
        entry = toc_entry(self.name, argument, self.options, state.config)
        out: list[nodes.Node] = [nodes.paragraph("", "", nodes.literal(sig, sig))
                                 for sig in signatures(argument) if entry is None or sig != entry[0]]
        for label, value in object_fields(self.name, self.options):
            inline, _messages = self.state.inline_text(value, self.lineno)
            out.append(nodes.paragraph("", "", nodes.Text(f"{label}: "), *inline))
        box = nodes.container()
        if entry is not None:  # its heading shows a signature that is the name alone
            box[OBJECT] = entry
        outer = getattr(state, "current_class", "")
        if self.name.lower().rpartition(":")[2] in ("class", "exception") and self.arguments:
            # Autodoc directives in a class's body name its members (Sphinx's ``py:class`` context).
            state.current_class = self.arguments[0].split("(", 1)[0].strip().split()[-1] if self.arguments[0].strip() else ""
        try:
            body = parse_body(self)
        finally:
            state.current_class = outer
        if has_info_fields(self.name) and state.ctx.site.dialect == "sphinx":  # plain reads fields as written
            for child in body:
                if isinstance(child, nodes.field_list):
                    child[INFO_FIELDS] = True
        box.extend(out + body)
        return [box]


class Kept(Base):
    """A container whose body is on the page (``glossary``, ``hlist``, ``tabs``...)."""

    optional_arguments = 50

    def run(self):
        note_at(self, f"rst {self.name}", "converted")
        return parse_body(self)


class TestCode(Base):
    """sphinx.ext.doctest's blocks: code on the page (``directive_names.CODE``), unless hidden."""

    def run(self):
        note_at(self, f"rst {self.name}", "converted")
        if "hide" in self.options or not self.content:
            return []
        return [code_node("\n".join(self.content), CODE[self.name])]


class ExampleCode(TestCode):
    """pallets-sphinx-themes' ``click:example``: it takes no argument and no option, so its
    whole indented block is code, from the line under it (Click writes it with no blank line)."""

    optional_arguments = 0
    option_spec = None


class Centered(Base):
    """``centered``: its argument is its text."""

    has_content = False

    def run(self):
        note_at(self, "rst centered", "converted")
        inline, _messages = self.state.inline_text(" ".join(self.arguments), self.lineno)
        return [nodes.paragraph("", "", *inline)] if self.arguments else []


class Productions(Base):
    """``productionlist``: the grammar, one production a line, as the page sets it."""

    has_content = False

    def run(self):
        note_at(self, "rst productionlist", "converted")
        text = "\n".join(productions(" ".join(self.arguments) if self.arguments else ""))
        return [code_node(text, None)] if text else []


class Unknown(Kept):
    """A directive nobody here knows: its body stays (pandoc), and the report says so; one that
    neither docutils, Sphinx nor a configured extension defines is an error on the rendered page,
    so it is named ``unresolved`` (``directive_names``)."""

    def run(self):
        from ..directive_names import conf_kind, defined, unknown_detail

        kind = conf_kind(self.name, parse_state(self).ctx)
        if kind == "object":  # conf.py's add_object_type: an object description
            return Describe.run(self)
        if kind == "target":  # conf.py's add_crossref_type: a link target, nothing shown
            note_at(self, "rst directive", "converted", f"{self.name!r}: a target conf.py adds")
            return []
        if defined(self.name, parse_state(self).config, ctx=parse_state(self).ctx) is False:
            note_at(self, "rst directive", "unresolved", unknown_detail(self.name, bool(self.content)))
            return parse_body(self)
        if not self.content:
            note_at(self, "rst directive", "unresolved", f"unknown directive {self.name!r} has no body")
            return []
        note_at(self, "rst directive", "converted", f"unknown directive {self.name!r}")
        return parse_body(self)


class Only(Kept):
    """``only``: the body shows in HTML output, which is what an agent stands in for
    (``directive_names.only_hidden``, the rule MyST shares)."""

    def run(self):
        hidden = only_hidden(" ".join(self.arguments))
        note_at(self, "rst only", "converted", hidden or "")
        return [] if hidden else parse_body(self)
