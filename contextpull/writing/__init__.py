"""Writing a store: records into the tables and the index text (store-format.txt "Tables",
"Index text"; system-design.txt section 3).

The room between parsed documents and a store on disk: finding the corpus's files
(``discover``), cutting documents into sections (``section``), the offline summary
(``summary``), the rows and meta (``writer``), the vectors (``vectors``), the index text
(``index_text``), the fingerprints (``fingerprint``), and the durable replacement of files
(``flush``, ``held_signals``). The search indexes built over the rows are ``indexing``'s. Both
the in-place ingest and the artifact build write through these modules, so a store is the same
whichever path made it.

Exports: ``records`` (the record types every writer passes around); the rest by module.
"""
