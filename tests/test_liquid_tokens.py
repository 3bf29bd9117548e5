"""Liquid's tokens kept per text (``jekyll.liquid_tokens.Tokens``) are the tokens a fresh lexer
finds from each position, whatever order the positions are asked in: a loop's body is rendered
once per item, and an item may read a nested loop that the one before it skipped, asking again
from a position left of where the lexer stands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.jekyll.liquid_tokens import Tokens, next_token
from contextpull.dialects.syntax.template_tags import LIQUID, Lexer

# Texts made of tags, outputs, their halves and text between, so that most hold several tokens.
PIECES = ["{{ x }}", "{{- y -}}", "{% if a %}", "{%- for i in l -%}", "{% endfor %}", "{% %}",
          "{{", "}}", "{%", "%}", "{", "}", "a", " ", "\n", "-"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def _fresh(text: str, pos: int):
    return next_token(Lexer(text, LIQUID), pos)


@settings(max_examples=500, deadline=None)
@given(TEXTS, st.lists(st.floats(min_value=0, max_value=1), max_size=12))
def test_kept_tokens_are_a_fresh_lexers_from_every_position(text, shares):
    tokens = Tokens(text)
    for share in shares:
        pos = int(share * len(text))
        assert tokens.next(pos) == _fresh(text, pos), (text, pos)


def test_a_loop_body_read_again_from_the_start_and_from_within():
    text = "{% for x in a %}{{ x }}{% endfor %} and {{- y -}} {% %} {{ z }}"
    tokens = Tokens(text)
    order = [0, 16, 23, 35, 0, 23, 16, 50]
    assert [tokens.next(p) for p in order] == [_fresh(text, p) for p in order]
    assert tokens.next(0).name == "for" and tokens.next(16).name is None
    assert tokens.line(text.index("{{ z"), 7) == 7


def test_a_position_inside_a_tag_the_lexer_passed_over():
    """A ``{% %}`` without a name is text, and the lexer reads on past it: an output inside it
    is a token from a position within, which a lexer that has moved on no longer sees."""
    text = "{% {{a}} %}{{b}}"
    tokens = Tokens(text)
    assert tokens.next(0) == _fresh(text, 0) and tokens.next(0).start == 11
    assert tokens.next(3) == _fresh(text, 3) and tokens.next(3).start == 3


def test_lines_are_counted_from_the_first_one_given():
    text = "a\n{{ x }}\n\n{% if y %}"
    tokens = Tokens(text)
    assert tokens.line(tokens.next(0).start, 10) == 11
    assert tokens.line(tokens.next(tokens.next(0).end).start, 1) == 4
