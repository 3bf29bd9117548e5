"""docutils' parse of one page, run a window of lines at a time so its time stays linear.

Why: each list docutils meets (bullets, enumerations, fields, options, definitions, and every
run of explicit markup such as a ``.. note::`` followed by a ``.. code-block::``) is parsed by a
nested state machine handed ``input_lines[offset:]``: a copy of the rest of the page. A page of
n such runs copies about n²/2 lines; a 1 MB page of short sections with a note and a code block
spent most of its growth there (0.25 MB 1.7 s, 1 MB 8.6 s). Handing the state machine one window
at a time bounds every copy by the window, and the parse is otherwise the same one: every window
parses into the same document, under the same section (docutils keeps the current section as
the state machine's ``node``) with the same title styles, so sections, targets, substitutions,
footnotes and the transforms see the page as one.

A window ends only where docutils itself is back at the page's top level with nothing open: a
blank line, then a paragraph line at column 0 that starts with a letter and cannot begin any
other construct (not an enumerator, not a section title, not a definition term), after a line
that does not announce a literal block (``::``), outside a simple table. Lines anywhere else
never end a window, so a page without such lines is parsed in one piece, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Lines per window: large enough that the per-window start-up is nothing, small enough that the
# copies of a window's tail stay cheap.
WINDOW_LINES = 2_000

_ENUMERATOR = re.compile(r"\(?(?:\d+|[A-Za-z]|[ivxlcdmIVXLCDM]+|#)[.)]\Z")
_ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_TABLE_BORDER = re.compile(r"=+(?: +=+)* *\Z")


def windows(lines: list[str], size: int = WINDOW_LINES) -> Iterator[tuple[int, int]]:
    """(start, end) line ranges covering ``lines``, each ending at a safe cut (module docstring)
    once it holds at least ``size`` lines; one pass over the lines."""
    start = 0
    in_table = False
    previous_text = ""  # the last non-blank line, for the ``::`` rule
    count = len(lines)
    for i in range(count):
        line = lines[i]
        if line.startswith("=") and _TABLE_BORDER.match(line):
            following = lines[i + 1] if i + 1 < count else ""
            if not in_table and (i == 0 or not lines[i - 1].strip()):
                in_table = True
            elif in_table and not following.strip():
                in_table = False
        if i - start >= size and not in_table and _cut_before(lines, i, previous_text):
            yield start, i
            start = i
        if line.strip():
            previous_text = line
    if start < count or count == 0:
        yield start, count


def _cut_before(lines: list[str], i: int, previous_text: str) -> bool:
    """Whether a window may begin at line ``i``: a plain paragraph at the top level."""
    line = lines[i]
    if i == 0 or lines[i - 1].strip() or not line[:1].isalpha():
        return False
    if previous_text.rstrip().endswith("::"):
        return False
    if _ENUMERATOR.match(line.split(None, 1)[0]):
        return False
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if following[:1] in (" ", "\t"):  # a definition list's term
        return False
    stripped = following.strip()
    if stripped and stripped[0] in _ADORNMENT_CHARS and stripped == stripped[0] * len(stripped):
        return False  # a section title's underline
    return True


def parse(parser, text: str, document, size: int | None = None) -> None:
    """``parser.parse(text, document)``, window by window of ``size`` lines (``WINDOW_LINES``
    by default; module docstring). The caller has already refused lines over the length limit."""
    from docutils.parsers.rst import roles
    from docutils.statemachine import StringList, string2lines

    parser.setup_parse(text, document)
    settings = document.settings
    settings.setdefault("tab_width", 8)
    settings.setdefault("syntax_highlight", "long")
    lines = string2lines(text, tab_width=settings.tab_width, convert_whitespace=True)
    whole = StringList(lines, document["source"])
    carried = None  # (title styles, current node) at the end of the last window
    for start, end in windows(lines, size or WINDOW_LINES):
        machine = _Window(state_classes=parser.state_classes, initial_state=parser.initial_state,
                          debug=document.reporter.debug_flag)
        carried = machine.run_window(whole[start:end], document, start, parser.inliner, carried)
        machine.unlink()
    # The transforms that follow look lines up as they would after docutils' one run: over
    # the whole page, past its last line.
    machine.input_lines, machine.input_offset, machine.line_offset = whole, 0, len(lines)
    if "" in roles._roles:  # the "default" default role again, as docutils' own parse ends
        del roles._roles[""]
    parser.finish_parse()


def _window_class():
    from docutils.parsers.rst import languages
    from docutils.parsers.rst.states import Inliner, RSTStateMachine, Struct
    from docutils.statemachine import StateMachineWS

    class Window(RSTStateMachine):
        """RSTStateMachine.run for one window: the memo and the current node are carried in
        from the window before instead of starting at the document's root."""

        def run_window(self, input_lines, document, input_offset, inliner, carried):
            self.language = languages.get_language(document.settings.language_code, document.reporter)
            self.match_titles = True
            if inliner is None:
                inliner = Inliner()
            inliner.init_customizations(document.settings)
            title_styles, node = carried if carried is not None else ([], document)
            self.memo = Struct(document=document, reporter=document.reporter, language=self.language,
                               title_styles=title_styles, section_level=0,
                               section_bubble_up_kludge=False, inliner=inliner)
            self.document = document
            self.attach_observer(document.note_source)
            self.reporter = document.reporter
            self.node = node
            # docutils points the reporter at the first state machine only (states' runtime_init
            # sets it when it is not set yet); every window's lines are its own machine's.
            document.reporter.get_source_and_line = self.get_source_and_line
            StateMachineWS.run(self, input_lines, input_offset, input_source=document["source"])
            carried = (self.memo.title_styles, self.node)
            self.node = self.memo = None
            return carried

    return Window


class _LazyWindow:
    """The Window class, built on first use so importing this module does not import docutils."""

    cls = None

    def __call__(self, **kwargs):
        if _LazyWindow.cls is None:
            _LazyWindow.cls = _window_class()
        return _LazyWindow.cls(**kwargs)


_Window = _LazyWindow()
