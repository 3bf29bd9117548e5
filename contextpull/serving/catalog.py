"""What ``serve`` is asked to mount: ``NAME=SOURCE`` arguments and the ``--catalog`` file (issue 27).

A team checks in one catalog so every member's agent reads the same docs at the same versions::

    [[mount]]
    name = "uv"                       # optional: else from the store's provenance
    source = "gh:astral-sh/uv@0.9.0"  # a store file, a docs folder, a URL or gh:OWNER/REPO@TAG
    sha256 = "…"                      # optional pin: the cached copy is served offline

Parsing only: nothing here opens a store or reaches the network, so a bad catalog is one
``ConfigError`` naming the file and the entry before anything is fetched. Names are checked
here when given and again, with the names found from provenance, by ``check_names``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..system.bounded_read import read_regular_text
from ..errors import ConfigError
from .sources import is_remote

CATALOG_LIMIT = 1 << 20
# A mount name prefixes section ids and paths ("uv@0.9.0/guides/x.md#3"): routing splits at the
# first '/', so a name holds none, nor glob characters, '#' or whitespace.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]*$")
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
_KEYS = ("name", "source", "sha256")


@dataclass(frozen=True)
class MountSpec:
    """One source to mount, and where it was asked for (for messages)."""

    source: str
    name: str | None = None
    sha256: str | None = None
    origin: str = ""


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name))


def parse_argument(text: str, position: int) -> MountSpec:
    """``SOURCE`` or ``NAME=SOURCE``. A source that is itself a URL or ``gh:`` keeps any '=' it holds."""
    origin = f"argument {position}"
    name, sep, rest = text.partition("=")
    if sep and rest and valid_name(name) and not _looks_like_source(text) and not Path(text).exists():
        return MountSpec(rest, name, None, origin)
    return MountSpec(text, None, None, origin)


_NAME_RULE = "a mount name is letters, digits and . _ @ + -, e.g. uv=docs/store.sqlite"


def _looks_like_source(text: str) -> bool:
    return is_remote(text) or text.startswith((".", "/", "~"))


def read_catalog(path: Path) -> list[MountSpec]:
    """The ``[[mount]]`` entries of ``path``; a ``ConfigError`` names the file and entry otherwise."""
    try:
        text = read_regular_text(path, CATALOG_LIMIT)
    except FileNotFoundError:
        raise ConfigError(f"catalog {path} does not exist", "pass the path of a TOML file with [[mount]] entries") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"cannot read catalog {path}: {exc}") from None
    entries = _parse(text, path)
    if not isinstance(entries, list):
        raise ConfigError(f"catalog {path}: mount must be [[mount]] entries, one per source, not a [mount] table")
    if not entries:
        raise ConfigError(f"catalog {path} has no [[mount]] entries", 'add [[mount]] with source = "..."')
    specs = []
    for number, entry in enumerate(entries, 1):
        where = f"catalog {path}, mount {number}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: must be a table")
        unknown = sorted(set(entry) - set(_KEYS))
        if unknown:
            raise ConfigError(f"{where}: unknown key {unknown[0]!r}", "keys are name, source and sha256")
        for key in _KEYS:
            if key in entry and not isinstance(entry[key], str):
                raise ConfigError(f"{where}: {key} must be a string")
        source = entry.get("source", "").strip()
        if not source:
            raise ConfigError(f"{where}: missing source", "a store file, a docs folder, a URL or gh:OWNER/REPO@TAG")
        name = entry.get("name") or None
        if name is not None and not valid_name(name):
            raise ConfigError(f"{where}: bad mount name {name!r}", _NAME_RULE)
        sha256 = entry.get("sha256") or None
        if sha256 is not None and not _HEX64.match(sha256):
            raise ConfigError(f"{where}: sha256 is not 64 hex digits: {sha256[:80]!r}")
        if not is_remote(source):
            if sha256 is not None:
                raise ConfigError(f"{where}: sha256 applies to a URL or gh: source, not {source!r}")
            if not Path(source).expanduser().is_absolute():
                source = str(path.parent / Path(source).expanduser())  # relative to the catalog, as checked in
        specs.append(MountSpec(source, name, sha256.lower() if sha256 else None, where))
    return specs


def _parse(text: str, path: Path):
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python 3.10: tomli, which the package installs there
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:  # a reader installed without its dependencies
            return _parse_fallback(text, path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"catalog {path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {"mount"})
    if unknown:
        raise ConfigError(f"catalog {path}: unknown table {unknown[0]!r}", "a catalog holds [[mount]] entries only")
    return data.get("mount", [])


_LINE = re.compile(r'^([A-Za-z0-9_]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$')


def _parse_fallback(text: str, path: Path) -> list[dict]:
    """Python 3.10 has no tomllib: ``[[mount]]`` headers and ``key = "string"`` lines, nothing else."""
    entries: list[dict] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.split("#", 1)[0].strip() == "[[mount]]":
            entries.append({})
            continue
        match = _LINE.match(line)
        if match is None or not entries:
            raise ConfigError(f"catalog {path} line {number}: expected [[mount]] or key = \"string\"")
        entries[-1][match[1]] = match[2].encode().decode("unicode_escape")
    return entries


def check_names(named: list[tuple[str, str]]) -> None:
    """``(name, origin)`` pairs: a clash is one ``ConfigError`` naming both sources."""
    seen: dict[str, str] = {}
    for name, origin in named:
        if name in seen:
            raise ConfigError(
                f"mount name {name!r} is used twice: by {seen[name]} and by {origin}",
                "name them apart with NAME=SOURCE (or name = ... in the catalog)",
            )
        seen[name] = origin
