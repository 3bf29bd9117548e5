"""One MDX source being rendered (the document, or a partial inside it) and what it reads
beside itself: its imports resolved to files (relative, ``@site/``, site-absolute, tsconfig
aliases) and read through ``ctx.include``, so the repository guard, depth and cycle limits hold.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from . import import_paths
from ..api import Context, Included
from ..syntax.line_map import LineMap
from .mdx_source import Import


@dataclass
class Env:
    """One source being rendered: the document itself, or a partial inside it."""

    ctx: Context
    base: str  # the folder relative imports start from, relative to repo_root
    within: Included | None  # the partial being rendered (None for the document)
    line: int | None  # where a partial stands in the document: every note inside it is there
    codes: list[str]  # shared by the document and its partials, so code is unmasked once
    imports: dict[str, Import] = field(default_factory=dict)
    props: dict[str, str] = field(default_factory=dict)
    lines: LineMap | None = None  # the masked text's lines
    commonmark: bool = False  # a file the site reads as CommonMark: no ESM, braces are text
    data: dict = field(default_factory=dict)  # JSON imports read so far, by name; snippet variables
    bound: set = field(default_factory=set)  # names the source's import/export statements bind
    site_names: dict = field(default_factory=dict)  # what the site provides, read once per document
    esm: str = ""  # the source's import/export statements: what it exports
    cells: list = field(default_factory=list)  # (start, end) of the table rows (``table_cells``)

    def at(self, pos: int) -> int:
        if self.line is not None:
            return self.line
        return self.lines.line(pos)

    def note(self, construct: str, outcome: str, pos: int, detail: str = "") -> None:
        self.ctx.note(construct, outcome, self.at(pos), detail)


def site_folder(ctx: Context) -> str:
    """What ``@site/`` names: the folder of ``docusaurus.config.*``, relative to repo_root; without
    one (an ``.mdx`` file outside a Docusaurus site), the folder above DOCS, where it would be
    (``detect.site_folder``)."""
    return ctx.reader.site_folder


def _resolve(spec: str, env: Env, pos: int = 0) -> tuple[str, str] | None:
    """(base, target) for ``ctx.include``, or None for a module path that names no file here."""
    if spec.startswith("@site/"):
        return site_folder(env.ctx), spec[len("@site/") :]
    absolute = import_paths.site_absolute(spec, site_folder(env.ctx))
    if absolute is not None:
        return absolute
    if spec.startswith(("./", "../")):
        return env.base, spec
    aliases = import_paths.site_aliases(env.ctx, lambda problem: env.note("tsconfig paths", "unresolved", pos, problem))
    target = import_paths.aliased(spec, aliases)
    return ("", target) if target is not None else None


def component_source(imp: Import, env: Env) -> str | None:
    """The source of a component the page imports (a dependency of the page, as an include
    is), or None when it names no readable file of the repository; no note: whether it is read
    at all is the generator's reading (``SiteReader.mdx_imported_component``)."""
    key = ("component", imp.spec)
    if key not in env.data:
        where = _resolve(imp.spec, env)
        data = None if where is None else env.ctx.read_data(posixpath.normpath(posixpath.join(*where)))
        env.data[key] = None if data is None else data.decode("utf-8", "replace")
    return env.data[key]


def include(imp: Import, env: Env, pos: int, construct: str) -> Included | None:
    where = _resolve(imp.spec, env, pos)
    if where is None:
        env.note(construct, "unresolved", pos, f"{imp.spec}: not a path inside the site")
        return None
    base, target = where
    return env.ctx.include(target, base=base, line=env.at(pos), construct=construct, within=env.within)
