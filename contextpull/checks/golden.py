"""Golden checks: what a change did to the index and to the ids agents cite (issue 4, item 6).

``GDIR/index.txt`` is the index text; ``GDIR/ids.txt`` one ``id<TAB>text-hash`` line per section,
sorted by id (the spec's id order), LF, trailing newline. Both are plain text so a pull request
shows the drift as an ordinary diff. A mismatch is ``CheckFailed`` (exit 1, distinct from errors)
carrying a unified diff of the index text and the ids added, removed and changed.
"""

from __future__ import annotations

import difflib
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..system.bounded_read import CONFIG_FILE_LIMIT, read_regular_text, why
from ..errors import InputError, StoreError
from ..writing.held_signals import held_signals

INDEX_FILE = "index.txt"
IDS_FILE = "ids.txt"
MAX_LISTED = 20


@dataclass
class GoldenResult:
    """The ``golden`` object of the build report."""

    status: str  # match | drift | updated | none
    dir: str | None = None
    ids_added: list[str] = field(default_factory=list)
    ids_removed: list[str] = field(default_factory=list)
    ids_changed: list[str] = field(default_factory=list)
    index_diff: str = ""

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "dir": self.dir,
            "ids_added": list(self.ids_added),
            "ids_removed": list(self.ids_removed),
            "ids_changed": list(self.ids_changed),
            "index_diff": self.index_diff,
        }

    def summary(self) -> str:
        """One line for humans and the error message."""
        if self.status != "drift":
            return f"golden {self.status}" + (f" ({self.dir})" if self.dir else "")
        parts = []
        for label, ids in (("added", self.ids_added), ("removed", self.ids_removed), ("changed", self.ids_changed)):
            if ids:
                shown = ", ".join(ids[:MAX_LISTED]) + (f", ... {len(ids) - MAX_LISTED} more" if len(ids) > MAX_LISTED else "")
                parts.append(f"{len(ids)} id(s) {label}: {shown}")
        if self.index_diff:
            parts.append("index text changed")
        return f"golden drift against {self.dir}: " + "; ".join(parts)


def ids_text(conn: sqlite3.Connection) -> str:
    """The ids file content of a store: ``id<TAB>hash`` per section in id order."""
    rows = conn.execute("SELECT id, hash FROM sections ORDER BY id").fetchall()
    rows.sort()  # SQLite's binary order equals code point order; sort again to be explicit
    return "".join(f"{sid}\t{digest}\n" for sid, digest in rows)


def index_text(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT value FROM meta WHERE key = 'index_text'").fetchone()
    text = row[0] if row else ""
    if not isinstance(text, str):
        raise StoreError(
            f"meta.index_text is stored as {type(text).__name__}, not text: the store is damaged",
            "`contextpull verify` names every problem; rebuild the store",
        )
    return text if text.endswith("\n") else text + "\n"


def parse_ids(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        sid, _, digest = line.partition("\t")
        out[sid] = digest.strip()
    return out


def compare(old_ids: dict[str, str], new_ids: dict[str, str]) -> tuple[list[str], list[str], list[str]]:
    """(added, removed, changed text) ids, each sorted."""
    added = sorted(set(new_ids) - set(old_ids))
    removed = sorted(set(old_ids) - set(new_ids))
    changed = sorted(i for i in set(old_ids) & set(new_ids) if old_ids[i] != new_ids[i])
    return added, removed, changed


def unified(old: str, new: str, old_name: str, new_name: str) -> str:
    if old == new:
        return ""
    return "".join(
        difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), old_name, new_name)
    )


def _write_together(files: dict[Path, str]) -> None:
    """Both golden files or neither: each is written beside its place first, and the renames run
    with interrupts held (``held_signals``), so a stopped update leaves no stray ``.tmp`` behind
    and never one new file beside an old one."""
    tmps = {path: path.with_name(path.name + ".tmp") for path in files}
    try:
        for path, text in files.items():
            with open(tmps[path], "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        with held_signals():
            for path, tmp in tmps.items():
                tmp.replace(path)
    finally:
        for tmp in tmps.values():
            tmp.unlink(missing_ok=True)


def _read(path: Path) -> str:
    try:
        return read_regular_text(path, CONFIG_FILE_LIMIT)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot read golden file {path}: {why(exc)}",
            "golden files are UTF-8 text; rewrite them with --update-golden",
        ) from None


def open_store(path: Path) -> sqlite3.Connection:
    """A read-only connection to a file that has a store's tables, or ``StoreError``."""
    from .verify import check_file_header, open_readonly

    check_file_header(path)
    try:
        conn = open_readonly(path)
        conn.execute("SELECT 1 FROM documents, sections, meta LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not a ContextPull store: {exc}") from None
    return conn


def check_golden(
    store: sqlite3.Connection | str | os.PathLike, gdir: str | os.PathLike, *, update: bool = False
) -> GoldenResult:
    """Compare the store ``store`` (a path, or an open connection) with ``gdir``, or rewrite
    ``gdir`` when ``update``.

    Returns a result whose status is ``match``, ``drift`` or ``updated``; the caller decides the
    exit code, because the build still publishes its artifact and report on drift.
    """
    if not isinstance(store, sqlite3.Connection):
        conn = open_store(Path(store))
        try:
            return check_golden(conn, gdir, update=update)
        finally:
            conn.close()
    conn = store
    gdir = Path(gdir)
    new_index = index_text(conn)
    new_ids = ids_text(conn)
    if update:
        try:
            gdir.mkdir(parents=True, exist_ok=True)
            _write_together({gdir / INDEX_FILE: new_index, gdir / IDS_FILE: new_ids})
        except OSError as exc:
            raise InputError(f"cannot write golden files in {gdir}: {exc.strerror or exc}") from None
        return GoldenResult("updated", str(gdir))
    if not gdir.is_dir():
        what = "is not a folder" if gdir.exists() else "does not exist"
        raise InputError(
            f"golden folder {gdir} {what}",
            f"create it with: contextpull build ... --golden {gdir} --update-golden",
        )
    missing = [name for name in (INDEX_FILE, IDS_FILE) if not os.path.lexists(gdir / name)]
    if missing:
        raise InputError(
            f"golden file(s) missing in {gdir}: {', '.join(missing)}",
            f"write them with: contextpull build ... --golden {gdir} --update-golden",
        )
    old_index, old_ids_text = (_read(gdir / name) for name in (INDEX_FILE, IDS_FILE))
    added, removed, changed = compare(parse_ids(old_ids_text), parse_ids(new_ids))
    diff = unified(old_index, new_index, f"{gdir}/{INDEX_FILE} (golden)", f"{INDEX_FILE} (built)")
    if not (added or removed or changed or diff) and old_ids_text == new_ids:
        return GoldenResult("match", str(gdir))
    return GoldenResult("drift", str(gdir), added, removed, changed, diff)
