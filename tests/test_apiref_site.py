"""API pages as the real sites show them (issue 37, "render what the site would show"): what
mkdocstrings and Sphinx autodoc put on a page beyond the docstring (bases, overloads, signatures
with or without annotations, the order a ``members`` list gives) and what the build cannot show
and names (members inherited from outside the repository). Each case is a small site whose
rendered text is asserted."""

from __future__ import annotations

import re

from site_build import build_json, write_site
from griffe_needed import needs_griffe
from test_apiref import SPHINX, _mkdocs, _sections

pytestmark = needs_griffe

# A package whose classes inherit from ``ropes``, which the repository does not hold (as FastAPI's
# ``HTTPException`` inherits from Starlette's).
OUTSIDE = {
    "rigging/__init__.py": '"""Rigging."""\n\nfrom .lines import Halyard, Sheet\n\n__all__ = ["Halyard", "Sheet"]\n',
    "rigging/lines.py": ('"""Lines."""\n\nfrom ropes.core import Rope\n\n\nclass Halyard(Rope):\n'
                         '    """Hoists a sail."""\n\n    def hoist(self):\n        """Pull."""\n\n\n'
                         'class Sheet(Rope):\n    """Trims a sail."""\n'),
}


def _unresolved(report: dict, path: str) -> list[tuple[int, str]]:
    return [(u["line"], u["detail"]) for u in report["dialect"]["unresolved"]
            if u["path"] == path and u["construct"] in ("mkdocstrings", "rst autodoc")]


def test_members_inherited_from_outside_the_repository_are_named_once_a_page(tmp_path):
    """FastAPI's site preloads Starlette, so ``HTTPException`` shows ``status_code``, ``detail``
    and ``headers``; the build never reads Starlette and names the gap, with the page's line,
    once for a class however often the page shows it, one note for a line's classes."""
    page = "# API\n\n::: rigging.Halyard\n\n::: rigging.Halyard\n\n::: rigging.lines\n"
    config = "          inherited_members: true\n          preload_modules:\n          - ropes\n"
    root = _mkdocs(tmp_path, page, OUTSIDE, config=config)
    report = build_json(root / "docs", tmp_path / "out")
    assert _unresolved(report, "api.md") == [
        (3, "the members inherited from bases outside the repository, which the site shows, are not rendered"
            " (never read): rigging.lines.Halyard from ropes.core.Rope"),
        (7, "the members inherited from bases outside the repository, which the site shows, are not rendered"
            " (never read): rigging.lines.Sheet from ropes.core.Rope"),
    ]
    assert "Pull." in "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))


def test_a_base_the_site_does_not_load_is_no_gap(tmp_path):
    """Without ``preload_modules`` mkdocstrings does not load ``ropes`` either: the site shows
    no inherited member from it, and there is nothing to name."""
    root = _mkdocs(tmp_path, "# API\n\n::: rigging.Halyard\n", OUTSIDE, config="          inherited_members: true\n")
    report = build_json(root / "docs", tmp_path / "out")
    assert _unresolved(report, "api.md") == []


def test_names_a_members_list_gives_that_come_from_outside_are_one_note(tmp_path):
    """FastAPI's ``UJSONResponse`` lists ten members it inherits from Starlette: one line names
    them all and the base they would come from."""
    page = "# API\n\n::: rigging.Halyard\n    options:\n      members:\n        - hoist\n        - pull\n        - tension\n"
    root = _mkdocs(tmp_path, page, OUTSIDE, config="          inherited_members: true\n")
    report = build_json(root / "docs", tmp_path / "out")
    assert _unresolved(report, "api.md") == [
        (3, "rigging.lines.Halyard has none of the 2 members its list names in its source: pull, tension;"
            " bases outside the repository (ropes.core.Rope) are never read")]


def test_autodoc_inherited_members_from_outside_are_named(tmp_path):
    """Flask's ``.. autoclass:: Request`` with ``:inherited-members:``: autodoc imports
    Werkzeug and shows its members; ``:inherited-members: Rope`` stops at that class."""
    files = dict(SPHINX, **{f"lib/{k}": v for k, v in OUTSIDE.items()})
    files["docs/rigging.rst"] = ("Rigging\n=======\n\n.. autoclass:: rigging.Halyard\n   :members:\n"
                                 "   :inherited-members:\n\n.. autoclass:: rigging.Sheet\n   :members:\n"
                                 "   :inherited-members: Rope\n")
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "docs", tmp_path / "out")
    assert _unresolved(report, "rigging.rst") == [
        (4, "the members inherited from bases outside the repository, which the site shows, are not rendered"
            " (never read): rigging.lines.Halyard from ropes.core.Rope")]


def test_a_members_list_is_shown_in_its_own_order_within_each_category(tmp_path):
    """mkdocstrings: "The members will be rendered in the specified order, regardless of the
    value of members_order", still grouped by category (FastAPI lists ``openapi``,
    ``websocket``, ``include_router``, ``frontend``; its source defines ``frontend`` first)."""
    page = ("# API\n\n::: harbour.berth.Berth\n    options:\n      members_order: source\n      members:\n"
            "        - _private\n        - moor\n        - length\n")
    root = _mkdocs(tmp_path, page)
    build_json(root / "docs", tmp_path / "out")
    assert _headings(tmp_path / "out") == ["harbour.berth.Berth", "length", "_private", "moor"]
    page = page.replace("      members_order: source\n", "      group_by_category: false\n")
    root = _mkdocs(tmp_path / "ungrouped", page)
    build_json(root / "docs", tmp_path / "out2")
    assert _headings(tmp_path / "out2") == ["harbour.berth.Berth", "_private", "moor", "length"]


def _headings(out) -> list[str]:
    """The objects' headings of ``api.md`` in page order (short sections are merged)."""
    text = "\n".join(t for _, t in _sections(out / "store.sqlite", "api.md"))
    return re.findall(r"^#{2,} (\S+)", text, re.MULTILINE)


def test_a_class_shows_its_bases_as_the_site_writes_them(tmp_path):
    """mkdocstrings' ``show_bases`` (on by default) writes "Bases:" under the signature, each
    base by the last part of the path it is imported from (``annotations_path: brief``):
    FastAPI's page shows ``Bases: HTTPException`` for ``StarletteHTTPException``."""
    outside = dict(OUTSIDE)
    outside["rigging/lines.py"] = outside["rigging/lines.py"].replace(
        "from ropes.core import Rope\n", "from ropes.core import Rope as CoreRope\nimport ropes.extra\n").replace(
        "class Halyard(Rope)", "class Halyard(CoreRope, ropes.extra.Tagged)").replace("class Sheet(Rope)", "class Sheet")
    root = _mkdocs(tmp_path, "# API\n\n::: rigging.Halyard\n\n::: rigging.Sheet\n", outside)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))
    assert "```python\nclass Halyard(CoreRope, ropes.extra.Tagged)\n```\n\nBases: `Rope`, `Tagged`\n\nHoists a sail." in text
    assert text.count("Bases:") == 1  # Sheet names none
    root = _mkdocs(tmp_path / "full", "# API\n\n::: rigging.Halyard\n    options:\n      annotations_path: full\n"
                   "\n::: rigging.Sheet\n    options:\n      show_bases: false\n", outside)
    build_json(root / "docs", tmp_path / "out2")
    text = "\n".join(t for _, t in _sections(tmp_path / "out2" / "store.sqlite", "api.md"))
    assert "Bases: `ropes.core.Rope`, `ropes.extra.Tagged`" in text


def test_autodoc_show_inheritance_writes_object_for_a_class_without_bases(tmp_path):
    """autodoc's ``:show-inheritance:`` writes ``Bases: object`` for a class that names none
    (its ``__bases__``), each base short unless ``autodoc_typehints_format`` is fully qualified."""
    files = dict(SPHINX, **{f"lib/{k}": v for k, v in OUTSIDE.items()})
    files["docs/rigging.rst"] = ("Rigging\n=======\n\n.. autoclass:: quay.Place\n   :show-inheritance:\n\n"
                                 ".. autoclass:: rigging.Halyard\n   :show-inheritance:\n")
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "rigging.rst"))
    assert "Bases: `object`\n\nSomewhere." in text and "Bases: `Rope`\n\nHoists a sail." in text
    files["docs/conf.py"] += "autodoc_typehints_format = 'fully-qualified'\n"
    root = write_site(tmp_path / "site2", files)
    build_json(root / "docs", tmp_path / "out2")
    text = "\n".join(t for _, t in _sections(tmp_path / "out2" / "store.sqlite", "rigging.rst"))
    assert "Bases: `ropes.core.Rope`" in text


OVERLOADED = ('"""Tides."""\n\nimport typing as t\n\n\n@t.overload\ndef level(at: int) -> float: ...\n'
              '@t.overload\ndef level(at: str, *, exact: bool = ...) -> str: ...\n'
              'def level(at, *, exact=False):\n    """The water level."""\n\n\n'
              'class Gauge:\n    """Reads the tide."""\n\n    @t.overload\n    def __init__(self, port: str) -> None: ...\n'
              '    @t.overload\n    def __init__(self, port: int) -> None: ...\n    def __init__(self, port):\n        pass\n')


def test_mkdocstrings_shows_each_overload_with_its_annotations_then_the_implementation(tmp_path):
    """mkdocstrings renders each ``@overload`` (``show_overloads``, on by default) with its
    annotations, then the implementation's signature; ``overloads_only`` hides the latter; a
    merged ``__init__``'s overloads are the class's."""
    config = "          merge_init_into_class: true\n"
    root = _mkdocs(tmp_path, "# API\n\n::: harbour.tides.level\n\n::: harbour.tides.Gauge\n",
                   {"harbour/tides.py": OVERLOADED}, config=config)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))
    assert ("```python\n@overload\ndef level(at: int) -> float\n@overload\ndef level(at: str, *, exact: bool = ...) -> str\n"
            "def level(at, *, exact=False)\n```") in text
    assert ("```python\nclass Gauge:\n    @overload\n    def __init__(self, port: str)\n    @overload\n"
            "    def __init__(self, port: int)\n    def __init__(self, port)\n```") in text
    root = _mkdocs(tmp_path / "only", "# API\n\n::: harbour.tides.level\n    options:\n      overloads_only: true\n\n"
                   "::: harbour.tides.Gauge\n    options:\n      show_overloads: false\n", {"harbour/tides.py": OVERLOADED},
                   config=config)
    build_json(root / "docs", tmp_path / "out2")
    text = "\n".join(t for _, t in _sections(tmp_path / "out2" / "store.sqlite", "api.md"))
    assert "def level(at: str, *, exact: bool = ...) -> str\n```" in text and "exact=False" not in text
    assert "```python\nclass Gauge:\n    def __init__(self, port)\n```" in text


def test_autodoc_shows_the_overloads_instead_of_the_implementation(tmp_path):
    """autodoc shows an overloaded function's overloads instead of its own signature, an
    overload's ``...`` default as the implementation's; with ``autodoc_typehints = "none"``
    only the implementation's."""
    files = dict(SPHINX)
    files["lib/tides.py"] = OVERLOADED
    files["docs/tides.rst"] = "Tides\n=====\n\n.. autofunction:: tides.level\n\n.. autoclass:: tides.Gauge\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "tides.rst"))
    assert ("```python\n@overload\ndef level(at: int) -> float\n@overload\ndef level(at: str, *, exact: bool = False) -> str\n```"
            in text)
    assert "```python\nclass Gauge:\n    @overload\n    def __init__(self, port: str)\n    @overload\n    def __init__(self, port: int)\n```" in text
    files["docs/conf.py"] += "autodoc_typehints = 'none'\n"
    root = write_site(tmp_path / "site2", files)
    build_json(root / "docs", tmp_path / "out2")
    text = "\n".join(t for _, t in _sections(tmp_path / "out2" / "store.sqlite", "tides.rst"))
    assert "@overload" not in text and "def level(at, *, exact=False)" in text


def test_mkdocstrings_signatures_show_annotations_only_when_asked(tmp_path):
    """``show_signature_annotations`` is off by default (FastAPI's site leaves it so): a
    signature shows names and defaults; pydantic's turns it on."""
    page = "# API\n\n::: harbour.berth.Berth\n    options:\n      merge_init_into_class: true\n"
    root = _mkdocs(tmp_path, page)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))
    assert "class Berth:\n    def __init__(self, number, *, covered=False)\n" in text
    assert "def moor(self, boat, hours=2)\n" in text
    root = _mkdocs(tmp_path / "typed", page, config="          show_signature_annotations: true\n")
    build_json(root / "docs", tmp_path / "out2")
    text = "\n".join(t for _, t in _sections(tmp_path / "out2" / "store.sqlite", "api.md"))
    assert "def __init__(self, number: int, *, covered: bool = False)" in text
    assert "def moor(self, boat: str, hours: int = 2) -> bool\n" in text


TYPED = ('"""Lines."""\n\n\nclass Winch:\n    """Pulls lines.\n\n    :param size: How big.\n    """\n\n'
         '    ratio: float = 2.0\n    """Turns a pull."""\n\n'
         '    def __init__(self, size: int, power: str = "hand") -> None:\n        pass\n\n'
         '    def haul(self, line: str, metres: int = 1) -> bool:\n        """Haul a line.\n\n'
         '        :param line: Which one.\n        """\n\n'
         '    def rest(self, minutes: int) -> None:\n        """Take a break."""\n')


def _typed_page(tmp_path, conf: str) -> str:
    files = dict(SPHINX)
    files["lib/winch.py"] = TYPED
    files["docs/conf.py"] += conf
    files["docs/winch.rst"] = "Winch\n=====\n\n.. autoclass:: winch.Winch\n   :members:\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    return "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "winch.rst"))


def test_autodoc_typehints_description_moves_the_types_into_the_parameter_list(tmp_path):
    """Flask's ``autodoc_typehints = "description"``: no types in the signatures; every
    annotated parameter listed with its type (the undocumented ones with no description), a
    return type, none for a class; an attribute keeps its type."""
    text = _typed_page(tmp_path, "autodoc_typehints = 'description'\n")
    assert "class Winch:\n    def __init__(self, size, power='hand')\n```" in text
    assert "**Parameters:**\n\n- `size` (`int`): How big.\n- `power` (`str`)\n" in text
    assert "def haul(self, line, metres=1)\n```" in text
    assert ("**Parameters:**\n\n- `line` (`str`): Which one.\n- `metres` (`int`)\n\n**Return type:** `bool`" in text)
    assert "def rest(self, minutes)\n```\n\nTake a break.\n\n**Parameters:**\n\n- `minutes` (`int`)\n\n**Return type:** `None`" in text
    assert "ratio: float = 2.0" in text


def test_autodoc_typehints_description_completes_each_list_of_a_merged_init(tmp_path):
    """``autoclass_content = "both"`` shows the class's docstring and its ``__init__``'s, each
    with its own Parameters list; autodoc's ``merge_typehints`` completes every field list, so
    each list types what it documents and lists the annotated parameters it leaves out."""
    files = dict(SPHINX)
    files["lib/winch.py"] = ('"""Lines."""\n\n\nclass Winch:\n    """Pulls lines.\n\n    :param size: How big.\n    """\n\n'
                             '    def __init__(self, size: int, power: str = "hand", crank: bool = False) -> None:\n'
                             '        """Set it up.\n\n        :param power: What drives it.\n        """\n')
    files["docs/conf.py"] += "autodoc_typehints = 'description'\nautoclass_content = 'both'\n"
    files["docs/winch.rst"] = "Winch\n=====\n\n.. autoclass:: winch.Winch\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "winch.rst"))
    assert ("Pulls lines.\n\n**Parameters:**\n\n- `size` (`int`): How big.\n- `power` (`str`)\n- `crank` (`bool`)\n\n"
            "Set it up.\n\n**Parameters:**\n\n- `power` (`str`, default `'hand'`): What drives it.\n- `size` (`int`)\n"
            "- `crank` (`bool`)") in text
    assert "Return type" not in text


def test_autodoc_typehints_documented_none_and_both(tmp_path):
    """``autodoc_typehints_description_target = "documented"`` types only what the docstring
    documents; ``"none"`` drops the types from attributes too; ``"both"`` keeps them in the
    signature and lists them."""
    text = _typed_page(tmp_path / "documented", "autodoc_typehints = 'description'\n"
                       "autodoc_typehints_description_target = 'documented'\n")
    assert "- `power`" not in text and "Return type" not in text and "- `line` (`str`): Which one." in text
    text = _typed_page(tmp_path / "none", "autodoc_typehints = 'none'\n")
    assert "def haul(self, line, metres=1)\n" in text and "ratio = 2.0" in text and "Return type" not in text
    text = _typed_page(tmp_path / "both", "autodoc_typehints = 'both'\n")
    assert "def haul(self, line: str, metres: int = 1) -> bool\n" in text and "**Return type:** `bool`" in text


def test_a_docstrings_fields_and_a_written_objects_fields_read_alike(tmp_path):
    """A parameter documented in a docstring autodoc reads and one in a hand-written
    ``py:function``'s field list are the same list on the page (type, description, its further
    lines): a reader searching either finds the same words."""
    files = dict(SPHINX)
    files["lib/sower.py"] = ('def sow(seed: str, depth: int) -> None:\n    """Sow one seed.\n\n    :param seed: The seed,\n'
                             '        or its name.\n    :param depth: How deep.\n    :raises ValueError: When frozen.\n    """\n')
    files["docs/sow.rst"] = ("Sow\n===\n\nRead\n----\n\n.. autofunction:: sower.sow\n\nWritten\n-------\n\n"
                             ".. py:function:: sow(seed, depth)\n   :no-index:\n\n   Sow one seed.\n\n"
                             "   :param str seed: The seed,\n      or its name.\n   :param int depth: How deep.\n"
                             "   :raises ValueError: When frozen.\n")
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    read, written = (t.split("Sow one seed.", 1)[1] for _, t in _sections(tmp_path / "out" / "store.sqlite", "sow.rst"))
    assert read == written == ("\n\n**Parameters:**\n\n- `seed` (`str`): The seed,\n  or its name.\n- `depth` (`int`): How deep."
                               "\n\n**Raises:**\n\n- `ValueError`: When frozen.")


def test_an_item_whose_description_opens_with_a_list_keeps_the_list_under_it():
    """pydantic's "Raises" items describe each case as a list: after the item's colon the first
    case read as text (``- `PydanticUserError`: - If ...``), a list of its own below it."""
    from contextpull.apiref.docstrings import list_item

    assert list_item("PydanticUserError", "", "", "- If the type is wrong.\n- If it is unknown.") == (
        "- `PydanticUserError`\n  - If the type is wrong.\n  - If it is unknown.")
    assert list_item("ValueError", "", "", "When frozen.\n- not a list: the text came first") == (
        "- `ValueError`: When frozen.\n  - not a list: the text came first")
