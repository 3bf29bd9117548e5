"""``serve``'s sources: ``NAME=SOURCE``, the ``--catalog`` file, names and ``gh:`` (issue 27).

A bad catalog or a clash of names is one line naming the file and the entry (or both sources),
found before anything is fetched; these run in process through click's runner where the CLI
speaks.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from contextpull.cli import cli
from contextpull.errors import ConfigError
from contextpull.serving.catalog import MountSpec, check_names, parse_argument, read_catalog
from contextpull.serving.refresh import parse_duration
from contextpull.cli.remotes import remotes
from contextpull.serving.sources import GITHUB_ENV, expand

pytest.importorskip("mcp")


@pytest.mark.parametrize(
    ("text", "name", "source"),
    [
        ("uv=docs/store.sqlite", "uv", "docs/store.sqlite"),
        ("uv@0.9=gh:astral-sh/uv@0.9", "uv@0.9", "gh:astral-sh/uv@0.9"),
        ("docs/store.sqlite", None, "docs/store.sqlite"),
        ("https://example.org/s.sqlite?a=b", None, "https://example.org/s.sqlite?a=b"),
        ("./a=b", None, "./a=b"),
    ],
)
def test_name_equals_source(text, name, source):
    spec = parse_argument(text, 1)
    assert (spec.name, spec.source) == (name, source)


def test_a_catalog_lists_mounts_with_paths_relative_to_it(tmp_path):
    catalog = tmp_path / "team" / "docs.toml"
    catalog.parent.mkdir()
    catalog.write_text(
        '# our docs\n[[mount]]\nname = "uv"\nsource = "gh:astral-sh/uv@0.9.0"\n'
        f'sha256 = "{"AB" * 32}"\n\n[[mount]]\nsource = "stores/flask.sqlite"\n',
        encoding="utf-8",
    )
    specs = read_catalog(catalog)
    assert specs == [
        MountSpec("gh:astral-sh/uv@0.9.0", "uv", "ab" * 32, f"catalog {catalog}, mount 1"),
        MountSpec(str(catalog.parent / "stores" / "flask.sqlite"), None, None, f"catalog {catalog}, mount 2"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[mount]]\nname = \"uv\"\n", "mount 1: missing source"),
        ("[[mount]]\nsource = \"a.sqlite\"\nurl = \"x\"\n", "mount 1: unknown key 'url'"),
        ("[[mount]]\nsource = \"a\"\n[[mount]]\nsource = \"b\"\nname = \"a/b\"\n", "mount 2: bad mount name 'a/b'"),
        ("[[mount]]\nsource = \"gh:o/r@t\"\nsha256 = \"abc\"\n", "mount 1: sha256 is not 64 hex digits"),
        ("[[mount]]\nsource = \"a.sqlite\"\nsha256 = \"" + "0" * 64 + "\"\n", "mount 1: sha256 applies to a URL"),
        ("[[mount]]\nsource = 3\n", "mount 1: source must be a string"),
        ("[mount]\nsource = \"a\"\n", "mount must be [[mount]] entries"),
        ("mount = [3]\n", "mount 1: must be a table"),
        ("", "has no [[mount]] entries"),
        ("[[mount]\n", "is not valid TOML"),
    ],
)
def test_a_bad_catalog_is_one_line_naming_the_file_and_entry(tmp_path, text, message):
    catalog = tmp_path / "docs.toml"
    catalog.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_catalog(catalog)
    assert message in caught.value.message and str(catalog) in caught.value.message


def test_a_bad_catalog_through_the_cli_is_one_line_and_exit_2(tmp_path):
    catalog = tmp_path / "docs.toml"
    catalog.write_text("[[mount]]\nname = \"uv\"\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["serve", "--catalog", str(catalog)])
    assert result.exit_code == 2
    assert f"catalog {catalog}, mount 1: missing source" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 2


def test_a_missing_catalog_names_the_file(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--catalog", str(tmp_path / "none.toml")])
    assert result.exit_code == 2 and "none.toml does not exist" in result.stderr


def test_two_mounts_with_one_name_are_a_usage_error_naming_both():
    with pytest.raises(ConfigError) as caught:
        check_names([("uv", "a.sqlite (argument 1)"), ("flask", "b (argument 2)"), ("uv", "c.sqlite (argument 3)")])
    assert "'uv' is used twice: by a.sqlite (argument 1) and by c.sqlite (argument 3)" in caught.value.message
    assert caught.value.exit_code == 2


def test_a_name_clash_through_the_cli_exits_2_and_names_both(tmp_path):
    from mcp_fixtures import corpus_store

    one = corpus_store(tmp_path, "store.sqlite")
    (tmp_path / "b").mkdir()
    two = corpus_store(tmp_path / "b", "store.sqlite")
    result = CliRunner().invoke(cli, ["serve", str(one), str(two)])
    assert result.exit_code == 2
    assert f"'store' is used twice: by {one} (argument 1" in result.stderr and f"by {two} (argument 2" in result.stderr


def test_no_source_at_all_is_a_usage_error():
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 2 and "give a SOURCE" in result.stderr


def test_gh_shorthand_is_the_actions_release_asset(monkeypatch):
    assert expand("gh:astral-sh/uv@docs-latest") == "https://github.com/astral-sh/uv/releases/download/docs-latest/store.sqlite"
    assert remotes({}).github_url == "https://github.com"
    base = remotes({GITHUB_ENV: "http://127.0.0.1:9/"}).github_url
    assert expand("gh:o/r@v1.2.0", base) == "http://127.0.0.1:9/o/r/releases/download/v1.2.0/store.sqlite"
    with pytest.raises(Exception, match="is not gh:OWNER/REPO@TAG"):
        expand("gh:just-a-name")


@pytest.mark.parametrize(("text", "seconds"), [("30s", 30.0), ("10m", 600.0), ("1h", 3600.0), ("250ms", 0.25)])
def test_refresh_durations(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["10", "0s", "-1m", "soon", "1d"])
def test_a_bad_refresh_duration_names_the_value(text):
    with pytest.raises(ConfigError, match=f"--refresh '{text}' is not a duration"):
        parse_duration(text)


def test_python_310_reads_the_same_catalog_without_tomllib(tmp_path):
    from contextpull.serving.catalog import _parse, _parse_fallback

    text = '# team docs\n[[mount]]\nname = "uv"  # pinned\nsource = "gh:astral-sh/uv@0.9.0"\n\n[[mount]]\nsource = "a.sqlite"\n'
    assert _parse_fallback(text, tmp_path / "c.toml") == _parse(text, tmp_path / "c.toml")
    with pytest.raises(ConfigError, match="line 1: expected"):
        _parse_fallback("source = 'a'\n", tmp_path / "c.toml")


def test_refresh_without_a_url_to_follow_is_a_usage_error(tmp_path):
    from mcp_fixtures import corpus_store

    store = corpus_store(tmp_path)
    for args in ([str(store)], [f"a={store}", f"b={store}"]):
        result = CliRunner().invoke(cli, ["serve", *args, "--refresh", "10m"])
        assert result.exit_code == 2, result.stderr
        assert "--refresh follows URL or gh: sources without a sha256 pin" in result.stderr
    result = CliRunner().invoke(cli, ["serve", str(store), "--refresh", "often"])
    assert result.exit_code == 2 and "--refresh 'often' is not a duration" in result.stderr
