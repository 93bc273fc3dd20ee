"""No text shown to everyone gives a Castillo tally away.

The tablet is public: its phase bar, its buttons and its refusals are read by
the whole table. A player's Caballeros in the provinces are hidden too, because
30 minus the provinces, the court and the board is their Castillo tally. So the
property: take any position and a twin that differs only in where one player's
hidden Caballeros are (some moved between the provinces and the Castillo). The
public view is the same, so every public text must be the same too: the prompt
the tablet draws, and the refusal of any input refused in both.
"""

from __future__ import annotations

import random

from pydantic import ValidationError

from companion.prompts.builder import PromptBuilder
from companion.prompts.prompt import Prompt
from engine.board.build import classic_board
from engine.errors import RuleViolation
from engine.events import GameSetup, event_from_dict
from engine.flow import apply_event, asked
from engine.game import start_state
from engine.playout import random_event, random_setup
from engine.views import public_view

NUDGES = (-3, -1, 1, 2, 4, 9)


def _twins(state, rng: random.Random):
    """Copies of `state` in which one player's hidden Caballeros sit elsewhere."""
    castillo = state.board.castillo
    for p in rng.sample(range(state.n), min(2, state.n)):
        for k in (1, 3):
            for into_castillo in (True, False):
                have = state.provinces[p] if into_castillo else state.counts[castillo][p]
                if have < k:
                    continue
                twin = state.clone()
                step = k if into_castillo else -k
                twin.provinces[p] -= step
                twin.counts[castillo][p] += step
                yield twin


def _ints_nudged(value, rng: random.Random):
    """The same input with one integer changed: the wrong entries a person makes."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return max(0, value + rng.choice(NUDGES))
    if isinstance(value, dict):
        if not value:
            return value
        key = rng.choice(list(value))
        return {**value, key: _ints_nudged(value[key], rng)}
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        return value[:i] + [_ints_nudged(value[i], rng)] + value[i + 1 :]
    return value


def _probes(state, rng: random.Random, n: int = 6) -> list[dict]:
    ask = asked(state)
    probes = []
    for _ in range(n):
        event = random_event(rng, ask).model_dump(mode="json")
        probes.append(event)
        probes.append(_ints_nudged(event, rng))
    return probes


def _refusal(state, event: dict):
    try:
        apply_event(state.clone(), event_from_dict(event))
    except (RuleViolation, ValidationError) as exc:
        return str(exc)
    return None


def _words(prompt: Prompt) -> tuple:
    """Everything the tablet shows of a prompt drawn for the whole table."""
    return (
        prompt.title,
        prompt.hint,
        prompt.limit,
        sorted(prompt.areas),
        dict(prompt.prefill),
        [(c.label, c.event, c.action) for c in prompt.choices],
        dict(prompt.steppers),
        prompt.private_for,
    )


def test_no_public_text_depends_on_where_hidden_caballeros_are():
    board = classic_board()
    rng = random.Random(10)
    compared = refusals = 0
    for _ in range(5):
        state = start_state(random_setup(rng, rng.randint(2, 5), board, variant="short"), board)
        builder = PromptBuilder(state.names, board)
        while state.stage != "over":
            if rng.random() < 0.3:
                ask = asked(state)
                prompt = builder.build(ask)
                probes = _probes(state, rng)
                mine = [_refusal(state, e) for e in probes]
                for twin in _twins(state, rng):
                    assert public_view(twin) == public_view(state)  # the twin is publicly the same
                    if prompt.private_for is None:
                        assert _words(builder.build(asked(twin))) == _words(prompt), ask.kind
                    for event, refused in zip(probes, mine):
                        theirs = None if refused is None else _refusal(twin, event)  # compared only if both refuse
                        if refused is not None and theirs is not None:
                            assert theirs == refused, (event, refused, theirs)
                            refusals += 1
                    compared += 1
            apply_event(state, random_event(rng, asked(state)))
    assert compared > 300 and refusals > 300, (compared, refusals)


def test_a_replenishment_beyond_the_provinces_is_refused_without_the_count():
    board = classic_board()
    state = start_state(random_setup(random.Random(3), 3, board), board)
    while asked(state).kind != "replenish":
        apply_event(state, random_event(random.Random(3), asked(state)))
    ask = asked(state)
    pid = ask.players[0]
    p = state.players.index(pid)
    state.provinces[p], state.counts[board.castillo][p] = 2, state.counts[board.castillo][p] + state.provinces[p] - 2
    message = _refusal(state, {"type": "court_replenished", "player": pid, "from_provinces": 3, "from_regions": {}})
    assert message is not None and "provinces" in message
    assert "2" not in message.replace("(rule", "")  # neither the count nor anything it gives away


# ---- the 2023 edition: Modifier cards and pending discs are secret too ---------------------------


def _twins_2023(state, rng: random.Random):
    """Twins of a 2023 position that differ only in a secret: where hidden Caballeros are, a
    Modifier card in a hand (swapped with one nobody holds), or a disc set and not yet shown."""
    castillo = state.board.castillo
    p = rng.randrange(state.n)
    for into in (True, False):
        if (state.provinces[p] if into else state.counts[castillo][p]) >= 2:
            twin = state.clone()
            step = 2 if into else -2
            twin.provinces[p] -= step
            twin.counts[castillo][p] += step
            yield twin
    if state.modifiers and any(state.modifier_hands):
        held = (
            set().union(*state.modifier_hands, *state.modifier_discards)
            | {m for m in state.modifier_played if m}
            | set(state.modifier_passes.values())
        )
        free = sorted(set(state.modifiers) - held)
        for q in rng.sample(range(state.n), min(2, state.n)):
            hand = sorted(state.modifier_hands[q] - set(state.modifier_passes.values()))
            if hand and free:
                twin = state.clone()
                twin.modifier_hands[q] = (twin.modifier_hands[q] - {hand[0]}) | {rng.choice(free)}
                yield twin
    for q, mid in sorted(state.modifier_passes.items()):  # the card chosen to pass, not yet passed
        others = sorted(state.modifier_hands[q] - {mid})
        if others:
            twin = state.clone()
            twin.modifier_passes[q] = rng.choice(others)
            yield twin
    ask = asked(state)
    if ask.kind == "secret_disc":
        discs = state.scoring_discs if state.stage == "scoring_discs" else state.special.discs
        for q, r in list(discs.items()):
            options = [state.board.area_index[a] for a in ask.options["regions"].get(state.players[q], [])]
            others = [a for a in options if a != r]
            if others:
                twin = state.clone()
                (twin.scoring_discs if twin.stage == "scoring_discs" else twin.special.discs)[q] = rng.choice(others)
                yield twin


def _refused(state, event: dict):
    try:
        apply_event(state.clone(), event_from_dict(event))
    except (RuleViolation, ValidationError) as exc:
        return str(exc)
    return None


def _builder(state) -> PromptBuilder:
    return PromptBuilder(
        state.names,
        lambda: state.board,
        modifiers=state.modifiers,
        public=lambda: public_view(state).model_dump(mode="json"),
    )


def _2023_setup(rng: random.Random, players: int, modules: tuple):
    from engine.game import board_for
    from engine.playout import old_hands_removed, standin_files

    board_file, cards_file = standin_files("2023", players)
    probe = GameSetup(
        players=[f"p{i}" for i in range(players)],
        king="x",
        homes={},
        start_player="p0",
        rules="2023",
        board_file=board_file,
        cards_file=cards_file,
    )
    board = board_for(probe)
    setup = random_setup(rng, players, board, "short", "2023", modules, board_file, cards_file, standins=True)
    if "old-hands" in modules:
        setup = setup.model_copy(update={"removed_cards": old_hands_removed(rng, board)})
    return setup, board


def _modifier_probes(state, rng: random.Random) -> list[dict]:
    """On a Power card's turn with Power Shift: a card with each Modifier card of the set, held or
    not (the tablet offers every card of the set: the hand is secret)."""
    ask = asked(state)
    if ask.kind != "play_power_card" or not state.modifiers:
        return []
    pid = ask.players[0]
    return [
        {"type": "power_card_played", "player": pid, "card": rng.randint(1, 13), "modifier": mid}
        for mid in state.modifiers.sorted_keys()
    ]


def test_no_public_text_depends_on_a_secret_in_2023_games():
    rng = random.Random(23)
    compared = refusals = modifier_refusals = 0
    kinds = set()
    for players, modules in (
        (2, ()),
        (2, ("power-shift",)),
        (3, ("power-shift",)),
        (4, ("new-regency", "power-shift")),
        (5, ("new-regency", "old-hands", "power-shift")),
        (4, ("power-shift",)),
    ):
        setup, board = _2023_setup(rng, players, modules)
        state = start_state(setup, board)
        builder = _builder(state)
        while state.stage != "over":
            if rng.random() < 0.3:
                ask = asked(state)
                prompt = builder.build(ask)
                probes = _probes(state, rng, 4) + _modifier_probes(state, rng)
                mine = [_refused(state, e) for e in probes]
                for twin in _twins_2023(state, rng):
                    kinds.add(ask.kind)
                    assert public_view(twin) == public_view(state)  # the twin is publicly the same
                    if prompt.private_for is None:
                        assert _words(_builder(twin).build(asked(twin))) == _words(prompt), ask.kind
                    for event, refused in zip(probes, mine):
                        theirs = None if refused is None else _refused(twin, event)  # compared only if both refuse
                        if refused is not None and theirs is not None:
                            assert theirs == refused, (event, refused, theirs)
                            refusals += 1
                            modifier_refusals += bool(event.get("modifier"))
                    compared += 1
            apply_event(state, random_event(rng, asked(state)))
    assert compared > 500 and refusals > 300, (compared, refusals)
    assert {"pass_modifier", "play_power_card", "secret_disc", "dummy_region_cards"} <= kinds
    assert modifier_refusals > 50, modifier_refusals


# ---- King and Intrigue: the 13 kept of 18 (or of 38) are secret, and so are its discs ---------


def _twins_ki(state, rng: random.Random):
    """Twins of a King and Intrigue position that differ only in a secret: a Power card a player
    kept swapped for one they left out (neither laid down: those are public), hidden Caballeros,
    or a disc set and not yet shown."""
    full = set(state.board.ki_cards.by_value(state.rules.modules))
    keep = state.board.ki_cards.hand_size
    for q in rng.sample(range(state.n), min(2, state.n)):
        seen = state.power_spent[q] | {state.played[q]}
        kept = sorted(state.hands[q] - seen)
        out = sorted(full - state.hands[q] - seen)
        if len(state.hands[q]) + len(state.power_spent[q]) <= keep and kept and out:  # chosen: the rest unseen
            twin = state.clone()
            twin.hands[q] = (twin.hands[q] - {rng.choice(kept)}) | {rng.choice(out)}
            yield twin
    castillo = state.board.castillo
    p = rng.randrange(state.n)
    if state.provinces[p] >= 2:
        twin = state.clone()
        twin.provinces[p] -= 2
        twin.counts[castillo][p] += 2
        yield twin
    if state.stage in ("scoring_discs", "ki_setup_discs") and state.scoring_discs:
        q, r = rng.choice(sorted(state.scoring_discs.items()))
        others = [a for a in state.board.regions if a != r and a != state.king]
        twin = state.clone()
        twin.scoring_discs[q] = rng.choice(others)
        yield twin


def _ki_probes(state, rng: random.Random) -> list[dict]:
    """The random inputs of `_probes`, and on a Power card's turn every value of the set: the
    cards a player left out are tapped on the public tablet too."""
    probes = _probes(state, rng, 3)
    ask = asked(state)
    if ask.kind == "play_power_card":
        pid = ask.players[0]
        probes += [
            {"type": "power_card_played", "player": pid, "card": v}
            for v in sorted(state.board.ki_cards.by_value(state.rules.modules))
        ]
    return probes


def test_no_public_text_depends_on_a_kept_hand_in_king_and_intrigue():
    """A refusal, a prompt or a title read by the whole table is the same in a twin position
    that differs only in which Power cards a player kept (or a disc, or the Castillo's tally):
    "Each player then puts the 5 cards he chose not to use back in the box, without showing the
    other players." (a card left out, tapped, must not be refused as one "played in an earlier
    round", nor differently from any other card the hand does not hold)"""
    from companion.prompts.king_intrigue import KIPromptBuilder
    from engine.game import board_for
    from engine.playout import standin_files

    rng = random.Random(21)
    compared = refusals = hand_refusals = 0
    for players, modules in (
        (3, ("players-edition", "special-cards")),
        (4, ("players-edition", "special-cards")),
        (2, ()),
    ):
        _, cards_file = standin_files("king-intrigue", players)
        probe = GameSetup(
            players=[f"p{i}" for i in range(players)],
            king="x",
            homes={},
            start_player="p0",
            rules="king-intrigue",
            modules=list(modules),
            cards_file=cards_file,
        )
        board = board_for(probe)
        state = start_state(
            random_setup(rng, players, board, "short", "king-intrigue", modules, None, cards_file, standins=True), board
        )

        def builder(s):
            return KIPromptBuilder(s.names, lambda: s.board, public=lambda: public_view(s).model_dump(mode="json"))

        while state.stage != "over":
            if rng.random() < 0.25:
                ask = asked(state)
                prompt = builder(state).build(ask)
                probes = _ki_probes(state, rng)
                mine = [_refused(state, e) for e in probes]
                for twin in _twins_ki(state, rng):
                    assert public_view(twin) == public_view(state)  # the twin is publicly the same
                    if prompt.private_for is None:
                        assert _words(builder(twin).build(asked(twin))) == _words(prompt), ask.kind
                    for event, refused in zip(probes, mine):
                        theirs = None if refused is None else _refused(twin, event)  # compared only if both refuse
                        if refused is not None and theirs is not None:
                            assert theirs == refused, (event, refused, theirs)
                            refusals += 1
                            hand_refusals += "in hand" in refused or "the Joker" in refused
                    compared += 1
            apply_event(state, random_event(rng, asked(state)))
    assert compared > 100 and refusals > 300 and hand_refusals > 20, (compared, refusals, hand_refusals)


# ---- the undo question: the same in twin games that differ only in a secret ------------------


def _undo_words(table) -> str:
    """What the undo button asks before it takes back the last input (its question when it
    needs a confirmation); the input is then taken back, as a tap on Undo would."""
    from companion.input_errors import NeedsConfirmation

    try:
        return "done: " + table.undo()
    except NeedsConfirmation as exc:
        table.undo(confirm=True)
        return f"asks: {exc}"


def _same_public_texts(a, b) -> None:
    assert a.public() == b.public()
    pa, pb = a.prompt(), b.prompt()
    if pa.private_for is None:
        assert _words(pa) == _words(pb)


def _lockstep(a, b, events_for, rng: random.Random, steps: int) -> int:
    """Play the twin tables `a` and `b` with the same public inputs (`events_for(ask)`: per
    table), comparing what the table reads after each; every few inputs, Undo on both (its
    question compared), then the input again."""
    undone = 0
    for step in range(steps):
        if a.state.stage == "over":
            break
        ask = a.asked()
        ea, eb = events_for(ask)
        a.submit(ea)
        b.submit(eb)
        _same_public_texts(a, b)
        if step % 3 == 0:
            assert _undo_words(a) == _undo_words(b)
            _same_public_texts(a, b)
            a.submit(ea)
            b.submit(eb)
            undone += 1
    return undone


def test_no_undo_question_depends_on_a_kept_hand_or_a_modifier_card(tmp_path):
    """Two tables that differ only in a secret (the Power cards one player kept in King and
    Intrigue; the Modifier cards one player was dealt with Power Shift) show the same public
    view, prompts and undo questions, input after input."""
    from companion.table.authority import Table
    from companion.table.setup import TableSetup
    from engine.game import board_for
    from engine.playout import standin_files

    rng = random.Random(7)
    # King and Intrigue, 3 players: red keeps the 13 lowest, or 12 of them and the 14th; red
    # never plays the two values that differ.
    _, cards_file = standin_files("king-intrigue", 3)
    setup = GameSetup(
        players=["red", "blue", "green"],
        king="castilla_la_nueva",
        start_player="red",
        homes={"red": "galicia", "blue": "sevilla", "green": "granada"},
        rules="king-intrigue",
        variant="short",
        cards_file=cards_file,
    )
    values = sorted(board_for(setup).ki_cards.by_value(()))
    differ = {values[12], values[13]}
    hands = {"a": values[:13], "b": values[:12] + [values[13]]}
    a, b = (Table.new(TableSetup(game=setup, mode="tracking"), tmp_path / side) for side in "ab")

    def ki_events(ask):
        if ask.kind == "choose_power_cards":
            pid = ask.players[0]
            chosen = [
                {"type": "power_cards_chosen", "player": pid, "cards": hands[side] if pid == "red" else values[:13]}
                for side in "ab"
            ]
            return chosen[0], chosen[1]
        if ask.kind == "play_power_card" and ask.players[0] == "red":
            card = rng.choice([c for c in ask.options["cards"] if c not in differ])
            event = {"type": "power_card_played", "player": "red", "card": card}
        else:
            event = random_event(rng, ask).model_dump(mode="json")
        return event, event

    assert _lockstep(a, b, ki_events, rng, 90) >= 25
    assert a.state.hands[0] != b.state.hands[0]  # the secret still differs
    # 2023 with Power Shift, 3 players: red is dealt one Modifier card more or less different;
    # red passes a card both hands hold and plays none.
    setup, _ = _2023_setup(rng, 3, ("power-shift",))
    a, b = (Table.new(TableSetup(game=setup, mode="tracking"), tmp_path / f"ps-{side}") for side in "ab")
    ids = a.state.modifiers.sorted_keys()
    players = list(setup.players)
    red = players[0]
    dealt = {pid: list(ids[3 * i + 1 : 3 * i + 4]) for i, pid in enumerate(players)}
    dealt_b = {**dealt, red: [dealt[red][0], dealt[red][1], ids[0]]}

    def ps_events(ask):
        pid = ask.players[0] if ask.players else None
        if ask.kind == "deal_modifiers":
            return (
                {"type": "modifiers_dealt", "player": pid, "modifiers": dealt[pid]},
                {"type": "modifiers_dealt", "player": pid, "modifiers": dealt_b[pid]},
            )
        if ask.kind == "pass_modifier":
            event = {"type": "modifier_passed", "player": pid, "modifier": dealt[pid][0]}
        elif ask.kind == "play_power_card" and pid == red:
            event = {"type": "power_card_played", "player": red, "card": rng.choice(ask.options["cards"])}
        else:
            event = random_event(rng, ask).model_dump(mode="json")
            if pid == red and event.get("modifier"):
                event.pop("modifier")
        return event, event

    assert _lockstep(a, b, ps_events, rng, 60) >= 15
    assert a.state.modifier_hands != b.state.modifier_hands  # the secret still differs
