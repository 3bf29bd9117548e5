"""The checks a pipeline runs on an artifact: integrity, golden files and drift.

``verify`` re-derives a store's fingerprints and compares them with its checksum file and
manifest; ``golden`` compares the index text and section id list with checked-in files (and
rewrites both, or neither); ``diff`` reports what changed between two stores. They read stores
with plain ``sqlite3`` and never write one.

Exports: ``verify.verify_store``, ``golden.check_golden``, ``diff.diff_stores`` and
``diff.render``.
"""
