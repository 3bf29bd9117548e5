"""The Sphinx dialect: its Markdown is MyST (issue 26, "Formats"; MyST-Parser 5.1).

A Sphinx site's ``.rst`` goes through docutils (``read_rst``); its ``.md`` is MyST, Markdown
whose extensions are Sphinx's directives and roles in Markdown clothing. ``prepare`` turns them
into the plain Markdown the shared parser reads, with the same meanings ``read_rst`` gives their
rst forms, so a page reads the same whichever syntax its author chose: what a directive name
means is ``directive_names``' tables and what a role shows is ``role_text``'s rule, both shared
with the rst reader.

- directive fences (```` ```{note} ````, ``:::{admonition} Title``) by name: admonitions and
  tabs as labelled text, ``code-block`` as a fence, ``include``/``literalinclude`` through
  ``ctx.include``, ``toctree`` and other navigation dropped, ``eval-rst`` through docutils, any
  other name keeping its body (noted ``converted``, or ``unresolved`` when no one defines it:
  ``directive_names``);
- roles (``{ref}`text <label>```) reduced to their text, as ``rst_roles`` reduces them, a
  ``{ref}`` without a title to its section's title (``xrefs.labels``);
- ``(label)=`` targets, ``%`` comments, ``+++`` breaks and HTML comments, which a reader never
  sees, dropped; ``{{ name }}`` substitutions resolved from ``myst_substitutions`` in conf.py.

Code fences are copied untouched: Markdown-extension syntax never edits code (the contract).
"""

from __future__ import annotations

import re

from ..api import Context, Included
from ..site_reader import SiteReader
from . import pages
from ..syntax.fences import outside_inline_code
from ..syntax.markup import html_to_text, strip_html_comments
from ...parsing.blocks import ParsedDocument
from ..syntax import attributes
from ..syntax.heading_label import label_headings
from ..syntax.labels import SPHINX_ADMONITIONS, VERSION_LABELS, labelled, sphinx_title
from . import directive_names as names
from .directive_names import defined, unknown_detail
from .pages import config_notes  # noqa: F401 - what conf.py left unread, said once (read.py)
from ..syntax.containers import MAX_NESTING, myst, myst_close  # directives nest as deep as markdown-it's maxNesting
from .myst_lines import (
    autodoc_only, code_span, dedent_to, fence, options_and_content, squeeze,
    without_html_comments,
)
from .read_rst import document_folders
from .role_text import display, escaped, explicit, unescape
from .xrefs.doc_titles import LONG_TICKS

NAME = "sphinx"

_TARGET = re.compile(r"^\s*\(([^()\s]+)\)=\s*$")
_COMMENT = re.compile(r"^\s*%")
_BREAK = re.compile(r"^\s*\+\+\+")
# Used only on lines without LONG_TICKS: a backtick run bounded at 16 is the same there.
_INLINE = re.compile(r"\{([\w:.+-]+)\}(`{1,16})(.+?)\2|(`{1,16})(.+?)\4")
_SUBSTITUTION = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")

_TITLED = ("admonition", *names.TABS, "topic", "sidebar")
_CODE = ("code-block", "code", "sourcecode", "code-cell")
# What a name means is directive_names' (shared with rst); these are docutils' own directives,
# which rst reads natively and MyST by keeping their body. (``highlight`` is dropped here: it sets
# no language on a Markdown fence.)
_NATIVE_KEPT = ("figure", "epigraph", "list-table", "csv-table", "table", "math")


def prepare(text: str, ctx: Context) -> str:
    """MyST Markdown ``text`` as the Markdown the shared parser reads."""
    if "<!--" in text:
        text = without_html_comments(text)
    lines = text.split("\n")
    out = _Converter(ctx).convert(lines, 1, None, None)
    return "\n".join(squeeze(out))


class _Converter:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        _, self.doc_folder, self.source_dir = document_folders(ctx)
        config = ctx.config if isinstance(ctx.config, dict) else {}
        self.config = config
        # conf.py's myst_substitutions, then the page's own (front matter ``myst: substitutions:``).
        subs = config.get("myst_substitutions")
        self.substitutions = dict(subs) if isinstance(subs, dict) else {}
        front = getattr(ctx, "front_matter", None)
        page = front.get("myst") if isinstance(front, dict) else None
        if isinstance(page, dict) and isinstance(page.get("substitutions"), dict):
            self.substitutions.update(page["substitutions"])
        self.doc_titles: dict[str, str | None] = {}
        self.labels: dict = {}  # the site's label table, once fetched (labels.lookup)
        self.depth = 0
        self.heading = 0  # the level of the last heading read: autodoc's headings go below it
        self.module = ""  # the current module ({module}, {currentmodule}) autodoc names complete with
        role = config.get("default_role")
        self.default_role = role if isinstance(role, str) else ""

    def note(self, construct: str, outcome: str, line: int, detail: str = "") -> None:
        self.ctx.note(construct, outcome, line, detail)

    # ---- lines --------------------------------------------------------------------------
    def convert(self, lines: list[str], first: int, within: Included | None,
                at: int | None) -> list[str]:
        """``lines`` (numbered from ``first`` in the document, or all reported at the include
        line ``at``) converted; ``within`` is the include they came from."""
        out: list[str] = []
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            number = at or first + i
            opener = myst(line)
            if opener is not None:
                end = myst_close(lines, i, opener)
                body = lines[i + 1 : end]
                if opener.name is not None:
                    lead = opener.indent
                    indent = " " * len(lead)
                    shown = self.directive(opener.name, opener.title.strip(),
                                           dedent_to(body, indent), number, at, within)
                    if shown:  # a block of its own, never run into its neighbours
                        if out and out[-1].strip() and lead == indent:
                            out.append("")
                        out.append(lead + shown[0])
                        out.extend(indent + s if s else s for s in shown[1:])
                        out.append("")
                else:  # a code fence: copied exactly
                    out.extend(lines[i : end + 1])
                i = end + 1
                continue
            if _TARGET.match(line):
                self.note("myst target", "converted", number)
            elif _COMMENT.match(line):
                self.note("myst comment", "converted", number)
            elif _BREAK.match(line) or _block_attributes(line):
                self.note("myst block break", "converted", number)
            else:
                if line.startswith("#"):  # the section an autodoc directive below nests in
                    marks = len(line) - len(line.lstrip("#"))
                    if marks <= 6 and line[marks:marks + 1] in ("", " ", "\t"):
                        self.heading = marks
                out.append(self.inline(line, number))
            i += 1
        return out

    def autodoc(self, key: str, argument: str, options: dict, content: list[str], number: int) -> list[str] | None:
        """An autodoc directive read from source (``autodoc.py``), its headings under the
        section it stands in; None without API reference."""
        from .autodoc import handles, render_directive
        from ...apiref.render import shift_headings

        if not handles(key):
            return None
        rendered = render_directive(self.ctx, key, argument, options, content, self.module, number,
                                    construct="myst autodoc")
        return None if rendered is None else shift_headings(rendered, min(self.heading, 5))

    def inline(self, line: str, number: int) -> str:
        if "[](" in line:
            line = outside_inline_code(line, lambda part: _EMPTY_LINK.sub(lambda m: self.empty_link(m, number), part))
        if "{" not in line:
            return line
        if "`" in line and "}" in line:
            if LONG_TICKS in line:  # the pattern's time is cubic in such a run: the line as written
                self.note("myst role", "unresolved", number, "a run of more than 16 backticks: the line is kept as written")
            else:
                line = _INLINE.sub(lambda m: self.role(m, number), line)
        if "{{" in line:
            line = _SUBSTITUTION.sub(lambda m: self.substitute(m, number), line)
        return line

    def role(self, match: re.Match, number: int) -> str:
        if match.group(1) is None:
            return match.group(0)  # an inline code span, kept as written
        text = escaped(match.group(3))
        shown, code = display(match.group(1), text, self.config)
        local = not match.group(1).startswith("external")  # intersphinx's external+x:ref
        titled = explicit(text) is not None
        if local and match.group(1).rsplit(":", 1)[-1] == "ref" and not titled:
            return self.ref(unescape(text).strip(), shown, number)
        self.note("myst role", "converted", number)
        if local and match.group(1).rsplit(":", 1)[-1] == "doc" and not titled:
            from .xrefs.doc_titles import doc_path, doc_title, outside

            target = match.group(3).strip()
            if outside(doc_path(target, self.doc_folder, self.source_dir)):
                self.note("myst role", "unresolved", number, f"{{doc}} outside the repository, not read: {target}")
            shown = doc_title(self.ctx, match.group(3).strip(), self.doc_folder, self.source_dir,
                              self.doc_titles) or shown
        return code_span(shown) if code else shown

    def empty_link(self, match: re.Match, number: int) -> str:
        """MyST's link without text, ``[](page.md)`` or ``[](#label)``: the page shows the target's
        title (a URL shows itself)."""
        target = match.group(1)
        if "://" in target or target.startswith("mailto:"):
            return f"[{target}]({target})"
        self.note("myst link", "converted", number)
        if target.startswith("#"):
            title = self.ref(target[1:], target[1:], number)
        else:
            from .xrefs.doc_titles import doc_title

            path = target.split("#", 1)[0]
            title = (doc_title(self.ctx, path, self.doc_folder, self.source_dir, self.doc_titles) if path else None) or target
        return f"[{title}]({target})"

    def ref(self, name: str, shown: str, number: int) -> str:
        """A ``{ref}`` without a title: its section's title from the site's label table."""
        from .xrefs.labels import external, resolve

        if external(name, self.config):
            self.note("myst ref", "converted", number, f"{name}: another project's (intersphinx)")
            return shown
        return resolve(self.ctx, "myst ref", self.source_dir, name, number, self.labels) or shown

    def substitute(self, match: re.Match, number: int) -> str:
        value = self.substitutions.get(match.group(1))
        if isinstance(value, (str, int, float)):
            self.note("myst substitution", "resolved", number)
            return str(value)
        self.note("myst substitution", "unresolved", number, f"{match.group(1)} is not defined")
        return match.group(0)

    # ---- directives ---------------------------------------------------------------------
    def directive(self, name: str, argument: str, body: list[str], number: int,
                  at: int | None, within: Included | None) -> list[str]:
        """One directive as text; past MAX_NESTING levels its lines stay as they are, so a
        pathological page costs what it weighs and still loses no text."""
        if self.depth >= MAX_NESTING:
            self.note("myst directive", "unresolved", number,
                      f"directives nested deeper than {MAX_NESTING}: {name!r} kept as written")
            return body
        self.depth += 1
        try:
            return self._directive(name, argument, body, number, at, within)
        finally:
            self.depth -= 1

    def _directive(self, name: str, argument: str, body: list[str], number: int,
                   at: int | None, within: Included | None) -> list[str]:
        options, content, offset = options_and_content(body)
        key = name.lower()
        start = at or number + 1 + offset
        if key in _CODE:
            self.note("myst code-block", "converted", number)
            caption = self.inline(options["caption"], number) if options.get("caption") else ""
            return ([caption, ""] if caption else []) + fence(
                "\n".join(content), argument.split()[0] if argument else "")
        if key == "glossary":
            self.note("myst glossary", "converted", number)
            return self.glossary(content, options, start, within, at)
        if key in SPHINX_ADMONITIONS or key in _TITLED or key in VERSION_LABELS:
            return self.labelled(key, argument, content, options, number, start, at, within)
        if key in names.DROPPED or key == "highlight":
            self.note(f"myst {key}", "converted", number)
            if key.rpartition(":")[2] in ("module", "currentmodule") and argument.strip():
                self.module = "" if argument.strip() == "None" else argument.strip().split()[0]
            return []
        if names.is_autodoc(key):
            rendered = self.autodoc(key, argument, options, content, number)
            if rendered is not None:
                return rendered
            self.note("myst autodoc", "unresolved", number, names.autodoc_detail(key, argument))
            return []
        if key == "eval-rst" and autodoc_only(content) and not self.ctx.site.api_reference:
            what = " ".join(content[0][3:].replace("::", "").split())
            self.note("myst autodoc", "unresolved", number, names.autodoc_detail(what, ""))
            return []
        if key == "eval-rst" or key == "rst":
            return self.eval_rst(content, number)
        if names.is_object(key):
            self.note("myst object description", "converted", number)
            signatures = [code_span(sig) for sig in names.signatures(argument)]
            fields = [f"{label}: {self.inline(value, number)}" for label, value in names.object_fields(key, options)]
            return [*(x for sig in signatures for x in (sig, "")), *(x for f in fields for x in (f, "")),
                    *self.convert(content, start, within, at)]
        if key == "only":
            hidden = names.only_hidden(argument)
            self.note("myst only", "converted", number, hidden or "")
            return [] if hidden else self.convert(content, start, within, at)
        if key in names.CODE:
            self.note(f"myst {key}", "converted", number)
            return [] if "hide" in options or not content else fence(
                "\n".join(content), names.CODE[key])
        if key in names.ARGUMENT_TEXT:
            self.note(f"myst {key}", "converted", number)
            return [self.inline(argument, number)] if argument else []
        if key == "productionlist":
            self.note("myst productionlist", "converted", number)
            grammar = names.productions("\n".join([argument, *body]))
            return fence("\n".join(grammar), "") if grammar else []
        if key == "code-tab":
            return self.code_tab(argument, content, number)
        if key in ("include", "literalinclude"):
            return self.include(key, argument, options, number, at, within)
        if key == "raw":
            self.note("myst raw", "converted", number)
            if "html" in argument.lower():
                text = html_to_text(strip_html_comments("\n".join(content))).strip()
                return text.split("\n") if text else []
            return []
        if key in names.KEPT or key in _NATIVE_KEPT:
            self.note(f"myst {key}", "converted", number)
            if key.endswith("table"):  # its title above, a csv-table's header row first
                header = [options["header"]] if options.get("header") else []
                title = [self.inline(argument, number), ""] if argument else []
                return title + self.convert(header + content, start, within, at)
            return self.convert(content, start, within, at)
        if defined(name, self.config, _rst_names(), self.ctx) is False:
            self.note("myst directive", "unresolved", number, unknown_detail(name, bool(content)))
            return self.convert(content, start, within, at)
        if content:
            self.note("myst directive", "converted", number, f"unknown directive {name!r}")
            return self.convert(content, start, within, at)
        self.note("myst directive", "unresolved", number, f"unknown directive {name!r} has no body")
        return []

    def labelled(self, key, argument, content, options, number, start, at, within) -> list[str]:
        """"Label: first paragraph", as ``rst_nodes`` writes an admonition; noted under the
        name rst notes it by."""
        construct = key if key in VERSION_LABELS or key == "seealso" else (
            "tab" if key in names.TABS else "admonition")
        self.note(f"myst {construct}", "converted", number)
        if key in VERSION_LABELS:
            version, _, rest = argument.partition(" ")
            label = VERSION_LABELS[key].format(version)
            content = ([rest.strip(), ""] if rest.strip() else []) + content
        elif key in _TITLED:
            label = self.inline(argument, number) if argument else key.replace("-", " ").title()
        else:
            label = self.inline(options.get("title", ""), number) or sphinx_title(key)
            if argument:  # a note's first line is its content, as docutils reads it
                content = [argument, *content]
        body = self.convert(content, start, within, at)
        while body and not body[0].strip():
            body.pop(0)
        if not body:
            return [label if label.endswith((".", ":")) else f"{label}."]
        return labelled(label, "\n".join(body)).split("\n")

    def glossary(self, content, options, start, within, at) -> list[str]:
        """Sphinx's glossary entries (``directive_names.glossary_entries``) as the definition
        list rst writes: "- term: definition", or the term then the definition indented."""
        out: list[str] = []
        for terms, definition in names.glossary_entries(content, "sorted" in options):
            head = self.inline(", ".join(terms), at or start)
            body = "\n".join(squeeze(self.convert(definition, start, within, at))).strip()
            text = f"{head}: {body}" if body and "\n" not in body else f"{head}\n{body}".strip()
            lines = text.split("\n")
            out.extend([f"- {lines[0]}", *(f"  {x}".rstrip() for x in lines[1:])])
        return out

    def code_tab(self, argument: str, content: list[str], number: int) -> list[str]:
        """sphinx-tabs ``code-tab:: python [label]``: a labelled code block, as in rst."""
        self.note("myst tab", "converted", number)
        words = argument.split(None, 1)
        language = words[0] if words else ""
        label = words[1] if len(words) > 1 else language
        return [f"{label or 'Code'}:", "", *fence("\n".join(content), language)]

    def eval_rst(self, content: list[str], number: int) -> list[str]:
        """An ``eval-rst`` block through docutils, its blocks placed whole (``embedded``), or
        written back as Markdown by a context that has no place for them."""
        from ...parsing.blocks import Heading, ParseError
        from ..embedded import as_text
        from .read_rst import Scope, parse_rst

        self.note("myst eval-rst", "converted", number)
        scope = Scope(self.module, number + 1)
        try:
            doc = parse_rst("\n".join(content), self.ctx, scope)
        except ParseError as exc:
            self.note("myst eval-rst", "unresolved", number, str(exc))
            return []
        self.module = scope.module
        if not doc.blocks:
            return []
        if self.heading:
            # Under the MyST section it stands in, as the autodoc fences' headings are.
            doc = type(doc)(doc.title, [Heading(min(b.level + self.heading, 6), b.text, b.label)
                                        if isinstance(b, Heading) else b for b in doc.blocks])
        if self.ctx.embedded is not None:
            return [self.ctx.embedded.place(doc.blocks)]
        return as_text(doc.blocks).split("\n")

    def include(self, key, argument, options, number, at, within) -> list[str]:
        from .literal_include import LiteralIncludeError, between_markers, select_lines

        target, base = argument.strip(), self.doc_folder
        if target.startswith("/"):
            base, target = self.source_dir, target.lstrip("/")
        line = at or number
        included = self.ctx.include(target, base=base, line=line, construct=f"myst {key}",
                                    within=within)
        if included is None:
            return []
        if key == "literalinclude" or "literal" in options or "code" in options:
            try:
                text = select_lines(included.text, options)
            except LiteralIncludeError as exc:
                self.note(f"myst {key}", "unresolved", line, f"{included.path}: {exc}")
                return []
            language = options.get("language") or options.get("code") or ""
            caption = options.get("caption")
            return ([caption, ""] if caption else []) + fence(text, language)
        text = between_markers(included.text, options.get("start-after"), options.get("end-before"))
        if included.path.endswith(".rst"):
            return self.eval_rst(text.split("\n"), line)
        return self.convert(text.split("\n"), line, included, line)


def _rst_names():
    """The directive names the rst reader renders by a rule (docutils is loaded only here)."""
    from .rst_registry import TABLE

    return TABLE


def finish(doc: ParsedDocument, ctx) -> ParsedDocument:
    """An object an autodoc directive of a MyST page heads with its dotted path is named by its
    name in the heading path, as in an rst page (``heading_label``)."""
    label_headings(doc.blocks)
    return doc


class Reader(SiteReader):
    """sphinx's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    prepare = staticmethod(prepare)
    finish = staticmethod(finish)
    page_rule = staticmethod(pages.skip)
    config_notes = staticmethod(config_notes)


# ``[](target)``: a link whose text MyST takes from its target. One bounded class: linear.
_EMPTY_LINK = re.compile(r"(?<!!)\[\]\(([^()\s]{1,500})\)")


def _block_attributes(line: str) -> bool:
    """A MyST block attribute line (``{#id .class}``) alone: it styles the next block, shows nothing."""
    found = attributes.whole_line(line, kramdown=False, words=True) if "{" in line else None
    return found is not None and line.lstrip()[1:2] in ("#", ".")
