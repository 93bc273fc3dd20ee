"""Scoring only, King and Intrigue: the board entry's marker tools and choices
(companion/entry/ki_markers.py, no Kivy), every event it builds sent through the real table
authority (engine.freeplay, engine.snapshot)."""

import pytest

from companion.entry.board import BoardEntry
from companion.entry.ki_markers import ki_fields, ki_markers
from companion.input_errors import InputError
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine.snapshot import load_snapshot, score_snapshot
from tests.companion.table.test_authority_king_intrigue import BOTH, ki_setup

KING = "castilla_la_nueva"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))


def scoring_table(modules=BOTH, n=3) -> Table:
    return Table.new(TableSetup(game=ki_setup(n, modules, variant="full"), mode="scoring", tower={"kind": "none"}))


def entry(table: Table) -> BoardEntry:
    return BoardEntry(table.public().game, table.names, table.board)


def taps(e: BoardEntry, tool: str, *areas: str) -> list[str]:
    e.tool = tool
    said = []
    for area in areas:
        e.tap(area)
        said.append(e.message)
    return said


def test_the_marker_tools_are_offered_only_for_king_and_intrigue_and_its_modules():
    both = entry(scoring_table())
    assert [t for t, _ in both.ki_tools()] == [
        "marker:double",
        "marker:alliance",
        "castillo_at",
        "quarantine",
        "marker:bridge",
        "kings_guard",
        "marker:limit",
    ]
    assert ("mobile:8-4-0", "Place the 8-4-0 scoreboard") in both.tool_buttons()
    assert [k for k, _, _ in both.ki_choices()] == ["reversed:8-4-0", "reversed:4-0-0", "mistress"]
    base = entry(scoring_table(modules=()))
    assert [t for t, _ in base.ki_tools()] == ["marker:double"] and base.ki_choices() == []
    classic = Table.new(
        TableSetup(
            game=ki_setup(3).model_copy(update={"rules": "classic", "cards_file": None}),
            mode="scoring",
            tower={"kind": "none"},
        )
    )
    plain = entry(classic)
    assert plain.ki_tools() == [] and plain.ki_choices() == []
    assert plain.tool_buttons() == [("remove", "Take one off"), ("king", "Move the King"), ("grande", "Move a Grande")]
    assert "markers" not in plain.preview() and "double_scoring" not in plain.event()


def test_a_board_with_markers_entered_by_taps_is_scored_as_the_same_snapshot():
    table = scoring_table()
    for _ in range(2):
        table.submit({"type": "round_finished"})  # round 3: a general scoring follows it
    e = entry(table)
    e.colour = "red"
    taps(e, "add", "aragon", "aragon", "cataluna", "galicia", KING)
    e.colour = "blue"
    taps(e, "add", "aragon", "cataluna", "cataluna", "cataluna")
    assert taps(e, "marker:double", "galicia") == [""]
    assert taps(e, "marker:alliance", "aragon", "cataluna") == ["", ""]
    assert taps(e, "castillo_at", "valencia") == [""]
    assert taps(e, "mobile:8-4-0", "aragon") == [""]
    e.choose("reversed:8-4-0")
    e.choose("mistress")
    e.choose("mistress")  # on to the next player: Blue
    assert dict((k, w) for k, w, _ in e.ki_choices())["mistress"] == "Mistress: Blue"
    preview = e.preview()["markers"]
    assert preview == {
        "double_1": "galicia",
        "alliance_1": "aragon",
        "alliance_2": "cataluna",
        "castillo_at": "valencia",
        "reversed_8-4-0": True,
        "mistress": "blue",
    }
    event = e.event()
    assert (event["double_scoring"], event["alliance"], event["castillo_at"], event["reversed"], event["mistress"]) == (
        ["galicia"],
        ["aragon", "cataluna"],
        "valencia",
        ["8-4-0"],
        "blue",
    )
    table.submit(event)
    game = table.public().game
    assert game["markers"] == preview  # the map draws what was entered
    snapshot = load_snapshot({**table.free.table.model_dump(), "secret_discs": {}}, table.board)
    _, expected, _ = score_snapshot(snapshot, None, table.board)
    table.submit({"type": "round_finished"})
    for pid in ("red", "blue", "green"):
        table.submit({"type": "secret_disc_set", "player": pid, "region": "granada"})
    table.submit({"type": "castillo_counted", "counts": {}})
    table.submit({"type": "secret_discs_revealed"})
    scored = table.public().game["scorings"][-1]["lines"]
    assert scored == [ln.to_dict() for ln in expected]
    assert any("2x marker on Galicia" in ln["reason"] for ln in scored)
    assert any("Alliance" in ln["reason"] for ln in scored)
    assert any(ln["area"] == KING and ln["player"] == "red" for ln in scored)
    assert not any(ln["kind"] == "king_bonus" for ln in scored)  # the Mistress
    assert table.public().game["markers"] == {"reversed_8-4-0": True}  # the rest left with the scoring
    again = entry(table)  # the next entry starts from the table as it is now
    assert again.ki["reversed"] == ["8-4-0"] and again.ki["double_scoring"] == []


def test_limit_tables_are_entered_and_a_full_one_sends_the_newer_caballeros_to_the_court():
    """Table for Six in scoring only: the limit tables are entered with the board; at the general
    scoring, what the discs bring beyond a table's 6 seats goes back to the court, as the score
    says and as the table is told."""
    table = scoring_table()
    e = entry(table)
    assert taps(e, "marker:limit", "aragon", "sevilla", "valencia", "granada") == [
        "",
        "",
        "",
        ("All 3 limit tables lie already (on Aragón, Sevilla and Valencia): tap one to take it off first"),
    ]
    assert e.event()["limit_tables"] == ["aragon", "sevilla", "valencia"]
    table.submit(e.event())
    assert table.public().game["markers"]["limit_1"] == "aragon"


def test_limits_are_refused_in_words_and_change_nothing():
    e = entry(scoring_table())
    assert taps(e, "marker:double", "galicia", "aragon", "sevilla") == [
        "",
        "",
        ("Both 2x markers lie already (on Galicia and Aragón): tap one to take it off first"),
    ]
    assert taps(e, "marker:double", "galicia", "sevilla") == ["", ""]  # one taken off, then placed
    assert e.ki["double_scoring"] == ["aragon", "sevilla"]
    assert taps(e, "marker:alliance", "galicia", "aragon", "sevilla") == [
        "",
        "",
        ("Both Alliance markers lie already (on Galicia and Aragón): tap one to take it off first"),
    ]
    assert taps(e, "marker:alliance", "galicia", "aragon") == ["", ""]  # both taken off
    assert taps(e, "kings_guard", "castillo") == ["The King's Guard lies on a region, not on the Castillo"]
    assert taps(e, "marker:bridge", "galicia", "granada") == [
        "",
        "The bridge joins two adjacent regions: Granada does not border Galicia",
    ]
    assert taps(e, "quarantine", "aragon", "valencia") == ["", ""] and e.ki["quarantine"] == "valencia"  # moved
    assert taps(e, "quarantine", "valencia") == [""] and e.ki["quarantine"] is None  # taken off
    # The King may come to a marked region ("If the King is moved to the region where the Castillo
    # is located, it has no effect on the Castillo"; an Alliance on the King's region scores his bonus)
    taps(e, "castillo_at", "aragon")
    assert taps(e, "king", "aragon") == [""] and e.king == "aragon"
    assert taps(e, "marker:alliance", "aragon", "cataluna") == ["", ""]
    taps(e, "marker:alliance", "aragon", "cataluna")
    assert taps(e, "king", KING) == [""] and e.king == KING
    # A bridge with one end taken off has no owner: it is chosen again once both ends lie
    b = entry(scoring_table())
    assert taps(b, "marker:bridge", "galicia", "pais_vasco") == ["", ""]
    b.choose("bridge")
    assert b.ki["bridge"]
    taps(b, "marker:bridge", "pais_vasco")
    assert b.ki["bridge_regions"] == ["galicia"] and b.ki["bridge"] is None
    e.choose("no such choice")
    assert "is not a choice" in e.message
    assert e.ki["alliance"] == [] and e.ki["kings_guard"] is None


def test_a_bridge_needs_its_owner_and_the_engine_says_so_when_it_is_missing():
    table = scoring_table()
    e = entry(table)
    assert "bridge" not in [k for k, _, _ in e.ki_choices()]  # no owner to choose before both ends lie
    taps(e, "marker:bridge", "galicia", "pais_vasco")
    assert dict((k, w) for k, w, _ in e.ki_choices())["bridge"] == "Bridge: whose?"
    with pytest.raises(InputError, match="the bridge's owner and its two regions are given together"):
        table.submit(e.event())
    e.choose("bridge")
    assert dict((k, w) for k, w, _ in e.ki_choices())["bridge"] == "Bridge: Red's"
    table.submit(e.event())
    assert table.public().game["markers"] == {
        "bridge_1": "galicia",
        "bridge_2": "pais_vasco",
        "bridge_caballero": "red",
    }
    taps(e, "marker:bridge", "galicia", "pais_vasco")  # both ends off: the bridge and its owner go
    assert e.event()["bridge"] is None and e.event()["bridge_regions"] == []


def test_markers_and_fields_convert_both_ways_as_the_tracked_view_names_them():
    fields = {
        "double_scoring": ["aragon"],
        "alliance": ["galicia", "sevilla"],
        "castillo_at": "granada",
        "reversed": ["4-0-0"],
        "quarantine": "valencia",
        "kings_guard": "cataluna",
        "mistress": "red",
        "bridge": "blue",
        "bridge_regions": ["galicia", "pais_vasco"],
        "limit_tables": ["aragon", "granada"],
    }
    assert ki_fields(ki_markers(fields)) == fields
    assert ki_markers(fields)["limit_2"] == "granada"  # as the tracked view names the limit tables
