"""Settings and where each one came from (system-design.txt section 8; supplement "Configuration").

Precedence is the spec's: command-line flags, then ``CONTEXTPULL_*`` environment variables, then
``[tool.contextpull]`` in the corpus root's ``pyproject.toml``, then defaults. A bad value is one
``ConfigError`` naming the setting and its source, because "section_max_chars must be ..." is
useless when you cannot tell whether the flag, the environment or a checked-in file said it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .bounded_read import read_regular_text, why
from .errors import ConfigError

ENV_PREFIX = "CONTEXTPULL_"
# A small file the build reads for itself (pyproject.toml, .contextpullignore, golden files, a
# manifest): far above any real one, small enough that a wrong file cannot exhaust memory.
CONFIG_FILE_LIMIT = 16 * 1024 * 1024
DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Settings:
    """The knobs of a build. Those that change what a build writes are recorded in the manifest
    and the store (``to_dict``); those that only change how it runs (``summary_concurrency``)
    are not, so a build that does not use them keeps its bytes."""

    section_max_chars: int = 2000
    section_min_chars: int = 40
    section_heading_depth: int = 4
    index_budget_tokens: int = 3000
    summarizer: str = "offline"  # or provider:model (issue 17; contextpull.models.summarize)
    summary_concurrency: int = field(default=8, metadata={"recorded": False})
    # Documents larger than this are skipped unread (issue 22). Not recorded: it decides which
    # files are read, not what a read file becomes, and the manifest lists every skip.
    max_file_bytes: int = field(default=DEFAULT_MAX_FILE_BYTES, metadata={"recorded": False})
    # ``provider:model`` for section embeddings (supplement "Configuration"); None: no vectors.
    embed_model: str | None = None
    # The docs' version, recorded as the ``docs_version`` meta key (issue 27; contextpull/provenance.py),
    # not among the settings: None lets the build take the tag at the commit.
    docs_version: str | None = field(default=None, metadata={"recorded": False})
    # Limits on what a build may remove against its cache or base store (issue 29; syntax in
    # contextpull/checks/thresholds.py). They judge a store, they change none of its bytes.
    max_removed: str | None = field(default=None, metadata={"recorded": False})
    max_shrink: str | None = field(default=None, metadata={"recorded": False})
    # Which site generator's reading of the files (issue 26): ``auto`` detects it from the
    # generator's configuration file. Not recorded: what it changes is in every document's
    # fingerprint (contextpull/dialects/fingerprint.py), and ``plain`` must keep its bytes.
    dialect: str = field(default="auto", metadata={"recorded": False})
    # Whether mkdocstrings ``:::`` lines and Sphinx autodoc directives are read from the
    # repository's Python source (issue 37; contextpull/apiref/). Not recorded, like ``dialect``:
    # it is in every document's fingerprint (``Site.reading``) with the module files a page read.
    # ``False`` builds what the release before it built.
    api_reference: bool = field(default=True, metadata={"recorded": False})
    # The ``contextpull.dialects.api.Site`` the setting resolved to for one corpus, set by the
    # build (``ingest.engine.with_site``) so worker processes receive it with the settings.
    site: Any = field(default=None, metadata={"recorded": False, "setting": False})

    def to_dict(self) -> dict[str, Any]:
        """The settings a build records; ``embed_model`` only when set, so a build without
        embeddings records (and its cache key and manifest read) exactly what they did before the
        setting existed. ``summary_concurrency`` and ``max_file_bytes`` change no byte of a read file and are
        never recorded."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.metadata.get("recorded", True)}
        if out["embed_model"] is None:
            del out["embed_model"]
        return out


# name -> (minimum, maximum) for the integer settings; the summarizer is checked on its own.
_INT_RANGES = {
    "section_max_chars": (100, 1_000_000),
    "section_min_chars": (0, 100_000),
    "section_heading_depth": (1, 6),
    "index_budget_tokens": (50, 10_000_000),
    "summary_concurrency": (1, 64),
    "max_file_bytes": (1024, 1 << 40),
}
# Values of the ``dialect`` setting; contextpull/dialects/registry.py has the same list and a
# test holds the two together (the reader core cannot import the write side).
DIALECT_VALUES = ("auto", "plain", "mkdocs", "docusaurus", "hugo", "mdbook", "jekyll", "sphinx")


def _coerce(name: str, value: Any, source: str) -> Any:
    if name in _INT_RANGES:
        lo, hi = _INT_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ConfigError(f"{name} must be a whole number, got {value!r} (from {source})")
        try:
            number = int(str(value).strip())
        except ValueError:
            raise ConfigError(
                f"{name} must be a whole number, got {value!r} (from {source})"
            ) from None
        if not lo <= number <= hi:
            raise ConfigError(f"{name} must be between {lo} and {hi}, got {number} (from {source})")
        return number
    if name == "summarizer":
        text = str(value).strip()
        if text == "offline":
            return text
        # provider:model; the provider is checked here, the key when a run starts (models/spec.py).
        from .models.spec import parse
        from .models.summarize import PROVIDERS  # standard library only at import, like this module

        try:
            return parse(text, setting="summarizer", providers=PROVIDERS).text
        except ConfigError as exc:
            raise type(exc)(f"{exc.message} (from {source})", exc.suggestion) from None
    if name == "dialect":
        text = str(value).strip().lower()
        if text not in DIALECT_VALUES:
            raise ConfigError(
                f"dialect must be one of {', '.join(DIALECT_VALUES)}, got {value!r} (from {source})"
            )
        return text
    if name == "api_reference":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        raise ConfigError(f"api_reference must be true or false, got {value!r} (from {source})")
    if name == "embed_model":
        from .models import embedders  # standard library only at import, like this module

        text = str(value).strip()
        if text.lower() in ("", "none"):
            return None
        try:
            return embedders.parse(text).text  # a bare "local" is the default local model
        except ConfigError as exc:
            raise type(exc)(f"{exc.message} (from {source})", exc.suggestion) from None
    if name == "docs_version":
        text = str(value).strip()
        if "\n" in text or "\r" in text or len(text) > 200:
            raise ConfigError(f"docs_version must be one line of at most 200 characters, got {value!r} (from {source})")
        return text or None
    if name in ("max_removed", "max_shrink"):
        # The syntax is the diff's; its parser is standard library only at import, like this module.
        from .checks.thresholds import BadThreshold, parse_removed, parse_shrink

        text = str(value).strip()
        try:
            parse_removed([text]) if name == "max_removed" else parse_shrink(text)
        except BadThreshold as exc:
            raise ConfigError(f"{name}: {exc} (from {source})") from None
        return text or None
    raise ConfigError(f"unknown setting {name!r} (from {source})")


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
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    given_as: str = "flag",
) -> Settings:
    """Merge the four sources in precedence order; ``None`` in ``flags`` means "not given".

    ``given_as`` names the first source in messages: ``"flag"`` (``--section-max-chars``) for
    the CLI, ``"keyword"`` (``keyword argument section_max_chars``) for the library.
    """
    flags = flags or {}
    environ = os.environ if environ is None else environ
    table, table_label = read_pyproject(corpus_root) if corpus_root is not None else ({}, "")
    for key in table:
        if key not in _INT_RANGES and key not in (
            "summarizer", "store", "embed_model", "docs_version", "max_removed", "max_shrink", "dialect",
            "api_reference",
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
            values[name] = _coerce(name, flags[name], sources[name])
        elif environ.get(env_name, "") != "":
            sources[name] = f"environment variable {env_name}"
            values[name] = _coerce(name, environ[env_name], sources[name])
        elif name in table:
            sources[name] = table_label
            values[name] = _coerce(name, table[name], sources[name])
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
