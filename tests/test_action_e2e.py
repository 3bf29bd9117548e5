"""The action end to end, without GitHub (issue 5, item 7).

A small runner reads ``action.yml`` and does what GitHub's runner does with a composite action:
evaluates each step's ``if:`` and ``env:`` expressions, runs each ``run:`` script with
``bash --noprofile --norc -eo pipefail``, gives it fresh ``GITHUB_OUTPUT`` files and a shared
``GITHUB_STEP_SUMMARY``, stops at the first failing step, and resolves the action's outputs from
the steps'. ``uses:`` steps are not run; the runner records the ``with:`` they would have received
and, for ``actions/upload-artifact``, answers with an ``artifact-url`` as the real one does, so the
wiring of that output is tested too. The install step reuses this interpreter's environment
(``CONTEXTPULL_ACTION_REUSE_VENV``) instead of creating one, to stay fast and offline. For the
release step only, ``gh`` on ``PATH`` is a recorder.

The expression language understood is deliberately small (context lookups, ``==``/``!=`` against
a string, ``&&``); an expression outside it fails the test, which keeps ``action.yml`` simple.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

from gha import parse_output_file  # noqa: E402

VENV = Path(sys.prefix)
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
COMPARISON = re.compile(r"^(.+?)\s*(==|!=)\s*'([^']*)'$")
FAKE_ARTIFACT_URL = "https://example.invalid/artifacts/42"


# --- the runner ------------------------------------------------------------------------------------

@dataclass
class StepResult:
    id: str
    outcome: str  # success | failure | skipped | not-run (a uses: step)
    outputs: dict = field(default_factory=dict)
    stdout: str = ""
    stderr: str = ""
    code: int = 0
    with_: dict = field(default_factory=dict)


@dataclass
class ActionRun:
    code: int
    outputs: dict
    steps: dict
    summary: str

    @property
    def stdout(self) -> str:
        return "".join(s.stdout for s in self.steps.values())

    def lines(self, prefix: str) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.startswith(prefix)]


class Context:
    def __init__(self, inputs: dict, temp: Path):
        self.inputs = inputs
        self.temp = temp
        self.steps: dict[str, StepResult] = {}

    def lookup(self, dotted: str) -> str:
        parts = dotted.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return self.inputs[parts[1]]
        if dotted == "github.action_path":
            return str(ROOT)
        if dotted == "github.token":
            return "fake-token"
        if dotted == "github.repository":
            return "example/docs"
        if dotted == "runner.temp":
            return str(self.temp)
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            step = self.steps.get(parts[1])
            return step.outputs.get(parts[3], "") if step else ""
        raise AssertionError(f"expression outside the runner's subset: {dotted}")

    def evaluate(self, expr: str) -> str | bool:
        expr = expr.strip()
        if "&&" in expr:
            return all(self.evaluate(part) is True for part in expr.split("&&"))
        match = COMPARISON.match(expr)
        if match:
            left, op, right = match.groups()
            # GitHub compares strings case-insensitively.
            equal = str(self.evaluate(left)).lower() == right.lower()
            return equal if op == "==" else not equal
        if not re.fullmatch(r"[\w.-]+", expr):
            raise AssertionError(f"expression outside the runner's subset: {expr}")
        return self.lookup(expr)

    def substitute(self, text: str) -> str:
        return EXPRESSION.sub(lambda m: str(self.evaluate(m.group(1))), str(text))


def run_action(workspace: Path, temp: Path, inputs: dict, *, gh_dir: Path | None = None) -> ActionRun:
    action = YAML(typ="safe").load((ROOT / "action.yml").read_text(encoding="utf-8"))
    given = {name: spec["default"] for name, spec in action["inputs"].items()}
    unknown = set(inputs) - set(given)
    assert not unknown, f"not inputs of the action: {unknown}"
    given.update(inputs)
    ctx = Context(given, temp)
    summary = temp / "step-summary.md"
    summary.write_text("")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CONTEXTPULL_", "RUNNER_"))}
    base_env.update({
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(temp),
        "CONTEXTPULL_ACTION_REUSE_VENV": str(VENV),
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    failed = False
    for index, step in enumerate(action["runs"]["steps"]):
        sid = step.get("id", f"step{index}")
        condition = step.get("if", "success()")
        if failed or (condition != "success()" and ctx.evaluate(EXPRESSION.sub(r"\1", condition)) is not True):
            ctx.steps[sid] = StepResult(sid, "skipped")
            continue
        if "uses" in step:
            with_ = {k: ctx.substitute(v) for k, v in (step.get("with") or {}).items()}
            outputs = {"artifact-url": FAKE_ARTIFACT_URL} if step["uses"].startswith("actions/upload-artifact@") else {}
            ctx.steps[sid] = StepResult(sid, "not-run", outputs, with_=with_)
            continue
        assert step.get("shell") == "bash"
        env = dict(base_env)
        env.update({k: ctx.substitute(v) for k, v in (step.get("env") or {}).items()})
        output_file = temp / f"output-{index}"
        output_file.write_text("")
        env["GITHUB_OUTPUT"] = str(output_file)
        if sid == "release" and gh_dir is not None:
            env["PATH"] = f"{gh_dir}{os.pathsep}{env['PATH']}"
        script = temp / f"step-{index}.sh"
        script.write_text(step["run"])
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                              env=env, capture_output=True, text=True, timeout=120, check=False)
        result = StepResult(sid, "success" if proc.returncode == 0 else "failure",
                            parse_output_file(output_file.read_text()), proc.stdout, proc.stderr, proc.returncode)
        ctx.steps[sid] = result
        if proc.returncode != 0:
            failed = True
            code = proc.returncode
    outputs = {name: ctx.substitute(spec["value"]) for name, spec in action["outputs"].items()}
    return ActionRun(code if failed else 0, outputs, ctx.steps, summary.read_text())


def write_gh_recorder(folder: Path, log: Path, view: dict) -> Path:
    folder.mkdir()
    gh = folder / "gh"
    gh.write_text(
        f"#!{sys.executable}\n"
        "import hashlib, json, os, sys\n"
        "args = sys.argv[1:]\n"
        "files = {a: hashlib.sha256(open(a, 'rb').read()).hexdigest() for a in args if os.path.isfile(a)}\n"
        f"record = {{'args': args, 'files': files, 'token': os.environ.get('GH_TOKEN'), 'repo': os.environ.get('GH_REPO')}}\n"
        f"open({str(log)!r}, 'a').write(json.dumps(record) + '\\n')\n"
        f"if args[:2] == ['release', 'view']: print({json.dumps(json.dumps(view))})\n"
    )
    gh.chmod(0o755)
    return folder


# --- fixtures --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A docs repository: a copy of the conformance corpus, its golden files made by the action."""
    corpus = ROOT / "conformance" / "corpus"
    if not corpus.is_dir():
        pytest.fail("conformance/corpus is missing")
    ws = tmp_path_factory.mktemp("workspace")
    shutil.copytree(corpus, ws / "docs")
    return ws


@pytest.fixture(scope="module")
def temp(tmp_path_factory):
    return tmp_path_factory.mktemp("runner-temp")


@pytest.fixture(scope="module")
def golden_run(workspace, temp):
    return run_action(workspace, temp, {"golden": "golden", "update-golden": "true"})


# --- the acceptance bar ------------------------------------------------------------------------------

def test_update_golden_writes_the_golden_files(golden_run, workspace):
    assert golden_run.code == 0, golden_run.stdout + golden_run.steps["build"].stderr
    assert golden_run.outputs["golden"] == "updated"
    assert (workspace / "golden" / "index.txt").is_file() and (workspace / "golden" / "ids.txt").is_file()
    assert golden_run.lines("::notice title=ContextPull golden updated::")


def test_clean_run_writes_every_output_and_renders_the_summary(golden_run, workspace, temp):
    run = run_action(workspace, temp, {"golden": "golden"})
    assert run.code == 0, run.stdout + run.steps["build"].stderr
    assert all(run.outputs.values()), run.outputs
    assert run.outputs["golden"] == "match"
    assert run.outputs["artifact-url"] == FAKE_ARTIFACT_URL
    store = workspace / run.outputs["store-path"]
    manifest = json.loads((workspace / run.outputs["manifest-path"]).read_text())
    assert manifest["store"]["sha256"] == run.outputs["sha256"]
    assert manifest["fingerprints"]["content"] == run.outputs["content-fingerprint"]
    assert manifest["fingerprints"]["corpus"] == run.outputs["corpus-fingerprint"]
    assert int(run.outputs["documents"]) == manifest["counts"]["documents"] > 0
    assert int(run.outputs["sections"]) == manifest["counts"]["sections"] > 0
    assert store.is_file()
    # The summary renders the build.
    assert "## ContextPull store: golden match" in run.summary
    assert f"| Documents | {run.outputs['documents']} |" in run.summary
    assert run.outputs["content-fingerprint"] in run.summary
    assert f"Artifact: [contextpull-store]({FAKE_ARTIFACT_URL})" in run.summary
    # The upload would get exactly the three files and fail if any were missing.
    upload = next(s for s in run.steps.values() if "if-no-files-found" in s.with_)
    assert upload.with_["if-no-files-found"] == "error"
    assert sorted(Path(p).name for p in upload.with_["path"].split()) == sorted(
        ["store.sqlite", "store.sqlite.sha256", "manifest.json"])
    # The cache path was saved by the first run and given to this build as --cache.
    assert run.steps["cache-key"].outputs["key"].startswith(run.steps["cache-key"].outputs["restore-prefix"])
    assert "--cache" in run.steps["build"].stdout
    assert "| Cache | reused the whole previous store" in run.summary
    # Saved with its checksum, so the next build trusts its pages instead of verifying it whole.
    cache_dir = Path(run.steps["cache-key"].outputs["path"])
    assert sorted(p.name for p in cache_dir.iterdir()) == ["store.sqlite", "store.sqlite.sha256"]
    assert (cache_dir / "store.sqlite.sha256").read_text().split()[0] == run.outputs["sha256"]


def test_drift_exits_one_with_annotations_on_the_file(golden_run, workspace, temp, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(workspace / "docs", ws / "docs")
    shutil.copytree(workspace / "golden", ws / "golden")
    # A markdown document that is in the store, taken from the golden id list.
    ids = [line.split("\t")[0] for line in (ws / "golden" / "ids.txt").read_text(encoding="utf-8").splitlines()]
    doc = ws / "docs" / next(i.rsplit("#", 1)[0] for i in ids if i.rsplit("#", 1)[0].endswith(".md"))
    text = doc.read_text(encoding="utf-8")
    heading = next(line for line in text.splitlines() if line.startswith("#"))
    doc.write_text(text.replace(heading, heading + " renamed", 1) + "\n## An added heading\n\nNew text here.\n",
                   encoding="utf-8")
    run = run_action(ws, tmp_path, {"golden": "golden", "cache": "false"})
    assert run.code == 1
    assert run.outputs["golden"] == "drift"
    rel = doc.relative_to(ws).as_posix()
    assert run.lines("::error title=ContextPull golden drift::")
    assert any(line.startswith(f"::error file={rel},") or line.startswith(f"::warning file={rel},")
               for line in run.stdout.splitlines()), run.stdout
    assert "### Golden drift" in run.summary
    # Later steps do not run after a failed build.
    assert run.steps["finish"].outcome == "skipped"


def test_release_sends_exactly_the_three_files_from_a_fresh_build(golden_run, workspace, tmp_path):
    log = tmp_path / "gh.log"
    gh_dir = write_gh_recorder(tmp_path / "bin", log, {"assets": [], "isDraft": False})
    run = run_action(workspace, tmp_path, {"release-tag": "v1.0.0", "out": "release-out",
                                           "artifact-name": ""}, gh_dir=gh_dir)
    assert run.code == 0, run.stdout + run.steps["release"].stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert [c["args"][:2] for c in calls] == [["release", "view"], ["release", "upload"]]
    upload = calls[1]
    assert upload["args"][2] == "v1.0.0"
    assert sorted(Path(p).name for p in upload["files"]) == ["manifest.json", "store.sqlite", "store.sqlite.sha256"]
    assert len(upload["args"]) == 3 + 3
    assert upload["files"][run.outputs["store-path"]] == run.outputs["sha256"]
    assert upload["token"] == "fake-token" and upload["repo"] == "example/docs"
    # From scratch: no cache key, no --cache.
    assert run.steps["cache-key"].outcome == "skipped"
    assert "--cache" not in run.steps["build"].stdout
    assert run.steps["upload"].outcome == "skipped"


@pytest.mark.parametrize(
    "inputs, expected",
    [
        ({"docs": "no-such-folder"}, "::error::input 'docs' points at 'no-such-folder', which does not exist"),
        ({"golden": "no-such-golden"}, "::error::input 'golden' points at 'no-such-golden', which does not exist"),
        ({"strict": "maybe"}, "::error::input 'strict' must be true or false, got 'maybe'"),
    ],
)
def test_bad_input_ends_the_action_with_one_error_line(workspace, tmp_path, inputs, expected):
    run = run_action(workspace, tmp_path, dict(inputs))
    assert run.code == 3  # bad input, as the build says it (1 is a failed check)
    errors = run.lines("::error")
    assert len(errors) == 1 and errors[0].startswith(expected), run.stdout
    assert run.steps["inputs"].outcome == "failure"
    assert run.steps["build"].outcome == "skipped"


def test_install_step_makes_a_private_venv_from_the_action_checkout(tmp_path):
    """Without the test override, the install step creates a venv under runner.temp and installs
    the action's own checkout (with the extras) into it; a recorder stands in for Python and pip."""
    action = YAML(typ="safe").load((ROOT / "action.yml").read_text(encoding="utf-8"))
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "install")
    log = tmp_path / "python.log"
    fake = tmp_path / "fake-python"
    fake.write_text(
        "#!/usr/bin/env bash\n"
        f"echo \"$0 $*\" >> {log}\n"
        'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; fi\n'
    )
    fake.chmod(0o755)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    ctx = Context({}, temp)
    ctx.steps["python"] = StepResult("python", "not-run", {"python-path": str(fake)})
    ctx.steps["inputs"] = StepResult("inputs", "success", {"extras-spec": "[pdf]"})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CONTEXTPULL_"))}
    env.update({k: ctx.substitute(v) for k, v in step["env"].items()})
    env.update({"GITHUB_ACTION_PATH": str(ROOT), "GITHUB_OUTPUT": str(tmp_path / "out")})
    script = tmp_path / "install.sh"
    script.write_text(step["run"])
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    venv_python = temp / "contextpull-venv" / "bin" / "python"
    calls = log.read_text().splitlines()
    assert calls[0] == f"{fake} -m venv {temp / 'contextpull-venv'}"
    assert calls[1].startswith(f"{venv_python} -m pip install ") and calls[1].endswith(f" {ROOT}[pdf]")
    assert calls[2] == f"{venv_python} -m contextpull --version"
    assert parse_output_file((tmp_path / "out").read_text()) == {"python": str(venv_python)}
