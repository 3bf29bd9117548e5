"""One setting's value, checked and normalised, or one ``ConfigError`` naming it and its source.

The source ("--section-max-chars", "environment variable CONTEXTPULL_...", "[tool.contextpull]
in ...") is in every message, because "section_max_chars must be ..." is useless when you cannot
tell whether the flag, the environment or a checked-in file said it. The model and threshold
syntaxes are their rooms' own parsers, imported when a value needs them.
"""

from __future__ import annotations

from typing import Any

from ..dialects.registry import SETTING_VALUES
from ..errors import ConfigError

# name -> (minimum, maximum) for the integer settings; the summarizer is checked on its own.
INT_RANGES = {
    "section_max_chars": (100, 1_000_000),
    "section_min_chars": (0, 100_000),
    "section_heading_depth": (1, 6),
    "index_budget_tokens": (50, 10_000_000),
    "summary_concurrency": (1, 64),
    "max_file_bytes": (1024, 1 << 40),
}
# Values of the ``dialect`` setting: the dialect table's, the one list (importing it loads no
# dialect's module).
DIALECT_VALUES = SETTING_VALUES


def coerce(name: str, value: Any, source: str) -> Any:
    if name in INT_RANGES:
        lo, hi = INT_RANGES[name]
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
        from ..models.spec import parse
        from ..models.summarize import PROVIDERS  # standard library only at import, like this module

        try:
            return parse(text, setting="summarizer", providers=PROVIDERS).text
        except ConfigError as exc:
            raise type(exc)(f"{exc.message} (from {source})", exc.suggestion) from None
    if name == "api_reference":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        raise ConfigError(f"api_reference must be true or false, got {value!r} (from {source})")
    if name == "dialect":
        text = str(value).strip().lower()
        if text not in DIALECT_VALUES:
            raise ConfigError(
                f"dialect must be one of {', '.join(DIALECT_VALUES)}, got {value!r} (from {source})"
            )
        return text
    if name == "embed_model":
        from ..models import embedders  # standard library only at import, like this module

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
        from ..checks.thresholds import BadThreshold, parse_removed, parse_shrink

        text = str(value).strip()
        try:
            parse_removed([text]) if name == "max_removed" else parse_shrink(text)
        except BadThreshold as exc:
            raise ConfigError(f"{name}: {exc} (from {source})") from None
        return text or None
    raise ConfigError(f"unknown setting {name!r} (from {source})")
