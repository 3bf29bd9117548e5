"""Notes on one text's Starlight markup, with a ceiling (issue 36, "Bad input"): a page of a
hundred thousand broken asides or tags gives a report of ``MAX_WARNINGS`` lines and one that
counts the rest, not a hundred thousand lines."""

from __future__ import annotations

MAX_WARNINGS = 100


class Notes:
    def __init__(self, ctx, construct: str) -> None:
        self.ctx, self.construct = ctx, construct
        self.warned = 0
        self.first_unlisted = 0

    def note(self, outcome: str, line: int, detail: str = "", construct: str | None = None) -> None:
        if outcome == "unresolved":
            self.warned += 1
            if self.warned > MAX_WARNINGS:
                self.first_unlisted = self.first_unlisted or line
                return
        self.ctx.note(construct or self.construct, outcome, line, detail)

    def finish(self) -> None:
        if self.warned > MAX_WARNINGS:
            self.ctx.note(self.construct, "unresolved", self.first_unlisted,
                          f"{self.warned - MAX_WARNINGS} more on this page, from here on, not listed")
