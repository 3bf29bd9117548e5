"""The VitePress dialect (issue 36): ``dialect.py`` reads a site, ``site_config.py`` its
configuration as text, ``page_includes.py`` its ``<!--@include:-->``, ``page_lines.py`` one pass
over its lines outside code, ``code_imports.py`` its ``<<<`` imports (``regions.py`` their
regions), ``blocks.py`` its containers and code groups, ``vue.py`` its Vue and inline markup,
``home.py`` a home page's hero."""
