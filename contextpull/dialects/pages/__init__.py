"""Which files of a site are pages (issue 26): the hook every dialect's rule is asked through
(``hook``) and what the rules share (``site_files``); Hugo's, Jekyll's and mdBook's rules are
``pages.py`` in their own sub-packages.
"""
