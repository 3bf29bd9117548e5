"""MyST directives by name, with the meanings ``rst.read`` gives their rst forms (issue 26):
what a name means is ``directive_names``' tables, shared with the rst reader. Admonitions and
tabs as labelled text, ``code-block`` as a fence, ``include``/``literalinclude`` through
``ctx.include``, ``toctree`` and other navigation dropped, ``eval-rst`` through docutils, autodoc
read from source (``autodoc``), any other name keeping its body (noted ``converted``, or
``unresolved`` when no one defines it).

The directive half of ``myst.converter.Converter``, which supplies ``convert``, ``inline`` and
``note``: a directive's body is converted as the page's lines are, and its lines are the page's.
"""

from __future__ import annotations

from ...api import Included
from ...syntax.containers import MAX_NESTING  # directives nest as deep as markdown-it's maxNesting
from ...syntax.labels import SPHINX_ADMONITIONS, VERSION_LABELS, sphinx_labelled, sphinx_title
from ...syntax.markup import html_to_text, strip_html_comments
from .. import directive_names as names
from ..directive_names import defined, unknown_detail
from .lines import autodoc_only, code_span, fence, options_and_content, squeeze

_TITLED = ("admonition", *names.TABS, "topic", "sidebar")
_CODE = ("code-block", "code", "sourcecode", "code-cell")
# What a name means is directive_names' (shared with rst); these are docutils' own directives,
# which rst reads natively and MyST by keeping their body. (``highlight`` is dropped here: it sets
# no language on a Markdown fence.)
_NATIVE_KEPT = ("figure", "epigraph", "list-table", "csv-table", "table", "math")


class MystDirectives:
    def autodoc(self, key: str, argument: str, options: dict, content: list[str], number: int) -> list[str] | None:
        """An autodoc directive read from source (``autodoc.py``), its headings under the
        section it stands in; None without API reference (and then the API modules are never
        imported: 12 ms)."""
        if self.ctx.reader.api_reference() is None:
            return None
        from ..autodoc import handles, render_directive
        from ....apiref.render import shift_headings

        if not handles(key):
            return None
        rendered = render_directive(self.ctx, key, argument, options, content, self.module, number,
                                    construct="myst autodoc")
        return None if rendered is None else shift_headings(rendered, min(self.heading, 5))

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
            return self.describe(key, argument, options, content, number, start, at, within)
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
        kind = names.conf_kind(key, self.ctx)
        if kind == "object":  # conf.py's add_object_type: an object description
            return self.describe(key, argument, options, content, number, start, at, within)
        if kind == "target":  # conf.py's add_crossref_type: a link target, nothing shown
            self.note("myst directive", "converted", number, f"{name!r}: a target conf.py adds")
            return []
        if defined(name, self.config, _rst_names(), self.ctx) is False:
            self.note("myst directive", "unresolved", number, unknown_detail(name, bool(content)))
            return self.convert(content, start, within, at)
        if content:
            self.note("myst directive", "converted", number, f"unknown directive {name!r}")
            return self.convert(content, start, within, at)
        self.note("myst directive", "unresolved", number, f"unknown directive {name!r} has no body")
        return []

    def describe(self, key, argument, options, content, number, start, at, within) -> list[str]:
        """An object description as ``rst.directives.Describe`` writes it: under a heading of
        its name where Sphinx's table of contents lists it, one level below the section it
        stands in (and below the object whose body holds it)."""
        self.note("myst object description", "converted", number)
        entry = names.toc_entry(key, argument, options, self.config)
        head: list[str] = []
        if entry is not None:
            name, label = entry
            level = min(max(self.heading, 1) + 1 + self.objects, 6)  # never the page's title
            head = ["#" * level + " " + name + (f' {{data-toc-label="{label}"}}' if label else ""), ""]
        signatures = [code_span(sig) for sig in names.signatures(argument) if entry is None or sig != entry[0]]
        fields = [f"{label}: {self.inline(value, number)}" for label, value in names.object_fields(key, options)]
        self.objects += entry is not None
        try:
            body = self.convert(content, start, within, at)
        finally:
            self.objects -= entry is not None
        extensions = self.config.get("myst_enable_extensions")
        if names.has_info_fields(key) and isinstance(extensions, (list, tuple, set)) and "fieldlist" in extensions:
            body = _info_fields(body)
        return [*head, *(x for sig in signatures for x in (sig, "")), *(x for f in fields for x in (f, "")), *body]

    def labelled(self, key, argument, content, options, number, start, at, within) -> list[str]:
        """"Label: first paragraph", as ``rst.doctree`` writes an admonition; noted under the
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
        return sphinx_labelled(label, self.convert(content, start, within, at))

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
        from ....parsing.blocks import Heading, ParseError
        from ...embedded import as_text
        from ..rst.read import Scope, parse_rst

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
        from ..literal_include import LiteralIncludeError, between_markers, select_lines

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
    from ..rst.registry import TABLE

    return TABLE


def _field_head(line: str) -> tuple[str, str] | None:
    """``:param int x: text`` (MyST's ``fieldlist``; the name may hold spaces) as (name, text)."""
    if not line.startswith(":"):
        return None
    end = line.find(":", 1)
    if end <= 1 or (end + 1 < len(line) and not line[end + 1].isspace()):
        return None
    return line[1:end], line[end + 1 :].strip()


def _info_fields(body: list[str]) -> list[str]:
    """A Python object's field lists (each field a ``:name: text`` line, its indented lines and
    the blank lines between them) grouped as the page shows them, the rule rst's object bodies
    read by (``directive_names.info_fields``)."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        if (i and body[i - 1].strip()) or _field_head(body[i]) is None:
            out.append(body[i])
            i += 1
            continue
        fields = []
        while i < n and (head := _field_head(body[i])) is not None:
            lines, i = [head[1]], i + 1
            while i < n and (body[i][:1] in (" ", "\t") or (not body[i].strip() and i + 1 < n and body[i + 1][:1] in (" ", "\t"))):
                lines.append(body[i].strip())
                i += 1
            fields.append((head[0], "\n".join(lines).strip()))
        for block in names.info_fields(fields):
            out += [*block.split("\n"), ""]
    return out
