"""``provider:model`` settings and the endpoint each one talks to.

A setting names a provider and a model (``openai:text-embedding-3-small``,
``anthropic:claude-haiku-4-5``, ``local:minilm``). Hosted providers read their base URL and key
from the environment under the vendors' own names (``OPENAI_BASE_URL``/``OPENAI_API_KEY``,
``ANTHROPIC_BASE_URL``/``ANTHROPIC_API_KEY``), the names the published implementation and the
vendors' SDKs use, so a CI secret set for either works here. ``endpoint`` is called before any
work starts: a missing key or an unknown provider is one ``ModelSettingError`` (exit 3 at the
CLI) naming the variable or the setting, never a failure half way through a build; a value that
is not ``provider:model`` at all is a ``ConfigError`` (exit 2), like any malformed setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import ConfigError, ModelSettingError

HOSTED = {
    # provider -> (base URL variable, default base URL, key variable)
    "openai": ("OPENAI_BASE_URL", "https://api.openai.com/v1", "OPENAI_API_KEY"),
    "anthropic": ("ANTHROPIC_BASE_URL", "https://api.anthropic.com", "ANTHROPIC_API_KEY"),
}


@dataclass(frozen=True)
class ModelSpec:
    """A parsed setting; ``text`` is the setting as written, which stores and manifests record."""

    provider: str
    model: str

    @property
    def text(self) -> str:
        return f"{self.provider}:{self.model}"


@dataclass(frozen=True)
class Endpoint:
    """Where a hosted provider is reached. ``key`` is excluded from ``repr`` so it cannot leak
    into a log line or a traceback that prints the object."""

    provider: str
    base_url: str
    key: str = field(repr=False)

    def secrets(self) -> tuple[str, ...]:
        return (self.key,) if self.key else ()


def parse(text: str, *, setting: str, providers: tuple[str, ...]) -> ModelSpec:
    """``provider:model`` for ``setting``; ``providers`` are the ones that setting accepts."""
    provider, sep, model = str(text).strip().partition(":")
    provider, model = provider.strip(), model.strip()
    if not sep or not provider or not model:
        raise ConfigError(
            f"{setting} must be provider:model, got {text!r}",
            "for example " + " or ".join(f"{p}:<model>" for p in providers),
        )
    if provider not in providers:
        raise ModelSettingError(
            f"{setting}: unknown provider {provider!r} in {text!r}",
            "use " + " or ".join(f"{p}:<model>" for p in providers),
        )
    return ModelSpec(provider, model)


def endpoint(
    spec: ModelSpec,
    *,
    setting: str,
    environ: Mapping[str, str],
    unset: str | None = "the offline default",
) -> Endpoint:
    """The base URL and key of a hosted provider, or a ``ModelSettingError`` naming the variable.

    ``unset`` says what leaving the setting unset gives (summaries: the offline default; vectors:
    lexical search only; an evaluation loop: nothing, ``None``), so the suggestion never points
    at something that is not there. ``environ`` holds the variables the caller read from its
    environment (the surfaces' ``cli.environment.read_environment``): the library reads none.
    """
    if spec.provider not in HOSTED:
        raise ModelSettingError(f"{setting}: provider {spec.provider!r} is not a hosted API")
    url_var, default_url, key_var = HOSTED[spec.provider]
    key = environ.get(key_var, "").strip()
    if not key:
        raise ModelSettingError(
            f"{setting} {spec.text!r} needs the environment variable {key_var}, which is not set",
            f"set {key_var}" + (f", or leave {setting} unset for {unset}" if unset else ""),
        )
    base = (environ.get(url_var, "").strip() or default_url).rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise ConfigError(f"{url_var} must be an http:// or https:// URL, got {base!r}")
    return Endpoint(spec.provider, base, key)
