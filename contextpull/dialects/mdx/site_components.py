"""The MDX rules' writers, for the readers of a generator's own components
(``SiteReader.mdx_components``: name -> ``read(element, env) -> text``): a block of its own,
children as a block's (dedented) text, children inline, a block labelled before its text, and a
component described as data (``provided.Shown``: a label, text, code from an attribute).

A generator's reader builds its text with these rather than with the rules' private helpers, so
the rules can change how they write a block without every generator following.
"""

from __future__ import annotations

from . import jsx, provided
from ..syntax.markup import dedent_block
from ..syntax.fences import fenced
from .mdx import _block, _body, _labelled, _render
from .render_env import Env, include
from .mdx_source import mask, unmask


def block(text: str) -> str:
    return _block(text)


def body(nodes: list, env: Env) -> str:
    return _body(nodes, env)


def render(nodes: list, env: Env) -> str:
    return _render(nodes, env)


def labelled_block(label: str, nodes: list, env: Env) -> str:
    return _block(_labelled(label, _body(nodes, env), env))


def shown(node: jsx.Element, shown: provided.Shown, env: Env) -> str:
    """A generator's own component as its reader shows it (``provided.Shown``): a block when
    its tag stands alone on its line, else inline (a badge in a heading)."""
    if shown.code_from:
        code = _attribute_code(node.attrs.get(shown.code_from), env, node.pos)
        if code is None:
            env.note("jsx component", "unresolved", node.pos,
                     f"<{node.name}>: its {shown.code_from} is JavaScript, never run: nothing kept")
            return ""
        env.note("jsx component", "converted", node.pos)
        return _block(mask(fenced(dedent_block(code.strip("\n")), shown.language), env.codes))
    env.note("jsx component", "converted", node.pos)
    body = _body(node.children, env) if node.children else ""
    text = "\n\n".join(p for p in (shown.text.strip(), body) if p)
    if not node.block:
        return " ".join(p for p in (shown.label, " ".join(text.split())) if p)
    if shown.label:
        return _block(_labelled(shown.label, text, env))
    return _block(text) if text else ""


def code_tabs(tabs: list[tuple[str, str, str]], env: Env) -> str:
    """Tabs of code, (label, code, language) each, as the MDX rules write ``<Tabs>`` of fenced
    blocks: each block under its tab's label."""
    parts = [_block(_labelled(label, mask(fenced(dedent_block(code.strip("\n")), lang), env.codes), env))
             for label, code, lang in tabs if code.strip()]
    return _block("".join(parts)) if parts else ""


def literal_attrs(attrs: dict, env: Env) -> dict:
    """Attributes as a generator's hook reads them: a ``{`template`}`` whose code was masked is
    its string again; any other expression stays an ``Expr``."""
    out = {}
    for key, value in attrs.items():
        if isinstance(value, jsx.Expr):
            literal = jsx.Expr(unmask(value.source, env.codes), value.pos).literal
            value = value if literal is None else literal
        out[key] = value
    return out


def _attribute_code(value, env: Env, pos: int) -> str | None:
    """The code an attribute gives: a string, a string literal, or the text of the raw import
    (``import x from './x.ts?raw'``) it names; None for any other JavaScript."""
    if isinstance(value, str):
        return unmask(value, env.codes)
    if not isinstance(value, jsx.Expr):
        return None
    source = unmask(value.source, env.codes)
    literal = jsx.Expr(source, value.pos).literal
    if literal is not None:
        return literal
    imp = env.imports.get(source.strip())
    if imp is None or imp.kind != "raw":
        return None
    included = include(imp, env, pos, "mdx raw import")
    return None if included is None else included.text.rstrip("\n")


def labelled_or_label(label: str, nodes: list, env: Env) -> str:
    """``labelled_block``, or the label alone when the children show no text (a caption around
    an image)."""
    text = _body(nodes, env)
    return _block(_labelled(label, text, env) if text.strip() else label)
