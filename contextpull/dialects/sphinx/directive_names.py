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

The version notes' labels live here too: both syntaxes render them, and this module is the one
table of directive names the MyST reader loads without docutils.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection

# A version note as Sphinx renders its label, in both syntaxes ("Added in version 2.0: ...").
VERSION_LABELS = {
    "versionadded": "Added in version {}",
    "versionchanged": "Changed in version {}",
    "deprecated": "Deprecated since version {}",
    "versionremoved": "Removed in version {}",
}

# Sphinx's own directives that are neither docutils' nor stood in for by ``rst_registry``.
SPHINX = frozenset((
    "acks", "centered", "hlist", "deprecated", "versionadded", "versionchanged", "versionremoved",
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
_CONF: dict[str, tuple[frozenset[str], bool]] = {}  # sha256 of conf.py -> what it registers


def defined(name: str, config: dict, known: Collection[str] = (), ctx=None) -> bool | None:
    """Whether Sphinx would know directive ``name`` in a project configured by ``config``:
    True, False, or None when a listed extension may define names this table does not know.
    ``known``: names the caller renders by a rule of its own (``rst_registry.TABLE``); ``ctx``:
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
    names a directive by something other than a literal. conf.py is a dependency of the page,
    read once per page (a page of a thousand unknown directives must not spend its read budget)
    and parsed once per process and content."""
    path = ctx.site.config_file
    if not path or not path.endswith("conf.py"):
        return frozenset(), True
    deps = getattr(ctx, "deps", None)
    sha = deps.get(path) if isinstance(deps, dict) else None
    if sha not in _CONF:
        data = ctx.read_data(path)
        if data is None:
            return frozenset(), True
        sha = hashlib.sha256(data).hexdigest()
        if sha not in _CONF:
            _CONF[sha] = _registered(data.decode("utf-8", "replace"))
    return _CONF[sha]


def _registered(text: str) -> tuple[frozenset[str], bool]:
    names: set[str] = set()
    complete = True
    for m in _REGISTERS.finditer(text):
        if m.group(3) is not None or m.group(8) is not None:
            complete = False
        elif m.group(2) is not None:
            names.add(m.group(2).lower())
        elif m.group(7) is not None:
            names.update({m.group(7).lower(), f"{m.group(5)}:{m.group(7)}".lower()})
    return frozenset(names), complete


def unknown_detail(name: str, kept: bool) -> str:
    """What the report says of a directive nobody defines, and what the store holds of it."""
    return (f"unknown directive {name!r}: not defined by docutils, Sphinx or a configured extension,"
            f" {'its body kept' if kept else 'nothing kept'}")
