"""docs/architecture.md says the rooms' imports as the code has them (the brief: "keep them
true"): its table's "may import" column is the import-graph test's table, and its picture's
layers put every room above the rooms it imports, so the rooms form no cycle."""

from __future__ import annotations

import re
from pathlib import Path

from test_import_graph import ROOMS

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def _rooms_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("\n## Rooms\n") : text.index("\n### The dialects room\n")]


def doc_table() -> dict[str, set[str]]:
    table = {}
    for line in _rooms_section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        found = re.fullmatch(r"`(\w+)/`", cells[0]) if len(cells) >= 4 else None
        if found:
            table[found.group(1)] = set(re.findall(r"`(\w+)`", cells[2])) & set(ROOMS)
    return table


def doc_layers() -> dict[str, int]:
    picture = _rooms_section().split("```")[1]
    layers = {}
    for line in picture.splitlines():
        found = re.match(r"layer (\d+)\s+(.*)", line)
        if found:
            for room in re.findall(r"(\w+)/", found.group(2)):
                layers[room] = int(found.group(1))
    return layers


def test_the_table_says_what_each_room_may_import():
    assert doc_table() == ROOMS


def test_every_room_is_above_the_rooms_it_imports():
    layers = doc_layers()
    assert set(layers) == set(ROOMS)
    upward = sorted(f"{room} -> {other}" for room, others in ROOMS.items() for other in others
                    if layers[other] >= layers[room])
    assert upward == []
