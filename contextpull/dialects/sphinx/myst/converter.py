"""MyST lines and inline syntax as the Markdown the shared parser reads (issue 26; the Sphinx
dialect's ``prepare``): directive fences found by the one container rule and handed to their
rules (``myst.directives``), code fences copied exactly, targets, comments, breaks and block
attributes dropped, roles reduced to what the page shows (``role_text``, the rule rst shares),
``[](target)`` links titled, ``{{ name }}`` substitutions resolved, raw HTML read as the text
its tags show.
"""

from __future__ import annotations

import re

from ...api import Context, Included
from ...syntax import attributes
from ...syntax.containers import myst, myst_close
from ...syntax.fences import outside_inline_code
from ...syntax.markup import html_to_text
from ..role_text import display, escaped, explicit, unescape
from ..rst.read import document_folders
from ..xrefs.doc_titles import LONG_TICKS
from .directives import MystDirectives
from .lines import code_span, dedent_to

_TARGET = re.compile(r"^\s*\(([^()\s]+)\)=\s*$")
_COMMENT = re.compile(r"^\s*%")
_BREAK = re.compile(r"^\s*\+\+\+")
# Used only on lines without LONG_TICKS: a backtick run bounded at 16 is the same there.
_INLINE = re.compile(r"\{([\w:.+-]+)\}(`{1,16})(.+?)\2|(`{1,16})(.+?)\4")
_SUBSTITUTION = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")
# ``[](target)``: a link whose text MyST takes from its target. One bounded class: linear.
_EMPTY_LINK = re.compile(r"(?<!!)\[\]\(([^()\s]{1,500})\)")
# CommonMark's URI autolink: a scheme of 2-32 characters, a colon, no blank or angle bracket.
_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\s]*>")

class Converter(MystDirectives):
    """One page's conversion: its substitutions, titles and labels looked up once, the
    directive depth, the last heading's level and the current module autodoc completes with."""

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
        self.objects = 0  # object descriptions whose body is being read: each heads one level lower
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

    def inline(self, line: str, number: int) -> str:
        if "<" in line or "&" in line:
            # MyST passes raw HTML through to the page, which shows the text between the tags
            # (pip's UX guide writes its lists as <ol><li><strong>): tags go, entities become
            # characters, code spans stay as written, as ``{raw} html`` and ``.. raw:: html`` read.
            # First, on the line as written: a role's text is a code span here, so its ``<label>``
            # stays, and what a role shows is never read as HTML.
            bare = _html_outside_code(line)
            if bare is not None and bare != line:
                if bare.count("<") < line.count("<"):
                    self.note("myst html", "converted", number)
                line = bare if bare.strip() else ""
        if "[](" in line:
            line = outside_inline_code(line, lambda part: _EMPTY_LINK.sub(lambda m: self.empty_link(m, number), part))
        if "`" in line and "{" in line and "}" in line:
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
            from ..xrefs.doc_titles import doc_path, doc_title, outside

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
            from ..xrefs.doc_titles import doc_title

            path = target.split("#", 1)[0]
            title = (doc_title(self.ctx, path, self.doc_folder, self.source_dir, self.doc_titles) if path else None) or target
        return f"[{title}]({target})"

    def ref(self, name: str, shown: str, number: int) -> str:
        """A ``{ref}`` without a title: its section's title from the site's label table."""
        from ..xrefs.labels import external, resolve

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



def _html_as_text(part: str) -> str:
    """``markup.html_to_text`` of prose between autolinks: ``<gh-user:name>`` and
    ``<project:page.md>`` are CommonMark autolinks (a scheme, a colon, no blank), which MyST
    resolves to links; no HTML tag name holds a colon."""
    if "<" not in part or ":" not in part:
        return html_to_text(part)
    pieces: list[str] = []
    last = 0
    for m in _AUTOLINK.finditer(part):
        pieces += (html_to_text(part[last : m.start()]), m.group(0))
        last = m.end()
    pieces.append(html_to_text(part[last:]))
    return "".join(pieces)


def _html_outside_code(line: str) -> str | None:
    """``line``'s raw HTML read as text between its code spans, found in the one pass over the
    line; None when a backtick is outside every span (a span runs over lines and starts or ends
    here): the line's part inside it cannot be told, so the line is left as written."""
    stray = False

    def as_text(part: str) -> str:
        nonlocal stray
        stray = stray or "`" in part
        return part if stray else _html_as_text(part)

    bare = outside_inline_code(line, as_text)
    return None if stray else bare


def _block_attributes(line: str) -> bool:
    """A MyST block attribute line (``{#id .class}``) alone: it styles the next block, shows nothing."""
    found = attributes.whole_line(line, kramdown=False, words=True) if "{" in line else None
    return found is not None and line.lstrip()[1:2] in ("#", ".")

