"""Places for long-lived watchers, shared by both web servers: the phone server's status screens
(/ws/status) and the club board's pages (/events). Each takes a place when it opens and frees it
when it ends; at most `total` in all and `per_address` from one device, so watchers can never
fill the server (the guard protects them from being closed for room instead)."""

from __future__ import annotations


class SpectatorPlaces:
    """Loop thread only. `crowded` and `own` name the watchers in the refusals: "too many
    {crowded} (at most N): close one first", "this device already has N {own} (...)"."""

    def __init__(self, total: int, per_address: int, crowded: str, own: str):
        self.total, self.per_address = total, per_address
        self._crowded, self._own = crowded, own
        self._from: dict[str, int] = {}  # address -> places taken

    def __len__(self) -> int:
        return sum(self._from.values())

    def count(self, address: str) -> int:
        return self._from.get(address, 0)

    def refusal(self, address: str) -> str | None:
        """Why a watcher from `address` cannot open now, or None."""
        if len(self) >= self.total:
            return f"too many {self._crowded} (at most {self.total}): close one first"
        if self.count(address) >= self.per_address:
            return f"this device already has {self.per_address} {self._own} (the most one address may have)"
        return None

    def take(self, address: str) -> None:
        self._from[address] = self._from.get(address, 0) + 1

    def leave(self, address: str) -> None:
        left = self._from.pop(address, 1) - 1
        if left:
            self._from[address] = left
