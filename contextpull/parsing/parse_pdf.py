"""PDF into the block stream through the optional ``pdf`` extra (system-design.txt section 3,
"Parse", the PDF bullet; supplement.md "Failure modes": PDF without the extra; issue 7).

pypdf reports each piece of text with the font size in force. We turn that size into the size on
the page (font size times the text and graphics matrices' vertical scale, so a generator that
writes ``1 Tf`` and scales with ``Tm`` is read correctly), count characters per size, and call the
most common size the body. Runs at least 1.2 times the body size and under 120 characters are
headings, levelled by descending size (capped at 6); everything else is body text, joined into one
paragraph per page between headings. A one-size PDF is therefore one heading-less document. Tables
are not detected and page numbers are not recorded (v1).

A PDF is input we did not write: encrypted files (unless the empty user password opens them), files
pypdf cannot read, files with no text and files over the page or time budget are refused with a
``ParseError`` naming the reason. The time budget is checked between pages and inside the text
callback, and, when we run on the main thread with SIGALRM free, also enforced by a timer, so a
page that loops inside pypdf without producing text still ends.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import logging
import math
import signal
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Iterator

from ..system.install import requirement
from .blocks import MAX_HEADING_LEVEL, Block, Heading, Paragraph, ParsedDocument, ParseError

INSTALL_HINT = f"install the pdf extra: pip install \"{requirement('pdf')}\""
HEADING_RATIO = 1.2
MAX_HEADING_CHARS = 120
MAX_PAGES = 3000
TIME_BUDGET_S = 60.0


def pdf_available() -> bool:
    """Whether the ``pdf`` extra (pypdf) is importable; discovery includes .pdf only then."""
    if "pypdf" in sys.modules:
        return sys.modules["pypdf"] is not None
    try:
        return importlib.util.find_spec("pypdf") is not None
    except (ImportError, ValueError):
        return False


class _OverBudget(BaseException):
    """Raised inside extraction when the time budget is spent. A BaseException so that a broad
    ``except Exception`` inside pypdf cannot swallow it."""


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """pypdf reports recoverable damage through logging and warnings; the skip reason or the
    parsed text is our report, so keep its chatter off the build output."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


@contextlib.contextmanager
def _alarm(deadline: float) -> Iterator[None]:
    """A SIGALRM timer at the deadline, when that is safe: main thread, POSIX, handler unclaimed."""
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
    )
    if not usable:
        yield
        return

    def ring(signum, frame):  # noqa: ARG001 - signal handler signature
        raise _OverBudget()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _page_size(cm, tm, font_size) -> float:
    """The font size as drawn: ``font_size`` scaled by the vertical axis of Tm then CTM."""
    try:
        c, d = float(tm[2]), float(tm[3])
        x = c * float(cm[0]) + d * float(cm[2])
        y = c * float(cm[1]) + d * float(cm[3])
        scale = math.hypot(x, y) or 1.0
        return round(abs(float(font_size)) * scale, 1)
    except (TypeError, ValueError, IndexError):
        return round(abs(float(font_size or 0)), 1)


def _open(data: bytes):
    try:
        import pypdf
    except ImportError:
        raise ParseError(INSTALL_HINT) from None
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        encrypted = reader.is_encrypted
    except Exception as exc:  # pypdf raises many types for damaged files
        raise ParseError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    if encrypted:
        try:
            opened = reader.decrypt("")
        except Exception:  # e.g. AES without the cryptography package
            opened = 0
        if not opened:
            raise ParseError("encrypted PDF")
    try:
        pages = len(reader.pages)
    except Exception as exc:
        raise ParseError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    if pages > MAX_PAGES:
        raise ParseError(f"PDF has {pages} pages, over the {MAX_PAGES}-page limit")
    return reader


def extract_runs(data: bytes) -> list[list[tuple[float, str]]]:
    """Per page, the text pieces in content order with their drawn font size."""
    with _quiet():
        reader = _open(data)
        deadline = time.monotonic() + TIME_BUDGET_S
        pages: list[list[tuple[float, str]]] = []
        number = 0
        try:
            with _alarm(deadline):
                for number, page in enumerate(reader.pages, 1):
                    runs: list[tuple[float, str]] = []

                    def visit(text, cm, tm, font_dict, font_size, runs=runs):  # noqa: ARG001
                        if time.monotonic() > deadline:
                            raise _OverBudget()
                        if "\x00" in text:  # never text; and a reader's LIKE stops at it
                            text = text.replace("\x00", "")
                        if text:
                            runs.append((_page_size(cm, tm, font_size), text))

                    if time.monotonic() > deadline:
                        raise _OverBudget()
                    page.extract_text(visitor_text=visit)
                    pages.append(runs)
        except _OverBudget:
            raise ParseError(
                f"PDF text extraction over its {TIME_BUDGET_S:g} s budget (stopped at page {number})"
            ) from None
        except Exception as exc:
            raise ParseError(
                f"PDF text extraction failed on page {number} ({type(exc).__name__}: {exc})"
            ) from None
    return pages


def _segments(runs: list[tuple[float, str]], heading_sizes: set[float]) -> list[tuple[float | None, str]]:
    """One page's consecutive runs of one class merged: (size, text) for headings, (None, text)
    for body. Whitespace-only pieces only separate words."""
    segments: list[tuple[float | None, list[str]]] = []
    for size, text in runs:
        if not text.strip():
            if segments:
                segments[-1][1].append(text)
            continue
        kind = size if size in heading_sizes else None
        if segments and segments[-1][0] == kind:
            segments[-1][1].append(text)
        else:
            segments.append((kind, [text]))
    return [(kind, " ".join("".join(texts).split())) for kind, texts in segments]


def layout(pages: list[list[tuple[float, str]]], stem: str) -> ParsedDocument:
    """Blocks from sized runs: body size by character count, headings by the 1.2x rule."""
    chars: Counter[float] = Counter()
    for runs in pages:
        for size, text in runs:
            chars[size] += len(" ".join(text.split()))  # characters as read, spaces between words included
    chars = Counter({size: n for size, n in chars.items() if n})
    if not chars:
        raise ParseError("no text (image-only PDF?)")
    body = max(chars, key=lambda size: (chars[size], -size))
    larger = {size for size in chars if size >= body * HEADING_RATIO - 1e-6} if body > 0 else set()

    merged: list[tuple[float | None, str, int]] = []  # (size, text, page); a page break ends a paragraph
    for page_no, runs in enumerate(pages):
        for size, text in _segments(runs, larger):
            if size is not None and len(text) >= MAX_HEADING_CHARS:
                size = None
            if size is None and merged and merged[-1][0] is None and merged[-1][2] == page_no:
                merged[-1] = (None, merged[-1][1] + " " + text, page_no)
            else:
                merged.append((size, text, page_no))

    sizes = sorted({size for size, _, _ in merged if size is not None}, reverse=True)
    levels = {size: min(rank, MAX_HEADING_LEVEL) for rank, size in enumerate(sizes, 1)}
    blocks: list[Block] = [
        Heading(levels[size], text) if size is not None else Paragraph(text)
        for size, text, _ in merged
        if text
    ]
    title = next((b.text for b in blocks if isinstance(b, Heading) and b.level == 1), stem)
    return ParsedDocument(title=title, blocks=blocks)


def parse_pdf(data: bytes, stem: str) -> ParsedDocument:
    return layout(extract_runs(data), stem)
