"""The prompts offer only what the engine accepts: every tappable region of a
"pick" prompt and every ready-made button event is legal at that moment."""

import copy
import random
import re

from companion.prompts.builder import PromptBuilder
from engine.board.build import classic_board
from engine.errors import RuleViolation
from engine.events import event_from_dict
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup

NOT_FILTERED = {"play_power_card"}  # the hand is private: the engine says which card is not held


def _legal(state, event) -> bool:
    """An event, or the events one tap stands for, all accepted in order."""
    trial = copy.deepcopy(state)
    try:
        for e in event if isinstance(event, list) else [event]:
            apply_event(trial, event_from_dict(e))
        return True
    except RuleViolation:
        return False


def names_said_twice(words: str, names) -> list[str]:
    """The names a title says more than once ("Red sends Red's Caballeros back")."""
    return [n for n in set(names) if len(re.findall(rf"(?<!\w){re.escape(n)}(?!\w)", words)) > 1]


def test_prompts_offer_only_legal_inputs_over_random_games():
    board = classic_board()
    rng = random.Random(4)
    kinds = set()
    for _ in range(6):
        state = start_state(random_setup(rng, rng.randint(2, 5), board, variant="short"), board)
        builder = PromptBuilder(state.names, board)
        while state.stage != "over":
            ask = asked(state)
            prompt = builder.build(ask)
            kinds.add(ask.kind)
            assert prompt.title.startswith(f"Round {ask.round} - ")
            assert not names_said_twice(prompt.title, state.names.values()), prompt.title
            if ask.kind == "send_back" and ask.players[0] in ask.options["owners"]:  # The King is Angry
                kinds.add("send_back_own")
                assert "sends their own Caballeros back" in prompt.title, prompt.title
            if ask.kind == "play_power_card":
                # Greyed out: surely refused. Offered: legal, unless a secret take-back blurs the hand.
                player = state.players.index(ask.players[0])
                for choice in prompt.choices:
                    if not choice.enabled:
                        assert not _legal(state, choice.event), choice.label
                    elif not state.took_back_any[player]:
                        assert _legal(state, choice.event), choice.label
            if ask.kind not in NOT_FILTERED:
                for choice in prompt.choices:
                    if choice.event is not None or choice.events:
                        event = choice.events or choice.event
                        # A full replenishment is refused only when the provinces run short
                        # (hidden from the tablet): the engine says so and nothing changes.
                        short = ask.kind == "replenish" and state.provinces[state.turn.player] < ask.options["max"]
                        assert _legal(state, event) or short, (ask.kind, choice.label)
                if prompt.map_mode == "pick":
                    for area in prompt.areas:
                        assert _legal(state, prompt.on_area(area)), (ask.kind, area)
            apply_event(state, random_event(rng, ask))
    assert {
        "turn_action",
        "move_caballeros",
        "send_back",
        "send_back_own",
        "secret_disc",
        "veto",
        "choose_region",
    } <= kinds


def test_power_card_prompt_names_who_plays_next():
    board = classic_board()
    state = start_state(random_setup(random.Random(1), 3, board), board)
    apply_event(state, random_event(random.Random(1), asked(state)))
    prompt = PromptBuilder({p: p.title() for p in state.players}, board).build(asked(state))
    first = state.players[state.start_player]
    assert prompt.title == f"Round 1 - power cards - {first.title()} plays next"
    assert [c.label for c in prompt.choices] == [str(v) for v in range(1, 14)]


# ---- a tap on what cannot be chosen says why, in one line ----------------------------------------------


def _table_at_placement():
    """A tracked 3-player game (no tower) at Red's placement, the King in Castilla la Nueva."""
    from companion.scripted import scripted_setup
    from companion.table.authority import Table
    from companion.table.setup import TableSetup
    from engine import events as ev

    table = Table(TableSetup(game=scripted_setup("tracking", "short", 3).game, tower={"kind": "none"}))
    table.submit(ev.ActionCardsRevealed(cards=["intrigue_any_3", "veto", "score_castillo", "grande"]))
    for pid, card in (("red", 13), ("yellow", 12), ("green", 11)):
        table.submit(ev.PowerCardPlayed(player=pid, card=card))
    table.submit_many(
        [
            {"type": "court_replenished", "player": "red", "from_provinces": 0, "from_regions": {}},
            {"type": "action_card_chosen", "player": "red", "stack": 2},
        ]
    )
    return table


def test_a_tap_on_the_kings_region_names_the_rule_and_changes_nothing():
    from companion.scripted import fingerprint

    table = _table_at_placement()
    prompt, builder = table.prompt(), table.prompt_builder()
    assert prompt.map_mode == "count" and "castilla_la_nueva" not in prompt.areas
    before = fingerprint(table)
    why = builder.why_not_area(prompt, "castilla_la_nueva", table.refusal, {"aragon": 1})
    assert why.startswith("Cannot place Caballeros in Castilla la Nueva: it is the King's region (rule: "), why
    why = builder.why_not_area(prompt, "galicia", table.refusal)
    assert "not adjacent to the King's region" in why and "rule:" in why and "\n" not in why
    assert fingerprint(table) == before and table.asked().kind == "turn_action"
    # a step with nothing on the map: said so, with what the step asks instead
    table.submit({"type": "caballeros_placed", "player": "red", "placements": {"aragon": 1}})
    why = builder.why_not_area(table.prompt(), "aragon", table.refusal)
    assert why.startswith("Aragón: nothing is chosen on the map at this step (Yellow"), why


def test_the_castillo_is_never_named_with_a_figure_when_a_tap_on_it_is_refused():
    table = _table_at_placement()
    builder = table.prompt_builder()
    prompt = table.prompt()
    prompt.areas.remove("castillo")  # as when the card's placement leaves it out
    told = builder.why_not_area(prompt, "castillo", lambda e: "Red has only 3 Caballeros in the Castillo, not 4")
    assert told.startswith("The Castillo cannot be chosen now (Red: tap regions") and "3" not in told, told


def test_a_greyed_power_card_says_who_played_it_and_when():
    from companion.scripted import scripted_setup, step
    from companion.table.authority import Table

    table = Table(scripted_setup("tracking", "short", 3))
    while not (
        table.asked().kind == "play_power_card"
        and table.asked().round == 2
        and any(p.get("power_card_played") for p in table.public().game["players"])
    ):
        step(table, 1, drop_rate=0, undo_rate=0)
    ask, public = table.asked(), table.public().game["players"]
    pid = ask.players[0]
    greyed = {c.label: c.why_not for c in table.prompt().choices if not c.enabled}
    this_round = {p["power_card_played"]: p["name"] for p in public if p.get("power_card_played")}
    assert set(greyed) == {str(v) for v in ask.options["unavailable"]} and greyed
    for value, why in greyed.items():
        if int(value) in this_round:
            assert (
                why == f"Power card {value} was played by {this_round[int(value)]} this round (each value once a round)"
            )
        else:
            assert why == f"{table.names[pid]} played Power card {value} in round 1: it is no longer in their hand"


# ---- a turn with nothing to place, and a count entry that is full ---------------------------------------


def _turn_with_court(seed: int, court: int):
    """A classic 3-player game at a turn with its placement and a plain special action still to
    come, the player's court set to `court` Caballeros (as replenishing too few leaves it)."""
    board = classic_board()
    rng = random.Random(seed)
    state = start_state(random_setup(rng, 3, board, variant="short"), board)
    while True:
        ask = asked(state)
        special = (ask.options.get("special") or {}) if ask.kind == "turn_action" else {}
        if (
            ask.kind == "turn_action"
            and ask.options["place"]
            and special
            and not special.get("options")
            and not special.get("refused")
            and not special.get("count_first")
            and (ask.options["place"]["card_allows"] or 0) > court
        ):
            state.court[state.players.index(ask.players[0])] = court
            return state, asked(state)
        apply_event(state, random_event(rng, ask))


def test_an_empty_court_says_so_highlights_nothing_and_placing_nothing_takes_no_question():
    state, ask = _turn_with_court(seed=5, court=0)
    assert ask.options["place"]["max"] == 0
    builder = PromptBuilder(state.names, state.board)
    prompt = builder.build(ask)
    who = state.names[ask.players[0]]
    assert prompt.hint.startswith(f"{who}: no Caballeros in the court: skip placing; "), prompt.hint
    assert "up to 0" not in prompt.hint
    assert (prompt.map_mode, prompt.areas, prompt.limit, prompt.confirm_empty) == (None, [], 0, "")
    nothing = {"type": "caballeros_placed", "player": ask.players[0], "placements": {}}
    # "Do the special action" places nothing first (the turn ends with it); its quiet twin places after
    do = next(c for c in prompt.choices if c.label == "Do the special action")
    assert do.events[0] == nothing and _legal(state, do.events)
    later = next(c for c in prompt.choices if c.label == "Do the special action, then place")
    assert later.style == "quiet" and later.event["type"] == "special_action_started" and _legal(state, later.event)
    skip = next(c for c in prompt.choices if c.label == "Skip the special action")
    apply_event(state, event_from_dict(skip.event))
    after = builder.build(asked(state))
    assert after.hint == f"{who}: no Caballeros in the court: skip placing"
    assert after.map_mode is None and after.areas == []
    assert [(c.label, c.event) for c in after.choices] == [("Skip placing: the turn ends", nothing)]
    assert _legal(state, nothing)
    told = builder.why_not_area(after, "galicia", lambda e: None)
    assert (
        told == f"Galicia: nothing is chosen on the map at this step ({who}: no Caballeros in the court: skip placing)"
    ), told


def test_that_is_all_names_the_card_and_the_limit_it_sets():
    state, ask = _turn_with_court(seed=5, court=1)
    builder = PromptBuilder(state.names, state.board)
    prompt = builder.build(ask)
    who, card = state.names[ask.players[0]], builder.card(ask.card)
    allows = ask.options["place"]["card_allows"]
    assert prompt.limit == 1 and prompt.map_mode == "count"
    assert builder.full_words(prompt) == (
        f"That is all: {who} has 1 Caballero in the court ({card} places up to {allows}) (Confirm, or take one back)"
    )
    state.court[state.players.index(ask.players[0])] = allows + 2  # the card is the limit
    prompt = builder.build(asked(state))
    assert builder.full_words(prompt) == (
        f"That is all: {card} places up to {allows} Caballero{'' if allows == 1 else 's'} (Confirm, or take one back)"
    )


def test_turn_hints_say_what_to_do_never_paste_a_cards_rule_text():
    """A turn's hint is a short line of what to do now; the card's text is a note of its own
    (pasted in, a hint read "...; or You are only allowed to swap them, if ...")."""
    from companion.prompts.turn import SPECIAL_HINT

    rng = random.Random(5)
    board = classic_board()
    seen = 0
    for _ in range(4):
        state = start_state(random_setup(rng, rng.randint(2, 5), board, variant="short"), board)
        builder = PromptBuilder(state.names, board)
        while state.stage != "over":
            ask = asked(state)
            prompt = builder.build(ask)
            special = ask.options.get("special") if ask.kind == "turn_action" else None
            if special and special.get("text") and not special.get("refused"):
                seen += 1
                assert special["text"] not in prompt.hint, prompt.hint
                assert SPECIAL_HINT in prompt.hint and len(prompt.hint) < 160, prompt.hint
                assert any(special["text"] in note for note in prompt.notes), prompt.notes
            apply_event(state, random_event(rng, ask))
    assert seen, "no turn with a special action was met"
