"""Notes on one text's Starlight markup, made under one construct name unless a call names
another: the asides and Markdoc readers make many. It caps nothing: the document's context lists
at most ``context.MAX_LISTED`` unresolved notes of a construct and counts the rest."""

from __future__ import annotations


class Notes:
    def __init__(self, ctx, construct: str) -> None:
        self.ctx, self.construct = ctx, construct

    def note(self, outcome: str, line: int, detail: str = "", construct: str | None = None) -> None:
        self.ctx.note(construct or self.construct, outcome, line, detail)
