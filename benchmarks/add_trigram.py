"""Add the optional ``sections_trigram`` table to a copy of a store (reproduces the trigram grep row).

  python benchmarks/add_trigram.py STORE COPY

The table follows the contract in ``contextpull/grep/literal.py``; readers that do not know it ignore
it. ``contextpull build`` writes it one segment per chunk; this script adds it to any store (one
from ``ingest``, or the published implementation's) to measure what it gives there.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import time

from contextpull.indexing import trigram


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", help="the store to copy")
    parser.add_argument("copy", help="where the copy with the table goes")
    args = parser.parse_args(argv)
    source, target = args.store, args.copy
    try:
        shutil.copyfile(source, target)
    except OSError as exc:
        parser.error(f"cannot copy {source} to {target}: {exc.strerror}")
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
