"""Add the optional ``sections_trigram`` table to a copy of a store (reproduces the trigram grep row).

  python benchmarks/add_trigram.py STORE COPY

The table follows the contract in ``contextpull/grep/literal.py``; readers that do not know it ignore
it. ``contextpull build`` writes it one segment per chunk; this script adds it to any store (one
from ``ingest``, or the published implementation's) to measure what it gives there.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
import time

from contextpull.writing import trigram


def main() -> int:
    source, target = sys.argv[1], sys.argv[2]
    shutil.copyfile(source, target)
    start = time.perf_counter()
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode = DELETE")
    trigram.add(conn)
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    print(f"{target}: sections_trigram added in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
