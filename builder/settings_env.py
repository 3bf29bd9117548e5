"""The build's settings as the Action hands them over: its inputs over the job's ``CONTEXTPULL_*``.

Settings follow the spec's order (system-design.txt section 8; ``contextpull/settings/resolve.py``):
flag, ``CONTEXTPULL_*`` variable, ``[tool.contextpull]``, default. The Action's ``summarizer``
input stands where a flag would: given, it is ``CONTEXTPULL_SUMMARIZER`` for the cache key and
the build; empty, the job's own ``CONTEXTPULL_SUMMARIZER`` (or the docs' pyproject.toml) decides.
``action.yml`` passes the input as ``CONTEXTPULL_ACTION_SUMMARIZER`` rather than setting
``CONTEXTPULL_SUMMARIZER`` itself, because a step's ``env:`` set to an empty input would hide the
job's variable.

A model summarizer reads its key from the vendor's variable (``contextpull/models/spec.py``,
``HOSTED``); ``missing_key`` says before anything is installed or built that the step has none,
in the words of a workflow file. The cache key needs nothing more from here: it hashes the
settings ``resolve_settings`` makes of ``build_environ``, which hold every ``CONTEXTPULL_*``
variable that changes a store's bytes.

Standard library only, Python 3.8 syntax: ``validate_inputs.py`` runs on the runner's python3.
"""

from __future__ import annotations

from typing import Dict, Mapping, Optional, Tuple

SUMMARIZER_INPUT = "CONTEXTPULL_ACTION_SUMMARIZER"
SUMMARIZER_VARIABLE = "CONTEXTPULL_SUMMARIZER"
# The dialect input (issue 26) stands where a flag would, the same way.
DIALECT_INPUT = "CONTEXTPULL_ACTION_DIALECT"
DIALECT_VARIABLE = "CONTEXTPULL_DIALECT"
# And the embed-model input (issue 38).
EMBED_MODEL_INPUT = "CONTEXTPULL_ACTION_EMBED_MODEL"
EMBED_MODEL_VARIABLE = "CONTEXTPULL_EMBED_MODEL"
# And the api-reference input (issue 37).
API_REFERENCE_INPUT = "CONTEXTPULL_ACTION_API_REFERENCE"
API_REFERENCE_VARIABLE = "CONTEXTPULL_API_REFERENCE"
# provider -> the variable its key is read from; contextpull.models.spec.HOSTED is the source
# (tests/test_builder_summaries.py checks they agree).
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


def build_environ(environ: Mapping[str, str]) -> Dict[str, str]:
    """``environ`` with the ``summarizer``, ``dialect``, ``embed-model`` and ``api-reference``
    inputs, when given, as ``CONTEXTPULL_SUMMARIZER``, ``CONTEXTPULL_DIALECT``,
    ``CONTEXTPULL_EMBED_MODEL`` and ``CONTEXTPULL_API_REFERENCE``."""
    env = dict(environ)
    pairs = ((SUMMARIZER_INPUT, SUMMARIZER_VARIABLE), (DIALECT_INPUT, DIALECT_VARIABLE),
             (EMBED_MODEL_INPUT, EMBED_MODEL_VARIABLE), (API_REFERENCE_INPUT, API_REFERENCE_VARIABLE))
    for given, variable in pairs:
        value = environ.get(given, "").strip()
        if value:
            env[variable] = value
    return env


def summarizer_setting(environ: Mapping[str, str]) -> Tuple[str, str]:
    """The summarizer the build step gets from the Action, and where it was said; ``("", "")``
    when neither says one (the docs' pyproject.toml or the offline default decides)."""
    value = environ.get(SUMMARIZER_INPUT, "").strip()
    if value:
        return value, "input 'summarizer'"
    value = environ.get(SUMMARIZER_VARIABLE, "").strip()
    return (value, f"the job's {SUMMARIZER_VARIABLE}") if value else ("", "")


def missing_key(environ: Mapping[str, str]) -> Optional[str]:
    """One message when the summarizer names a hosted model and its key variable is empty."""
    value, where = summarizer_setting(environ)
    variable = KEY_VARIABLES.get(value.partition(":")[0].strip())
    if not variable or environ.get(variable, "").strip():
        return None
    return (f"{where} is '{value}', which reads its key from {variable}, and this step has none; "
            f"add {variable} to the step's env: from a secret "
            f"({variable}: ${{{{ secrets.{variable} }}}}), or leave summarizer empty for offline summaries")



def embed_setting(environ: Mapping[str, str]) -> Tuple[str, str]:
    """The embedding model the build step gets from the Action, and where it was said; like
    ``summarizer_setting``."""
    value = environ.get(EMBED_MODEL_INPUT, "").strip()
    if value:
        return value, "input 'embed-model'"
    value = environ.get(EMBED_MODEL_VARIABLE, "").strip()
    return (value, f"the job's {EMBED_MODEL_VARIABLE}") if value else ("", "")
