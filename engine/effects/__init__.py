"""Special-action effects, one file each, named as in the card data (`"effect": "militia"`
is engine/effects/militia.py): a card's whole special action (begin, ask, steps, reveal,
start check) is in its one file. Importing this package registers every effect listed here;
see engine/effect_registry.py for what an effect is. (ki_tokens.py is no effect: the
King and Intrigue tokens' shared rules.)"""
from __future__ import annotations

# The classic game (1995), also played by the 2023 edition and King and Intrigue.
from . import (  # noqa: F401
    move, move_all_own, place_extra, veto, decay, one_of_each_back, king_is_angry,
    disc_send_back, disc_scoring, eviction, score_chosen_region, score_group, score_castillo,
    score_first_only, score_most, score_least, mobile_scoreboard, power_card_back, court,
    grande, move_king,
)
# The 2023 edition's.
from . import (  # noqa: F401
    adopted_home, chalet, civil_war, competition, empowerment, enactment, entourage, exile,
    hurricane, infiltration, militia, rebellion, revelation, score_offered_three, stand_in,
    veto_2023, your_majesty,
)
# King and Intrigue's (Player's Edition and Special cards).
from . import (  # noqa: F401
    alliance, bridge, cancel_token, civil_war_ki, double_scoring, espionage, field_day,
    fiesta_ki, foreign_to_castillo, kings_guard, mistress, placement_anywhere, quarantine,
    relocate, revolt, risk_of_collapse, score_own_region, table_for_six,
)
