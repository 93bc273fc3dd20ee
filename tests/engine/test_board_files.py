"""The 2023 board as shipped (what board-facts.md says is known, inferred, unknown) and the
board files a table supplies: merged, then validated like the shipped data, each error one
line naming the field and the rule."""

from __future__ import annotations

import pytest

from engine.board.build import classic_board
from engine.board.errors import BoardDataError, BoardFileError, RuleSetError
from engine.board.load import load_board
from engine.board.model import MissingFactError

REGIONS_2023 = ["galicia", "navarra", "aragon", "cataluna", "castilla", "toledo", "valencia", "sevilla", "granada"]
RENAMED = {"pais_vasco": "navarra", "castilla_la_vieja": "castilla", "castilla_la_nueva": "toledo"}
UNKNOWN_4_5 = {"spaces.france.neighbours", "spaces.portugal.neighbours", "scoring_tiles.tile_a", "scoring_tiles.tile_b"}


def board(players=4, **files):
    return load_board("2023", players, **files)


def ids(b, indices):
    return {b.area_id(i) for i in indices}


def board_missing(b):
    """The board's own unknown facts (the card set's are tested in test_card_files.py)."""
    return {k for k in b.missing if not k.startswith(("cards.", "stacks.", "modules."))}


def refused(players=4, **files) -> str:
    with pytest.raises(BoardFileError) as exc:
        board(players, **files)
    message = str(exc.value)
    assert "\n" not in message and "Traceback" not in message and message.startswith("board file: ")
    return message


# ---- the shipped 4-5 player side


def test_regions_and_spaces_of_the_2023_board():
    b = board()
    assert (b.rules, b.side, b.scoring_places) == ("2023", "4-5", 3)
    assert list(b.region_ids) == REGIONS_2023 and b.castillo == 9
    assert b.region_names[3] == "Cataluña" and b.region_names[5] == "Toledo"
    assert b.space_ids == ("france", "portugal") and b.space_names == ("France", "Portugal")
    assert [b.area_index["france"], b.area_index["portugal"]] == [b.castillo + 1, b.castillo + 2]
    assert list(b.spaces) == [10, 11] and b.area_id(11) == "portugal" and b.area_name(10) == "France"
    assert len(b.scoreboards) == len(b.neighbours) + 1 == 10  # spaces are not regions
    assert all(not (n & set(b.spaces)) for n in b.neighbours)


def test_what_the_2023_examples_show():
    b = board()
    at = b.area_index
    assert ids(b, b.neighbours[at["castilla"]]) == {"galicia", "navarra", "aragon", "toledo"}
    assert {"granada", "toledo"} <= ids(b, b.neighbours[at["valencia"]])
    assert b.scoreboards[at["galicia"]] == (4, 2, 0)
    assert b.scoreboards[at["navarra"]][1:] == (3, 1) and b.scoreboards[at["sevilla"]][1:] == (3, 1)
    assert b.scoreboards[b.castillo] == (5, 3, 1)
    tops = {r: b.scoreboards[at[r]][0] for r in REGIONS_2023}
    assert {r for r, t in tops.items() if t in b.scoring_groups["4"]} == {"galicia", "cataluna", "sevilla"}
    assert {r for r, t in tops.items() if t in b.scoring_groups["5"]} == {"aragon", "navarra", "valencia"}
    assert (b.replenish[9], b.replenish[12], b.replenish[13]) == (2, 0, 0)
    assert b.round_schedules == {"full": tuple(range(1, 10)), "short": (2, 3, 5, 6, 8, 9)}
    assert b.general_scoring_after == {3, 6, 9}
    assert (b.caballeros_per_player, b.home_caballeros, b.court_caballeros) == (30, 2, 7)
    assert (b.min_players, b.max_players) == (4, 5)


def test_the_inferred_rest_is_the_classic_board_renamed():
    b, c = board(), classic_board()
    new_id = [RENAMED.get(r, r) for r in c.region_ids]
    assert new_id == list(b.region_ids)
    for r in c.regions:
        assert b.scoreboards[r] == c.scoreboards[r]
        assert {new_id[n] for n in c.neighbours[r]} == ids(b, b.neighbours[r])
    assert b.replenish == c.replenish and b.scoring_groups == c.scoring_groups
    assert b.mobile_scoreboards == {} and b.scoring_tiles == {"tile_a": None, "tile_b": None}


def test_missing_lists_exactly_the_unknown_facts_of_the_board():
    b = board()
    assert board_missing(b) == UNKNOWN_4_5
    assert b.space_neighbours == (None, None)
    assert "spaces[france].neighbours" in b.missing["spaces.france.neighbours"]
    assert all("board file: " in b.missing[k] for k in UNKNOWN_4_5)
    with pytest.raises(MissingFactError, match=r"France's neighbouring regions are not known") as exc:
        b.need("spaces.france.neighbours")
    assert exc.value.path == "spaces.france.neighbours"
    with pytest.raises(MissingFactError, match="tile_a"):
        b.need("scoring_tiles")
    b.need("regions.galicia.scoreboard")  # known: nothing raised


def test_every_known_fact_of_the_shipped_board_names_its_source():
    b = board()
    facts = {
        "regions",
        "spaces",
        "scoring_order",
        "castillo.scoreboard",
        "scoring_places",
        "mobile_scoreboards",
        "rounds.full",
        "rounds.short",
        "rounds.general_scoring_after",
        "players",
        "players.colours",
        "caballeros_per_player",
        "setup.home_region_caballeros",
        "setup.court_caballeros",
    }
    facts |= {f"regions.{r}.{f}" for r in b.region_ids for f in ("scoreboard", "neighbours")}
    facts |= {f"scoring_groups.{k}" for k in b.scoring_groups} | {f"power_cards.{v}" for v in b.replenish}
    for fact in facts:
        assert b.provenance.get(fact), fact
        assert fact not in b.missing
    p = b.provenance
    assert p["regions.castilla.neighbours"].startswith("confirmed")
    assert p["regions.galicia.scoreboard"].startswith("confirmed")
    assert (
        p["regions.castilla.scoreboard"].startswith("inferred")
        and "Castilla la Vieja" in p["regions.castilla.scoreboard"]
    )
    assert p["power_cards.9"].startswith("confirmed") and p["power_cards.1"].startswith("inferred")
    assert "skip spaces 4 and 7" in p["rounds.short"]


# ---- the 2-3 player side: not shipped


def test_the_two_three_player_side_has_every_scoreboard_missing():
    for players in (2, 3):
        b = board(players)
        assert (b.side, b.scoring_places, b.min_players, b.max_players) == ("2-3", 2, 2, 3)
        assert b.scoreboards == (None,) * 10
        assert b.neighbours == board().neighbours and b.region_ids == board().region_ids
        scoreboards = {f"regions.{r}.scoreboard" for r in REGIONS_2023} | {"castillo.scoreboard"}
        assert board_missing(b) == UNKNOWN_4_5 | scoreboards
        assert "Galicia's Scoring board on the 2-3 player side is not known" in b.missing["regions.galicia.scoreboard"]
        assert "board file: castillo.scoreboard" in b.missing["castillo.scoreboard"]
        assert not any(k in b.provenance for k in scoreboards)
        assert "same map" in b.provenance["regions.castilla.neighbours"]
        with pytest.raises(MissingFactError, match="Toledo's Scoring board"):
            b.need("regions.toledo.scoreboard")


def test_a_table_board_file_completes_the_two_three_player_side():
    values = {r: [3 + i % 3, 1 + i % 2, 0] for i, r in enumerate(REGIONS_2023)}
    file = {
        "rules": "2023",
        "side": "2-3",
        "regions": [{"id": r, "scoreboard": v} for r, v in values.items()],
        "castillo": {"scoreboard": [4, 2, 0]},
        "provenance": {"castillo.scoreboard": "read off our board"},
    }
    b = board(3, board_file=file)
    assert [b.scoreboards[b.area_index[r]] for r in REGIONS_2023] == [tuple(v) for v in values.values()]
    assert b.scoreboards[b.castillo] == (4, 2, 0)
    assert board_missing(b) == UNKNOWN_4_5
    assert b.provenance["regions.galicia.scoreboard"] == "table"
    assert b.provenance["castillo.scoreboard"] == "table: read off our board"
    assert board(3).scoreboards == (None,) * 10  # the shipped side is left as it was


def test_a_table_board_file_gives_france_portugal_and_the_scoring_tiles():
    b = board(
        5,
        board_file={
            "spaces": [
                {"id": "france", "neighbours": ["navarra", "aragon", "cataluna"]},
                {"id": "portugal", "neighbours": ["galicia", "castilla", "toledo", "sevilla"]},
            ],
            "scoring_tiles": {"tile_a": [8, 4, 0], "tile_b": [4, 0, 0]},
        },
    )
    assert ids(b, b.space_neighbours[0]) == {"navarra", "aragon", "cataluna"}
    assert ids(b, b.space_neighbours[1]) == {"galicia", "castilla", "toledo", "sevilla"}
    assert b.scoring_tiles == {"tile_a": (8, 4, 0), "tile_b": (4, 0, 0)}
    assert board_missing(b) == set()
    assert b.provenance["spaces.france.neighbours"] == "table"
    b.need("spaces")
    assert board().space_neighbours == (None, None)


def test_a_table_board_file_may_correct_an_inferred_fact():
    b = board(board_file={"regions": [{"id": "castilla", "scoreboard": [6, 3, 1]}]})
    assert b.scoreboards[b.area_index["castilla"]] == (6, 3, 1)
    assert b.provenance["regions.castilla.scoreboard"] == "table"
    assert board().scoreboards[board().area_index["castilla"]] == (6, 4, 2)


def test_a_classic_table_board_file_is_checked_the_same_way():
    b = load_board("classic", 4, board_file={"regions": [{"id": "galicia", "scoreboard": [4, 2, 1]}]})
    assert b.scoreboards[0] == (4, 2, 1) and b.provenance == {"regions.galicia.scoreboard": "table"}
    assert classic_board().scoreboards[0] == (4, 2, 0)
    with pytest.raises(
        BoardFileError, match=r"regions\[galicia\]\.scoreboard: \[1, 2, 0\]: scoreboard must not increase"
    ):
        load_board("classic", 4, board_file={"regions": [{"id": "galicia", "scoreboard": [1, 2, 0]}]})


# ---- each rule, its error naming the field


@pytest.mark.parametrize(
    "file, expected",
    [
        (
            {"regions": [{"id": "aragon", "neighbours": ["castilla", "toledo", "cataluna", "valencia"]}]},
            "regions[aragon].neighbours: navarra lists aragon but aragon does not list navarra: "
            "adjacency is not symmetric",
        ),
        (
            {"regions": [{"id": "galicia", "neighbours": ["castilla", "navarra", "granada"]}]},
            "regions[granada].neighbours: galicia lists granada but granada does not list galicia",
        ),
        (
            {"regions": [{"id": "galicia", "neighbours": ["castilla", "navarra", "narnia"]}]},
            "regions[galicia].neighbours: unknown neighbour 'narnia'",
        ),
        (
            {"regions": [{"id": "galicia", "neighbours": ["castilla", "navarra", "galicia"]}]},
            "regions[galicia].neighbours: a region does not neighbour itself",
        ),
        (
            {"regions": [{"id": "galicia", "neighbours": ["castilla", "navarra", "navarra"]}]},
            "regions[galicia].neighbours: a neighbour is listed twice",
        ),
        (
            {"regions": [{"id": "galicia", "neighbours": ["castilla", "navarra", "portugal"]}]},
            "regions[galicia].neighbours: portugal is a space, not a region (a space's neighbours are given on the "
            "space: spaces[portugal].neighbours)",
        ),
        (
            {"spaces": [{"id": "france", "neighbours": ["navarra", "castillo"]}]},
            "spaces[france].neighbours: 'castillo' is not a region",
        ),
        (
            {"spaces": [{"id": "france", "neighbours": ["navarra", "navarra"]}]},
            "spaces[france].neighbours: a neighbour is listed twice",
        ),
        (
            {"regions": [{"id": "granada", "scoreboard": [6, 1, 3]}]},
            "regions[granada].scoreboard: [6, 1, 3]: scoreboard must not increase (1st >= 2nd >= 3rd place)",
        ),
        (
            {"regions": [{"id": "granada", "scoreboard": [6, 3, -1]}]},
            "regions[granada].scoreboard: [6, 3, -1]: points may not be negative",
        ),
        (
            {"regions": [{"id": "granada", "scoreboard": [6, 3]}]},
            "regions[granada].scoreboard: must be three integers (points for 1st, 2nd, 3rd place), not 2",
        ),
        (
            {"regions": [{"id": "granada", "scoreboard": [6, "3", 1]}]},
            "regions[granada].scoreboard[1]: must be an integer",
        ),
        ({"castillo": {"scoreboard": [1, 3, 5]}}, "castillo.scoreboard: [1, 3, 5]: scoreboard must not increase"),
        ({"scoring_tiles": {"tile_a": [0, 4, 8]}}, "scoring_tiles.tile_a: [0, 4, 8]: scoreboard must not increase"),
        ({"scoring_tiles": {"tile_c": [8, 4, 0]}}, "scoring_tiles.tile_c: not one of the board's scoring_tiles"),
        ({"power_cards": {"4": 31}}, "power_cards.4: 31 Caballeros is not 0..30"),
        ({"power_cards": {"14": 0}}, "power_cards.14: not one of the board's power_cards"),
        (
            {"regions": [{"id": "asturias", "scoreboard": [4, 2, 0]}]},
            "regions[asturias]: not one of the board's regions",
        ),
        ({"regions": [{"scoreboard": [4, 2, 0]}]}, 'regions[0]: needs an "id"'),
        ({"regions": [{"id": "galicia", "capital": "Santiago"}]}, "regions[galicia].capital: unknown field"),
        (
            {"regions": [{"id": "galicia", "scoreboard": None}]},
            "regions[galicia].scoreboard: a board or card file gives values",
        ),
        ({"rounds": {"full": [1, 2]}}, "rounds: unknown field or one a table cannot change"),
        ({"rules": "classic"}, "rules: the file is for rules 'classic', but this game uses '2023'"),
        ({"side": "2-3"}, "side: the file is for side '2-3', but this game uses '4-5'"),
        (
            {"provenance": {"regions.galicia.scoreboard": "our board"}},
            "provenance.regions.galicia.scoreboard: notes only facts the file gives",
        ),
        ({"regions": {"galicia": {"scoreboard": [4, 2, 0]}}}, "regions: must be a list"),
    ],
)
def test_each_board_rule_is_refused_naming_the_field(file, expected):
    assert expected in refused(board_file=file)


@pytest.mark.parametrize("file", [[1, 2], "board.json", 7, True])
def test_a_board_file_that_is_not_an_object_is_refused(file):
    assert "must be a JSON object" in refused(board_file=file)


def test_unknown_rules_and_player_counts_are_refused():
    with pytest.raises(RuleSetError, match=r"rules: unknown rule set 'kingandintrigue' \(rule sets: classic, 2023\)"):
        load_board("kingandintrigue", 4)
    for players in (1, 6, "4", True):
        with pytest.raises(RuleSetError, match="players: .* given; the 2023 rules take 2 to 5 players"):
            load_board("2023", players)
    assert issubclass(BoardFileError, ValueError) and issubclass(BoardDataError, ValueError)


def test_a_table_file_never_changes_the_shipped_board():
    before = board()
    board(board_file={"regions": [{"id": "galicia", "scoreboard": [9, 9, 9]}]})
    with pytest.raises(BoardFileError):
        board(board_file={"regions": [{"id": "galicia", "scoreboard": [1, 9, 9]}]})
    assert board() is before and before.scoreboards[0] == (4, 2, 0)


# ---- the shipped files themselves are held to the same rules


def shipped(name):
    import json
    from importlib import resources

    return json.loads(resources.files("engine.data").joinpath(name).read_text("utf-8"))


def test_the_shipped_2023_files_build_the_same_board():
    from engine.board.build import build_board

    assert build_board(shipped("board_2023.json"), shipped("action_cards_2023.json")) == board()


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            lambda b: b["missing"].pop("spaces.france.neighbours"),
            "spaces[france].neighbours: is unknown (null) but missing.spaces.france.neighbours says nothing about it",
        ),
        (
            lambda b: b["provenance"].pop("regions.castilla.scoreboard"),
            "provenance.regions.castilla.scoreboard: says nothing; every fact of the 2023 board names its source",
        ),
        (
            lambda b: b["missing"].update({"regions.galicia.scoreboard": "unknown"}),
            "missing.regions.galicia.scoreboard: the fact is given, so it is not missing",
        ),
        (
            lambda b: b["provenance"].update({"regions.asturias.scoreboard": "a guess"}),
            "provenance.regions.asturias.scoreboard: no such fact on this board",
        ),
        (
            lambda b: b["regions"][0].update(scoreboard=None),
            "regions[galicia].scoreboard: is unknown (null) but missing.regions.galicia.scoreboard says nothing",
        ),
        (lambda b: b.update(side="classic"), "side: 'classic' is not a side of the 2023 board (sides: 4-5, 2-3)"),
        (lambda b: b["regions"][1].update(id="galicia"), "regions[galicia]: id used twice"),
    ],
)
def test_the_shipped_board_data_is_checked(change, expected):
    from engine.board.build import build_board

    data = shipped("board_2023.json")
    change(data)
    with pytest.raises(BoardDataError) as exc:
        build_board(data, shipped("action_cards_2023.json"))
    assert expected in str(exc.value)


def test_a_board_and_a_card_set_of_different_rules_are_refused():
    from engine.board.build import build_board

    with pytest.raises(BoardDataError, match="rules: a 2023 board cannot take a classic card set"):
        build_board(shipped("board_2023.json"), shipped("action_cards_classic.json"))


def test_shipped_card_data_needs_a_note_for_each_unknown():
    from engine.board.build import build_board

    cards = shipped("action_cards_2023.json")
    outposts = next(c for c in cards["cards"] if c["id"] == "outposts")
    outposts["missing"].pop("stack")
    with pytest.raises(BoardDataError, match=r"cards\[outposts\]\.stack: is unknown \(null\) but the card's missing"):
        build_board(shipped("board_2023.json"), cards)
    outposts["stack"] = 3
    outposts["missing"]["stack"] = "stale"
    with pytest.raises(BoardDataError, match=r"cards\[outposts\]\.missing\.stack: the value is given"):
        build_board(shipped("board_2023.json"), cards)
