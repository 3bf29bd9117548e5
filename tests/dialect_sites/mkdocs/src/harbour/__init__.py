"""The harbour's public names."""

from .berth import Berth

__all__ = ["Berth"]
