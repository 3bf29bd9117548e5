"""Path globs for the page rules that read a generator's own patterns (mkdocs' ``exclude_docs``,
Sphinx's ``exclude_patterns``), matched in time bounded by the path's and pattern's lengths.

A glob written as a regular expression backtracks: ``*a*a*a*a*a*a*b`` against a long path
takes seconds, and a build asks for every file. A pattern with few stars (every real one) is
matched by its regular expression, which is fastest; one with more runs through a simulation of
its automaton instead, which visits each character once per pattern position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

# Stars a regular expression may hold before its backtracking could take longer than the
# automaton: with three, the worst path costs a few milliseconds.
MAX_REGEX_STARS = 3

# Tokens: ("lit", text), ("one",) one character but "/", ("star",) a run without "/",
# ("any",) any run, ("dirs",) nothing or a run ending in "/", ("class", "[...]") one character.
Token = tuple
_REGEX = {"one": "[^/]", "star": "[^/]*", "any": ".*", "dirs": "(?:.*/)?"}


@dataclass(frozen=True)
class Glob:
    tokens: tuple[Token, ...]
    regex: re.Pattern[str] | None = None  # None: matched by the automaton
    classes: tuple[re.Pattern[str] | None, ...] = field(default=())

    def match(self, text: str) -> bool:
        if self.regex is not None:
            return self.regex.match(text) is not None
        return _simulate(self, text)


def compile_glob(tokens: Sequence[Token]) -> Glob:
    """The glob of ``tokens``, matched against a whole string; runs of stars that mean the same
    as one are merged first."""
    merged: list[Token] = []
    for token in tokens:
        if merged and token[0] in ("star", "any", "dirs") and merged[-1][0] == token[0]:
            continue
        if merged and token[0] == "lit" and merged[-1][0] == "lit":
            merged[-1] = ("lit", merged[-1][1] + token[1])
            continue
        merged.append(token)
    stars = sum(1 for t in merged if t[0] in ("star", "any", "dirs"))
    if stars <= MAX_REGEX_STARS:
        body = "".join(re.escape(t[1]) if t[0] == "lit" else t[1] if t[0] == "class" else _REGEX[t[0]] for t in merged)
        return Glob(tuple(merged), re.compile(body + r"\Z"))
    classes = tuple(re.compile(t[1]) if t[0] == "class" else None for t in merged)
    return Glob(tuple(merged), None, classes)


def _simulate(glob: Glob, text: str) -> bool:
    """Whether the tokens match all of ``text``: a set of states, each a token position (and,
    inside a ``dirs`` token, whether a run has begun), advanced one character at a time."""
    tokens = glob.tokens
    # expand literals into one state per character: (token index, offset in the literal)
    states = _closure({(0, 0)}, tokens)
    for char in text:
        following: set[tuple[int, int]] = set()
        for i, k in states:
            if i == len(tokens):
                continue
            kind = tokens[i][0]
            if kind == "lit":
                if tokens[i][1][k] == char:
                    following.add((i, k + 1) if k + 1 < len(tokens[i][1]) else (i + 1, 0))
            elif kind == "one":
                if char != "/":
                    following.add((i + 1, 0))
            elif kind == "class":
                if glob.classes[i].fullmatch(char):
                    following.add((i + 1, 0))
            elif kind == "star":
                if char != "/":
                    following.add((i, 0))
            elif kind == "any":
                following.add((i, 0))
            elif kind == "dirs":  # k == 1: inside the run; a "/" may end it
                following.add((i, 1))
                if char == "/":
                    following.add((i + 1, 0))
        states = _closure(following, tokens)
        if not states:
            return False
    return (len(tokens), 0) in states


def _closure(states: set[tuple[int, int]], tokens: Sequence[Token]) -> set[tuple[int, int]]:
    """``states`` with every state a token that may match nothing leads on to."""
    out = set(states)
    stack = list(states)
    while stack:
        i, k = stack.pop()
        if i < len(tokens) and k == 0 and tokens[i][0] in ("star", "any", "dirs") and (i + 1, 0) not in out:
            out.add((i + 1, 0))
            stack.append((i + 1, 0))
    return out
