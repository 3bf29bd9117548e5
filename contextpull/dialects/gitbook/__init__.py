"""The GitBook dialect (issue 36): ``dialect.py`` reads a space, ``blocks.py`` its content blocks."""
