"""Notes on one text's Starlight markup under one construct name: the asides and Markdoc readers
make many, and the document's context lists at most ``context.MAX_LISTED`` unresolved ones of a
construct (a page of a hundred thousand broken asides gives a report of a hundred lines)."""

from __future__ import annotations


class Notes:
    def __init__(self, ctx, construct: str) -> None:
        self.ctx, self.construct = ctx, construct

    def note(self, outcome: str, line: int, detail: str = "", construct: str | None = None) -> None:
        self.ctx.note(construct or self.construct, outcome, line, detail)
