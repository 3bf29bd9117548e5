project = "Garden handbook"
extensions = ["myst_parser", "sphinx.ext.intersphinx"]
intersphinx_mapping = {"python": ("https://docs.python.org/3/", None)}
exclude_patterns = ["_build"]
