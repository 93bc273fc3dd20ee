"""A card's words in one home (companion/prompts/card_words.py, issue 32): every card of every
shipped set (classic, 2023 with its modules and the cards a table may add, King and Intrigue,
Power Shift's Modifier cards) whose effect needs words has them in the catalogue, and the
catalogue words no effect that no card has."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import engine.effects
from companion.prompts.card_words import CARD_WORDS, does, options, tokens
from companion.prompts.king_intrigue import KI_PROMPTS
from engine.board.build import classic_board
from engine.board.effect_specs import EFFECT_SPECS
from engine.board.load import load_board
from engine.effects import cancel_token
from engine.rules.king_intrigue.cards import load_ki_cards

EFFECTS_DIR = Path(engine.effects.__file__).parent
# The region of a scoring is worded by the base game for every card alike ("tap the region
# (special scoring)"), so a King and Intrigue scoring card needs no words of its own for it.
WORDED_BY_THE_GAME = {"special_scoring"}
# Steps many cards share (and the round's own): their prompts word whichever card asks.
SHARED_STEPS = {
    "choose_region",
    "send_back",
    "move_king",
    "move_grande",
    "move_caballeros",
    "place_extra",
    "veto",
    "replenish",
}


@cache
def shipped_cards() -> dict[str, list]:
    """Set -> its cards (each with .effect and .params), as the engine loads them."""
    ki = load_ki_cards()
    return {
        "classic": list(classic_board().cards.values()),
        "2023": [c for players in range(2, 6) for c in load_board("2023", players).cards.values()],
        "king-intrigue": [*ki.power_cards.values(), *ki.action_cards.values()],
    }


def effects_of(cards) -> set[str]:
    return {c.effect for c in cards if c.effect and c.effect != "none"}


def editor_effects() -> set[str]:
    """What a card a 2023 table adds may do (the card-set editor offers every 2023 effect)."""
    return {name for name, spec in EFFECT_SPECS.items() if "2023" in spec.rules}


def every_effect() -> set[str]:
    return set().union(*(effects_of(cards) for cards in shipped_cards().values())) | editor_effects()


def _constant(source: str, name: str) -> str | None:
    found = re.search(rf"^{name}(?:: \w+)? = \"(\w+)\"", source, re.M)
    return found.group(1) if found else None


def purposes_asked(effect: str) -> tuple[set[str], set[str]]:
    """(the secret discs, the regions chosen) the effect's rule asks for, by purpose, read from
    engine/effects/<effect>.py."""
    path = EFFECTS_DIR / f"{effect}.py"
    source = path.read_text() if path.exists() else ""
    discs = set()
    for call in re.finditer(r"disc_ask\(([^()]*(?:\([^()]*\)[^()]*)*)\)", source):
        last = call.group(1).rstrip(", \n").rsplit(",", 1)[-1].strip()
        purpose = last.strip('"') if last.startswith('"') else _constant(source, last)
        discs.add(purpose)
    regions = set()
    for one, other in re.findall(r"\"purpose\": \"(\w+)\"(?: if [^\"]* else \"(\w+)\")?", source):
        regions |= {one, other} - {""}
    if "closing_marker(MARKER" in source:  # King and Intrigue's markers: a region chosen for each
        regions.add(_constant(source, "MARKER"))
    return discs - {None}, (regions - discs) - {None}


def test_every_card_a_2023_table_may_hold_says_what_it_does_in_a_few_words():
    """A 2023 card's button and card learning name what it does ("score all 4-point regions"):
    every effect of a shipped 2023 card, and every one the card-set editor offers."""
    for card in shipped_cards()["2023"]:
        assert does(card.effect, card.params), f"{card.name} ({card.effect}): no words in card_words"
    for effect in editor_effects():
        assert CARD_WORDS.get(effect) and CARD_WORDS[effect].does, f"{effect}: no words in card_words"
        assert does(effect, {}), f"{effect}: its words need numbers the editor has not entered yet"


def test_every_secret_disc_a_card_asks_for_says_what_it_is_for_on_the_tablet_and_the_phones():
    asked = {effect: purposes_asked(effect)[0] for effect in every_effect()}
    asked = {effect: discs for effect, discs in asked.items() if discs}
    assert {"civil_war", "eviction", "disc_send_back", "disc_scoring", "field_day", "hurricane"} <= set(asked)
    for effect, discs in asked.items():
        words = CARD_WORDS.get(effect)
        assert words is not None, f"{effect} asks for a secret disc: no words in card_words"
        for purpose in discs:
            assert purpose in words.purposes, f"{effect}: what its disc ({purpose}) is for, for the tablet"
            assert purpose in words.phone, f"{effect}: what its disc ({purpose}) is for, for the phones"


def test_every_region_a_king_and_intrigue_card_asks_for_says_what_it_is_for():
    ki_only = effects_of(shipped_cards()["king-intrigue"]) - set(EFFECT_SPECS)
    asked = {effect: purposes_asked(effect)[1] - WORDED_BY_THE_GAME for effect in ki_only}
    asked = {effect: regions for effect, regions in asked.items() if regions}
    assert {"alliance", "bridge", "civil_war_ki", "kings_guard", "quarantine", "relocate"} <= set(asked)
    for effect, regions in asked.items():
        words = CARD_WORDS.get(effect)
        assert words is not None and words.king_intrigue, f"{effect} asks for a region: no words in card_words"
        for purpose in regions:
            assert purpose in words.purposes, f"{effect}: what the region ({purpose}) is for"


def test_every_token_a_card_may_take_away_is_named():
    """The card that removes a token names each (the Alliance markers, the bridge, the Mistress)."""
    removable = set(cancel_token.OPTIONAL) | set(cancel_token.CARDS_IN_FRONT)
    missing = removable - set(tokens())
    assert not missing, f"tokens with no words in card_words: {sorted(missing)}"
    for effect in tokens():
        assert effect in every_effect(), f"{effect}: a token no card lays"


def test_every_action_of_king_and_intrigues_action_cards_is_worded_for_the_choice_of_two():
    """With 2-3 players the holder of the King's Card or the Intrigue card chooses between its
    action and their Power card's: each of the Action card's is a button in words."""
    for card in load_ki_cards().action_cards.values():
        if card.effect in (None, "none"):  # the Caballero card only places
            continue
        offered = [f"{card.id}_{o}" for o in card.params["options"]] if card.effect == "choice" else [card.id]
        for option in offered:
            assert option in CARD_WORDS[card.effect].options, f"{card.name}: {option} has no words in card_words"
    assert set(options()) == {o for cw in CARD_WORDS.values() for o in cw.options}


def test_every_step_of_a_cards_own_is_listed_with_its_words_and_has_a_builder():
    """From a card's words to the prompts of its own steps (Espionage's spy, Militia's placing):
    every ask kind an effect's rule asks that no other card shares is listed in its entry, is
    registered with a builder, and is really asked by that effect."""
    for effect in every_effect():
        path = EFFECTS_DIR / f"{effect}.py"
        source = path.read_text() if path.exists() else ""
        own = {kind for kind in KI_PROMPTS if f'"{kind}"' in source} - SHARED_STEPS
        listed = set(CARD_WORDS[effect].asks) if effect in CARD_WORDS else set()
        assert own <= listed, f"{effect} asks {sorted(own - listed)}: not listed in its card_words entry"
        for kind in listed:
            assert kind in KI_PROMPTS, f"{effect}: no prompt builder registered for {kind}"
            assert f'"{kind}"' in source, f"{effect}: its rule never asks {kind}"


def test_the_catalogue_words_no_effect_that_no_card_has():
    stray = set(CARD_WORDS) - every_effect()
    assert not stray, f"card_words has words for effects no shipped card carries: {sorted(stray)}"
