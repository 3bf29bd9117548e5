"""What a run takes from the process environment, as a value the library is given.

Only the surfaces look at ``os.environ``: the CLI (``contextpull/cli/``, whose
``environment.read_environment`` turns it into this value), the MCP server and the Action's
scripts (``builder/``). The library, its entry points ``contextpull.ingest.ingest`` and
``contextpull.artifact.build`` included, takes an ``Environment`` as an argument and reads
none. So a build's bytes follow from what it was given, a test gives them without patching the
process, and a worker process cannot see a different ``SOURCE_DATE_EPOCH`` from the one the
build checked (the Sphinx ``date`` directive once read it again in the worker).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


SETTINGS_PREFIX = "CONTEXTPULL_"
# The hosted model providers' variables (contextpull/models/spec.py ``HOSTED``), spelled here so
# reading the environment loads no model code.
MODEL_VARIABLES = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")


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

    epoch: int | None = None  # SOURCE_DATE_EPOCH, a whole number of seconds in range (checked at the surface)
    checkout: Checkout = Checkout()
    jobs: int | None = None  # CONTEXTPULL_JOBS when it is a positive whole number
    # ``CONTEXTPULL_*`` (settings, resolved by ``resolve_settings``) and the model providers'
    # URL and key variables: all a run may look up by name.
    variables: Mapping[str, str] = field(default_factory=dict, repr=False)
