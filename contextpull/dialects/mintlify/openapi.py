"""Pages Mintlify generates from an OpenAPI operation (issue 36): front matter ``openapi: GET
/users`` (or ``openapi: /api.json GET /users``, naming the file), read "where simple".

The file is the one the front matter names (by its path, or by its name without extension, as
Mintlify matches a configured file), else the first of ``api.openapi`` in the
configuration (a string or a list), ``openapi`` at its top level (``mint.json``), the ``openapi``
values of its navigation, and ``openapi.json``/``openapi.yaml`` in the site folder, that holds the
operation. A JSON or YAML file of at most ``MAX_BYTES`` is parsed once per build and version; a URL
is not fetched. What the page shows of the operation is text: its summary (the title where the
page gives none), its description, then its parameters, the top-level properties of its JSON
request body and its responses, each a line as ``components`` writes an API field
(`` `limit` (integer, query, required): How many. ``). A ``$ref`` is followed within the file, at
most ``MAX_REFS`` steps. Nested schemas, examples and security are not shown.
"""

from __future__ import annotations

import json
import posixpath

from ..data.files import DataError, load_yaml
from .components import field_label

MAX_BYTES = 4 * 1024 * 1024
MAX_REFS = 16
METHODS = ("get", "put", "post", "delete", "patch", "options", "head", "trace")
DEFAULT_FILES = ("openapi.json", "openapi.yaml", "openapi.yml")


def parse_spec(data: bytes, name: str) -> dict | None:
    """The OpenAPI document as data, or None when it is not an object of JSON or YAML."""
    if len(data) > MAX_BYTES:
        return None
    text = data.decode("utf-8-sig", "replace")
    try:
        spec = load_yaml(text) if name.endswith((".yaml", ".yml")) else json.loads(text)
    except (DataError, ValueError, RecursionError):
        return None
    return spec if isinstance(spec, dict) else None


def split(value: str) -> tuple[str | None, str, str] | None:
    """(file or None, method, path) of a front-matter ``openapi`` value, None for another shape."""
    words = value.split()
    if len(words) == 3 and words[1].lower() in METHODS:
        return words[0], words[1].lower(), words[2]
    if len(words) == 2 and words[0].lower() in METHODS:
        return None, words[0].lower(), words[1]
    return None


def candidates(named: str | None, config: dict, nav_files: list[str]) -> list[str]:
    """The files to look in, as paths from the site folder (module docstring)."""
    api = config.get("api")
    known = _strings(api.get("openapi") if isinstance(api, dict) else None) + _strings(config.get("openapi"))
    known += nav_files + list(DEFAULT_FILES)
    if named is not None:
        files = [named]
        stem = named.strip().lstrip("/")
        if stem and not posixpath.splitext(stem)[1]:
            # Named by its name without extension (Trigger.dev: ``openapi: "v3-openapi GET /x"``
            # for the configured ``v3-openapi.yaml``): the configured file of that name.
            files += [f for f in known if posixpath.splitext(f.strip().lstrip("/"))[0] in
                      (stem, posixpath.join(posixpath.dirname(f.strip().lstrip("/")), stem))]
    else:
        files = known
    out = []
    for f in files:
        f = f.strip()
        if f and "://" not in f:
            path = posixpath.normpath(f.lstrip("/"))
            if path not in out:
                out.append(path)
    return out


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def operation(spec: dict, method: str, path: str) -> dict | None:
    paths = spec.get("paths")
    item = paths.get(path) if isinstance(paths, dict) else None
    item = _deref(spec, item)
    op = item.get(method) if isinstance(item, dict) else None
    return op if isinstance(op, dict) else None


def _deref(spec: dict, value):
    """``value`` with its ``$ref`` followed within ``spec`` (at most ``MAX_REFS`` steps)."""
    for _ in range(MAX_REFS):
        if not (isinstance(value, dict) and isinstance(value.get("$ref"), str)):
            return value
        ref = value["$ref"]
        if not ref.startswith("#/"):
            return None
        value = spec
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            value = value.get(part) if isinstance(value, dict) else None
    return None if isinstance(value, dict) and "$ref" in value else value


def _type(spec: dict, schema, depth: int = 0) -> str:
    """A schema's type as the API page prints it (``string[]``); arrays of arrays are followed
    at most ``MAX_REFS`` deep, so a schema whose items name itself ends."""
    schema = _deref(spec, schema)
    if not isinstance(schema, dict):
        return ""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = " | ".join(str(k) for k in kind)
    if kind == "array":
        inner = _type(spec, schema.get("items"), depth + 1) if depth < MAX_REFS else ""
        return f"{inner}[]" if inner else "array"
    return str(kind) if isinstance(kind, str) and kind else ""


def _line(name: str, kind: str, required: bool, where: str, description) -> str:
    label = field_label({"name": name, "type": ", ".join(p for p in (kind, where) if p), "required": required})
    text = " ".join(description.split()) if isinstance(description, str) else ""
    return f"{label}: {text}" if text else label


def render(spec: dict, op: dict) -> str:
    """The operation as the text its page shows (module docstring)."""
    parts = []
    if isinstance(op.get("description"), str) and op["description"].strip():
        parts.append(op["description"].strip())
    listed = op.get("parameters") if isinstance(op.get("parameters"), list) else []
    params = [p for p in (_deref(spec, p) for p in listed) if isinstance(p, dict) and isinstance(p.get("name"), str)]
    if params:
        parts.append("Parameters:")
        parts += [_line(p["name"], _type(spec, p.get("schema")), p.get("required") is True, str(p.get("in") or ""),
                        p.get("description")) for p in params]
    body = _deref(spec, op.get("requestBody"))
    content = body.get("content") if isinstance(body, dict) else None
    media = content.get("application/json") if isinstance(content, dict) else None
    schema = _deref(spec, media.get("schema")) if isinstance(media, dict) else None
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict) and props:
        required = schema.get("required") if isinstance(schema.get("required"), list) else []
        parts.append("Body:")
        for name, prop in props.items():
            prop = _deref(spec, prop)
            described = prop.get("description") if isinstance(prop, dict) else None
            parts.append(_line(str(name), _type(spec, prop), name in required, "", described))
    responses = op.get("responses")
    if isinstance(responses, dict) and responses:
        parts.append("Responses:")
        for code, resp in responses.items():
            resp = _deref(spec, resp)
            text = resp.get("description") if isinstance(resp, dict) else None
            parts.append(f"`{code}`: {' '.join(text.split())}" if isinstance(text, str) and text.strip() else f"`{code}`")
    return "\n\n".join(parts)
