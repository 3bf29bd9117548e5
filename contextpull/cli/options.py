"""Option decorators shared by several commands, so each command's signature stays declarative."""

from __future__ import annotations

import click

from ..dialects.registry import NAMES as DIALECT_NAMES  # the one table; loads no dialect module

DEFAULT_STORE = ".contextpull/store.sqlite"

store_option = click.option(
    "--store",
    "store",
    type=click.Path(dir_okay=False),
    default=DEFAULT_STORE,
    envvar="CONTEXTPULL_STORE",
    show_default=True,
    show_envvar=True,
    help="The store file to read.",
)

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def settings_options(func):
    """The build settings as flags; None means "not given" so env and pyproject can apply."""
    for name, kind, text in reversed(
        [
            ("--section-max-chars", int, "Split sections longer than this."),
            ("--section-min-chars", int, "Merge fragments shorter than this."),
            ("--section-heading-depth", int, "Start sections at headings up to this level."),
            ("--index-budget-tokens", int, "Token budget of the index text."),
            ("--summarizer", str, "Document summaries: 'offline', 'openai:<model>' (OPENAI_API_KEY, OPENAI_BASE_URL) or 'anthropic:<model>' (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL)."),
            ("--summary-concurrency", int, "Summary requests in flight at once (default 8)."),
            (
                "--embed-model",
                str,
                "Section embeddings for search --mode hybrid: openai:<model>, local (the default local model, local:minilm), "
                "local:minilm-static (fast, for every CI build) or local:e5-small; needs the embed-local extra for local models. Default: none.",
            ),
            ("--max-file-bytes", int, "Skip documents larger than this, unread [default: 256 MiB]."),
            (
                "--dialect",
                str,
                "How the site generator's markup is read: auto (from its configuration file; the default), plain, "
                f"{', '.join(DIALECT_NAMES[:-1])} or {DIALECT_NAMES[-1]}.",
            ),
        ]
    ):
        func = click.option(name, type=kind, default=None, help=text)(func)
    func = click.option(
        "--api-reference/--no-api-reference", "api_reference", default=None,
        help="Read mkdocstrings ::: lines and Sphinx autodoc directives from the repository's Python source, "
        "statically, never importing it (default: on).",
    )(func)
    return func


def settings_flags(kwargs: dict) -> dict:
    """Pop the settings flags out of a command's kwargs for ``resolve_settings``."""
    names = (
        "section_max_chars",
        "section_min_chars",
        "section_heading_depth",
        "index_budget_tokens",
        "summarizer",
        "summary_concurrency",
        "embed_model",
        "max_file_bytes",
        "dialect",
        "api_reference",
    )
    return {name: kwargs.pop(name, None) for name in names}
