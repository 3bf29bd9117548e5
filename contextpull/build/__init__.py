"""The write side: the only code that creates or changes a store (system-design.txt section 3).

Nothing in the reader core imports this package; a test enforces it.
"""
