"""The Hugo dialect (contextpull/dialects/hugo/dialect.py): shortcodes become what the rendered page
shows, includes come through the guarded resolver, and every call is counted with its line.

Pages of the fixture site in tests/dialect_sites/hugo are prepared with a stand-in context; the
prepared text and the notes are regression fixtures."""

from __future__ import annotations

import hashlib
import os
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest depends on tomli there
    import tomli as tomllib

import pytest

from contextpull.dialects.hugo import dialect as hugo, hugo_data, shortcodes
from contextpull.dialects.data.front_matter import split_front_matter
from dialect_context import context, outcomes, read

SITE = os.path.join(os.path.dirname(__file__), "dialect_sites", "hugo")


def _config() -> dict:
    with open(os.path.join(SITE, "hugo.toml"), "rb") as f:
        return tomllib.load(f)


def _page(rel: str):
    """A page's body and front matter, as the build hands them to ``prepare``."""
    with open(os.path.join(SITE, "content", rel), encoding="utf-8") as f:
        fm = split_front_matter(f.read())
    return fm.body, fm.data


def _prepare(rel: str, root: str = SITE):
    body, front = _page(rel)
    ctx = context(root, rel, dialect="hugo", config_file="hugo.toml", docs="content",
                  config=_config(), front_matter=front)
    return hugo.prepare(body, ctx), ctx


@pytest.mark.parametrize("rel", ["guide/lighting.md", "guide/storing.md"])
def test_pages_read_as_rendered(rel, file_regression, data_regression):
    out, ctx = _prepare(rel)
    file_regression.check(out, basename=f"hugo_{rel.replace('/', '_')[:-3]}", extension=".md")
    data_regression.check([[n.construct, n.outcome, n.line, n.detail] for n in ctx.notes], basename=f"hugo_{rel.replace('/', '_')[:-3]}_notes")


def test_no_shortcode_syntax_is_left_but_the_escaped_one():
    out, _ = _prepare("guide/lighting.md")
    assert out.count("{{") == 1
    assert "The page writes {{< note >}} to make a box." in out


def test_includes_are_dependencies_and_front_matter_never_shows():
    out, ctx = _prepare("guide/lighting.md")
    assert {"content/_common/install-note.md", "content/_common/safety.md", "snippets/wiring.txt",
            "data/docs.yaml", "content/quick-reference/glossary/wick.md"} <= read(ctx)
    assert "_comment" not in out and 'title = "Safety"' not in out
    assert "Never open the case while the lantern is lit." in out


def test_failed_includes_are_named_and_nothing_outside_is_read():
    out, ctx = _prepare("guide/storing.md")
    body, _ = _page("guide/storing.md")
    lines = body.split("\n")

    def line_of(word):
        return next(i for i, text in enumerate(lines, 1) if word in text)

    unresolved = [(n.construct, n.line) for n in ctx.notes if n.outcome == "unresolved"]
    assert unresolved == [("hugo include", line_of("absent.md")), ("hugo include", line_of("outside.md")),
                          ("hugo include", line_of("loop.md"))]
    assert all(not p.startswith("..") for p in ctx.deps)
    assert "{{%" not in out


def test_an_include_in_a_list_item_stays_in_it():
    out, _ = _prepare("guide/storing.md")
    assert "2. Add the label:\n\n   Never open the case while the lantern is lit." in out


@pytest.mark.parametrize(
    ("source", "expected", "outcome"),
    [
        ("{{< unclosed", "{{< unclosed", None),
        ("{{< note >}}never closed", "Note:never closed", "converted"),
        ("{{< /orphan >}}", "", "converted"),
        ("{{< warning title=\"Hot\" >}}Do not touch.{{< /warning >}}", "Hot: Do not touch.", "converted"),
        ("{{< hl >}}x := 1{{< /hl >}} inline", "`x := 1` inline", "converted"),
        ("{{< highlight go \"hl_inline=true\" >}}f(){{< /highlight >}}", "`f()`", "converted"),
        ("{{< youtube id=\"abc\" title=\"A demo\" >}}", "A demo", "converted"),
        ("{{< gist someone 1234 >}}", "", "unresolved"),  # another site's text, never fetched
        ("{{< param nowhere >}}", "nowhere", "unresolved"),
        ("```\n{{< new-in 1.2 />}}\n```", "```\nNew in v1.2\n```", "converted"),
    ],
)
def test_edges(tmp_path, source, expected, outcome):
    ctx = context(tmp_path, "page.md", dialect="hugo", config_file=None)
    assert hugo.prepare(source, ctx) == expected
    assert [n.outcome for n in ctx.notes][:1] == ([outcome] if outcome else [])


def test_an_alias_bomb_in_a_data_file_is_not_printed(tmp_path):
    (tmp_path / "data").mkdir()
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        bomb.append(f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]")
    (tmp_path / "data" / "docs.yaml").write_text("config:\n" + "\n".join("  " + b for b in bomb) + "\n")
    (tmp_path / "hugo.toml").write_text("")
    ctx = context(tmp_path, "p.md", dialect="hugo", config_file="hugo.toml")
    assert hugo.prepare("{{< code-toggle config=i />}}", ctx) == ""
    assert outcomes(ctx) == [("data file", "unresolved", 1), ("hugo code-toggle", "unresolved", 1)]
    assert ctx.notes[0].detail == "data/docs.yaml: YAML expands to more than 200000 nodes (an alias bomb?)"


def test_arguments_keep_quoted_text_whole():
    assert shortcodes.parse_args(' a "b c" k="v w" r=`raw "x"` ') == (("a", "b c"), {"k": "v w", "r": 'raw "x"'})


def test_nested_calls_of_one_name_pair_by_depth():
    text = "{{< box >}}a{{< box >}}b{{< /box >}}c{{< /box >}}"
    (call,) = shortcodes.calls(text)
    assert call.inner == "a{{< box >}}b{{< /box >}}c"


def test_a_readfile_through_a_symbolic_link_out_of_the_repository_is_refused(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("a secret\n")
    root = tmp_path / "site"
    (root / "content").mkdir(parents=True)
    (root / "hugo.toml").write_text("")
    (root / "leak.txt").symlink_to(outside)
    ctx = context(root, "p.md", dialect="hugo", config_file="hugo.toml", docs="content")
    assert hugo.prepare('{{< readfile file="leak.txt" >}}', ctx) == ""
    (note,) = ctx.notes
    assert (note.construct, note.outcome) == ("hugo readfile", "unresolved")
    assert "symbolic link" in note.detail


def test_unclosed_openers_stay_text_and_deep_nesting_is_named(tmp_path):
    """Sizes at which a regular expression that backtracks would take minutes: the scan is
    linear, so these read at once."""
    ctx = context(tmp_path, "p.md", dialect="hugo", config_file=None)
    text = "{{< a " * 20_000 + "{{</* b " * 20_000
    assert hugo.prepare(text, ctx) == text and ctx.notes == []
    deep = "{{< box >}}" * 500 + "x" + "{{< /box >}}" * 500
    out = hugo.prepare(deep, ctx)
    assert "x" in out
    assert [(n.construct, n.outcome) for n in ctx.notes if "nested deeper" in n.detail] == [("hugo shortcode", "unresolved")]


@pytest.mark.parametrize(
    ("config_file", "root"),
    [("hugo.toml", ""), ("site/hugo.toml", "site"), ("config/_default/hugo.toml", ""),
     ("web/config/_default/hugo.toml", "web"), ("config/site/config/production/hugo.toml", "config/site")],
)
def test_the_site_root_is_above_a_config_folder(tmp_path, config_file, root):
    """Includes and data are found from the project folder, which holds ``config/_default/``."""
    assert hugo_data.site_root(context(tmp_path, "p.md", dialect="hugo", config_file=config_file)) == root


def test_a_printed_data_section_follows_the_data_file_and_stays_a_dependency(tmp_path):
    # docs_section keeps what it printed for the process, by the data file's digest: an edit
    # between two pages must show, and every page must still record the file it printed from.
    (tmp_path / "data").mkdir()
    (tmp_path / "hugo.toml").write_text("")
    data = tmp_path / "data" / "docs.yaml"
    shown = []
    for value in ("first", "second", "first"):
        data.write_text(f"config:\n  lamp:\n    wick: {value}\n")
        ctx = context(tmp_path, "p.md", dialect="hugo", config_file="hugo.toml")
        shown.append(hugo.prepare("{{< code-toggle config=lamp />}}", ctx))
        assert ctx.deps["data/docs.yaml"] == hashlib.sha256(data.read_bytes()).hexdigest()
    assert "wick: first" in shown[0] and "wick: second" in shown[1]
    assert shown[2] == shown[0] != shown[1]


def _shortcode_site(tmp_path, config: str = "", files: dict | None = None):
    (tmp_path / "hugo.toml").write_text(config)
    for rel, text in (files or {}).items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return context(tmp_path, "p.md", dialect="hugo", config_file="hugo.toml", config=tomllib.loads(config))


def test_a_shortcode_no_template_defines_is_named_and_keeps_its_text(tmp_path):
    ctx = _shortcode_site(tmp_path)
    source = "# P\n\n{{< nosuch arg >}}INNER{{< /nosuch >}}\n\n{{% nosuch2 %}}MORE{{% /nosuch2 %}}\n\n{{< alone >}}\n"
    out = hugo.prepare(source, ctx)
    assert "INNER" in out and "MORE" in out
    assert [(n.outcome, n.line, n.detail) for n in ctx.notes] == [
        ("unresolved", 3, "unknown shortcode {{< nosuch >}}: no template in layouts/_shortcodes or"
                          " layouts/shortcodes, its inner text kept"),
        ("unresolved", 5, "unknown shortcode {{% nosuch2 %}}: no template in layouts/_shortcodes or"
                          " layouts/shortcodes, its inner text kept"),
        ("unresolved", 7, "unknown shortcode {{< alone >}}: no template in layouts/_shortcodes or"
                          " layouts/shortcodes, nothing kept"),
    ]
    # Where the template would be is a dependency: adding it rebuilds the page.
    assert ctx.deps["layouts/_shortcodes/nosuch.html"] == "missing"


@pytest.mark.parametrize(
    ("config", "template"),
    [
        ("", "layouts/shortcodes/widget.html"),  # before Hugo 0.146
        ("", "layouts/_shortcodes/widget.en.html"),  # a language variant names the same one
        ('theme = "lamp"', "themes/lamp/layouts/_shortcodes/widget.html"),
        ('[module]\n[[module.mounts]]\nsource = "site-layouts"\ntarget = "layouts"', "site-layouts/_shortcodes/widget.html"),
    ],
)
def test_a_custom_shortcode_with_a_template_stays_converted(tmp_path, config, template):
    ctx = _shortcode_site(tmp_path, config, {template: "<div>{{ .Inner }}</div>\n"})
    assert hugo.prepare("{{< widget >}}INNER{{< /widget >}}", ctx) == "INNER"
    assert [(n.outcome, n.detail) for n in ctx.notes] == [("converted", "widget")]
    assert template in read(ctx)


def test_a_built_in_shortcode_needs_no_template(tmp_path):
    ctx = _shortcode_site(tmp_path)
    assert hugo.prepare("{{< comment >}}a note to authors{{< /comment >}}", ctx) == "a note to authors"
    assert outcomes(ctx) == [("hugo shortcode", "converted", 1)]


@pytest.mark.parametrize("config", ['theme = "github.com/someone/theme"', 'theme = "not-checked-in"',
                                    '[module]\n[[module.imports]]\npath = "github.com/someone/mod"'])
def test_no_shortcode_is_called_unknown_when_templates_come_from_outside(tmp_path, config):
    ctx = _shortcode_site(tmp_path, config)
    assert hugo.prepare("{{< widget >}}INNER{{< /widget >}}", ctx) == "INNER"
    assert [(n.outcome, n.detail) for n in ctx.notes] == [("converted", "widget")]


def test_a_layouts_folder_linked_out_of_the_repository_is_not_listed(tmp_path):
    outside = tmp_path / "outside" / "_shortcodes"
    outside.mkdir(parents=True)
    (outside / "widget.html").write_text("x")
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink(tmp_path / "outside", repo / "layouts")
    ctx = _shortcode_site(repo)
    hugo.prepare("{{< widget >}}INNER{{< /widget >}}", ctx)
    assert [n.outcome for n in ctx.notes] == ["unresolved"]


def test_a_template_added_between_two_reads_in_one_process_is_seen(tmp_path):
    ctx = _shortcode_site(tmp_path)
    hugo.prepare("{{< widget >}}INNER{{< /widget >}}", ctx)
    (tmp_path / "layouts" / "_shortcodes").mkdir(parents=True)
    (tmp_path / "layouts" / "_shortcodes" / "widget.html").write_text("{{ .Inner }}")
    again = _shortcode_site(tmp_path)
    hugo.prepare("{{< widget >}}INNER{{< /widget >}}", again)
    assert [n.outcome for n in ctx.notes + again.notes] == ["unresolved", "converted"]


def test_many_calls_of_one_custom_shortcode_read_its_template_once(tmp_path):
    ctx = _shortcode_site(tmp_path, files={"layouts/_shortcodes/widget.html": "{{ .Inner }}",
                                           "snippets/tail.txt": "TAIL"})
    source = "{{< widget >}}x{{< /widget >}}\n" * 12_000 + '{{< readfile file="snippets/tail.txt" >}}\n'
    assert hugo.prepare(source, ctx).rstrip().endswith("TAIL")
    assert ctx._resolver.reads == 2  # the template and the file, within the page's read budget


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("lamp.kind", "paraffin"),  # the page's params, dotted
        ("wick.length", "3 cm"),  # the page's top level
        ("release.latest", "v2.4.1"),  # the site's [params]
        ("Mermaid.Version", "11.4.1"),  # the configuration folder's params file, without case
        ("mermaid.nowhere", "mermaid.nowhere"),  # unknown: its name stays
    ],
)
def test_param_reads_dotted_keys_from_the_page_then_the_site_then_its_configuration_folder(tmp_path, key, expected):
    (tmp_path / "config" / "_default").mkdir(parents=True)
    (tmp_path / "content").mkdir()
    (tmp_path / "config" / "_default" / "hugo.yaml").write_text("params:\n  release:\n    latest: v2.4.1\n")
    (tmp_path / "config" / "_default" / "params.yaml").write_text("mermaid:\n  version: 11.4.1\n")
    ctx = context(tmp_path, "p.md", dialect="hugo", config_file="config/_default/hugo.yaml", docs="content",
                  config={"params": {"release": {"latest": "v2.4.1"}}},
                  front_matter={"params": {"lamp": {"kind": "paraffin"}}, "wick": {"length": "3 cm"}})
    assert hugo.prepare(f"{{{{% param {key} %}}}}", ctx) == expected
    if key.startswith("Mermaid"):
        assert "config/_default/params.yaml" in read(ctx)


@pytest.mark.parametrize(
    ("target", "found"),
    [
        ("includes/x.md", "content/en/docs/includes/x.md"),  # beside the page
        ("/docs/includes/x.md", "content/en/docs/includes/x.md"),  # from the content root
        ("/project/repo/README.md", "README.md"),  # a file mounted into the content
        ("/snippets/old.md", "snippets/old.md"),  # an older site's own readfile: from the site root
    ],
)
def test_readfile_looks_where_docsy_looks_then_in_the_site_root(tmp_path, target, found):
    for rel, text in {"content/en/docs/includes/x.md": "Beside the page.", "README.md": "The readme.",
                      "snippets/old.md": "From the site root.", "content/en/docs/p.md": ""}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    config = {"module": {"mounts": [{"source": "content/en", "target": "content"},
                                    {"source": "README.md", "target": "content/project/repo/README.md"}]}}
    (tmp_path / "hugo.toml").write_text("")
    ctx = context(tmp_path, "docs/p.md", dialect="hugo", config_file="hugo.toml", docs="content/en", config=config)
    out = hugo.prepare(f'{{{{% readfile file="{target}" %}}}}', ctx)
    assert out == (tmp_path / found).read_text()
    assert [(n.outcome, n.detail) for n in ctx.notes] == [("resolved", found)]


def test_a_docsy_tabpane_shows_each_tab_as_code_or_text(tmp_path):
    """Docsy's ``tabpane``: a tab's body is code in its ``lang`` (or the pane's, or its header
    with ``langEqualsHeader``) unless ``text=true``; a disabled tab is a label alone."""
    source = (
        "{{< tabpane >}}\n{{< tab header=\"Configuration file:\" disabled=true />}}\n"
        "{{< tab header=\"hugo.toml\" lang=\"toml\" >}}\n# Weight used for sorting.\nweight = 1\n{{< /tab >}}\n"
        "{{% tab header=\"Notes\" text=true %}}\nThe **weight** orders languages.\n{{% /tab %}}\n{{< /tabpane >}}\n\n"
        "{{< tabpane langEqualsHeader=true >}}\n{{< tab header=\"Go\" >}}\nfmt.Println(1)\n{{< /tab >}}\n{{< /tabpane >}}\n")
    ctx = context(tmp_path, "page.md", dialect="hugo", config_file=None)
    assert hugo.prepare(source, ctx) == (
        "Configuration file:\n\nhugo.toml:\n\n```toml\n# Weight used for sorting.\nweight = 1\n```\n\n"
        "Notes: The **weight** orders languages.\n\nGo:\n\n```go\nfmt.Println(1)\n```\n")
    assert [(n.construct, n.outcome) for n in ctx.notes] == [("hugo tabpane", "converted")] * 2  # no tab of its own


def test_a_site_template_that_highlights_its_inner_text_or_prints_a_parameter_is_read(tmp_path):
    """kubernetes-sigs/kind's ``codeFromInline`` (its template runs ``highlight`` over
    ``.Inner``) and ``stableVersion`` (``{{- site.Params.stable -}}``): read from the templates'
    text, never run."""
    from site_build import SECTIONS, build_json, store_rows, write_site

    files = {
        "hugo.toml": "[params]\nstable = \"v0.32.0\"\n",
        "layouts/shortcodes/codeFromInline.html": '{{ $code := trim .Inner "\\n" }}\n<td>{{ highlight $code $lang "" }}</td>\n',
        "layouts/shortcodes/stableVersion.html": "{{- site.Params.stable -}}\n",
        "content/start.md": ("# Start\n\nThe current release is {{< stableVersion >}}.\n\n"
                             "{{< codeFromInline lang=\"bash\" >}}\n# For AMD64\ncurl -Lo ./kind <url>\n{{< /codeFromInline >}}\n"),
    }
    root = write_site(tmp_path / "site", files)
    build_json(root / "content", tmp_path / "out")
    (text,) = [t for _, _, t in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS)]
    assert "The current release is v0.32.0." in text
    assert "```bash\n# For AMD64\ncurl -Lo ./kind <url>\n```" in text


def test_a_site_template_with_no_action_is_written_as_it_stands(tmp_path):
    """gohugoio/hugoDocs' ``module-mounts-note``: a fixed note, written after seven settings of
    its configuration page; a template with an action stays what only it renders."""
    from site_build import SECTIONS, build_json, store_rows, write_site

    files = {
        "hugo.toml": "",
        "layouts/_shortcodes/mounts-note.html": "For more, consult the section\non [module mounts](/configuration/module/#mounts).\n",
        "layouts/_shortcodes/go-version.html": "{{ site.Data.versions.go }}\n",
        "content/all.md": ("# All settings\n\n`assetDir`\n: The assets folder. {{% mounts-note %}}\n\n"
                           "Go {{< go-version >}} or later.\n"),
    }
    root = write_site(tmp_path / "site", files)
    report = build_json(root / "content", tmp_path / "out")
    (text,) = [t for _, _, t in store_rows(tmp_path / "out" / "store.sqlite", SECTIONS)]
    assert "The assets folder. For more, consult the section\non [module mounts](/configuration/module/#mounts)." in text
    assert "Go  or later." in text
    details = [u["detail"] for u in report["dialect"]["unresolved"]]
    assert details == ["go-version: rendered by its template alone"]


def test_an_include_found_in_an_includes_folder_of_the_page_or_an_ancestor_section(tmp_path):
    """opentelemetry.io's ``include``: a path GetPage does not find is ``_includes/PATH`` beside
    the page, then beside each ancestor section; the positions and names passed after the path
    are printed where the snippet writes ``{{ $1 }}`` or ``{{ $name }}``."""
    files = {
        "content/docs/_includes/intro.md": "---\n---\nThe intro, from the docs section.\n",
        "content/_includes/outro.md": "See the [exporter API]({{ $1 }}) for {{ $lang }}; {{ $kept }} stays.\n",
        "content/docs/lang/go/_includes/intro.md": "The Go page's own intro.\n",
        "content/docs/lang/p.md": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "hugo.toml").write_text("")
    ctx = context(tmp_path, "docs/lang/p.md", dialect="hugo", config_file="hugo.toml", docs="content")
    out = hugo.prepare('{{% include intro.md %}}\n\n{{% include "outro.md" `https://x.test/api` lang="Go" %}}\n', ctx)
    assert out == ("The intro, from the docs section.\n\n"
                   "See the [exporter API](https://x.test/api) for Go; {{ $kept }} stays.\n")
    assert [(n.outcome, n.detail) for n in ctx.notes] == [
        ("resolved", "content/docs/_includes/intro.md"), ("resolved", "content/_includes/outro.md")]
    # The nearer folder wins, and the places tried before it are dependencies: adding one rebuilds.
    near = context(tmp_path, "docs/lang/go/p.md", dialect="hugo", config_file="hugo.toml", docs="content")
    assert hugo.prepare("{{% include intro.md %}}", near) == "The Go page's own intro."
    assert near.deps["content/docs/lang/go/intro.md"] == "missing"
    # A path from the root or the page's folder is never looked for in an _includes folder.
    rooted = context(tmp_path, "docs/lang/p.md", dialect="hugo", config_file="hugo.toml", docs="content")
    assert hugo.prepare("{{% include /intro.md %}}", rooted) == ""
    assert [n.outcome for n in rooted.notes] == ["unresolved"]


def test_arguments_passed_on_read_a_hostile_snippet_once():
    call = shortcodes.calls('{{% include "x.md" a %}}')[0]
    text = "{{ " * 200_000 + "}}" + " {{ $1 }}"
    assert shortcodes.passed_on(text, call).endswith("}} a")
    assert shortcodes.passed_on("{{ $1" * 100_000, call) == "{{ $1" * 100_000


def test_param_reads_what_the_sections_cascade_nearest_first(tmp_path):
    """opentelemetry.io versions its samples with ``cascade: {vers: ...}`` on a section's
    ``_index.md``: the page's own front matter first, then the nearest section's cascade, then
    the site's; an entry with a target reaches only some pages and is left to Hugo."""
    files = {
        "content/docs/_index.md": "---\ncascade:\n  vers: {otel: 1.0.0, semconv: 1.40.0}\n  params: {tool: otelcol}\n---\n",
        "content/docs/java/_index.md": ("---\ncascade:\n  - vers: {otel: 1.64.0}\n"
                                        "  - _target: {path: /docs/java/other}\n    vers: {contrib: 9.9.9}\n---\n"),
        "content/docs/java/api.md": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "hugo.toml").write_text("")
    config = {"cascade": {"vers": {"site": "from the site"}}}

    def page(front_matter=None):
        return context(tmp_path, "docs/java/api.md", dialect="hugo", config_file="hugo.toml", docs="content",
                       config=config, front_matter=front_matter)

    ctx = page()
    source = "{{% param vers.otel %}} {{% param vers.semconv %}} {{% param tool %}} {{% param vers.site %}} {{% param vers.contrib %}}"
    assert hugo.prepare(source * 300, ctx) == "1.64.0 1.40.0 otelcol from the site vers.contrib" * 300
    assert {"content/docs/_index.md", "content/docs/java/_index.md"} <= read(ctx)
    assert ctx.deps["content/_index.md"] == "missing"  # adding one would change what cascades
    assert ctx._resolver.reads == 3  # each section's _index.md once (the absent one too), whatever the calls
    own = page({"vers": {"otel": "own"}})
    assert hugo.prepare("{{% param vers.otel %}}", own) == "own"
    assert not [path for path in own.deps if path.endswith("_index.md")]  # no section read for it


@pytest.mark.parametrize(
    ("path", "rendered"),
    [
        ("_includes/note.md", False),
        ("docs/lang/_includes/intro.md", False),
        ("docs/lang/_includes/exporters/jaeger.md", False),
        ("docs/lang/_includes/_index.md", False),
        ("docs/lang/instrumentation.md", True),
        ("docs/my_includes/x.md", True),  # the glob names the folder, not a suffix of its name
        ("docs/lang/_includes/shown.md", True),  # its own build says it renders
        ("blog/post.md", True),  # an entry that names a kind too reaches some pages only
    ],
)
def test_the_site_configuration_cascade_hides_pages_its_target_path_glob_matches(tmp_path, path, rendered):
    """opentelemetry.io's ``hugo.yaml`` cascades ``build`` render and list never to every
    ``_includes`` folder (``target.path: '{,/**}/_includes{,/**}'``): snippets, never pages."""
    from contextpull.dialects.api import Site
    from contextpull.dialects.hugo import pages as hugo_pages
    from contextpull.dialects.site_reader import open_site

    (tmp_path / "config" / "_default").mkdir(parents=True)
    (tmp_path / "config" / "_default" / "hugo.yaml").write_text(
        "cascade:\n"
        "  - build: { list: never, publishResources: false, render: never }\n"
        "    target: { path: '{,/**}/_includes{,/**}' }\n"
        "  - build: { list: never, render: never }\n"
        "    target: { path: '/blog/**', kind: section }\n")
    page = tmp_path / "content" / path
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text("---\nbuild: {render: always}\n---\nShown.\n" if "shown" in path else "Text.\n")
    site = Site("hugo", "config/_default/hugo.yaml", str(tmp_path / "content"), str(tmp_path))
    why = hugo_pages.skip(path, open_site(site))
    assert (why is None) == rendered
    if not rendered:
        assert why == "the site configuration cascades build render and list never to {,/**}/_includes{,/**}"


def test_a_cascade_glob_of_many_braces_or_stars_is_bounded():
    from contextpull.scan.globmatch import alternatives, compile_glob, slash_tokens

    assert alternatives("{a,b}" * 10) == []  # 1,024 spellings: none taken
    assert alternatives("{a,{b}}") == [] and alternatives("a}") == []
    # one group of a hundred thousand choices after a megabyte: refused before a copy is made
    assert alternatives("x" * 1_000_000 + "{" + ",".join(["c"] * 100_000) + "}") == []
    assert alternatives("a{b,c}d") == ["abd", "acd"]
    glob = compile_glob(slash_tokens("/**a" * 30 + "/b", empty_folders=False))
    assert not glob.match("/" + "a" * 5_000)


def test_a_cascade_glob_reads_double_stars_as_gobwas_does_not_as_gitignore():
    """Hugo's ``**`` is any run whatever follows it: ``/docs/**/x`` needs a folder between."""
    from contextpull.scan.globmatch import compile_glob, slash_tokens

    hugo = compile_glob(slash_tokens("/docs/**/x", empty_folders=False))
    assert hugo.match("/docs/a/b/x") and not hugo.match("/docs/x")
    assert compile_glob(slash_tokens("/docs/**/x")).match("/docs/x")  # gitignore's reading
    assert not compile_glob(slash_tokens("/docs/*/x", empty_folders=False)).match("/docs/a/b/x")
