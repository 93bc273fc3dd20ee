"""The 2023 edition's prompts: every new ask kind has one, built from the engine's options
only, offering only what the engine accepts, in plain words (the dummy's duties, Power
Shift, the 2023 cards, the Veto, the card set)."""

from __future__ import annotations

import random

import pytest

from companion.prompts.builder import PromptBuilder
from companion.prompts.card_words import effect_choices
from companion.prompts.prompt import PRIVATE_KINDS
from companion.table.outcomes import OutcomeWords
from engine import events as ev
from engine.errors import RuleViolation
from engine.events import event_from_dict
from engine.flow import apply_event, asked
from engine.game import board_for, start_state
from engine.playout import old_hands_removed, random_event, standin_files
from engine.views import public_view
from tests.companion.prompts.test_builder import names_said_twice
from tests.engine.effects import game2023 as g23

COLOURS = ["purple", "blue", "green", "orange", "red"]
HOMES = ["galicia", "aragon", "sevilla", "valencia", "granada"]
MODULES = [(), ("power-shift",), ("new-regency", "power-shift"), ("new-regency", "old-hands", "power-shift")]
# Inputs that depend on what the tablet may not know: the hand (Power cards, Modifier cards);
# offered whole, the engine says what is not held.
NOT_FILTERED = {"play_power_card"}


def setup_2023(n: int, modules=(), seed: int = 1, variant: str = "short") -> ev.GameSetup:
    board_file, cards_file = standin_files("2023", n)
    players = COLOURS[:n]
    setup = ev.GameSetup(
        players=players,
        names={p: p.title() for p in players},
        king="castilla",
        homes=dict(zip(players, HOMES)),
        start_player=players[0],
        rules="2023",
        modules=list(modules),
        dummy="white" if n == 2 else None,
        board_file=board_file,
        cards_file=cards_file,
        stand_in_modifiers="power-shift" in modules,
        variant=variant,
    )
    if "old-hands" in modules:
        setup = setup.model_copy(update={"removed_cards": old_hands_removed(random.Random(seed), board_for(setup))})
    return setup


def builder_for(state) -> PromptBuilder:
    return PromptBuilder(
        state.names,
        lambda: state.board,
        modifiers=state.modifiers,
        public=lambda: public_view(state).model_dump(mode="json"),
    )


def _legal(state, events) -> bool:
    trial = state.clone()
    try:
        for e in events:
            apply_event(trial, event_from_dict(e))
        return True
    except RuleViolation:
        return False


def _offered(builder, ask, prompt, depth=0):
    """Every ready-made input of a prompt and its sub-prompts: (label, events)."""
    out = []
    for choice in prompt.choices:
        if not choice.enabled:
            continue
        if choice.events or choice.event is not None:
            out.append((choice.label, choice.events or [choice.event]))
        elif (choice.action or "").startswith("sub:") and depth < 2:
            out += _offered(builder, ask, builder.sub_prompt(ask, choice.action[4:]), depth + 1)
        elif (choice.action or "").startswith("mobile:"):
            sub = builder.mobile_prompt(ask, choice.action[7:])
            out += [(f"{choice.label} {a}", [sub.on_area(a)]) for a in sub.areas]
    if prompt.map_mode == "pick":
        out += [(f"tap {a}", [prompt.on_area(a)]) for a in prompt.areas]
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_prompts_offer_only_legal_inputs_in_2023_games(players):
    rng = random.Random(players)
    kinds = set()
    for modules in MODULES:
        setup = setup_2023(players, modules)
        state = start_state(setup, board_for(setup))
        builder = builder_for(state)
        while state.stage != "over":
            ask = asked(state)
            prompt = builder.build(ask)
            kinds.add(ask.kind)
            assert prompt.title.startswith(f"Round {ask.round} - "), prompt.title
            assert "_" not in prompt.title, prompt.title  # words, never an ask kind
            assert not names_said_twice(prompt.title, state.names.values()), prompt.title
            if ask.kind not in NOT_FILTERED:
                for label, events in _offered(builder, ask, prompt):
                    # A full replenishment is refused only when the provinces run short (hidden).
                    short = ask.kind == "replenish" and state.provinces[state.turn.player] < ask.options["max"]
                    assert _legal(state, events) or short, (ask.kind, label, events)
            for pid in ask.players:
                pick = builder.private_pick(ask, pid) if ask.kind in PRIVATE_KINDS else None
                if pick is not None and pick.count == 1:
                    for value, _ in pick.options:
                        assert _legal(state, [pick.event([value])]), (ask.kind, pid, value)
            apply_event(state, random_event(rng, ask))
    expected = {"deal_modifiers", "pass_modifier", "place_scoring_tile", "move_king"}
    if players == 2:
        expected |= {"dummy_region_cards", "dummy_power_card"}
    assert expected <= kinds, expected - kinds


def _state_at(game):
    return game.state


def test_the_dummys_duties_ask_only_what_chance_decided_in_plain_words():
    setup = setup_2023(2)
    state = start_state(setup, board_for(setup))
    builder = builder_for(state)
    prompt = builder.build(asked(state))
    assert "draw two Region cards for the dummy (White): which regions?" in prompt.title
    assert prompt.map_mode == "count" and prompt.limit == 2 and prompt.per_area == 1 and prompt.auto_confirm
    assert sorted(prompt.areas) == sorted(state.board.region_ids)
    assert any("King's region (Castilla) places nothing" in n for n in prompt.notes)
    # The order drawn is the order tapped.
    event = prompt.on_counts({"toledo": 1, "galicia": 1})
    assert event == {"type": "dummy_region_cards_drawn", "regions": ["toledo", "galicia"]}
    apply_event(state, event_from_dict(event))
    words = OutcomeWords(state.names, state.board, dummy="white").instructions(state.outcomes[-1].to_dict())
    assert words.lines == ["Put 2 white Caballeros in Toledo and 2 in Galicia (the dummy's)."] and words.hands
    assert words.title == f"Round {state.round}: the dummy's Region cards: Toledo, Galicia"
    # Found by its name when the view does not say which colour the dummy is.
    assert OutcomeWords(state.names, state.board).instructions(state.outcomes[-1].to_dict()).lines == words.lines
    apply_event(
        state, event_from_dict({"type": "action_cards_revealed", "cards": ["intrigue", "coup", "standin_move_any_4"]})
    )
    prompt = builder.build(asked(state))
    assert "turn up the dummy (White)'s next Power card: which value?" in prompt.title
    assert [c.label for c in prompt.choices] == [str(v) for v in range(1, 14)]
    apply_event(state, event_from_dict(prompt.choices[12].event))  # the dummy's 13: it plays first
    power = builder.build(asked(state))
    assert not power.choices[12].enabled  # nobody plays the dummy's value
    for pid, card in (("purple", 5), ("blue", 4)):
        apply_event(state, ev.PowerCardPlayed(player=pid, card=card))
    told = state.outcomes[-1]
    assert "takes" in told.title and not told.moves
    words = OutcomeWords(state.names, state.board, dummy="white").instructions(told.to_dict())
    assert not words.hands and words.lines == [f"{told.title[0].upper()}{told.title[1:]}."]
    assert words.lines == ["The dummy (White) takes Your Majesty (stack 5) and turns it face down."]


def test_a_tie_for_the_dummys_card_asks_the_table_which_it_took():
    g = g23.new_game(players=["purple", "blue"], dummy="white", modules=("new-regency",))
    s = g.state
    g.apply(ev.DummyRegionCardsDrawn(regions=["galicia", "toledo"]))
    # Coup (stack 4) and Chalet (a ♠ card printing 4 in this table's file) both show 4.
    g.apply(ev.ActionCardsRevealed(cards=["intrigue", "veto", "coup", "chalet"]))
    g.apply(ev.DummyPowerCardRevealed(card=13))  # the dummy moves first: both are left
    g.apply(ev.PowerCardPlayed(player="purple", card=5))
    g.apply(ev.PowerCardPlayed(player="blue", card=4))
    ask = g.asked()
    assert ask.kind == "dummy_action_card"
    prompt = builder_for(s).build(ask)
    assert "which card does the dummy (White) take?" in prompt.title
    assert ask.options["why"] in prompt.hint and "Coup and Chalet show 4" in prompt.hint
    assert [c.event["stack"] for c in prompt.choices] == [4, 5]
    for choice in prompt.choices:
        assert _legal(s, [choice.event])


def _power_shift_state():
    setup = setup_2023(4, ("power-shift",))
    state = start_state(setup, board_for(setup))
    rng = random.Random(3)
    while asked(state).kind != "play_power_card":
        apply_event(state, random_event(rng, asked(state)))
    return state


def test_power_shift_plays_a_modifier_with_a_power_card_in_one_step_with_the_total_shown():
    state = _power_shift_state()
    builder = builder_for(state)
    ask = asked(state)
    pid = ask.players[0]
    prompt = builder.build(ask)
    modifiers = [c for c in prompt.choices if (c.action or "").startswith("sub:modifier:")]
    # The whole set (the hand is secret), twins as one button: nobody can tell their copies apart
    prints = {(m.name, m.value, m.effect, m.text) for m in state.modifiers.values()}
    assert len(state.modifiers) == 16 and len(modifiers) == len(prints) < 16
    assert len({c.label for c in modifiers}) == len(modifiers)  # every button says which card it is
    mine = sorted(state.modifier_hands[state.players.index(pid)])[0]
    sub = builder.sub_prompt(ask, f"modifier:{mine}")
    value = state.modifiers[mine].value
    seven = sub.choices[6]
    assert seven.label == f"7 {'+' if value > 0 else '−'}{abs(value)} = {7 + value}"
    assert seven.event == {"type": "power_card_played", "player": pid, "card": 7, "modifier": mine}
    assert _legal(state, [seven.event])
    assert sub.choices[-1].action == "sub:"  # back to the plain Power cards
    apply_event(state, event_from_dict(seven.event))
    # The next player: the Modifier played face up is greyed out, and a total already played too.
    ask = asked(state)
    prompt = builder.build(ask)
    label = builder.modifier_label(mine, numbered=False)
    button = next(c for c in prompt.choices if c.label == label)
    twins = [
        m
        for m in state.modifiers
        if m != mine
        and state.modifiers[m].name == state.modifiers[mine].name
        and state.modifiers[m].effect == state.modifiers[mine].effect
        and state.modifiers[m].value == state.modifiers[mine].value
    ]
    if twins:  # its twin is still in someone's hand: the button stands for that copy now
        assert button.enabled and button.action == f"sub:modifier:{twins[0]}"
    else:
        assert not button.enabled
    other = next(m for m in sorted(state.modifiers) if m != mine and state.modifiers[m].value == 1)
    sub = builder.sub_prompt(ask, f"modifier:{other}")
    taken = 7 + value - 1  # with +1, this card makes the total already played
    if 1 <= taken <= 13:
        assert not sub.choices[taken - 1].enabled


def test_the_deal_and_the_pass_are_private_picks_and_the_public_screen_shows_only_who():
    setup = setup_2023(3, ("power-shift",))
    state = start_state(setup, board_for(setup))
    builder = builder_for(state)
    ask = asked(state)
    prompt = builder.build(ask)
    assert [c.action for c in prompt.choices] == ["private:purple", "private:blue", "private:green"]
    pick = builder.private_pick(ask, "blue")
    assert pick.count == 3 and len(pick.options) == 16 and pick.title == "Your Modifier cards"
    hands = {}
    for pid in ("purple", "blue", "green"):
        pick = builder.private_pick(asked(state), pid)
        free = [m for m in sorted(state.modifiers) if not any(m in h for h in hands.values())]
        hands[pid] = free[:3]
        apply_event(state, event_from_dict(pick.event(hands[pid])))
    ask = asked(state)
    assert ask.kind == "pass_modifier"
    prompt = builder.build(ask)
    assert all(m not in prompt.hint + prompt.title for hand in hands.values() for m in hand)
    pick = builder.private_pick(ask, "purple")
    assert [v for v, _ in pick.options] == sorted(hands["purple"]) and "to Blue" in pick.hint
    with pytest.raises(ValueError, match="not one of the options"):
        pick.event([hands["blue"][0]])
    with pytest.raises(ValueError, match="pick 1"):
        pick.event([])
    apply_event(state, event_from_dict(pick.event([hands["purple"][0]])))
    again = builder.private_pick(asked(state), "purple")  # may change it until everyone has chosen
    assert again is not None and "Done: Purple" in builder.build(asked(state)).hint


def test_a_modifier_ability_is_offered_with_the_replenishment_in_one_tap_or_used_first():
    g = g23.new_game(modules=("power-shift",), stand_in_modifiers=True)
    s = g.state
    able = next(m for m in sorted(s.modifiers) if s.modifiers[m].effect)
    plain = [m for m in sorted(s.modifiers) if m != able]
    for i, pid in enumerate(g23.PLAYERS):
        hand = [able] + plain[:2] if i == 0 else plain[3 * i - 1 : 3 * i + 2]
        g.apply(ev.ModifiersDealt(player=pid, modifiers=hand if i else [able] + plain[:2]))
    for pid in g23.PLAYERS:
        mine = sorted(s.modifier_hands[s.players.index(pid)] - {able})[0]
        g.apply(ev.ModifierPassed(player=pid, modifier=mine))
    g.apply(ev.ActionCardsRevealed(cards=g23.reveal_for(g, "intrigue")))
    builder = builder_for(s)
    value = s.modifiers[able].value
    card = 13 if value < 0 else 12
    g.apply(ev.PowerCardPlayed(player="purple", card=card, modifier=able))
    for pid, c in zip(g23.PLAYERS[1:], (3, 2, 1)):
        g.apply(ev.PowerCardPlayed(player=pid, card=c))
    ask = g.asked()
    assert ask.kind == "replenish" and ask.players == ("purple",)
    prompt = builder.build(ask)
    first = prompt.choices[0]
    assert first.label.startswith(f"First use {s.modifiers[able].name}")
    assert first.events[-1] == {"type": "modifier_ability_used", "player": "purple"}
    taking = prompt.choices[1]
    assert taking.events[1] == {"type": "modifier_ability_skipped", "player": "purple"}
    assert _legal(s, taking.events) and _legal(s, first.events)
    g.apply(ev.CourtReplenished(player="purple", from_provinces=0))
    ability = builder.build(g.asked())
    assert g.asked().kind == "modifier_ability" and "may use" in ability.title
    assert [c.event["type"] for c in ability.choices if c.event] in (
        ["modifier_ability_used", "modifier_ability_skipped"],
        ["modifier_ability_skipped"],
    )


def test_a_card_whose_fact_is_missing_offers_to_read_it_off_the_card_or_to_skip():
    g = g23.new_game(params={"civil_war": {}})  # the table has not entered what the card does
    pid = g23.turn_with(g, "civil_war", place=False)
    ask = g.asked()
    assert ask.options["special"]["refused"]
    prompt = builder_for(g.state).build(ask)
    assert [c.label for c in prompt.choices] == ["Read Civil War's outcome off the card", "Skip the special action"]
    assert prompt.choices[0].action == "card_facts:civil_war"
    assert "special action needs its outcome: read it off the card, or skip it" in prompt.hint
    assert any("read it off the card" in n for n in prompt.notes)
    assert _legal(g.state, [prompt.choices[1].event])
    assert pid == ask.players[0]
    # A board fact (France's neighbours): entered right there (companion.entry.facts), or skipped.
    g = g23.new_game(modules=("new-regency",), board_file=None)
    g23.turn_with(g, "exile", place=False)
    prompt = builder_for(g.state).build(g.asked())
    assert [c.label for c in prompt.choices] == [
        "Enter France's neighbours and Portugal's neighbours from your board",
        "Skip the special action",
    ]
    assert prompt.choices[0].action == "board_facts"
    assert "France's neighbouring regions are not known" in prompt.hint
    assert any("your next games keep them" in n for n in prompt.notes)


def test_exile_rebellion_and_competition_are_one_button_each():
    g = g23.new_game(modules=("new-regency",))
    pid = g23.turn_with(g, "exile")
    g23.start_special(g, pid)
    prompt = builder_for(g.state).build(g.asked())
    assert [c.label for c in prompt.choices] == ["The King goes to France", "The King goes to Portugal"]
    assert all(_legal(g.state, [c.event]) for c in prompt.choices)
    g = g23.new_game(modules=("new-regency",))
    pid = g23.turn_with(g, "rebellion")
    g23.start_special(g, pid)
    prompt = builder_for(g.state).build(g.asked())
    assert [c.label for c in prompt.choices] == ["The King stands beside the Castillo"]
    assert "becomes his region" in prompt.hint
    g = g23.new_game()
    pid = g23.turn_with(g, "competition")
    g23.start_special(g, pid)
    prompt = builder_for(g.state).build(g.asked())
    assert [c.label for c in prompt.choices] == ["Throw Purple's Grande into the Castillo"]
    assert _legal(g.state, [prompt.choices[0].event])


def test_entourage_asks_whose_caballeros_only_when_there_is_a_choice():
    g = g23.new_game(modules=("new-regency",))
    g23.put(g, "blue", "castilla", 1)
    g23.put(g, "green", "castilla", 2)
    pid = g23.turn_with(g, "entourage")
    g23.start_special(g, pid)
    s = g.state
    builder = builder_for(s)
    ask = g.asked()
    prompt = builder.build(ask)
    labels = [c.label for c in prompt.choices]
    assert labels == ["1 of Blue's and 1 of Green's", "2 of Green's"]
    sub = builder.sub_prompt(ask, prompt.choices[0].action[4:])
    assert sub.map_mode == "pick" and "go with him" in sub.hint
    event = sub.on_area("toledo")
    assert event["caballeros"] == {"blue": 1, "green": 1} and _legal(s, [event])
    apply_event(s, event_from_dict(event))
    words = OutcomeWords(s.names, s.board).instructions(s.outcomes[-1].to_dict())
    assert words.lines == [
        "Blue: move 1 Caballero from Castilla to Toledo.",
        "Green: move 1 Caballero from Castilla to Toledo.",
        "The King goes to Toledo with them.",
    ]


def test_stand_in_and_enactment_and_militia_prompts_are_legal():
    g = g23.new_game()
    pid = g23.turn_with(g, "stand_in")
    g23.start_special(g, pid)
    prompt = builder_for(g.state).build(g.asked())
    assert prompt.choices and all(c.label.startswith("Swap the King and ") for c in prompt.choices)
    assert all(_legal(g.state, [c.event]) for c in prompt.choices)
    g = g23.new_game()
    pid = g23.turn_with(g, "enactment")
    g23.start_special(g, pid)
    ask = g.asked()
    builder = builder_for(g.state)
    prompt = builder.build(ask)
    assert [c.label for c in prompt.choices] == ["Scoring tile A (4·0·0)", "Scoring tile B (8·4·0)"]
    sub = builder.mobile_prompt(ask, "tile_a")
    assert "castillo" in sub.areas and g23.KING not in sub.areas
    assert _legal(g.state, [sub.on_area("castillo")])
    g = g23.new_game()
    pid = g23.turn_with(g, "militia")
    g23.start_special(g, pid)
    prompt = builder_for(g.state).build(g.asked())
    assert prompt.map_mode == "count" and prompt.limit == 2 and prompt.auto_confirm
    assert "castillo" not in prompt.areas and g23.KING not in prompt.areas
    assert _legal(g.state, [prompt.on_counts({"toledo": 1, "granada": 1})])


def test_civil_war_and_coup_discs_say_what_the_choice_is_for():
    g = g23.new_game(params={"civil_war": {"outcome": "to_court", "count": 2}})
    g23.put(g, "blue", "toledo", 2)
    pid = g23.turn_with(g, "civil_war")
    g23.start_special(g, pid)
    ask = g.asked()
    builder = builder_for(g.state)
    assert ask.kind == "secret_disc" and "Civil War" in builder.build(ask).title
    words = builder.secret_purpose(ask, "blue")
    assert words.startswith("the region where 2 of your Caballeros there go to your court")
    pick = builder.private_pick(ask, "blue")
    assert "Toledo" in [label for _, label in pick.options] and "Castilla" not in [la for _, la in pick.options]
    g = g23.new_game()
    g23.put(g, "blue", "toledo", 2)
    pid = g23.turn_with(g, "coup")
    g23.start_special(g, pid)
    g.apply(ev.RegionChosen(player=pid, region="toledo"))
    ask = g.asked()
    assert builder_for(g.state).secret_purpose(ask, "blue").startswith("Coup: where your Caballeros leave")


def test_the_2023_veto_is_asked_at_once_all_or_nothing():
    g = g23.new_game()
    g23.start_round(g, "veto", order=["blue", "purple", "green", "orange"])
    g23.take(g, "veto")
    g23.finish_turn(g)
    pid = g23.take(g, "intrigue")
    g.apply(ev.CaballerosPlaced(player=pid, placements={}))
    g.apply(ev.SpecialActionStarted(player=pid))
    ask = g.asked()
    assert ask.kind == "veto" and ask.players == ("blue",)
    prompt = builder_for(g.state).build(ask)
    assert "prevents the whole special action" in prompt.hint
    assert [c.label for c in prompt.choices] == ["Blue: Veto!", "Blue: no veto"]
    g.apply(ev.VetoWaived(player="blue"))
    assert not builder_for(g.state).build(g.asked()).choices or all(
        "Veto" not in c.label for c in builder_for(g.state).build(g.asked()).choices
    )  # none once begun


def test_rebellion_at_a_general_scoring_sets_no_disc():
    g = g23.new_game(modules=("new-regency",), round=3)
    pid = g23.turn_with(g, "rebellion")
    g23.start_special(g, pid)
    g.apply(ev.KingMoved(player=pid, region="castillo"))
    g23.finish_round(g)
    ask = g.asked()
    assert ask.kind == "reveal_secret_discs" and ask.options.get("castillo_stays")
    prompt = builder_for(g.state).build(ask)
    assert "Nobody sets a disc" in prompt.hint and prompt.choices[0].action == "open_castillo"
    g.apply(ev.SecretDiscsRevealed())
    words = OutcomeWords(g.state.names, g.state.board).instructions(g.state.outcomes[-1].to_dict())
    assert any("back under the Castillo" in line for line in words.lines)


def test_the_reveal_offers_to_complete_the_card_set_and_the_editor_lists_effects_with_rule_text():
    setup = setup_2023(4)
    state = start_state(setup, board_for(setup))
    prompt = builder_for(state).build(asked(state))
    assert [c.action for c in prompt.choices] == ["reveal_cards", "add_card"]
    classic = PromptBuilder({}).build(
        asked(
            start_state(
                ev.GameSetup(
                    players=["red", "blue"],
                    king="galicia",
                    homes={"red": "aragon", "blue": "sevilla"},
                    start_player="red",
                )
            )
        )
    )
    assert [c.action for c in classic.choices] == ["reveal_cards"]  # the classic set is complete
    effects = {e.name: e for e in effect_choices("2023")}
    assert {"militia", "civil_war", "entourage", "veto_2023", "move"} <= set(effects)
    assert "veto" not in effects  # the classic Veto is not a 2023 card's
    assert "cannot place them in the Castillo" in effects["militia"].rule_text
    assert effects["militia"].params["count"]["type"] == "int"


def test_a_grande_thrown_into_the_castillo_leaves_with_its_owners_disc_in_words():
    g = g23.new_game(round=3)
    pid = g23.turn_with(g, "competition")
    g23.start_special(g, pid)
    g.apply(ev.GrandeMoved(player=pid, region="castillo"))
    g23.put(g, "purple", "castillo", 2)
    g23.general_scoring(g, {"purple": "toledo"})
    words = OutcomeWords(g.state.names, g.state.board).instructions(g.state.outcomes[-1].to_dict())
    assert words.lines == ["Purple: move 2 Caballeros from the Castillo to Toledo.", "Purple's Grande goes to Toledo."]
    assert words.discs.startswith("Discs: Purple - Toledo")
