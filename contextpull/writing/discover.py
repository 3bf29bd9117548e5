"""Find the documents of a corpus (system-design.txt section 3, "Discover").

The walk is deterministic and safe to point at any folder:

- entries are visited in sorted order at every level, keyed so that the overall order is the
  plain string order of the relative POSIX paths (``a-b.md`` before ``a/b.md``), which is the
  order the store and the index use;
- hidden files and directories (a name starting with ``.``) are skipped, and so is anything
  matching ``.contextpullignore`` at the corpus root (gitignore's rules for one file at the root:
  comments, literal paths, ``*``/``?``/``**`` globs, a leading or inner ``/`` to anchor, a
  trailing ``/`` for directories only, ``!`` to include again, the last matching rule winning);
- symbolic links to directories are never followed (that is what makes loops impossible), and a
  link to a file is used only when its target lies inside the corpus root;
- paths given in ``exclude`` (an output folder inside the docs, say) are left out.

Files with an unsupported extension are ignored silently, except documentation formats no
parser reads yet (AsciiDoc, Org, Textile, ...: ``UNREAD_FORMATS``), which are named skips: a
docs folder of ``.adoc`` files must not build as if it were empty (issue 26). Supported files that
cannot be used (a named pipe, socket or device with a document's name included, issue 22) come
out as ``Skipped(path, reason)`` so the user sees why; discovery never opens them.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..system.bounded_read import CONFIG_FILE_LIMIT, kind_of, not_regular_reason, read_regular_text, why
from ..errors import InputError
from ..scan.globmatch import Glob, compile_glob, slash_tokens
from ..parsing.parse import KINDS
from .records import Skipped

SUPPORTED_EXTENSIONS = tuple(KINDS)  # one list of formats: the parsers'
# Documentation formats that are found but not read: extension -> the format's name.
UNREAD_FORMATS = {
    ".adoc": "AsciiDoc",
    ".asciidoc": "AsciiDoc",
    ".org": "Org",
    ".textile": "Textile",
    ".rdoc": "RDoc",
    ".pod": "Perl POD",
    ".wiki": "wiki markup",
    ".mediawiki": "MediaWiki markup",
    ".creole": "Creole",
    ".tex": "LaTeX",
    ".texi": "Texinfo",
    ".texinfo": "Texinfo",
    ".rtf": "RTF",
    ".odt": "OpenDocument text",
    ".epub": "EPUB",
    ".doc": "Word 97-2003",
    ".ppt": "PowerPoint 97-2003",
    ".xls": "Excel 97-2003",
}
IGNORE_FILE = ".contextpullignore"


@dataclass(frozen=True)
class Candidate:
    """A file to hash and parse: its store path and where to read it."""

    path: str  # POSIX, relative to the corpus root, no leading ./
    abspath: str


@dataclass(frozen=True)
class _Rule:
    glob: Glob  # bounded in time on any name (issue 34): a line is the user's, so is a name
    anchored: bool  # match against the whole relative path, else against the name
    dir_only: bool
    negated: bool = False  # "!pattern": matched paths are included again


def _compile_rule(line: str) -> _Rule | None:
    line = line.rstrip("\n").rstrip(" ")
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    elif line.startswith("\\"):  # gitignore escape for a leading # or !
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    anchored = "/" in line  # a slash at the start or in the middle anchors; one at the end does not
    line = line.lstrip("/")
    if line.startswith("./"):
        line = line[2:]
    if not line:
        return None
    return _Rule(compile_glob(slash_tokens(line)), anchored, dir_only, negated)


def load_ignore_rules(root: Path) -> list[_Rule]:
    """The rules of ``root/.contextpullignore``; none when there is no such file.

    One that exists but cannot be read (a named pipe, a link to a device, a file over
    ``CONFIG_FILE_LIMIT``, no permission) is an ``InputError``: building without the rules would
    publish exactly the files the user asked to keep out.
    """
    path = root / IGNORE_FILE
    try:
        # utf-8-sig: an editor's byte order mark must not swallow the first rule
        text = read_regular_text(path, CONFIG_FILE_LIMIT, "utf-8-sig", "replace")
    except FileNotFoundError:
        if os.path.islink(path):
            raise InputError(f"cannot read {path}: broken symbolic link") from None
        return []
    except OSError as exc:
        raise InputError(
            f"cannot read {path}: {why(exc)}",
            f"make {IGNORE_FILE} a regular text file or remove it",
        ) from None
    return [rule for rule in map(_compile_rule, text.splitlines()) if rule is not None]


def is_ignored(rules: list[_Rule], rel: str, is_dir: bool) -> bool:
    """As git decides it: the last rule that matches wins, so ``!keep.md`` after ``*.md`` keeps
    it. A folder that is ignored is not entered, so nothing under it can be included again."""
    name = rel.rsplit("/", 1)[-1]
    ignored = False
    for rule in rules:
        if rule.dir_only and not is_dir:
            continue
        target = rel if rule.anchored else name
        if rule.glob.match(target):
            ignored = not rule.negated
    return ignored


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def discover(root: Path, *, exclude: Iterable[Path] = ()) -> Iterator[Candidate | Skipped]:
    """Yield the supported files under ``root`` in path order, or why one cannot be used."""
    real_root = os.path.realpath(root)
    excluded = sorted({os.path.realpath(p) for p in exclude})
    if any(_inside(real_root, ex) for ex in excluded):
        return  # the whole corpus lies inside an excluded folder
    rules = load_ignore_rules(Path(real_root))
    yield from _walk(real_root, "", real_root, rules, excluded)


def _sort_key(entry: os.DirEntry[str]) -> str:
    try:
        is_dir = entry.is_dir(follow_symlinks=False)
    except OSError:
        is_dir = False
    return entry.name + "/" if is_dir else entry.name


def _walk(
    directory: str, prefix: str, real_root: str, rules: list[_Rule], excluded: list[str]
) -> Iterator[Candidate | Skipped]:
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=_sort_key)
    except FileNotFoundError:
        return  # vanished during the run: nothing left to offer
    except OSError as exc:
        if prefix:  # the root itself is checked by the caller
            yield Skipped(prefix, f"folder cannot be read ({exc.strerror or exc})")
        return
    for entry in entries:
        name = entry.name
        if name.startswith("."):
            continue
        rel = prefix + name
        # entry.path is real_root joined with names we walked without following links, so it is
        # already real: an equality test suffices, since an excluded folder is never entered.
        if excluded and entry.path in excluded:
            continue
        try:
            is_link = entry.is_symlink()
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir:
            if not is_ignored(rules, rel, True):
                yield from _walk(entry.path, rel + "/", real_root, rules, excluded)
            continue
        ext = os.path.splitext(name)[1].lower()
        if ext not in SUPPORTED_EXTENSIONS and ext not in UNREAD_FORMATS:
            continue
        if is_ignored(rules, rel, False):
            continue
        if ext in UNREAD_FORMATS:
            yield Skipped(rel, unread_reason(ext))
            continue
        try:
            rel.encode("utf-8")
        except UnicodeEncodeError:
            yield Skipped(rel.encode("utf-8", "replace").decode("utf-8"), "file name is not valid UTF-8")
            continue
        if is_link:
            reason = _link_problem(entry.path, real_root, excluded, rules)
            if reason is not None:
                yield Skipped(rel, reason)
                continue
        else:
            reason = _special_file(entry)
            if reason is not None:  # a pipe named like a document: say so, never open it
                yield Skipped(rel, reason)
                continue
        yield Candidate(rel, entry.path)


def unread_reason(ext: str) -> str:
    return f"{UNREAD_FORMATS[ext]} ({ext}) is not read: no parser for it yet; convert it to Markdown to include it"


# Files looked at, at most, to say what an empty corpus holds instead.
_FOUND_LIMIT = 100_000


def found_extensions(root: Path, limit: int = 8) -> str:
    """What a corpus with no documents holds, by extension (``155 .rst, 3 .png``), hidden files
    left out; empty when it holds nothing. For the error that says a corpus has no documents."""
    counts: dict[str, int] = {}
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if name.startswith("."):
                continue
            ext = os.path.splitext(name)[1].lower() or "(no extension)"
            counts[ext] = counts.get(ext, 0) + 1
            seen += 1
        if seen > _FOUND_LIMIT:
            break
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"{n} {ext}" for ext, n in ranked[:limit])
    if len(ranked) > limit:
        text += f" and {sum(n for _, n in ranked[limit:])} other files"
    return text


def _special_file(entry: os.DirEntry[str]) -> str | None:
    """Why an entry that is not a link cannot be a document (pipe, socket, device), else None."""
    try:
        if entry.is_file(follow_symlinks=False):
            return None
        return not_regular_reason(entry.stat(follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return None  # vanished: reading it will say so
    except OSError as exc:
        return f"file cannot be read ({exc.strerror or exc})"


def _link_problem(path: str, real_root: str, excluded: list[str], rules: list[_Rule]) -> str | None:
    """Why a symbolic link to a file cannot be used, or None when its target is fine."""
    try:
        target = os.path.realpath(path, strict=True)
    except (OSError, RuntimeError) as exc:  # RuntimeError: link loop on some Pythons
        if getattr(exc, "errno", None) == errno.ELOOP or isinstance(exc, RuntimeError):
            return "symbolic link loop"
        return "broken symbolic link"
    if not _inside(target, real_root):
        return "symbolic link points outside the corpus root"
    if any(_inside(target, ex) for ex in excluded):
        return "symbolic link points into an excluded folder"
    if not os.path.isfile(target):
        try:
            kind = kind_of(os.stat(target).st_mode)
        except OSError:
            return "symbolic link does not point to a regular file"
        return f"symbolic link does not point to a regular file ({kind})"
    rel = Path(os.path.relpath(target, real_root)).as_posix()
    if any(part.startswith(".") for part in rel.split("/")) or _ignored_path(rules, rel):
        return "symbolic link points to a hidden or ignored file"
    return None


def _ignored_path(rules: list[_Rule], rel: str) -> bool:
    """Whether ``rel`` or any folder above it is ignored."""
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        if is_ignored(rules, "/".join(parts[:depth]), True):
            return True
    return is_ignored(rules, rel, False)


__all__ = [
    "Candidate",
    "IGNORE_FILE",
    "SUPPORTED_EXTENSIONS",
    "UNREAD_FORMATS",
    "found_extensions",
    "discover",
    "is_ignored",
    "load_ignore_rules",
]
