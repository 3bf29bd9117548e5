"""How much one page's API reference may read and render (issue 37, "guarded and bounded like
includes").

The module files themselves go through the include door (``Context.read_data_with_sha``), so the
per-file bound (``includes.MAX_INCLUDE_BYTES``) and the document's byte budget already hold; these
limits add what the door cannot see: how large a module griffe may model (its objects cost far
more memory than the text), how many modules a page loads, how many objects it renders, and how
long it may take. A limit reached is a named ``unresolved`` note and the page keeps what was
rendered before it, so a hostile package costs a bounded time and never loses the page.

The time limit is the one bound whose outcome could depend on the machine; it is set far above what
any real page takes (the largest measured page, pydantic's ``BaseModel``, renders in well under a
second), so it only stops a pathological input, and says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


class LimitReached(Exception):
    """A page's API reference went past one of its limits; the message names which."""


@dataclass(frozen=True)
class Limits:
    max_modules: int = 400  # module files one page may load
    # A module larger than this is not visited: griffe's model of a 3.7 MB module of 60,000
    # functions took 7.5 s and 790 MB; the largest module of the measured projects is 255 KB.
    max_module_bytes: int = 1024 * 1024
    # Source a build's reader keeps modelled between pages; past it, what it holds is dropped
    # before the next page (pages read the same either way: sources.py), so memory stays bounded.
    max_held_bytes: int = 24 * 1024 * 1024
    max_objects: int = 5_000  # objects (headings) one page may render
    max_seconds: float = 60.0  # wall time one page's API reference may take
    max_alias_hops: int = 50  # an import chain longer than this is treated as a cycle


@dataclass
class Budget:
    """What is left of one page's limits."""

    limits: Limits = field(default_factory=Limits)
    modules: int = 0
    objects: int = 0
    started: float = field(default_factory=time.monotonic)

    def module(self, name: str) -> None:
        self.modules += 1
        if self.modules > self.limits.max_modules:
            raise LimitReached(f"the page's limit of {self.limits.max_modules} modules is reached at {name}")
        self.clock(name)

    def object(self, path: str) -> None:
        self.objects += 1
        if self.objects > self.limits.max_objects:
            raise LimitReached(f"the page's limit of {self.limits.max_objects} objects is reached at {path}")
        if self.objects % 64 == 0:
            self.clock(path)

    def clock(self, where: str) -> None:
        if time.monotonic() - self.started > self.limits.max_seconds:
            raise LimitReached(f"the page's time limit of {self.limits.max_seconds:g} s is reached at {where}")
