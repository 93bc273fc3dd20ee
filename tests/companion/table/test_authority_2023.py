"""The 2023 edition at the table, without Kivy: whole games entered through the prompts
only (a headless tablet that taps what the prompts offer, tests/companion/tablet_driver.py),
the tap counts of each step against the classic table's budgets, the colours the tower
does not know, private choices through the table, the card set completed during a game,
corrections that put the King by the Castillo or in France, and scoring-only games."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from pydantic import ValidationError

from companion.entry.board import BoardEntry
from companion.entry.corrections import correction_history
from companion.entry.position import NotAllowed, PositionEntry
from companion.input_errors import InputError
from companion.prompts.card_words import effect_choices
from companion.scripted import fingerprint, play
from companion.table.authority import Table
from companion.table.setup import TableSetup, colours_for
from engine import events as ev
from engine.freeplay import RoundFinished
from engine.game import board_for
from engine.playout import old_hands_removed, standin_files
from firmware_bridge.adapter import TowerDrop
from tests.companion.tablet_driver import TabletDriver

COLOURS = ["purple", "blue", "green", "orange", "red"]
HOMES = ["galicia", "aragon", "sevilla", "valencia", "granada"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def game_setup(n: int, modules=(), variant="short", cards_file=None, players=None) -> ev.GameSetup:
    """A 2023 game with the table's board and card files (the self-play stand-ins, standing in
    for what a table enters from its own box)."""
    board_file, stand_in_cards = standin_files("2023", n)
    players = players or COLOURS[:n]
    setup = ev.GameSetup(
        players=players,
        names={p: p.title() for p in players},
        king="castilla",
        homes=dict(zip(players, HOMES)),
        start_player=players[0],
        rules="2023",
        modules=list(modules),
        dummy="white" if n == 2 else None,
        variant=variant,
        board_file=board_file,
        cards_file=cards_file or stand_in_cards,
        stand_in_modifiers="power-shift" in modules,
    )
    if "old-hands" in modules:
        setup = setup.model_copy(update={"removed_cards": old_hands_removed(random.Random(n), board_for(setup))})
    return setup


def new_table(n: int, modules=(), mode="tracking", tower="simulated", **more) -> Table:
    return Table.new(TableSetup(game=game_setup(n, modules, **more), mode=mode, tower={"kind": tower}))


def taps_by_kind(log) -> dict[str, list[int]]:
    out = defaultdict(list)
    for step in log:
        out[step.kind].append(step.taps)
    return out


def general_scorings(log, players: int) -> list[int]:
    """Tablet taps of each general scoring: the discs, then opening and revealing."""
    out, running = [], 0
    for step in log:
        if (
            step.kind == "secret_disc"
            and step.events[0].get("type") == "secret_disc_set"
            and step.purpose == "castillo_destination"
        ):
            running += step.taps
        if step.kind == "reveal_secret_discs" and any(e["type"] == "castillo_counted" for e in step.events):
            out.append(running + step.taps)
            running = 0
    return out


ONE_PICK = ("move_grande", "move_king", "choose_region", "swap_pieces", "move_king_with_entourage")


def ordinary_turns(log) -> list[tuple[int, int, bool]]:
    """(taps, Caballeros placed, placed before the special action) of each ordinary turn: the
    replenishment and the card in one tap, a placement, the special action skipped or done
    with at most one pick."""
    turns, current = [], None
    for step in log:
        if step.kind == "replenish":
            current = {
                "actor": step.actor,
                "taps": step.taps,
                "placed": 0,
                "first": None,
                "plain": any(e["type"] == "action_card_chosen" for e in step.events),
            }
            turns.append(current)
        elif current is not None and step.actor == current["actor"] and step.kind in ("turn_action",) + ONE_PICK:
            current["taps"] += step.taps
            placed = next((e for e in step.events if e["type"] == "caballeros_placed"), None)
            if placed:
                current["placed"] += sum(placed["placements"].values())
                current["first"] = current["first"] if current["first"] is not None else True
            elif current["first"] is None:
                current["first"] = False
            if any(e["type"] == "castillo_counted" for e in step.events):
                current["plain"] = False
        elif current is not None and step.actor == current["actor"] and step.kind != "play_power_card":
            current["plain"] = False  # a longer special action (moves, send-backs ...)
        else:
            current = None
    return [(t["taps"], t["placed"], bool(t["first"])) for t in turns if t["plain"]]


def check_ordinary_turns(log) -> None:
    """The classic budget: a turn with 3 placed and a one-pick special action in 6 taps. Placed
    first, "Do the special action" places them (no Confirm); after it, Confirm is one more."""
    turns = ordinary_turns(log)
    assert turns
    for taps, placed, first in turns:
        assert taps <= 3 + placed + (not first), (taps, placed, first)


# ---- whole games ----------------------------------------------------------------------------------


def test_a_whole_two_player_2023_game_with_the_dummy_through_the_prompts_only():
    table = new_table(2, variant="full")
    assert table.dummy == "white" and table.board.side == "2-3" and table.board.scoring_places == 2
    assert "Toledo" in table.board.region_names
    driver = TabletDriver(table, seed=7)
    log = driver.play()
    game = table.public().game
    assert table.over and game["winners"] and "white" not in game["winners"]
    assert next(p for p in game["players"] if p["id"] == "white")["score"] == 0  # it scores nothing
    taps = taps_by_kind(log)
    rounds = len(game["rounds"])
    # The table's duties for the dummy each round: its Region cards (two taps; the pile is never
    # short in a full game here) and its Power card (one tap). Nothing else is asked for it.
    assert len(taps["dummy_region_cards"]) >= rounds - 2 and max(taps["dummy_region_cards"]) <= 3
    assert taps["dummy_power_card"] == [1] * rounds
    assert set(taps["play_power_card"]) == {1} and len(taps["play_power_card"]) == 2 * rounds
    assert set(taps["reveal_action_cards"]) == {4}  # three stacks (2 and 3 merged), then Reveal
    assert not [s for s in log if s.actor == "white"]  # never asked anything
    for total in general_scorings(log, 2):
        assert total <= 4 + 2 * 2
    check_ordinary_turns(log)
    resumed = Table.resume(table.path)
    assert fingerprint(resumed) == fingerprint(table)


def test_a_whole_four_player_power_shift_game_with_phones_for_the_secrets():
    table = new_table(4, ("power-shift",), variant="full")
    driver = TabletDriver(table, seed=11, phones=True)
    log = driver.play()
    assert table.over and table.public().game["winners"]
    taps = taps_by_kind(log)
    assert len(taps["deal_modifiers"]) == 4 and set(taps["deal_modifiers"]) == {0}  # on the phones
    assert len(taps["pass_modifier"]) >= 4 and set(taps["pass_modifier"]) == {0}
    played = [s for s in log if s.kind == "play_power_card"]
    with_modifier = [s for s in played if s.events[0].get("modifier")]
    assert with_modifier and all(s.taps == 2 for s in with_modifier)  # the Modifier, then the card
    assert all(s.taps == 1 for s in played if not s.events[0].get("modifier"))
    for total in general_scorings(log, 4):
        assert total <= 4  # discs from phones: only opening the Castillo on the tablet
    check_ordinary_turns(log)
    assert fingerprint(Table.resume(table.path)) == fingerprint(table)


@pytest.mark.parametrize(
    "players,modules", [(3, ("new-regency", "four-stacks")), (5, ("new-regency", "old-hands", "power-shift"))]
)
def test_whole_2023_games_with_every_module_on_the_tablet(players, modules):
    table = new_table(players, modules, tower="none")
    log = TabletDriver(table, seed=players).play()
    assert table.over
    taps = taps_by_kind(log)
    stacks = 3 if "four-stacks" in modules else 4
    assert set(taps["reveal_action_cards"]) == {stacks + 1 + ("new-regency" in modules)}
    if "power-shift" in modules:
        assert set(taps["deal_modifiers"]) == {5}  # open, three cards, confirm: behind the private screen
        assert set(taps["pass_modifier"]) == {2}
    assert set(taps["secret_disc"]) <= {2}
    assert fingerprint(Table.resume(table.path)) == fingerprint(table)


def test_an_ordinary_2023_turn_with_three_placed_and_a_one_pick_special_takes_six_taps():
    """The classic budget's turn (replenish and card, 3 placed, a special action with one pick)."""
    table = new_table(4, ("power-shift",), tower="none")
    driver = TabletDriver(table, seed=5, phones=True)
    while table.asked().kind != "reveal_action_cards":
        driver.step()  # the Modifier cards, dealt and passed on the phones
    driver.step({"type": "action_cards_revealed", "cards": ["intrigue", "coup", "fiesta", "standin_score_chosen"]})
    for pid, card in (("purple", 13), ("blue", 12), ("green", 11), ("orange", 10)):
        assert driver.step({"type": "power_card_played", "player": pid, "card": card}).taps == 1
    steps = [
        driver.step(
            [
                {"type": "court_replenished", "player": "purple", "from_provinces": 0},
                {"type": "action_card_chosen", "player": "purple", "stack": 4},
            ]
        ),
        driver.step({"type": "caballeros_placed", "player": "purple", "placements": {"toledo": 2, "navarra": 1}}),
        driver.step({"type": "special_action_started", "player": "purple", "option": None}),
        driver.step({"type": "region_chosen", "player": "purple", "region": "toledo"}),
    ]
    assert [s.taps for s in steps] == [1, 3, 1, 1] and table.asked().players == ("blue",)


# ---- colours the tower does not know --------------------------------------------------------------


def test_the_2023_box_colours_are_allowed_and_the_tower_says_what_it_cannot_count():
    assert colours_for("classic") == ("red", "yellow", "green", "blue", "black")
    assert {"purple", "orange", "white"} <= set(colours_for("2023"))
    with pytest.raises(ValidationError, match="not a colour: purple"):
        TableSetup(
            game=ev.GameSetup(
                players=["purple", "blue"],
                king="galicia",
                start_player="blue",
                homes={"purple": "aragon", "blue": "sevilla"},
            )
        )
    with pytest.raises(ValidationError, match="not a colour: pink"):
        TableSetup(game=game_setup(2).model_copy(update={"dummy": "pink"}))
    setup = TableSetup(game=game_setup(2))
    assert setup.by_hand() == ["purple", "white"]
    assert setup.colour_notes() == [
        "The tower does not know purple: enter Purple's throws into the Castillo by hand (tap the Castillo "
        "when placing).",
        "The tower does not know white: the dummy's (White) Caballeros in the Castillo are entered by hand "
        "(a player who moves them there taps the Castillo).",
        "Or calibrate the tower for this game's colours (tap Tower:, then Calibrate the colours) and it counts them.",
    ]
    assert TableSetup(game=game_setup(2), tower={"kind": "none"}).colour_notes() == []


def test_a_colour_the_tower_does_not_know_taps_the_castillo_and_counts_from_the_entered_turns():
    table = new_table(3)
    table.submit({"type": "action_cards_revealed", "cards": ["intrigue", "coup", "fiesta", "standin_move_any_4"]})
    for pid, card in (("purple", 13), ("blue", 12), ("green", 11)):
        table.submit({"type": "power_card_played", "player": pid, "card": card})
    table.submit_many(table.prompt().choices[3].events)  # purple: replenish, take stack 4 (4 Caballeros)
    prompt = table.prompt()
    assert "castillo" in prompt.areas and "the tower counts" not in prompt.hint
    table.submit(prompt.on_counts({"castillo": 2, "toledo": 1}))
    table.submit({"type": "special_action_skipped", "player": "purple"})
    assert table.hidden_tallies()["purple"] == 2  # from the turn entered: the tower never saw purple
    table.submit_many(table.prompt().choices[0].events)  # blue: replenish, take stack 1
    prompt = table.prompt()
    assert "castillo" not in prompt.areas and "the tower counts the Castillo" in prompt.hint
    table.tower_drop(TowerDrop(tower="t", boot="b", seq=1, colour="blue", uncertain=False, best="blue"))
    assert table.prompt().prefill == {"castillo": 1}
    assert table.hidden_tallies() == {"purple": 2, "blue": 1, "green": 0}
    assert table.open_castillo()["purple"] == 2


def test_a_dummy_caballero_moved_into_the_castillo_is_expected_not_a_stray():
    setup = game_setup(2).model_copy(update={"dummy": "black"})  # a colour the tower knows
    table = Table.new(TableSetup(game=setup))

    def drop(seq: int) -> dict:
        table.tower_drop(TowerDrop(tower="t", boot="b", seq=seq, colour="black", uncertain=False, best="black"))
        return table.drops[("t", "b", seq)]

    table.submit({"type": "dummy_region_cards_drawn", "regions": ["toledo", "galicia"]})
    table.submit({"type": "action_cards_revealed", "cards": ["intrigue", "coup", "standin_move_any_4"]})
    assert drop(1).status == "flagged"  # nobody moves the dummy's now: a stray cube
    table.dismiss_drop("b:1")
    table.submit({"type": "dummy_power_card_revealed", "card": 1})
    table.submit({"type": "power_card_played", "player": "purple", "card": 13})
    table.submit({"type": "power_card_played", "player": "blue", "card": 12})
    table.submit_many(
        [
            {"type": "court_replenished", "player": "purple", "from_provinces": 0},
            {"type": "action_card_chosen", "player": "purple", "stack": 1},
        ]
    )
    table.submit({"type": "caballeros_placed", "player": "purple", "placements": {}})
    table.submit({"type": "special_action_started", "player": "purple"})
    assert "toledo" in table.prompt().sources and "black" in table.prompt().sources["toledo"]
    entry = drop(2)
    assert entry.status == "expected" and not entry.needs_person and not table.public().drops_waiting
    table.submit(table.prompt().on_move("toledo", "castillo", "black"))
    assert table.state.counts[table.board.castillo][table.state.dummy] == 1
    assert table.public().colours == {"purple": "purple", "blue": "blue", "black": "black"}


# ---- private choices through the table (the phones' and the private screen's way in) ---------------


def test_private_choices_go_through_the_table_and_never_change_the_question_for_others():
    table = new_table(3, ("power-shift",))
    assert table.private_waiting() == ["purple", "blue", "green"]
    qid = table.question_id()
    pick = table.private_question("blue")
    assert pick.kind == "deal_modifiers" and pick.count == 3
    with pytest.raises(InputError, match="pick 3 different options"):
        table.submit_private("blue", [pick.options[0][0]])
    with pytest.raises(InputError, match="not a valid input|not one of the options"):
        table.submit_private("blue", ["nope", "no", "never"])
    dealt = [v for v, _ in pick.options[:3]]
    table.submit_private("blue", dealt)
    assert table.question_id() == qid and table.private_waiting() == ["purple", "green"]
    assert table.private_question("blue") is None  # entered: nothing more asked of blue now
    assert table.public().undo == "Blue's Modifier cards"
    twin = new_table(3, ("power-shift",))
    twin.submit_private("blue", [v for v, _ in pick.options[-3:]])  # other cards: nothing public differs
    assert twin.public() == table.public() and twin.prompt().hint == table.prompt().hint
    with pytest.raises(InputError, match="not playing"):
        table.private_question("black")
    table.submit_private("purple", [v for v, _ in pick.options[3:6]])
    table.submit_private("green", [v for v, _ in pick.options[6:9]])
    assert table.asked().kind == "pass_modifier"
    pick = table.private_question("purple")
    assert [v for v, _ in pick.options] == sorted(v for v, _ in table.private_question("purple").options)
    assert {v for v, _ in pick.options} == set(table.private("purple")["modifiers_in_hand"])
    with pytest.raises(InputError, match="may only enter their own"):
        table.submit(pick.event([pick.options[0][0]]), player="blue")


# ---- the card set, completed during a game ----------------------------------------------------------


def test_a_card_the_set_does_not_list_is_added_at_the_table_and_the_game_goes_on():
    _, cards = standin_files("2023", 4)
    without = {**cards, "cards": [c for c in cards["cards"] if c["id"] != "outposts"]}
    table = new_table(4, cards_file=without)
    assert "add_card" in [c.action for c in table.prompt().choices]
    turned_up = {"type": "action_cards_revealed", "cards": ["intrigue", "coup", "outposts", "standin_move_any_4"]}
    with pytest.raises(InputError, match="complete the card set"):
        table.submit(turned_up)
    assert table.game.card_set_open()
    with pytest.raises(InputError, match=r"cards\[levy\]"):
        table.complete_card_set(
            [{"id": "levy", "stack": 3, "copies": 1, "name": "Levy", "effect": "militia", "params": {"count": 99}}]
        )
    table.complete_card_set([{"id": "outposts", "stack": 3, "copies": 3}])
    assert table.board.cards["outposts"].stack == 3
    table.submit(turned_up)
    assert table.game.card_set_open()  # between steps, mid-round too (a card whose number nobody entered)
    with pytest.raises(InputError, match=r"cards\[outposts\]\.copies|stack 3"):
        table.complete_card_set([{"id": "outposts", "copies": 9}])  # more than stack 3 holds
    assert "Outposts" in " ".join(table.prompt().notes)  # the prompts read the completed set
    resumed = Table.resume(table.path)
    assert fingerprint(resumed) == fingerprint(table)
    militia = next(e for e in effect_choices("2023") if e.name == "militia")
    assert militia.params["count"]["required"] and "Militia" in militia.title


# ---- Rebellion: the Castillo is not emptied at a general scoring -------------------------------------


def test_with_the_king_by_the_castillo_the_general_scoring_keeps_the_towers_count():
    table = new_table(4, ("new-regency",))
    table.submit({"type": "table_corrected", "round": 3, "king": "castillo"})
    table.tower_drop(TowerDrop(tower="t", boot="b", seq=1, colour="blue", uncertain=False, best="blue"))
    while table.asked().kind != "reveal_secret_discs":
        TabletDriver(table, seed=1).step()
    assert table.asked().options.get("castillo_stays")
    counted = table.open_castillo()
    table.submit({"type": "castillo_counted", "counts": counted})
    table.submit({"type": "secret_discs_revealed"})
    assert not any(r["t"] == "emptied" for r in table.records if r is not table.records[0])
    assert table.hidden_tallies()["blue"] == counted["blue"]


# ---- corrections and a start from a position, 2023 -------------------------------------------------


def test_a_correction_puts_the_king_in_france_a_tile_on_a_region_and_a_grande_in_the_castillo():
    table = new_table(2)
    game = table.public().game
    entry = PositionEntry(game, table.names, table.board, starting=False)
    entry.tool = "king"
    entry.tap("france")
    entry.tool, entry.colour = "grande", "blue"
    entry.tap("castillo")
    entry.tool = "mobile:tile_a"
    entry.tap("toledo")
    entry.tool, entry.colour = "add", "white"
    entry.tap("granada")
    with pytest.raises(NotAllowed, match="only the King stands there"):
        entry.tool = "add"
        entry.tap("portugal")
    with pytest.raises(NotAllowed, match="no Grande"):
        entry.tool, entry.colour = "grande", "white"
        entry.tap("granada")
    with pytest.raises(NotAllowed, match="no court"):
        entry.step_court("white", +1)
    entry.tool = "mobile:tile_b"
    with pytest.raises(NotAllowed, match="one per area"):
        entry.tap("toledo")
    table.submit(entry.event("the King went into exile unseen"))
    game = table.public().game
    assert game["king"] == "france" and game["mobile_scoreboards"]["tile_a"] == "toledo"
    assert next(p for p in game["players"] if p["id"] == "blue")["grande"] == "castillo"
    assert game["regions"]["granada"]["white"] == 1
    lines = correction_history(table)[-1].lines
    assert "The King: from Castilla to France" in lines and "Scoring tile A: from off the board to Toledo" in lines
    with pytest.raises(InputError, match="not a place the King can stand"):
        table.submit({"type": "table_corrected", "king": "andorra"})
    with pytest.raises(InputError, match="the dummy has no court"):
        table.submit({"type": "table_corrected", "court": {"white": 1}})


def test_tracking_starts_from_a_2023_position_with_a_veto_held_and_the_king_by_the_castillo():
    table = new_table(4, ("new-regency",))
    entry = PositionEntry(table.public().game, table.names, table.board, starting=True)
    assert entry.veto_cards == 1  # this table's card file: one Veto card
    entry.set_round(5)
    entry.toggle_veto("green")
    with pytest.raises(NotAllowed, match="1 Veto cards"):
        entry.toggle_veto("blue")
    entry.tool = "king"
    entry.tap("castillo")
    for value in (13, 2):
        entry.toggle_power("orange", value)
    table.submit(entry.event())
    state = table.state
    assert state.round == 5 and state.king == state.board.castillo
    assert state.vetoes and state.players[state.vetoes[0][0]] == "green"
    assert "veto" not in state.stacks_undrawn[1] or not state.stacks_undrawn[1]["veto"]
    assert table.prompt().title.startswith("Round 5 - ")


def test_an_unknown_tile_or_space_cannot_be_used_until_the_table_enters_it():
    setup = game_setup(4).model_copy(update={"board_file": None})
    table = Table.new(TableSetup(game=setup, tower={"kind": "none"}))
    with pytest.raises(InputError, match="tile_a"):
        table.submit({"type": "table_corrected", "mobile_scoreboards": {"tile_a": "toledo"}})
    entry = PositionEntry(table.public().game, table.names, table.board, starting=False)
    entry.tool = "mobile:tile_a"
    with pytest.raises(NotAllowed, match="tile"):
        entry.tap("toledo")
    entry.tool = "king"
    with pytest.raises(NotAllowed, match="France's neighbouring regions are not known"):
        entry.tap("france")


# ---- scoring only -----------------------------------------------------------------------------------


def test_a_two_player_2023_scoring_only_game_with_the_dummy():
    table = new_table(2, mode="scoring", variant="short")
    game = table.public().game
    assert game["dummy"] == "white" and game["rules"] == "2023"
    entry = BoardEntry(game, table.names, table.board)
    entry.colour = "white"
    for _ in range(3):
        entry.tap("toledo")
    entry.tool = "grande"
    entry.tap("toledo")
    assert entry.message == "The dummy (White) has no Grande"
    entry.tool = "mobile:tile_b"
    entry.tap("toledo")
    entry.tool, entry.colour = "add", "blue"
    for _ in range(4):
        entry.tap("toledo")
    entry.tool = "king"
    entry.tap("castilla")
    table.submit(entry.event())
    assert table.public().game["mobile_scoreboards"] == {"tile_b": "toledo"}
    table.submit({"type": "special_scored", "kind": "region:toledo"})
    lines = table.free.scoring_log[-1].lines
    gained = {ln.player: ln.points for ln in lines}
    # Tile B (this table's 4-0-0) replaces Toledo's board: Blue 1st (4), the dummy 2nd scores nothing.
    assert gained["blue"] == 4 and gained.get("white", 0) == 0
    table.submit(RoundFinished())
    table.submit(RoundFinished())
    ask = table.asked()
    assert ask.kind == "secret_disc" and ask.players == ("purple", "blue")  # never the dummy
    with pytest.raises(InputError, match="the dummy sets no disc"):
        table.submit(ev.SecretDiscSet(player="white", region="galicia"))
    play(table, 3)
    final = table.public().game
    assert table.over and "white" not in final["winners"]


@pytest.mark.parametrize("players", [3, 5])
def test_scripted_2023_scoring_only_games_replay(players):
    table = new_table(players, mode="scoring")
    play(table, players)
    assert table.over and table.public().game["winners"]
    assert fingerprint(Table.resume(table.path)) == fingerprint(table)


def test_a_modifier_twin_tapped_on_the_tablet_plays_the_copy_the_player_holds():
    """Twins cannot be told apart at the table (a phone names them by face): a copy the player
    does not hold stands for the one they do; the log records the held one, and a card of
    another face is still refused."""
    from engine.playout import random_event

    table = new_table(5, ("power-shift",))
    rng = random.Random(3)
    while table.asked().kind != "play_power_card":
        table.submit(random_event(rng, table.asked()))
    pid = table.asked().players[0]
    mods = table.state.modifiers
    hand = table.private(pid)["modifiers_in_hand"]
    twins = [
        (m, t)
        for m in hand
        for t in mods
        if t not in hand and t != m and (mods[t].name, mods[t].value) == (mods[m].name, mods[m].value)
    ]
    assert twins, hand
    held, other = twins[0]
    stranger = next(
        t
        for t in mods
        if t not in hand and (mods[t].name, mods[t].value) not in {(mods[m].name, mods[m].value) for m in hand}
    )
    with pytest.raises(InputError, match="no Modifier card"):
        table.submit({"type": "power_card_played", "player": pid, "card": 5, "modifier": stranger})
    table.submit({"type": "power_card_played", "player": pid, "card": 5, "modifier": other})
    played = [r["e"] for r in table.effective if r["t"] == "event"][-1]
    assert played["modifier"] == held and held not in table.private(pid)["modifiers_in_hand"]


def test_a_greyed_power_card_under_power_shift_names_the_total_that_took_its_value():
    table = new_table(4, ("power-shift",))
    driver = TabletDriver(table, seed=1, phones=True)
    told = {}
    while table.asked().kind != "game_over" and len(told) < 2:
        public = table.public().game["players"]
        totals = {
            p["power_total"]: p
            for p in public
            if p.get("power_total") is not None and p["power_total"] != p["power_card_played"]
        }
        for choice in table.prompt().choices:
            if not choice.enabled and choice.label.isdigit() and int(choice.label) in totals:
                p = totals[int(choice.label)]
                told[choice.why_not] = (
                    f"{p['name']} played a total of {choice.label} this round "
                    f"({p['power_card_played']} with a Modifier card; each value once a round)"
                )
        driver.step()
    assert told and all(said == expected for said, expected in told.items()), told
