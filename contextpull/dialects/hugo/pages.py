"""Which files Hugo renders as pages (issue 26; the hook is ``pages/hook.py``), Hugo's own rule,
read from its documentation: Hugo renders no page for content under a section whose
``_index.md`` cascades ``build: {render: never, list: never}`` (a headless branch bundle, such as
a folder of snippets for the ``include`` shortcode; the cascade covers the section's own page
unless its own ``build`` says otherwise), for a page whose own ``build`` says the same or which
is a ``headless`` leaf bundle, for one the configuration's ``cascade`` reaches with the same
``build`` through a ``target.path`` glob, nor for a content file inside a leaf bundle (a folder with an
``index.md``): that one is a resource of the bundle's page. Content that is not rendered but
still listed (``list: local`` or ``always``, as the Hugo documentation's glossary terms) stays
documents: a listing template shows its text on another page, and no template is ever run, so
keeping the documents is the only way that text reaches the store.
"""

from __future__ import annotations

import os

from ...scan.globmatch import Glob, alternatives, compile_glob, slash_tokens
from ..pages.site_files import HEAD_LIMIT, decoded, docs_path, front_matter, front_matter_of, pages_folder, relative

_CONTENT = (".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".html", ".htm", ".org", ".adoc", ".rst", ".ipynb")


def skip(path: str, reader, data: bytes | None = None) -> str | None:
    """Why Hugo renders no page for ``path`` (relative to DOCS), or None (module docstring).
    ``data``, when given, is the file's bytes as the build read them: its front matter is taken
    from them rather than from a second read of the file."""
    name = path.rpartition("/")[2]
    if not name.lower().endswith(_CONTENT):
        return None
    stem = _stem(name)
    content, rel = _place(reader, path)
    parts = rel.split("/")
    own = _build_front_matter(reader, docs_path(reader.site, path), data)
    if _hidden(own.get("build")) or _hidden(own.get("_build")):
        return "build render and list are never: Hugo renders no page for it"
    if own.get("headless") is True and stem == "index":
        return "headless bundle: Hugo renders no page for it"
    for depth in range(len(parts) - 1, 0, -1):
        base = content + "/" + "/".join(parts[:depth])
        bundle, headless = _folder(reader, base)
        if bundle == "leaf" and not (depth == len(parts) - 1 and stem == "index"):
            return f"resource of the leaf bundle {'/'.join(parts[:depth])}/index.md, not a page"
        own_section = depth == len(parts) - 1 and stem == "_index"
        if headless and not own_section:
            return f"under {'/'.join(parts[:depth])}/, whose _index.md cascades build render and list never (a headless section)"
    own_build = own.get("build") if isinstance(own.get("build"), dict) else {}
    cascaded = _site_cascade_hidden(reader) if "render" not in own_build else []
    if cascaded:  # most sites cascade nothing: the page's logical path is made only to match one
        logical = "/" + "/".join(parts[:-1] if stem in ("index", "_index") else [*parts[:-1], stem])
        for pattern, glob in cascaded:
            if glob.match(logical.lower()):
                return f"the site configuration cascades build render and list never to {pattern}"
    if stem == "_index" and len(parts) > 1 and "render" not in own_build:
        folder = content + "/" + "/".join(parts[:-1])
        if _folder(reader, folder)[1]:
            return "headless section: its cascade sets build render and list never"
    return None


def _place(reader, path: str) -> tuple[str, str]:
    """The folder that bounds the walk up from ``path`` (the content folder, absolute and
    normalised; DOCS when the file is not inside it: DOCS is the content folder under another
    name), and ``path`` relative to it. The folders are worked out once per site: the rule asks
    for every file of a build, and normalising the same folders again was most of its cost."""
    site = reader.site
    docs_root, content = reader.once((__name__, "folders"), lambda: _folders(reader))
    if path.startswith(("/", "./", "../")) or "/./" in path or "/../" in path or "//" in path \
            or path.endswith(("/.", "/..")) or path in (".", ".."):
        rel = relative(site, path, content)  # not in discovery's form: normalised the general way
        return (content, rel) if rel is not None else (site.docs_root, path)
    prefix = content.rstrip("/") + "/"
    full = docs_root.rstrip("/") + "/" + path
    if full.startswith(prefix):
        return content, full[len(prefix):]
    return site.docs_root, path


def _folders(reader) -> tuple[str, str]:
    """DOCS and the Hugo content folder, both absolute and normalised (once per build)."""
    config = reader.config
    content_dir = config.get("contentDir") or config.get("contentdir") or "content"
    content = os.path.abspath(pages_folder(reader, str(content_dir)))
    return os.path.abspath(reader.site.docs_root), content


def _build_front_matter(reader, abspath: str, data: bytes | None = None) -> dict:
    """A page's front matter when it can say anything about building (``_may_say_build``: most
    pages' cannot, and parsing every page's YAML twice would cost a Hugo build a good part of
    its time). ``data`` is the page's bytes when the build has read them; else its head is read."""
    if data is None:
        try:
            data = reader.files.head(abspath, HEAD_LIMIT)
        except OSError:
            return {}
    if not _may_say_build(data):  # asked of the whole: it reads no further than HEAD_LIMIT
        return {}
    data = data[:HEAD_LIMIT]
    if data.find(b"\n" + data[:3], 3) < 0:
        return front_matter(reader, abspath) or {}  # not closed within the head: read it whole
    return front_matter_of(decoded(data)) or {}


def _may_say_build(data: bytes) -> bool:
    """Whether the front matter at the start of ``data`` can say ``build`` or ``headless``: it
    opens with a fence, and its block, closed within ``HEAD_LIMIT``, holds one of the words, or
    is not closed there. Asked of bytes, so that for the pages it cannot (976 of the 993 of
    Hugo's docs) nothing is decoded: the fences and the words are ASCII, which decoding and its
    newline rule neither make nor hide."""
    if not data.startswith((b"---", b"+++")):
        return False
    end = data.find(b"\n" + data[:3], 3, HEAD_LIMIT)
    return end < 0 or data.find(b"build", 0, end) >= 0 or data.find(b"headless", 0, end) >= 0


def _site_cascade_hidden(reader) -> list[tuple[str, Glob]]:
    """The ``target.path`` globs of the configuration's ``cascade`` entries that set ``build``
    render and list never (opentelemetry.io's, for every ``_includes`` folder: ``{,/**}/_includes{,/**}``),
    compiled once per build. An entry whose target also names a kind, language or environment
    reaches some of those pages only and is left to Hugo."""
    def compile_all() -> list[tuple[str, Glob]]:
        cascade = reader.config.get("cascade")
        found = []
        for entry in cascade if isinstance(cascade, list) else [cascade]:
            target = entry.get("target", entry.get("_target")) if isinstance(entry, dict) else None
            if not (isinstance(target, dict) and set(target) == {"path"} and isinstance(target["path"], str)):
                continue
            if _hidden(entry.get("build")) or _hidden(entry.get("_build")):
                found += [(target["path"], compile_glob(slash_tokens(alt, empty_folders=False)))
                          for alt in alternatives(target["path"].lower())]
        return found

    return reader.once((__name__, "site cascade"), compile_all)


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0]


def _hidden(build) -> bool:
    """``build`` renders the page nowhere and lists it nowhere (module docstring)."""
    if not isinstance(build, dict):
        return False
    return _never(build.get("render")) and _never(build.get("list"))


def _never(value) -> bool:
    return value is False or (isinstance(value, str) and value.strip().lower() in ("never", "false"))


def _folder(reader, base: str) -> tuple[str | None, bool]:
    """A content folder's bundle kind (``leaf``, ``branch`` or None) and whether it is a headless
    section (its ``_index`` cascades ``build`` render and list never): worked out once per
    folder and build, as every file under it asks."""
    return reader.once((__name__, base), lambda: _bundle(reader, base))


def _bundle(reader, base: str) -> tuple[str | None, bool]:
    for ext in (".md", ".markdown", ".html"):
        if reader.files.is_file(os.path.join(base, "index" + ext)):
            return "leaf", False
        index = os.path.join(base, "_index" + ext)
        if reader.files.is_file(index):
            return "branch", _headless_index(reader, index)
    return None, False


def _headless_index(reader, index: str) -> bool:
    cascade = (front_matter(reader, index) or {}).get("cascade")
    entries = cascade if isinstance(cascade, list) else [cascade]
    # an entry with a _target applies to some pages only: left to Hugo, kept as pages
    return any(
        isinstance(e, dict) and "_target" not in e and "target" not in e
        and (_hidden(e.get("build")) or _hidden(e.get("_build")))
        for e in entries
    )
