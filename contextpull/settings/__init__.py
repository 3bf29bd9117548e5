"""The write side's settings: what a run is told, resolved once where it starts.

``environment`` is what a run takes from the process environment, read by the surfaces only.
"""
