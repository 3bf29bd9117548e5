"""Berths at the quay."""


class Berth:
    """A place at the quay where one boat ties up."""

    def moor(self, boat: str, *, hours: int = 2) -> bool:
        """Tie a boat up for a while.

        Args:
            boat: The boat's name.
            hours: How long it stays.

        Returns:
            Whether the berth was free.
        """
        return True
