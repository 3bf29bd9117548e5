"""The Hugo dialect (issue 26): shortcodes, and the site's data and parameters they read.
"""
