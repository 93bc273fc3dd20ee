"""Which function makes the prompt for each ask kind of the engine (`PROMPTS`), and which the
private pick a player answers alone (`PRIVATE_PICKS`): grep an ask kind to find its builder.
King and Intrigue adds and overrides its own (companion.prompts.king_intrigue.KI_PROMPTS).

A prompt maker is `maker(builder, ask) -> Prompt` (those in CASTILLO_PREFILLED also take the
tower's Castillo count to prefill); a pick maker is `maker(builder, ask, player) -> PrivatePick
| None`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.prompts import discs, modules_2023, special, turn
from companion.prompts.prompt import PrivatePick, Prompt

PromptMaker = Callable[..., Prompt]
PickMaker = Callable[[Any, Any, str], PrivatePick | None]


PROMPTS: dict[str, PromptMaker] = {
    # the turn (companion.prompts.turn)
    "reveal_action_cards": turn.reveal_action_cards,
    "play_power_card": turn.play_power_card,
    "replenish": turn.replenish,
    "choose_action_card": turn.choose_action_card,
    "turn_action": turn.turn_action,
    "place_extra": turn.place_extra,
    "veto": turn.veto,
    "play_round": turn.play_round,
    "game_over": turn.game_over,
    # the special actions (companion.prompts.special)
    "move_caballeros": special.move_caballeros,
    "send_back": special.send_back,
    "choose_region": special.choose_region,
    "place_mobile_scoreboard": special.place_mobile_scoreboard,
    "place_scoring_tile": special.place_scoring_tile,
    "place_anywhere": special.place_anywhere,
    "move_king_with_entourage": special.move_king_with_entourage,
    "swap_pieces": special.swap_pieces,
    "take_back_power_card": special.take_back_power_card,
    "move_grande": special.move_grande,
    "move_king": special.move_king,
    # secret discs and the scorings (companion.prompts.discs)
    "secret_disc": discs.secret_disc,
    "reveal_secret_discs": discs.reveal_secret_discs,
    "lift_castillo": discs.lift_castillo,
    "count_castillo": discs.count_castillo,
    # the 2023 modules: Power Shift and the dummy (companion.prompts.modules_2023)
    "deal_modifiers": modules_2023.deal_modifiers,
    "pass_modifier": modules_2023.pass_modifier,
    "modifier_ability": modules_2023.modifier_ability,
    "dummy_region_cards": modules_2023.dummy_region_cards,
    "dummy_power_card": modules_2023.dummy_power_card,
    "dummy_action_card": modules_2023.dummy_action_card,
}
# Ask kinds whose placement may start from the tower's Castillo count.
CASTILLO_PREFILLED = frozenset({"turn_action", "place_extra"})

PRIVATE_PICKS: dict[str, PickMaker] = {
    "secret_disc": discs.secret_disc_pick,
    "deal_modifiers": modules_2023.dealt_modifiers_pick,
    "pass_modifier": modules_2023.passed_modifier_pick,
    "take_back_power_card": special.power_card_back_pick,
}
