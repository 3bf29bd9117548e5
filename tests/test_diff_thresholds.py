"""``contextpull diff --max-removed/--max-shrink``: content loss fails a pipeline (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from artifact_helpers import clean_env, quiet_build
from contextpull.checks.diff import diff_stores, natural
from contextpull.checks.thresholds import BadThreshold, Limit, Thresholds, parse_removed
from contextpull.cli import cli


def _page(i: int) -> str:
    return f"# Page {i}\n\nThis page explains topic {i} in some detail, with enough words to count.\n"


def _corpus(root: Path, names: list[str]) -> Path:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_page(len(name) * 7 + sum(map(ord, name)) % 97), encoding="utf-8")
    return root


def _store(tmp_path: Path, label: str, names: list[str]) -> Path:
    docs = _corpus(tmp_path / f"{label}-docs", names)
    quiet_build(docs, tmp_path / label)
    return tmp_path / label / "store.sqlite"


TWENTY = [f"topics/page{i}.md" for i in range(1, 21)]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("thresholds")
    return {
        "old": _store(tmp, "old", TWENTY),
        "lost60": _store(tmp, "lost60", TWENTY[:8]),
        "lost5": _store(tmp, "lost5", TWENTY[:19]),
        "renamed": _store(tmp, "renamed", [n.replace("topics/", "manual/") for n in TWENTY]),
    }


def _diff(stores, new, *options, fmt="text"):
    return CliRunner().invoke(cli, ["diff", str(stores["old"]), str(stores[new]), "--format", fmt, *options], env=clean_env())


def test_losing_60_percent_of_documents_fails_at_20_percent(stores):
    result = _diff(stores, "lost60", "--max-removed", "20%")
    assert result.exit_code == 1
    error = result.stderr.strip().splitlines()
    assert len(error) == 1
    assert "documents removed 12 of 20 (60.0%) is over --max-removed documents=20%" in error[0]
    assert "sections removed" in error[0] and "text removed" in error[0]
    assert "documents removed: 12 of 20 (60.0%); limit 20% (over)" in result.stdout


def test_losing_5_percent_passes_at_20_percent(stores):
    result = _diff(stores, "lost5", "--max-removed", "20%", "--max-shrink", "20")
    assert result.exit_code == 0, result.output
    assert "documents removed: 1 of 20 (5.0%); limit 20%\n" in result.stdout
    assert result.stderr == ""


def test_a_folder_rename_trips_the_document_guard_not_the_shrink_guard(stores):
    d = diff_stores(stores["old"], stores["renamed"])
    assert len(d.docs_removed) == 20 and len(d.docs_added) == 20
    assert all(p.startswith("topics/") for p in d.docs_removed)
    assert d.new_size.bytes == d.old_size.bytes
    result = _diff(stores, "renamed", "--max-removed", "documents=20%", "--max-shrink", "5%")
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: documents removed 20 of 20 (100.0%) is over --max-removed documents=20%"
    assert "text shrink: 0.0% (0 of" in result.stdout
    assert _diff(stores, "renamed", "--max-shrink", "5%").exit_code == 0


def test_counts_apply_to_documents_and_sections(stores):
    assert _diff(stores, "lost5", "--max-removed", "1").exit_code == 0
    result = _diff(stores, "lost5", "--max-removed", "0")
    assert result.exit_code == 1
    assert "documents removed 1 of 20 (5.0%) is over --max-removed documents=0" in result.stderr
    assert "text removed" not in result.stderr  # a bare count is not a byte limit
    assert _diff(stores, "lost5", "--max-removed", "0", "--max-removed", "documents=1,sections=1").exit_code == 0


def test_a_text_limit_is_in_bytes(stores):
    d = diff_stores(stores["old"], stores["lost5"])
    removed = d.text_removed
    assert removed > 0
    assert _diff(stores, "lost5", "--max-removed", f"text={removed}").exit_code == 0
    assert _diff(stores, "lost5", "--max-removed", f"text={removed - 1}").exit_code == 1


@pytest.mark.parametrize(
    "value, message",
    [
        ("x%", "'x%' is not a count or a percentage"),
        ("120%", "over 100%"),
        ("pages=3", "unknown measure 'pages'"),
        ("2.5", "a count is a whole number"),
        ("documents=", "is not a count or a percentage"),
    ],
)
def test_bad_values_are_usage_errors_naming_the_option(stores, value, message):
    result = _diff(stores, "lost5", "--max-removed", value)
    assert result.exit_code == 2
    assert "--max-removed" in result.stderr and message in result.stderr


def test_bad_shrink_is_a_usage_error(stores):
    result = _diff(stores, "lost5", "--max-shrink", "ten")
    assert result.exit_code == 2 and "--max-shrink" in result.stderr


def test_parse_removed():
    assert parse_removed(["20%"]) == {m: Limit(20, True) for m in ("documents", "sections", "text")}
    assert parse_removed(["5"]) == {"documents": Limit(5, False), "sections": Limit(5, False)}
    assert parse_removed(["20%", "text=4096"])["text"] == Limit(4096, False)
    assert Thresholds.parse(["documents=10%"], "7%").shrink == 7.0
    with pytest.raises(BadThreshold):
        parse_removed(["10%,,5"])


def test_json_report_shows_each_measure_with_its_limit(stores):
    result = _diff(stores, "lost60", "--max-removed", "documents=20%", "--max-shrink", "90", fmt="json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    by_name = {m["measure"]: m for m in data["measures"]}
    assert by_name["documents removed"] == {"measure": "documents removed", "value": 12, "of": 20, "percent": 60.0, "limit": "20%", "failed": True}
    assert by_name["sections removed"]["limit"] is None and not by_name["sections removed"]["failed"]
    assert by_name["text shrink"]["limit"] == "90%" and not by_name["text shrink"]["failed"]
    assert data["failed"] == ["documents removed"]
    assert data["text"]["old"]["documents"] == 20 and data["text"]["new"]["documents"] == 8
    assert len(data["most_lost"]) == 10


def test_markdown_leads_with_the_measures_and_folds_lists(stores):
    result = _diff(stores, "lost60", "--max-removed", "20%", fmt="markdown")
    md = result.stdout
    assert md.index("| text bytes |") < md.index("| documents | 0 | 12 |")
    assert md.index("**Guard failed:**") < md.index("| text bytes |")
    assert "Documents that lost the most text (10 of 12):" in md
    assert "<details><summary>Documents removed (12)</summary>" in md
    removed = [line[3:-1] for line in md.split("<summary>Documents removed")[1].split("</details>")[0].splitlines() if line.startswith("- `")]
    assert removed == [f"topics/page{i}.md" for i in range(9, 21)]  # page9 before page10


def test_natural_order():
    assert natural(["a.md#10", "a.md#2", "b.md#1", "a.md#1"]) == ["a.md#1", "a.md#2", "a.md#10", "b.md#1"]


# -- the same limits in build ------------------------------------------------------------------
def _build(docs: Path, out: Path, *options: str):
    return CliRunner().invoke(cli, ["build", str(docs), "--out", str(out), *options], env=clean_env())


def test_build_against_its_cache_fails_after_publishing(tmp_path):
    docs = _corpus(tmp_path / "docs", TWENTY)
    out = tmp_path / "out"
    assert _build(docs, out).exit_code == 0
    for name in TWENTY[8:]:
        (docs / name).unlink()
    result = _build(docs, out, "--cache", str(out / "store.sqlite"), "--max-removed", "20%")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1].startswith("Error: documents removed 12 of 20 (60.0%) is over --max-removed documents=20%")
    assert "content-loss guard against" in result.stdout and ": failed" in result.stdout
    assert "built " in result.stdout and "8 documents" in result.stdout  # the artifact is there to inspect
    from contextpull.store import Store

    with Store.open(out / "store.sqlite") as store:
        assert store.counts()[0] == 8


def test_build_against_a_base_store_passes_a_small_loss(tmp_path):
    base_docs = _corpus(tmp_path / "base", TWENTY)
    assert _build(base_docs, tmp_path / "base-out").exit_code == 0
    docs = _corpus(tmp_path / "docs", TWENTY[:19])
    result = CliRunner().invoke(
        cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--base-store", str(tmp_path / "base-out" / "store.sqlite"), "--json"],
        env=clean_env(CONTEXTPULL_MAX_REMOVED="20%", CONTEXTPULL_MAX_SHRINK="10"),
    )
    assert result.exit_code == 0, result.output
    guard = json.loads(result.stdout)["guard"]
    assert guard["status"] == "passed" and guard["failure"] == ""
    assert [m["limit"] for m in guard["measures"]] == ["20%", "20%", "20%", "10%"]


def test_build_without_a_base_has_no_guard_and_bad_settings_name_their_source(tmp_path):
    docs = _corpus(tmp_path / "docs", TWENTY[:3])
    result = CliRunner().invoke(cli, ["build", str(docs), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "none.sqlite"),
                                      "--max-removed", "1", "--json"], env=clean_env())
    assert result.exit_code == 0, result.output
    assert "guard" not in json.loads(result.stdout)
    (docs / "pyproject.toml").write_text('[tool.contextpull]\nmax_removed = "lots"\n', encoding="utf-8")
    result = _build(docs, tmp_path / "out")
    assert result.exit_code == 2
    assert "max_removed" in result.stderr and "pyproject.toml" in result.stderr
    assert _build(docs, tmp_path / "out2", "--max-shrink", "x%").exit_code == 2
