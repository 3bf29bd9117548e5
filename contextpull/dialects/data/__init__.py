"""Data a site keeps beside its pages, read as data and never run (issue 26): YAML, TOML and
``conf.py`` with unknown tags and alias bombs refused (``files``), values a page looks up in a
data file (``values``), and front matter (``front_matter``).
"""
