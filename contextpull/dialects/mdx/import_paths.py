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
