"""What a site asks its API pages to show, in one shape for both generators (issue 37).

mkdocstrings (Python handler): the handler's ``options`` in ``mkdocs.yml``, under them each
``:::`` line's own ``options:``; the names and defaults are the handler's (``members``,
``filters``, ``inherited_members``, ``preload_modules``, ``show_root_heading``,
``show_root_toc_entry``, ``heading_level``, ``docstring_style``, ``members_order``,
``group_by_category``, ``show_if_no_docstring``, ``show_bases``, ``annotations_path``,
``show_overloads``, ``overloads_only``, ``show_signature_annotations``, ``merge_init_into_class``, ``show_submodules``, and ``docstring_options``' switches).

Sphinx autodoc: ``autodoc_default_options`` from ``conf.py`` (read as data), under them the
directive's options (``:members:``, ``:undoc-members:``, ``:private-members:``,
``:special-members:``, ``:inherited-members:``, ``:show-inheritance:``, ``:exclude-members:``,
``:imported-members:``). autodoc shows no members unless asked, and members without a docstring
only with ``:undoc-members:``.

Member filters are regular expressions on member names, as mkdocstrings reads them; a pattern
with a quantified group (the shape that backtracks without bound) is not used and is noted, so a
filter cannot make a build's time grow faster than its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

_DEFAULT_FILTERS = (("^_[^_]", False),)
_QUANTIFIED_GROUP = re.compile(r"\)[*+?{]")
STYLES = ("google", "numpy", "sphinx", "auto")


@dataclass(frozen=True)
class Options:
    generator: str = "mkdocs"  # "mkdocs" or "sphinx": whose member rules apply
    heading_level: int = 2
    show_root_heading: bool = False
    # mkdocstrings' ``show_root_toc_entry``: a root shown without its heading keeps an entry in the
    # page's table of contents, named by the object's name (Sphinx always heads its objects).
    show_root_toc_entry: bool = False
    show_root_full_path: bool = True  # the root's heading: its dotted path, else its name
    separate_signature: bool = True  # False: the signature is in the heading (mkdocstrings' default)
    members: object = None  # None: as the generator decides; True/False; a list of names
    filters: tuple = _DEFAULT_FILTERS  # ((pattern, keep), ...)
    inherited_members: object = False  # bool or list of names
    # Whose members a class inherits from bases outside the repository the site shows (and this
    # build never reads, ``inheritance``): mkdocstrings those of the packages ``preload_modules``
    # names, or any with ``load_external_modules``; autodoc imports them all, up to the classes
    # ``:inherited-members:`` names (``object`` by default).
    preload_modules: tuple = ()
    load_external_modules: bool = False
    inherited_stop: frozenset = frozenset({"object"})
    members_order: str = "alphabetical"
    show_if_no_docstring: bool = False
    show_bases: bool = True
    # A function's ``@overload`` signatures: "before" its own (mkdocstrings' ``show_overloads``, on
    # by default), "only" instead of it (its ``overloads_only``; autodoc always), "" none
    # (``show_overloads: false``; autodoc with ``autodoc_typehints = "none"``).
    overloads: str = "before"
    merge_init_into_class: bool = False
    show_submodules: bool = False
    docstring_style: str = "google"
    imported_members: bool = False
    exclude: frozenset = frozenset()
    unwrap_annotated: bool = False
    # Types in signatures, as the site shows them: mkdocstrings' ``show_signature_annotations``
    # (off by default) for functions, classes and attributes; autodoc's ``autodoc_typehints``
    # ("signature" by default; "description" and "none" drop them from functions' and classes'
    # signatures, "none" from attributes' too). With "description" or "both", the types are
    # listed with the parameters as ``autodoc_typehints_description_target`` says (``typehints``).
    signature_annotations: bool = True
    attribute_annotations: bool = True
    description_types: str = ""  # "", or "all", "documented", "documented_params"
    # How a base's name is written in "Bases:" (``inheritance.shown``): mkdocstrings'
    # ``annotations_path`` (``brief``, ``source``, ``full``); autodoc's ``autodoc_typehints_format``
    # (``short``: brief, ``fully-qualified``: full).
    annotations_path: str = "brief"
    group_by_category: bool = False  # attributes, classes, functions, modules, each in order
    # mkdocstrings' ``docstring_options`` that change what a Google or NumPy docstring shows
    # (``ignore_init_summary``: a merged ``__init__``'s first line is not shown), as (name, value).
    docstring_options: tuple = ()
    # Whose docstrings a class shows: its own and its ``__init__``'s (mkdocstrings'
    # ``merge_init_into_class``), or as Sphinx's ``autoclass_content`` says ("class" by default).
    class_docstrings: tuple = ("class", "init")
    # The root's signature as the directive wrote it (``.. autoclass:: pkg.Hook()``), shown
    # instead of the source's; None: the source's.
    signature: str | None = None
    # Sphinx's ``:meta private:`` / ``:meta public:`` docstring fields decide what is private.
    meta_fields: bool = False
    problems: tuple = field(default=(), compare=False)  # options that were not used, and why


def _bool(value, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    return default


def _filters(value) -> tuple[tuple, tuple]:
    """(usable filters, problems)."""
    if isinstance(value, str) and value == "public":
        return (("^_", False),), ()
    if not isinstance(value, list):
        return _DEFAULT_FILTERS, ()
    out, problems = [], []
    for raw in value:
        if not isinstance(raw, str):
            continue
        keep = not raw.startswith("!")
        pattern = raw[1:] if not keep else raw
        if _QUANTIFIED_GROUP.search(pattern):
            problems.append(f"filter {raw!r} not used: a quantified group can take time beyond linear")
            continue
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append(f"filter {raw!r} not used: {exc}")
            continue
        out.append((pattern, keep))
    return tuple(out), tuple(problems)


# The parsing options griffe's Google and NumPy readers take that change what is shown: switches
# only, so a site's configuration cannot hand the parser anything else.
DOCSTRING_SWITCHES = ("ignore_init_summary", "trim_doctest_flags", "returns_multiple_items", "returns_named_value",
                      "returns_type_in_property_summary", "receives_multiple_items", "receives_named_value")


def _docstring_options(value) -> tuple:
    """The switches of ``docstring_options``, with ``per_style_options`` (how a site sets them for
    ``docstring_style: auto``) as ``("per_style_options", ((style, switches), ...))``."""
    if not isinstance(value, dict):
        return ()
    out = [(name, value[name]) for name in DOCSTRING_SWITCHES if isinstance(value.get(name), bool)]
    per_style = value.get("per_style_options")
    if isinstance(per_style, dict):
        styles = tuple((style, _docstring_options(options)) for style, options in per_style.items()
                       if style in ("google", "numpy") and isinstance(options, dict))
        if styles:
            out.append(("per_style_options", styles))
    return tuple(out)


def mkdocs_options(handler: dict, local: dict | None) -> Options:
    """The options of one ``:::`` line: the handler's, then the line's own over them."""
    merged: dict = {}
    for source in (handler.get("options") if isinstance(handler, dict) else None, local):
        if isinstance(source, dict):
            merged.update(source)
    filters, problems = _filters(merged.get("filters", None))
    style = merged.get("docstring_style", "google")
    members = merged.get("members")
    if not (members is None or isinstance(members, bool) or isinstance(members, list)):
        members = None
    inherited = merged.get("inherited_members", False)
    level = merged.get("heading_level", 2)
    preload = merged.get("preload_modules")
    path = merged.get("annotations_path")
    external = handler.get("load_external_modules", merged.get("load_external_modules")) if isinstance(handler, dict) else None
    return Options(
        generator="mkdocs",
        heading_level=level if isinstance(level, int) and 1 <= level <= 6 else 2,
        show_root_heading=_bool(merged.get("show_root_heading"), False),
        show_root_toc_entry=_bool(merged.get("show_root_toc_entry"), True),
        show_root_full_path=_bool(merged.get("show_root_full_path"), True),
        separate_signature=_bool(merged.get("separate_signature"), False),
        members=members,
        filters=filters,
        inherited_members=inherited if isinstance(inherited, (bool, list)) else False,
        preload_modules=tuple(m for m in preload if isinstance(m, str)) if isinstance(preload, list) else (),
        load_external_modules=external is True,
        members_order="source" if merged.get("members_order") == "source" else "alphabetical",
        show_if_no_docstring=_bool(merged.get("show_if_no_docstring"), False),
        show_bases=_bool(merged.get("show_bases"), True),
        overloads=("only" if _bool(merged.get("overloads_only"), False) else "before")
        if _bool(merged.get("show_overloads"), True) else "",
        merge_init_into_class=_bool(merged.get("merge_init_into_class"), False),
        show_submodules=_bool(merged.get("show_submodules"), False),
        docstring_style=style if style in STYLES else ("google" if style is not None else "auto"),
        unwrap_annotated=_bool(merged.get("unwrap_annotated"), False),
        signature_annotations=_bool(merged.get("show_signature_annotations"), False),
        attribute_annotations=_bool(merged.get("show_signature_annotations"), False),
        annotations_path=path if path in ("brief", "source", "full") else "brief",
        group_by_category=_bool(merged.get("group_by_category"), True),
        docstring_options=_docstring_options(merged.get("docstring_options")),
        problems=problems,
    )


def _names(value) -> list[str]:
    if isinstance(value, str):
        return [n.strip() for n in value.replace("\n", ",").split(",") if n.strip()]
    return []


_CLASS_CONTENT = {"class": ("class",), "both": ("class", "init"), "init": ("init",)}


def sphinx_options(defaults: dict, directive: dict, what: str, class_content: object = "class",
                   signature: str | None = None) -> Options:
    """The options of one autodoc directive (``what``: automodule, autoclass...): the
    ``autodoc_default_options`` of conf.py, then the directive's own; ``class_content`` is
    conf.py's ``autoclass_content``, ``signature`` one the directive gives its object."""
    merged: dict = {}
    for source in (defaults, directive):
        if isinstance(source, dict):
            for key, value in source.items():
                merged[key.lower()] = value
    members: object = None
    if "members" in merged:
        listed = _names(merged["members"]) if merged["members"] not in (None, True) else []
        members = listed or True
    elif "inherited-members" in merged and what in ("automodule", "autoclass", "autoexception"):
        members = True  # autodoc: ``want_all`` holds with ``:inherited-members:`` alone
    elif what in ("autofunction", "automethod", "autoattribute", "autodata", "autoproperty",
                  "autoexception", "autodecorator"):
        members = False
    filters: list = []
    if "private-members" not in merged:
        filters.append(("^_", False) if "special-members" not in merged else ("^_[^_]", False))
    if "special-members" not in merged:
        filters.append(("^__.*__$", False))
    exclude = frozenset(_names(merged.get("exclude-members")) if "exclude-members" in merged else ())
    inherited = "inherited-members" in merged
    stop = frozenset(_names(merged.get("inherited-members")) or ("object",))
    order = str(merged.get("member-order", "alphabetical") or "alphabetical")
    return Options(
        generator="sphinx",
        heading_level=1,
        show_root_heading=True,
        members=members if members is not None else False,
        filters=tuple(filters),
        inherited_members=inherited,
        inherited_stop=stop,
        members_order="source" if order in ("bysource", "groupwise") else "alphabetical",
        show_if_no_docstring="undoc-members" in merged,
        show_bases="show-inheritance" in merged,
        overloads="only",
        merge_init_into_class=True,
        show_submodules=False,
        docstring_style="auto",
        imported_members="imported-members" in merged,
        exclude=exclude,
        group_by_category=order == "groupwise",
        class_docstrings=_CLASS_CONTENT.get(class_content if isinstance(class_content, str) else "", ("class",)),
        signature=signature,
        meta_fields=True,
    )


def nested(options: Options) -> Options:
    """The options for an object's members: a list of names chooses among the root's members
    only (mkdocstrings); below it every member passing the filters is shown (Sphinx passes
    ``:members:`` down as "all")."""
    if isinstance(options.members, list):
        return replace(options, members=True if options.generator == "sphinx" else None, signature=None)
    return replace(options, signature=None) if options.signature is not None else options
