"""Model summaries through the whole Action, without GitHub (issue 17 in the Action).

``action_runner.run_action`` runs ``action.yml`` with a loopback stand-in for the provider: the
``summarizer`` input wins over the job's ``CONTEXTPULL_SUMMARIZER``, a fallback is a warning on its
file, the figures are in the job summary, and a sentinel key is in nothing the runner keeps
(outputs, the job summary, each step's log, any file it wrote). A missing key stops the Action in
its first step with one error in a workflow file's words.
"""

from __future__ import annotations

import pytest

from action_runner import run_action
from loopback_api import LoopbackAPI, Reply
from summary_helpers import SENTINEL, env_for, model, title_of, write_corpus


def test_a_summarized_build_reports_its_figures_and_never_its_key(tmp_path):
    workspace, temp = tmp_path / "ws", tmp_path / "temp"
    write_corpus(workspace / "docs")
    temp.mkdir()
    # The provider echoes the key in its error for one document: that document falls back.
    leaky = lambda r: Reply(400, {"error": f"bad key {SENTINEL}"}) if title_of(r) == "Tools" else model()(r)  # noqa: E731
    with LoopbackAPI(leaky) as api:
        env = env_for(api, CONTEXTPULL_SUMMARIZER="offline")  # the job's variable; the input goes first
        run = run_action(workspace, temp, {"summarizer": "openai:gpt-test", "cache": "false"}, env=env)
    assert run.code == 0, run.stdout + run.steps["build"].stderr
    assert len(api.requests) == 3
    assert "| Summaries | openai:gpt-test: 2 generated, 0 cached, 1 offline; 3 requests, 0 retries," in run.summary
    assert "### Offline summary fallbacks (1)" in run.summary and "| `docs/tools.md` |" in run.summary
    [warning] = [line for line in run.lines("::warning") if "model summary failed" in line]
    assert warning.startswith("::warning file=docs/tools.md,title=ContextPull model summary failed::kept the offline summary")

    logs = [step.stdout + step.stderr for step in run.steps.values()] + [str(run.outputs), run.summary]
    assert all(SENTINEL not in text for text in logs)
    written = [p for root in (temp, workspace / "contextpull-store") for p in root.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {"step-summary.md", "store.sqlite", "manifest.json"}
    assert any(p.name.startswith("output-") for p in written)  # each step's GITHUB_OUTPUT
    for path in written:
        assert SENTINEL.encode() not in path.read_bytes(), path


@pytest.mark.parametrize(
    ("inputs", "env", "said"),
    [
        ({"summarizer": "openai:gpt-test"}, {}, "input 'summarizer' is 'openai:gpt-test'"),
        ({}, {"CONTEXTPULL_SUMMARIZER": "anthropic:claude-test"}, "the job's CONTEXTPULL_SUMMARIZER is 'anthropic:claude-test'"),
    ],
    ids=["input", "job-variable"],
)
def test_a_missing_key_is_one_error_before_anything_is_installed(tmp_path, inputs, env, said):
    workspace = tmp_path / "ws"
    write_corpus(workspace / "docs")
    run = run_action(workspace, tmp_path, inputs, env=env)
    assert run.code == 3
    [error] = run.lines("::error")
    assert error.startswith("::error::" + said) and "to the step's env: from a secret" in error
    assert run.steps["inputs"].outcome == "failure"
    assert run.steps["install"].outcome == "skipped" and run.steps["build"].outcome == "skipped"
