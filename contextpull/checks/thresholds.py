"""Limits on what a change may remove, so silent content loss fails a pipeline (issue 29).

A parser change or a docs reorganisation that drops most of a corpus still builds a valid store;
only a comparison with the previous store shows it. ``contextpull diff`` (and ``build`` against
its cache or a base store) measures four things against OLD and fails when one crosses its limit:

- ``documents``: documents removed (a path of OLD missing from NEW);
- ``sections``: section ids removed;
- ``text``: text removed, in UTF-8 bytes: for every document of OLD, what it lost
  (all of it when removed), so growth elsewhere does not hide a loss;
- shrink: the net change of the whole store's text, in percent of OLD.

Syntax of ``--max-removed`` (repeatable; comma-separated entries work too, later ones win):

- ``20%``: every removal measure at 20 % of OLD;
- ``5``: documents and sections at 5 removed (a bare count never applies to text, where it would
  mean bytes; say ``text=4096`` for that);
- ``documents=20%``, ``sections=30``, ``text=10%``: one measure.

``--max-shrink 10`` (or ``10%``) fails when the text shrank by more than 10 %. A figure equal to
its limit passes. Percentages are of OLD; an empty OLD has removed nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

REMOVAL_MEASURES = ("documents", "sections", "text")
COUNT_MEASURES = ("documents", "sections")  # what a bare count applies to
_NUMBER = r"(?:\d+(?:\.\d+)?|\.\d+)"
_VALUE = re.compile(rf"^\s*(?P<number>{_NUMBER})\s*(?P<percent>%?)\s*$")


class BadThreshold(ValueError):
    """A threshold that cannot be read; the message says what is accepted."""


@dataclass(frozen=True)
class Limit:
    value: float
    percent: bool

    def __str__(self) -> str:
        text = f"{self.value:g}"
        return text + "%" if self.percent else text


def _limit(text: str, what: str) -> Limit:
    match = _VALUE.match(text)
    if not match:
        raise BadThreshold(f"{what} {text.strip()!r} is not a count or a percentage (e.g. 5, 20%)")
    value, percent = float(match["number"]), bool(match["percent"])
    if percent and value > 100:
        raise BadThreshold(f"{what} {text.strip()!r} is over 100%")
    if not percent and value != int(value):
        raise BadThreshold(f"{what} {text.strip()!r}: a count is a whole number")
    return Limit(value, percent)


def parse_removed(specs: Iterable[str]) -> dict[str, Limit]:
    """The ``--max-removed`` values (module docstring) as measure -> limit."""
    limits: dict[str, Limit] = {}
    for spec in specs:
        for entry in str(spec).split(","):
            if not entry.strip():
                raise BadThreshold(f"empty entry in {str(spec)!r}; e.g. 20% or documents=20%,sections=50")
            name, sep, value = entry.partition("=")
            if sep:
                name = name.strip()
                if name not in REMOVAL_MEASURES:
                    raise BadThreshold(f"unknown measure {name!r} in {entry.strip()!r}; measures are {', '.join(REMOVAL_MEASURES)}")
                limits[name] = _limit(value, name)
                continue
            limit = _limit(entry, "limit")
            for measure in REMOVAL_MEASURES if limit.percent else COUNT_MEASURES:
                limits[measure] = limit
    return limits


def parse_shrink(spec: str) -> float:
    """``--max-shrink`` as a percentage (``10`` and ``10%`` are the same)."""
    text = str(spec).strip()
    return _limit(text if text.endswith("%") else text + "%", "shrink").value


@dataclass(frozen=True)
class Thresholds:
    removed: tuple[tuple[str, Limit], ...] = ()
    shrink: float | None = None

    @classmethod
    def parse(cls, removed: Iterable[str] = (), shrink: str | None = None) -> "Thresholds":
        limits = parse_removed(removed)
        return cls(
            tuple((m, limits[m]) for m in REMOVAL_MEASURES if m in limits),
            None if shrink is None or str(shrink).strip() == "" else parse_shrink(shrink),
        )

    @property
    def empty(self) -> bool:
        return not self.removed and self.shrink is None

    def limit(self, measure: str) -> Limit | None:
        return dict(self.removed).get(measure)


@dataclass(frozen=True)
class Measure:
    """One measure of a diff: ``value`` of ``total`` in OLD; ``limit`` as given, or None."""

    name: str  # documents | sections | text | shrink
    value: int  # removed count or bytes; for shrink, OLD bytes minus NEW bytes (negative: grew)
    total: int  # the same measure in OLD
    limit: Limit | None = None

    @property
    def percent(self) -> float:
        return 100.0 * self.value / self.total if self.total else 0.0

    @property
    def failed(self) -> bool:
        if self.limit is None:
            return False
        if self.limit.percent:
            return _rounded(self.percent) > self.limit.value
        return self.value > self.limit.value

    @property
    def label(self) -> str:
        return "text shrink" if self.name == "shrink" else f"{self.name} removed"

    def figure(self) -> str:
        """``6 of 10 (60.0%)``; text in bytes; shrink as a signed percentage."""
        if self.name == "shrink":
            return f"{_rounded(self.percent):.1f}% ({self.value:,} of {self.total:,} bytes)"
        unit = " bytes" if self.name == "text" else ""
        return f"{self.value:,} of {self.total:,}{unit} ({_rounded(self.percent):.1f}%)"

    def option(self) -> str:
        if self.limit is None:
            return ""
        if self.name == "shrink":
            return f"--max-shrink {self.limit}"
        return f"--max-removed {self.name}={self.limit}"

    def failure(self) -> str:
        return f"{self.label} {self.figure()} is over {self.option()}"

    def to_dict(self) -> dict:
        return {
            "measure": self.label,
            "value": self.value,
            "of": self.total,
            "percent": _rounded(self.percent),
            "limit": None if self.limit is None else str(self.limit),
            "failed": self.failed,
        }


def _rounded(percent: float) -> float:
    """To 0.1 %, as the figure is printed: a limit is judged on the number a reader sees."""
    return math.floor(percent * 10 + 0.5) / 10 if percent >= 0 else -math.floor(-percent * 10 + 0.5) / 10


def failure_line(measures: Iterable[Measure]) -> str:
    """One line naming every measure over its limit; ``""`` when none is."""
    return "; ".join(m.failure() for m in measures if m.failed)
