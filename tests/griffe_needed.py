"""API pages are read from source with griffelib, which the package installs on Python 3.11 and
later only (``pyproject.toml``); on 3.10 a build reads ``:::`` and autodoc lines as when the
setting is off (``apiref.preload``). Tests that expect API text take this mark."""

from __future__ import annotations

import importlib.util

import pytest

needs_griffe = pytest.mark.skipif(
    importlib.util.find_spec("griffe") is None,
    reason="griffelib is installed on Python 3.11 and later only: no API pages are read here",
)
