"""A Starlight site's own Astro components (``starlight/astro_components``): what a page's
elements show is read from each component's template, once a build for all of them."""

from __future__ import annotations

from contextpull.dialects.detect import detect_site
from contextpull.dialects.read import read_document
from contextpull.dialects.site_reader import open_site
from contextpull.dialects.starlight import astro_components
from site_build import write_site
from test_dialect_starlight import COMMAND_TABS, CONFIG, SINCE


def test_a_components_template_is_read_once_a_build_for_all_its_elements(tmp_path, monkeypatch):
    """Tauri's CommandTabs stands on 101 pages, Astro's Since on 577: each component's tabs
    and printed text are worked out from its template once a build, kept by the site's reader,
    not once an element; every page still records the component as its dependency, and a new
    build (a new reader) reads the template again."""
    page = ("---\ntitle: {title}\n---\nimport CommandTabs from '../../components/CommandTabs.astro';\n"
            "import Since from '../../components/Since.astro';\n\n<CommandTabs npm=\"npm i {title}\" />\n\n"
            "<Since v=\"1.{title}\" />\n\n<CommandTabs yarn=\"yarn add {title}\" />\n\n<Since v=\"2.{title}\" />\n")
    pages = {f"src/content/docs/{name}.mdx": page.replace("{title}", name) for name in ("a", "b")}
    root = write_site(tmp_path / "repo", {
        "astro.config.mjs": CONFIG, "src/components/CommandTabs.astro": COMMAND_TABS,
        "src/components/Since.astro": SINCE, "src/content/i18n/en.yml": "since.addedIn: 'Added in:'\n", **pages})
    worked_out = []
    for name in ("tabs", "template"):
        real = getattr(astro_components, name)
        monkeypatch.setattr(astro_components, name, lambda text, real=real, name=name: worked_out.append(name) or real(text))
    site = detect_site(root)
    for _build in range(2):
        worked_out.clear()
        reader = open_site(site)
        for path, text in pages.items():
            result = read_document(text.encode(), "mdx", path.rsplit("/", 1)[1][:-4], path, site, reader)
            shown = "\n\n".join(getattr(b, "text", None) or b.raw for b in result.parsed.blocks)
            name = path.rsplit("/", 1)[1][:-4]
            assert f"npm:\n\n```sh\nnpm i {name}\n```" in shown and f"yarn:\n\n```sh\nyarn add {name}\n```" in shown
            assert f"Added in: astro@1.{name}" in shown and f"Added in: astro@2.{name}" in shown
            assert {"src/components/CommandTabs.astro", "src/components/Since.astro"} <= {p for p, _ in result.deps}
        assert sorted(worked_out) == ["tabs", "tabs", "template"]  # each template's tabs, Since's text
