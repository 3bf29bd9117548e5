"""Docusaurus's ``mdx-code-block`` fences: their content is MDX, not code (Docusaurus's
``unwrapMdxCodeBlocks``). A page that must read well on GitHub as well as on its site wraps its
imports, exports and JSX in a fence with that language, and Docusaurus renders what is inside
as if the fence were not there (issue 36; Docusaurus's own documentation has 110 sections of
them). Only a site whose generator does so asks for it (``SiteReader.mdx_code_blocks``).

One walk over the lines with the shared fence rule: a fence of another language is code and
passes whole, so an ``mdx-code-block`` shown inside a longer fence stays as written; an
unclosed one runs to the end of the page, as a fence does.
"""

from __future__ import annotations

from ...parsing.fence_rule import close_index, open_fence

LANGUAGE = "mdx-code-block"


def unwrap(text: str) -> str:
    """``text`` with each ``mdx-code-block`` fence's opening and closing lines blanked."""
    if LANGUAGE not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        fence = open_fence(lines[i]) if ("`" in lines[i] or "~" in lines[i]) else None
        if fence is None:
            out.append(lines[i])
            i += 1
            continue
        end = close_index(lines, i, fence)
        if fence.language == LANGUAGE:
            # The fence's own lines become blank, so every later line keeps its number for notes.
            out += ["", *lines[i + 1 : end], *([""] if end < n else [])]
        else:
            out += lines[i : end + 1]
        i = end + 1
    return "\n".join(out)
