"""The site's label table: what a Sphinx ``:ref:`label``` shows when the label is in another
document (issue 26, "Markup to meaning": what a reader of the rendered page sees stays).

Sphinx shows a ``:ref:`` without a title of its own as the title of the section the label stands
before, in whatever document that is; a label before a figure, a table or a captioned code block
shows its caption, a ``rubric`` its text; any other label has nothing to show, and Sphinx warns
"undefined label" and shows the text as written. Names are compared as docutils normalises them
(``fully_normalize_name``: lower case, whitespace runs as one space), which is also what Sphinx's
``ref`` role does to the target it is given (``lowercase=True``, whitespace collapsed).

The table is built from a line scan, not a parse: every ``.rst`` and MyST ``.md`` under the
source directory (``conf.py``'s folder) is read once per build, when the first page with a ref
asks, and kept by the build's site reader (``SiteReader.once``), so a build pays one walk and
one pass over the source for the whole site, not one docutils parse per referenced page
(``label_scan``), nor one walk per page.

What a ref shows is a dependency of the document that shows it, recorded through
``Context.depend`` as one key per label (``sphinx-label://<source dir>/<label>``, never a file
path: the resolver refuses anything with ``://``) whose sha256 is that of the label's entry, or
``includes.MISSING`` when no document defines it. ``fingerprint.dependency_sha`` recomputes it
through ``current``. So retitling the target section, adding a label a ref was waiting for, or
removing one rebuilds exactly the documents that refer to it, and an edit elsewhere rebuilds
nothing: a ``build --cache`` stays byte-identical to a fresh build.
"""

from __future__ import annotations

import hashlib
import os
import stat
from urllib.parse import quote, unquote

from ...door import SiteDoor
from ...includes import MAX_INCLUDE_BYTES, MISSING
from ..pages import Rules, source_rules
from .label_scan import Label, normalize, scan

SCHEME = "sphinx-label://"
SUFFIXES = (".rst", ".md")
# The reserved memo key under which ``current`` keeps one build's table (``://``: never a path).
_MEMO = "sphinx-label-table://"

def dependency_key(source_dir: str, name: str) -> str:
    return f"{SCHEME}{quote(source_dir, safe='/')}/{quote(normalize(name), safe='')}"


def entry_sha(label: Label | None) -> str:
    """The dependency's sha256: of what the ref shows and where it points; MISSING for none."""
    if label is None:
        return MISSING
    shown = "\0" if label.title is None else label.title
    return hashlib.sha256(f"{label.path}\0{shown}".encode()).hexdigest()


def current(repo_root: str, key: str, memo: dict | None = None) -> str:
    """The sha256 a recorded label dependency has now (``fingerprint.dependency_sha``)."""
    source_dir, _, name = key[len(SCHEME):].rpartition("/")
    source_dir = unquote(source_dir)
    slot = _MEMO + source_dir
    labels = memo.get(slot) if memo is not None else None
    if labels is None:
        labels = site_table(repo_root, source_dir)
        if memo is not None:
            memo[slot] = labels
    return entry_sha(labels.get(unquote(name)))


def lookup(ctx, source_dir: str, name: str, held: dict) -> Label | None:
    """The label ``name`` names, recorded as a dependency of the document ``ctx`` reads (found
    or not: a label added later must rebuild it). ``held`` keeps the table for one document."""
    labels = held.get(source_dir)
    if labels is None:
        reader = ctx.reader
        labels = held[source_dir] = reader.once(
            (__name__, source_dir), lambda: site_table(ctx.site.repo_root, source_dir, reader))
    label = labels.get(normalize(name))
    ctx.depend(dependency_key(source_dir, name), entry_sha(label))
    return label


def resolve(ctx, construct: str, source_dir: str, name: str, line: int, held: dict) -> str | None:
    """What a ``:ref:`name``` without a title of its own shows, from the table, noted for the
    report; None when the label is undefined or shows nothing (the ref keeps its text then,
    as Sphinx's page does after its "undefined label" warning)."""
    label = lookup(ctx, source_dir, name, held)
    if label is None:
        ctx.note(construct, "unresolved", line, f"undefined label: {name}")
        return None
    if label.title is None:
        # No line in the detail: the entry's sha256 covers path and title, and a cached page's
        # notes must stay what a fresh read would write when lines above the label move.
        ctx.note(construct, "unresolved", line, f"label {name} ({label.path}) stands before no"
                 " section title or caption, so the ref needs a title of its own")
        return None
    ctx.note(construct, "resolved", line, f"{name} ({label.path or 'Sphinx'})")
    return label.title


def site_table(repo_root: str, source_dir: str, reader=None) -> dict[str, Label]:
    """``table`` without the files Sphinx reads no page from (``pages.source_rules``: the
    exclusion lists of ``conf.py``, its own patterns, ``include_patterns``): a file that is not
    a page defines no label, by the same rule that leaves it out of the store. ``reader``, the
    build's, keeps the rules."""
    return table(repo_root, source_dir, source_rules(repo_root, source_dir, reader) if repo_root else None)


# The labels Sphinx defines on every site (its standard domain's, and the Python module index's),
# with the titles an English build shows; a document's own label of the same name replaces one.
BUILT_IN = {
    name: Label("", 0, title) for name, title in (
        ("genindex", "Index"), ("modindex", "Module Index"), ("search", "Search Page"),
        ("py-modindex", "Python Module Index"))
}


# ---- the table ----------------------------------------------------------------------------
def table(repo_root: str, source_dir: str, rules: Rules | None = None) -> dict[str, Label]:
    """Normalised label -> ``Label`` for every document under ``source_dir`` (repository-relative).
    The dict is shared by the documents of one build: read it, never change it.

    Files are taken in path order and a later definition replaces an earlier one, as Sphinx's
    table keeps the last document it read (it warns "duplicate label"). ``rules`` None: every
    document file is read."""
    if not repo_root:
        return dict(BUILT_IN)
    found: dict[str, Label] = dict(BUILT_IN)
    door = SiteDoor(repo_root)
    for rel, _full, _stamp in _documents(repo_root, source_dir, rules):
        try:
            data = door.read(rel, MAX_INCLUDE_BYTES)
        except OSError:
            continue
        text = data.decode("utf-8", "replace").replace("\r\n", "\n")
        for name, label in scan(text, rel):
            found[name] = label
    return found


def _documents(repo_root: str, source_dir: str, rules: Rules | None):
    """(repository path, absolute path, stamp) of each document file, sorted. Symbolic links and
    hidden names are not followed, so the scan never leaves the repository; one ``lstat`` per
    document file and none for anything else (``scandir``), since every document that shows a
    ref walks the tree again. An excluded folder is pruned, as Sphinx's own walk does, so each
    name is tested once against the exclusion list (``Rules.excluded``), never its prefixes."""
    top = os.path.join(repo_root, *[p for p in source_dir.split("/") if p])
    out: list[tuple[str, str, tuple[int, int]]] = []
    try:
        SiteDoor(repo_root).real(source_dir or ".")  # the walk starts inside the repository
    except OSError:
        return out
    stack = [(top, "")]
    while stack:
        folder, inside = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)  # from the directory entry: no stat
            except OSError:
                continue
            if not is_dir and not name.endswith(SUFFIXES):
                continue
            rel_inside = f"{inside}/{name}" if inside else name
            if rules is not None and rules.excluded(rel_inside) is not None:
                continue
            if is_dir:
                stack.append((entry.path, rel_inside))
                continue
            if rules is not None and rules.included(rel_inside) is not None:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                rel = f"{source_dir}/{rel_inside}" if source_dir else rel_inside
                out.append((rel, entry.path, (st.st_mtime_ns, st.st_size)))
    out.sort()
    return out


def external(name: str, config: dict) -> bool:
    """Whether ``python:tutorial`` names another project's label (an ``intersphinx_mapping``
    key before the colon): its title is in that project's inventory, never fetched, so the
    ref keeps the text it was reduced to."""
    prefix, colon, _ = name.partition(":")
    mapping = config.get("intersphinx_mapping") if isinstance(config, dict) else None
    return bool(colon) and isinstance(mapping, dict) and prefix in mapping
