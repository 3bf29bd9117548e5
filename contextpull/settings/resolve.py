"""Settings and where each one came from (system-design.txt section 8; supplement "Configuration").

Precedence is the spec's: command-line flags (or a library call's keywords), then
``CONTEXTPULL_*`` environment variables, then ``[tool.contextpull]`` in the corpus root's
``pyproject.toml``, then defaults. The environment is an argument: the surfaces read it
(``environment.py``), this module never does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..system.bounded_read import CONFIG_FILE_LIMIT, read_regular_text, why
from ..errors import ConfigError
from .coerce import INT_RANGES, coerce
from .values import Settings

ENV_PREFIX = "CONTEXTPULL_"


def read_pyproject(corpus_root: Path) -> tuple[dict[str, Any], str]:
    """The ``[tool.contextpull]`` table of ``corpus_root/pyproject.toml``, and its label."""
    path = corpus_root / "pyproject.toml"
    label = f"[tool.contextpull] in {path}"
    if not os.path.lexists(path):
        return {}, label
    try:
        text = read_regular_text(path, CONFIG_FILE_LIMIT)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {why(exc)}") from None
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python 3.10
        return _read_pyproject_fallback(text), label
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"[tool] in {path} must be a table, not {type(tool).__name__}")
    table = tool.get("contextpull", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{label} must be a table")
    return table, label


def _read_pyproject_fallback(text: str) -> dict[str, Any]:
    """Python 3.10 has no tomllib: read the flat ``key = value`` lines of our table only."""
    table: dict[str, Any] = {}
    inside = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            inside = line == "[tool.contextpull]"
            continue
        if inside and "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            table[key] = value.strip("'\"")
    return table


# The library's keyword names from 0.2.1 (docs/library.md), accepted beside ours.
PUBLISHED_KEYWORDS = {
    "max_chars": "section_max_chars",
    "min_chars": "section_min_chars",
    "heading_depth": "section_heading_depth",
    "summarizer_name": "summarizer",
}


def keyword_settings(call: str, keywords: Mapping[str, Any]) -> dict[str, Any]:
    """The settings keywords of a library call (``ingest``, ``build``), by their ``Settings`` names.

    Each setting takes its name (``section_max_chars``) or its 0.2.1 name (``max_chars``), not
    both; ``None`` means "not given". Anything else is one ``ConfigError`` naming the keyword and
    listing the valid ones, because a misspelt setting silently left at its default changes a
    store without saying so.
    """
    known = [f.name for f in fields(Settings) if f.metadata.get("setting", True)]
    out: dict[str, Any] = {}
    for key, value in keywords.items():
        name = PUBLISHED_KEYWORDS.get(key, key)
        if name not in known:
            raise ConfigError(
                f"{call}() got an unknown keyword {key!r}",
                "settings are " + ", ".join(known) + " (0.2.1 names: " + ", ".join(PUBLISHED_KEYWORDS) + ")",
            )
        if name in out:
            raise ConfigError(f"{call}() got {name!r} twice (as {name} and as its 0.2.1 name)")
        out[name] = value
    return {k: v for k, v in out.items() if v is not None}


def _given_label(name: str, given_as: str) -> str:
    return "--" + name.replace("_", "-") if given_as == "flag" else f"keyword argument {name}"


def resolve_settings(
    corpus_root: Path | None,
    flags: Mapping[str, Any] | None,
    environ: Mapping[str, str],
    *,
    given_as: str = "flag",
) -> Settings:
    """Merge the four sources in precedence order; ``None`` in ``flags`` means "not given".

    ``given_as`` names the first source in messages: ``"flag"`` (``--section-max-chars``) for
    the CLI, ``"keyword"`` (``keyword argument section_max_chars``) for the library. ``environ``
    is the environment the surface read (``os.environ`` at the CLI; ``Environment.variables``):
    this module reads none itself.
    """
    flags = flags or {}
    table, table_label = read_pyproject(corpus_root) if corpus_root is not None else ({}, "")
    for key in table:
        if key not in INT_RANGES and key not in (
            "summarizer", "store", "embed_model", "docs_version", "max_removed", "max_shrink", "dialect",
            "api_reference"
        ):
            raise ConfigError(f"unknown setting {key!r} in {table_label}")
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for f in fields(Settings):
        name = f.name
        if not f.metadata.get("setting", True):
            continue
        env_name = ENV_PREFIX + name.upper()
        if flags.get(name) is not None:
            sources[name] = _given_label(name, given_as)
            values[name] = coerce(name, flags[name], sources[name])
        elif environ.get(env_name, "") != "":
            sources[name] = f"environment variable {env_name}"
            values[name] = coerce(name, environ[env_name], sources[name])
        elif name in table:
            sources[name] = table_label
            values[name] = coerce(name, table[name], sources[name])
    settings = Settings(**values)
    if settings.section_min_chars >= settings.section_max_chars:
        # Name both sources: the two values may come from different places.
        raise ConfigError(
            f"section_min_chars {settings.section_min_chars} "
            f"(from {sources.get('section_min_chars', 'the default')}) must be smaller than "
            f"section_max_chars {settings.section_max_chars} "
            f"(from {sources.get('section_max_chars', 'the default')})"
        )
    return settings
