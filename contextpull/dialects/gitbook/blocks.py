"""GitBook's content blocks as a reader of the published page sees them (issue 36).

GitBook writes its blocks into Markdown as Liquid-like tags (``{% hint style="info" %}`` ...
``{% endhint %}``), lexed by the one template-tag lexer (``syntax/template_tags``) with Liquid's
``{% %}`` delimiters and nothing else: GitBook has no ``{{ }}`` output. Tags inside fenced code
or an inline code span are text (``syntax/fences``); a tag that would reach into code is text too.

- ``hint``: a labelled admonition (``syntax/labels``: ``info`` reads "Note", as a Jekyll
  ``{: .info}`` does; ``success`` "Success");
- ``tabs`` / ``tab title="…"``: each tab a labelled part; ``stepper`` / ``step``: "Step N";
  ``updates`` / ``update date="…"``: the date as the label; ``columns`` / ``column``: their text;
- ``code title="…" lineNumbers="true"``: the title above the fence, the code as written;
- ``content-ref url="x.md"``: the link it wraps (its text is what the card shows), else the url;
- ``embed url="…"`` and ``file src="…"`` (with or without an end tag holding a caption): named,
  never fetched; ``swagger`` / ``openapi`` and the older ``api-method`` family: the operation,
  its parameters and responses as labelled lines, their descriptions kept;
- ``@vendor/block url="…"`` (an integration's block, a GitHub file shown as code): named by its
  integration and url, never fetched;
- ``include "path"`` (reusable content, ``.gitbook/includes/``): the file's text through the
  guarded resolver, read the same way;
- ``raw``: its text, untouched.

The blocks nest by the shared paired-tag walk (``syntax/tag_blocks``, Liquid's ``end`` closers).
Anything else is dropped with its text kept and noted ``unresolved``, as is an end tag that
closes nothing and a block never closed (its text kept, labelled as if closed where its parent
ends); past ``context.MAX_LISTED`` such notes of a construct in one page, the rest are counted in
one. Each tag is
read once and blocks nest at most ``MAX_DEPTH`` deep, so a page costs a pass over its tags
whatever it holds.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from typing import NamedTuple

from ..data.front_matter import split_front_matter
from ..syntax.labels import class_label, labelled, title
from ..syntax.options import arguments
from ..syntax.tag_blocks import LIQUID, TagWalk, tags_of

MAX_DEPTH = 32
# A tag's name; an integration's block is named ``@vendor/block`` (``@github-files/github-code-block``).
_NAME = re.compile(r"[ \t]*(@?[A-Za-z][\w./-]*)")

# Blocks that always have an end tag, and those that may stand alone (a caption inside when closed).
_BLOCKS = frozenset(
    "hint tabs tab code content-ref stepper step columns column updates update swagger "
    "swagger-description swagger-parameter swagger-response api-method api-method-summary "
    "api-method-description api-method-spec api-method-request api-method-response "
    "api-method-path-parameters api-method-query-parameters api-method-headers "
    "api-method-body-parameters api-method-form-data-parameters api-method-parameter "
    "api-method-response-example api-method-response-example-description".split())
_MAYBE_CLOSED = frozenset(("embed", "file", "openapi", "openapi-operation", "openapi-schemas"))
_API = frozenset(("swagger", "api-method", "openapi", "openapi-operation"))
_PARAMETER = frozenset(("swagger-parameter", "api-method-parameter"))
_RESPONSE = frozenset(("swagger-response", "api-method-response-example"))


class _Tag(NamedTuple):
    name: str
    args: dict[str, str]
    positional: tuple[str, ...]
    start: int
    end: int
    line: int


def convert(text: str, ctx, within=None, at_line: int | None = None) -> str:
    """``text`` with its GitBook tags read (module docstring). ``within``: the included file the
    text is (its folder is where nested includes start); ``at_line``: the line every note names
    (the include's, for an included file's tags)."""
    if "{%" not in text:
        return text
    tags = _tags(text, at_line)
    if not tags:
        return text
    reading = _Reading(ctx, within)
    walk = TagWalk(text, tags, LIQUID, MAX_DEPTH,
                   lambda frame, body: _block(reading.render(frame.tag, body, frame.number)),
                   lambda line, detail: ctx.note("gitbook tag", "unresolved", line, detail))
    raw_ends = [k for k, t in enumerate(tags) if t.name == "endraw"]
    for tag in walk:
        name = tag.name
        if name == "raw":
            k = bisect.bisect_right(raw_ends, walk.at)
            if k < len(raw_ends):
                walk.verbatim_to(raw_ends[k])
            else:
                reading.note("gitbook tag", tag, "{% raw %} never closed by {% endraw %}: dropped")
        elif name == "include":
            walk.add(reading.include(tag))
        elif name in _BLOCKS or (_maybe_closed(name) and getattr(walk.following(), "name", None) == "end" + name):
            parent = walk.parent
            frame = walk.open(tag)
            if frame is not None and name == "step":
                parent.children += 1
                frame.number = parent.children
        elif _maybe_closed(name):
            walk.add(_block(reading.render(tag, "")))
        else:
            reading.note("gitbook tag", tag, f"unknown tag {{% {name} %}}: dropped, the text around it kept")
    return walk.result()


def _maybe_closed(name: str) -> bool:
    return name in _MAYBE_CLOSED or name.startswith("@")


def _tags(text: str, at_line: int | None) -> list[_Tag]:
    """The tags of ``text`` outside code, left to right."""

    def read(found, line: int) -> _Tag | None:
        named = _NAME.match(found.body)
        if named is None:
            return None
        args: dict[str, str] = {}
        positional: list[str] = []
        for arg in arguments(found.body[named.end():], spaced=True):
            if arg.name is None:
                positional.append(arg.value)
            else:
                args.setdefault(arg.name.lower(), arg.value)
        return _Tag(named.group(1).lower(), args, tuple(positional), found.start, found.end, line)

    return tags_of(text, read, at_line)


class _Reading:
    """One text's tags turned into what the page shows, notes made on the document's context."""

    def __init__(self, ctx, within) -> None:
        self.ctx, self.within = ctx, within

    def note(self, construct: str, tag: _Tag, detail: str, outcome: str = "unresolved") -> None:
        self.ctx.note(construct, outcome, tag.line, detail)

    def include(self, tag: _Tag) -> str:
        target = tag.positional[0] if tag.positional else tag.args.get("file", "")
        if not target:
            self.note("gitbook include", tag, "{% include %} names no file: dropped")
            return ""
        within = self.within
        base = within.folder if within is not None else self.ctx.folder
        found = self.ctx.include(target, base=base, line=tag.line, construct="gitbook include", within=within)
        if found is None:
            return ""
        body = split_front_matter(found.text).body.strip("\n")
        return convert(body, self.ctx, within=found, at_line=tag.line)

    def render(self, tag: _Tag, body: str, number: int = 0) -> str:
        """One block (or a tag standing alone, ``body`` ""), as the page shows it."""
        name, a = tag.name, tag.args
        construct = f"gitbook {name}"
        if name == "hint":
            style = (a.get("style") or "info").lower()
            self.note(construct, tag, "", "converted")
            return labelled(class_label({style}) or title(style), body)
        if name == "tab":
            return labelled(a.get("title") or "Tab", body)
        if name == "step":
            return labelled(f"Step {number}", body)
        if name == "update":
            return labelled(a.get("date") or "Update", body)
        if name == "code":
            self.note(construct, tag, "", "converted")
            return labelled(a["title"], body) if a.get("title") else body.strip("\n")
        if name == "content-ref":
            self.note(construct, tag, "", "converted")
            return body.strip() or a.get("url", "")
        if name in ("embed", "file"):
            where = a.get("url", "") if name == "embed" else posixpath.basename(a.get("src", ""))
            caption = body.strip() or a.get("caption", "")
            self.note(construct, tag, "named, not fetched", "converted")
            return labelled(name.capitalize(), f"{where} ({caption})" if caption and where else where or caption)
        if name.startswith("@"):
            self.note("gitbook integration", tag, "named, not fetched", "converted")
            shown = " ".join(p for p in (a.get("url", ""), body.strip()) if p)
            return labelled(f"Integration {name[1:]}", shown)
        if name in _API:
            self.note("gitbook api", tag, "", "converted")
            return labelled(_operation(a), body)
        if name in _PARAMETER:
            return labelled(_parameter(a), body)
        if name in _RESPONSE:
            status = a.get("status") or a.get("httpcode") or ""
            described = a.get("description", "")
            label = " ".join(p for p in ("Response", status) if p)
            return labelled(f"{label} — {described}" if described else label, body)
        if name in ("tabs", "stepper", "updates"):
            self.note(construct, tag, "", "converted")
        return body.strip("\n")


def _block(shown: str) -> str:
    """A block set apart by blank lines, as GitBook shows each block on its own: tags written on
    consecutive lines (an operation's description, parameters and responses) would otherwise
    run together into one paragraph."""
    return f"\n{shown}\n" if shown else shown


def _operation(a: dict[str, str]) -> str:
    """``API: GET https://host/path — summary`` from an operation's arguments."""
    method = a.get("method", "").upper()
    where = (a.get("baseurl") or a.get("host") or "") + a.get("path", "")
    head = " ".join(p for p in (method, where) if p) or a.get("src", "")
    summary = a.get("summary", "")
    return f"API: {head} — {summary}" if summary and head else f"API: {head or summary}"


def _parameter(a: dict[str, str]) -> str:
    """``Parameter id (path, string, required)`` from a parameter's arguments."""
    facts = [a.get("in", ""), a.get("type", "")]
    if a.get("required", "").lower() == "true":
        facts.append("required")
    shown = ", ".join(f for f in facts if f)
    return f"Parameter {a.get('name', '')}" + (f" ({shown})" if shown else "")
