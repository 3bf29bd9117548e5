"""What the stored text of a real documentation build still shows (issue 26), for real_docs.py.

The pattern list of markup a reader of the rendered page never sees, the rule for where it counts
(outside code), the include directives left in stored text and whether their targets exist.

Where markup counts. A section shows markup when a pattern matches its heading path or its text
outside code: fenced code blocks (any indentation, closed by the same fence character at least as
long) and the contents of inline code spans are left out, because there the page shows the
characters as they are (an import line of a JavaScript example, a shortcode a Hugo page teaches);
HTML ``<code>...</code>`` counts as a code span. A page that teaches syntax in plain
prose is over-counted, which is rare and errs against the dialects.
A MyST directive fence (```` ```{note} ````) is markup, not code. Includes are the exception to
the rule for mdBook and pymdown, which expand theirs inside fences too: those count in all the
text (``includes_in``).
"""

from __future__ import annotations

import collections
import os
import re
import sqlite3
from pathlib import Path

from contextpull.system.bounded_read import open_regular

DOC_EXTENSIONS = (".md", ".markdown", ".mdown", ".mkd", ".mdx", ".mdoc", ".rst", ".ipynb", ".txt", ".adoc",
                  ".asciidoc", ".org", ".textile", ".rmd", ".qmd")

_M = re.MULTILINE
# Markup a reader of the rendered page does not see (or sees as something else), by construct.
MARKUP = [
    ("mdBook {{#", re.compile(r"\{\{#")),
    ("pymdown --8<--", re.compile(r"--8<--")),
    ("{* file *}", re.compile(r"\{\*.*?\*\}")),
    ("admonition !!! / ???", re.compile(r"^\s*(?:!!!|\?\?\?\+?)[ \t]*\w", _M)),
    ("block /// ", re.compile(r"^\s*/{3,}(?:[ \t].*)?$", _M)),
    ("admonition :::", re.compile(r"^\s*:{3,}(?:[A-Za-z\[{]|[ \t]*$)", _M)),
    ("mkdocstrings ::: ", re.compile(r"^:::[ \t]+[A-Za-z_][\w.]*[ \t]*$", _M)),
    ("rst directive .. x::", re.compile(r"^\s*\.\.[ \t]+[\w:-]+::", _M)),
    ("rst role :x:`", re.compile(r"(?<![\w`]):[\w.+-]+(?::[\w.+-]+)?:`")),
    ("MyST role {x}`", re.compile(r"\{[\w.:-]+\}`")),
    ("MyST fence ```{x}", re.compile(r"^\s*(?:`{3,}|~{3,})[ \t]*\{[\w.:-]+\}", _M)),
    ("callout > [!NOTE]", re.compile(r"^\s*>[ \t]*\[![A-Za-z]+\]", _M)),
    ("Hugo {{< {{%", re.compile(r"\{\{[<%]")),
    ("Liquid {%", re.compile(r"(?<!\{)\{%")),
    ("Liquid {{ site.", re.compile(r"\{\{-?\s*(?:site|page|include|layout|jekyll)\.")),
    ("JSX <Component", re.compile(r"^\s*</?[A-Z][\w.]*(?:[\s/>]|$)", _M)),
    ("MDX import", re.compile(r"^import\s+(?:.+\s+from\s+)?['\"]", _M)),
    ("MDX export", re.compile(r"^export\s", _M)),
    ("kramdown {:", re.compile(r"\{:[^}\n]*\}")),
    ("heading attribute {#", re.compile(r"\{[ \t]*#[\w-]")),
    ("HTML comment <!--", re.compile(r"<!--")),
    ("VitePress <<< import", re.compile(r"^\s*<<<[ \t]+\S", _M)),
    ("VitePress [[toc]]", re.compile(r"\[\[toc\]\]")),
    ("VitePress <Badge>", re.compile(r"</?Badge(?:[\s/>]|$)")),
]
HTML_TAG = re.compile(
    r"</?(?:a|abbr|b|br|blockquote|button|center|code|dd|details|div|dl|dt|em|figcaption|figure|font|"
    r"h[1-6]|hr|i|iframe|img|input|kbd|li|ol|p|picture|pre|section|small|source|span|strong|sub|"
    r"summary|sup|table|tbody|td|th|thead|tr|u|ul|video)(?:\s[^<>\n]*)?/?>", re.IGNORECASE)

_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})(.*)$")
# A code span may run over line ends, never over a blank line (CommonMark: within a paragraph).
_SPAN = re.compile(r"(`+)(?!`)((?:[^\n]|\n(?![ \t]*\n))+?)(?<!`)\1(?!`)")
_HTML_CODE = re.compile(r"(<code\b[^>]*>)(?:[^\n]|\n(?![ \t]*\n))*?(</code>)", re.IGNORECASE)
_MYST_CODE = ("{code-block}", "{code}", "{sourcecode}", "{literalinclude}")


def outside_code(text: str) -> str:
    """The text a markup pattern may match: fenced code removed, inline code spans and HTML
    ``<code>`` (within a paragraph) emptied.

    A MyST directive fence other than a code one keeps its lines (its body is Markdown)."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = ""
            continue
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            info = m.group(2).strip()
            if info.startswith("{") and not info.startswith(_MYST_CODE):
                out.append(line)  # a MyST directive: the opener is markup, the body prose
                continue
            fence = m.group(1)
            out.append(line if info.startswith("{") else "")
            continue
        out.append(line)
    prose = _SPAN.sub(lambda s: s.group(1) + s.group(1), "\n".join(out))
    return _HTML_CODE.sub(r"\1\2", prose)


def markup_in(heading_path: str, text: str) -> list[str]:
    """The names of the MARKUP patterns one section shows."""
    return _markup_in_prose(heading_path, outside_code(text))


def _markup_in_prose(heading_path: str, prose: str) -> list[str]:
    # a heading's code spans are code too (Starlight's docs title a section "`<Badge>` Props")
    seen = _SPAN.sub(lambda s: s.group(1) + s.group(1), heading_path) + "\n" + prose
    return [name for name, pattern in MARKUP if pattern.search(seen)]


# Include directives as they stand in source: construct -> pattern whose group is the target.
# mdBook and pymdown expand theirs inside fenced code too, and their sites use them for the code
# itself, so those count in all the text. Hugo, Liquid, MDX and rst directives count outside code
# only: in a fence or a code span the page shows them as written (Hugo and Jekyll sites that
# teach the syntax escape it there with {{</* */>}} and {% raw %}, which a dialect unwraps).
INCLUDES_EVERYWHERE = [
    ("mdbook include", re.compile(r"\{\{#(?:include|rustdoc_include|playground)\s+([^}\s]+)")),
    ("pymdown snippet", re.compile(r"--8<--[ \t]+[\"']([^\"'\n]+)[\"']")),
    ("{* file *}", re.compile(r"\{\*\s*([^\s*]+)")),
]
INCLUDES_OUTSIDE_CODE = [
    ("hugo include", re.compile(r"\{\{[<%]-?\s*(?:include|readfile)\s+(?:file=)?[\"']([^\"'\n]+)[\"']")),
    ("jekyll include", re.compile(r"(?<!\{)\{%-?\s*include\s+([^\s%{}]+)")),
    ("jekyll include_relative", re.compile(r"(?<!\{)\{%-?\s*include_relative\s+([^\s%{}]+)")),
    ("mdx partial import", re.compile(r"^import\s+\w+\s+from\s+['\"]([^'\"]+\.mdx?)['\"]", _M)),
    ("rst include", re.compile(r"^\s*\.\.[ \t]+(?:include|literalinclude)::[ \t]*(\S+)", _M)),
    ("vitepress include", re.compile(r"<!--\s*@include:\s*((?:(?!-->)[^\s{#])+)")),
    ("vitepress code import", re.compile(r"^\s*<<<[ \t]+([^\s{#\[]+)", _M)),
    ("markdoc partial", re.compile(r"(?<!\{)\{%-?\s*partial\s+file=[\"']([^\"'\n]+)[\"']")),
]


def includes_in(text: str) -> list[tuple[str, str]]:
    """(construct, target) of every include directive one section's stored text still holds."""
    return _includes_in(text, outside_code(text))


def _includes_in(text: str, prose: str) -> list[tuple[str, str]]:
    found = [(c, m.group(1)) for c, p in INCLUDES_EVERYWHERE for m in p.finditer(text)]
    return found + [(c, m.group(1)) for c, p in INCLUDES_OUTSIDE_CODE for m in p.finditer(prose)]


def _target_path(construct: str, target: str) -> str:
    """The file part of a directive's target (mdBook ``file:anchor``, snippet ``file:3:5``)."""
    if construct in ("mdbook include", "pymdown snippet"):
        target = target.split(":", 1)[0]
    return target.split("#", 1)[0].split("?", 1)[0]


def target_exists(construct: str, target: str, doc_folder: Path, docs: Path, repo: Path) -> bool:
    """Whether a folder a generator could look in holds ``target`` as a regular file inside the
    repository: the document's folder or any folder above it up to the repository root (mkdocs
    resolves ``{* *}`` from its configuration's folder, Hugo ``/`` from a language's content
    root), Jekyll's ``_includes``, a Docusaurus ``@site`` (a site folder or its ``website``).
    Generous on purpose: a leftover directive whose target is found here is one a build could
    have resolved."""
    name = _target_path(construct, target)
    if not name:
        return False
    ancestors = [doc_folder, *(p for p in doc_folder.parents if p == repo or repo in p.parents)]
    if construct == "jekyll include":
        bases = [p / "_includes" for p in ancestors]
    elif name.startswith("@/"):  # VitePress: the source root, a folder above the page
        name = name[len("@/"):]
        bases = ancestors
    elif name.startswith("@site/"):
        name = name[len("@site/"):]
        bases = ancestors + [p / "website" for p in ancestors]
    elif name.startswith(("@/", "~/")):  # a tsconfig alias of an Astro site's src/
        name = name[2:]
        bases = [p / "src" for p in ancestors]
    else:
        name = name.lstrip("/")
        bases = ancestors
    root = os.path.realpath(repo)
    for base in bases:
        real = os.path.realpath(base / name)
        if real.startswith(root + os.sep) and os.path.isfile(real):
            return True
    return False


def documentation_paths(docs: Path) -> list[str]:
    """Files under DOCS with a documentation extension (POSIX, relative to DOCS), hidden names
    left out as the build leaves them out."""
    found = []
    for folder, dirs, files in os.walk(docs):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = Path(folder).relative_to(docs)
        for name in files:
            if not name.startswith(".") and os.path.splitext(name)[1].lower() in DOC_EXTENSIONS:
                found.append((rel / name).as_posix())
    return sorted(found)


def documentation_files(docs: Path) -> dict[str, int]:
    """The documentation files under DOCS by extension."""
    counts = collections.Counter(os.path.splitext(p)[1].lower() for p in documentation_paths(docs))
    return dict(sorted(counts.items()))


def stored_paths(store: Path) -> set[str]:
    """The document paths a store holds (empty when there is no store)."""
    if not store.exists():
        return set()
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return {path for (path,) in con.execute("SELECT path FROM documents")}
    finally:
        con.close()


# Generators whose templates write a page's front-matter ``title`` as text (escaped): JSX and Vue
# interpolation, Go's html/template. A title such as ``<Suspense>`` (react.dev names its component
# pages so) is what the page's heading shows, not markup. Liquid (Jekyll) and Jinja (mkdocs,
# Sphinx) themes write it unescaped, so there it still counts.
TITLES_AS_TEXT = frozenset({"mdx guessed", "docusaurus", "nextra", "vitepress", "starlight", "mintlify", "hugo"})
_FRONT_TITLE = re.compile(r"""^title:[ \t]*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\n]|'')*)'|([^\n]*))""", _M)


def front_matter_title(path: Path) -> str | None:
    """The ``title:`` of a page's YAML front matter as written (one line, quotes taken off), or None."""
    try:
        with open_regular(path) as page:  # a pipe named like a page never blocks the count
            head = page.read(20_000).decode("utf-8", errors="replace")
    except OSError:
        return None
    if not head.startswith("---"):
        return None
    end = head.find("\n---", 3)
    m = _FRONT_TITLE.search(head[: end if end > 0 else 0])
    if m is None:
        return None
    if m.group(1) is None and m.group(2) is None:
        return m.group(3).rstrip(" \t")
    if m.group(1) is not None:
        return m.group(1).replace('\\"', '"')
    return m.group(2).replace("''", "'")


def analyse_store(store: Path, docs: Path, repo: Path, titles_as_text: bool = False) -> dict:
    """What the stored text shows: markup, leftover includes, file-stem titles.

    With ``titles_as_text`` (``TITLES_AS_TEXT``), a heading path's first part is not searched for
    markup when it is the page's front-matter title as written."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        documents = con.execute("SELECT doc_id, path, title FROM documents").fetchall()
        rows = con.execute("SELECT doc_id, heading_path, text FROM sections ORDER BY doc_id, ordinal").fetchall()
    finally:
        con.close()
    paths = {doc_id: path for doc_id, path, _ in documents}
    shown = {}  # doc_id -> the title its generator writes as text
    if titles_as_text:
        for doc_id, path, title in documents:
            if title and front_matter_title(docs / path) == title:
                shown[doc_id] = title
    by_pattern: collections.Counter[str] = collections.Counter()
    with_markup = with_html = 0
    left = collections.Counter()
    left_existing = collections.Counter()
    for doc_id, heading_path, text in rows:
        prose = outside_code(text)  # once per section: the markup, HTML and include counts share it
        title = shown.get(doc_id)
        if title is not None and (heading_path == title or heading_path.startswith(title + " > ")):
            heading_path = heading_path[len(title):]
        names = _markup_in_prose(heading_path, prose)
        by_pattern.update(names)
        with_markup += bool(names)
        with_html += bool(HTML_TAG.search(prose))
        folder = (docs / paths[doc_id]).parent
        for construct, target in _includes_in(text, prose):
            left[construct] += 1
            left_existing[construct] += target_exists(construct, target, folder, docs, repo)
    stems = sorted(p for _, p, title in documents if title == Path(p).stem)
    return {
        "sections": len(rows),
        "sections_with_markup": with_markup,
        "markup_share": with_markup / len(rows) if rows else 0.0,
        "markup_by_pattern": dict(by_pattern.most_common()),
        "sections_with_html_tags": with_html,
        "includes_left": sum(left.values()),
        "includes_left_target_exists": sum(left_existing.values()),
        "includes_left_by_construct": {k: [left[k], left_existing[k]] for k in sorted(left)},
        "stem_titles": len(stems),
        "stem_title_examples": stems[:5],
    }
