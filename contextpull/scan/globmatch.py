"""The one glob matcher for every pattern a user's files or settings reach (issue 34):
``.contextpullignore`` lines, VitePress's ``srcExclude``, mkdocs' ``exclude_docs`` and
``not_in_nav``, Sphinx's ``exclude_patterns``, Jekyll's ``exclude``, Hugo's cascade ``target.path``;
each surface turns its own syntax into tokens (its ``{a,b}`` groups spelled out first) and
matches here, in time bounded by the product of the path's and the pattern's lengths.

A glob written as a regular expression backtracks: ``*a*a*a*a*a*a*b`` against a 90-character
name took a build from 0.45 s to 32 s, and three stars against a 2,000-character one take 30 s.
A pattern with at most one star (``*.md``, ``drafts/**``: most real ones) is matched by its
regular expression, which is fastest and cannot backtrack more than once over the path; one
with more runs through a simulation of its automaton instead, which visits each character once
per pattern position, and remembers the steps it took so the next path pays less.

Standard library only: the reader's side may use it as well as the build's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

# Stars a regular expression may hold before its backtracking is no longer linear in the path:
# with two, a 2,000-character name costs 44 ms, with three 30 s; with one, one pass per start.
MAX_REGEX_STARS = 1
# Automaton steps remembered per glob: enough for every distinct prefix state of a build's
# paths, bounded so a hostile tree cannot grow it without end.
STEP_CACHE = 4096
# Spellings of one pattern's brace groups: real ones have two to four.
MAX_ALTERNATIVES = 64

# Tokens: ("lit", text), ("one",) one character but "/", ("char",) any one character,
# ("star",) a run without "/", ("any",) a run without a newline, ("anything",) any run,
# ("dirs",) nothing or a run without a newline ending in "/",
# ("class", "[...]") one character of a regular expression's class.
Token = tuple
_REGEX = {"one": "[^/]", "char": "(?s:.)", "star": "[^/]*", "any": ".*", "anything": "(?s:.*)", "dirs": "(?:.*/)?"}
_RUNS = ("star", "any", "anything", "dirs")  # tokens that may match nothing or a run


@dataclass(frozen=True)
class Glob:
    tokens: tuple[Token, ...]
    regex: re.Pattern[str] | None = None  # None: matched by the automaton
    classes: tuple[re.Pattern[str] | None, ...] = field(default=())
    steps: dict = field(default_factory=dict, compare=False, repr=False)

    def match(self, text: str) -> bool:
        """Whether the glob matches all of ``text``."""
        if self.regex is not None:
            return self.regex.match(text) is not None
        return _simulate(self, text)


def compile_glob(tokens: Sequence[Token]) -> Glob:
    """The glob of ``tokens``, matched against a whole string; runs of stars that mean the same
    as one are merged first."""
    merged: list[Token] = []
    for token in tokens:
        if merged and token[0] in _RUNS and merged[-1][0] == token[0]:
            continue
        if merged and token[0] == "lit" and merged[-1][0] == "lit":
            merged[-1] = ("lit", merged[-1][1] + token[1])
            continue
        merged.append(token)
    stars = sum(1 for t in merged if t[0] in _RUNS)
    if stars <= MAX_REGEX_STARS:
        body = "".join(re.escape(t[1]) if t[0] == "lit" else t[1] if t[0] == "class" else _REGEX[t[0]] for t in merged)
        return Glob(tuple(merged), re.compile(body + r"\Z"))
    classes = tuple(re.compile(t[1]) if t[0] == "class" else None for t in merged)
    return Glob(tuple(merged), None, classes)


def _simulate(glob: Glob, text: str) -> bool:
    """Whether the tokens match all of ``text``: a set of states, each a token position (and,
    inside a ``dirs`` token, whether a run has begun), advanced one character at a time."""
    tokens = glob.tokens
    steps = glob.steps
    # expand literals into one state per character: (token index, offset in the literal)
    states = frozenset(_closure({(0, 0)}, tokens))
    for char in text:
        key = (states, char)
        following = steps.get(key)
        if following is None:
            following = _step(glob, states, char)
            if len(steps) >= STEP_CACHE:
                steps.clear()
            steps[key] = following
        states = following
        if not states:
            return False
    return (len(tokens), 0) in states


def _step(glob: Glob, states: frozenset, char: str) -> frozenset:
    """The states after reading ``char`` in ``states``; each token reads as its regular
    expression in ``_REGEX`` does (``.`` is any character but a newline unless the token says)."""
    tokens = glob.tokens
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
        elif kind == "char":
            following.add((i + 1, 0))
        elif kind == "class":
            if glob.classes[i].fullmatch(char):
                following.add((i + 1, 0))
        elif kind == "star":
            if char != "/":
                following.add((i, 0))
        elif kind == "anything":
            following.add((i, 0))
        elif kind == "any":
            if char != "\n":
                following.add((i, 0))
        elif kind == "dirs" and char != "\n":  # k == 1: inside the run; a "/" may end it
            following.add((i, 1))
            if char == "/":
                following.add((i + 1, 0))
    return frozenset(_closure(following, tokens))


def _closure(states: set[tuple[int, int]], tokens: Sequence[Token]) -> set[tuple[int, int]]:
    """``states`` with every state a token that may match nothing leads on to."""
    out = set(states)
    stack = list(states)
    while stack:
        i, k = stack.pop()
        if i < len(tokens) and k == 0 and tokens[i][0] in _RUNS and (i + 1, 0) not in out:
            out.add((i + 1, 0))
            stack.append((i + 1, 0))
    return out


def bracket_end(pattern: str, i: int) -> int | None:
    """Where the bracket expression opened just before ``i`` closes, as fnmatch and Sphinx find
    it (a ``]`` right after ``[`` or ``[!`` is a member); None when it never does (the ``[`` is
    then a literal)."""
    n = len(pattern)
    j = i + (1 if i < n and pattern[i] == "!" else 0)
    j += 1 if j < n and pattern[j] == "]" else 0
    while j < n and pattern[j] != "]":
        j += 1
    return j if j < n else None


def slash_tokens(pattern: str, empty_folders: bool = True) -> list[Token]:
    """The tokens of a glob whose wildcards stop at folders: gitignore's (``.contextpullignore``)
    and fast-glob's (VitePress's ``srcExclude``) read them alike. ``*`` and ``?`` stay within a
    folder (fnmatch's would cross "/"), ``**/`` is any number of folders, none included, and any
    other ``**`` is any run of a path's characters.

    Go's gobwas/glob with "/" as its separator (Hugo's cascade ``target.path``) differs in ``**``
    alone, hence the parameter: without ``empty_folders``, ``**`` is any run of characters
    whatever follows it, so ``/a/**/b`` needs both slashes and does not match ``/a/b``."""
    tokens: list[Token] = []
    i, n = 0, len(pattern)
    while i < n:
        if empty_folders and pattern.startswith("**/", i):
            tokens.append(("dirs",))
            i += 3
        elif pattern.startswith("**", i):
            tokens.append(("any",) if empty_folders else ("anything",))
            i += 2
        elif pattern[i] == "*":
            tokens.append(("star",))
            i += 1
        elif pattern[i] == "?":
            tokens.append(("one",))
            i += 1
        else:
            tokens.append(("lit", pattern[i]))
            i += 1
    return tokens


_BRACE = re.compile(r"[{}]")


def alternatives(pattern: str) -> list[str]:
    """``pattern`` with its ``{a,b}`` groups spelled out, each spelling a glob of its own (as
    gobwas/glob reads them; one pass, the spellings bounded). A nested group, one never closed,
    a stray ``}`` or more than ``MAX_ALTERNATIVES`` spellings give none: the caller then takes
    nothing for matched by the pattern."""
    spelled = [""]
    i = 0
    while i < len(pattern):
        if pattern[i] == "}":
            return []
        if pattern[i] != "{":
            brace = _BRACE.search(pattern, i)
            j = brace.start() if brace else len(pattern)
            spelled = [s + pattern[i:j] for s in spelled]
            i = j
            continue
        shut = pattern.find("}", i)
        if shut < 0 or "{" in pattern[i + 1 : shut]:
            return []
        choices = pattern[i + 1 : shut].split(",")
        if len(spelled) * len(choices) > MAX_ALTERNATIVES:  # refused before any copy is made
            return []
        spelled = [s + choice for s in spelled for choice in choices]
        i = shut + 1
    return spelled


def fnmatch_tokens(pattern: str) -> list[Token]:
    """The tokens of a Python ``fnmatch`` pattern (``*`` and ``?`` cross "/", ``[!...]``
    negates), each class translated by ``fnmatch`` itself so its meaning is fnmatch's."""
    tokens: list[Token] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            tokens.append(("anything",))
        elif c == "?":
            tokens.append(("char",))
        elif c == "[":
            j = bracket_end(pattern, i)
            if j is None:
                tokens.append(("lit", "["))
                continue
            tokens.append(("class", _fnmatch_class(pattern[i - 1 : j + 1])))
            i = j + 1
        else:
            tokens.append(("lit", c))
    return tokens


def _fnmatch_class(text: str) -> str:
    """``fnmatch``'s regular expression for one bracket expression, e.g. ``[!a-c]``."""
    import fnmatch

    translated = fnmatch.translate(text)  # "(?s:" + body + ")\\Z"
    return "(?s:" + translated[len("(?s:") : -len(")\\Z")] + ")"
