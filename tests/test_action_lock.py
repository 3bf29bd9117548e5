"""The Action's dependency locks cover what it installs (issue 20, item 6).

The install step runs ``pip install --require-hashes -r builder/requirements.lock`` (plus
``requirements-pdf.lock`` for ``extras: pdf``) and then the checkout with ``--no-deps``, so a
dependency missing from the locks is a failed install on some runner, not a warning. These
tests read the locks as pip would and check them against ``pyproject.toml``: every runtime
dependency and every requirement of the pdf extra is pinned, at a version its specifier allows,
with hashes; and, for the pinned packages installed here at the same version, every dependency
they declare for Python 3.10 to 3.13 is pinned too. CI regenerates the locks and diffs them
(the ``lock`` job of ``ci.yml``) for staleness.
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest depends on tomli there
    import tomli as tomllib
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "builder"))

import validate_inputs  # noqa: E402

CORE_LOCK = ROOT / "builder" / "requirements.lock"
PDF_LOCK = ROOT / "builder" / "requirements-pdf.lock"
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
_PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def read_lock(text: str) -> dict[str, list[tuple[Version, str | None, int]]]:
    """name -> [(version, marker, number of hashes)] as pip reads the file."""
    pins: dict[str, list] = {}
    current = None
    for line in text.splitlines():
        match = _PIN.match(line)
        if match:
            name, version, marker = match.groups()
            current = [Version(version), marker, 0]
            pins.setdefault(canonicalize_name(name), []).append(current)
        elif line.strip().startswith("--hash=sha256:") and current is not None:
            current[2] += 1
    return {name: [tuple(p) for p in entries] for name, entries in pins.items()}


def env_for(python: str) -> dict:
    return {"python_version": python, "python_full_version": python + ".0", "extra": ""}


def pinned(pins: dict, name: str, python: str) -> Version | None:
    for version, marker, _ in pins.get(canonicalize_name(name), []):
        if marker is None or Marker(marker).evaluate(env_for(python)):
            return version
    return None


def problems(requirements: list[str], pins: dict) -> list[str]:
    """What in ``requirements`` the lock ``pins`` does not cover, on each supported Python."""
    found = []
    for text in requirements:
        req = Requirement(text)
        for python in PYTHONS:
            if req.marker and not req.marker.evaluate(env_for(python)):
                continue
            version = pinned(pins, req.name, python)
            if version is None:
                found.append(f"{req.name} is not pinned for Python {python}")
            elif not req.specifier.contains(version, prereleases=True):
                found.append(f"{req.name}=={version} does not satisfy {req.specifier}")
    return sorted(set(found))


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def all_pins() -> dict:
    pins = read_lock(CORE_LOCK.read_text(encoding="utf-8"))
    for name, entries in read_lock(PDF_LOCK.read_text(encoding="utf-8")).items():
        pins.setdefault(name, []).extend(entries)
    return pins


def test_the_locks_pin_pyprojects_runtime_dependencies_and_the_actions_extras():
    project = pyproject()
    core = read_lock(CORE_LOCK.read_text(encoding="utf-8"))
    assert problems(project["dependencies"], core) == []
    assert set(validate_inputs.ACTION_EXTRAS) == {"pdf"}  # requirements-pdf.lock is the pdf one
    assert problems(project["optional-dependencies"]["pdf"], all_pins()) == []
    # The build backend, for --no-build-isolation.
    backend = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    assert problems(backend, core) == []


def test_every_pin_has_hashes():
    for path in (CORE_LOCK, PDF_LOCK):
        for name, entries in read_lock(path.read_text(encoding="utf-8")).items():
            assert all(hashes > 0 for _, _, hashes in entries), f"{path.name}: {name} has no --hash"


def test_installed_pins_have_their_own_dependencies_pinned():
    pins = all_pins()
    checked = 0
    for name in pins:
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        if Version(dist.version) not in [v for v, _, _ in pins[name]]:
            continue  # another version here: its metadata says nothing about the pinned one
        checked += 1
        requires = [r for r in dist.requires or [] if "extra ==" not in r.replace('"', "").replace("'", "")]
        assert problems(requires, pins) == [], name
    assert checked >= 3


def test_a_lock_missing_a_dependency_is_caught():
    text = CORE_LOCK.read_text(encoding="utf-8")
    without_click = re.sub(r"(?ms)^click==.*?(?=^\S)", "", text)
    assert without_click != text
    assert problems(pyproject()["dependencies"], read_lock(without_click)) == ["click is not pinned for Python 3.10",
                                                                               "click is not pinned for Python 3.11",
                                                                               "click is not pinned for Python 3.12",
                                                                               "click is not pinned for Python 3.13"]
    assert problems(["click>=99"], read_lock(text))[0].startswith("click==")


def test_the_in_files_name_what_the_test_checks():
    core = (ROOT / "builder" / "requirements.in").read_text(encoding="utf-8")
    names = {canonicalize_name(Requirement(line).name) for line in core.splitlines() if line and not line.startswith("#")}
    assert names == {"click", "jsonschema", "pyyaml", "docutils", "tomli", "hatchling", "griffelib"}
    assert {canonicalize_name(Requirement(d).name) for d in pyproject()["dependencies"]} <= names


@pytest.mark.parametrize("path", [CORE_LOCK, PDF_LOCK])
def test_each_lock_says_how_it_was_made(path):
    header = path.read_text(encoding="utf-8").splitlines()[1]
    assert header.startswith("#    uv pip compile builder/requirements")
    assert "--universal --python-version 3.10 --generate-hashes" in header
