"""Data a site keeps beside its pages, read as data and never run (issue 26): YAML, TOML and
``conf.py`` with unknown tags and alias bombs refused (``files``, PyYAML's part in ``yaml_load``),
values a page looks up in a data file (``values``), and front matter (``front_matter``).

``DataError`` is here, where ``files`` and ``yaml_load`` both take it from: ``files`` imports
``yaml_load`` on the first YAML a build reads.
"""


class DataError(ValueError):
    """A data file that cannot be read as data; the message says why."""
