"""The home page's hero and features (issue 36): a page with ``layout: home`` shows what its front
matter's ``hero`` and ``features`` say, rendered by the default theme, above the page's own
Markdown. Read as text: the hero's ``name`` as the H1 (the title a reader sees), its ``text`` and
``tagline`` as the lines below it, its actions' ``text`` as a list, and each feature as
``Title: details``. Values that are not strings are left out; nothing is run."""

from __future__ import annotations

from ..api import Context

CONSTRUCT = "vitepress home page"


def _text(value: object) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def hero(front_matter: dict, ctx: Context) -> str:
    """The Markdown the hero and features show, or "" for a page that is not a home page."""
    if not isinstance(front_matter, dict) or front_matter.get("layout") != "home":
        return ""
    out: list[str] = []
    top = front_matter.get("hero")
    if isinstance(top, dict):
        name, text, tagline = _text(top.get("name")), _text(top.get("text")), _text(top.get("tagline"))
        heading = name or text
        if heading:
            out.append(f"# {heading}")
        out += [line for line in ((text if name else ""), tagline) if line]
        actions = top.get("actions")
        links = [_text(a.get("text")) for a in actions if isinstance(a, dict)] if isinstance(actions, list) else []
        if any(links):
            out.append("\n".join(f"- {link}" for link in links if link))
    features = front_matter.get("features")
    for feature in features if isinstance(features, list) else []:
        if isinstance(feature, dict) and (_text(feature.get("title")) or _text(feature.get("details"))):
            title, details = _text(feature.get("title")), _text(feature.get("details"))
            out.append(f"{title}: {details}" if title and details else title or details)
    if out:
        ctx.note(CONSTRUCT, "converted", 1)
    return "\n\n".join(out)
