"""The mdBook dialect (issue 26): ``{{#include}}``-style links and ``SUMMARY.md`` titles.
"""
