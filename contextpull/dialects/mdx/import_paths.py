"""Every path an MDX page's ``import``/``export ... from`` statements name, checked against the
repository (issue 34): one that points outside it is named in the construct report with the
page's file and line, whatever the file's type, even when the page never reads it (a component,
a stylesheet, a text file). Nothing is read here: paths are judged as written, the way the
guard judges an include before it opens anything; a symbolic link is the guard's business when
a file is actually read.
"""

from __future__ import annotations

import posixpath
import re

from ..data.js_literal import LiteralError, jsonc

# The module specifier after ``from`` or a bare ``import``: one quoted string on one line.
_SPECIFIER = re.compile(r"""(?:\bfrom|^[ \t]*import)\s*(['"])([^'"\n]*)\1""", re.M)


def specifiers(source: str) -> list[str]:
    """The module specifiers of one import or export statement, in order."""
    return [m.group(2) for m in _SPECIFIER.finditer(source)]


def outside(spec: str, base: str, site_folder: str) -> bool:
    """Whether ``spec``, a relative (``./``, ``../``), site-absolute (``/``) or ``@site/`` path read from the folder
    ``base`` (relative to the repository root), leaves the repository."""
    absolute = site_absolute(spec, site_folder)
    if spec.startswith("@site/"):
        base, spec = site_folder, spec[len("@site/") :]
    elif absolute is not None:
        base, spec = absolute
    elif not spec.startswith(("./", "../")):
        return False  # a package ("react", "@theme/Tabs"): no file of the site
    rel = posixpath.normpath(posixpath.join(base, spec))
    return rel == ".." or rel.startswith("../")


def site_absolute(spec: str, site_folder: str) -> tuple[str, str] | None:
    """(base, target) for the resolver when ``spec`` is a path from the site's root
    (``/snippets/install.mdx``: Mintlify resolves it against the folder of ``docs.json``, as a
    web server does a page's ``/`` link), None for any other specifier. ``//host/x`` is a URL."""
    if not spec.startswith("/") or spec.startswith("//"):
        return None
    return site_folder, spec.lstrip("/")


# ---- tsconfig/jsconfig ``compilerOptions.paths`` aliases (``@components/...``) -------------
# A Next.js site (Nextra's among them) names its files by aliases its TypeScript configuration
# maps to folders: ``import Part from '@components/part.mdx'``. The configuration is JSON with
# comments and trailing commas (JSONC), read as data by the shared literal reader
# (``data.js_literal``); ``extends`` is not followed. As in
# TypeScript, one alias maps once: a target is a path from ``baseUrl`` (else the file's own
# folder) and is never mapped again, so aliases that name each other cannot loop.
ALIAS_FILES = ("tsconfig.json", "jsconfig.json")
MAX_ALIASES = 256


class AliasError(ValueError):
    """A tsconfig/jsconfig whose ``paths`` cannot be read, with why."""


def read_aliases(text: str, folder: str) -> list[tuple[str, str, list[str]]]:
    """(prefix, suffix, targets) of each ``paths`` pattern of a tsconfig/jsconfig in ``folder``
    (relative to the repository root): ``"@components/*": ["./components/*"]`` is
    ``("@components/", "", ["<folder>/components/*"])``; longest prefix first, as TypeScript
    picks. ``AliasError`` names what is malformed."""
    try:
        data = jsonc(text)
    except (LiteralError, RecursionError) as exc:
        raise AliasError(f"malformed JSON: {exc}") from None
    options = data.get("compilerOptions") if isinstance(data, dict) else None
    if not isinstance(options, dict):
        return []
    paths = options.get("paths")
    if paths is None:
        return []
    if not isinstance(paths, dict):
        raise AliasError("compilerOptions.paths is not an object")
    base_url = options.get("baseUrl")
    base = posixpath.normpath(posixpath.join(folder, base_url if isinstance(base_url, str) else "."))
    out = []
    for pattern, targets in list(paths.items())[:MAX_ALIASES]:
        if not isinstance(targets, list) or pattern.count("*") > 1:
            continue
        prefix, star, suffix = pattern.partition("*")
        mapped = [posixpath.normpath(posixpath.join(base, t)) for t in targets if isinstance(t, str) and t.count("*") <= 1]
        if mapped:
            out.append((prefix, suffix if star else None, mapped))
    out.sort(key=lambda a: -len(a[0]))
    return out


def aliased(spec: str, aliases: list[tuple[str, str | None, list[str]]]) -> str | None:
    """The path (relative to the repository root) an alias maps ``spec`` to, its first target;
    None when no pattern matches. An exact pattern (no ``*``) matches itself only."""
    for prefix, suffix, targets in aliases:
        if suffix is None:
            if spec == prefix:
                return targets[0]
            continue
        if spec.startswith(prefix) and spec.endswith(suffix) and len(spec) >= len(prefix) + len(suffix):
            middle = spec[len(prefix) : len(spec) - len(suffix)]
            return targets[0].replace("*", middle, 1)
    return None


def site_aliases(ctx, report) -> list:
    """The ``paths`` aliases of the site folder's tsconfig/jsconfig, read as a dependency of the
    page and parsed once per build and version of the file; ``report(problem)`` names a file
    that gives none."""
    folder = ctx.reader.site_folder
    for name in ALIAS_FILES:
        path = posixpath.join(folder, name) if folder else name
        found = ctx.read_data_with_sha(path)
        if found is None:
            continue
        data, sha = found
        aliases = ctx.reader.once((__name__, "aliases", path, sha), lambda: _parsed(data, folder))
        if isinstance(aliases, str):
            report(f"{path}: {aliases}; no alias read")
            return []
        return aliases
    return []


def _parsed(data: bytes, folder: str) -> list | str:
    try:
        return read_aliases(data.decode("utf-8-sig", "replace"), folder)
    except AliasError as exc:
        return str(exc)
