"""Question files: the JSON lines of ``../shared/bench/`` and of ragbisect.

Each line is an object with ``q`` (the question) and ``gold_chunk_ids`` (section ids
``path#ordinal``, the ids ``contextpull export-chunks`` prints), and optionally ``id`` and
``shape`` (``conceptual``, ``exact_lookup``, ...). ragbisect writes the same fields, so a set it
generated over ``export-chunks`` output is read unchanged. A bad line is one ``InputError``
naming the file and the line, before any question is run: an evaluation that stops half way
through has spent its tokens for nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError


@dataclass(frozen=True)
class Question:
    id: str
    q: str
    shape: str
    gold: tuple[str, ...]


def load_questions(path: str | Path) -> list[Question]:
    """Every question of ``path``, in file order; blank lines are skipped."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"{path}: no such question file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the question file ({exc})") from None
    out: list[Question] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        out.append(_question(path, number, line))
        if out[-1].id in seen:
            raise InputError(f"{path}:{number}: question id {out[-1].id!r} appears twice")
        seen.add(out[-1].id)
    if not out:
        raise InputError(f"{path}: no questions in the file")
    return out


def _question(path: Path, number: int, line: str) -> Question:
    where = f"{path}:{number}"
    try:
        record = json.loads(line)
    except ValueError as exc:
        raise InputError(f"{where}: not a JSON object ({exc.args[0]})") from None
    if not isinstance(record, dict):
        raise InputError(f"{where}: not a JSON object")
    q = record.get("q")
    if not isinstance(q, str) or not q.strip():
        raise InputError(f"{where}: 'q' must be a non-empty string")
    gold = record.get("gold_chunk_ids")
    if not isinstance(gold, list) or not gold or not all(isinstance(g, str) and g for g in gold):
        raise InputError(f"{where}: 'gold_chunk_ids' must be a non-empty list of section ids")
    shape = record.get("shape", "conceptual")
    if not isinstance(shape, str) or not shape:
        raise InputError(f"{where}: 'shape' must be a string")
    qid = record.get("id", f"q{number:04d}")  # ragbisect's default for a line without an id
    return Question(str(qid), q, shape, tuple(gold))
