"""Names a package exports without importing the modules behind them until first use (PEP 562).

Why: ``import contextpull`` must load the standard library only (ADR 001), and importing one
write-side submodule (``contextpull.ingest.progress`` for the CLI) must not load the parsers; yet
``from contextpull.ingest import ingest`` should work as documented (docs/library.md). Each
package states its exports once, as ``name -> (module, attribute)``, and gets a module
``__getattr__`` from here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def exports(package: str, names: Mapping[str, tuple[str, str]]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package`` that imports ``package.module`` on first use of
    each exported name."""

    def __getattr__(name: str) -> object:
        if name in names:
            module, attribute = names[name]
            return getattr(importlib.import_module(f"{package}.{module}"), attribute)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
