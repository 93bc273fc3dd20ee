"""What the game waits for, in a refusal of something out of turn ("... the game waits for
{asked}"): each ask kind (an internal step id) as a phrase of the engine's own (`Said`), whose
English is the kind spaced ("move caballeros"), so the English refusal reads exactly as before,
and which the companion shows in the table's language (companion/words/refusals.py). A kind not
listed here reads as its id, spaced."""

from __future__ import annotations

from engine.errors import N_, Said

ASKED: dict[str, str] = {
    "bridge_crossing": N_("bridge crossing"),
    "choose_action_card": N_("choose action card"),
    "choose_power_cards": N_("choose power cards"),
    "choose_region": N_("choose region"),
    "count_castillo": N_("count castillo"),
    "deal_modifiers": N_("deal modifiers"),
    "dummy_action_card": N_("dummy action card"),
    "dummy_power_card": N_("dummy power card"),
    "dummy_region_cards": N_("dummy region cards"),
    "game_over": N_("game over"),
    "lift_castillo": N_("lift castillo"),
    "modifier_ability": N_("modifier ability"),
    "move_caballeros": N_("move caballeros"),
    "move_grande": N_("move grande"),
    "move_king": N_("move king"),
    "move_king_with_entourage": N_("move king with entourage"),
    "pass_modifier": N_("pass modifier"),
    "place_anywhere": N_("place anywhere"),
    "place_extra": N_("place extra"),
    "place_mobile_scoreboard": N_("place mobile scoreboard"),
    "place_scoring_tile": N_("place scoring tile"),
    "play_power_card": N_("play power card"),
    "play_round": N_("play round"),
    "remove_token": N_("remove token"),
    "replenish": N_("replenish"),
    "reveal_action_cards": N_("reveal action cards"),
    "reveal_secret_discs": N_("reveal secret discs"),
    "secret_disc": N_("secret disc"),
    "send_back": N_("send back"),
    "spy_move": N_("spy move"),
    "swap_pieces": N_("swap pieces"),
    "take_back_power_card": N_("take back power card"),
    "turn_action": N_("turn action"),
    "turn_scoreboard": N_("turn scoreboard"),
    "veto": N_("veto"),
}


def asked_words(kind: str) -> Said | str:
    """What the game waits for, as a refusal names it: a phrase the companion translates, or
    (a kind not listed) its id spaced."""
    words = ASKED.get(kind)
    return Said(words) if words is not None else kind.replace("_", " ")
