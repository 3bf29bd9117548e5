"""The lexing every dialect shares, one module per mechanism (issue 35): fences and code spans
(``fences``), offsets to lines (``line_map``), attribute lists (``attributes``), directive and
shortcode options (``options``), template tags (``template_tags``), admonition labels
(``labels``), and containers and directives (``containers``: ``:::``, MyST, ``///``, ``!!!``,
``> [!NOTE]``, ``.. name::``; ``container_tree`` reads them into a tree), and blocks written as
paired template tags (``tag_blocks``: Markdoc's ``{% x %}…{% /x %}``, GitBook's ``{% endx %}``).

Why one place: each generator used to write its own copy, and the copies disagreed (three fence
rules, three placeholder schemes), so the same page read differently by dialect. Every scanner
here runs in time linear in its input: ``str.find`` loops, or patterns that start with a literal
and cannot read one character two ways; tests/test_syntax_*.py hold each to that on long runs of
its openers.
"""
