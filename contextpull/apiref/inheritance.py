"""What a class owes to its bases, as the site shows it (issue 37).

The "Bases:" line under a class's signature: mkdocstrings shows it by default (``show_bases``),
each base as its ``annotations_path`` says (``brief`` by default: the last part of the path it is
imported from, ``HTTPException`` for FastAPI's ``StarletteHTTPException``); autodoc with
``:show-inheritance:``, each base short (``autodoc_typehints_format``), and ``object`` for a
class that names none, as Python's ``__bases__`` has it.

Bases the repository does not hold: a site's generator reads them where the build never does: mkdocstrings loads the packages its
``preload_modules`` names (FastAPI's ``HTTPException`` shows ``status_code``, ``detail`` and
``headers`` from Starlette so) or, with ``load_external_modules``, any it meets; autodoc imports
every base. The members a class inherits from them are on the site and not in the store, and the
build must say so rather than be silently short: each such class is named, with its bases, in one
``unresolved`` note per ``:::`` line or directive (the page's line), and once a page however often
the page shows it, so the report stays a line per gap, not a line per member.
"""

from __future__ import annotations

MAX_NAMED = 10  # classes named in one note; the rest are counted


def shown_from(options, path: str) -> bool:
    """Whether the site shows the members a class inherits from the base at ``path``, which is
    not in the repository. griffe cannot load a builtin (``Exception``: no module), so
    mkdocstrings never shows those; autodoc shows every base's up to the classes
    ``:inherited-members:`` names (``object`` by default)."""
    if options.generator == "sphinx":
        return path.rsplit(".", 1)[-1] not in options.inherited_stop
    if options.load_external_modules:
        return "." in path
    return any(path == m or path.startswith(m + ".") for m in options.preload_modules)


def gaps(session, cls, options) -> list[str]:
    """The bases outside the repository whose members the site shows under ``cls``."""
    return [path for path in session.outside_bases(cls) if shown_from(options, path)]


def gap_note(found: list[tuple[str, list[str]]]) -> str:
    """The report's line for the classes of one ``:::`` line or directive that inherit members
    the site shows from bases outside the repository: (class, bases) each."""
    named = "; ".join(f"{cls} from {', '.join(bases)}" for cls, bases in found[:MAX_NAMED])
    more = f"; and {len(found) - MAX_NAMED} more classes" if len(found) > MAX_NAMED else ""
    head = "the members" if len(found) == 1 else f"{len(found)} classes' members"
    return (f"{head} inherited from bases outside the repository, which the site shows, are not"
            f" rendered (never read): {named}{more}")


def missing_note(obj, missing: list[str], outside: list[str], inherited: bool) -> str:
    """The report's line for the names a ``members`` list gives that ``obj`` does not have in
    the repository (FastAPI lists ``charset``, ``status_code``... on ``UJSONResponse``, which
    inherits them from Starlette): one line a class, naming the bases they would come from."""
    names = ", ".join(missing)
    if outside:
        where = f"; bases outside the repository ({', '.join(outside)}) are never read"
    elif inherited and obj.is_class and obj.bases:
        where = " (nor do its bases in the repository)"
    else:
        where = ""
    if len(missing) == 1:
        return f"{obj.path} has no member {names} in its source{where}"
    return f"{obj.path} has none of the {len(missing)} members its list names in its source: {names}{where}"


def bases_line(cls, options) -> str:
    """``Bases: `A`, `B``` as the site writes it under ``cls``'s signature; "" for none."""
    names = [shown(base, options.annotations_path) for base in cls.bases]
    if options.generator == "sphinx" and not names:
        names = ["object"]
    return "Bases: " + ", ".join(f"`{name}`" for name in names) if names else ""


def shown(expr, how: str) -> str:
    """A base (a griffe expression) as the site writes it: ``brief`` (each name by the last part
    of the path it stands for), ``full`` (the whole path) or ``source`` (as written)."""
    if isinstance(expr, str) or how == "source":
        return str(expr)
    kind = type(expr).__name__
    if kind in ("ExprName", "ExprAttribute"):
        path = getattr(expr, "canonical_path", None) or str(expr)
        return path if how == "full" else path.rsplit(".", 1)[-1]
    return "".join(shown(part, how) for part in expr.iterate(flat=False))
