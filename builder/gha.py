"""GitHub Actions workflow commands and files, written the way the runner reads them.

The action's scripts talk to the runner through three channels only: annotation lines on stdout
(``::error file=...::message``), ``key<<DELIMITER`` blocks appended to ``$GITHUB_OUTPUT``, and
markdown appended to ``$GITHUB_STEP_SUMMARY``. Getting the escaping right once, here, is what keeps
a file name with a comma or a reason with a newline from breaking an annotation, and a value that
happens to contain ``EOF`` from ending an output early.

Standard library only, and Python 3.8 syntax: ``validate_inputs.py`` imports this module with the
runner's own ``python3`` before any virtual environment exists.
"""

from __future__ import annotations

import os
import uuid
from typing import Iterable, Mapping, Optional

# Shared by validate_inputs (the runner's python3) and drift_report (the venv's): the golden
# files a build writes and checks, and the base-store prefix that names a release's store.
GOLDEN_FILES = ("index.txt", "ids.txt")
BASE_RELEASE_PREFIX = "release:"
TRUE_WORDS = ("true",)
FALSE_WORDS = ("false",)


class InputProblem(Exception):
    """One bad action input, worded as what to fix; becomes one ``::error::`` line."""


def escape_data(text: str) -> str:
    """Escape an annotation message (the part after ``::``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value such as ``file=``; ``:`` and ``,`` would end it early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str, message: str, *, file: Optional[str] = None, title: Optional[str] = None,
    line: Optional[int] = None,
) -> str:
    """One workflow-command line: ``::error file=docs/a.md,line=3,title=T::message``."""
    if level not in ("error", "warning", "notice"):
        raise ValueError(f"unknown annotation level {level!r}")
    props = []
    if file:
        props.append("file=" + escape_property(file))
    if file and line:
        props.append(f"line={int(line)}")
    if title:
        props.append("title=" + escape_property(title))
    head = f"::{level}"
    if props:
        head += " " + ",".join(props)
    return f"{head}::{escape_data(message)}"


def parse_bool(name: str, value: str) -> bool:
    """An action input that must say true or false (GitHub passes every input as a string)."""
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise InputProblem(f"input '{name}' must be true or false, got '{value}'")


def output_block(name: str, value: str) -> str:
    """``name<<DELIM`` / value / ``DELIM``: the form that is safe for any value, multi-line too."""
    value = str(value)
    while True:
        delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
        if delimiter not in value:
            break
    return f"{name}<<{delimiter}\n{value}\n{delimiter}\n"


def parse_output_file(text: str) -> dict:
    """Read a ``$GITHUB_OUTPUT`` file back as the runner does (both ``k=v`` and heredoc forms)."""
    values: dict = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        eq = line.find("=")
        heredoc = line.find("<<")
        if heredoc != -1 and (eq == -1 or heredoc < eq):
            name, delimiter = line[:heredoc], line[heredoc + 2 :]
            body = []
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise ValueError(f"output {name!r}: delimiter {delimiter!r} never closed")
            i += 1
            values[name] = "\n".join(body)
        elif eq != -1:
            values[line[:eq]] = line[eq + 1 :]
        else:
            raise ValueError(f"unreadable output line {line!r}")
    return values


def write_outputs(values: Mapping[str, object], environ: Mapping[str, str] = os.environ) -> None:
    """Append every value to ``$GITHUB_OUTPUT``; printed instead when run outside a runner."""
    text = "".join(output_block(name, "" if v is None else str(v)) for name, v in values.items())
    target = environ.get("GITHUB_OUTPUT", "")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(text)
    else:
        print(text, end="")


def append_summary(markdown: str, environ: Mapping[str, str] = os.environ) -> None:
    """Append to the job summary; printed instead when run outside a runner."""
    target = environ.get("GITHUB_STEP_SUMMARY", "")
    if not markdown.endswith("\n"):
        markdown += "\n"
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(markdown)
    else:
        print(markdown, end="")


def emit(lines: Iterable[str]) -> None:
    """Print workflow-command lines on stdout, where the runner looks for them."""
    for line in lines:
        print(line, flush=True)
