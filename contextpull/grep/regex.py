"""Regex grep with an evaluation budget that really stops pathological patterns.

store-format.txt, "Grep": regex mode bounds the pattern to 200 characters and the evaluation per
section, returning a tool error on overrun. Python's ``re`` cannot be cancelled from another
thread, but its matcher checks for signals while it runs, so on the main thread a ``SIGALRM``
interval timer whose handler raises once a section has used up its budget interrupts even
``(a+)+$`` on a long line. Off the main thread (or without ``setitimer``) the same scan runs in
a child process that does exactly that, and the parent kills it past the overall budget.

Standard library only; used by ``contextpull.ops``.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterable

from ..system.child_env import with_python_path
from ..errors import ToolError

SECTION_BUDGET_S = 0.25  # evaluation budget per section
TOTAL_BUDGET_S = 30.0  # and for the whole call, whatever the number of sections
_TICK_S = 0.02

TOO_EXPENSIVE = ToolError(
    "pattern too expensive",
    "narrow with in= or use a literal match, regex=false",
    cli_suggestion="narrow with --in, or drop --regex for a literal match",
)


class _Overrun(Exception):
    pass


# Constructs whose meaning differs between one line and a whole text with MULTILINE.
_LINE_ONLY = (r"\A", r"\Z", r"\z", "(?<", "(?=", "(?!")


class LinePattern:
    """A pattern evaluated line by line, as grep does, searching whole sections when that is exact.

    The leftmost MULTILINE match in a section, when it holds no newline, is also a match of its
    line, and no earlier line can match (that match would have come first); a match across lines
    sends that section through the line-by-line loop. Patterns with anchors or lookarounds that
    could see past a line always take the loop.
    """

    def __init__(self, pattern: str):
        try:
            self.line = re.compile(pattern, re.IGNORECASE)
            whole = not any(token in pattern for token in _LINE_ONLY)
            self.text = re.compile(pattern, re.IGNORECASE | re.MULTILINE) if whole else None
        except (re.error, OverflowError, RecursionError) as exc:
            raise ToolError(
                f"pattern does not compile: {exc}",
                "set regex=false for a literal match",
                cli_suggestion="drop --regex for a literal match",
            ) from None

    def first_line(self, text: str) -> str | None:
        """The first line of ``text`` the pattern matches, trimmed as grep.literal.first_line, or None."""
        if self.text is not None:
            found = self.text.search(text)
            if found is None:
                return None
            if "\n" not in found.group(0):
                start = text.rfind("\n", 0, found.start()) + 1
                end = text.find("\n", found.start())
                return (text[start:] if end < 0 else text[start:end]).strip()
        for line in text.split("\n"):
            if self.line.search(line):
                return line.strip()
        return None


def compile_pattern(pattern: str) -> LinePattern:
    return LinePattern(pattern)


def _scan(rx, rows: Iterable[tuple], limit: int, clock: dict) -> tuple[list[tuple], bool]:
    found: list[tuple] = []
    for row in rows:
        clock["section"] = time.monotonic()
        line = rx.first_line(row[-1])
        clock["section"] = None
        if line is not None:
            if len(found) == limit:
                return found, True
            found.append((*row[:-1], line))
    return found, False


def scan_in_process(rx, rows: Iterable[tuple], limit: int) -> tuple[list[tuple], bool]:
    """Scan ``rows`` (…, text) ordered by id on the main thread under a SIGALRM budget."""
    start = time.monotonic()
    clock: dict = {"section": None, "done": False}

    def on_tick(signum, frame):
        if clock["done"]:
            return
        now = time.monotonic()
        began = clock["section"]
        if now - start > TOTAL_BUDGET_S or (began is not None and now - began > SECTION_BUDGET_S):
            raise _Overrun()

    previous = signal.signal(signal.SIGALRM, on_tick)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, _TICK_S, _TICK_S)
            return _scan(rx, rows, limit, clock)
        finally:
            _disarm(clock, previous)
    except _Overrun:
        raise TOO_EXPENSIVE from None


def _disarm(clock: dict, previous) -> None:
    """Stop the timer and restore the previous handler, even if a last tick lands in between."""
    while True:
        try:
            clock["done"] = True
            signal.setitimer(signal.ITIMER_REAL, 0, 0)
            signal.signal(signal.SIGALRM, previous)
            return
        except _Overrun:
            continue


def can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def scan_in_child(store_path: str, pattern: str, in_: list[str] | None, limit: int) -> tuple[list[dict], bool]:
    """Run the same grep in a child process (its own main thread) and kill it past the budget."""
    request = json.dumps({"store": store_path, "pattern": pattern, "in": in_, "limit": limit})
    package_root = str(Path(__file__).resolve().parent.parent)
    env = with_python_path(package_root)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "contextpull.grep.regex_child"],
            input=request,
            capture_output=True,
            text=True,
            timeout=TOTAL_BUDGET_S + 5,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise TOO_EXPENSIVE from None
    try:
        reply = json.loads(proc.stdout)
    except ValueError:
        raise ToolError("regex grep failed: " + (proc.stderr.strip().splitlines() or ["no output"])[-1]) from None
    if "error" in reply:
        raise ToolError(reply["error"], reply.get("suggestion"), **reply.get("cli", {}))
    return reply["matches"], reply["truncated"]
