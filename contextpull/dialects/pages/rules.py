"""Which files Hugo, Jekyll and mdBook render as pages (issue 26; the hook is ``hook.py``).
Each rule is the generator's own, read from its documentation:

- Jekyll leaves out what its ``exclude`` setting lists, and every file and folder whose name
  starts with ``_`` (``_includes``, ``_layouts``, ``_data``, ``_sass``, ``_drafts``), except
  ``_posts``, a collection whose ``output`` is true and a name the ``include`` setting lists. A
  Markdown file without front matter stays a page: Jekyll alone copies it unrendered, but GitHub
  Pages, where most Jekyll sites are built, renders it (``jekyll-optional-front-matter`` is one
  of its default plugins, which a site cannot turn off), and a site's files do not say where it
  is built; a wrong exclusion would lose the text.
- Hugo renders no page for content under a section whose ``_index.md`` cascades
  ``build: {render: never, list: never}`` (a headless branch bundle, such as a folder of
  snippets for the ``include`` shortcode; the cascade covers the section's own page unless its
  own ``build`` says otherwise), for a page whose own ``build`` says the same or which is a
  ``headless`` leaf bundle, nor for a content file inside a leaf bundle (a folder with an
  ``index.md``): that one is a resource of the bundle's page. Content that is not rendered but
  still listed (``list: local`` or ``always``, as the Hugo documentation's glossary terms) stays
  documents: a listing template shows its text on another page, and no template is ever run,
  so keeping the documents is the only way that text reaches the store.
- mdBook renders the chapters ``SUMMARY.md`` lists, from the book's ``src`` folder, and no other
  Markdown file; ``SUMMARY.md`` itself is the navigation.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
from functools import lru_cache

from ...bounded_read import read_regular
from ...config import CONFIG_FILE_LIMIT
from ..api import Site
from ..detect import file_stamp, load_config
from ..registry import dialect, load_module
from ..data.front_matter import split_front_matter

# Front matter is at the start of a file: this much of it holds nearly every real one, and a
# longer one is read whole (``front_matter``).
HEAD_LIMIT = 8 * 1024
_MARKDOWN = (".md", ".markdown", ".mdown", ".mkd", ".mkdn")
_HUGO_CONTENT = (*_MARKDOWN, ".html", ".htm", ".org", ".adoc", ".rst", ".ipynb")
_JEKYLL_FOLDERS = {
    "_includes": "Jekyll include, read where a page includes it",
    "_layouts": "Jekyll layout, not a page",
    "_data": "Jekyll data file, read where a page uses it",
    "_sass": "Jekyll stylesheet source, not a page",
    "_drafts": "Jekyll draft, rendered only with --drafts",
}


def _site_folder(site: Site) -> str:
    """The generator's source folder (where its configuration file is), absolute."""
    if site.config_file is None:
        return site.docs_root
    return os.path.dirname(os.path.join(site.repo_root, *site.config_file.split("/")))


def _relative(site: Site, path: str, folder: str) -> str | None:
    rel = os.path.relpath(docs_path(site, path), folder).replace(os.sep, "/")
    return None if rel == ".." or rel.startswith("../") else rel


def jekyll(path: str, site: Site, data: bytes | None = None) -> str | None:
    config = load_config(site)[0]
    rel = _relative(site, path, _site_folder(site))
    if rel is None:
        return None
    parts = rel.split("/")
    excluded = _excluded(rel, [str(x) for x in _list(config.get("exclude"))])
    if excluded is not None:
        return f"listed in exclude of the Jekyll configuration ({excluded})"
    included = {str(x).strip("/") for x in _list(config.get("include"))}
    outputs = {"_posts"} | {f"_{name}" for name, c in _collections(config).items() if c.get("output") is True}
    for depth, part in enumerate(parts):
        if not part.startswith("_") or part in included or "/".join(parts[: depth + 1]) in included:
            continue
        if part in outputs and depth < len(parts) - 1:
            continue
        if part in _JEKYLL_FOLDERS and depth < len(parts) - 1:
            return f"{part}/: {_JEKYLL_FOLDERS[part]}"
        if part[1:] in _collections(config):
            return f"{part}/: collection without output: true, which Jekyll renders no page for"
        return f"{part}: Jekyll leaves out names starting with _"
    return None


def _excluded(rel: str, patterns: list[str]) -> str | None:
    """The ``exclude`` entry that covers ``rel``: a path (a folder covers what is under it) or a
    glob, as Jekyll matches them; None when none does."""
    for pattern in patterns:
        entry = pattern.strip().strip("/")
        if not entry:
            continue
        if rel == entry or rel.startswith(entry + "/") or fnmatch.fnmatchcase(rel, entry):
            return pattern
    return None


def _collections(config: dict) -> dict[str, dict]:
    found = config.get("collections")
    if isinstance(found, list):
        return {str(name): {} for name in found}
    if not isinstance(found, dict):
        return {}
    return {str(name): (c if isinstance(c, dict) else {}) for name, c in found.items()}


def _list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def hugo(path: str, site: Site, data: bytes | None = None) -> str | None:
    """``data``, when given, is the file's bytes as the build read them: its front matter is
    taken from them rather than from a second read of the file."""
    name = path.rpartition("/")[2]
    if not name.lower().endswith(_HUGO_CONTENT):
        return None
    content, rel = _hugo_place(site, path)
    parts = rel.split("/")
    own = _build_front_matter(docs_path(site, path), data)
    if _hidden(own.get("build")) or _hidden(own.get("_build")):
        return "build render and list are never: Hugo renders no page for it"
    if own.get("headless") is True and _stem(name) == "index":
        return "headless bundle: Hugo renders no page for it"
    for depth in range(len(parts) - 1, 0, -1):
        base = content + "/" + "/".join(parts[:depth])
        bundle, headless = _folder(base, *_stamp(base))
        if bundle == "leaf" and not (depth == len(parts) - 1 and _stem(name) == "index"):
            return f"resource of the leaf bundle {'/'.join(parts[:depth])}/index.md, not a page"
        own_section = depth == len(parts) - 1 and _stem(name) == "_index"
        if headless and not own_section:
            return f"under {'/'.join(parts[:depth])}/, whose _index.md cascades build render and list never (a headless section)"
    own_build = own.get("build") if isinstance(own.get("build"), dict) else {}
    if _stem(name) == "_index" and len(parts) > 1 and "render" not in own_build:
        folder = content + "/" + "/".join(parts[:-1])
        if _folder(folder, *_stamp(folder))[1]:
            return "headless section: its cascade sets build render and list never"
    return None


def _hugo_place(site: Site, path: str) -> tuple[str, str]:
    """The folder that bounds the walk up from ``path`` (the content folder, absolute and
    normalised; DOCS when the file is not inside it: DOCS is the content folder under another
    name), and ``path`` relative to it. The folders are worked out once per site: the rule asks
    for every file of a build, and normalising the same folders again was most of its cost."""
    docs_root, content = _hugo_folders(site, *file_stamp(site.repo_root, site.config_file))
    if path.startswith(("/", "./", "../")) or "/./" in path or "/../" in path or "//" in path \
            or path.endswith(("/.", "/..")) or path in (".", ".."):
        rel = _relative(site, path, content)  # not in discovery's form: normalised the general way
        return (content, rel) if rel is not None else (site.docs_root, path)
    prefix = content.rstrip("/") + "/"
    full = docs_root.rstrip("/") + "/" + path
    if full.startswith(prefix):
        return content, full[len(prefix):]
    return site.docs_root, path


@lru_cache(maxsize=8)  # per site and version of its configuration
def _hugo_folders(site: Site, *stamp) -> tuple[str, str]:
    """DOCS and the Hugo content folder, both absolute and normalised."""
    config = load_config(site)[0]
    content_dir = config.get("contentDir") or config.get("contentdir") or "content"
    content = os.path.abspath(os.path.join(_site_folder(site), str(content_dir)))
    return os.path.abspath(site.docs_root), content


def _build_front_matter(abspath: str, data: bytes | None = None) -> dict:
    """A page's front matter when it can say anything about building (most pages' cannot, and
    parsing every page's YAML twice would cost a Hugo build a good part of its time)."""
    text = head(abspath) if data is None else _decoded(data[:HEAD_LIMIT])
    if not text or not text.startswith(("---", "+++")):
        return {}
    end = text.find("\n" + text[:3], 3)
    if end < 0:
        return front_matter(abspath) or {}  # not closed within the head: read it whole
    block = text[:end]
    if "build" not in block and "headless" not in block:
        return {}
    return (front_matter(abspath) if data is None else front_matter_of(text)) or {}


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0]


def _hidden(build) -> bool:
    """``build`` renders the page nowhere and lists it nowhere (module docstring)."""
    if not isinstance(build, dict):
        return False
    return _never(build.get("render")) and _never(build.get("list"))


def _never(value) -> bool:
    return value is False or (isinstance(value, str) and value.strip().lower() in ("never", "false"))


@lru_cache(maxsize=4096)  # per folder and version of it: every file under it asks
def _folder(base: str, *stamp) -> tuple[str | None, bool]:
    """A content folder's bundle kind (``leaf``, ``branch`` or None) and whether it is a headless
    section (its ``_index`` cascades ``build`` render and list never)."""
    for ext in (".md", ".markdown", ".html"):
        if os.path.isfile(os.path.join(base, "index" + ext)):
            return "leaf", False
        index = os.path.join(base, "_index" + ext)
        if os.path.isfile(index):
            return "branch", _headless_index(index, *_stamp(index))
    return None, False


@lru_cache(maxsize=4096)  # per section index and version of it
def _headless_index(index: str, *stamp) -> bool:
    cascade = (front_matter(index) or {}).get("cascade")
    entries = cascade if isinstance(cascade, list) else [cascade]
    # an entry with a _target applies to some pages only: left to Hugo, kept as pages
    return any(
        isinstance(e, dict) and "_target" not in e and "target" not in e
        and (_hidden(e.get("build")) or _hidden(e.get("_build")))
        for e in entries
    )


def mdbook(path: str, site: Site, data: bytes | None = None) -> str | None:
    if not path.lower().endswith(".md"):
        return None
    config = load_config(site)[0]
    book = config.get("book") if isinstance(config.get("book"), dict) else {}
    src_name = book.get("src") if isinstance(book.get("src"), str) and book.get("src").strip() else "src"
    src = os.path.normpath(os.path.join(_site_folder(site), src_name))
    rel = _relative(site, path, src)
    if rel is None:
        return f"outside the book's source folder {src_name}/: mdBook renders no page for it"
    if rel == "SUMMARY.md":
        return "the book's table of contents, read for the chapters' titles"
    chapters = _chapters(os.path.join(src, "SUMMARY.md"), *_stamp(os.path.join(src, "SUMMARY.md")))
    if chapters is None or rel in chapters:
        return None
    return "not listed in SUMMARY.md: mdBook renders only the chapters listed there"


def _stamp(path: str) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return ()
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _chapters(summary: str, *stamp) -> frozenset[str] | None:
    """The chapter files SUMMARY.md lists, or None when there is none to go by (every file a page)."""
    parse_summary = reading_module("mdbook").parse_summary

    if not stamp:
        return None
    try:
        text = read_regular(summary, CONFIG_FILE_LIMIT).decode("utf-8", "replace")
    except OSError:
        return None
    listed = frozenset(parse_summary(text))
    return listed or None


def head(abspath: str) -> str | None:
    """The start of a file as text (its front matter, if it has one); None when unreadable."""
    try:
        # never blocking: a file swapped for a pipe since discovery must not hang the build
        with open(abspath, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as fh:
            data = fh.read(HEAD_LIMIT)
    except OSError:
        return None
    return _decoded(data)


def _decoded(data: bytes) -> str:
    return data.decode("utf-8", "replace").replace("\r\n", "\n")


def front_matter(abspath: str) -> dict | None:
    """A file's front matter as data ({} when it has none or it is malformed); None when the
    file cannot be read."""
    text = head(abspath)
    if text is None:
        return None
    if text.startswith(("---", "+++")) and text.find("\n" + text[:3], 3) < 0:
        try:  # front matter longer than the head: read the whole file (bounded)
            text = _decoded(read_regular(abspath, 4 * 1024 * 1024))
        except OSError:
            return None
    return front_matter_of(text)


def front_matter_of(text: str) -> dict:
    """The front matter of a file's head, already read, whose block closes within it."""
    return split_front_matter(text).data


def docs_path(site: Site, path: str) -> str:
    return os.path.join(site.docs_root, *path.split("/"))


def reading_module(name: str):
    """A dialect's reading module, by its path in the registry's table, imported when first
    asked for (the registry's own loader, cached per process)."""
    return load_module(dialect(name).module)


RULES = {"hugo": hugo, "jekyll": jekyll, "mdbook": mdbook}
