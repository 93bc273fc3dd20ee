"""The prompts offer only what the engine accepts: every tappable region of a
"pick" prompt and every ready-made button event is legal at that moment."""
import copy
import random
import re

from companion.prompts import PromptBuilder
from engine.board import classic_board
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
        for e in (event if isinstance(event, list) else [event]):
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
            if ask.kind == "send_back" and ask.players[0] in ask.options["owners"]:   # The King is Angry
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
    assert {"turn_action", "move_caballeros", "send_back", "send_back_own", "secret_disc", "veto",
            "choose_region"} <= kinds


def test_power_card_prompt_names_who_plays_next():
    board = classic_board()
    state = start_state(random_setup(random.Random(1), 3, board), board)
    apply_event(state, random_event(random.Random(1), asked(state)))
    prompt = PromptBuilder({p: p.title() for p in state.players}, board).build(asked(state))
    first = state.players[state.start_player]
    assert prompt.title == f"Round 1 - power cards - {first.title()} plays next"
    assert [c.label for c in prompt.choices] == [str(v) for v in range(1, 14)]
