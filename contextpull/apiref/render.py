"""Objects read from source as the Markdown of the API page that shows them (issue 37).

One heading per object (the root's dotted path, each member's name under it; the root is named by
its name in the table of contents, so a heading path reads ``FastAPI > get``), its signature as a ``python`` code block, its bases, its docstring's
sections (``docstrings``), then its members, one level down, chosen and ordered as the options say
(``options``). The Markdown goes back into the page the ``:::`` line or autodoc directive stood
in, so it is sectioned, searched and fingerprinted with the rest of the page.

Every object that cannot be shown (not in the repository's source, a syntax error in its module,
an alias cycle, a limit reached) is an ``unresolved`` note with the page's line; what could be
rendered before it stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .docstrings import closing, meta_visibility, sections, summary
from .inheritance import bases_line, gap_note, gaps, missing_note
from .limits import LimitReached
from .options import Options, nested
from .signature import attribute_signature, class_signature, function_signature, written_signature
from .typehints import DescriptionTypes
from .sources import PageSession, Unresolved


def _identity(text: str) -> str:
    return text


class Renderer:
    """One ``:::`` line's or directive's rendering on one page."""

    def __init__(self, session: PageSession, options: Options, construct: str, line: int,
                 text: Callable[[str], str] | None = None) -> None:
        self.session = session
        self.options = options
        self.construct = construct
        self.line = line
        self.text = text or _identity
        self.out: list[str] = []
        self.objects = 0
        self.unresolved = 0
        self.gaps: list[tuple[str, list[str]]] = []  # (class, bases outside the repository)

    def note(self, outcome: str, detail: str) -> None:
        if outcome == "unresolved":
            self.unresolved += 1
        self.session.ctx.note(self.construct, outcome, self.line, detail)

    def root(self, path: str) -> list[str]:
        """The Markdown for the object at ``path``; notes made for what is left out."""
        import griffe  # loaded already: the session's modules are griffe's

        for problem in self.options.problems:
            self.note("unresolved", problem)
        try:
            obj = self.session.find(path)
            shown = path if self.options.show_root_full_path else obj.name
            self.obj(obj, self.options, self.options.heading_level, shown, root=True)
        except Unresolved as exc:
            self.note("unresolved", str(exc))
        except LimitReached as exc:
            self.note("unresolved", f"{path}: {exc}; what was rendered before it is kept")
        except (griffe.AliasResolutionError, griffe.CyclicAliasError) as exc:
            # An alias griffe follows by itself, past ``session.target``: this object's note,
            # never the page's reading lost with it. Its message names the module's absolute
            # path, which no store holds (a store is the same wherever it was built).
            alias = getattr(exc, "alias", None)
            where = f" ({alias.path} -> {alias.target_path})" if alias is not None else ""
            self.note("unresolved", f"{path}: an import alias griffe could not follow{where};"
                                    " what was rendered before it is kept")
        if self.gaps:
            self.note("unresolved", gap_note(self.gaps))
        if self.objects:
            self.note("resolved", f"{path}: {self.objects} objects from source")
        return self.out

    def obj(self, obj, options: Options, level: int, shown: str, *, root: bool = False) -> None:
        self.session.budget.object(obj.path)
        self.objects += 1
        heading = not root or options.show_root_heading
        if heading:
            # A dotted path is headed as the site shows it and named in its table of contents,
            # and so in the heading path, by the object's name (``syntax/heading_label``).
            label = f' {{ data-toc-label="{obj.name}" }}' if shown != obj.name and '"' not in obj.name else ""
            self.out += [f"{'#' * min(level, 6)} {shown}{label}", ""]
        elif options.show_root_toc_entry:
            # mkdocstrings heads a root it does not show with a hidden heading at the root's
            # level: the page's table of contents still names the object, and the object's own
            # text is that entry's (its members follow at the same level). The store keeps the
            # entry as a heading, so the heading path names the object as the contents do
            # (``TypeAdapter > TypeAdapter``, the page's title, then its first entry).
            self.out += [f"{'#' * min(level, 6)} {obj.name}", ""]
        init = self._init(obj, options)
        signature = self._signature(obj, options, init) if options.signature is None else \
            written_signature(obj, options.signature)
        if root and not heading and not options.separate_signature:
            signature = ""  # mkdocstrings writes it in the heading, which is not shown
        if signature:
            self.out += ["```python", signature, "```", ""]
        bases = bases_line(obj, options) if obj.is_class and options.show_bases else ""
        if bases:
            self.out += [bases, ""]
        below = level + 1 if heading else level
        shows_own = not obj.is_class or "class" in options.class_docstrings
        typed = obj if obj.is_function else init
        types = None
        if options.description_types and typed is not None:
            raw = " ".join(o.docstring.value for o in (obj, init) if o is not None and o.docstring is not None)
            types = DescriptionTypes(typed, options.description_types, is_class=obj.is_class, raw=raw)
        doc = sections(obj, options.docstring_style, self.text, options.unwrap_annotated, options.docstring_options,
                       options.meta_fields, description_types=types) if shows_own else []
        if init is not None and "init" in options.class_docstrings:
            # An ``__init__`` without a docstring still shows its ``Doc()`` parameters: that is
            # how FastAPI documents every argument of ``FastAPI`` and ``HTTPException``.
            doc += sections(init, options.docstring_style, self.text, options.unwrap_annotated, options.docstring_options,
                            options.meta_fields, description_types=types)
        if types is not None:
            doc += closing(types)
        self.out += shift_headings("\n".join(doc).split("\n"), below - 1)
        if options.members is False or not (obj.is_class or obj.is_module):
            return
        for name, member in self.members(obj, options):
            self.obj(member, nested(options), below, name)

    def _init(self, obj, options: Options):
        if not (obj.is_class and options.merge_init_into_class):
            return None
        init = obj.members.get("__init__")
        try:
            init = self.session.target(init) if init is not None else None
        except Unresolved:
            return None
        return init if init is not None and init.is_function else None

    def _signature(self, obj, options: Options, init) -> str:
        unwrap = options.unwrap_annotated
        merge = options.generator == "sphinx"
        typed = options.signature_annotations
        if obj.is_function:
            return function_signature(obj, unwrap, overloads=options.overloads, merge_defaults=merge, annotations=typed)
        if obj.is_class:
            return class_signature(obj, unwrap, init, overloads=options.overloads, merge_defaults=merge, annotations=typed)
        if obj.is_attribute:
            return attribute_signature(obj, unwrap, options.attribute_annotations)
        return ""

    def members(self, obj, options: Options) -> list[tuple[str, object]]:
        """(name, object) of the members shown, in the order shown; aliases followed."""
        candidates = dict(obj.members)
        if obj.is_class and options.inherited_members:
            for name, member in self.session.inherited(obj).items():
                if isinstance(options.inherited_members, list) and name not in options.inherited_members:
                    continue
                candidates.setdefault(name, member)
        if obj.is_class and options.merge_init_into_class:
            candidates.pop("__init__", None)
        chosen = options.members if isinstance(options.members, list) else None
        exports = obj.exports if obj.is_module else None
        exported = {str(e).rsplit(".", 1)[-1] for e in exports} if exports else None
        if chosen is None and options.generator == "sphinx" and exported is not None:
            chosen = [n for n in exported if n in candidates]
        picked = []
        for name, member in candidates.items():
            if chosen is not None:
                if name not in chosen:
                    continue
            else:
                if name in options.exclude or not self._passes(name, options, member):
                    continue
                inherited = member.is_alias and getattr(member, "inherited", False)
                if member.is_alias and not inherited and not (options.imported_members or (exported and name in exported)):
                    continue
            if member.is_alias or member.is_module:
                # ``is_alias`` first: an alias's ``is_module`` asks griffe for its target, which
                # fails while the module it names is not loaded yet (``textual.on`` from the
                # private ``textual._on``); ``session.target`` below loads it.
                if not member.is_alias and member.is_module and not options.show_submodules and chosen is None:
                    continue
                try:
                    member = self.session.target(member)
                except Unresolved as exc:
                    self.note("unresolved", str(exc))
                    continue
            if member.is_module and not options.show_submodules and (chosen is None or name not in chosen):
                continue
            if chosen is None and not options.show_if_no_docstring and not _documented(member):
                continue
            picked.append((name, member))
        inherits = obj.is_class and bool(options.inherited_members)
        missing = [n for n in chosen if n not in candidates] if chosen is not None else []
        if missing:
            outside = self.session.outside_bases(obj) if inherits else []
            self.note("unresolved", missing_note(obj, missing, outside, inherits))
        elif inherits and chosen is None and obj.path not in self.session.gaps and (
                options.inherited_members is True or any(n not in candidates for n in options.inherited_members)):
            found = gaps(self.session, obj, options)
            if found:
                self.session.gaps.add(obj.path)
                self.gaps.append((obj.path, found))
        listed = chosen if options.generator == "mkdocs" else None  # autodoc sorts a list too
        return sorted(picked, key=_order_key(options.members_order, options.group_by_category, listed))

    def _passes(self, name: str, options: Options, member=None) -> bool:
        """Whether the filters keep ``name``; under Sphinx a ``:meta private:`` or ``:meta
        public:`` field in the member's docstring makes it private or public, as autodoc reads
        it, whatever its name."""
        if options.meta_fields and member is not None:
            meta = meta_visibility(member)
            if meta is not None:
                name = ("_" if meta == "private" else "") + name.lstrip("_")
        keep = True
        for pattern, wanted in options.filters:
            if re.search(pattern, name):
                keep = wanted
        return keep


def shift_headings(lines: list[str], by: int) -> list[str]:
    """A docstring's own headings moved under its object's (mkdocstrings shifts them alike), so
    ``## Example`` in ``FastAPI``'s docstring is a part of ``FastAPI``, not a sibling of it.
    Fenced code is left as it is."""
    if by <= 0:
        return lines
    out, fence = [], ""
    for line in lines:
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = ""
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        elif line.startswith("#"):
            marks = len(line) - len(line.lstrip("#"))
            if marks <= 6 and (len(line) == marks or line[marks] in " \t"):
                line = "#" * min(marks + by, 6) + line[marks:]
        out.append(line)
    return out


def _documented(obj) -> bool:
    try:
        return bool(obj.has_docstrings if (obj.is_class or obj.is_module) else obj.has_docstring)
    except Exception:  # noqa: BLE001 - an alias griffe cannot follow inside
        return bool(obj.docstring)


_CATEGORY = {"attribute": 0, "class": 1, "function": 2, "module": 3}


def _order_key(order: str, grouped: bool, listed: list[str] | None = None):
    """Members in the order the site shows them: by source line or by name, and (mkdocstrings'
    ``group_by_category``, on by default) attributes, then classes, functions, modules. A
    mkdocstrings ``members`` list is shown in its own order, whatever ``members_order`` says
    (the handler's ``do_order_members``), still grouped by category: FastAPI's page lists
    ``openapi``, ``websocket``, ``include_router``, ``frontend`` so, not as its source has them."""
    index = {name: i for i, name in enumerate(listed)} if listed else None

    def key(item):
        name, obj = item
        group = _CATEGORY.get(obj.kind.value, 4) if grouped else 0
        if index is not None:
            return (group, index.get(name, len(index)), name)
        return (group, obj.lineno or 0, name) if order == "source" else (group, name)
    return key


def autosummary(session: PageSession, names: list[str], module: str, options: Options,
                construct: str, line: int, text: Callable[[str], str] | None = None) -> list[str]:
    """An ``autosummary`` table: each name (relative to the current module) and the first
    line of its docstring, as Sphinx lays it out."""
    text = text or _identity
    rows = []
    renderer = Renderer(session, options, construct, line, text)
    for name in names:
        path = f"{module}.{name}" if module and not name.startswith(module + ".") else name
        try:
            obj = session.find(path)
        except (Unresolved, LimitReached) as exc:
            renderer.note("unresolved", str(exc))
            rows.append((name, ""))
            continue
        signature = ""
        if obj.is_function:
            signature = "(" + ", ".join(p.name for p in obj.parameters if p.name not in ("self", "cls")) + ")"
        rows.append((name + signature, summary(obj, options.docstring_style, text)))
    if not rows:
        return []
    if any(s for _, s in rows):
        renderer.note("resolved", f"autosummary of {len(rows)} objects from source")
    cell = lambda s: s.replace("|", "\\|")  # noqa: E731
    return ["| Name | Summary |", "| --- | --- |", *(f"| `{cell(n)}` | {cell(s)} |" for n, s in rows), ""]
