"""The store's search indexes, written (store-format.txt "Tokenisation"; docs/artifacts.md,
docs/search-impacts.md).

A room of its own because its modules work on finished rows and on each other only, never on
documents: the FTS5 word index and the optional trigram table filled on a thread or in a child
process (``index_thread``, ``index_process``, driven together by ``indexers``), one FTS5
segment per chunk and their merge (``segments``, ``trigram``), and the optional
``search_impacts`` table of a large store (``impacts``, its rows by ``impact_rows``). The
records and rows they index are ``writing``'s; ``artifact`` and ``ingest`` call both.
"""
