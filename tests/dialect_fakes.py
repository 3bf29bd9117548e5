"""A stand-in dialect for the spine's tests (issue 26): the real ones live in their own
modules; this one only resolves ``INCLUDE(path)`` lines through ``ctx.include`` and notes a
``!!! note`` line as converted, so the fingerprint, cache and report paths can be tested on
their own."""

from __future__ import annotations

import re

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


def use_fake_dialect(monkeypatch):
    """The mkdocs row's module gives this reader instead of its own (``site_reader.open_site``
    takes ``Reader`` from the module when a build opens the site)."""
    import importlib

    from contextpull.dialects import registry
    from contextpull.dialects.site_reader import SiteReader

    class FakeReader(SiteReader):
        def prepare(self, text, ctx):
            return prepare(text, ctx)

    module = importlib.import_module(f"contextpull.dialects.{registry.dialect('mkdocs').module}")
    monkeypatch.setattr(module, "Reader", FakeReader)
