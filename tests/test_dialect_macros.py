"""mkdocs-macros pages read as a reader of the rendered page sees them
(``contextpull/dialects/mkdocs/macros.py``, issue 26: "Liquid/Jinja ``{% raw %}`` is
unwrapped"): one fixture file of cases, the notes the report counts, and the sites where the
plugin is off, where nothing of it applies."""

from __future__ import annotations

from pathlib import Path

import pytest

from contextpull.dialects.mkdocs import dialect as mkdocs
from contextpull.dialects.mkdocs.macros import options

from memory_context import FakeContext, read_fixture_file

FIXTURES = Path(__file__).parent / "dialect_fixtures"
EXTRA = {"harbour": "Kiel", "tides": {"high": "06:00", "low": "12:10"}, "berths": ["A", "B"]}
CONFIG = {"site_name": "Harbour", "plugins": ["search", "macros"], "extra": EXTRA}
FRONT = {"owner": "Ana"}


def _context(config=CONFIG, files=None, front_matter=FRONT) -> FakeContext:
    return FakeContext(files or {}, path="guide/page.md", docs="docs", config=config, config_file="mkdocs.yml",
                       front_matter=front_matter)


@pytest.mark.parametrize(
    ("source", "expected"),
    [pytest.param(src, exp, id=name) for name, src, exp in read_fixture_file(FIXTURES / "mkdocs_macros.txt")],
)
def test_prepare_gives_what_the_rendered_page_shows(source, expected):
    assert mkdocs.prepare(source, _context()) == expected


def test_each_construct_is_noted_on_its_line():
    source = "{# c #}\n{% raw %}\n{{ x }}\n{% endraw %}\n{{ harbour }} {{ nowhere }}\n{% if a %}b{% endif %}\n"
    ctx = _context()
    mkdocs.prepare(source, ctx)
    assert ctx.outcomes() == [
        ("macros comment", "converted", 1),
        ("macros raw", "converted", 2),
        ("macros variable", "resolved", 5),
        ("macros variable", "unresolved", 5),
        ("macros statement", "unresolved", 6),
        ("macros statement", "unresolved", 6),
    ]
    assert ctx.notes[3].detail == "nowhere: not defined in extra, the data files or the page; kept as written"


def test_without_the_plugin_a_page_shows_its_template_markers_literally():
    config = {"site_name": "Harbour", "plugins": ["search"], "extra": EXTRA}
    source = "{% raw %}\n{{ harbour }}\n{% endraw %} {# kept #}"
    ctx = _context(config)
    assert mkdocs.prepare(source, ctx) == source
    assert ctx.notes == []


@pytest.mark.parametrize(
    ("config", "enabled"),
    [
        ({"plugins": ["macros"]}, True),
        ({"plugins": [{"macros": {"include_yaml": ["data/a.yml"]}}]}, True),
        ({"plugins": {"macros": None, "search": None}}, True),
        ({"plugins": [{"macros": {"enabled": False}}]}, False),
        ({"markdown_extensions": {"zensical.extensions.macros": None}}, True),  # FastAPI's site
        ({"markdown_extensions": ["zensical.extensions.macros"]}, True),
        ({"markdown_extensions": ["macros"]}, False),
        ({"plugins": ["search", "mkdocs-simple-hooks"]}, False),
        ({}, False),
    ],
)
def test_the_plugin_or_its_zensical_port_turns_it_on(config, enabled):
    assert (options(config) is not None) is enabled


def test_a_raw_never_closed_keeps_the_page_as_written():
    source = "{{ harbour }}\n{% raw %}\n{{ x }}\n"
    ctx = _context()
    assert mkdocs.prepare(source, ctx) == source
    assert ctx.outcomes() == [("macros variable", "resolved", 1), ("macros raw", "unresolved", 2)]


def test_a_page_that_turns_rendering_off_keeps_its_markers():
    ctx = _context(front_matter={"render_macros": False})
    assert mkdocs.prepare("{{ harbour }}", ctx) == "{{ harbour }}"
    config = {**CONFIG, "plugins": [{"macros": {"render_by_default": False}}]}
    assert mkdocs.prepare("{{ harbour }}", _context(config)) == "{{ harbour }}"
    assert mkdocs.prepare("{{ harbour }}", _context(config, front_matter={"render_macros": True})) == "Kiel"


def test_include_yaml_data_is_read_as_a_dependency_and_a_missing_file_is_noted():
    files = {"data/crew.yml": "captain: Ines\nmates: [Jo, Li]\n", "data/fleet.yml": "size: 4\n"}
    config = {**CONFIG, "plugins": [{"macros": {"include_yaml": ["data/crew.yml", {"fleet": "data/fleet.yml"},
                                                                "data/gone.yml"]}}]}
    ctx = _context(config, files)
    assert mkdocs.prepare("{{ captain }}, {{ mates[0] }}, {{ fleet.size }} boats", ctx) == "Ines, Jo, 4 boats"
    assert ctx.dependencies == ["data/crew.yml", "data/fleet.yml"]
    assert ("macros variable", "unresolved", 0) in ctx.outcomes()


def test_custom_delimiters_are_the_ones_read():
    config = {**CONFIG, "plugins": [{"macros": {"j2_variable_start_string": "[[", "j2_variable_end_string": "]]"}}]}
    assert mkdocs.prepare("[[ harbour ]] and {{ harbour }}", _context(config)) == "Kiel and {{ harbour }}"


def test_notes_after_the_template_layer_keep_their_source_lines():
    ctx = _context({**CONFIG, "markdown_extensions": ["admonition"]})
    mkdocs.prepare("{# a\nb #}\n\n!!! note\n    x\n", ctx)
    assert ("admonition", "converted", 4) in ctx.outcomes()


def test_a_data_file_a_page_prints_is_in_its_fingerprint(tmp_path):
    """A cached build after the data file changed shows the new value and equals a fresh build."""
    from site_build import build_json, store_rows

    root = tmp_path / "site"
    (root / ".git").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "data").mkdir()
    (root / "mkdocs.yml").write_text("site_name: S\nplugins:\n  - macros:\n      include_yaml:\n        - data/crew.yml\n")
    (root / "data" / "crew.yml").write_text("captain: Ines\n")
    (root / "docs" / "index.md").write_text("# Crew\n\nThe captain is {{ captain }}.\n\n{% raw %}{{ captain }}{% endraw %} is how.\n")
    (root / "docs" / "other.md").write_text("# Other\n\nNo template here.\n")

    def build(out: str, *extra: str) -> dict:
        return build_json(root / "docs", tmp_path / out, *extra)

    def text(out: str) -> str:
        rows = store_rows(tmp_path / out / "store.sqlite", "SELECT text FROM sections WHERE id LIKE 'index.md#%'")
        return "\n".join(t for (t,) in rows)

    build("one")
    assert "The captain is Ines." in text("one") and "{{ captain }} is how." in text("one")
    (root / "data" / "crew.yml").write_text("captain: Noor\n")
    report = build("two", "--cache", str(tmp_path / "one" / "store.sqlite"))
    build("three")
    assert "The captain is Noor." in text("two")
    assert report["cache"]["parsed_documents"] == 1
    assert (tmp_path / "two" / "store.sqlite").read_bytes() == (tmp_path / "three" / "store.sqlite").read_bytes()


def test_a_loop_variable_is_named_as_one():
    ctx = _context()
    source = "{% for boat in boats %}{{ boat.name }}{% endfor %}"
    assert mkdocs.prepare(source, ctx) == source
    assert ctx.notes[1].detail == "boat.name: a {% for %} loop's variable, known to the template engine only; kept as written"
