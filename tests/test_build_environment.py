"""A run's environment is read once at the surface and reaches every reader as a value (issue 35).

The Sphinx ``date`` directive shows the build's ``SOURCE_DATE_EPOCH``; it used to read the
variable again in the worker process, so a library caller's environment and the process's could
disagree. Here the process holds one value and the build is given another: the page shows the
given one, serially and on a worker alike, and the manifest's commit and provenance take the CI
facts given, not the process's.
"""

from __future__ import annotations

import sqlite3

import pytest
from artifact_helpers import clean_env, quiet_build

from contextpull.config import Settings
from contextpull.errors import ConfigError
from contextpull.ingest import workers
from contextpull.ingest.engine import ingest
from contextpull.cli.environment import read_environment
from contextpull.settings.environment import Checkout, Environment

PAGES = {
    "conf.py": "project = 'P'\n",
    "index.rst": "Index\n=====\n\nBuilt on |today|.\n\n.. date:: %Y-%m-%d\n\nEnd.\n",
}


def _site(root):
    for i in range(6):
        PAGES[f"page{i}.rst"] = f"Page {i}\n======\n\nStamped: \n\n.. date:: %Y\n\nText {i}.\n"
    for name, text in PAGES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _texts(store) -> str:
    with sqlite3.connect(store) as con:
        return "\n".join(t for (t,) in con.execute("SELECT text FROM sections ORDER BY id"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_date_directive_shows_the_epoch_the_build_was_given(tmp_path, monkeypatch, jobs):
    docs = _site(tmp_path / "docs")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")  # the process's: 1970, never read below the surface
    monkeypatch.setattr(workers, "PARALLEL_MIN_JOBS", 1)
    given = clean_env(SOURCE_DATE_EPOCH="1700000000", CONTEXTPULL_JOBS=jobs)  # 2023-11-14
    quiet_build(docs, tmp_path / "out", environ=given, flags={"dialect": "sphinx"})
    text = _texts(tmp_path / "out" / "store.sqlite")
    assert "2023-11-14" in text and "1970" not in text
    assert text.count("2023") == 7


def test_ingest_takes_the_epoch_from_its_environment_argument(tmp_path, monkeypatch):
    docs = _site(tmp_path / "docs")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    ingest(docs, tmp_path / "a.sqlite", Settings(dialect="sphinx"), environment=Environment(epoch=1700000000))
    ingest(docs, tmp_path / "b.sqlite", Settings(dialect="sphinx"), environment=Environment())
    assert "2023-11-14" in _texts(tmp_path / "a.sqlite")
    assert "2023" not in _texts(tmp_path / "b.sqlite") and "1970" not in _texts(tmp_path / "b.sqlite")


def test_the_manifest_commit_comes_from_the_checkout_given(tmp_path, monkeypatch):
    from artifact_helpers import fixture_corpus

    docs = fixture_corpus(tmp_path / "docs")
    monkeypatch.setenv("GITHUB_SHA", "b" * 40)
    report, _ = quiet_build(docs, tmp_path / "out", environ=clean_env(GITHUB_SHA="a" * 40))
    assert report.manifest["source"]["commit"] == "a" * 40


def test_reading_the_environment_keeps_only_what_a_run_may_use():
    env = read_environment({
        "SOURCE_DATE_EPOCH": " 42 ", "GITHUB_SHA": "abc", "GITHUB_REF_NAME": "main", "CONTEXTPULL_JOBS": "3",
        "CONTEXTPULL_SECTION_MAX_CHARS": "900", "OPENAI_API_KEY": "sk-secret", "HOME": "/home/x",
    })
    assert (env.epoch, env.jobs) == (42, 3)
    assert env.checkout == Checkout(sha="abc", ref_name="main")
    assert set(env.variables) == {"CONTEXTPULL_JOBS", "CONTEXTPULL_SECTION_MAX_CHARS", "OPENAI_API_KEY"}
    assert "sk-secret" not in repr(env)
    assert read_environment({"CONTEXTPULL_JOBS": "none"}).jobs is None
    assert read_environment({"SOURCE_DATE_EPOCH": " 42 "}, stamps_time=True).epoch == 42
    bad = {"SOURCE_DATE_EPOCH": "yesterday"}
    assert read_environment(bad).epoch is None  # an ingest reads it as unset, as it always did
    with pytest.raises(ConfigError, match="SOURCE_DATE_EPOCH must be a whole number"):
        read_environment(bad, stamps_time=True)  # a build, which stamps its times, refuses it


def test_the_model_variables_read_are_the_providers_own():
    """``environment.py`` names the hosted providers' variables without loading model code; they
    are exactly the ones ``models.spec.HOSTED`` looks up."""
    from contextpull.models.spec import HOSTED
    from contextpull.settings.environment import MODEL_VARIABLES

    assert set(MODEL_VARIABLES) == {name for url, _, key in HOSTED.values() for name in (url, key)}
