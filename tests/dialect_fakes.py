"""A stand-in dialect for the spine's tests (issue 26): the real ones live in their own
modules; this one only resolves ``INCLUDE(path)`` lines through ``ctx.include`` and notes a
``!!! note`` line as converted, so the fingerprint, cache and report paths can be tested on
their own."""

from __future__ import annotations

import re
import types

_INCLUDE = re.compile(r"^INCLUDE\((.+)\)$")


def prepare(text, ctx):
    out = []
    for number, line in enumerate(text.split("\n"), start=1):
        m = _INCLUDE.match(line.strip())
        if m:
            got = ctx.include(m.group(1), base=ctx.folder, line=number, construct="test include")
            out.append("```\n" + got.text.rstrip("\n") + "\n```" if got is not None else line)
        elif line.startswith("!!! note"):
            ctx.note("admonition", "converted", number)
            out.append("Note:")
        else:
            out.append(line)
    return "\n".join(out)


FAKE = types.SimpleNamespace(NAME="mkdocs", prepare=prepare)


def use_fake_dialect(monkeypatch):
    from contextpull.dialects import read, registry

    fake_path = registry.dialect("mkdocs").module
    monkeypatch.setattr(
        read, "load_module", lambda path: FAKE if path == fake_path else registry.load_module(path)
    )
