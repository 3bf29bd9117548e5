"""One error vocabulary for every surface.

Each error carries a one-line ``message``, an optional ``suggestion`` the reader (a person or a
model) can act on, and the process ``exit_code`` the CLI uses. The CLI, the MCP server and the
conformance runner all render errors through ``to_dict()``, so a tool error looks the same
wherever it surfaces (supplement.md, "Errors").

Exit codes (documented in README.md):
  0 success, 1 a check failed (golden drift, verify, --strict), 2 usage error (click's own) or a
  bad setting, 3 bad input, an unusable store or a model setting this machine cannot use (an
  unknown provider, a missing key), 4 a tool error (unknown id, bad pattern, ...).
"""

from __future__ import annotations


class ContextPullError(Exception):
    """Base class: a failure we can explain in one line.

    ``message`` and ``suggestion`` speak the library's and the tools' vocabulary (tool arguments:
    ``regex=false``, ``in``), which is what a model receives; a model cannot run CLI commands.
    ``cli_message`` and ``cli_suggestion`` say the same in the CLI's vocabulary (``--regex``,
    ``--in``) where the two differ; the CLI edge prints those, and nothing else does.
    """

    exit_code = 3

    def __init__(
        self,
        message: str,
        suggestion: str | None = None,
        *,
        cli_message: str | None = None,
        cli_suggestion: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion
        self.cli_message = cli_message if cli_message is not None else message
        self.cli_suggestion = cli_suggestion if cli_suggestion is not None else suggestion

    def to_dict(self) -> dict:
        return {"error": self.message, "suggestion": self.suggestion}

    def __str__(self) -> str:
        return self.message


class StoreError(ContextPullError):
    """The file cannot be served: not SQLite, not a store, a newer major version, no FTS5."""


class ToolError(ContextPullError):
    """A tool call that cannot be answered as asked (store-format.txt; supplement "Errors").

    Also exported as ``OpsError`` (``contextpull.ops.OpsError``), the name the 0.2.1 library
    documented: one class under two names, so ``except OpsError`` and ``except ToolError`` catch
    the same errors (docs/library.md).
    """

    exit_code = 4


OpsError = ToolError


class ConfigError(ContextPullError):
    """A setting with a bad value; the message names the setting and where it came from."""

    exit_code = 2


class ModelSettingError(ConfigError):
    """A model setting (``summarizer``, ``embed_model``) this environment cannot serve: an unknown
    provider or a key variable that is not set. Exit 3 like other unusable input, not 2: the
    setting is well formed, what is missing lies outside the command line (issue 17)."""

    exit_code = 3


class InputError(ContextPullError):
    """The corpus, an output folder or another path argument is unusable."""


class NoUsableDocuments(InputError):
    """A build or ingest that found no document to store: the message names the first skipped
    files with their reasons, ``to_dict`` (``--json``) every one."""

    def __init__(self, message: str, suggestion: str, skipped: list[tuple[str, str]]):
        super().__init__(message, suggestion)
        self.skipped = [{"path": path, "reason": reason} for path, reason in skipped]

    def to_dict(self) -> dict:
        return {**super().to_dict(), "skipped": self.skipped}


class BuildError(ContextPullError):
    """A build could not complete; the previous artifact is left untouched."""


class CheckFailed(ContextPullError):
    """The build worked but a check did not hold: golden drift, verify, --strict skips."""

    exit_code = 1
