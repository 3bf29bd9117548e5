"""Starlight's UI strings: what ``Astro.locals.t('key')`` prints in a component of the site. A
Starlight site keeps its own strings in its ``i18n`` content collection,
``src/content/i18n/<language>.{json,yml,yaml}`` beside its pages (Astro's docs: ``en.yml`` with
``since.addedIn: 'Added in:'``), one file a language, read here as data, never run.

The language is the page's locale folder (``src/content/docs/en/...``) when a strings file of that
name is there, compared without case (Starlight names the file by the locale's language tag,
``zh-CN.yml`` for the folder ``zh-cn``); a page outside every locale folder is the root locale's,
read from the English file Starlight defaults it to. Starlight's own built-in strings (its
asides' and search's labels) are not here: a key found in no file of the site is not known, and
the caller keeps the MDX rules' reading.

The file is read through the page's door (``Context.read_data``), a dependency of the page, and
parsed once a build (``data.values.parse_data``).
"""

from __future__ import annotations

import posixpath

from ..data.values import parse_data

FOLDER = "src/content/i18n"
PAGES = "src/content/docs"
_EXTENSIONS = (".json", ".yml", ".yaml")
DEFAULT_LANGUAGE = "en"


def lookup(key: str, ctx) -> str | None:
    """The string the site's strings file for the page's language gives ``key``, or None."""
    strings = _strings(ctx)
    value = strings.get(key) if isinstance(strings, dict) else None
    return value if isinstance(value, str) else None


def _strings(ctx) -> object:
    site = ctx.reader.site_folder
    folder = posixpath.join(site, FOLDER) if site else FOLDER
    names = ctx.reader.once((__name__, "files"), lambda: _files(ctx.reader, folder))
    language = _language(ctx, site, names)
    name = names.get(language.lower()) or names.get(DEFAULT_LANGUAGE)
    if name is None:
        return None
    found = ctx.read_data_with_sha(posixpath.join(folder, name))
    if found is None:
        return None
    raw, sha = found
    return parse_data(raw, posixpath.splitext(name)[1], sha, ctx)


def _files(reader, folder: str) -> dict[str, str]:
    """The strings files of the site: language in lower case -> file name (listed once a build
    through the site's door; JSON first, as Starlight's loader takes it)."""
    listed = [entry.name for entry in reader.files.scandir(folder)]
    out: dict[str, str] = {}
    for ext in _EXTENSIONS:
        for name in sorted(listed):
            stem, dot, suffix = name.rpartition(".")
            if dot and "." + suffix.lower() == ext:
                out.setdefault(stem.lower(), name)
    return out


def _language(ctx, site: str, names: dict[str, str]) -> str:
    pages = posixpath.join(site, PAGES) if site else PAGES
    rel = posixpath.relpath(ctx.repo_path, pages)
    first = rel.split("/", 1)[0]
    return first if "/" in rel and not rel.startswith("..") and first.lower() in names else DEFAULT_LANGUAGE
