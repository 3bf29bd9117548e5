"""Configuration, front matter and data files read as data, never run (issue 26: "Configuration
files are read as data ... nothing is ever executed or rendered").

- YAML through PyYAML's ``SafeLoader``, with unknown tags read as None and alias bombs refused
  (``yaml_load``).
- TOML through ``tomllib`` (``tomli`` on Python 3.10).
- A Sphinx ``conf.py`` through ``ast``: top-level ``name = <literal>`` assignments only, each
  through ``ast.literal_eval``; everything else in the file is ignored, nothing is imported.

Every failure is a ``DataError`` whose message is the reason a note or an error shows.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import Any

from . import DataError


def load_yaml(text: str) -> Any:
    """The first YAML document of ``text`` as plain data; ``DataError`` when it is not YAML.
    PyYAML is imported on the first call (``yaml_load``): importing it took 12 ms, a tenth of a
    build's start, and a site without YAML (an mdBook, a Sphinx project) never needs it."""
    from . import yaml_load

    return yaml_load.load(text)


# PyYAML's tags that construct a Python object (its unsafe loader's); the safe loader reads them
# as nothing, and the report tells the author which tag on which line was ignored.
_OBJECT_TAG = re.compile(r"!!python/[^\s,\]\}]+|!<tag:yaml\.org,2002:python/[^>]*>")


def object_tags(source: str, first_line: int = 1) -> list[tuple[str, int]]:
    """Each object-constructing tag in YAML ``source`` with its line (``first_line`` the first)."""
    return [
        (m.group(0), first_line + n)
        for n, line in enumerate(source.split("\n"))
        if "python/" in line
        for m in _OBJECT_TAG.finditer(line)
    ]


def load_toml(text: str) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"malformed TOML: {exc}") from None
    except RecursionError:
        raise DataError("TOML nested too deeply") from None


def load_conf_py(text: str) -> dict:
    """The literal top-level assignments of a Sphinx ``conf.py`` (``project = "Flask"``,
    ``extensions = [...]``); an assignment whose value is not a literal is left out."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise DataError(f"conf.py is not valid Python: {exc}") from None
    out: dict = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            value = stmt.value
        else:
            continue
        name = stmt.targets[0].id if isinstance(stmt, ast.Assign) else stmt.target.id
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            continue
    return out
