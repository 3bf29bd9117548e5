# A small Sphinx project for ContextPull's end-to-end test: read as data, never run.
import os

project = "Allotment"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx_tabs.tabs"]
default_role = "code"
myst_substitutions = {"season": "spring"}
release = os.environ.get("RELEASE", "0")
