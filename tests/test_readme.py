"""README.md's examples run as written, and the output it shows is the real output (issue 22).

Every ``sh`` and ``python`` block in the README carries a marker comment on the line before it:

- ``<!-- readme: run -->``: run in order, in one scratch folder holding copies of
  ``conformance/``, ``docs/`` and ``golden/`` (a reader following the README from the top), with
  the installed ``contextpull`` first on PATH, under ``bash -e -o pipefail``; it must exit 0;
- ``<!-- readme: serve -->``: a server; started with ``CONTEXTPULL_PORT=0``, it must announce
  itself, answer an MCP ``initialize`` on loopback, and stop with exit 0 on Ctrl-C;
- ``<!-- readme: skip: REASON -->``: not run (network, the ``claude`` CLI, a fresh machine); the
  reason shows in pytest's summary of skips;
- ``<!-- readme: output -->`` before a ``text`` block: the output (stdout and stderr, as a
  person sees it) of the block before it, compared exactly but for the build's seconds and the
  server's port. After a change of output, paste what the failing assertion shows.

An unmarked block fails the first test, so no example can go unchecked by accident.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from contextpull.system.install import REPOSITORY, SOURCE

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BLOCK = re.compile(r"^(?:<!-- readme: (?P<kind>\w+)(?::\s*(?P<reason>.*?))? -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)^```$", re.M | re.S)
RUNNABLE = ("sh", "python")
TIMEOUT_S = 120


@dataclass
class Block:
    kind: str | None
    reason: str | None
    lang: str
    body: str
    line: int
    output: str | None = None

    @property
    def name(self) -> str:
        return f"line{self.line}-{self.lang}-{self.kind}"


def readme_blocks(text: str) -> list[Block]:
    found = []
    for match in BLOCK.finditer(text):
        block = Block(
            match["kind"], match["reason"], match["lang"], match["body"], text.count("\n", 0, match.start("lang")) + 1
        )
        if block.kind == "output":
            assert found and found[-1].kind in ("run", "serve"), f"README line {block.line}: output after no run block"
            found[-1].output = block.body
            continue
        found.append(block)
    return found


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))


def test_every_shell_and_python_block_is_marked_run_serve_or_skip_with_a_reason():
    runnable = [b for b in BLOCKS if b.lang in RUNNABLE]
    assert len(runnable) >= 10  # the parser found the README's examples
    unmarked = [b.line for b in runnable if b.kind not in ("run", "serve", "skip")]
    assert not unmarked, f"README blocks without a <!-- readme: ... --> marker at lines {unmarked}"
    assert all(b.reason for b in runnable if b.kind == "skip")
    assert not [b.line for b in BLOCKS if b.lang not in RUNNABLE and b.kind], "markers belong on sh/python blocks"


def test_the_quick_start_opens_the_readme_and_shows_build_search_serve_and_claude():
    text = README.read_text(encoding="utf-8")
    first_section = text.index("\n## ")
    assert text[first_section:].startswith("\n## Quick start\n")
    quick = text[first_section : text.index("\n## Set up on a fresh machine\n")]
    for needle in ("contextpull build ", "contextpull search ", "contextpull serve ", "claude mcp add contextpull --",
                   "claude mcp add --transport http"):
        assert needle in quick, needle
    assert quick.count("<!-- readme: output -->") >= 3


def test_install_lines_name_this_repository_at_this_version():
    text = README.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if re.search(r"pip install|uvx|\"--from\"", line)]
    dev_setup = [line for line in lines if ".venv/bin/pip install" in line]
    assert len(dev_setup) == 2  # the two fresh-machine commands, kept as they are
    for line in lines:
        if line in dev_setup:
            continue
        for requirement in re.findall(r"[\"'](contextpull[^\"']*)[\"']", line):
            if requirement != "contextpull":  # the command's name in a JSON argument list
                assert requirement.endswith(f" @ {SOURCE}"), line
        assert "contextpull>=" not in line and "'contextpull" not in line, line
    assert f"github.com/{REPOSITORY}@v" in text


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    work = tmp_path_factory.mktemp("readme")
    for folder in ("conformance", "docs", "golden"):
        shutil.copytree(ROOT / folder, work / folder, ignore=shutil.ignore_patterns(".contextpull"))
    return work


def _env(work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTEXTPULL_")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["HOME"] = str(work / "home")
    env["CONTEXTPULL_CACHE"] = str(work / "cache")
    return env


def _normalise(text: str) -> str:
    text = re.sub(r"(?m)^(\s+)\d+\.\d+ s$", r"\1N.NN s", text)  # the build's seconds
    return re.sub(r"http://127\.0\.0\.1:\d+/", "http://127.0.0.1:PORT/", text)  # the server's port


def _params():
    for block in BLOCKS:
        if block.lang not in RUNNABLE:
            continue
        marks = [pytest.mark.skip(reason=f"README line {block.line}: {block.reason}")] if block.kind == "skip" else []
        yield pytest.param(block, id=block.name, marks=marks)


@pytest.mark.parametrize("block", list(_params()))
def test_readme_block(block: Block, workdir: Path):
    if block.kind == "serve":
        shown = _serve(block, workdir)
    else:
        argv = ["bash", "-e", "-o", "pipefail", "-c", block.body] if block.lang == "sh" else [sys.executable, "-c", block.body]
        done = subprocess.run(
            argv, cwd=workdir, env=_env(workdir), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            timeout=TIMEOUT_S, stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, f"README line {block.line} exited {done.returncode}:\n{done.stdout}"
        shown = done.stdout
    if block.output is not None:
        assert _normalise(shown) == _normalise(block.output), f"README line {block.line}: the output is now:\n{shown}"


def _serve(block: Block, work: Path) -> str:
    env = {**_env(work), "CONTEXTPULL_PORT": "0"}
    proc = subprocess.Popen(
        ["bash", "-c", "exec " + block.body.strip()], cwd=work, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
    )
    try:
        line = proc.stderr.readline()  # the announcement comes after the bind, or an error does
        match = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", line)
        assert match, f"README line {block.line}: the server said {line!r}"
        assert _initialize(f"http://127.0.0.1:{match[1]}/mcp") == 200
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            rest = proc.communicate(timeout=20)[1]
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
    assert proc.returncode == 0, rest
    return line + rest


def _initialize(url: str) -> int:
    body = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "readme", "version": "1"}},
    }
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
