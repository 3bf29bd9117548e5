"""Front matter read without the YAML parser (contextpull/dialects/data/plain_yaml.py) gives
exactly what PyYAML gives, types included, or declines so that PyYAML reads it."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contextpull.dialects.data import plain_yaml
from contextpull.dialects.data.files import DataError, load_yaml
from contextpull.dialects.data.front_matter import split_front_matter

DECLINED = plain_yaml.DECLINED

# Plain scalars YAML 1.1 types (bools, ints in four bases and sexagesimal, floats, nulls,
# timestamps) and strings that look like them, with quoted and flow forms.
SCALARS = [
    "yes", "No", "ON", "off", "true", "False", "y", "n", "1", "-1", "+1", "0", "017", "08", "0x1F", "0b101",
    "0o7", "1_000", "1:20", "190:20:30", "3.5", "1e3", "1.0e+3", "-.5", ".inf", "-.Inf", ".NaN", "1.", "~",
    "null", "Null", "NULL", "2023-01-02", "2023-1-2", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10",
    "2023-02-30", "=", "<<", "a", "Hello world", "C#", "x:y", "http://example.com/a?b=c", "a, b [c] {d}",
    "it's", 'say "hi"', "été", "日本", "'quoted'", "'it''s'", "''", '"double"', '""', '"a\\nb"', "'open",
    "[]", "{}", "[a, b]", "[ a , b ]", "[a,]", "[a, [b]]", "[1, yes, ~, 2023-01-02]", "[x: y]", "[-a]",
    "{a: b}", "a: b", "a #c", "a#b", "- a", "!tag x", "&anchor x", "*alias", "|", ">", "%x", "@x", "`x",
    "a\tb", "a\u2028b", "a\x85b", "\ufeffa", "\x07", "?x", "-", ":x",
    # comments after a value, and what only looks like one
    "a # c", "a  # c: d", "a#b # c", "a #", "a # 'x' [y]", "yes # c", "~ # c", "1 #c", "a: b # c", "a # c:",
    "'a' # c", "'a'# c", "'a'#c", "'a' b", "'a' #", "'a'' # b'", "'a # b'", '"a # b" # c', '"a"#c', '"a" x',
    "[a] # c", "[a]# c", "[a] b", "[a] ]", "[a, b] #", "# c",
    # flow sequences of quoted items: quotes, commas, brackets and "#" inside, escapes, stray text
    "['a']", "['a', 'b']", "[ 'a' , 'b' ]", "['a',b]", "[b, 'a']", "['it''s']", "['''']", "['']", '[""]',
    "['a, b']", "['[x]', '{y}']", "['a # b']", "['a' # b]", "['a: b']", "['a': b]", "['a' b]", "['a']b",
    "['a'", "['a',]", "['a' 'b']", "['a'']", "['a''", "[\"a\", 'b']", '["a\\nb"]', '["a\\"b"]', '["a]"]',
    "['yes', yes]", "['1', 1]", "['~', ~]", "['2023-01-02']", "['PAGES.GroupBy FIELD [SORT]']",
    "[ ]", "[,]", "[a, , b]", "[a b, c d ]", "[?a]", "['a', [b]]", "[{a: b}]", "[ 'a' ] # c ]",
]
KEYS = ["title", "description", "weight", "draft", "on", "yes", "null", "y", "No", "_build", "a.b", "x-y",
        "date", "params", "k" * 1100, "1", "<<"]


def _same(source: str) -> None:
    fast = plain_yaml.load(source)
    if fast is DECLINED:
        return
    try:
        slow = load_yaml(source)
    except DataError as exc:  # the fast reader must never accept what PyYAML refuses
        pytest.fail(f"read {source!r} as {fast!r}; PyYAML: {exc}")
    assert repr(fast) == repr(slow), source  # repr: True is not 1, 1.0 is not 1, a date not a datetime


@pytest.mark.parametrize("value", SCALARS)
def test_each_scalar_reads_as_pyyaml_reads_it(value):
    for source in (f"key: {value}", f"key:\n  - {value}", f"a:\n  b: {value}\nc: 1", f"key: [{value}]"):
        _same(source)


@pytest.mark.parametrize("key", KEYS)
def test_each_key_reads_as_pyyaml_reads_it(key):
    _same(f"{key}: 1\nother: 2")
    _same(f"{key}:\n  {key}: x")


def test_types_are_yaml_1_1s():
    source = ("a: yes\nb: off\nc: 1_000\nd: 0x1F\ne: 1:20\nf: .inf\ng: ~\nh: 2023-01-02\n"
              "i: 2001-12-14 21:59:43.10\nj: '007'\nk: []\nl: [1, x]\nm:\n  - n\nempty:")
    assert plain_yaml.load(source) == {
        "a": True, "b": False, "c": 1000, "d": 31, "e": 80, "f": float("inf"), "g": None,
        "h": datetime.date(2023, 1, 2), "i": datetime.datetime(2001, 12, 14, 21, 59, 43, 100000),
        "j": "007", "k": [], "l": [1, "x"], "m": ["n"], "empty": None,
    }


@pytest.mark.parametrize(
    "source",
    [
        "a: 1\n  b: 2",  # deeper line after a value
        "a:\n    b: 1\n  c: 2",  # a line between two indentations
        "a:\n- b",  # a sequence at its key's indentation
        "  a: 1",  # an indented document
        "a: &x 1\nb: *x",  # anchors and aliases
        "a: !!python/object/apply:os.system ['x']",
        "a: 'multi\n  line'",
        "a:\tb",
        "a: b: c",
        "? a\n: b",
        "a:\n  - b: c",
    ],
)
def test_what_it_does_not_read_is_left_to_pyyaml(source):
    assert plain_yaml.load(source) is DECLINED


def test_guards_and_messages_are_pyyamls_for_what_it_declines():
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\n" + "".join(f"c{i}: &c{i} [*{'b' if i == 0 else f'c{i - 1}'}] \n" for i in range(3))
    assert split_front_matter(f"---\n{bomb}---\n").data == load_yaml(bomb)
    fm = split_front_matter("---\ntitle: [unclosed\n---\nbody")
    assert fm.data == {} and fm.notes[0].detail.startswith("malformed YAML")
    fm = split_front_matter("---\nx: !!python/object/new:builtins.exec [\"1\"]\n---\n")
    assert fm.data == {"x": None} and "!!python/object/new:builtins.exec" in fm.notes[-1].detail


def test_empty_and_comment_only_blocks_read_as_nothing():
    assert plain_yaml.load("") is None and load_yaml("") is None
    assert plain_yaml.load("# only\n\n  # comments") is None and load_yaml("# only\n\n  # comments") is None


_LINE = st.tuples(
    st.sampled_from([0, 0, 0, 2, 2, 4, 1, 3]),
    st.one_of(
        st.tuples(st.just("entry"), st.sampled_from(KEYS[:12]), st.sampled_from(["", *SCALARS])),
        st.tuples(st.just("entry"), st.sampled_from(KEYS[:12]),
                  st.sampled_from(SCALARS).map(lambda v: v + " # note")),
        st.tuples(st.just("item"), st.just(""), st.sampled_from(SCALARS)),
        st.tuples(st.just("comment"), st.just(""), st.just("")),
        st.tuples(st.just("blank"), st.just(""), st.sampled_from(["", " "])),
    ),
).map(lambda t: " " * t[0] + {
    "entry": lambda k, v: f"{k}:" + (f" {v}" if v else ""),
    "item": lambda k, v: f"- {v}",
    "comment": lambda k, v: "# note",
    "blank": lambda k, v: v,
}[t[1][0]](t[1][1], t[1][2]))


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=8).map("\n".join))
def test_any_block_reads_as_pyyaml_reads_it_or_is_declined(source):
    _same(source)


def test_the_refused_characters_are_pyyamls_non_printable_and_the_line_changers():
    """Every code point: refused exactly when PyYAML's reader refuses it, or it is one of the
    characters that change how lines read (tab, carriage return, NEL, U+2028, U+2029, BOM)."""
    import yaml

    line_changers = {"\t", "\r", "\x85", "\u2028", "\u2029", "\ufeff"}
    disagree = [
        hex(code) for code in range(0x110000)
        if bool(plain_yaml._REFUSED.match(chr(code)))
        != (bool(yaml.reader.Reader.NON_PRINTABLE.match(chr(code))) or chr(code) in line_changers)
    ]
    assert disagree == []


def test_a_scalar_whose_first_character_types_nothing_is_the_resolvers_string():
    """The shortcut past the resolver (``_TYPABLE``) gives what the resolver gives, for every
    first character and for texts that would type as something else were it not for it."""
    import yaml

    assert plain_yaml._TYPABLE is not None  # SafeLoader's resolvers: no wildcard, no path
    tails = ["", "1", "es", "rue", "ull", "0:00", ".5", "2023-01-02", "x"]
    for code in range(0x3000):
        first = chr(code)
        if first in plain_yaml._TYPABLE:
            continue
        for tail in tails:
            text = first + tail
            assert plain_yaml._LOADER.resolve(yaml.ScalarNode, text, (True, False)) == plain_yaml._STR, text
            assert plain_yaml._plain(text) == text


def test_hugos_flow_sequences_and_comments_are_read_not_declined():
    """The shapes that sent a twelfth of Hugo's docs pages to PyYAML are read here, as PyYAML
    reads them."""
    source = (
        "signatures: ['PAGES.GroupBy FIELD [SORT]', 'a ''q'' # b']\n"
        "expiryDate: 2028-06-06 # deprecated (soft)\n"
        "aliases: ['/variables/', \"x\", y]\nreturnType: '[]any' # c\nlist:\n  - z # d"
    )
    assert plain_yaml.load(source) == {
        "signatures": ["PAGES.GroupBy FIELD [SORT]", "a 'q' # b"], "expiryDate": datetime.date(2028, 6, 6),
        "aliases": ["/variables/", "x", "y"], "returnType": "[]any", "list": ["z"],
    }
    _same(source)


def test_a_hostile_flow_sequence_is_read_in_one_pass():
    """Spaces and unclosed quotes that a backtracking pattern would read over and over."""
    import time

    for source in ("a: [" + " " * 200_000 + "x'", "a: ['" + "''" * 100_000, "a: [" + "x " * 100_000 + "'",
                   "a: " + "x " * 100_000 + "#"):
        start = time.process_time()
        plain_yaml.load(source)
        assert time.process_time() - start < 0.5
