"""A small runner for the composite action, without GitHub (issue 5, item 7; issue 20).

It reads ``action.yml`` and does what GitHub's runner does with a composite action: evaluates
each step's ``if:`` and ``env:`` expressions, runs each ``run:`` script with
``bash --noprofile --norc -eo pipefail``, gives it fresh ``GITHUB_OUTPUT`` files and a shared
``GITHUB_STEP_SUMMARY``, stops at the first failing step, and resolves the action's outputs from
the steps'. ``uses:`` steps are not run; the runner records the ``with:`` they would have received
and answers with the outputs the real ones give (``artifact-url`` from upload-artifact,
``attestation-url`` from attest-build-provenance), so the wiring of those outputs is tested too.
The install step reuses this interpreter's environment (``CONTEXTPULL_ACTION_REUSE_VENV``).
``gh`` is a stand-in (``write_gh``): a script that records its calls and keeps release assets
in a folder, so a second run sees what the first uploaded.

The expression language understood is deliberately small (context lookups, ``==``/``!=`` against
a string, ``&&``, ``||``); an expression outside it fails the test, which keeps ``action.yml``
simple.
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

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

from gha import parse_output_file  # noqa: E402

VENV = Path(sys.prefix)
BASH = shutil.which("bash") or "/bin/bash"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
COMPARISON = re.compile(r"^(.+?)\s*(==|!=)\s*'([^']*)'$")
FAKE_ARTIFACT_URL = "https://example.invalid/artifacts/42"
FAKE_GOLDEN_URL = "https://example.invalid/artifacts/43"
FAKE_ATTESTATION_URL = "https://example.invalid/attestations/7"
# What the stand-ins for the uses: steps answer, by the start of their uses:.
FAKE_OUTPUTS = {
    "actions/upload-artifact@": lambda sid: {"artifact-url": FAKE_GOLDEN_URL if sid == "upload-golden" else FAKE_ARTIFACT_URL},
    "actions/attest-build-provenance@": lambda sid: {"attestation-url": FAKE_ATTESTATION_URL,
                                                     "bundle-path": "/tmp/attestation.jsonl"},
}
# Steps that call gh.
GH_STEPS = ("release", "base-diff")


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
        if dotted == "github.job":
            return "docs"
        if dotted == "strategy.job-index":
            return "0"
        if dotted == "github.event.repository.private":
            return "false"
        if dotted == "runner.temp":
            return str(self.temp)
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            step = self.steps.get(parts[1])
            return step.outputs.get(parts[3], "") if step else ""
        raise AssertionError(f"expression outside the runner's subset: {dotted}")

    def evaluate(self, expr: str) -> str | bool:
        expr = expr.strip()
        if "||" in expr:  # GitHub's ||: the first truthy operand, else the last
            parts = [self.evaluate(part) for part in expr.split("||")]
            return next((p for p in parts if p not in ("", False)), parts[-1])
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


def run_action(workspace: Path, temp: Path, inputs: dict, *, gh_dir: Path | None = None,
               path: str | None = None, env: dict | None = None) -> ActionRun:
    """Run the action; ``gh_dir`` goes first on PATH for the steps that call gh, ``path``
    replaces PATH for every step (a runner without gh), ``env`` is the job's environment."""
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
    if path is not None:
        base_env["PATH"] = path
    base_env.update(env or {})
    failed = False
    for index, step in enumerate(action["runs"]["steps"]):
        sid = step.get("id", f"step{index}")
        condition = step.get("if", "success()")
        if failed or (condition != "success()" and ctx.evaluate(EXPRESSION.sub(r"\1", condition)) is not True):
            ctx.steps[sid] = StepResult(sid, "skipped")
            continue
        if "uses" in step:
            with_ = {k: ctx.substitute(v) for k, v in (step.get("with") or {}).items()}
            fake = next((f for prefix, f in FAKE_OUTPUTS.items() if step["uses"].startswith(prefix)), None)
            outputs = fake(sid) if fake else {}
            ctx.steps[sid] = StepResult(sid, "not-run", outputs, with_=with_)
            continue
        assert step.get("shell") == "bash"
        env = dict(base_env)
        env.update({k: ctx.substitute(v) for k, v in (step.get("env") or {}).items()})
        output_file = temp / f"output-{index}"
        output_file.write_text("")
        env["GITHUB_OUTPUT"] = str(output_file)
        if sid in GH_STEPS and gh_dir is not None:
            env["PATH"] = f"{gh_dir}{os.pathsep}{env['PATH']}"
        script = temp / f"step-{index}.sh"
        script.write_text(step["run"])
        proc = subprocess.run([BASH, "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                              env=env, capture_output=True, text=True, timeout=120, check=False)
        result = StepResult(sid, "success" if proc.returncode == 0 else "failure",
                            parse_output_file(output_file.read_text()), proc.stdout, proc.stderr, proc.returncode)
        ctx.steps[sid] = result
        if proc.returncode != 0:
            failed = True
            code = proc.returncode
    outputs = {name: ctx.substitute(spec["value"]) for name, spec in action["outputs"].items()}
    return ActionRun(code if failed else 0, outputs, ctx.steps, summary.read_text())


GH_SCRIPT = r"""
import json, os, shutil, sys
args = sys.argv[1:]
state, log = os.environ["FAKE_GH_STATE"], os.environ["FAKE_GH_LOG"]
record = {"args": args, "token": os.environ.get("GH_TOKEN"), "repo": os.environ.get("GH_REPO")}
with open(log, "a") as handle:
    handle.write(json.dumps(record) + "\n")
def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)
if args[:1] != ["release"] or len(args) < 3:
    fail("unknown command")
verb, tag = args[1], args[2]
folder = os.path.join(state, tag)
if not os.path.isdir(folder):
    fail("release not found")
if verb == "view":
    names = sorted(os.listdir(folder))
    print(json.dumps({"assets": [{"name": n} for n in names], "isDraft": False}))
elif verb == "upload":
    clobber = "--clobber" in args
    files = [a for a in args[3:] if not a.startswith("--")]
    for path in files:
        target = os.path.join(folder, os.path.basename(path))
        if os.path.exists(target) and not clobber:
            fail("asset under the same name already exists: " + os.path.basename(path))
    for path in files:
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))
elif verb == "download":
    out = args[args.index("--dir") + 1]
    patterns = [args[i + 1] for i, a in enumerate(args) if a == "--pattern"]
    found = [n for n in sorted(os.listdir(folder)) if n in patterns]
    if not found:
        fail("no assets match the file pattern")
    os.makedirs(out, exist_ok=True)
    for name in found:
        shutil.copyfile(os.path.join(folder, name), os.path.join(out, name))
else:
    fail("unknown command")
"""


@dataclass
class FakeGh:
    """A stand-in ``gh`` on PATH: releases are folders of assets under ``state``."""
    bin: Path
    state: Path
    log: Path

    def env(self) -> dict:
        return {"FAKE_GH_STATE": str(self.state), "FAKE_GH_LOG": str(self.log)}

    def release(self, tag: str, assets: dict | None = None) -> Path:
        folder = self.state / tag
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in (assets or {}).items():
            (folder / name).write_bytes(data)
        return folder

    def calls(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def write_gh(folder: Path) -> FakeGh:
    (folder / "bin").mkdir(parents=True)
    gh = folder / "bin" / "gh"
    gh.write_text(f"#!{sys.executable}\n" + GH_SCRIPT)
    gh.chmod(0o755)
    (folder / "state").mkdir()
    return FakeGh(folder / "bin", folder / "state", folder / "gh.log")
