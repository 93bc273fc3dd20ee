"""King and Intrigue's box table (companion/table_rules/ki_box_table.py): each cell tapped as the
screen takes it, the taps a fact takes counted, and each entry checked and saved by the draft."""

from __future__ import annotations

import pytest

from companion.table_rules.ki_box_table import BoxCell, stepped, taps_to, typed
from companion.table_rules.ki_cards import KICardsDraft
from companion.table_rules.storage import RuleFileError


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_a_box_cell_is_tapped_as_the_screen_takes_it(data_dir):
    draft = KICardsDraft()
    court = next(c for c in draft.cells() if c.key == "court:ki_10")
    assert taps_to(court, 6) == 1 and court.chips[6] == (6, "6")
    with pytest.raises(ValueError, match="not one of its chips"):
        taps_to(court, 12)
    draft.enter(court, 6)
    assert draft.row("ki_10").court == 6
    value = next(c for c in draft.cells() if c.key == "value:pe_joker")
    assert taps_to(value, 5) == 2 and taps_to(value, 135) == 4  # its digits, then Set
    assert typed("", "0") == "" and typed("13", "5") == "135" and typed("135", "1") == "135"
    assert typed("13", "clear") == ""
    with pytest.raises(ValueError, match="outside 1..999"):
        taps_to(value, 1000)
    count = BoxCell("ki_30", "param:count", "how many", (), 3, 1, 30)
    assert taps_to(count, 5) == 2 and stepped(count, -1) == 2
    opponents = next(c for c in draft.cells() if c.key == "effect:ki_30")
    draft.enter(opponents, "decay")
    assert draft.row("ki_30").params == {"count": 3}
    with pytest.raises(RuleFileError, match="placements: 6 is not a player count"):
        draft.enter(BoxCell("", "place:6:0", ""), 2)
