"""The first pages of a DOCS folder, for judging a site by what its pages hold where no
generator configuration says what it is: MDX written in ``.md`` pages (``mdx.evidence``), Hugo
pages whose site is built elsewhere (``hugo.evidence``).

A sample, not a reading: the first ``SAMPLE_PAGES`` pages in the order a build lists them (a
folder's files, sorted, before its sorted subfolders; hidden names left out, as a build leaves
them), the head of each. Links are passed over (one may lead out of the repository) and a page is
opened only if it is a regular file, without blocking, so a named pipe called ``x.md`` cannot
stall the build here; a folder that cannot be listed or a page that cannot be read gives nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..system.bounded_read import open_regular

SAMPLE_PAGES = 32
SAMPLE_BYTES = 32_768


def heads(docs: str, suffixes: tuple[str, ...] = (".md",), pages: int = SAMPLE_PAGES,
          size: int = SAMPLE_BYTES) -> Iterator[bytes]:
    """The first ``size`` bytes of each of the first ``pages`` pages under ``docs`` whose names
    end in one of ``suffixes`` (module docstring)."""
    seen = 0
    for top, folders, files in os.walk(docs):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        for name in sorted(files):
            path = os.path.join(top, name)
            if name.startswith(".") or not name.endswith(suffixes) or os.path.islink(path):
                continue
            try:
                with open_regular(path, follow=False) as page:
                    head = page.read(size)
            except OSError:  # NotRegularFile included
                continue
            yield head
            seen += 1
            if seen >= pages:
                return
