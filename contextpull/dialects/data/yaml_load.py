"""YAML read as data through PyYAML, for ``files.load_yaml``, which imports this module on its
first call: a build of a site without YAML never imports PyYAML.

PyYAML's ``SafeLoader`` is subclassed so that the tags generators' files carry and no safe loader
knows (mkdocs' ``!!python/name:material.extensions.emoji.twemoji``, ``!ENV``, ``!relative``) read
as None instead of failing the whole file, and so that an alias bomb (a "billion laughs" document:
a few hundred bytes that expand to billions of nodes) is refused by counting the nodes it would
expand to before anything is built from it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

import yaml

from . import DataError

# Nodes a YAML document may expand to, aliases counted each time they are used: far above any
# real configuration or front matter (mkdocs-material's own mkdocs.yml is a few thousand).
MAX_YAML_NODES = 200_000


# libyaml's parser when PyYAML was built with it: front matter is parsed once per page, and on a
# Hugo site of 990 pages the pure-Python parser alone took a second.
_SAFE = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


class _Loader(_SAFE):  # type: ignore[misc, valid-type]
    """SafeLoader with unknown tags as None and a bound on expanded size, checked on the node
    graph before anything is constructed from it."""

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None and self._may_alias:
            _check_expansion(node)
        return node

    def __init__(self, stream):
        # Without an alias the graph is a tree no larger than its text: only a document that could
        # alias needs the walk. Most front matter has no ``*`` at all, and a data file's ``*`` is
        # mostly prose in a quoted string (a Hugo site's 122 KB of docs data has none that can be
        # an alias, and the walk was a tenth of reading it).
        self._may_alias = not isinstance(stream, str) or ("*" in stream and _ALIAS.search(stream) is not None)
        super().__init__(stream)


# Where an alias can stand: ``*`` then an anchor character, at the start of the text or after
# white space, a flow opener, ``,`` or ``:`` (a node starts only there, never right after ``]``
# or ``}``). A ``*`` anywhere else is part of a scalar; a match inside a scalar (``a **bold**
# word``) only costs the walk.
_ALIAS = re.compile(r"(?:\A|[\s\[{,:])\*[^\s\[\]{},]")


def _unknown_tag(loader: _Loader, suffix_or_node, node=None) -> None:
    return None


_Loader.add_constructor(None, lambda loader, node: None)
_Loader.add_multi_constructor("!", _unknown_tag)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _unknown_tag)


def _check_expansion(root) -> None:
    """Refuse a document whose aliases would expand past ``MAX_YAML_NODES`` or into themselves.
    Each node's expanded size is computed once (memoised by identity), so the check costs the
    size of the document, not of its expansion."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            total = 1
            for child in _children(node):
                total += sizes[id(child)]
            if total > MAX_YAML_NODES:
                raise DataError(f"YAML expands to more than {MAX_YAML_NODES} nodes (an alias bomb?)")
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise DataError("YAML alias refers to itself")
        open_nodes.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise DataError("YAML alias refers to itself")
            if id(child) not in sizes:
                stack.append((child, False))


def _children(node) -> list:
    if node is None:
        return []
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


_STR, _MAP, _SEQ = (f"tag:yaml.org,2002:{name}" for name in ("str", "map", "seq"))
# Keys PyYAML's safe constructor rewrites before it builds a mapping (``flatten_mapping``).
_REWRITTEN_KEYS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("merge", "value"))


class _Unusual(Exception):
    """A node the plain walk leaves to PyYAML's constructor."""


def _load(text: str) -> Any:
    """``yaml.load(text, Loader=_Loader)``, the node graph built the same way (libyaml's composer
    where PyYAML has it), and a document without aliases built by ``_tree``: PyYAML's
    constructor is Python, a generator per mapping and a lookup per node, and it was half of
    reading a Hugo site's 122 KB ``data/docs.yaml`` (20 of 43 ms), which a build reads once
    per process. Anything ``_tree`` does not build exactly as PyYAML does goes to PyYAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if not loader._may_alias:
            try:
                return _tree(loader, node)
            except _Unusual:
                pass
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _tree(loader: _Loader, node) -> Any:
    """The value of a node graph that is a tree (no alias): strings as their text, every other
    scalar by the loader's own constructor for its tag, mappings and sequences of the core tags
    as dicts and lists in document order (a repeated key's last value, at its first place).
    ``_Unusual`` for what PyYAML builds otherwise: another collection tag (``!!set``,
    ``!!omap``, an unknown tag read as None), a merge or value key, a key that is no hashable
    value (PyYAML's error is then PyYAML's own)."""
    if isinstance(node, yaml.ScalarNode):
        return node.value if node.tag == _STR else loader.construct_object(node)
    if isinstance(node, yaml.MappingNode):
        if node.tag != _MAP:
            raise _Unusual
        out = {}
        for key_node, value_node in node.value:
            if key_node.tag in _REWRITTEN_KEYS:
                raise _Unusual
            key = _tree(loader, key_node)
            if not isinstance(key, Hashable):
                raise _Unusual
            out[key] = _tree(loader, value_node)
        return out
    if node.tag != _SEQ:
        raise _Unusual
    return [_tree(loader, item) for item in node.value]


def load(text: str) -> Any:
    """The first YAML document of ``text`` as plain data; ``DataError`` when it is not YAML."""
    try:
        return _load(text)
    except DataError:
        raise
    except yaml.YAMLError as exc:
        raise DataError(f"malformed YAML: {_yaml_reason(exc)}") from None
    except RecursionError:
        raise DataError("YAML nested too deeply") from None
    except (ValueError, TypeError, OverflowError) as exc:  # a timestamp out of range, a bad key
        raise DataError(f"malformed YAML: {exc}") from None


def _yaml_reason(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"{problem} (line {mark.line + 1})" if mark is not None else problem
