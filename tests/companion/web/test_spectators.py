"""Places for long-lived watchers (the phones' status screens, the board's pages): capped in all
and per address, each refusal saying which cap and naming the watchers; a place left is free."""

from __future__ import annotations

from companion.web.spectators import SpectatorPlaces


def test_watchers_are_capped_in_all_and_per_address_and_leave_their_place():
    places = SpectatorPlaces(3, 2, "status screens are open", "status screens open")
    assert places.refusal("10.0.0.1") is None
    places.take("10.0.0.1")
    places.take("10.0.0.1")
    assert places.refusal("10.0.0.1") == (
        "this device already has 2 status screens open (the most one address may have)"
    )
    assert places.refusal("10.0.0.2") is None
    places.take("10.0.0.2")
    assert len(places) == 3 and places.count("10.0.0.1") == 2
    assert places.refusal("10.0.0.3") == "too many status screens are open (at most 3): close one first"
    places.leave("10.0.0.1")
    assert places.count("10.0.0.1") == 1 and places.refusal("10.0.0.3") is None
    places.leave("10.0.0.2")
    places.leave("10.0.0.2")  # a second leave frees nothing more
    assert places.count("10.0.0.2") == 0 and len(places) == 1
