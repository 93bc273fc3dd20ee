"""`elgrande score --rules king-intrigue` (engine/snapshot.py) with the tokens that act at a
general scoring: the King's Guard's King's bonus, the Mistress (no King's bonus), the bridge's
point, a Castillo disc to a quarantined region (to the court, as to the King's)."""
from __future__ import annotations

import pytest

from engine.snapshot import SnapshotError, load_snapshot, score_snapshot

BASE = {"rules": "king-intrigue", "players": ["red", "blue", "green"], "king": "cataluna",
        "grandes": {"red": "granada", "blue": "galicia", "green": "valencia"},
        "regions": {"aragon": {"red": 3, "blue": 1}, "cataluna": {"green": 2}}}


def _score(**tokens):
    snap = load_snapshot({**BASE, **tokens})
    gained, lines, after = score_snapshot(snap)
    return gained, lines, after


def test_the_kings_guard_adds_the_kings_bonus_to_its_region():
    plain, _, _ = _score()
    gained, lines, after = _score(kings_guard="aragon")
    assert gained["red"] == plain["red"] + 2
    assert any(ln.area == "aragon" and ln.kind == "king_bonus" for ln in lines)
    assert after.kings_guard == "aragon"  # it leaves with the round, not the scoring


def test_the_mistress_takes_every_kings_bonus_away_home_bonus_as_usual():
    plain, _, _ = _score()
    gained, lines, _ = _score(mistress="blue", kings_guard="aragon")
    assert not any(ln.kind == "king_bonus" for ln in lines)
    assert gained["green"] == plain["green"] - 2 and gained["red"] == plain["red"]


def test_the_bridge_pays_its_owner_one_point_and_stays():
    plain, _, _ = _score()
    gained, lines, after = _score(bridge="blue", bridge_regions=["aragon", "valencia"])
    assert gained["blue"] == plain["blue"] + 1 and any(ln.kind == "bridge" for ln in lines)
    assert after.bridge == "blue" and after.bridge_regions == ["aragon", "valencia"]
    with pytest.raises(SnapshotError, match="two adjacent regions"):
        load_snapshot({**BASE, "bridge": "blue", "bridge_regions": ["aragon", "galicia"]})


def test_a_disc_to_a_quarantined_region_sends_the_castillo_caballeros_to_the_court():
    _, _, after = _score(castillo={"red": 2}, secret_discs={"red": "aragon"}, quarantine="aragon")
    assert after.regions["aragon"]["red"] == 3 and after.court.get("red") == 2
    # the King may come to the quarantined region afterwards (his card moves him anywhere)
    _, _, after = _score(castillo={"red": 2}, secret_discs={"red": BASE["king"]}, quarantine=BASE["king"])
    assert after.court.get("red") == 2
    with pytest.raises(SnapshotError, match="only the King and Intrigue rules"):
        load_snapshot({**BASE, "rules": "classic", "mistress": "red"})
