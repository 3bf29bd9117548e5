"""Beds of the allotment (a fixture for the Sphinx site test)."""


class Bed:
    def __init__(self, name):
        self.name = name


def sow(bed, seed, depth=1):
    """Sow one row."""
    return (bed, seed, depth)
