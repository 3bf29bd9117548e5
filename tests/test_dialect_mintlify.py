"""The Mintlify dialect (contextpull/dialects/mintlify/): a small site built end to end and its
stored text compared with a recorded fixture; the labels its components and code blocks show;
snippets imported by site-absolute paths through the guarded resolver; titles; its page rule;
detection from ``docs.json``/``mint.json``; and bad input (unclosed components, a megabyte of
openers, snippet imports that escape the repository or loop, a malformed ``docs.json``): a named
note, bounded, never a traceback."""

from __future__ import annotations

import json

import pytest

from contextpull.dialects.detect import detect_site
from contextpull.dialects.mdx import import_paths, mdx
from contextpull.dialects.mintlify import code_titles, components, navigation
from contextpull.dialects.mintlify.dialect import Reader
from contextpull.dialects.mdx import jsx
from contextpull.dialects.site_reader import open_site

from memory_context import FakeContext
from site_build import DOCUMENTS, SECTIONS, build_json, store_rows, write_site

NAMED = '{"name": "Site"}'  # the least docs.json that is Mintlify's (``navigation.is_mintlify``)
DOCS_JSON = json.dumps({
    "$schema": "https://mintlify.com/docs.json",
    "name": "Acme",
    "navigation": {"tabs": [{"tab": "Docs", "groups": [
        {"group": "Get started", "pages": ["index", {"group": "Command line", "root": "cli/index", "pages": ["cli/install"]}]},
        {"group": "API", "pages": ["api/users", "api/list"]},
    ]}]},
})

SITE = {
    "docs.json": DOCS_JSON,
    "snippets/install.mdx": "Install the {tool} CLI.\n\n```bash npm\nnpm i -g {tool}\n```\n",
    "snippets/nested/warning.mdx": "<Warning>Never share your key.</Warning>\n",
    "index.mdx": (
        "---\ntitle: Welcome\ndescription: Start here.\n---\n"
        "import Install from '/snippets/install.mdx'\nimport KeyWarning from '/snippets/nested/warning.mdx'\n\n"
        "## Install\n\n<Install tool=\"acme\" />\n\n<KeyWarning />\n\n"
        "<Note>\n  Requires Node 20.\n</Note>\n\n<Tip>Use `--yes` in CI.</Tip>\n\n"
        "<Info>Info text.</Info>\n\n<Check>It worked.</Check>\n\n<Danger>Deletes everything.</Danger>\n\n"
        "## Choose\n\n<Tabs>\n  <Tab title=\"macOS\">Use brew.</Tab>\n  <Tab title=\"Linux\">\n    Use apt.\n  </Tab>\n</Tabs>\n\n"
        "<Steps>\n  <Step title=\"Log in\">\n    Run `acme login`.\n  </Step>\n  <Step title=\"Deploy\">Run `acme deploy`.</Step>\n</Steps>\n\n"
        "<CodeGroup>\n```bash cURL\ncurl https://acme.dev\n```\n\n```python Python wrap {2}\nimport acme\nacme.get()\n```\n</CodeGroup>\n\n"
        "<AccordionGroup>\n  <Accordion title=\"Is it free?\">Yes.</Accordion>\n</AccordionGroup>\n\n"
        "<CardGroup cols={2}>\n  <Card title=\"Guides\" icon=\"book\" href=\"/guides\">Read the guides.</Card>\n</CardGroup>\n\n"
        "<Frame caption=\"The dashboard\">\n  <img src=\"/images/dash.png\" />\n</Frame>\n"
    ),
    "cli/index.mdx": "Everything the command line does.\n\n## Usage\n\nRun `acme`.\n",
    "cli/install.mdx": "---\nsidebarTitle: Install\n---\n\n## From npm\n\nText.\n",
    "api/users.mdx": (
        "---\ntitle: Get a user\nopenapi: GET /users/{id}\n---\n\n"
        "<ParamField path=\"id\" type=\"string\" required>\n  The user's id.\n</ParamField>\n\n"
        "<ParamField query=\"limit\" type=\"integer\" default={10}>How many.</ParamField>\n\n"
        "<ParamField header=\"Authorization\" type=\"string\" required />\n\n"
        "<ResponseField name=\"user\" type=\"object\" required>\n  The user.\n"
        "  <Expandable title=\"properties\">\n    <ResponseField name=\"email\" type=\"string\">Their email.</ResponseField>\n"
        "  </Expandable>\n</ResponseField>\n\n"
        "<RequestExample>\n```bash Example\ncurl /users/1\n```\n</RequestExample>\n"
    ),
    "api/list.mdx": "---\nopenapi: GET /users\n---\n",
    "README.md": "# Repository readme\n\nHow to run the site locally.\n",
    "changelog.mdx": "---\ntitle: Changelog\n---\n\n<Update label=\"2026-01-05\" description=\"v1.2\">\n  Faster builds.\n</Update>\n",
}


def _site(tmp_path, files=None):
    return write_site(tmp_path / "repo", SITE if files is None else files)


def _rows(out):
    store = out / "store.sqlite"
    return store_rows(store, DOCUMENTS), store_rows(store, SECTIONS)


def test_a_mintlify_site_is_stored_as_its_pages_read(tmp_path, data_regression):
    root = _site(tmp_path)
    report = build_json(root, tmp_path / "out")
    docs, sections = _rows(tmp_path / "out")
    data_regression.check({
        "dialect": [report["dialect"]["name"], report["dialect"]["config_file"]],
        "not_pages": report["dialect"]["not_pages"],
        "unresolved": report["dialect"]["unresolved"],
        "documents": [{"path": p, "title": t} for p, t, _ in docs],
        "sections": [{"path": p, "heading_path": h, "text": x} for p, h, x in sections],
    })


def test_no_section_shows_component_markup_and_every_snippet_is_read(tmp_path):
    root = _site(tmp_path)
    report = build_json(root, tmp_path / "out")
    _, sections = _rows(tmp_path / "out")
    prose = "\n".join(text for _, _, text in sections)
    for marker in ("<Note", "<ParamField", "<ResponseField", "<Tab", "<Step", "<CodeGroup", "<Frame", "import Install"):
        assert marker not in prose, marker
    assert report["dialect"]["constructs"]["mdx partial"] == {"resolved": 2, "converted": 0, "unresolved": 0}
    assert "`id` (string, required): The user's id." in prose
    assert "`limit` (integer, default: 10): How many." in prose
    # a prop is text in prose; in code MDX substitutes nothing, and neither does the page
    assert "Install the acme CLI." in prose and "npm i -g {tool}" in prose
    assert "Warning: Never share your key." in prose


@pytest.mark.parametrize(("info", "title"), [
    ("bash npm", "npm"),
    ("javascript helloWorld.js", "helloWorld.js"),
    ("python Python wrap {2}", "Python"),
    ("json Product announcements wrap", "Product announcements"),
    ('ts icon="js" lines', ""),
    ('ts title="server.ts" highlight={1-3}', "server.ts"),
    ("bash", ""),
    ("", ""),
])
def test_a_code_block_shows_the_title_after_its_language(info, title):
    assert code_titles.title(info) == title


def test_code_titles_label_fences_and_leave_code_and_quoted_fences_alone():
    text = "Text.\n```bash npm\nnpm i\n```\n\n> ```bash quoted\n> x\n> ```\n\n```bash\n```bash inner\n```\n"
    out = code_titles.label_code(text)
    assert out.startswith("Text.\n\nnpm:\n\n```bash npm\nnpm i\n```")
    assert "quoted:" not in out and "inner:" not in out


@pytest.mark.parametrize(("attrs", "label"), [
    ({"path": "id", "type": "string", "required": True}, "`id` (string, required)"),
    ({"query": "q", "default": jsx.Expr("10", 0)}, "`q` (default: 10)"),
    ({"body": "x", "type": "object", "deprecated": True}, "`x` (object, deprecated)"),
    ({"name": "a`b", "type": "string"}, "``a`b`` (string)"),
    ({"header": "X", "default": jsx.Expr("compute()", 0)}, "`X`"),
    ({"type": "string"}, None),  # no name: not a field, its text kept by the shared rule
])
def test_an_api_field_shows_name_type_required_and_default(attrs, label):
    found = components.label("ParamField", attrs)
    assert (found[1] if found else None) == label


def _ctx(files=None, path="page.mdx"):
    ctx = FakeContext(files or {}, path=path, docs="", dialect="mintlify", config_file="docs.json")
    ctx.reader = Reader(ctx.site)
    return ctx


def _unresolved(ctx):
    return [(n.construct, n.line, n.detail) for n in ctx.notes if n.outcome == "unresolved"]


def test_unclosed_components_keep_their_text_and_are_named_with_their_lines():
    ctx = _ctx()
    out = mdx.prepare("Intro.\n\n<Note>\nNever closed.\n\n<ParamField path=\"id\" type=\"string\">\nAlso open.\n", ctx)
    assert "Never closed." in out and "Also open." in out
    assert ("jsx", 3, "<Note> is never closed") in _unresolved(ctx)
    assert ("jsx", 6, "<ParamField> is never closed") in _unresolved(ctx)


@pytest.mark.parametrize("line", [
    "<Note>" * 170_000,
    '<ParamField query="a" type="string" required>' * 23_000,
    "<ParamField " * 90_000,
    "</Note>" * 150_000,
])
def test_a_megabyte_of_openers_is_text_and_named(line):
    ctx = _ctx()
    out = mdx.prepare(line, ctx)
    assert len(out) <= len(line)
    assert all(n.outcome == "unresolved" and n.construct == "jsx" for n in ctx.notes)
    assert not any(n.construct.startswith("mintlify") for n in ctx.notes)


@pytest.mark.parametrize(("spec", "site", "outside"), [
    ("/snippets/a.mdx", "", False),
    ("/../secret.mdx", "", True),
    ("/../secret.mdx", "site", False),  # the repository's root, above the site folder
    ("/../../secret.mdx", "site", True),
    ("/snippets/../../x.mdx", "", True),
    ("//cdn.example.com/x.js", "", False),  # a URL, no file of the site
    ("react", "", False),
])
def test_a_site_absolute_import_is_judged_from_the_site_folder_not_the_page(spec, site, outside):
    assert import_paths.outside(spec, "docs/deep/er", site) is outside
    assert (import_paths.site_absolute(spec, site) is not None) is (spec.startswith("/") and not spec.startswith("//"))


def test_snippet_imports_that_escape_the_repository_or_loop_are_named_and_dropped(tmp_path):
    files = {
        "docs.json": DOCS_JSON,
        "snippets/a.mdx": "import B from '/snippets/b.mdx'\n\nA text.\n\n<B />\n",
        "snippets/b.mdx": "import A from '/snippets/a.mdx'\n\nB text.\n\n<A />\n",
        "index.mdx": (
            "import A from '/snippets/a.mdx'\nimport Out from '/../outside.mdx'\nimport Gone from '/snippets/missing.mdx'\n\n"
            "# Home\n\n<A />\n\n<Out />\n\n<Gone />\n\nEnd.\n"
        ),
    }
    root = write_site(tmp_path / "repo", files)
    (tmp_path / "outside.mdx").write_text("Secret.\n", encoding="utf-8")
    report = build_json(root, tmp_path / "out")
    _, sections = _rows(tmp_path / "out")
    text = "\n".join(x for _, _, x in sections)
    assert "A text." in text and "B text." in text and "End." in text and "Secret." not in text
    details = [(u["construct"], u["detail"]) for u in report["dialect"]["unresolved"] if u["path"] == "index.mdx"]
    assert ("mdx import", "outside the repository, not read: /../outside.mdx") in details
    assert any(c == "mdx partial" and "cycle" in d for c, d in details), details
    assert any(c == "mdx partial" and "missing" in d for c, d in details), details


@pytest.mark.parametrize(("name", "config", "construct", "named"), [
    ("docs.json", "{not json", "configuration", "malformed JSON"),
    ("docs.json", '{"navigation": 5}', "mintlify configuration", "navigation is a int"),
    ("docs.json", '{"navigation": {"groups": "x", "tabs": [3, {"group": 7, "pages": ["index"]}]}}',
     "mintlify configuration", "navigation.tabs[0] is a int"),
    ("docs.json", '{"navigation": {"groups": [{"group": "G", "pages": 4}]}}', "mintlify configuration",
     "navigation.groups[0].pages is a int, not a list"),
    ("mint.json", '{"navigation": [{"group": "G", "pages": ["index", null]}]}', "mintlify configuration",
     "navigation[0].pages[1] is a NoneType"),
    ("mint.json", '{"navigation": ' + "[" * 5000 + "]" * 5000 + "}", "configuration", "malformed JSON"),
])
def test_a_malformed_configuration_is_named_and_the_site_still_read(tmp_path, name, config, construct, named):
    root = write_site(tmp_path / "repo", {name: config, "index.mdx": "---\ntitle: Home\n---\n\n<Note>Hi.</Note>\n"})
    report = build_json(root, tmp_path / "out")
    assert report["dialect"]["name"] == "mintlify"
    docs, sections = _rows(tmp_path / "out")
    assert [d[:2] for d in docs] == [("index.mdx", "Home")] and sections[0][2] == "Note: Hi."
    problems = [u["detail"] for u in report["dialect"]["unresolved"] if u["construct"] == construct]
    assert any(named in p for p in problems), report["dialect"]["unresolved"]


def test_a_navigation_walk_is_bounded():
    deep: object = "page"
    for _ in range(navigation.MAX_DEPTH + 5):
        deep = {"group": "g", "pages": [deep]}
    nav = navigation.walk({"navigation": deep})
    assert nav.roots == {} and any("nested deeper than" in p for p in nav.problems)
    wide = {"navigation": {"groups": [{"group": "g", "root": f"p{k}"} for k in range(navigation.MAX_NODES)]}}
    nav = navigation.walk(wide)
    assert len(nav.roots) < navigation.MAX_NODES and nav.problems[-1].startswith("navigation has more than")


@pytest.mark.parametrize(("files", "expected"), [
    ({"docs.json": '{"navigation": {}}'}, ("mintlify", "docs.json")),
    ({"mint.json": "{}"}, ("mintlify", "mint.json")),
    ({"docs/docs.json": '{"$schema": "https://mintlify.com/docs.json"}'}, ("mintlify", "docs/docs.json")),
    ({"docs.json": '{"name": "x"}', "mkdocs.yml": "site_name: x\n"}, ("mkdocs", "mkdocs.yml")),
    ({"docs.json": '{"name": "Acme"}'}, ("mintlify", "docs.json")),
    ({"docs.json": "{not json"}, ("mintlify", "docs.json")),  # read, and its problem named
    # another tool's docs.json (a list, an object without Mintlify's keys) is not a Mintlify site
    ({"docs.json": "[1, 2]"}, ("plain", None)),
    ({"docs.json": '{"entries": [], "generator": "typedoc"}'}, ("plain", None)),
])
def test_mintlify_is_detected_from_docs_json_or_mint_json(tmp_path, files, expected):
    root = write_site(tmp_path / "repo", {"docs/index.mdx": "# Home\n", **files})
    site = detect_site(root / "docs")
    assert (site.dialect, site.config_file) == expected


def test_mintignore_defaults_snippets_and_generated_pages_are_not_pages(tmp_path):
    root = write_site(tmp_path / "repo", {
        "docs.json": NAMED, ".mintignore": "# drafts\ndrafts/\n*.draft.mdx\n!CONTRIBUTING.md\n",
        "drafts/a.mdx": "x", "b.draft.mdx": "x", "README.md": "x", "CONTRIBUTING.md": "x",
        "snippets/s.mdx": "x", "node_modules/p/x.md": "x", "page.mdx": "x",
    })
    reader = open_site(detect_site(root))
    assert reader.skip("drafts/a.mdx") == ".mintignore: drafts/"
    assert reader.skip("b.draft.mdx") == ".mintignore: *.draft.mdx"
    assert reader.skip("README.md") == "Mintlify leaves out README.md by default"
    assert reader.skip("node_modules/p/x.md") == "Mintlify leaves out node_modules by default"
    assert reader.skip("CONTRIBUTING.md") is None and reader.skip("page.mdx") is None
    assert reader.skip("snippets/s.mdx") == "snippet, included where a page imports it"
    assert reader.skip("api.mdx", b"---\nopenapi: POST /jobs\n---\n").startswith(
        "generated by Mintlify from the OpenAPI operation 'POST /jobs'")
    assert reader.skip("api.mdx", b"---\nopenapi: POST /jobs\n---\n\nMore text.\n") is None


def test_the_older_snippet_element_reads_its_file_from_the_snippet_folders(tmp_path):
    root = write_site(tmp_path / "repo", {
        "docs/docs.json": NAMED,
        "docs/_snippets/star.mdx": "Star us on GitHub, {who}.\n",
        "docs/snippets/help.mdx": "<Tip>Ask in the forum.</Tip>\n",
        "docs/page.mdx": (
            "# Page\n\n<Snippet file=\"star.mdx\" who=\"friend\" />\n\n<Snippet file=\"help.mdx\" />\n\n"
            "<Snippet file=\"../../../outside.mdx\" />\n\n<Snippet file=\"none.mdx\" />\n\nEnd.\n"
        ),
    })
    report = build_json(root / "docs", tmp_path / "out")
    _, sections = _rows(tmp_path / "out")
    assert [x for _, _, x in sections] == ["# Page\n\nStar us on GitHub, friend.\n\nTip: Ask in the forum.\n\nEnd."]
    assert [(u["line"], u["detail"]) for u in report["dialect"]["unresolved"]] == [
        (7, "outside the repository: snippets/../../../outside.mdx"), (9, "target missing: snippets/none.mdx")]
    assert sorted(n["path"] for n in report["dialect"]["not_pages"]) == ["_snippets/star.mdx", "snippets/help.mdx"]


OPENAPI = {
    "openapi": "3.0.0",
    "paths": {
        "/users": {
            "get": {"summary": "List users", "description": "Lists every user.",
                    "parameters": [{"$ref": "#/components/parameters/Limit"},
                                   {"name": "q", "in": "query", "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "The users."}, "401": {"$ref": "#/components/responses/No"}}},
            "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                     "responses": {"201": {"description": "Created."}}},
        },
        "/loop": {"get": {"parameters": [{"$ref": "#/components/parameters/A"}], "responses": {}}},
    },
    "components": {
        "parameters": {"Limit": {"name": "limit", "in": "query", "required": True, "schema": {"type": "integer"},
                                 "description": "How many."},
                       "A": {"$ref": "#/components/parameters/B"}, "B": {"$ref": "#/components/parameters/A"}},
        "responses": {"No": {"description": "Not logged in."}},
        "schemas": {"User": {"type": "object", "required": ["email"], "properties": {
            "email": {"type": "string", "description": "Their email."}, "tags": {"type": "array", "items": {"type": "string"}}}}},
    },
}


def test_an_openapi_page_shows_its_operation_read_from_the_openapi_file(tmp_path, data_regression):
    root = write_site(tmp_path / "repo", {
        "docs.json": json.dumps({"navigation": {"tabs": [{"tab": "API", "openapi": "/spec/api.json", "pages": ["users"]}]}}),
        "spec/api.json": json.dumps(OPENAPI),
        "users.mdx": "---\nopenapi: GET /users\n---\n",
        "create.mdx": "---\ntitle: Make one\nopenapi: /spec/api.json post /users\n---\n\nMore text of the page.\n",
        "loop.mdx": "---\nopenapi: GET /loop\n---\n",
        "gone.mdx": "---\nopenapi: GET /gone\n---\n",
        "gone-with-text.mdx": "---\nopenapi: DELETE /users\n---\n\nText.\n",
    })
    report = build_json(root, tmp_path / "out")
    docs, sections = _rows(tmp_path / "out")
    data_regression.check({
        "not_pages": report["dialect"]["not_pages"],
        "openapi": report["dialect"]["constructs"]["mintlify openapi"],
        "unresolved": report["dialect"]["unresolved"],
        "documents": [{"path": p, "title": t} for p, t, _ in docs],
        "sections": [{"path": p, "text": x} for p, _, x in sections],
    })


def test_an_openapi_file_named_without_its_extension_is_the_configured_file_of_that_name(tmp_path):
    # Trigger.dev's management API pages: ``openapi: "v3-openapi GET /api/v1/runs"`` names the
    # configured v3-openapi.yaml; read as a path, no file held it and all 59 pages were left out.
    other = "openapi: 3.0.0\npaths:\n  /jobs:\n    post:\n      summary: Start a job\n      description: Starts one.\n"
    root = write_site(tmp_path / "repo", {
        "docs.json": json.dumps({"name": "Site", "api": {"openapi": ["openapi.yml", "specs/v3-openapi.yaml"]}}),
        "openapi.yml": other,
        "specs/v3-openapi.yaml": json.dumps(OPENAPI),
        "users.mdx": '---\nopenapi: "v3-openapi GET /users"\n---\n',
        "jobs.mdx": "---\nopenapi: openapi POST /jobs\n---\n",
        "missing.mdx": "---\nopenapi: v4-openapi GET /users\n---\n",
    })
    report = build_json(root, tmp_path / "out")
    docs, sections = _rows(tmp_path / "out")
    assert [(p, t) for p, t, _ in docs] == [("jobs.mdx", "Start a job"), ("users.mdx", "List users")]
    assert any("`limit` (integer, query, required): How many." in x for p, _, x in sections if p == "users.mdx")
    assert [n["path"] for n in report["dialect"]["not_pages"]] == ["missing.mdx"]


@pytest.mark.parametrize("spec", ["{not json", "[]", json.dumps({"paths": []}), json.dumps({"paths": {"/users": 5}}),
                                  json.dumps({"paths": {"/users": {"get": {"parameters": 7, "responses": []}}}})])
def test_a_malformed_openapi_file_is_named_never_a_traceback(tmp_path, spec):
    root = write_site(tmp_path / "repo", {"docs.json": NAMED, "openapi.json": spec,
                                          "users.mdx": "---\nopenapi: GET /users\n---\n\nText.\n"})
    report = build_json(root, tmp_path / "out")
    docs, _ = _rows(tmp_path / "out")
    assert [d[0] for d in docs] == ["users.mdx"]
    notes = report["dialect"]["constructs"]["mintlify openapi"]
    assert notes["resolved"] + notes["unresolved"] == 1
    assert not any("dialect" in u["construct"] for u in report["dialect"]["unresolved"])


def test_snippet_variables_and_the_pages_own_exports_are_their_strings(tmp_path):
    root = write_site(tmp_path / "repo", {
        "docs.json": NAMED,
        "snippets/vars.mdx": "export const product = 'Acme Cloud';\nexport const computed = make();\n"
                             "export const tpl = `v${n}`;\n",
        "page.mdx": (
            "import { product, computed as other, tpl, missing } from '/snippets/vars.mdx'\n"
            "import { secret } from '/../outside.mdx'\nexport const version = \"2.1\"\n\n"
            "# Vars\n\n{product} {version}. Other: {other}. Tpl: {tpl}. Missing: {missing}. Secret: {secret}.\n"
        ),
    })
    (tmp_path / "outside.mdx").write_text("export const secret = 'no';\n", encoding="utf-8")
    report = build_json(root, tmp_path / "out")
    _, sections = _rows(tmp_path / "out")
    assert [x for _, _, x in sections] == ["# Vars\n\nAcme Cloud 2.1. Other: . Tpl: . Missing: . Secret: ."]
    listed = [(u["construct"], u["detail"]) for u in report["dialect"]["unresolved"]]
    assert ("mdx import", "outside the repository, not read: /../outside.mdx") in listed
    assert [d for c, d in listed if c == "mdx expression"] == [
        f"{{{n}}} is JavaScript, not text" for n in ("other", "tpl", "missing", "secret")]


@pytest.mark.parametrize(("source", "kept"), [
    ("import {" * 125_000 + "\n\nText.\n", "Text."),  # named-import openers never closed
    ("export const a = 'x'\n" * 40_000 + "\n" + "{a}" * 100_000 + "\n", "x" * 100_000),  # one read of the exports
    ("import { a } from '" * 50_000 + "\n\nText.\n", "Text."),
])
def test_a_megabyte_of_import_and_export_openers_is_bounded(source, kept):
    ctx = _ctx()
    out = mdx.prepare(source, ctx)
    assert kept in out and len(out) <= len(source)


def test_a_fence_title_scan_reads_each_character_once():
    from contextpull.dialects.mintlify.code_titles import title

    # 60 KB of one word after the language: every position of it was a start before (20 s a page)
    assert title("bash " + "a" * 60_000) == "a" * 60_000
    assert title("bash " + "{" * 60_000) == "{" * 60_000
    assert title('js title="My file" wrap {1,3}') == "My file"
    assert title('js icon="js" highlight={2} helloWorld.js') == "helloWorld.js"


def test_an_array_schema_whose_items_name_itself_ends():
    from contextpull.dialects.mintlify.openapi import MAX_REFS, _type

    spec = {"components": {"schemas": {"Tree": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}}}
    assert _type(spec, {"$ref": "#/components/schemas/Tree"}) == "array" + "[]" * MAX_REFS
