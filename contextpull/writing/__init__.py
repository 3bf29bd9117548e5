"""Writing a store: records into the tables, the FTS index and the index text
(store-format.txt "Tables", "Tokenisation", "Index text"; system-design.txt section 3).

The room between parsed documents and a store on disk: finding the corpus's files
(``discover``), cutting documents into sections (``section``), the offline summary
(``summary``), the rows and meta (``writer``), the index text (``index_text``), FTS5 segments
(``segments``) and the optional trigram table (``trigram``) built on a thread or in a child
process (``index_thread``, ``index_process``), the fingerprints (``fingerprint``), and the
durable replacement of files (``flush``, ``held_signals``). Both the in-place ingest and the
artifact build write through these modules, so a store is the same whichever path made it.

Exports: ``records`` (the record types every writer passes around); the rest by module.
"""
