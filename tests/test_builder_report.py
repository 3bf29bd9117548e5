"""builder/ turns a build report into outputs, a job summary and file annotations (issue 5, item 3).

The reports here (tests/builder_reports.py) are in the shape of the build report
(``contextpull/artifact/report.py``); the end-to-end test (test_action_e2e.py) feeds the real one.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

BUILDER = Path(__file__).resolve().parent.parent / "builder"
sys.path.insert(0, str(BUILDER))

import file_annotations  # noqa: E402
import gha  # noqa: E402
import run_build  # noqa: E402
import step_summary  # noqa: E402
from builder_reports import REPORT, drift_report  # noqa: E402


# --- gha: workflow commands -------------------------------------------------------------------

def test_output_blocks_round_trip_any_value():
    values = {"plain": "flat", "multi": "line one\nline two\n", "tricky": "EOF\n=x<<y", "empty": ""}
    text = "".join(gha.output_block(k, v) for k, v in values.items())
    assert gha.parse_output_file(text) == values


def test_annotation_escapes_message_and_properties():
    line = gha.annotation("warning", "50% done\nnext", file="docs/a,b:c.md", title="T")
    assert line == "::warning file=docs/a%2Cb%3Ac.md,title=T::50%25 done%0Anext"
    assert "\n" not in line


@pytest.mark.parametrize("word, value", [("true", True), ("FALSE", False), (" True ", True)])
def test_parse_bool_accepts_true_and_false(word, value):
    assert gha.parse_bool("strict", word) is value


def test_parse_bool_names_the_input_and_the_bad_value():
    with pytest.raises(gha.InputProblem) as info:
        gha.parse_bool("strict", "maybe")
    assert str(info.value) == "input 'strict' must be true or false, got 'maybe'"


# --- outputs -------------------------------------------------------------------------------------

def test_every_step_output_comes_from_the_report():
    outputs = run_build.outputs_from_report(REPORT)
    assert set(run_build.OUTPUT_NAMES) | set(run_build.INTERNAL_OUTPUTS) == set(outputs)
    assert outputs["sha256"] == "ab" * 32
    assert outputs["content-fingerprint"] == "cd" * 32
    assert outputs["corpus-fingerprint"] == "c0" * 8
    assert (outputs["documents"], outputs["sections"], outputs["index-mode"]) == ("3", "11", "flat")
    assert outputs["golden"] == "match"
    assert outputs["store-path"] == "out/store.sqlite"
    assert outputs["sha256-path"] == "out/store.sqlite.sha256"


def test_golden_output_is_none_without_a_golden_check():
    report = copy.deepcopy(REPORT)
    del report["golden"]
    assert run_build.outputs_from_report(report)["golden"] == "none"


def test_outputs_written_to_github_output_file(tmp_path):
    target = tmp_path / "out.txt"
    gha.write_outputs(run_build.outputs_from_report(REPORT), {"GITHUB_OUTPUT": str(target)})
    assert gha.parse_output_file(target.read_text())["index-mode"] == "flat"


# --- command line ----------------------------------------------------------------------------------

def test_build_command_maps_inputs_to_flags(tmp_path):
    cache = tmp_path / "store.sqlite"
    cache.write_bytes(b"x")
    env = {
        "CONTEXTPULL_ACTION_DOCS": "-docs-that-looks-like-a-flag",
        "CONTEXTPULL_ACTION_OUT": "out",
        "CONTEXTPULL_ACTION_GOLDEN": "golden",
        "CONTEXTPULL_ACTION_UPDATE_GOLDEN": "true",
        "CONTEXTPULL_ACTION_STRICT": "True",
        "CONTEXTPULL_ACTION_CACHE_FILE": str(cache),
    }
    argv = run_build.build_command("py", env)
    assert argv[:5] == ["py", "-m", "contextpull", "build", "--json"]
    assert argv[-2:] == ["--", "-docs-that-looks-like-a-flag"]
    assert ["--golden", "golden"] == argv[argv.index("--golden"):argv.index("--golden") + 2]
    assert "--update-golden" in argv and "--strict" in argv
    assert argv[argv.index("--cache") + 1] == str(cache)


def test_build_command_leaves_out_a_cache_that_was_not_restored(tmp_path):
    env = {"CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out",
           "CONTEXTPULL_ACTION_CACHE_FILE": str(tmp_path / "missing.sqlite")}
    argv = run_build.build_command("py", env)
    assert "--cache" not in argv and "--golden" not in argv and "--strict" not in argv


def test_failure_message_prefers_the_cli_error_line():
    stderr = "warming up\nError: DOCS folder 'nope' does not exist (pass an existing folder)\n"
    assert run_build.failure_message(3, stderr, None) == "DOCS folder 'nope' does not exist (pass an existing folder)"
    report = {"error": {"message": "bad cache", "suggestion": "delete it"}}
    assert run_build.failure_message(3, "", report) == "bad cache (delete it)"
    flat = {"exit_code": 3, "error": "no usable documents", "suggestion": "add .md files"}
    assert run_build.failure_message(3, "Error: no usable documents (add .md files)", flat) == (
        "no usable documents (add .md files)")
    assert "exit code 3" in run_build.failure_message(3, "Traceback\nBoom\n", None)


def test_parse_report_tolerates_noise_and_rejects_non_json():
    assert run_build.parse_report("progress\n" + '{"exit_code": 0}') == {"exit_code": 0}
    assert run_build.parse_report("") is None
    assert run_build.parse_report("not json") is None


# --- annotations -------------------------------------------------------------------------------------

def test_skipped_file_is_a_warning_on_that_file():
    lines = file_annotations.build_annotations(REPORT, "docs", strict=False)
    assert lines == ["::warning file=docs/sub/bad%2Cname.md,title=ContextPull skipped a file::"
                     "not in the store: not valid text:%0Abinary"]


def test_strict_turns_skips_into_errors():
    lines = file_annotations.build_annotations(REPORT, "docs", strict=True)
    assert lines[0].startswith("::error file=docs/sub/bad%2Cname.md")


def test_drift_annotates_each_id_on_its_document():
    lines = file_annotations.build_annotations(drift_report(added=1, removed=1, changed=1), "docs/", strict=False)
    assert lines[0].startswith("::error title=ContextPull golden drift::")
    assert "1 section ids added, 1 removed, 1 changed" in lines[0]
    assert any(line.startswith("::error file=docs/guide.md,") and "guide.md#0 no longer exists" in line for line in lines)
    assert any(line.startswith("::error file=docs/ref/api.md,") and "ref/api.md#0 changed" in line for line in lines)
    assert any(line.startswith("::warning file=docs/new/doc0.md,") for line in lines)


def test_at_most_ten_of_a_kind_and_a_notice_for_the_rest():
    lines = file_annotations.build_annotations(drift_report(added=3, removed=25, changed=12), ".", strict=False)
    removed = [line for line in lines if "Section id removed" in line]
    changed = [line for line in lines if "Section text changed" in line]
    added = [line for line in lines if "Section id added" in line]
    assert (len(removed), len(changed), len(added)) == (10, 10, 3)
    assert removed[0].startswith("::error file=guide.md,")  # docs "." adds no prefix
    assert lines[-1] == ("::notice::15 more removed ids, 2 more changed ids not annotated here; "
                         "the job summary lists them all")


def test_updated_golden_is_a_notice():
    report = copy.deepcopy(REPORT)
    report["golden"]["status"] = "updated"
    lines = file_annotations.build_annotations(report, "docs", strict=False)
    assert lines[0].startswith("::notice title=ContextPull golden updated::")


# --- summary ---------------------------------------------------------------------------------------

def test_summary_shows_counts_index_fingerprints_and_skips():
    text = step_summary.render(REPORT, "docs")
    assert text.startswith("## ContextPull store: golden match\n")
    assert "| Documents | 3 |" in text and "| Sections | 11 |" in text
    assert "| Index | flat, 321 tokens of 3000 |" in text
    assert "`" + "cd" * 32 + "`" in text and "`" + "c0" * 8 + "`" in text
    assert "| `docs/sub/bad,name.md` | not valid text: binary |" in text
    assert "Golden drift" not in text


def test_summary_lists_every_drifted_id_and_the_index_diff():
    text = step_summary.render(drift_report(added=2, removed=25, changed=1), "docs")
    assert "## ContextPull store: golden drift" in text
    assert "2 section ids added, 25 removed, 1 with changed text" in text
    assert "Ids removed (25)" in text and all(f"`guide.md#{i}`" in text for i in range(25))
    assert "`ref/api.md#0`" in text and "`new/doc1.md#0`" in text
    assert "```diff\n--- golden/index.txt\n+++ built\n-old line\n+new line\n```" in text
    assert "update-golden: true" in text


def test_summary_cells_cannot_break_the_table():
    assert step_summary.cell("a|b\nc") == "a\\|b c"


def test_a_code_span_shows_a_backslash_as_it_is():
    assert step_summary.code("docs/back\\slash|x.docx") == "`docs/back\\slash\\|x.docx`"


def test_the_artifact_link_text_cannot_close_the_link_early():
    import artifact_link

    line = artifact_link.summary_line("docs] see [evil", "https://example.org/a/1")
    # After a blank line: right after the build's table it would render as one more row.
    assert line == "\nArtifact: [docs\\] see \\[evil](https://example.org/a/1)\n"


@pytest.mark.parametrize("returncode, status", [(-15, 143), (-9, 137), (-2, 130), (0, 0), (3, 3)])
def test_a_build_killed_by_a_signal_exits_as_a_shell_reports_it(returncode, status):
    assert run_build.exit_status(returncode) == status


def test_strict_skips_are_annotated_on_their_files_though_nothing_was_published(tmp_path, capsys):
    import json

    skipped = [{"path": f"guide/broken{n}.docx", "reason": "not a zip file"} for n in range(12)]
    error = {"exit_code": 1, "published": False, "error": "--strict: 12 file(s) skipped: ...",
             "suggestion": "fix or remove them", "skipped": skipped}
    env = {"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
           "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out", "CONTEXTPULL_ACTION_STRICT": "true"}
    assert run_build.main(env, run=_fake_run(json.dumps(error), 1)) == 1
    out = capsys.readouterr().out.splitlines()
    on_files = [line for line in out if line.startswith("::error file=docs/guide/broken")]
    assert len(on_files) == 10 and on_files[0].startswith("::error file=docs/guide/broken0.docx,")
    assert any(line.startswith("::notice::2 more skipped files") for line in out)
    summary = (tmp_path / "s").read_text()
    assert "### Skipped files (12)" in summary and "`docs/guide/broken11.docx`" in summary


def test_the_running_line_never_lets_an_input_start_a_line(tmp_path, capsys):
    env = {"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
           "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out\n::error::forged"}
    run_build.main(env, run=_fake_run("", 3, "Error: x\n"))
    out = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("::error::forged") for line in out)
    assert out[0] == "Running: contextpull build --json --out 'out\\n::error::forged' -- docs"


# --- the step as a whole, with the build replaced ---------------------------------------------------

def _fake_run(report_text: str, returncode: int, stderr: str = ""):
    def run(argv, env=None):
        return subprocess.CompletedProcess(argv, returncode, report_text, stderr)
    return run


def test_main_writes_outputs_summary_and_propagates_drift(tmp_path, capsys, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    env = {"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
           "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out"}
    code = run_build.main(env, run=_fake_run(json.dumps(drift_report(changed=1)), 1))
    assert code == 1
    outputs = gha.parse_output_file((tmp_path / "o").read_text())
    assert outputs["golden"] == "drift"
    assert "Golden drift" in (tmp_path / "s").read_text()
    assert "::error file=docs/ref/api.md," in capsys.readouterr().out


def test_main_turns_a_failed_build_into_one_error_line(tmp_path, capsys):
    env = {"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
           "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out"}
    code = run_build.main(env, run=_fake_run("", 3, "Error: DOCS is empty (add documents)\n"))
    assert code == 3
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    # In the Action's words: the user set the input docs, not the argument DOCS.
    assert errors == ["::error title=ContextPull build failed::the docs folder is empty (add documents)"]
    assert "build failed" in (tmp_path / "s").read_text()


def test_main_copies_a_clean_store_to_the_cache_path(tmp_path):
    import json

    store = tmp_path / "out" / "store.sqlite"
    store.parent.mkdir()
    store.write_bytes(b"store bytes")
    report = copy.deepcopy(REPORT)
    report["paths"]["store"] = str(store)
    cache = tmp_path / "cache" / "store.sqlite"
    env = {"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
           "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out",
           "CONTEXTPULL_ACTION_CACHE_FILE": str(cache)}
    assert run_build.main(env, run=_fake_run(json.dumps(report), 0)) == 0
    assert cache.read_bytes() == b"store bytes"


def test_annotations_use_repository_relative_paths():
    assert run_build.annotation_root("/home/runner/work/repo/docs", "/home/runner/work/repo") == "docs"
    assert run_build.annotation_root("docs/en", "/home/runner/work/repo") == "docs/en"
    assert run_build.annotation_root("/elsewhere/docs", "/home/runner/work/repo") == "/elsewhere/docs"


def test_summary_says_what_the_cache_saved_and_how_long_it_took():
    report = copy.deepcopy(REPORT)
    report["cache"] = {"reuse": "documents", "reused_documents": 7, "parsed_documents": 1}
    text = step_summary.render(report, "docs")
    assert "| Cache | reused 7 unchanged documents, parsed 1 |" in text
    assert "| Build time | 0.1 s |" in text
    assert "| Cache |" not in step_summary.render(REPORT, "docs")
    report["cache"].update(copied_chunks=19, indexed_chunks=1, patched=True, kept_documents=40)
    text = step_summary.render(report, "docs")
    assert "| Cache | reused 7 unchanged documents, parsed 1; kept 19 of 20 index chunks |" in text


def test_build_warnings_become_warning_annotations():
    report = copy.deepcopy(REPORT)
    report["warnings"] = ["--cache x.sqlite is not a store; ignored"]
    lines = file_annotations.build_annotations(report, "docs", strict=False)
    assert "::warning title=ContextPull build::--cache x.sqlite is not a store; ignored" in lines
