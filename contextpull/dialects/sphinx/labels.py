"""The site's label table: what a Sphinx ``:ref:`label``` shows when the label is in another
document (issue 26, "Markup to meaning": what a reader of the rendered page sees stays).

Sphinx shows a ``:ref:`` without a title of its own as the title of the section the label stands
before, in whatever document that is; a label before a figure, a table or a captioned code block
shows its caption, a ``rubric`` its text; any other label has nothing to show, and Sphinx warns
"undefined label" and shows the text as written. Names are compared as docutils normalises them
(``fully_normalize_name``: lower case, whitespace runs as one space), which is also what Sphinx's
``ref`` role does to the target it is given (``lowercase=True``, whitespace collapsed).

The table is built from a line scan, not a parse: every ``.rst`` and MyST ``.md`` under the
source directory (``conf.py``'s folder) is read once per process and version of the file
(``(mtime_ns, size)``, as ``detect.load_config`` caches), so a build pays one pass over the
source for the whole site, not one docutils parse per referenced page. The scan knows
``.. _label:`` and ``:name:`` (rst), ``(label)=`` (MyST), and the element that follows.

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
import posixpath
import re
import stat
from dataclasses import dataclass
from urllib.parse import quote, unquote

from ...bounded_read import read_regular
from ..api import Site
from ..detect import file_stamp, load_config
from ..includes import MAX_INCLUDE_BYTES, MISSING
from .doc_titles import ADORNMENT, CODE_SPAN, plain_title

SCHEME = "sphinx-label://"
SUFFIXES = (".rst", ".md")
# The reserved memo key under which ``current`` keeps one build's table (``://``: never a path).
_MEMO = "sphinx-label-table://"

_RST_TARGET = re.compile(r"^(\s*)\.\.\s+_(?:`(?P<quoted>[^`]+)`|(?P<name>[^`_\s].*?)):\s*$")
_RST_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:.+-]+)::(.*)$")
_RST_OPTION = re.compile(r"^\s+:([\w-]+):(?:\s+(.*))?$")
_MYST_TARGET = re.compile(r"^\s{0,3}\(([^()\s][^()]*)\)=\s*$")
_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)(?:\s+#+)?\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_MYST_DIRECTIVE = re.compile(r"^\s*(?:`{3,}|~{3,})\{([\w:.+-]+)\}(.*)$")
_MYST_OPTION = re.compile(r"^\s*:([\w-]+):(?:\s+(.*))?$")
_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}`([^`]*?)(?:\s*<[^`]*>)?`")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")

# Directives whose label shows a caption or title (Sphinx's enumerable nodes, and rubric).
_CAPTION_OPTION = ("code-block", "code", "sourcecode", "literalinclude")
_TITLE_ARGUMENT = ("table", "list-table", "csv-table", "rubric")


@dataclass(frozen=True)
class Label:
    """Where one label stands and what a ref to it shows (None: nothing, "undefined label")."""

    path: str  # repository path of the document that defines it
    line: int  # 1-based
    title: str | None  # as the link shows it: plain text (Sphinx's ``clean_astext``), no code type


def normalize(name: str) -> str:
    """A label as Sphinx looks it up: docutils' ``fully_normalize_name``."""
    return " ".join(name.lower().split())


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
        labels = held[source_dir] = site_table(ctx.site.repo_root, source_dir)
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
    ctx.note(construct, "resolved", line, f"{name} ({label.path})")
    return label.title


def site_table(repo_root: str, source_dir: str) -> dict[str, Label]:
    """``table`` without the files ``exclude_patterns`` in the source directory's ``conf.py``
    leaves out (Sphinx reads no page from them, so they define no label)."""
    return table(repo_root, source_dir, _exclude(repo_root, source_dir))


def _exclude(repo_root: str, source_dir: str) -> tuple[str, ...]:
    conf = posixpath.join(source_dir, "conf.py") if source_dir else "conf.py"
    if file_stamp(repo_root, conf)[1] < 0:
        return ()
    config, _ = load_config(Site("sphinx", conf, repo_root, repo_root))
    patterns = config.get("exclude_patterns") if isinstance(config, dict) else None
    if not isinstance(patterns, (list, tuple)):
        return ()
    return tuple(p for p in patterns if isinstance(p, str))


# ---- the table ----------------------------------------------------------------------------
# Absolute path -> ((mtime_ns, size), labels found): one scan per process and version of a file.
_SCANNED: dict[str, tuple[tuple[int, int], tuple[tuple[str, Label], ...]]] = {}


def table(repo_root: str, source_dir: str, exclude: tuple[str, ...] = ()) -> dict[str, Label]:
    """Normalised label -> ``Label`` for every document under ``source_dir`` (repository-relative).

    Files are taken in path order and a later definition replaces an earlier one, as Sphinx's
    table keeps the last document it read (it warns "duplicate label")."""
    found: dict[str, Label] = {}
    if not repo_root:
        return found
    for rel, full, stamp in _documents(repo_root, source_dir, exclude):
        cached = _SCANNED.get(full)
        if cached is None or cached[0] != stamp:
            try:
                data = read_regular(full, MAX_INCLUDE_BYTES)
            except OSError:
                continue
            text = data.decode("utf-8", "replace").replace("\r\n", "\n")
            cached = (stamp, tuple(scan(text, rel)))
            _SCANNED[full] = cached
        for name, label in cached[1]:
            found[name] = label
    return found


def _documents(repo_root: str, source_dir: str, exclude: tuple[str, ...]):
    """(repository path, absolute path, stamp) of each document file, sorted. Symbolic links and
    hidden names are not followed, so the scan never leaves the repository; one ``lstat`` per
    entry (``scandir``), since every document that shows a ref walks the tree again."""
    top = os.path.join(repo_root, *[p for p in source_dir.split("/") if p])
    matchers = [_pattern(p) for p in exclude]
    out: list[tuple[str, str, tuple[int, int]]] = []
    stack = [(top, "")]
    while stack:
        folder, inside = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel_inside = f"{inside}/{entry.name}" if inside else entry.name
            if any(m.match(rel_inside) for m in matchers):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                stack.append((entry.path, rel_inside))
            elif stat.S_ISREG(st.st_mode) and entry.name.endswith(SUFFIXES):
                rel = f"{source_dir}/{rel_inside}" if source_dir else rel_inside
                out.append((rel, entry.path, (st.st_mtime_ns, st.st_size)))
    out.sort()
    return out


def _pattern(glob: str) -> re.Pattern:
    """A Sphinx ``exclude_patterns`` entry: ``*`` within one folder, ``**`` across folders."""
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?$")


# ---- the scan -----------------------------------------------------------------------------
def scan(text: str, path: str) -> list[tuple[str, Label]]:
    """The labels one document defines, in order; MyST when ``path`` is ``.md``."""
    lines = text.split("\n")
    if path.endswith(".md"):
        return _scan_myst(lines, path)
    return _scan_rst(lines, path)


def _scan_rst(lines: list[str], path: str) -> list[tuple[str, Label]]:
    out: list[tuple[str, Label]] = []
    pending: list[tuple[str, int]] = []
    n = len(lines)
    for i, line in enumerate(lines):
        target = _RST_TARGET.match(line) if ".. _" in line else None
        if target is not None:
            name = target.group("quoted") or target.group("name").replace("\\:", ":")
            pending.append((normalize(name), i + 1))
            continue
        if not line.strip():
            continue
        directive = _RST_DIRECTIVE.match(line)
        if pending:
            title = _rst_title(lines, i) if directive is None else _directive_title(lines, i, directive)
            out.extend((name, Label(path, number, title)) for name, number in pending)
            pending = []
        if directive is not None:
            options = _options(lines, i)
            if options.get("name"):
                out.append((normalize(options["name"]), Label(path, i + 1, _directive_title(lines, i, directive))))
    out.extend((name, Label(path, number, None)) for name, number in pending)
    return out


def _rst_title(lines: list[str], i: int) -> str | None:
    """The section title that starts at line ``i`` (underlined, or over- and underlined)."""
    line = lines[i]
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if line[:1].isspace():
        return None
    if ADORNMENT.match(line.rstrip()) and i + 2 < len(lines):
        text, under = lines[i + 1].strip(), lines[i + 2].rstrip()
        if text and ADORNMENT.match(under) and not ADORNMENT.match(text):
            return _shown(text)
        return None
    if ADORNMENT.match(following.rstrip()) and not ADORNMENT.match(line.strip()):
        return _shown(line.strip())
    return None


def _options(lines: list[str], i: int) -> dict[str, str]:
    options: dict[str, str] = {}
    for line in lines[i + 1 :]:
        match = _RST_OPTION.match(line)
        if match is None:
            break
        options[match.group(1)] = (match.group(2) or "").strip()
    return options


def _directive_title(lines: list[str], i: int, directive: re.Match) -> str | None:
    name = directive.group(2).lower().rsplit(":", 1)[-1]
    argument = directive.group(3).strip()
    if name in _TITLE_ARGUMENT:
        return _shown(argument) if argument else None
    if name in _CAPTION_OPTION:
        caption = _options(lines, i).get("caption")
        return _shown(caption) if caption else None
    if name == "figure":
        return _figure_caption(lines, i)
    return None


def _figure_caption(lines: list[str], i: int) -> str | None:
    """A figure's caption: the first paragraph of its body, after its options."""
    j = i + 1 + len(_options(lines, i))
    while j < len(lines) and not lines[j].strip():
        j += 1
    caption = []
    while j < len(lines) and lines[j].strip() and lines[j][:1].isspace():
        caption.append(lines[j].strip())
        j += 1
    return _shown(" ".join(caption)) if caption else None


def _scan_myst(lines: list[str], path: str) -> list[tuple[str, Label]]:
    out: list[tuple[str, Label]] = []
    pending: list[tuple[str, int]] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        target = _MYST_TARGET.match(line)
        if target is not None:
            pending.append((normalize(target.group(1)), i + 1))
            i += 1
            continue
        if not line.strip():
            i += 1
            continue
        opener = _FENCE.match(line)
        if opener is None:
            if pending:
                out.extend((name, Label(path, number, _myst_title(lines, i))) for name, number in pending)
                pending = []
            i += 1
            continue
        end = _fence_end(lines, i, opener.group(1))
        directive = _MYST_DIRECTIVE.match(line)
        if directive is not None and directive.group(1).lower() in ("eval-rst", "rst"):
            out.extend((name, Label(path, label.line + i + 1, label.title))
                       for name, label in _scan_rst(lines[i + 1 : end], path))
        elif directive is not None:
            options, body = _myst_options(lines[i + 1 : end])
            title = _myst_directive_title(directive.group(1), directive.group(2).strip(), options, body)
            out.extend((name, Label(path, number, title)) for name, number in pending)
            pending = []
            if options.get("name"):
                out.append((normalize(options["name"]), Label(path, i + 1, title)))
        out.extend((name, Label(path, number, None)) for name, number in pending)
        pending = []
        i = end + 1
    out.extend((name, Label(path, number, None)) for name, number in pending)
    return out


def _fence_end(lines: list[str], i: int, fence: str) -> int:
    """The line that closes the fence opened at ``i`` (the last line when none does)."""
    for j in range(i + 1, len(lines)):
        closer = _FENCE.match(lines[j])
        if closer is not None and closer.group(1)[0] == fence[0] and len(closer.group(1)) >= len(fence) \
                and not lines[j].strip()[len(closer.group(1)):].strip():
            return j
    return len(lines) - 1


def _myst_options(body: list[str]) -> tuple[dict[str, str], list[str]]:
    """A MyST directive's ``:key: value`` options and the content after them."""
    options: dict[str, str] = {}
    j = 0
    while j < len(body):
        match = _MYST_OPTION.match(body[j])
        if match is None:
            break
        options[match.group(1)] = (match.group(2) or "").strip()
        j += 1
    return options, body[j:]


def _myst_directive_title(name: str, argument: str, options: dict[str, str], body: list[str]) -> str | None:
    base = name.lower().rsplit(":", 1)[-1]
    if base in _TITLE_ARGUMENT:
        return _myst_plain(argument) if argument else None
    if base in _CAPTION_OPTION:
        return _myst_plain(options["caption"]) if options.get("caption") else None
    if base == "figure":
        caption = []
        for line in body:
            if line.strip():
                caption.append(line.strip())
            elif caption:
                break
        return _myst_plain(" ".join(caption)) if caption else None
    return None


def _myst_title(lines: list[str], i: int) -> str | None:
    heading = _ATX.match(lines[i])
    if heading is not None:
        return _myst_plain(heading.group(2))
    if i + 1 < len(lines) and _SETEXT.match(lines[i + 1]):
        return _myst_plain(lines[i].strip())
    return None


def _myst_plain(title: str) -> str:
    """A MyST heading as the page shows it: roles as their text, links as their text."""
    title = _MYST_ROLE.sub(lambda m: m.group(1).lstrip("~!"), title)
    title = CODE_SPAN.sub(r"\2", _MD_LINK.sub(r"\1", title))
    return re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", title).strip()


def _shown(rst: str) -> str:
    """An rst title as a ref's link shows it: its inline markup as plain text."""
    return CODE_SPAN.sub(r"\2", plain_title(rst)).strip()


def external(name: str, config: dict) -> bool:
    """Whether ``python:tutorial`` names another project's label (an ``intersphinx_mapping``
    key before the colon): its title is in that project's inventory, never fetched, so the
    ref keeps the text it was reduced to."""
    prefix, colon, _ = name.partition(":")
    mapping = config.get("intersphinx_mapping") if isinstance(config, dict) else None
    return bool(colon) and isinstance(mapping, dict) and prefix in mapping
