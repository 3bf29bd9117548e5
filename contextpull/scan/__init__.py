"""Scanners the write side shares, each linear in its input (issue 35, "Linear time"): path
patterns (``globmatch``: a site's exclusions, ``.contextpullignore`` lines) and Markdown links as
the text they show (``inline_links``: the Sphinx label table, the summary cleaner). Standard
library only; a room of its own so the dialects, the writer and the models reach them without
reaching each other, and the reader core's folder keeps to the store format."""
