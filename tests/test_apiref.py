"""API pages read from the repository's Python source, never imported (issue 37): what a
mkdocstrings or Sphinx autodoc page stores, the options that choose what it shows, the guards
(nothing executed, nothing read outside the repository, bad modules named, limits), and the
fingerprints that rebuild exactly the pages a docstring edit changes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from site_build import build_json, store_rows, write_site
from griffe_needed import needs_griffe

pytestmark = needs_griffe

SECTIONS = "SELECT d.path, s.heading_path, s.text FROM sections s JOIN documents d USING (doc_id) ORDER BY d.path, s.ordinal"

PACKAGE = {
    "harbour/__init__.py": '"""Boats and berths."""\n\nfrom .berth import Berth\n\n__all__ = ["Berth"]\n',
    "harbour/berth.py": '''"""Where boats tie up."""


class Berth:
    """A place at the quay.

    Attributes:
        length: Metres of quay.
    """

    length: int = 12

    def __init__(self, number: int, *, covered: bool = False) -> None:
        self.number = number

    def moor(self, boat: str, hours: int = 2) -> bool:
        """Tie a boat up.

        Args:
            boat: The boat's name.
            hours: How long it stays.

        Returns:
            Whether there was room.

        Raises:
            ValueError: When the berth is taken.

        Examples:
            >>> Berth(1).moor("Elsa")
            True
        """
        return True

    def _private(self) -> None:
        """Never shown."""


def tide(height: float) -> str:
    """The tide's name.

    Parameters
    ----------
    height : float
        Metres above chart datum.

    Returns
    -------
    str
        "high" or "low".
    """
    return "high"


def knot(kind):
    """Tie a knot.

    :param kind: Which knot.
    :returns: The knot.
    :raises KeyError: For a knot nobody knows.
    """
''',
}


def _with_api(site, api):
    """The site with API reference on, and its reader holding ``api`` as the build's model of
    the source (what ``SiteReader.api_reference`` would make), so a test chooses its limits."""
    from dataclasses import replace

    from contextpull.dialects.site_reader import API_REFERENCE, open_site

    site = replace(site, api_reference=True)
    reader = open_site(site)
    reader.once(API_REFERENCE, lambda: api)
    return site, reader


def _mkdocs(tmp_path: Path, page: str, extra: dict | None = None, config: str = "") -> Path:
    files = {
        "mkdocs.yml": "site_name: Harbour\nplugins:\n- mkdocstrings:\n    handlers:\n      python:\n"
                      "        options:\n          show_root_heading: true\n" + config,
        "docs/index.md": "# Harbour\n\nWelcome aboard, sailors of the small harbour.\n",
        "docs/api.md": page,
        **PACKAGE,
        **(extra or {}),
    }
    return write_site(tmp_path / "site", files)


def _sections(store: Path, path: str) -> list[tuple[str, str]]:
    return [(h, t) for p, h, t in store_rows(store, SECTIONS) if p == path]


def _notes(store: Path, path: str) -> list[tuple]:
    (reads,) = store_rows(store, "SELECT value FROM meta WHERE key = 'dialect_reads'")
    return [tuple(n) for n in json.loads(reads[0]).get(path, {}).get("notes", [])]


def _dump(store: Path, path: str) -> str:
    return "".join(f"--- {h}\n{t}\n" for h, t in _sections(store, path))


def test_a_mkdocstrings_page_stores_the_objects_it_shows(tmp_path, file_regression):
    root = _mkdocs(tmp_path, "# API\n\nThe harbour's classes.\n\n::: harbour.berth\n")
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    # Not test_*.txt: pytest would collect the stored doctest example as a doctest.
    file_regression.check(_dump(store, "api.md"), basename="apiref_mkdocstrings_page", extension=".txt")
    headings = [h for h, _ in _sections(store, "api.md")]
    assert "API > berth > Berth > moor" in headings
    assert not any("_private" in h for h in headings)


def test_grep_of_a_signature_finds_its_section(tmp_path):
    root = _mkdocs(tmp_path, "# API\n\n::: harbour.Berth\n")
    build_json(root / "docs", tmp_path / "out")
    hits = [h for h, t in _sections(tmp_path / "out" / "store.sqlite", "api.md")
            if "def moor(self, boat, hours=2)" in t]  # mkdocstrings shows no annotations by default
    assert hits == ["API > Berth > moor"]


def test_directive_options_choose_the_members(tmp_path):
    page = ("# API\n\n::: harbour.berth.Berth\n    options:\n      members:\n        - length\n"
            "      show_root_heading: false\n")
    root = _mkdocs(tmp_path, page)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))
    assert text.endswith("## length\n\n```python\nlength = 12\n```")
    assert "moor" not in text


@pytest.mark.parametrize("entry, headings", [
    ("", ["API > Berth", "API > moor"]),
    ("      show_root_toc_entry: false\n", ["API", "API > moor"]),
], ids=["toc-entry", "no-toc-entry"])
def test_a_root_shown_without_its_heading_keeps_its_contents_entry(tmp_path, entry, headings):
    """mkdocstrings' ``show_root_toc_entry`` (on by default): a root whose heading is not shown
    still has an entry in the page's table of contents, a hidden heading naming the object; its
    own text is that entry's and its members follow at the same level, as pydantic's
    ``::: pydantic.type_adapter.TypeAdapter`` page lists ``TypeAdapter``, ``rebuild``, ..."""
    page = "# API\n\n::: harbour.berth.Berth\n    options:\n      show_root_heading: false\n" + entry
    root = _mkdocs(tmp_path, page)
    build_json(root / "docs", tmp_path / "out")
    sections = _sections(tmp_path / "out" / "store.sqlite", "api.md")
    assert [h for h, _ in sections] == headings
    assert "A place at the quay." in sections[0][1]


def test_numpy_and_sphinx_docstrings_list_their_parameters(tmp_path):
    page = ("# API\n\n::: harbour.berth.tide\n    options:\n      docstring_style: numpy\n\n"
            "::: harbour.berth.knot\n    options:\n      docstring_style: sphinx\n")
    root = _mkdocs(tmp_path, page)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))
    assert "- `height` (`float`): Metres above chart datum." in text
    assert "- `kind`: Which knot." in text
    assert "- `KeyError`: For a knot nobody knows." in text


def test_a_module_is_never_executed(tmp_path):
    marker = tmp_path / "executed"
    side = f"open({str(marker)!r}, 'w').write('ran')\nimport sys\nsys.exit(3)\n\ndef boom():\n    \"\"\"Loud.\"\"\"\n"
    root = _mkdocs(tmp_path, "# API\n\n::: loud\n\n::: loud.boom\n", {"loud.py": side})
    build_json(root / "docs", tmp_path / "out")
    assert not marker.exists()
    assert "loud" not in sys.modules
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "api.md"))
    assert "def boom()" in text


def _unresolved(store: Path, path: str) -> list[tuple]:
    return [n for n in _notes(store, path) if n[0] == "mkdocstrings" and n[1] == "unresolved"]


def test_a_syntax_error_is_named_and_the_page_still_built(tmp_path):
    root = _mkdocs(tmp_path, "# API\n\nStill here, with its own words.\n\n::: broken\n",
                   {"broken.py": "def f(:\n    pass\n"})
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    [(construct, outcome, line, detail)] = _unresolved(store, "api.md")
    assert line == 5 and "syntax error in broken.py line 1" in detail
    assert "Still here" in _dump(store, "api.md")


def test_a_5_mb_module_is_refused_by_the_include_limit(tmp_path):
    big = "".join(f"def f{i}():\n    '''{'x' * 60}'''\n" for i in range(60_000))
    assert len(big) > 5_000_000
    root = _mkdocs(tmp_path, "# API\n\nThe big one.\n\n::: huge\n", {"huge.py": big})
    build_json(root / "docs", tmp_path / "out")
    [(_, _, line, detail)] = _unresolved(tmp_path / "out" / "store.sqlite", "api.md")
    assert line == 5 and "huge.py" in detail and "include limit" in detail


def test_a_star_import_cycle_ends(tmp_path):
    extra = {
        "stars/__init__.py": "",
        "stars/a.py": "from .b import *\n\ndef one():\n    \"\"\"One.\"\"\"\n",
        "stars/b.py": "from .a import *\n\ndef two():\n    \"\"\"Two.\"\"\"\n",
    }
    root = _mkdocs(tmp_path, "# API\n\n::: stars.a\n    options:\n      members: [one]\n", extra)
    build_json(root / "docs", tmp_path / "out")
    headings = [h for h, _ in _sections(tmp_path / "out" / "store.sqlite", "api.md")]
    assert "API > a > one" in headings


def test_an_alias_cycle_is_named(tmp_path):
    extra = {
        "loop/__init__.py": "from .x import Thing\n__all__ = ['Thing']\n",
        "loop/x.py": "from .y import Thing\n",
        "loop/y.py": "from .x import Thing\n",
    }
    root = _mkdocs(tmp_path, "# API\n\nA loop.\n\n::: loop.Thing\n", extra)
    build_json(root / "docs", tmp_path / "out")
    [(_, _, line, detail)] = _unresolved(tmp_path / "out" / "store.sqlite", "api.md")
    assert line == 5 and "cycle" in detail


def test_modules_outside_the_repository_or_installed_are_never_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text('"""Secret words."""\nopen("x", "w")\n')
    config = "        paths: [../outside, .venv/lib/python3.11/site-packages, .]\n"
    root = _mkdocs(tmp_path, "# API\n\nNothing from outside.\n\n::: secret\n\n::: os.path\n", config=config)
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    details = [n[3] for n in _unresolved(store, "api.md")]
    assert any("../outside is outside the repository" in d for d in details)
    assert any("installed packages folder" in d for d in details)
    assert any(d.startswith("secret: no module secret") for d in details)
    assert any(d.startswith("os.path: no module os") for d in details)
    assert "Secret words" not in _dump(store, "api.md")


def test_without_api_reference_the_line_is_dropped_as_before(tmp_path):
    root = _mkdocs(tmp_path, "# API\n\nWords about the harbour API.\n\n::: harbour.Berth\n")
    build_json(root / "docs", tmp_path / "out", "--no-api-reference")
    store = tmp_path / "out" / "store.sqlite"
    assert "moor" not in _dump(store, "api.md")
    assert [n[3] for n in _unresolved(store, "api.md")] == [
        "API text of harbour.Berth comes from code the build never imports"]


def _shas(store: Path) -> dict[str, str]:
    return dict(store_rows(store, "SELECT path, sha256 FROM documents"))


def test_editing_a_docstring_rebuilds_exactly_the_pages_that_show_it(tmp_path):
    extra = {"docs/other.md": "# Other\n\n::: harbour.berth.tide\n",
             "docs/plain.md": "# Plain\n\nA page about ropes, with no API on it.\n"}
    root = _mkdocs(tmp_path, "# API\n\n::: harbour.Berth\n", extra)
    build_json(root / "docs", tmp_path / "first")
    source = root / "harbour" / "berth.py"
    before = _shas(tmp_path / "first" / "store.sqlite")
    source.write_text(source.read_text().replace("Tie a boat up.", "Tie a boat up, tightly."))
    (root / "harbour" / "unrelated.py").write_text('"""Not shown anywhere."""\n')
    cached = build_json(root / "docs", tmp_path / "cached", "--cache", str(tmp_path / "first" / "store.sqlite"))
    fresh = build_json(root / "docs", tmp_path / "fresh")
    assert cached["manifest"]["store"]["sha256"] == fresh["manifest"]["store"]["sha256"]
    after = _shas(tmp_path / "fresh" / "store.sqlite")
    changed = sorted(p for p in after if after[p] != before[p])
    # berth.py holds both Berth and tide: the two pages showing them, and only they, change.
    assert changed == ["api.md", "other.md"]
    assert "tightly" in _dump(tmp_path / "cached" / "store.sqlite", "api.md")


SPHINX = {
    "docs/conf.py": "import os, sys\nsys.path.insert(0, os.path.abspath('../lib'))\nproject = 'Harbour'\n"
                    "extensions = ['sphinx.ext.autodoc', 'sphinx.ext.autosummary']\n"
                    "autodoc_default_options = {'undoc-members': True}\n",
    "docs/index.rst": "Harbour\n=======\n\nWelcome to the harbour docs.\n",
    "docs/api.rst": (
        "API\n===\n\n.. module:: quay\n\nBerths\n------\n\n.. autoclass:: Berth\n   :members:\n"
        "   :exclude-members: untie\n   :show-inheritance:\n\nFunctions\n---------\n\n"
        ".. autofunction:: quay.tide\n\n.. autosummary::\n\n   Berth\n   tide\n"
    ),
    "lib/quay.py": '''"""The quay."""


class Place:
    """Somewhere."""


class Berth(Place):
    """A place at the quay.

    :param number: Its number.
    """

    def moor(self, boat):
        """Tie a boat up.

        :param boat: The boat's name.
        :type boat: str
        :returns: Whether there was room.
        """

    def untie(self):
        """Let go."""

    def bare(self):
        pass


def tide(height):
    """The tide's name, from ``height``.

    See :class:`Berth`.
    """
''',
}


def test_sphinx_autodoc_reads_from_conf_paths_as_data(tmp_path, file_regression):
    root = write_site(tmp_path / "site", SPHINX)
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    text = _dump(store, "api.rst")
    file_regression.check(text, basename="apiref_sphinx_page", extension=".txt")
    assert "def moor(self, boat)" in text and "Let go" not in text
    assert "bare" in text  # undoc-members from autodoc_default_options
    assert "Bases: `Place`" in text
    assert "| `tide(height)` | The tide's name, from `height`. |" in text


def test_inherited_members_come_from_bases_in_other_modules(tmp_path):
    extra = {
        "fleet/__init__.py": "from .boats import Dinghy\n__all__ = ['Dinghy']\n",
        "fleet/base.py": 'class Boat:\n    """A boat."""\n\n    def launch(self, crew: int) -> None:\n        """Put it in the water."""\n',
        "fleet/boats.py": 'from .base import Boat\n\n\nclass Dinghy(Boat):\n    """A small boat."""\n',
    }
    page = "# API\n\n::: fleet.Dinghy\n    options:\n      inherited_members: true\n\n::: fleet.Dinghy\n"
    root = _mkdocs(tmp_path, page, extra)
    build_json(root / "docs", tmp_path / "out")
    hits = [h for h, t in _sections(tmp_path / "out" / "store.sqlite", "api.md") if "def launch(self, crew)" in t]
    assert hits == ["API > Dinghy > launch"]  # the second ::: line does not ask for them


def test_sphinx_paths_outside_the_repository_are_refused_and_conf_py_never_run(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text('"""Secret words."""\n')
    marker = tmp_path / "conf-ran"
    files = {
        "docs/conf.py": f"import os, sys\nopen({str(marker)!r}, 'w')\n"
                        "sys.path.insert(0, os.path.abspath('../../outside'))\n"
                        "sys.path.append('/usr/lib/python3/dist-packages')\nproject = 'X'\n",
        "docs/index.rst": "Index\n=====\n\nThe index page of the site.\n\n.. automodule:: secret\n   :members:\n",
    }
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    details = [n[3] for n in _notes(store, "index.rst") if n[0] == "rst autodoc"]
    assert any("../../outside is outside the repository" in d for d in details)
    assert any("/usr/lib/python3/dist-packages is outside the repository" in d for d in details)
    assert any(d.startswith("secret: no module secret") for d in details)
    assert "Secret words" not in _dump(store, "index.rst")
    assert not marker.exists()


def test_what_a_page_depends_on_does_not_depend_on_what_was_read_before_it(tmp_path):
    """Workers take pages in an order timing decides: a page's dependencies (and so the store)
    must be the same whether its build's reader is fresh or already holds the modules."""

    from contextpull.apiref.sources import ApiReference
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.read import read_document

    extra = {
        "chain/__init__.py": "from .mid import Thing\n__all__ = ['Thing']\n",
        "chain/mid.py": "from .deep import Thing\n",
        "chain/deep.py": "from .stars import *\n\n\nclass Thing(Base):\n    \"\"\"A thing.\"\"\"\n",
        "chain/stars.py": "from .root import Base\n__all__ = ['Base']\n",
        "chain/root.py": "class Base:\n    \"\"\"The base.\"\"\"\n\n    def hello(self):\n        \"\"\"Say hello.\"\"\"\n",
        "docs/a.md": "# A\n\n::: chain.deep\n    options:\n      inherited_members: true\n",
        "docs/b.md": "# B\n\n::: chain.Thing\n    options:\n      inherited_members: true\n",
    }
    root = _mkdocs(tmp_path, "# API\n", extra)
    site = detect_site(root / "docs")

    def read(api, name):
        data = (root / "docs" / name).read_bytes()
        return read_document(data, "markdown", name[:-3], name, *_with_api(site, api))

    cold = read(ApiReference(site.repo_root), "b.md")
    warm_api = ApiReference(site.repo_root)
    read(warm_api, "a.md")
    warm = read(warm_api, "b.md")
    assert warm.deps == cold.deps
    assert warm.parsed == cold.parsed
    assert {"chain/mid.py", "chain/root.py", "chain/stars.py"} <= dict(cold.deps).keys()
    assert any("def hello(self)" in getattr(b, "raw", "") for b in cold.parsed.blocks)


def test_the_object_and_module_limits_are_named_and_keep_what_was_rendered(tmp_path):

    from contextpull.apiref.limits import Limits
    from contextpull.apiref.sources import ApiReference
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.read import read_document

    root = _mkdocs(tmp_path, "# API\n\nThe page's own words.\n\n::: harbour.berth\n")
    site = detect_site(root / "docs")
    data = (root / "docs" / "api.md").read_bytes()
    for limits, words in ((Limits(max_objects=2), "limit of 2 objects"), (Limits(max_modules=1), "limit of 1 modules")):
        result = read_document(data, "markdown", "api", "api.md", *_with_api(site, ApiReference(site.repo_root, limits)))
        details = [n.detail for n in result.notes if n.construct == "mkdocstrings" and n.outcome == "unresolved"]
        assert len(details) == 1 and words in details[0] and details[0].startswith("harbour.berth")
        texts = [getattr(b, "text", "") for b in result.parsed.blocks]
        assert "The page's own words." in texts
    objects = read_document(data, "markdown", "api", "api.md",
                            *_with_api(site, ApiReference(site.repo_root, Limits(max_objects=2))))
    assert [b.text for b in objects.parsed.blocks if type(b).__name__ == "Heading"] == ["API", "harbour.berth", "Berth"]


def test_a_module_linked_out_of_the_repository_is_not_read(tmp_path):
    (tmp_path / "elsewhere.py").write_text('"""Words from outside."""\n\ndef secret():\n    """Hidden."""\n')
    root = _mkdocs(tmp_path, "# API\n\nA linked module.\n\n::: linked\n")
    (root / "linked.py").symlink_to(tmp_path / "elsewhere.py")
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    [(_, _, line, detail)] = _unresolved(store, "api.md")
    assert line == 5 and "linked.py" in detail and "not read" in detail
    assert "Words from outside" not in _dump(store, "api.md")


def test_a_myst_page_reads_autodoc_as_its_rst_twin_does(tmp_path):
    files = dict(SPHINX)
    files["docs/conf.py"] = SPHINX["docs/conf.py"].replace("extensions = [", "extensions = ['myst_parser', ")
    files["docs/twin.rst"] = "Twin\n====\n\n.. module:: quay\n\nBerths\n------\n\n.. autoclass:: Berth\n   :members:\n"
    files["docs/twin_md.md"] = "# Twin\n\n```{module} quay\n```\n\n## Berths\n\n```{autoclass} Berth\n:members:\n```\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    rst, md = _sections(store, "twin.rst"), _sections(store, "twin_md.md")
    assert [h for h, _ in rst] == [h for h, _ in md]
    assert "Twin > Berths > Berth > moor" in [h for h, _ in md]
    assert [t for _, t in rst] == [t for _, t in md]


def test_turning_the_setting_on_or_off_over_a_cache_gives_the_fresh_store(tmp_path):
    extra = {"docs/other.md": "# Other\n\nNo Python here.\n\n::: some-thing\n\n::: ts.Widget\n    handler: typescript\n",
             "docs/plain.md": "# Plain\n\nA page about ropes.\n"}
    root = _mkdocs(tmp_path, "# API\n\nWords.\n\n::: harbour.Berth\n\n::: nowhere.Thing\n", extra)
    docs = root / "docs"
    for first, second in (("--no-api-reference", "--api-reference"), ("--api-reference", "--no-api-reference")):
        base = tmp_path / f"base{first}"
        build_json(docs, base, first)
        cached = build_json(docs, tmp_path / f"cached{second}", second, "--cache", str(base / "store.sqlite"))
        fresh = build_json(docs, tmp_path / f"fresh{second}", second)
        assert cached["manifest"]["store"]["sha256"] == fresh["manifest"]["store"]["sha256"], (first, second)


def test_the_setting_reads_from_flag_variable_and_pyproject(tmp_path):
    import pytest

    from contextpull.config import resolve_settings
    from contextpull.errors import ConfigError

    assert resolve_settings(None, {}, {}).api_reference is True
    assert resolve_settings(None, {"api_reference": False}, {}).api_reference is False
    assert resolve_settings(None, {}, {"CONTEXTPULL_API_REFERENCE": "off"}).api_reference is False
    (tmp_path / "pyproject.toml").write_text("[tool.contextpull]\napi_reference = false\n")
    assert resolve_settings(tmp_path, {}, {}).api_reference is False
    with pytest.raises(ConfigError, match="api_reference must be true or false.*CONTEXTPULL_API_REFERENCE"):
        resolve_settings(None, {}, {"CONTEXTPULL_API_REFERENCE": "maybe"})


def test_members_are_grouped_by_category_unless_the_site_says_not(tmp_path):

    from contextpull.apiref.sources import ApiReference
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.read import read_document

    extra = {"order.py": 'def apply():\n    """A."""\n\n\nclass Basket:\n    """B."""\n\n\ncount = 3\n"""C."""\n'}
    page = "# API\n\n::: order\n\n# Flat\n\n::: order\n    options:\n      group_by_category: false\n"
    root = _mkdocs(tmp_path, page, extra)
    site = detect_site(root / "docs")
    result = read_document(page.encode(), "markdown", "api", "api.md", *_with_api(site, ApiReference(site.repo_root)))
    heads = [b.text for b in result.parsed.blocks if type(b).__name__ == "Heading"]
    assert heads == ["API", "order", "count", "Basket", "apply", "Flat", "order", "Basket", "apply", "count"]


def test_a_module_too_large_to_model_is_named_not_visited(tmp_path):
    big = "".join(f"def f{i}():\n    '''{'x' * 60}'''\n" for i in range(18_000))
    assert 1024 * 1024 < len(big) < 4 * 1024 * 1024  # under the include limit, over the module limit
    root = _mkdocs(tmp_path, "# API\n\nThe big one.\n\n::: large\n", {"large.py": big})
    build_json(root / "docs", tmp_path / "out")
    [(_, _, line, detail)] = _unresolved(tmp_path / "out" / "store.sqlite", "api.md")
    assert line == 5 and "large.py" in detail and "over the 1,048,576" in detail


def test_the_reader_drops_what_it_holds_past_its_bound_and_reads_the_same(tmp_path):

    from contextpull.apiref.limits import Limits
    from contextpull.apiref.sources import ApiReference
    from contextpull.dialects.detect import detect_site
    from contextpull.dialects.read import read_document

    root = _mkdocs(tmp_path, "# API\n\n::: harbour.berth\n", {"docs/b.md": "# B\n\n::: harbour.Berth\n"})
    site = detect_site(root / "docs")
    small = ApiReference(site.repo_root, Limits(max_held_bytes=10))
    fresh = ApiReference(site.repo_root)
    held = []
    for name in ("api.md", "b.md"):
        data = (root / "docs" / name).read_bytes()
        kept = read_document(data, "markdown", name[:-3], name, *_with_api(site, small))
        assert read_document(data, "markdown", name[:-3], name, *_with_api(site, fresh)) == kept
        held.append(small.loaded)
    assert held[0] is not held[1]  # b.md started from an empty reader


def test_griffe_is_imported_before_the_workers_only_where_the_configuration_names_the_plugin(tmp_path):
    """A mkdocs site without mkdocstrings, or a Sphinx project without autodoc, does not pay for
    importing griffe in the process that starts the workers; one that names it does, and a page
    that names an API object on a site whose configuration does not still gets its objects."""
    import subprocess

    plain = write_site(tmp_path / "plain", {"mkdocs.yml": "site_name: Plain\n", "docs/index.md": "# Hi\n"})
    with_plugin = _mkdocs(tmp_path, "# API\n")
    sphinx = write_site(tmp_path / "sphinx", {"docs/conf.py": "extensions = ['sphinx.ext.autodoc']\n",
                                              "docs/index.rst": "Hi\n==\n"})
    probe = ("import sys; from pathlib import Path; from contextpull.ingest.site import with_site;"
             "from contextpull.settings import Settings;"
             "s = with_site(Settings(), Path(sys.argv[1])).site;"
             "print(s.dialect, s.api_reference, 'griffe' in sys.modules)")
    seen = [subprocess.run([sys.executable, "-c", probe, str(docs)], capture_output=True, text=True,
                           check=True).stdout.split() for docs in (plain / "docs", with_plugin / "docs", sphinx / "docs")]
    assert seen == [["mkdocs", "True", "False"], ["mkdocs", "True", "True"], ["sphinx", "True", "True"]]

    unnamed = write_site(tmp_path / "unnamed", {"mkdocs.yml": "site_name: Harbour\n",
                                                "docs/api.md": "# API\n\n::: harbour.berth\n", **PACKAGE})
    build_json(unnamed / "docs", tmp_path / "out")
    assert "API > Berth > moor" in [h for h, _ in _sections(tmp_path / "out" / "store.sqlite", "api.md")]


def test_an_init_without_a_docstring_still_lists_its_doc_parameters(tmp_path):
    """FastAPI documents every argument of ``HTTPException`` with ``Doc()`` in an ``__init__``
    that has no docstring; merged into the class, the page lists them."""
    module = ('"""Signals."""\n\nfrom typing import Annotated\n\nfrom typing_extensions import Doc\n\n\n'
              'class Flag:\n    """A flag to raise."""\n\n'
              '    def __init__(self, colour: Annotated[str, Doc("What the harbour sees.")] = "red") -> None:\n'
              '        self.colour: Annotated[str, Doc("The colour flown.")] = colour\n')
    root = _mkdocs(tmp_path, "# API\n\n::: harbour.signals.Flag\n", {"harbour/signals.py": module},
                   config="          merge_init_into_class: true\n          show_if_no_docstring: true\n")
    build_json(root / "docs", tmp_path / "out")
    sections = _sections(tmp_path / "out" / "store.sqlite", "api.md")
    (flag,) = [t for h, t in sections if h == "API > Flag"]
    assert "\n## harbour.signals.Flag\n" in flag
    assert "- `colour` (`str`, default `'red'`): What the harbour sees." in flag
    (attribute,) = [t for h, t in sections if h == "API > Flag > colour"]
    assert attribute.endswith("\n\nThe colour flown.")  # an attribute's Doc(), as griffe-typingdoc gives it


def test_a_search_for_a_class_name_finds_the_object_headed_by_its_dotted_path(tmp_path):
    """The store's tokenizer keeps ``.`` inside words, so ``harbour.berth.Berth`` is one token;
    the heading path names the object as the table of contents does, by its name."""
    from contextpull.ops import Ops
    from contextpull.store import Store

    root = _mkdocs(tmp_path, "# API\n\n::: harbour.berth.Berth\n    options:\n      members: false\n")
    build_json(root / "docs", tmp_path / "out")
    with Store.open(tmp_path / "out" / "store.sqlite") as store:
        hits = Ops(store).search("Berth", limit=3).hits
    assert [h.heading_path for h in hits][:1] == ["API > Berth"]


def test_ignore_init_summary_drops_the_first_line_of_a_merged_init(tmp_path):
    """pydantic's site sets ``docstring_options: {ignore_init_summary: true}``: its pages show a
    merged ``__init__``'s docstring without its first line."""
    module = ('"""Anchors."""\n\n\nclass Anchor:\n    """Holds a boat."""\n\n'
              '    def __init__(self, weight: int) -> None:\n'
              '        """Make an anchor.\n\n        Heavier holds better.\n\n        Args:\n'
              '            weight: Kilograms.\n        """\n')
    shown = {}
    for ignore in (False, True):
        root = _mkdocs(tmp_path / str(ignore), "# API\n\n::: harbour.anchors.Anchor\n", {"harbour/anchors.py": module},
                       config="          merge_init_into_class: true\n          docstring_options:\n"
                              f"            ignore_init_summary: {str(ignore).lower()}\n")
        build_json(root / "docs", tmp_path / str(ignore) / "out")
        shown[ignore] = "\n".join(t for _, t in _sections(tmp_path / str(ignore) / "out" / "store.sqlite", "api.md"))
    assert "Make an anchor." in shown[False] and "Make an anchor." not in shown[True]
    assert all("Heavier holds better." in s and "- `weight` (`int`): Kilograms." in s for s in shown.values())


def test_a_myst_current_module_reaches_eval_rst_autodoc_and_its_headings_nest_under_the_section(tmp_path):
    """Click's ``api.md``: ``{currentmodule} click`` at the top, then ``eval-rst`` blocks of
    ``.. autofunction:: command``; the names complete with the module, a ``currentmodule`` in a
    block holds for the blocks after it, the objects nest under the MyST section they stand in,
    and a note names the page's line."""
    files = dict(SPHINX)
    files["docs/conf.py"] = SPHINX["docs/conf.py"].replace("extensions = [", "extensions = ['myst_parser', ")
    files["lib/dock.py"] = '"""Docks."""\n\n\ndef crane(load):\n    """Lift a load."""\n'
    files["docs/reference.md"] = (
        "# Reference\n\n```{currentmodule} quay\n```\n\n## Functions\n\n```{eval-rst}\n.. autofunction:: tide\n```\n\n"
        "## Docks\n\n```{eval-rst}\n.. currentmodule:: dock\n```\n\n```{eval-rst}\n.. autofunction:: crane\n\n"
        ".. autofunction:: missing\n```\n")
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "docs", tmp_path / "out")
    headings = [h for h, _ in _sections(tmp_path / "out" / "store.sqlite", "reference.md")]
    assert "Reference > Functions > tide" in headings and "Reference > Docks > crane" in headings
    unresolved = [u for u in report["dialect"]["unresolved"] if u["path"] == "reference.md"]
    assert [(u["line"], "dock.missing" in u["detail"]) for u in unresolved] == [(21, True)]


def test_sphinx_meta_fields_signatures_written_in_the_directive_and_autoclass_content(tmp_path):
    """pluggy's and Flask's docstrings: ``:meta private:`` hides a member (and ``:meta
    public:`` shows an underscored one), the field itself is never shown; ``autoclass:: X()``
    shows that signature; a class shows its ``__init__``'s docstring only as
    ``autoclass_content`` asks (Sphinx's default: the class's alone)."""
    module = ('"""Hooks."""\n\n\nclass Hook:\n    """Calls plugins."""\n\n'
              '    def __init__(self, name, execute):\n        """:meta private:"""\n\n'
              '    def call(self):\n        """Call them all."""\n\n'
              '    def internal(self):\n        """Not for you.\n\n        :meta private:\n        """\n\n'
              '    def _shown(self):\n        """Shown after all.\n\n        :meta public:\n        """\n')
    files = dict(SPHINX)
    files["lib/hooks.py"] = module
    files["docs/hooks.rst"] = "Hooks\n=====\n\n.. autoclass:: hooks.Hook()\n   :members:\n\n.. autoclass:: hooks.Hook\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "hooks.rst"))
    assert ":meta" not in text and "Not for you" not in text and "Shown after all." in text
    assert "```python\nclass Hook\n```" in text  # the signature the directive writes
    assert "def __init__(self, name, execute)" in text  # the second directive: the source's
    both = dict(files, **{"docs/conf.py": files["docs/conf.py"] + "autoclass_content = 'both'\n"})
    files["lib/hooks.py"] = module.replace('""":meta private:"""', '"""Make a hook."""')
    for conf, shown in ((files, False), (dict(both, **{"lib/hooks.py": files["lib/hooks.py"]}), True)):
        root = write_site(tmp_path / f"site-{shown}", conf)
        build_json(root / "docs", tmp_path / f"out-{shown}")
        text = "\n".join(t for _, t in _sections(tmp_path / f"out-{shown}" / "store.sqlite", "hooks.rst"))
        assert ("Make a hook." in text) is shown


def test_click_examples_are_code_and_their_runs_are_named(tmp_path):
    """pallets-sphinx-themes' ``click:example`` (written with no blank line under it) is a
    Python block; ``click:run`` shows the output of running it, which is never run: named."""
    files = dict(SPHINX)
    files["docs/cli.rst"] = ("CLI\n===\n\n.. click:example::\n    import click\n\n    @click.command()\n"
                             "    def hello():\n        click.echo('Hello\\nWorld')\n\n"
                             ".. click:run::\n    invoke(hello, args=['--help'])\n")
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "docs", tmp_path / "out")
    (text,) = [t for _, t in _sections(tmp_path / "out" / "store.sqlite", "cli.rst")]
    assert "```python\nimport click\n\n@click.command()\ndef hello():\n    click.echo('Hello\\nWorld')\n```" in text
    assert "invoke(" not in text
    assert [(u["line"], u["detail"].split(":")[0]) for u in report["dialect"]["unresolved"] if u["path"] == "cli.rst"] \
        == [(11, "click")]


def test_inherited_members_alone_shows_every_member_as_autodoc_does(tmp_path):
    """requests' ``.. autoclass:: Session`` with ``:inherited-members:`` and no ``:members:``:
    autodoc shows every documented member, the inherited ones too."""
    files = dict(SPHINX)
    files["lib/sessions.py"] = ('"""Sessions."""\n\n\nclass Mixin:\n    def resolve(self):\n        """Follow redirects."""\n\n\n'
                                'class Session(Mixin):\n    """A session."""\n\n    def send(self):\n        """Send it."""\n')
    files["docs/sessions.rst"] = "Sessions\n========\n\n.. autoclass:: sessions.Session\n   :inherited-members:\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    headings = [h for h, _ in _sections(tmp_path / "out" / "store.sqlite", "sessions.rst")]
    assert "Sessions > Session > send" in headings and "Sessions > Session > resolve" in headings


def test_mkdocstrings_heading_form_root_path_signature_and_per_style_options(tmp_path):
    """griffe's own docs: ``# ::: griffe.Class`` heads the object at that level;
    ``show_root_full_path: false`` heads it by its name; ``docstring_style: auto`` takes
    ``per_style_options``; a root shown without a heading shows no signature unless
    ``separate_signature``; an ``Example:`` whose code comes first keeps its code block."""
    module = ('"""Loading."""\n\n\nclass Loader:\n    """Loads packages.\n\n    Example:\n        ```python\n'
              '        Loader().load("x")\n        ```\n    """\n\n    def __init__(self, fast: bool = True) -> None:\n'
              '        """Initialize the loader.\n\n        Parameters:\n            fast: Whether to hurry.\n        """\n\n\n'
              'def load(name: str) -> Loader:\n    """Load a package."""\n')
    config = ("          show_root_full_path: false\n          merge_init_into_class: true\n          docstring_style: auto\n"
              "          docstring_options:\n            per_style_options:\n              google:\n"
              "                ignore_init_summary: true\n")
    page = "# ::: harbour.loading.Loader\n\n::: harbour.loading.load\n    options:\n      show_root_heading: false\n"
    root = _mkdocs(tmp_path, page, {"harbour/loading.py": module}, config=config)
    build_json(root / "docs", tmp_path / "out")
    sections = _sections(tmp_path / "out" / "store.sqlite", "api.md")
    text = "\n".join(t for _, t in sections)
    assert sections[0][0] == "Loader" and sections[0][1].startswith("# Loader\n")
    assert "Initialize the loader." not in text and "- `fast` (`bool`, default `True`): Whether to hurry." in text
    assert "**Example:**\n\n```python\nLoader().load(\"x\")\n```" in text
    assert "def load(" not in text and "Load a package." in text


@pytest.mark.parametrize("members, shown", [
    # Sphinx's own docs: ``.. class:: Builder`` (under ``.. module::``) holds
    # ``.. autoattribute:: name`` and ``.. automethod:: build_all``, its members.
    ("   .. automethod:: moor\n", ["def moor(self, boat)", "Tie a boat up."]),
    # Scrapy's ``topics/request-response.rst``: ``.. class:: TextResponse`` holds
    # ``.. automethod:: TextResponse.follow``. Autodoc completes a name written with a dot with
    # the current module only (the class is the one it names), and a module-level directive
    # (``autoclass``, ``autofunction``) never with the class around it.
    ("   .. automethod:: Berth.moor\n\n   .. autofunction:: tide\n", ["def moor(self, boat)", "Tie a boat up.", "def tide("]),
], ids=["member-name", "dotted-name"])
def test_autodoc_in_a_class_description_completes_names_as_autodoc_does(tmp_path, members, shown):
    files = dict(SPHINX)
    files["docs/builders.rst"] = "Builders\n========\n\n.. module:: quay\n\n.. class:: Berth\n\n   A berth.\n\n" + members
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "builders.rst"))
    assert all(part in text for part in shown), text
    assert not [u for u in report["dialect"]["unresolved"] if u["path"] == "builders.rst"]


def test_api_pages_are_read_on_a_worker_of_their_own_and_the_store_is_the_serial_one(tmp_path, monkeypatch):
    """A short build's pages that name API objects go to one worker together (they read the same
    modules) while the main process reads the rest; where a page is read never changes the store."""
    from click.testing import CliRunner

    from artifact_helpers import clean_env
    from contextpull.cli import cli
    from contextpull.ingest import workers

    extra = {f"docs/guide{i}.md": f"# Guide {i}\n\nMooring in the harbour, part {i}.\n" for i in range(6)}
    extra["docs/tides.md"] = "# Tides\n\n- item\n\n  ::: harbour.berth.tide\n"
    root = _mkdocs(tmp_path, "# API\n\n::: harbour.berth\n", extra)
    offloaded = []
    real = workers._offload

    def spy(func, held, marks, halves):
        offloaded.append(sorted(payload[0] for (_, payload), mark in zip(held, marks) if mark))
        return real(func, held, marks, halves)

    def build(out, **env):
        result = CliRunner().invoke(cli, ["build", str(root / "docs"), "--out", str(out)], env=clean_env(**env))
        assert result.exit_code == 0, result.output
        return (out / "store.sqlite").read_bytes()

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers, "_offload", spy)
    serial = build(tmp_path / "serial", CONTEXTPULL_JOBS="1")
    assert offloaded == []
    assert build(tmp_path / "offloaded") == serial
    assert offloaded == [["api.md", "tides.md"]]
    assert "API > berth > Berth > moor" in [h for h, _ in _sections(tmp_path / "offloaded" / "store.sqlite", "api.md")]


def test_the_lines_that_mark_an_api_page_for_each_generator():
    import re

    from contextpull.dialects.registry import dialect

    mkdocs, sphinx = (re.compile(dialect(name).api_lines) for name in ("mkdocs", "sphinx"))
    assert mkdocs.search(b"# API\n\n::: harbour.berth\n") and mkdocs.search(b"text\n    ::: pkg._mod\n")
    assert not mkdocs.search(b"text ::: harbour\n") and not mkdocs.search(b":::\n")
    for page in (b".. autoclass:: flask.Flask\n", b"   .. automodule:: x\n", b".. autosummary::\n",
                 b"```{autofunction} x.y\n```\n", b":::{automodule} x\n:::\n"):
        assert sphinx.search(page), page
    for page in (b".. class:: Flask\n", b"see .. autoclass:: in text\n", b"```{note}\n```\n"):
        assert not sphinx.search(page), page


def test_a_module_importing_from_outside_the_repository_keeps_its_page(tmp_path):
    """Scrapy's ``topics/api.rst``: ``automodule:: scrapy.signalmanager`` with ``:members:``, a
    module starting ``from __future__ import annotations``. Reading each member's ``:meta:``
    field followed that import out of the repository and the whole page was skipped; autodoc
    leaves imported members out, so the page shows the module's own."""
    files = dict(SPHINX)
    files["lib/signals.py"] = ('"""Signals."""\n\nfrom __future__ import annotations\n\nfrom os import path\n\n\n'
                               'class SignalManager:\n    """Sends signals."""\n\n    def connect(self):\n'
                               '        """Connect a receiver."""\n')
    files["docs/signals.rst"] = ("Signals\n=======\n\n.. automodule:: signals\n   :members:\n   :undoc-members:\n")
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "docs", tmp_path / "out")
    assert [s for s in report["manifest"]["skipped"] if s["path"] == "signals.rst"] == []
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "signals.rst"))
    assert "Sends signals." in text and "Connect a receiver." in text
    assert "annotations" not in text and "path" not in text


def test_a_type_written_with_a_tilde_shows_its_last_part(tmp_path):
    """attrs' docstrings: ``:type validator: ~typing.Callable | list[~typing.Callable]``; each
    part of a type is a cross-reference on the page, and ``~`` shows the name's last part."""
    files = dict(SPHINX)
    files["lib/checks.py"] = ('"""Checks."""\n\n\ndef field(validator=None):\n    """Make a field.\n\n'
                              '    :param validator: Called after init.\n'
                              '    :type validator: ~typing.Callable | list[~typing.Callable]\n'
                              '    :raises ~checks.Invalid: When it fails.\n    """\n')
    files["docs/checks.rst"] = "Checks\n======\n\n.. autofunction:: checks.field\n"
    root = write_site(tmp_path / "site", files)
    build_json(root / "docs", tmp_path / "out")
    text = "\n".join(t for _, t in _sections(tmp_path / "out" / "store.sqlite", "checks.rst"))
    assert "- `validator` (`Callable | list[Callable]`, default `None`): Called after init." in text
    assert "- `Invalid`: When it fails." in text and "~" not in text


def test_a_member_imported_from_a_private_module_is_shown_and_the_page_keeps_its_markup(tmp_path):
    """Textual's ``::: textual``: its ``__init__`` exports ``on`` from the private
    ``textual._on``, not yet loaded when the members are chosen. Asking the alias whether it was
    a module made griffe resolve it then, and the failure took the whole page's reading with it
    (admonitions and all, read plain: 4 pages, 35 sections -> 364)."""
    extra = {
        "signals/__init__.py": '"""Signals."""\n\nfrom signals._on import on\n\n__all__ = ["on"]\n',
        "signals/_on.py": 'def on(name):\n    """Handle the signal ``name``."""\n',
    }
    root = _mkdocs(tmp_path, "# Signals\n\n!!! note\n    Read this.\n\n::: signals\n", extra)
    build_json(root / "docs", tmp_path / "out")
    store = tmp_path / "out" / "store.sqlite"
    assert not [n for n in _notes(store, "api.md") if n[0] == "mkdocs dialect"]
    text = _dump(store, "api.md")
    assert "Handle the signal" in text and "!!!" not in text
    assert "Signals > signals > on" in [h for h, _ in _sections(store, "api.md")]


@needs_griffe
def test_an_alias_griffe_cannot_follow_is_the_objects_note_not_the_pages():
    """What griffe follows by itself past the session (``is_module`` of an alias, a docstring
    inherited through one) fails as the object's note, naming no absolute path."""
    import griffe

    from contextpull.apiref.options import mkdocs_options
    from contextpull.apiref.render import Renderer

    notes = []

    class Session:
        ctx = type("Ctx", (), {"note": lambda self, *n: notes.append(n)})()

        def find(self, path):
            alias = griffe.Alias("on", "signals._on.on", parent=griffe.Module("signals"))
            raise griffe.AliasResolutionError(alias)

    out = Renderer(Session(), mkdocs_options({}, None), "mkdocstrings", 7).root("signals")
    assert out == []
    [(construct, outcome, line, detail)] = notes
    assert (construct, outcome, line) == ("mkdocstrings", "unresolved", 7)
    assert "-> signals._on.on" in detail and "/" not in detail
