"""``--max-removed`` and ``--max-shrink``, shared by ``diff`` and ``build`` (issue 29).

The syntax is ``contextpull.checks.thresholds``'s; a value that cannot be read is a usage error
(exit 2) naming the option, before any store is opened.
"""

from __future__ import annotations

import click

from ..checks.thresholds import BadThreshold, Thresholds, parse_removed, parse_shrink


class _Removed(click.ParamType):
    name = "LIMIT"

    def convert(self, value, param, ctx):
        try:
            parse_removed([value])
        except BadThreshold as exc:
            self.fail(str(exc), param, ctx)
        return value


class _Shrink(click.ParamType):
    name = "PERCENT"

    def convert(self, value, param, ctx):
        try:
            parse_shrink(value)
        except BadThreshold as exc:
            self.fail(str(exc), param, ctx)
        return value


max_removed_option = click.option(
    "--max-removed",
    "max_removed",
    type=_Removed(),
    multiple=True,
    help="Fail (exit 1) when more was removed than this, of OLD: 20% (documents, sections and text), "
    "5 (documents and sections), or MEASURE=N[%] for documents, sections or text (bytes). Repeatable.",
)
max_shrink_option = click.option(
    "--max-shrink",
    "max_shrink",
    type=_Shrink(),
    default=None,
    help="Fail (exit 1) when the store's text shrank by more than this percentage of OLD.",
)


def thresholds_from(max_removed, max_shrink) -> Thresholds:
    return Thresholds.parse(max_removed or (), max_shrink)
