"""What the generators' page rules share (issue 26; the hook is ``hook.py``, each generator's rule
is ``pages.py`` in its own sub-package): where the site and its pages folder are, a path relative to a
folder of it, and a page's front matter read from the head of the file through the site's door
(``door.SiteDoor``). The rules take the site's reader (``site_reader``), which keeps what they
work out once per build.
"""

from __future__ import annotations

import os

from ..api import Site
from ..data.front_matter import split_front_matter

# Front matter is at the start of a file: this much of it holds nearly every real one, and a
# longer one is read whole (``front_matter``).
HEAD_LIMIT = 8 * 1024
FRONT_MATTER_LIMIT = 4 * 1024 * 1024


def site_folder(reader) -> str:
    """The generator's site folder, absolute: ``detect.site_folder``, the one rule every dialect
    shares, made absolute for the rules that compare file paths (kept by the reader)."""
    return reader.site_path


def pages_folder(reader, configured: str) -> str:
    """The folder the generator reads pages from, absolute: ``configured`` (``content``, ``src``,
    as its configuration names it) in the site folder; DOCS itself when there is no
    configuration file, the rule's premise (``detect.site_folder``)."""
    if reader.site.config_file is None:
        return reader.site.docs_root
    return os.path.normpath(os.path.join(reader.site_path, configured))


def relative(site: Site, path: str, folder: str) -> str | None:
    """``path`` (relative to DOCS) relative to ``folder``; None when it is not inside it."""
    rel = os.path.relpath(docs_path(site, path), folder).replace(os.sep, "/")
    return None if rel == ".." or rel.startswith("../") else rel


def docs_path(site: Site, path: str) -> str:
    return os.path.join(site.docs_root, *path.split("/"))


def head(reader, abspath: str) -> str | None:
    """The start of a file as text (its front matter, if it has one), read through the site's
    door; None when unreadable."""
    try:
        data = reader.files.head(abspath, HEAD_LIMIT)
    except OSError:
        return None
    return decoded(data)


def decoded(data: bytes) -> str:
    return data.decode("utf-8", "replace").replace("\r\n", "\n")


def front_matter(reader, abspath: str) -> dict | None:
    """A file's front matter as data ({} when it has none or it is malformed); None when the
    file cannot be read."""
    text = head(reader, abspath)
    if text is None:
        return None
    if text.startswith(("---", "+++")) and text.find("\n" + text[:3], 3) < 0:
        try:  # front matter longer than the head: read the whole file (bounded)
            text = decoded(reader.files.read(abspath, FRONT_MATTER_LIMIT))
        except OSError:
            return None
    return front_matter_of(text)


def front_matter_of(text: str) -> dict:
    """The front matter of a file's head, already read, whose block closes within it."""
    return split_front_matter(text).data
