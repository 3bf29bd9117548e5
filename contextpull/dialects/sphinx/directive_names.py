"""Which directive names a Sphinx project defines, so one nobody defines is named (issue 26, "A
construct report" and "Bad input": unknown directives).

Sphinx stops at a directive no one registered ("Unknown directive type"): the page shows an
error there, not the directive's rendering. A name is defined by docutils, by Sphinx itself (its
domains included), by an extension listed in ``conf.py``'s ``extensions`` (read as data; no
extension is imported, so what each one registers is written here), or by ``conf.py``'s own
``setup(app)`` (``app.add_directive("name", ...)``, found in its text). When ``conf.py`` lists an
extension this table does not know, or registers a directive under a computed name, any name may
be defined, and none is called unknown (``defined`` answers None): a real project's own
directives must not be reported as mistakes.

What a name means on the page lives here too, once for both syntaxes, so that a directive reads
the same in a ``.rst`` page and in a MyST ``.md`` page of one site (issue 26, "Markup to
meaning"): the names whose output is not on the page (``DROPPED``), the generated API text
(``AUTODOC``), object descriptions (``is_object``), containers whose body is the page text
(``KEPT``), the version notes' labels, the ``only`` rule and a glossary's entries. ``rst.registry`` maps them to
docutils stand-ins, the MyST reader (``dialect``) to Markdown; this module loads without docutils.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from ...apiref.docstrings import list_item, type_text


# Navigation, index entries, metadata, diagrams and set-up code: nothing of them is on the page.
DROPPED = frozenset((
    "toctree", "index", "currentmodule", "module", "py:module", "py:currentmodule",
    "default-domain", "sectionauthor", "moduleauthor", "codeauthor", "tabularcolumns",
    "contents", "sectnum", "section-numbering", "header", "footer", "meta", "title",
    "target-notes", "program", "spelling:word-list", "spelling", "todolist",
    "graphviz", "graph", "digraph", "inheritance-diagram", "uml", "plantuml", "mermaid",
    "testsetup", "testcleanup", "toc", "include-toc", "tableofcontents", "image",
    "figure-placeholder", "ifconfig-hidden", "role-hidden",
    # Sphinx shows a todo only with todo_include_todos, off by default.
    "todo",
))
# Text generated from imported code (autodoc and the extensions built like it): the build imports
# nothing, so the page's text is not there to read. Each also under ``py:``.
AUTODOC = frozenset((
    "automodule", "autoclass", "autoexception", "autofunction", "automethod", "autoattribute",
    "autodata", "autoproperty", "autodecorator", "autonewtypedata", "autonewvarattribute",
    "autosummary", "autoflask", "click", "argparse", "autoprogram", "autoenum",
    "autopydantic_model", "autopydantic_settings", "autopydantic_field", "automodapi",
    "automodsumm",
    # pallets-sphinx-themes: the terminal output of running the example above it.
    "click:run",
))
# Object descriptions: the page shows the signature, then the body. Each also under a domain.
OBJECTS = frozenset((
    "function", "class", "method", "staticmethod", "classmethod", "attribute", "data",
    "exception", "decorator", "decoratormethod", "property", "type", "envvar", "describe",
    "object", "option", "cmdoption", "confval", "setting", "event", "opcode", "pdbcommand",
    "2to3fixer", "rst:directive", "rst:role", "rst:directive:option", "module-attribute",
    "macro", "member", "var", "struct", "union", "enum", "enumerator", "namespace", "concept",
    "fixture",
))
OBJECT_DOMAINS = ("py", "c", "cpp", "js", "std", "rst")
# Containers whose body is what the page shows, the directive itself adding nothing one reads.
KEPT = frozenset((
    "hlist", "tabs", "tab-set", "grid", "grid-item", "grid-item-card",
    "ifconfig", "rst-class", "cssclass", "container", "div", "tab-set-code", "margin",
))
# A tab (sphinx-tabs, sphinx-design) and its kin: its label, then its body, noted as a tab.
TABS = frozenset(("tab", "group-tab", "tab-item", "dropdown", "card"))
# Code the page shows in a block of this language: sphinx.ext.doctest's directives (a ``:hide:``
# one shows nothing), and pallets-sphinx-themes' ``click:example`` (Click's and Flask's docs).
CODE = {"doctest": "pycon", "testcode": "python", "testoutput": "text", "click:example": "python"}
# Directives whose argument is their text on the page.
ARGUMENT_TEXT = frozenset(("centered", "rubric"))
# Sphinx's HTML builder sets these tags; ``only`` shows its body when its expression holds.
_HTML_TAGS = frozenset(("html", "format_html", "builder_html"))


def is_autodoc(name: str) -> bool:
    key = name.lower()
    return key in AUTODOC or (key.startswith("py:") and key[3:] in AUTODOC)


def is_object(name: str) -> bool:
    """``py:function``, ``envvar``, ``rst:directive:option``: an object description."""
    key = name.lower()
    domain, _, base = key.partition(":")
    return key in OBJECTS or (domain in OBJECT_DOMAINS and base in OBJECTS)


def object_fields(name: str, options: dict) -> list[tuple[str, str]]:
    """The fields an object description shows under its signature, (label, value as written):
    a ``confval``'s ``:type:`` and ``:default:`` (Sphinx 7.4), "Type" and "Default". Each
    syntax reads the value's inline markup its own way."""
    if name.lower().rpartition(":")[2] != "confval":
        return []
    out = []
    for key, label in (("type", "Type"), ("default", "Default")):
        value = options.get(key)
        if isinstance(value, str) and value.strip():
            out.append((label, " ".join(value.split())))
    return out



# Sphinx's info fields in a Python object's body (``PyObject.doc_field_types``): a field's name
# -> the label of the group the page shows it in, and how its argument reads: "typed" (a name,
# its type from ``:type name:`` or written before it, ``:param bool x:``), "grouped" (an
# exception), "single" (no argument). The page shows "Parameters: x (bool) – ...", never
# ":param bool x:"; aiohttp's hand-written reference holds hundreds.
_INFO = {name: (label, kind) for names, label, kind in (
    ("param parameter arg argument keyword kwarg kwparam", "Parameters", "typed"),
    ("var ivar cvar", "Variables", "typed"),
    ("raises raise exception except", "Raises", "grouped"),
    ("returns return", "Returns", "single"),
    ("rtype", "Return type", "single"),
) for name in names.split()}
_TYPES = {"type": "Parameters", "paramtype": "Parameters", "vartype": "Variables"}
_PY_OBJECTS = frozenset(("function", "class", "method", "staticmethod", "classmethod", "attribute",
                         "data", "exception", "decorator", "decoratormethod", "property", "type"))


def has_info_fields(name: str) -> bool:
    """Whether Sphinx groups the field lists of this object description's body (the Python
    domain's objects, ``py:`` or the default domain's); other domains' fields stay as written."""
    domain, _, base = name.lower().rpartition(":")
    return domain == "py" or (not domain and base in _PY_OBJECTS)


def info_fields(fields: list[tuple[str, str]]) -> list[str]:
    """The blocks (Markdown, each a paragraph or a list) an object body's field list shows, as
    Sphinx's ``DocFieldTransformer`` groups it: (field name as written, its body as text) in,
    groups in order of first appearance; a field it does not know is capitalised, on its own."""
    groups: dict[str, list] = {}
    types: dict[str, dict[str, str]] = {}
    for written, body in fields:
        kind_name, _, arg = " ".join(written.split()).partition(" ")
        if kind_name == "meta":  # autodoc's visibility switch: Sphinx removes it
            continue
        if kind_name in _TYPES and arg:
            types.setdefault(_TYPES[kind_name], {})[arg] = body
            continue
        label, kind = _INFO.get(kind_name, ("", ""))
        if not label or (kind == "single") == bool(arg):
            label, kind = (kind_name[:1].upper() + kind_name[1:] + (f" {arg}" if arg else "")), "single"
        elif kind == "typed" and " " in arg:
            typ, arg = arg.rsplit(" ", 1)
            types.setdefault(label, {})[arg] = typ
        groups.setdefault(label, [kind]).append((arg, body))
    out = []
    for label, (kind, *items) in groups.items():
        if kind == "single":
            out += [f"**{label}:** {type_text(body) if label == 'Return type' else body}".rstrip() for _, body in items]
            continue
        lines = []
        for arg, body in items:
            typ = type_text(types.get(label, {}).get(arg, "")) if kind == "typed" else ""
            arg = type_text(arg) if kind == "grouped" else arg
            lines.append(list_item(arg, typ, "", body))
        out += [f"**{label}:**", "\n".join(lines)]
    return out

# The domains whose signatures do not start with the object's name (``int area(int w)``).
UNNAMED_DOMAINS = ("c", "cpp")
# The object's name at the start of its first signature: up to its arguments, type or value.
_OBJECT_NAME = re.compile(r"[^\s(\[:=,<]{1,300}")


def toc_entry(name: str, argument: str, options: dict, config: dict) -> tuple[str, str | None] | None:
    """The heading an object description stands under: (its name as written, its last dotted part
    when that differs, the name the table of contents shows by), or None for none.

    Sphinx (5.2 on) lists the Python and JavaScript domains' objects in the page's table of
    contents, nested in their section, unless conf.py sets ``toc_object_entries = False`` or the
    directive ``:no-contents-entry:``. The other domains' objects are headed alike: each is an
    entry of its own on the page, and one left without a heading would read as part of the
    object above it. C and C++ signatures do not start with the name, so they stay unheaded."""
    if config.get("toc_object_entries") is False or "no-contents-entry" in options or "nocontentsentry" in options:
        return None
    domain = name.lower().partition(":")[0] if ":" in name else config.get("primary_domain", "py")
    if domain in UNNAMED_DOMAINS:
        return None
    first = signatures(argument)[:1]
    sig = first[0].removeprefix("..").strip().removesuffix("::") if first else ""
    found = _OBJECT_NAME.match(sig.strip())
    if found is None:
        return None
    written = found.group(0)
    short = written.rpartition(".")[2]
    return written, (short if short and short != written else None)


def signatures(argument: str) -> list[str]:
    """An object description's signatures, one a line, as the page shows them (a line's
    trailing backslash only continues the argument in rst)."""
    return [sig for line in argument.split("\n") if (sig := line.strip().rstrip("\\").strip())]


def productions(argument: str) -> list[str]:
    """A ``productionlist``'s productions, one a line (the whole list is its argument)."""
    return [line.strip() for line in argument.split("\n") if line.strip()]


def glossary_entries(lines: list[str], sort: bool = False) -> list[tuple[list[str], list[str]]]:
    """A ``glossary``'s entries, as Sphinx reads its body: lines at the body's left edge are
    terms (several in a row name one entry), the indented lines after them its definition
    (dedented); ``:sorted:`` orders the entries by their first term."""
    entries: list[tuple[list[str], list[str]]] = []
    after_blank = True
    for line in lines:
        if not line.strip():
            if entries and entries[-1][1]:
                entries[-1][1].append("")
            after_blank = True
            continue
        if line[0] not in " \t":
            if not line.startswith(".."):  # a comment
                if entries and not entries[-1][1] and not after_blank:
                    entries[-1][0].append(line.strip())
                else:
                    entries.append(([line.strip()], []))
        elif entries:
            entries[-1][1].append(line)
        after_blank = False
    out = []
    for terms, definition in entries:
        while definition and not definition[-1].strip():
            definition.pop()
        indent = min((len(x) - len(x.lstrip()) for x in definition if x.strip()), default=0)
        out.append((terms, [x[indent:] for x in definition]))
    if sort:
        out.sort(key=lambda entry: unicodedata.normalize("NFD", entry[0][0].lower()))
    return out


def autodoc_detail(name: str, target: str) -> str:
    return f"{name} {target}".strip() + ": generated from code, which is never imported"


def only_hidden(expression: str) -> str | None:
    """Why an ``only`` body is not on the HTML page, or None when it is. Sphinx evaluates the
    expression over the builder's tags; the tags a project sets itself (``-t``, ``tags.add``)
    are not known here, so only an expression naming no HTML tag and no ``not`` is taken to
    leave the body out, and any other is shown."""
    words = re.findall(r"[\w-]+", expression)
    names = set(words) - {"and", "or", "not"}
    if names and "not" not in words and not names & _HTML_TAGS:
        return f"not in HTML output: {expression}"
    return None


# Sphinx's own directives that are neither docutils' nor stood in for by ``rst.registry``.
SPHINX = frozenset((
    "acks", "centered", "hlist", "deprecated", "versionadded", "versionchanged", "versionremoved",
    "version-added", "version-changed", "version-deprecated", "version-removed",
    "seealso", "only", "index", "toctree", "glossary", "productionlist", "tabularcolumns",
    "literalinclude", "code-block", "sourcecode", "highlight", "sectionauthor", "moduleauthor",
    "codeauthor", "default-domain", "describe", "object", "program", "option", "envvar",
    "cmdoption", "confval", "rst-class", "module", "currentmodule", "function", "class", "method",
    "classmethod", "staticmethod", "attribute", "data", "exception", "decorator",
    "decoratormethod", "property", "type",
))
# Sphinx's domains: every ``domain:name`` directive is theirs to define.
DOMAINS = ("py", "c", "cpp", "js", "rst", "std", "math")

# Extension (as conf.py lists it) -> the directives it registers; an empty set for one that
# registers none (roles, themes, builders).
EXTENSIONS: dict[str, frozenset[str]] = {name: frozenset(names.split()) for name, names in {
    "sphinx.ext.autodoc": "automodule autoclass autoexception autofunction automethod autoattribute"
                          " autodata autoproperty autodecorator autonewtypedata autonewvarattribute",
    "sphinx.ext.autosummary": "autosummary",
    "sphinx.ext.doctest": "testsetup testcleanup doctest testcode testoutput",
    "sphinx.ext.graphviz": "graphviz graph digraph",
    "sphinx.ext.ifconfig": "ifconfig",
    "sphinx.ext.inheritance_diagram": "inheritance-diagram",
    "sphinx.ext.todo": "todo todolist",
    "sphinx.ext.extlinks": "", "sphinx.ext.intersphinx": "", "sphinx.ext.napoleon": "",
    "sphinx.ext.viewcode": "", "sphinx.ext.githubpages": "", "sphinx.ext.coverage": "",
    "sphinx.ext.duration": "", "sphinx.ext.mathjax": "", "sphinx.ext.imgmath": "",
    "sphinx.ext.autosectionlabel": "", "sphinx.ext.linkcode": "", "sphinx.ext.imgconverter": "",
    "sphinx_tabs.tabs": "tabs tab group-tab code-tab",
    "sphinx_design": "tab-set tab-item tab-set-code grid grid-item grid-item-card card"
                     " card-carousel dropdown button-link button-ref article-info div",
    "sphinx_inline_tabs": "tab",
    "sphinx_panels": "panels tabbed link-button dropdown",
    "sphinx_togglebutton": "toggle",
    "sphinxcontrib.mermaid": "mermaid",
    "sphinxcontrib.plantuml": "uml",
    "sphinxcontrib.programoutput": "program-output command-output",
    "sphinxcontrib.bibtex": "bibliography footbibliography",
    "sphinxcontrib.youtube": "youtube vimeo",
    "sphinx_click": "click", "sphinx_click.ext": "click",
    "sphinxarg.ext": "argparse",
    "matplotlib.sphinxext.plot_directive": "plot",
    "IPython.sphinxext.ipython_directive": "ipython",
    "jupyter_sphinx": "jupyter-execute jupyter-kernel jupyter-download-notebook",
    "pallets_sphinx_themes": "click:example click:run",
    "sphinxcontrib.log_cabinet": "", "sphinx_copybutton": "", "sphinxext.opengraph": "",
    "sphinx_issues": "", "notfound.extension": "", "sphinx_rtd_theme": "", "furo": "",
    "sphinxcontrib.jquery": "", "sphinx_autodoc_typehints": "", "myst_parser": "",
    "sphinx_sitemap": "", "sphinx_reredirects": "", "sphinxcontrib.spelling": "spelling:word-list",
}.items()}


# conf.py's own ``setup(app)`` registering a directive: ``app.add_directive("name", ...)``,
# ``add_directive_to_domain("py", "name", ...)``, docutils' ``register_directive("name", ...)``.
_REGISTERS = re.compile(
    r"\b(?:add_directive|register_directive)\s*\(\s*(?:(['\"])([^'\"]+)\1|(\S))"
    r"|\badd_directive_to_domain\s*\(\s*(['\"])(\w+)\4\s*,\s*(?:(['\"])([^'\"]+)\6|(\S))"
)


def defined(name: str, config: dict, known: Collection[str] = (), ctx=None) -> bool | None:
    """Whether Sphinx would know directive ``name`` in a project configured by ``config``:
    True, False, or None when a listed extension may define names this table does not know.
    ``known``: names the caller renders by a rule of its own (``rst.registry.TABLE``); ``ctx``:
    the page's context, through which ``conf.py`` is read for the directives its own ``setup``
    registers (read as text, never run)."""
    from docutils.parsers.rst import directives

    key = name.lower()
    domain, _, _ = key.rpartition(":")
    if key in known or key in SPHINX or key in directives._directive_registry or domain in DOMAINS:
        return True
    registered, complete = conf_directives(ctx) if ctx is not None else (frozenset(), True)
    if key in registered:
        return True
    listed = config.get("extensions") if isinstance(config, dict) else None
    for extension in listed if isinstance(listed, list) else []:
        names = EXTENSIONS.get(extension) if isinstance(extension, str) else frozenset()
        if names is None:
            complete = False
        elif key in names:
            return True
    return False if complete else None


def conf_directives(ctx) -> tuple[frozenset[str], bool]:
    """The directive names ``conf.py`` registers itself, and False when one of its registrations
    names a directive by something other than a literal. Found once per build in the one read
    of conf.py the build's reader makes (every page depends on the file already, so a page of a
    thousand unknown directives reads nothing for them)."""
    names, complete, _ = _conf_registrations(ctx)
    return names, complete


# conf.py's ``app.add_object_type("globalvar", ...)`` (a directive describing an object: its
# name as the signature, then its body) and ``app.add_crossref_type(directivename="hook", ...)``
# (a directive that only makes a link target: nothing on the page), as pytest's conf.py has them.
_CONF_TYPES = re.compile(r"\badd_(object|crossref)_type\s*\(\s*(?:directivename\s*=\s*)?(['\"])([^'\"\n]{1,100})\2")


def conf_kind(name: str, ctx) -> str | None:
    """"object" or "target" for a directive ``conf.py``'s own setup adds by
    ``add_object_type`` or ``add_crossref_type``; None for any other name."""
    return _conf_registrations(ctx)[2].get(name.lower())


def _conf_registrations(ctx) -> tuple[frozenset[str], bool, dict[str, str]]:
    """What ``conf.py``'s own setup registers, read once per build from the reader's one read of
    the file: (directive names, whether every name was a literal, {object type: its kind})."""
    path = ctx.site.config_file
    if not path or not path.endswith("conf.py"):
        return frozenset(), True, {}
    return ctx.reader.once((__name__, "conf"), lambda: _registered(ctx.reader.config_text))


def _registered(text: str) -> tuple[frozenset[str], bool, dict[str, str]]:
    names: set[str] = set()
    complete = True
    for m in _REGISTERS.finditer(text):
        if m.group(3) is not None or m.group(8) is not None:
            complete = False
        elif m.group(2) is not None:
            names.add(m.group(2).lower())
        elif m.group(7) is not None:
            names.update({m.group(7).lower(), f"{m.group(5)}:{m.group(7)}".lower()})
    kinds = {m.group(3).lower(): "object" if m.group(1) == "object" else "target" for m in _CONF_TYPES.finditer(text)}
    return frozenset(names | set(kinds)), complete, kinds


def unknown_detail(name: str, kept: bool) -> str:
    """What the report says of a directive nobody defines, and what the store holds of it."""
    return (f"unknown directive {name!r}: not defined by docutils, Sphinx or a configured extension,"
            f" {'its body kept' if kept else 'nothing kept'}")
