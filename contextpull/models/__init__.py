"""Model providers: the optional, network- or model-backed steps of a build and a search.

The default build is offline, lexical and free; everything here runs only when a setting names a
model (``summarizer = "openai:<model>"``, ``embed_model = "local:<name>"``; supplement.md
"Configuration"; system-design.txt section 3 "Summarize"; store-format.txt "Search" step 8).

- ``spec``: ``provider:model`` settings, the endpoint and key each provider reads from the
  environment (the vendors' own variable names, so existing CI secrets work), checked before any
  work starts.
- ``http``: one JSON-over-HTTP client for every hosted provider: timeouts, bounded retries with
  backoff that honour ``Retry-After``, counters for the report, and errors that never carry a key.
- ``summarize``: one-line document summaries from ``openai:`` or ``anthropic:`` models, the
  answer cleaned to one line, requests on a bounded thread pool; the write side reaches it only
  through ``contextpull/ingest/summaries.py``.

Nothing in the reader core imports this package at module level; a reader that needs a query
embedding loads it on first use and falls back to lexical search when it cannot.
"""
