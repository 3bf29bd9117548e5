"""Python modules read as text and visited by griffe, never imported (issue 37).

Why not ``griffe.load``: its loader reads files itself, walks whole packages and, when a module is
not found on disk, imports it (``allow_inspection``). Here every module file comes through the
document's include door (``Context.read_data_with_sha``): the repository-root guard, the symlink
guard, the per-file and per-document byte bounds hold, and each file read becomes a dependency of
the page, so its fingerprint changes exactly when a module it shows changes. Modules are loaded one
at a time, as a name needs them, and handed to ``griffe.visit`` (the static, ``ast``-based half of
griffe); nothing is ever executed, and a name no source folder holds stays unresolved.

``ApiReference`` lives for one build: the site carries it to workers (its parsed modules are not
pickled, so each process parses what it needs once). A page reads through a ``PageSession``, which
reads every module it uses through that page's context again (cheap: a hash), so the page's
dependencies never depend on which page happened to load a module first.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from .limits import Budget, LimitReached, Limits

class Unresolved(Exception):
    """An object or module that is not rendered; the message is the report's reason."""


@dataclass
class _Loaded:
    key: str  # repository path of the file
    sha: str
    module: object  # griffe.Module, or None when it could not be visited
    error: str = ""
    # Modules whose content shaped this one's members (``from x import *`` targets, ``__all__``
    # taken from another module): a page using this module depends on them too.
    shaped_by: tuple = ()


class ApiReference:
    """One build's view of the repository's Python source: griffe's collections and the modules
    parsed so far. Built once per build (``ingest.site.with_site``) from the site's repository
    root; carried to worker processes without what it parsed."""

    def __init__(self, repo_root: str, limits: Limits | None = None, include_limit: int | None = None) -> None:
        self.repo_root = repo_root
        self.limits = limits or Limits()
        # The page door's per-file bound (``dialects.includes``), to say why a module was not read.
        self.include_limit = include_limit
        self._reset()
        # Imported here, in the process that starts the workers, so a forked worker has griffe
        # loaded instead of importing it again (0.1 s on fastapi); ImportError on Python 3.10.
        import griffe  # noqa: F401

    def _reset(self) -> None:
        self._griffe = None  # (collection, lines, loader, extensions), made when first needed
        self.loaded: dict[str, _Loaded] = {}  # dotted module name -> what was visited
        self.held = 0  # bytes of source modelled in ``loaded``

    def __getstate__(self) -> dict:
        return {"repo_root": self.repo_root, "limits": self.limits, "include_limit": self.include_limit}

    def __setstate__(self, state: dict) -> None:
        self.repo_root = state["repo_root"]
        self.limits = state["limits"]
        self.include_limit = state.get("include_limit")
        self._reset()

    def griffe(self):
        if self._griffe is None:
            import griffe

            collection = griffe.ModulesCollection()
            lines = griffe.LinesCollection()
            # Used only to expand ``from x import *`` and ``__all__`` over modules already
            # loaded here (``external=False``): it never loads, finds or imports anything.
            loader = griffe.GriffeLoader(modules_collection=collection, lines_collection=lines,
                                         allow_inspection=False, force_inspection=False, search_paths=[])
            self._griffe = (collection, lines, loader, griffe.load_extensions())
        return self._griffe

    def session(self, ctx, folders: list[str]) -> PageSession:
        """A reader for one ``:::`` line or directive of the page ``ctx`` reads. The page's
        limits and the modules it already read are shared by all of its lines (kept on its
        context, which lives as long as the page's reading), so twenty lines showing one large
        module read it once, against the page's include budget once."""
        page = getattr(ctx, "apiref_page", None)
        if page is None:
            if self.held > self.limits.max_held_bytes:
                self._reset()  # a new page: nothing of the old models is in use
            page = {"budget": Budget(self.limits), "used": {}}
            try:
                ctx.apiref_page = page
            except AttributeError:  # a context that takes no attributes: each line on its own
                pass
        used = page["used"].setdefault(tuple(folders), {})
        return PageSession(self, ctx, folders, page["budget"], used, page.setdefault("gaps", set()))


class PageSession:
    """One page's reads of Python source: the modules it used (each read through its context)."""

    def __init__(self, api: ApiReference, ctx, folders: list[str], budget: Budget,
                 used: dict | None = None, gaps: set | None = None) -> None:
        self.api = api
        self.ctx = ctx
        self.folders = folders or [""]
        self.budget = budget
        self.used: dict[str, object] = {} if used is None else used  # name -> griffe.Module or None
        self._loading: set[str] = set()
        # Classes whose members from bases outside the repository the page already named (once a
        # page, however often it shows them: ``render.Renderer``).
        self.gaps: set[str] = set() if gaps is None else gaps

    # -- modules ---------------------------------------------------------------------------

    def module(self, name: str):
        """The griffe module ``name`` (dotted), loaded from the repository; None when no source
        folder holds it. ``Unresolved`` for one that is there but cannot be read or parsed."""
        if name in self.used:
            return self.used[name]
        if name in self._loading:  # a star-import cycle: the module being visited is the answer
            return self.api.loaded[name].module if name in self.api.loaded else None
        self._loading.add(name)
        try:
            found = self._module(name)
        finally:
            self._loading.discard(name)
        self.used[name] = found
        return found

    def _module(self, name: str):
        parent_name, _, short = name.rpartition(".")
        if not short.isidentifier():
            return None
        parent = None
        if parent_name:
            parent = self.module(parent_name)
            if parent is None or not _is_package(parent):
                return None
            member = parent.members.get(short)
            if member is not None and not member.is_alias and not member.is_module:
                return None  # an object of the package, not a submodule
            folders = [posixpath.dirname(self.api.loaded[parent_name].key)]
        else:
            folders = self.folders
        for folder in folders:
            for candidate in (f"{short}/__init__.py", f"{short}.py"):
                key = posixpath.join(folder, candidate) if folder else candidate
                got = self.ctx.read_data_with_sha(key)
                if got is None:
                    self._refused(key, name)
                    continue
                return self._visit(name, short, parent, key, *got)
        if parent is not None and self._namespace(folders[0], short):
            # A folder without __init__.py inside a package: an implicit namespace package
            # (PEP 420), importable as such; it is an empty module whose submodules load as any.
            key = posixpath.join(folders[0], short, "__init__.py") if folders[0] else f"{short}/__init__.py"
            return self._visit(name, short, parent, key, b"", "namespace")
        return None

    def _namespace(self, folder: str, short: str) -> bool:
        """Whether ``folder/short`` is a folder inside the repository (no link out of it)."""
        import os

        root = self.api.repo_root
        full = os.path.realpath(os.path.join(root, *folder.split("/"), short) if folder else os.path.join(root, short))
        return full.startswith(os.path.join(root, "")) and os.path.isdir(full)

    def _refused(self, key: str, name: str) -> None:
        """A candidate the door did not read: absent (fine, the next one is tried) or there but
        refused (too large, a link out, not a regular file): that is named."""
        import os

        full = os.path.join(self.api.repo_root, *key.split("/"))
        if not os.path.lexists(full):
            return
        try:
            size = os.stat(full).st_size if os.path.isfile(full) else -1
        except OSError:
            size = -1
        limit = self.api.include_limit
        if limit is not None and size > limit:
            why = f"{size:,} bytes, over the include limit of {limit:,}"
        else:
            why = "not a regular file inside the repository, or the page's include budget is spent"
        raise Unresolved(f"module {name} ({key}) is not read: {why}")

    def _visit(self, name: str, short: str, parent, key: str, data: bytes, sha: str):
        loaded = self.api.loaded.get(name)
        if loaded is not None and loaded.key == key and loaded.sha == sha:
            if loaded.module is None:
                raise Unresolved(loaded.error)
            for other in loaded.shaped_by:  # read again by this page: the same dependencies
                self.load_path(other)
            return loaded.module
        self.budget.module(name)
        limit = self.budget.limits.max_module_bytes
        if len(data) > limit:
            error = f"module {name} ({key}) is {len(data):,} bytes, over the {limit:,} a module may have to be read for its API"
            self.api.loaded[name] = _Loaded(key, sha, None, error)
            raise Unresolved(error)
        collection, lines, loader, extensions = self.api.griffe()
        import griffe

        text = data.decode("utf-8-sig", errors="replace")
        filepath = Path(self.api.repo_root, *key.split("/"))
        try:
            module = griffe.visit(short, filepath=filepath, code=text, parent=parent,
                                  extensions=extensions, lines_collection=lines,
                                  modules_collection=collection)
        except SyntaxError as exc:
            error = f"syntax error in {key} line {exc.lineno}: {exc.msg}; module {name} is not rendered"
            self.api.loaded[name] = _Loaded(key, sha, None, error)
            raise Unresolved(error) from None
        except (RecursionError, ValueError) as exc:
            error = f"{key} cannot be read as Python ({type(exc).__name__}); module {name} is not rendered"
            self.api.loaded[name] = _Loaded(key, sha, None, error)
            raise Unresolved(error) from None
        if parent is None:
            collection.set_member(name, module)
        else:
            parent.set_member(short, module)
        loaded = _Loaded(key, sha, module)
        self.api.loaded[name] = loaded
        self.api.held += len(data)
        loaded.shaped_by = self._star_imports(module, loader)
        return module

    def _star_imports(self, module, loader) -> tuple:
        """``from x import *`` expanded over modules of the repository (loaded first, so the
        result does not depend on what another page loaded); a cycle stops where it closes.
        Returns the modules that shaped ``module``'s members."""
        targets = [m.wildcard for m in list(module.members.values()) if m.is_alias and m.wildcard]
        exported = [e.canonical_path.rpartition(".")[0] for e in (module.exports or [])
                    if not isinstance(e, str) and getattr(e, "canonical_path", None)]
        for target in [*targets, *exported]:
            self.load_path(target)
        if targets:
            import griffe

            try:
                loader.expand_wildcards(module, external=False)
            except (griffe.AliasResolutionError, griffe.CyclicAliasError, RecursionError):
                pass
        try:
            loader.expand_exports(module)
        except RecursionError:
            pass
        return tuple(dict.fromkeys([*targets, *exported]))

    # -- objects ---------------------------------------------------------------------------

    def find(self, path: str):
        """The griffe object at dotted ``path`` (aliases followed), its modules read from the
        repository; ``Unresolved`` naming why not."""
        parts = path.split(".")
        if not all(p.isidentifier() for p in parts):
            raise Unresolved(f"{path} is not a dotted Python name")
        module, depth = None, 0
        for i in range(1, len(parts) + 1):
            found = self.module(".".join(parts[:i]))
            if found is None:
                break
            module, depth = found, i
        if module is None:
            where = ", ".join(f or "." for f in self.folders)
            raise Unresolved(f"{path}: no module {parts[0]} in the repository's source folders ({where});"
                             " it is never imported")
        obj = module
        for part in parts[depth:]:
            obj = self.target(obj)
            member = obj.members.get(part)
            if member is None and obj.is_class:
                member = self.inherited(obj).get(part)
            if member is None:
                raise Unresolved(f"{path}: {obj.path} has no member {part} in its source")
            obj = member
        return self.target(obj)

    def target(self, obj):
        """``obj`` with its import aliases followed, loading the modules they name."""
        import griffe

        hops = 0
        while obj.is_alias:
            hops += 1
            if hops > self.budget.limits.max_alias_hops:
                raise Unresolved(f"{obj.path}: an import chain longer than {self.budget.limits.max_alias_hops}")
            self._record(obj)
            nxt = self._resolve(obj, griffe)
            if nxt is obj:
                raise Unresolved(f"{obj.path}: alias cycle")
            obj = nxt
        self.use(obj)
        return obj

    def _resolve(self, alias, griffe):
        """The alias's target, loading the module of each alias along its chain that names one
        not loaded yet (each once: a second miss means the chain leaves the repository)."""
        tried: set[str] = set()
        while True:
            try:
                return alias.target
            except griffe.CyclicAliasError:
                raise Unresolved(f"{alias.path}: alias cycle through {alias.target_path}") from None
            except griffe.AliasResolutionError as exc:
                failing = getattr(exc, "alias", None) or alias
                path = failing.target_path
                if path in tried or len(tried) >= self.budget.limits.max_alias_hops:
                    raise Unresolved(f"{alias.path} is imported from {path}, which is not in"
                                     " the repository's source; it is never imported") from None
                tried.add(path)
                self.load_path(path)

    def load_path(self, path: str) -> None:
        """Load the modules along dotted ``path`` that the repository holds."""
        parts = path.split(".")
        for i in range(1, len(parts) + 1):
            try:
                if self.module(".".join(parts[:i])) is None:
                    return
            except Unresolved:
                return

    def _record(self, alias) -> None:
        """The module an import alias stands in becomes a dependency: the chain it starts is
        part of what the page shows, whether or not another page already resolved it."""
        parent = alias.parent
        if parent is not None:
            self.use(parent if not parent.is_module else _ModuleRef(parent))

    def use(self, obj) -> None:
        """Record that the page shows ``obj``: its module file becomes a dependency."""
        try:
            module = obj.module
        except Exception:  # noqa: BLE001 - griffe objects without a module (none expected)
            return
        if module.path not in self.used:
            try:
                self.module(module.path)
            except Unresolved:
                pass

    def _load_bases(self, cls, seen: set, outside: list | None = None) -> None:
        """Every base class in the repository along the MRO, found (modules loaded, aliases
        followed, dependencies recorded) through this page, so what it inherits does not depend
        on what another page loaded; the bases not found are added to ``outside``."""
        for base in cls.bases:
            path = getattr(base, "canonical_path", None) or str(base)
            try:
                found = self.find(path)
            except Unresolved:
                if outside is not None and path not in outside:
                    outside.append(path)
                continue
            if found.is_class and found.path not in seen and len(seen) < self.budget.limits.max_alias_hops:
                seen.add(found.path)
                self._load_bases(found, seen, outside)

    def outside_bases(self, cls) -> list[str]:
        """The bases along ``cls``'s MRO that the repository does not hold (``starlette``'s
        ``HTTPException`` under FastAPI's), by the path the source imports them from: what
        they give ``cls`` is never read, and the report names it (``render``)."""
        outside: list[str] = []
        self._load_bases(cls, {cls.path}, outside)
        return outside

    def inherited(self, cls) -> dict:
        """Members ``cls`` inherits from its base classes in the repository (the bases' modules
        loaded first); a base outside the repository adds nothing."""
        import griffe

        self._load_bases(cls, {cls.path})
        try:
            members = dict(cls.inherited_members)
        except (griffe.AliasResolutionError, griffe.CyclicAliasError, ValueError, RecursionError):
            return {}
        for member in members.values():
            try:
                self.use(member.parent)
            except Exception:  # noqa: BLE001
                pass
        return members


class _ModuleRef:
    """A module seen as an object whose ``module`` is itself (``PageSession.use``)."""

    def __init__(self, module) -> None:
        self.module = module


def _is_package(module) -> bool:
    return str(module.filepath).endswith("__init__.py")


__all__ = ["ApiReference", "LimitReached", "PageSession", "Unresolved"]
