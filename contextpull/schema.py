"""The store schema, as system-design.txt section 1 and store-format.txt define it.

This module is the contract in code: the reader checks against these names and the writer
creates exactly this DDL. Readers in other languages implement the same file; nothing here
may change without bumping ``SCHEMA_VERSION``.
"""

from __future__ import annotations

SCHEMA_VERSION = "1.0"
SUPPORTED_MAJOR = 1

# store-format.txt, "Tokenisation": token characters keep identifiers whole.
FTS_TOKENIZE = "unicode61 remove_diacritics 2 tokenchars '-_.'"

# system-design.txt section 1, "keys". index_budget_tokens is recorded too, as the published
# writer does, so a reader can tell whether the index fits the instructions budget.
META_KEYS = (
    "schema_version",
    "corpus_root",
    "corpus_fingerprint",
    "index_text",
    "index_tokens",
    "index_mode",
    "summarizer",
    "section_max_chars",
    "index_budget_tokens",
    "ingested_at",
)

DDL = f"""
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE documents (
  doc_id      INTEGER PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  title       TEXT NOT NULL,
  summary     TEXT,
  summary_src TEXT,
  sha256      TEXT NOT NULL,
  bytes       INTEGER NOT NULL,
  kind        TEXT NOT NULL,
  n_sections  INTEGER NOT NULL,
  ingested_at TEXT NOT NULL
);
CREATE TABLE sections (
  id           TEXT PRIMARY KEY,
  doc_id       INTEGER NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
  ordinal      INTEGER NOT NULL,
  heading_path TEXT NOT NULL,
  level        INTEGER NOT NULL,
  kind         TEXT NOT NULL,
  text         TEXT NOT NULL,
  char_len     INTEGER NOT NULL,
  hash         TEXT NOT NULL,
  prev_id      TEXT,
  next_id      TEXT,
  UNIQUE (doc_id, ordinal)
);
CREATE VIRTUAL TABLE sections_fts USING fts5(
  id UNINDEXED,
  heading_path,
  text,
  tokenize = "{FTS_TOKENIZE}"
);
CREATE TABLE embeddings (
  section_id TEXT PRIMARY KEY REFERENCES sections(id) ON DELETE CASCADE,
  model      TEXT NOT NULL,
  dim        INTEGER NOT NULL,
  vec        BLOB NOT NULL
);
CREATE TABLE summary_cache (
  sha256  TEXT PRIMARY KEY,
  model   TEXT NOT NULL,
  summary TEXT NOT NULL
);
"""

DOCUMENT_KINDS = ("markdown", "text", "pdf", "docx", "xlsx", "pptx", "mdx", "rst", "ipynb", "markdoc")
SECTION_KINDS = ("prose", "table", "code", "mixed")
INDEX_MODES = ("flat", "compact", "hierarchical")
