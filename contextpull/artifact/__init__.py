"""The artifact: one reproducible, self-contained ``store.sqlite`` with its checksum and
manifest (issue 4; store-format.txt "Meta keys"; system-design.txt section 5).

``run.build`` makes one artifact: the rows chunk by chunk (``chunks``, ``assemble``), kept from
a previous artifact with ``--cache`` (``cache``, ``cache_copy``, ``patch``), compacted with
``VACUUM INTO`` (``build_file``), the manifest (``manifest``) and the report (``report``), all
under temporary names in OUT (``outdir``) that are renamed only when every step succeeded.
``build_job`` holds the steps of one attempt.

Exports: ``run.build``.
"""
