"""What a ``{value}`` expression of an MDX page shows. Expressions are JavaScript and never run:
a partial's string prop, a string the page or a snippet exports (``export const x = 'text'``), or a
scalar of an imported JSON file (``{pkg.engines.node}``) is text; anything else is dropped and
named ``unresolved``.
"""

from __future__ import annotations

import json
import re

from . import jsx
from .mdx_source import Import, exported_values, unmask
from .render_env import Env, include

_MEMBER = re.compile(r"\s*([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*|\[\d+\])+)\s*")
_PROPS = re.compile(r"\s*props\.([A-Za-z_$][\w$]*)\s*")


def expression(node: jsx.Expr, env: Env) -> str:
    if env.commonmark:
        return "{" + node.source + "}"
    if node.comment:
        env.note("mdx comment", "converted", node.pos)
        return ""
    source = unmask(node.source, env.codes)
    literal = jsx.Expr(source, node.pos).literal
    if literal is not None:
        return literal
    prop = _PROPS.fullmatch(source)
    if prop is not None and prop.group(1) in env.props:
        env.note("mdx expression", "resolved", node.pos)
        return env.props[prop.group(1)]
    if source.strip() in env.props:  # a partial's prop by its bare name (Mintlify's snippets)
        env.note("mdx expression", "resolved", node.pos)
        return env.props[source.strip()]
    value = _variable(source.strip(), env, node.pos)
    if value is not None:
        return value
    member = _MEMBER.fullmatch(source)
    imp = env.imports.get(member.group(1)) if member else None
    if imp is not None and imp.kind == "json":
        value = _json_value(imp, member.group(2), env, node.pos)
        if value is not None:
            return value
        why = "not read" if env.data.get(imp.name) is None else "has no such value"
        env.note("mdx expression", "unresolved", node.pos, f"{{{source.strip()[:60]}}}: {imp.spec} {why}")
        return ""
    env.note("mdx expression", "unresolved", node.pos, f"{{{source.strip()[:60]}}} is JavaScript, not text")
    return ""


def _variable(name: str, env: Env, pos: int) -> str | None:
    """A string the page exports (``export const name = 'text'``) or imports from a snippet
    (``import { name } from '/snippets/vars.mdx'``), read from that file's ``export const``."""
    imp = env.imports.get(name)
    if imp is not None and imp.kind == "value":
        if ("value", imp.spec) not in env.data:
            included = include(imp, env, pos, "mdx snippet value")
            env.data[("value", imp.spec)] = exported_values(included.text) if included is not None else {}
        value = env.data[("value", imp.spec)].get(imp.exported)
    else:
        if ("exports",) not in env.data:
            env.data[("exports",)] = exported_values(env.esm)
        value = env.data[("exports",)].get(name)
    if value is not None:
        env.note("mdx expression", "resolved", pos)
    return value


def _json_value(imp: Import, path: str, env: Env, pos: int) -> str | None:
    """The scalar at ``path`` (``.a.b[0]``) in an imported JSON file, read once per source."""
    if imp.name not in env.data:
        included = include(imp, env, pos, "mdx json import")
        try:
            env.data[imp.name] = json.loads(included.text) if included is not None else None
        except (ValueError, RecursionError):
            env.note("mdx json import", "unresolved", pos, f"{imp.spec} is not JSON this reader can read (malformed or nested too deeply)")
            env.data[imp.name] = None
    value = env.data[imp.name]
    for key in re.findall(r"\.([A-Za-z_$][\w$]*)|\[(\d+)\]", path):
        if isinstance(value, dict) and key[0] in value:
            value = value[key[0]]
        elif isinstance(value, list) and key[1] and int(key[1]) < len(value):
            value = value[int(key[1])]
        else:
            return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, (str, int, float)) else None
