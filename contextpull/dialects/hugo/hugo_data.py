"""Where a Hugo site keeps what its shortcodes look up: the content folder pages are included
from, the ``data/`` files, the ``[params]`` table (issue 26, "Includes"; Hugo's configuration
reference, ``contentDir`` and ``module.mounts``).

Everything read here is read as data through the build's ``Context`` (``read_data``), so it is a
dependency of the page, and bounded: a value found in a data file is shown only when it is small
enough to print, whatever aliases its YAML uses.
"""

from __future__ import annotations

import itertools
import os
import posixpath

from ..api import Context, Included
from ..data.front_matter import split_front_matter
from ..includes import MISSING
from ..data.values import VALUE_NODES, dotted, nodes, note_object_tags, note_unreadable, parse_data, scalar
from ..pages.site_files import decoded, front_matter_of


def site_root(ctx: Context) -> str:
    """The Hugo project folder, relative to the repository root ("" for the root itself): the
    one rule every dialect shares (``detect.site_folder``)."""
    return ctx.reader.site_folder


def block_attributes(ctx: Context) -> bool:
    """Whether the site turned on Goldmark's block attributes (off by default in Hugo)."""
    config = ctx.config if isinstance(ctx.config, dict) else {}
    return dotted(config, "markup.goldmark.parser.attribute.block") is True


def content_roots(ctx: Context) -> list[str]:
    """The folders mounted as content, most specific first, relative to the repository root;
    DOCS alone without a configuration file (``detect.site_folder``, as the page rules)."""
    if not ctx.site.config_file:
        return [ctx.reader.docs_folder]
    root = site_root(ctx)
    config = ctx.config if isinstance(ctx.config, dict) else {}
    found = [source for source, target in _mounts(config) if target == "content"]
    languages = config.get("languages")
    for lang in (languages.values() if isinstance(languages, dict) else []):
        if isinstance(lang, dict) and isinstance(lang.get("contentDir"), str):
            found.append(lang["contentDir"])
    if isinstance(config.get("contentDir"), str):
        found.append(config["contentDir"])
    found.append("content")
    out: list[str] = []
    for folder in found:
        rel = posixpath.normpath(posixpath.join(root, folder.strip("/")))
        if rel not in out:
            out.append(rel)
    return out


def _mounts(config: dict) -> list[tuple[str, str]]:
    """(source, target) of each ``module.mounts`` entry that names both, as written."""
    module = config.get("module")
    mounts = module.get("mounts") if isinstance(module, dict) else None
    return [(m["source"], m["target"].strip("/")) for m in (mounts if isinstance(mounts, list) else [])
            if isinstance(m, dict) and isinstance(m.get("source"), str) and isinstance(m.get("target"), str)]


def file_candidates(ctx: Context, target: str) -> list[str]:
    """Where ``readfile`` may find ``target``, in order. Docsy's shortcode (the ``readfile`` most
    sites have) reads a relative path from the page's own folder (the page's, also inside an
    included file, as its template asks ``.Page``) and a path starting with ``/`` from the
    content root, a file or folder mounted below it included (``module.mounts``); the path from
    the site root comes last, as a site's own older ``readfile`` read it."""
    rel = target.strip("/")
    found: list[str] = []
    if target.startswith("/"):
        root = site_root(ctx)
        config = ctx.config if isinstance(ctx.config, dict) else {}
        for source, into in _mounts(config) if ctx.site.config_file else []:
            sub = into.removeprefix("content").strip("/") if into.startswith("content/") else None
            if sub and (rel == sub or rel.startswith(sub + "/")):
                found.append(posixpath.join(root, source, rel[len(sub):].lstrip("/")))
        found += [posixpath.join(base, rel) for base in content_roots(ctx)]
    else:
        found.append(posixpath.join(ctx.folder, rel))
    found.append(posixpath.join(site_root(ctx), rel))
    out: list[str] = []
    for path in found:
        path = posixpath.normpath(path)
        if path not in out:
            out.append(path)
    return out


def page_candidates(ctx: Context, target: str, within: Included | None) -> list[str]:
    """The files a page path may name, in the order Hugo's ``GetPage`` tries them: relative to
    the including page, then from each content root; ``x`` may be ``x.md``, ``x/index.md`` or
    ``x/_index.md``."""
    if target.startswith("/"):
        bases = content_roots(ctx)
    else:
        here = within.folder if within is not None else ctx.folder
        bases = [here, *content_roots(ctx)]
    rel = target.strip("/")
    forms = [rel] if rel.endswith((".md", ".markdown", ".html")) else [
        rel + ".md", rel + "/index.md", rel + "/_index.md", rel]
    return [posixpath.normpath(posixpath.join(base, form)) for base in bases for form in forms]


def snippet_candidates(ctx: Context, target: str) -> list[str]:
    """Where a site's own ``include`` looks when ``GetPage`` finds nothing: an ``_includes``
    folder beside the including page, then beside each of its ancestor sections up to the
    content root (opentelemetry.io's ``func/find-include``: a path not starting with ``/`` or
    ``.`` is ``_includes/PATH`` from the page, then from each ``.Parent``). The page is the one
    being built, also inside an included file, as the template asks ``._dot.Page``; the folders
    of a headless ``_includes`` cascade are never pages, so nothing else resolves there."""
    if target.startswith(("/", ".")):
        return []
    rel = posixpath.join("_includes", target.strip("/"))
    found: list[str] = []
    for root in content_roots(ctx):
        if ctx.folder != root and not ctx.folder.startswith(root + "/"):
            continue
        folder = ctx.folder
        while True:
            found.append(posixpath.join(folder, rel) if folder else rel)
            if folder == root or not folder:
                break
            folder = posixpath.dirname(folder)
        break
    return found


def choose(ctx: Context, candidates: list[str]) -> str | None:
    """The first candidate that exists. Each one tried before it is recorded as a missing
    dependency (``read_data`` of an absent file), so creating it later rebuilds the page, as
    Hugo would then render that one instead."""
    for candidate in candidates:
        found = find(ctx, candidate)
        if found is not None:
            return found
        ctx.read_data(candidate)
    return None


def named(ctx: Context, candidates: list[str]) -> str:
    """Of candidates none of which is a readable file, the first whose name is there at all (a
    link out of the repository, a folder), so the resolver names why it refuses it; else the
    first: the report then says where the generator looks first."""
    root = ctx.site.repo_root or "."
    return next((c for c in candidates if not c.startswith("..") and os.path.lexists(os.path.join(root, c))),
                candidates[0])


def find(ctx: Context, rel: str) -> str | None:
    """The file a candidate names inside the repository, matched without case where the exact
    name is absent (Hugo's logical paths are lower case: ``/functions/reflect/isimageresource``
    is ``IsImageResource.md``). Only a choice among candidates: the resolver still guards the
    read. What is there is looked at once per build (``_is_file``, ``_names``): pages include
    the same snippets, and the candidates tried before one are the same folders walked again."""
    if rel.startswith("..") or posixpath.isabs(rel):
        return None
    if _is_file(ctx, rel):
        return rel
    found = ""
    for part in rel.split("/"):
        names = _names(ctx, found or ".")
        if not names:
            return None
        match = next((n for n in names if n.lower() == part.lower()), None)
        if match is None:
            return None
        found = posixpath.join(found, match) if found else match
    return found if _is_file(ctx, found) else None


def _is_file(ctx: Context, rel: str) -> bool:
    return ctx.reader.once((__name__, "is file", rel), lambda: ctx.reader.files.is_file(rel))


def _names(ctx: Context, folder: str) -> list[str]:
    """The names in a folder of the repository, sorted."""
    return ctx.reader.once((__name__, "names", folder),
                           lambda: sorted(entry.name for entry in ctx.reader.files.scandir(folder)))


def _split(text: str, ctx: Context | None):
    """The included page split; once per build and text, as one snippet is included by many
    pages (``ctx`` None: split now)."""
    if ctx is None:
        return split_front_matter(text)
    return ctx.reader.once((__name__, "split", text), lambda: split_front_matter(text))


def drop_front_matter(text: str, ctx: Context | None = None) -> str:
    """An included page's body: Hugo renders its content, never its front matter."""
    return _split(text, ctx).body.lstrip("\n")


def front_matter_value(text: str, key: str, ctx: Context | None = None) -> str | None:
    """One scalar of an included page's front matter (YAML or TOML), e.g. its description."""
    data = _split(text, ctx).data
    return scalar(data.get(key)) if isinstance(data, dict) else None


def param(ctx: Context, key: str) -> str | None:
    """A page parameter (front matter ``params``, then its top level), else a site one; Hugo's
    keys are case-insensitive."""
    front = getattr(ctx, "front_matter", None) or {}
    config = ctx.config if isinstance(ctx.config, dict) else {}
    if not key:
        return None
    own = (front.get("params") if isinstance(front, dict) else None, front)
    site = (config.get("params"), _folder_params(ctx))
    for table in itertools.chain(own, _cascaded(ctx), site):  # the sections are read only when asked
        value = dotted(table, key)
        if value is not None:
            return scalar(value)
    return None


def _cascaded(ctx: Context):
    """What the page's sections cascade to it, nearest first, each entry's ``params`` then its
    top level (Hugo puts a cascaded key that is no page field in ``.Params``: opentelemetry.io
    versions its code samples with ``cascade: {vers: ...}`` on a language's ``_index.md``), then
    the site configuration's. Only entries without a target: one with ``_target`` or ``target``
    reaches some pages only, which is left to Hugo. Generated lazily: most lookups end in the
    page's own front matter, and reading the sections is then not needed."""
    config = ctx.config if isinstance(ctx.config, dict) else {}
    for data in (*_section_front_matters(ctx), {"cascade": config.get("cascade")}):
        cascade = data.get("cascade") if isinstance(data, dict) else None
        for entry in cascade if isinstance(cascade, list) else [cascade]:
            if isinstance(entry, dict) and "_target" not in entry and "target" not in entry:
                yield entry.get("params")
                yield entry


def _section_front_matters(ctx: Context):
    """The front matter of each ``_index.md`` from the page's folder up to its content root (the
    page's own when it is one). Each is read once per page, through the page's context, so it is
    a dependency (an absent one too: adding it changes what cascades) and its digest finds the
    parsed data kept for the build."""
    folder = ctx.folder
    root = next((r for r in content_roots(ctx) if folder == r or folder.startswith(r + "/") or not r), None)
    while root is not None:
        index = posixpath.join(folder, "_index.md") if folder else "_index.md"
        yield getattr(ctx, "front_matter", None) if index == ctx.repo_path else _front_matter_of(ctx, index)
        if folder == root or not folder:
            return
        folder = posixpath.dirname(folder)


def _front_matter_of(ctx: Context, path: str) -> dict | None:
    deps = getattr(ctx, "deps", None)
    sha = deps.get(path) if isinstance(deps, dict) else None
    if sha == MISSING:
        return None
    key = (__name__, "front matter", path, sha)
    if sha is None or (data := ctx.reader.get(key)) is None:
        found = ctx.read_data_with_sha(path)
        if found is None:
            return None
        raw, sha = found
        key = (__name__, "front matter", path, sha)
        data = ctx.reader.once(key, lambda: front_matter_of(decoded(raw)) or {})
    return data if isinstance(data, dict) else None


def _folder_params(ctx: Context) -> object:
    """The ``params`` file beside a configuration kept in Hugo's configuration folder
    (``config/_default/params.yaml``: there a root key may have a file of its own), read as
    data through the page's context, so it is the page's dependency; None for a site whose one
    file holds its ``[params]``, or without that file."""
    config_file = ctx.site.config_file
    folder = posixpath.dirname(config_file) if config_file else None
    if folder is None or folder == site_root(ctx):
        return None
    for ext in (".toml", ".yaml", ".yml", ".json"):
        path = posixpath.join(folder, "params" + ext)
        found = ctx.read_data_with_sha(path)
        if found is not None:
            raw, digest = found
            return parse_data(raw, ext, digest, ctx)
    return None


def embedded_template_url(ctx: Context, name: str, line: int = 0) -> str | None:
    table = _data_file(ctx, "embedded_template_urls", line)[0]
    if not isinstance(table, dict):
        return None
    base, path = table.get("base_url"), table.get(name)
    if not isinstance(base, str) or not isinstance(path, str):
        return None
    return base.rstrip("/") + "/" + path.lstrip("/")


def docs_section(ctx: Context, key: str, *, section: str | None, skip_header: bool, line: int = 0) -> str | None:
    """The docs site's ``hugo.Data.docs`` section ``key`` (under ``section``) as YAML, nested
    under its dotted key as ``code-toggle`` prints it; None when absent or too large. Each one
    printed is kept for the build, by the data file's digest: printing is pure Python, and a
    key two pages show need not be printed twice."""
    docs, identity = _data_file(ctx, "docs", line)
    if identity is None:
        return _section(docs, key, section, skip_header)
    return ctx.reader.once((__name__, "section", identity, section, key, skip_header),
                           lambda: _section(docs, key, section, skip_header))


def _section(docs: object, key: str, section: str | None, skip_header: bool) -> str | None:
    keys = key.split(".")
    # Hugo reads configuration keys without case: config=markup.asciidocExt finds asciiDocExt.
    value = dotted(docs.get(section) if section and isinstance(docs, dict) else docs, key)
    if value is None or nodes(value) > VALUE_NODES:
        return None
    if not skip_header:
        for k in reversed(keys):
            value = {k: value}
    # both need PyYAML, which a site without YAML never imports (``files.load_yaml``)
    import yaml

    from ..data import yaml_print

    printed = yaml_print.dump(value)  # PyYAML's printer is pure Python: most sections are simple
    if printed is not yaml_print.DECLINED:
        return printed

    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False)


def _data_file(ctx: Context, stem: str, line: int = 0) -> tuple[object, str | None]:
    """The data file's value and what identifies it (the sha256 of its bytes and its format;
    None, None when there is none). It is read through ``ctx.read_data`` on every call, which
    records it as the page's dependency (the fingerprint covers it); the digest comes with the
    bytes, so they are not hashed again to find the parsed value. A file that is not
    data (malformed, an alias bomb) is named once on the page, at ``line``, the place that asked."""
    base = posixpath.join(site_root(ctx), "data", stem).lstrip("/")
    for ext in (".yaml", ".yml", ".toml", ".json"):
        path = base + ext
        found = ctx.read_data_with_sha(path)
        if found is not None:
            raw, digest = found
            note_object_tags(ctx, raw, path, ext)
            value = parse_data(raw, ext, digest, ctx)
            note_unreadable(ctx, raw, path, ext, line, digest)
            return value, digest + ext
    return None, None
