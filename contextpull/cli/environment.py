"""The process environment read into the value a run is given (``settings.environment``): the
one place the command line's runs turn ``os.environ`` into an ``Environment``; the library reads
none and takes the value as an argument.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import ConfigError
from ..settings.environment import MODEL_VARIABLES, SETTINGS_PREFIX, Checkout, Environment

# The last second of year 9999, the most an ISO timestamp can say.
EPOCH_MAX = 253402300799


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


def read_environment(environ: Mapping[str, str], *, stamps_time: bool = False) -> Environment:
    """The run's ``Environment`` from a process environment (``os.environ``). A command that
    stamps its output with a time (``build``) refuses a bad ``SOURCE_DATE_EPOCH`` here, before it
    starts; one that records no time (``ingest``, ``serve``) reads it as unset, as it always has."""
    jobs = environ.get(SETTINGS_PREFIX + "JOBS", "").strip()
    raw_epoch = environ.get("SOURCE_DATE_EPOCH", "")
    if stamps_time:
        epoch = source_date_epoch(raw_epoch)
    else:
        try:
            epoch = source_date_epoch(raw_epoch)
        except ConfigError:
            epoch = None
    return Environment(
        epoch=epoch,
        checkout=Checkout(
            server_url=environ.get("GITHUB_SERVER_URL", "").strip(),
            repository=environ.get("GITHUB_REPOSITORY", "").strip(),
            ref_name=environ.get("GITHUB_REF_NAME", "").strip(),
            sha=environ.get("GITHUB_SHA", "").strip(),
        ),
        jobs=int(jobs) if jobs.isdigit() and int(jobs) > 0 else None,
        variables={k: v for k, v in environ.items() if k.startswith(SETTINGS_PREFIX) or k in MODEL_VARIABLES},
    )
