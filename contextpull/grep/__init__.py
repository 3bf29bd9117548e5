"""The two scans behind the ``grep`` operation (store-format.txt "Grep").

``literal`` finds a substring case-insensitively in id order, through the optional trigram
table when the store has one (``documents_trigram``; ``sections_trigram`` in earlier builds);
``regex`` evaluates a pattern line by line under a per-section budget that really stops
pathological patterns, in a child process (``regex_child``) when it cannot use a signal timer. ``contextpull.ops`` drives both.
Standard library only.
"""
