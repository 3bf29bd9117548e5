"""The VitePress dialect (issue 36): a site identified by ``.vitepress/config.{js,ts,mjs,mts,cjs,cts}``
or ``.vitepress/config/index.*``, whose configuration (with the modules it imports from beside it)
is read as text and never run (``site_config.py``).

``prepare`` reads a page as VitePress renders it, in VitePress's order: ``<!--@include:-->``
directives first, on the raw text (``page_includes.py``); then one pass over the lines outside
fenced code (``page_lines.py``): the component's ``<script>`` and ``<style>`` blocks go, ``<<<``
code imports become fenced blocks (``code_imports.py``), heading anchors, ``[[toc]]`` and badges
are read (``vue.py``); ``:::`` containers and code groups become labelled text (``blocks.py``);
GitHub-style ``> [!NOTE]`` alerts, which VitePress renders too, become labelled text
(``callouts``); last, tags and HTML comments go from the prose, their text kept. Every line carries the page line it came from, so
notes name it. A home page (``layout: home``) shows its hero and features first (``home.py``).

``finish`` takes Shiki's ``// [!code ++]`` notation off code lines (``code_notation``), and
twoslash's cuts, flags and queries off a block twoslash reads (``syntax.twoslash``): one whose
fence says ``twoslash``, or, where the configuration runs twoslash, one written with its cuts.
``nav_title`` gives a page that shows no H1 and no front-matter title (the shared rule,
``page_title``) the text its sidebar or nav entry shows (when written as literals); ``finish``
strips VitePress's additions from a fence's language (``ts{1,3}``, ``ts:line-numbers``, ``ts [label]``). ``skip`` names the Markdown files
VitePress renders no page for: outside the source root (``srcDir``), or matched by
``srcExclude``.
"""

from __future__ import annotations

import hashlib
import posixpath
import re

from ...parsing.blocks import Code, ParsedDocument
from ...scan.globmatch import Glob, compile_glob, slash_tokens
from ..syntax import twoslash
from ..syntax.callouts import callouts
from ..syntax.line_map import joined
from ..pages.site_files import relative
from ..includes import MISSING
from ..site_reader import SiteReader
from ...system.bounded_read import CONFIG_FILE_LIMIT
from . import blocks, code_notation, home, page_includes, page_lines, site_config, vue

CONFIGURATION = "vitepress configuration"
MAX_CONFIG_MODULES = 16
_SCRIPT_EXTENSIONS = (".ts", ".js", ".mts", ".mjs", ".cts", ".cjs")
_FENCE_LANGUAGE = re.compile(r"[^\s{:\[]*")


class Reader(SiteReader):
    """VitePress's hooks on a site opened for one build (``site_reader``; the table row is
    ``registry.DIALECTS``)."""

    @property
    def settings(self) -> site_config.SiteConfig:
        name = self.site.config_file or ""
        return self.once((__name__, "config"), lambda: site_config.read(self.config_text, name))

    @property
    def src_folder(self) -> str:
        """The source root relative to the repository root ("" at the root): ``srcDir`` in the
        project folder (the one holding ``.vitepress``); DOCS without a configuration file."""
        if not self.site.config_file:
            return self.docs_folder
        folder = posixpath.normpath(posixpath.join(self.site_folder or ".", self.settings.src_dir))
        return "" if folder == "." else folder

    @property
    def excludes(self) -> list[tuple[str, Glob]]:
        return self.once((__name__, "excludes"),
                         lambda: [(p, compile_glob(slash_tokens(p.removeprefix("./")))) for p in self.settings.src_exclude])

    @property
    def config_modules(self) -> dict[str, bytes | None]:
        """The modules the configuration file imports from beside it, and those they import, at
        most ``MAX_CONFIG_MODULES``: repository path -> bytes (None for one that is not there),
        read once a build through the site's door (``site_config.local_imports``)."""
        def walk() -> dict[str, bytes | None]:
            found: dict[str, bytes | None] = {}
            queue = [(self.site.config_file, self.config_text)] if self.site.config_file else []
            while queue and len(found) < MAX_CONFIG_MODULES:
                path, text = queue.pop(0)
                for spec in site_config.local_imports(text):
                    module = self._module_path(posixpath.dirname(path), spec)
                    if module is None or module in found or module == self.site.config_file:
                        continue
                    try:
                        found[module] = self.files.read(module, CONFIG_FILE_LIMIT)
                    except FileNotFoundError:
                        found[module] = None
                        continue
                    except OSError:
                        continue
                    queue.append((module, found[module].decode("utf-8-sig", "replace")))
                    if len(found) >= MAX_CONFIG_MODULES:
                        break
            return found
        return self.once((__name__, "modules"), walk)

    @property
    def config_deps(self) -> tuple[tuple[str, str], ...]:
        """The configuration file and the modules it imports: every page shows what they set."""
        base = super().config_deps
        return self.once((__name__, "deps"), lambda: (*base, *(
            (path, MISSING if data is None else hashlib.sha256(data).hexdigest())
            for path, data in self.config_modules.items())))

    def _module_path(self, folder: str, spec: str) -> str | None:
        """The file ``spec`` names from ``folder``, as Node resolves a relative import: the path
        itself, then with each script extension, then its ``index``."""
        base = posixpath.normpath(posixpath.join(folder, spec))
        candidates = [base] if base.endswith(_SCRIPT_EXTENSIONS) else []
        candidates += [base + ext for ext in _SCRIPT_EXTENSIONS] + [f"{base}/index{ext}" for ext in _SCRIPT_EXTENSIONS]
        return next((c for c in candidates if not c.startswith("../") and self.files.is_file(c)), None)

    @property
    def page_settings(self) -> site_config.SiteConfig:
        """The settings, with those of the modules the configuration imports (``config_modules``),
        which every page therefore depends on (``config_deps``)."""
        modules = self.config_modules
        if not modules:
            return self.settings
        def read() -> site_config.SiteConfig:
            text = "\n".join([self.config_text, *(data.decode("utf-8-sig", "replace") for data in modules.values() if data)])
            return site_config.read(text, self.site.config_file or "")

        return self.once((__name__, "page settings"), read)

    # ---- the hooks ---------------------------------------------------------------------
    def prepare(self, text: str, ctx) -> str:
        src = self.src_folder
        settings = self.page_settings
        lines = list(enumerate(text.split("\n"), start=1))
        if "@include:" in text:
            lines = page_includes.expand(lines, ctx, src)
        lines = page_lines.read(lines, ctx, src, settings.attr_delimiters)
        lines = blocks.convert(lines, ctx, any_name=settings.own_containers, tabs=settings.tabs)
        text = callouts(joined(lines), ctx)
        top = home.hero(ctx.front_matter, ctx)
        return vue.to_text(f"{top}\n\n{text}" if top else text)

    def finish(self, parsed: ParsedDocument, ctx) -> ParsedDocument:
        for block in parsed.blocks:
            if isinstance(block, Code):
                if block.lang:
                    block.lang = _FENCE_LANGUAGE.match(block.lang).group(0)
                if "//" in block.raw and self._twoslash(block):
                    kept, count, problem = twoslash.strip(block.raw)
                    if problem is not None:
                        ctx.note(twoslash.CONSTRUCT, "unresolved", 0, problem)
                    elif count:
                        block.raw = kept
                        ctx.note(twoslash.CONSTRUCT, "converted", 0, f"{count} lines")
                if "[!code" in block.raw:
                    kept, count = code_notation.strip(block.raw)
                    if count:
                        block.raw = kept
                        ctx.note(code_notation.CONSTRUCT, "converted", 0, f"{count} markers")
        return parsed

    def _twoslash(self, block: Code) -> bool:
        """Whether twoslash reads the block on this site (``syntax.twoslash``)."""
        if twoslash.fence_says(block.raw):
            return True
        return (block.lang.lower() in twoslash.LANGUAGES and self.page_settings.twoslash
                and not twoslash.fence_refuses(block.raw) and twoslash.has_notation(block.raw))

    def nav_title(self, ctx) -> str | None:
        rel = posixpath.relpath(ctx.repo_path, self.src_folder) if self.src_folder else ctx.repo_path
        key = posixpath.splitext(rel)[0]
        title = self.page_settings.nav_titles.get(key)
        if title:
            ctx.note("sidebar title", "resolved", 0)
        return title

    def skip(self, path: str, data: bytes | None = None) -> str | None:
        if not path.lower().endswith(".md"):
            return None
        src = self.src_folder
        root = posixpath.join(self.site.repo_root, src) if src else self.site.repo_root
        rel = relative(self.site, path, root)
        if rel is None:
            return f"outside the source root {src or '.'}/ (srcDir): VitePress renders no page from it"
        for pattern, glob in self.excludes:
            if glob.match(rel):
                return f"{self.site.config_file} srcExclude: {pattern}"
        return None

    def config_notes(self, ctx) -> None:
        """On the source root's ``index.md``, one ``unresolved`` note per setting that was not
        read as a literal (``site_config``); the site is read with the default."""
        if not self.site.config_file:
            return
        index = posixpath.join(self.src_folder, "index.md") if self.src_folder else "index.md"
        if ctx.repo_path != index:
            return
        for problem in self.settings.problems:
            ctx.note(CONFIGURATION, "unresolved", 0, problem)
