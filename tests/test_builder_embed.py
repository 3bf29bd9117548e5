"""The Action's ``embed-model`` input (issue 38): it goes before the job's variable into the build
and the cache key, installs requirements-embed.lock only for the local model the Action offers,
and a model it cannot run is one problem said before the install."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import cache_key  # noqa: E402
import gha  # noqa: E402
import run_build  # noqa: E402
import settings_env  # noqa: E402
import validate_inputs  # noqa: E402
from builder_reports import REPORT  # noqa: E402


def _validate(tmp_path: Path, given: str, env: dict) -> tuple[list[str], dict]:
    (tmp_path / "docs").mkdir(exist_ok=True)
    inputs = {**{name: "" for name in validate_inputs.INPUTS}, "docs": "docs", "out": "out", "embed-model": given,
              "update-golden": "false", "strict": "false", "cache": "true", "overwrite": "false", "attest": "auto"}
    return validate_inputs.validate(inputs, tmp_path, env)


@pytest.mark.parametrize(
    ("given", "env", "lock"),
    [
        ("local:minilm-static", {}, "true"),
        ("", {"CONTEXTPULL_EMBED_MODEL": "local:minilm-static"}, "true"),
        ("openai:text-embedding-3-small", {"OPENAI_API_KEY": "sk-x"}, "false"),
        ("none", {"CONTEXTPULL_EMBED_MODEL": "local:minilm-static"}, "false"),
        ("", {}, "false"),
    ],
    ids=["input", "job-variable", "hosted", "none-wins", "unset"],
)
def test_the_embed_lock_is_installed_for_the_static_model_only(tmp_path, given, env, lock):
    problems, decided = _validate(tmp_path, given, env)
    assert problems == []
    assert decided["embed-lock"] == lock


@pytest.mark.parametrize(
    ("given", "env", "expected"),
    [
        ("local:minilm", {}, "input 'embed-model' is 'local:minilm', which the Action does not install; use local:minilm-static"),
        ("", {"CONTEXTPULL_EMBED_MODEL": "local:e5-small"}, "the job's CONTEXTPULL_EMBED_MODEL is 'local:e5-small', which the Action"),
        ("local", {}, "is 'local', which the Action does not install"),
        ("openai:text-embedding-3-small", {}, "which reads its key from OPENAI_API_KEY, and this step has none"),
        ("cohere:embed", {}, "the provider must be local or openai"),
        ("local:minilm-static; rm -rf /", {}, "input 'embed-model' must be a model setting"),
    ],
    ids=["minilm", "e5-from-job", "bare-local", "no-key", "provider", "shell"],
)
def test_a_model_the_action_cannot_run_is_one_problem(tmp_path, given, env, expected):
    problems, _ = _validate(tmp_path, given, env)
    assert len(problems) == 1 and expected in problems[0]


def test_the_input_goes_before_the_jobs_variable_into_the_build(tmp_path):
    environ = {"CONTEXTPULL_ACTION_EMBED_MODEL": "local:minilm-static", "CONTEXTPULL_EMBED_MODEL": "openai:m",
               "GITHUB_OUTPUT": str(tmp_path / "o"), "GITHUB_STEP_SUMMARY": str(tmp_path / "s"),
               "CONTEXTPULL_ACTION_DOCS": "docs", "CONTEXTPULL_ACTION_OUT": "out"}
    seen: dict = {}

    def run(argv, env=None):
        seen["env"] = env
        return subprocess.CompletedProcess(argv, 0, json.dumps(REPORT), "")

    run_build.main(environ, run=run)
    assert seen["env"]["CONTEXTPULL_EMBED_MODEL"] == "local:minilm-static"
    assert settings_env.build_environ({"CONTEXTPULL_EMBED_MODEL": "openai:m"})["CONTEXTPULL_EMBED_MODEL"] == "openai:m"


def _prefix(tmp_path: Path, monkeypatch, **env: str) -> str:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "a.md").write_text("# A\n\nText.\n")
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "output"
    target.write_text("")
    assert cache_key.main({"CONTEXTPULL_ACTION_DOCS": "docs", "RUNNER_TEMP": str(tmp_path), "GITHUB_OUTPUT": str(target), **env}) == 0
    return gha.parse_output_file(target.read_text())["restore-prefix"]


def test_the_cache_key_follows_the_input(tmp_path, monkeypatch):
    """A store is restored only into a build of the same model, where its vectors are reused."""
    plain = _prefix(tmp_path, monkeypatch)
    static = _prefix(tmp_path, monkeypatch, CONTEXTPULL_ACTION_EMBED_MODEL="local:minilm-static")
    assert static != plain
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_EMBED_MODEL="local:minilm-static") == static
    assert _prefix(tmp_path, monkeypatch, CONTEXTPULL_ACTION_EMBED_MODEL="local:minilm") not in (plain, static)


def test_the_embed_lock_pins_what_the_static_model_imports():
    from test_action_lock import PYTHONS, pinned, read_lock

    pins = read_lock((ROOT / "builder" / "requirements-embed.lock").read_text(encoding="utf-8"))
    core = read_lock((ROOT / "builder" / "requirements.lock").read_text(encoding="utf-8"))
    for name in ("numpy", "tokenizers"):
        assert all(pinned(pins, name, python) for python in PYTHONS), name
    for name, entries in pins.items():
        assert all(hashes > 0 for _, _, hashes in entries), name
        for python in PYTHONS:  # pinned alike where both locks pin it: pip takes the two together
            both = pinned(pins, name, python), pinned(core, name, python)
            assert None in both or both[0] == both[1], (name, python)
