"""What a run takes from the process environment, read once where the run starts.

Only the surfaces look at ``os.environ``: the CLI (``contextpull/cli/``), the MCP server, the
two library entry points docs/library.md documents as reading it (``contextpull.ingest.ingest``,
``contextpull.artifact.build``) and the Action's scripts (``builder/``). Each calls
``read_environment(os.environ)`` once and passes the value down; the library below takes
arguments. So a build's bytes follow from what it was given, a test gives them without patching
the process, and a worker process cannot see a different ``SOURCE_DATE_EPOCH`` from the one the
build checked (the Sphinx ``date`` directive once read it again in the worker).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import ConfigError

SETTINGS_PREFIX = "CONTEXTPULL_"
# The hosted model providers' variables (contextpull/models/spec.py ``HOSTED``), spelled here so
# reading the environment loads no model code.
MODEL_VARIABLES = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")
# The last second of year 9999, the most an ISO timestamp can say.
EPOCH_MAX = 253402300799


@dataclass(frozen=True)
class Checkout:
    """What GitHub Actions says about the checkout being built; empty strings outside it. The
    Action checks out a detached ``HEAD``, so the ref and the repository's public URL come from
    here rather than from git (``artifact/source.py``)."""

    server_url: str = ""  # GITHUB_SERVER_URL
    repository: str = ""  # GITHUB_REPOSITORY, OWNER/NAME
    ref_name: str = ""  # GITHUB_REF_NAME
    sha: str = ""  # GITHUB_SHA, as given (the manifest checks its shape)


@dataclass(frozen=True)
class Environment:
    """One run's facts from its environment. ``Environment()`` is a run with none of them: no
    fixed time, no CI, the worker count the run decides, no settings variables, no model keys.
    ``variables`` holds model keys, so it never appears in a ``repr``."""

    epoch: int | None = None  # SOURCE_DATE_EPOCH when it is a whole number of seconds in range
    # Why SOURCE_DATE_EPOCH, set, is not one: a build refuses it (``build_epoch``); an ingest,
    # which records no time, reads it as unset, as it always has.
    epoch_error: str | None = None
    checkout: Checkout = Checkout()
    jobs: int | None = None  # CONTEXTPULL_JOBS when it is a positive whole number
    # ``CONTEXTPULL_*`` (settings, resolved by ``resolve_settings``) and the model providers'
    # URL and key variables: all a run may look up by name.
    variables: Mapping[str, str] = field(default_factory=dict, repr=False)

    def build_epoch(self) -> int | None:
        """The epoch a build stamps its times with; a ``ConfigError`` when the variable is bad."""
        if self.epoch_error is not None:
            raise ConfigError(self.epoch_error)
        return self.epoch


def source_date_epoch(raw: str) -> int | None:
    """``SOURCE_DATE_EPOCH`` as a whole number of seconds; None when unset or blank."""
    raw = raw.strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) > EPOCH_MAX:
        raise ConfigError(
            f"SOURCE_DATE_EPOCH must be a whole number of seconds up to {EPOCH_MAX} (year 9999), got {raw!r}"
        )
    return int(raw)


def read_environment(environ: Mapping[str, str]) -> Environment:
    """The run's ``Environment`` from a process environment (the surfaces pass ``os.environ``).
    A bad ``SOURCE_DATE_EPOCH`` is kept as ``epoch_error``: the build raises it where it always
    did (after DOCS and OUT are checked), and nothing else looks at the time."""
    jobs = environ.get(SETTINGS_PREFIX + "JOBS", "").strip()
    try:
        epoch, epoch_error = source_date_epoch(environ.get("SOURCE_DATE_EPOCH", "")), None
    except ConfigError as exc:
        epoch, epoch_error = None, exc.message
    return Environment(
        epoch=epoch,
        epoch_error=epoch_error,
        checkout=Checkout(
            server_url=environ.get("GITHUB_SERVER_URL", "").strip(),
            repository=environ.get("GITHUB_REPOSITORY", "").strip(),
            ref_name=environ.get("GITHUB_REF_NAME", "").strip(),
            sha=environ.get("GITHUB_SHA", "").strip(),
        ),
        jobs=int(jobs) if jobs.isdigit() and int(jobs) > 0 else None,
        variables={k: v for k, v in environ.items() if k.startswith(SETTINGS_PREFIX) or k in MODEL_VARIABLES},
    )
