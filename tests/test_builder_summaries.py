"""Model summaries in the Action (issue 17 in builder/): the job summary's figures, a fallback as
an annotation on its file, the ``summarizer`` input's precedence, a missing key said before the
install, and the cache key following every setting that changes the store's bytes.
The runner end to end is in ``test_action_summaries_e2e.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BUILDER = Path(__file__).resolve().parent.parent / "builder"
sys.path.insert(0, str(BUILDER))

import cache_key  # noqa: E402
import file_annotations  # noqa: E402
import gha  # noqa: E402
import run_build  # noqa: E402
import settings_env  # noqa: E402
import step_summary  # noqa: E402
import validate_inputs  # noqa: E402
from builder_reports import REPORT, summarized_report  # noqa: E402

# --- the job summary and the annotations -----------------------------------------------------------


def test_summary_with_model_summaries(file_regression):
    file_regression.check(step_summary.render(summarized_report(failed=2), "docs"), extension=".md")


def test_an_offline_build_shows_no_model_figures():
    text = step_summary.render(REPORT, "docs")
    assert "Summaries" not in text and "Offline summary" not in text
    assert "| Summaries | openai:gpt-test: 2 generated, 1 cached, 0 offline; 2 requests, 0 retries, tokens 80 in, 16 out |" in (
        step_summary.render(summarized_report(), "docs"))


@pytest.mark.parametrize("strict", [False, True], ids=["warning", "strict-error"])
def test_a_fallback_is_an_annotation_on_its_file(strict, data_regression):
    lines = file_annotations.build_annotations(summarized_report(failed=2), "docs", strict=strict)
    fallbacks = [line for line in lines if "ContextPull model summary failed" in line]
    assert len(fallbacks) == 2
    data_regression.check(lines)


def test_fallbacks_are_capped_like_every_kind():
    lines = file_annotations.build_annotations(summarized_report(failed=13), "docs", strict=False)
    assert len([line for line in lines if "model summary failed" in line]) == file_annotations.MAX_PER_KIND
    assert lines[-1] == "::notice::3 more summary fallbacks not annotated here; the job summary lists them all"


def _fake_run(report: dict, returncode: int, seen: dict):
    def run(argv, env=None):
        seen["env"] = env
        return subprocess.CompletedProcess(argv, returncode, json.dumps(report), "")
    return run


def test_strict_refusing_fallbacks_puts_an_error_on_each_file(tmp_path, capsys):
    failed = [{"path": "cache.md", "reason": "HTTP 502 after 4 attempts"}]
    error = {"exit_code": 1, "published": False, "error": "--strict: 1 document(s) kept the offline summary: cache.md",
             "suggestion": "fix the model settings", "summary_failures": failed}
    env = {"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
           "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out", "CONTEXTPULL_ACTION_STRICT": "true"}
    assert run_build.main(env, run=_fake_run(error, 1, {})) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [
        "::error title=ContextPull build failed::strict: true: 1 document(s) kept the offline summary: cache.md"
        " (fix the model settings)",
        "::error file=docs/cache.md,title=ContextPull model summary failed::kept the offline summary: "
        "HTTP 502 after 4 attempts",
    ]
    assert "| `docs/cache.md` | HTTP 502 after 4 attempts |" in (tmp_path / "s").read_text()


# --- the summarizer input and its key ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "job", "expected"),
    [("openai:m", "anthropic:n", "openai:m"), ("", "anthropic:n", "anthropic:n"), ("", "", None)],
    ids=["input-first", "job-variable", "neither"],
)
def test_the_input_goes_before_the_jobs_variable(tmp_path, given, job, expected):
    environ = {"CONTEXTPULL_ACTION_SUMMARIZER": given, "CONTEXTPULL_SUMMARIZER": job}
    assert (settings_env.build_environ(environ).get("CONTEXTPULL_SUMMARIZER") or None) == expected
    seen: dict = {}
    environ.update({"GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
                    "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out"})
    run_build.main(environ, run=_fake_run(REPORT, 0, seen))
    assert (seen["env"].get("CONTEXTPULL_SUMMARIZER") or None) == expected


def test_key_variables_are_the_builds():
    from contextpull.models.spec import HOSTED

    assert settings_env.KEY_VARIABLES == {provider: spec[2] for provider, spec in HOSTED.items()}


@pytest.mark.parametrize(
    ("given", "env", "expected"),
    [
        ("openai:gpt-4o-mini", {}, "input 'summarizer' is 'openai:gpt-4o-mini', which reads its key from "
         "OPENAI_API_KEY, and this step has none; add OPENAI_API_KEY to the step's env: from a secret "
         "(OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}), or leave summarizer empty for offline summaries"),
        ("", {"CONTEXTPULL_SUMMARIZER": "anthropic:claude-haiku-4-5", "OPENAI_API_KEY": "x"},
         "the job's CONTEXTPULL_SUMMARIZER is 'anthropic:claude-haiku-4-5', which reads its key from "
         "ANTHROPIC_API_KEY, and this step has none; add ANTHROPIC_API_KEY to the step's env: from a secret "
         "(ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}), or leave summarizer empty for offline summaries"),
        ("openai:gpt-4o-mini", {"OPENAI_API_KEY": "  "}, "which reads its key from OPENAI_API_KEY"),
        ("openai:gpt-4o-mini", {"OPENAI_API_KEY": "sk-x"}, None),
        ("offline", {"CONTEXTPULL_SUMMARIZER": "openai:m"}, None),
        ("", {}, None),
    ],
    ids=["input", "job-variable", "blank-key", "key-set", "offline-input-wins", "default"],
)
def test_a_missing_key_is_one_problem_in_the_actions_words(tmp_path, given, env, expected):
    (tmp_path / "docs").mkdir()
    inputs = {**{name: "" for name in validate_inputs.INPUTS}, "docs": "docs", "out": "out", "summarizer": given,
              "update-golden": "false", "strict": "false", "cache": "true", "overwrite": "false", "attest": "auto"}
    problems, _ = validate_inputs.validate(inputs, tmp_path, env)
    if expected is None:
        assert problems == []
    else:
        assert len(problems) == 1 and expected in problems[0]


# --- the cache key ----------------------------------------------------------------------------------


def _prefix(tmp_path: Path, monkeypatch, **env: str) -> str:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "a.md").write_text("# A\n\nText.\n")
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "output"
    target.write_text("")
    assert cache_key.main({"CONTEXTPULL_ACTION_DOCS": "docs", "RUNNER_TEMP": str(tmp_path), "GITHUB_OUTPUT": str(target),
                           **env}) == 0
    return gha.parse_output_file(target.read_text())["restore-prefix"]


def test_the_cache_key_follows_every_setting_that_changes_the_bytes(tmp_path, monkeypatch):
    offline = _prefix(tmp_path, monkeypatch)
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_SUMMARIZER="offline") == offline  # the default, said
    # No restore across summarizers, whichever way the setting arrives.
    summarized = _prefix(tmp_path, monkeypatch, CONTEXTPULL_ACTION_SUMMARIZER="openai:gpt-test")
    assert summarized != offline
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_SUMMARIZER="openai:gpt-test") == summarized
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_SUMMARIZER="openai:gpt-other") not in (offline, summarized)
    # The embedding model is a resolved setting too; never the worker count or the Action's inputs.
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_EMBED_MODEL="local:minilm") != offline
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_JOBS="2", CONTEXTPULL_SUMMARY_CONCURRENCY="3",
                   CONTEXTPULL_ACTION_STRICT="true") == offline


def test_the_cache_key_hashes_the_resolved_settings_and_nothing_else(tmp_path, monkeypatch):
    """A variable no setting reads changes no byte, so it must not split the cache; the
    embedding model, from the environment or from pyproject.toml, does."""
    offline = _prefix(tmp_path, monkeypatch)
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_NOT_A_SETTING="x", CONTEXTPULL_PORT="9000") == offline
    (tmp_path / "docs" / "pyproject.toml").write_text('[tool.contextpull]\nembed_model = "local:minilm"\n')
    assert _prefix(tmp_path, monkeypatch) != offline


def test_a_missing_key_from_pyproject_is_said_in_the_actions_words(tmp_path):
    """The first step sees only the input and the job's variable; a summarizer in the docs'
    pyproject.toml meets its missing key in the build, whose hint is reworded."""
    from contextpull.errors import ModelSettingError
    from contextpull.models.spec import endpoint, parse

    spec = parse("openai:gpt-test", setting="summarizer", providers=("openai", "anthropic"))
    with pytest.raises(ModelSettingError) as info:
        endpoint(spec, setting="summarizer", environ={})
    message = run_build.action_words(f"{info.value.message} ({info.value.suggestion})")
    assert message.endswith("(add OPENAI_API_KEY to the step's env: from a secret, "
                            "or leave summarizer unset for the offline default)")
