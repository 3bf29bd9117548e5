"""Which files of a Sphinx project are not pages (issue 26, "every documentation file read or
named"; Sphinx's ``exclude_patterns`` and ``include_patterns``, the hook is ``pages/hook.py``).

Sphinx reads no source file that a pattern of its exclusion list matches, nor any file under a
folder one matches (it prunes the folder from its walk), and only files that ``include_patterns``
(default ``**``) match. The exclusion list is ``exclude_patterns``, then ``templates_path`` and,
for the HTML builders every published site uses, ``html_extra_path`` and ``html_static_path``
(templates and static files are copied or rendered, never read as documents), then Sphinx's
own ``**/_sources``, ``.#*``, ``**/.#*`` and ``*.lproj/**``. Patterns are Sphinx's globs,
matched against the path relative to the source folder (the folder of ``conf.py``): ``*`` and
``?`` stop at a slash, ``**`` does not, ``[...]`` is a class.

``conf.py`` is never run. A setting is read from top-level statements alone: an assignment of a
literal list or tuple of strings, and ``+=`` of one. Any other statement that sets it (a
computed value, an ``append``, an assignment inside an ``if``) leaves it unknown from there on:
its patterns exclude nothing, and ``config_notes`` names the setting and its line once, on the
project's root document, so the report says what was not read without repeating it per page.
"""

from __future__ import annotations

import ast
import os
import posixpath
import unicodedata
from dataclasses import dataclass

from ...system.bounded_read import CONFIG_FILE_LIMIT
from ..api import Context, Site
from ..door import SiteDoor
from ...scan.globmatch import Glob, bracket_end, compile_glob

ALWAYS = ("**/_sources", ".#*", "**/.#*", "*.lproj/**")
# The lists of conf.py that name what is not a source file, in Sphinx's order, and why.
SETTINGS = (
    ("exclude_patterns", ""),
    ("templates_path", " (templates, not documents)"),
    ("html_extra_path", " (copied to the site as they are)"),
    ("html_static_path", " (static files, copied to the site)"),
)
INCLUDE = "include_patterns"
CONSTRUCT = "sphinx exclude_patterns"


@dataclass(frozen=True)
class Setting:
    values: tuple[str, ...] | None  # None: set by a statement that is not a literal
    unread_line: int = 0  # the line of the first statement that was not read


@dataclass(frozen=True)
class Rules:
    """Which paths under one source folder Sphinx reads no page from. Paths are relative to
    ``source``, POSIX; both the pages hook (``skip``) and the label table (``xrefs/labels.py``)
    ask through these methods, so a file that is not a page defines no label."""

    source: str  # absolute: the folder of conf.py
    conf: str  # conf.py's name as the reasons show it
    exclude: tuple[tuple[Glob, str], ...]  # (matcher, reason)
    include: tuple[Glob, ...] | None  # None: every file
    unread: tuple[tuple[str, int], ...] = ()  # (setting, line) conf.py sets by a non-literal
    suffixes: tuple[str, ...] | None = None  # source_suffix; None: not known, any file a page

    def excluded(self, rel: str) -> str | None:
        """Why a pattern of the exclusion list matches ``rel`` itself, or None. A walk that
        prunes an excluded folder asks this of each name it meets; ``left_out`` asks it of
        every folder above a file too."""
        rel = unicodedata.normalize("NFC", rel)
        for matcher, reason in self.exclude:
            if matcher.match(rel):
                return reason
        return None

    def included(self, rel: str) -> str | None:
        """Why the file ``rel`` is outside ``include_patterns``, or None (Sphinx applies them to
        files only, never prunes a folder by them)."""
        if self.suffixes is not None and rel.endswith(".txt") and ".txt" not in self.suffixes:
            return f"not a source file: {self.conf} source_suffix is {', '.join(self.suffixes)}"
        if self.include is None:
            return None
        rel = unicodedata.normalize("NFC", rel)
        if any(m.match(rel) for m in self.include):
            return None
        return f"not matched by {self.conf} {INCLUDE}"

    def left_out(self, rel: str) -> str | None:
        """Why Sphinx reads no page from the file ``rel``, or None."""
        parts = rel.split("/")
        for depth in range(1, len(parts) + 1):
            reason = self.excluded("/".join(parts[:depth]))
            if reason is not None:
                return reason
        return self.included(rel)


def translate(pattern: str) -> Glob:
    """A Sphinx glob, matched from the start of the path to its end."""
    tokens: list[tuple] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            if i < n and pattern[i] == "*":
                i += 1
                tokens.append(("any",))
            else:
                tokens.append(("star",))
        elif c == "?":
            tokens.append(("one",))
        elif c == "[":
            j = bracket_end(pattern, i)
            if j is None:
                tokens.append(("lit", "["))
                continue
            inner = pattern[i:j].replace("\\", "\\\\")
            i = j + 1
            if inner.startswith("!"):
                inner = "^/" + inner[1:]
            elif inner.startswith("^"):
                inner = "\\" + inner
            tokens.append(("class", f"[{inner}]"))
        else:
            tokens.append(("lit", c))
    return compile_glob(tokens)


def read_settings(text: str, names: tuple[str, ...]) -> dict[str, Setting]:
    """The list settings ``names`` as the top-level statements of ``conf.py`` leave them (module
    docstring); a name no statement sets is absent."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    found: dict[str, Setting] = {}
    for stmt in tree.body:
        for name, value, augmented in _sets(stmt, names):
            before = found.get(name)
            literal = _literal(value)
            if before is not None and before.values is None:
                if not augmented and literal is not None:
                    found[name] = Setting(literal)
                continue
            if literal is None:
                found[name] = Setting(None, stmt.lineno)
            elif augmented:
                found[name] = Setting((before.values if before else ()) + literal)
            else:
                found[name] = Setting(literal)
    return found


def _sets(stmt: ast.stmt, names: tuple[str, ...]):
    """(name, value or None, augmented) for each of ``names`` that ``stmt`` sets; value None
    when it sets it some other way than a plain or augmented assignment at the top level."""
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Name) and target.id in names:
                yield target.id, stmt.value, False
            elif isinstance(target, (ast.Tuple, ast.List)):
                for elt in target.elts:
                    if isinstance(elt, ast.Name) and elt.id in names:
                        yield elt.id, None, False
        return
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id in names:
        if stmt.value is not None:
            yield stmt.target.id, stmt.value, False
        return
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id in names:
        yield stmt.target.id, stmt.value if isinstance(stmt.op, ast.Add) else None, True
        return
    # anything else that mentions the name may change it (an append, a loop, an if): not read
    touched = {node.id for node in ast.walk(stmt) if isinstance(node, ast.Name)}
    for name in names:
        if name in touched and _may_set(stmt, name):
            yield name, None, False


def _may_set(stmt: ast.stmt, name: str) -> bool:
    """Whether ``stmt`` can change ``name``: it assigns it somewhere inside, or calls a method
    on it (``exclude_patterns.append(...)``)."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
    return False


def _literal(value) -> tuple[str, ...] | None:
    if not isinstance(value, (ast.List, ast.Tuple)):
        return None
    out = []
    for elt in value.elts:
        if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
            return None
        out.append(elt.value)
    return tuple(out)


def skip(path: str, reader, data: bytes | None = None) -> str | None:
    """Why Sphinx reads no document from the file at ``path`` (relative to DOCS), or None."""
    site = reader.site
    rules = site_rules(reader)
    full = os.path.join(site.docs_root, *path.split("/"))
    rel = os.path.relpath(full, rules.source).replace(os.sep, "/")
    if rel == ".." or rel.startswith("../"):
        return None
    return rules.left_out(rel)


def site_rules(reader) -> Rules:
    """The rules of the site's ``conf.py``, from the one read of it the build's reader makes,
    worked out once per build (every file of it asks)."""
    site = reader.site
    return reader.once((__name__, site.config_file or site.docs_root),
                       lambda: _rules(site, reader.config_text if site.config_file else ""))


def source_rules(repo_root: str, source_dir: str, reader=None) -> Rules:
    """The rules of the Sphinx project whose source folder is ``source_dir`` (repository-relative,
    the folder of its ``conf.py``): those ``skip`` applies to a build of that project, so a
    reader that walks the folder itself (the label table) leaves out the same files. Kept by
    ``reader`` when one is given (the build's: its own project's are ``site_rules``), read now
    otherwise."""
    conf = posixpath.join(source_dir, "conf.py") if source_dir else "conf.py"
    if reader is not None and reader.site.config_file == conf:
        return site_rules(reader)
    top = os.path.join(repo_root, *[p for p in source_dir.split("/") if p])
    files = reader.files if reader is not None else SiteDoor(repo_root)
    site = Site("sphinx", conf if files.exists(conf) else None, top, repo_root)
    if reader is None:
        return _rules(site, _text(files, site.config_file))
    return reader.once((__name__, site.config_file or site.docs_root),
                       lambda: _rules(site, _text(files, site.config_file)))


def _text(files: SiteDoor, path: str | None) -> str:
    if path is None:
        return ""
    try:
        return files.read_text(path, CONFIG_FILE_LIMIT, "utf-8-sig", "replace")
    except OSError:
        return ""


def _rules(site: Site, conf_text: str) -> Rules:
    conf = site.config_file.rsplit("/", 1)[-1] if site.config_file else "conf.py"
    if site.config_file is None:
        source, settings = site.docs_root, {}
    else:
        path = os.path.join(site.repo_root, *site.config_file.split("/"))
        source = os.path.dirname(path)
        settings = read_settings(conf_text, (*(name for name, _ in SETTINGS), INCLUDE))
    exclude = []
    for name, why in SETTINGS:
        for pattern in (settings.get(name) or Setting(())).values or ():
            exclude.append((translate(pattern), f"{conf} {name}: {pattern}{why}"))
    exclude += [(translate(p), f"Sphinx always leaves out {p}") for p in ALWAYS]
    include = settings.get(INCLUDE)
    matchers = None if include is None or include.values is None else tuple(map(translate, include.values))
    unread = tuple((name, setting.unread_line) for name, setting in sorted(settings.items())
                   if setting.values is None)
    suffixes = source_suffixes(conf_text) if site.config_file and site.config_file.endswith("conf.py") else None
    return Rules(source, conf, tuple(exclude), matchers, unread, suffixes)


def source_suffixes(text: str) -> tuple[str, ...] | None:
    """The file endings Sphinx reads pages from, as far as a ``.txt`` file goes: ``source_suffix``
    as its last top-level literal sets it (a string, a list, or a dict's keys), ``.rst`` when
    nothing sets it (extensions add ``.md`` and ``.ipynb``, never ``.txt``); None when a
    statement sets it some other way. A ``.txt`` beside the pages (pytest's and Scrapy's
    ``requirements.txt``, aiohttp's spelling word list) is then no page, though an include may
    read it."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    found: tuple[str, ...] | None = (".rst",)
    for stmt in tree.body:
        for _name, value, augmented in _sets(stmt, ("source_suffix",)):
            try:
                literal = ast.literal_eval(value) if value is not None and not augmented else None
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                literal = None
            if isinstance(literal, str):
                literal = [literal]
            if isinstance(literal, (list, tuple, dict)) and all(isinstance(k, str) for k in literal):
                found = tuple(literal)
            else:
                found = None
    return found


def config_notes(ctx: Context) -> None:
    """On the project's root document (``root_doc``, else ``master_doc``, else ``index``), one
    ``unresolved`` note per list setting ``conf.py`` sets in a way that was not read (kept in
    the cached ``Rules``, so conf.py is not read again for it)."""
    site = ctx.site
    if site.config_file is None or site.dialect != "sphinx":
        return
    rules = site_rules(ctx.reader)
    rel = os.path.relpath(os.path.join(site.docs_root, *ctx.path.split("/")), rules.source).replace(os.sep, "/")
    config = ctx.reader.config
    root = config.get("root_doc") or config.get("master_doc") or "index"
    if not isinstance(root, str) or posixpath.splitext(rel)[0] != root:
        return
    for name, line in rules.unread:
        ctx.note(CONSTRUCT, "unresolved", 0,
                 f"{site.config_file} line {line}: {name} is not a literal list,"
                 " not read; the files it names stay pages")
