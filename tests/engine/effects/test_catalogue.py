"""The card catalogue: every card of every shipped card set, found by its printed name in two
files, its effect engine/effects/<effect>.py and its test tests/engine/effects/test_<effect>.py.

The card sets: the classic game's Action cards (engine.board.build.classic_board), the 2023
edition's Action cards with the New Regency ♠ cards (engine.board.load.load_cards("2023")), and
King and Intrigue's Power cards of both modules and its Action cards
(engine.rules.king_intrigue.cards.load_ki_cards). Old Hands' ♣ cards and Power Shift's
Modifier cards are not published, so no set ships them (only self-play stand-ins do).

A card's effect is the `effect` its set gives it. Where the shipped set leaves it open:
- "none" is the engine's word for a card with no special action of its own: King and
  Intrigue's 10 (Intrigue) and 180 (King), whose holder acts with the Intrigue card or the
  King's Card, and the Caballero card, whose holder acts with their Power card. Their test
  is test_none.py; the engine has no effect file for it.
- null (not published: the 30 card "Opponents only", and the 60, 100, 110, 120, 150 and 170
  "Special scoring" cards): the table enters it from its own box. The effect named here is
  the one the engine's self-play stand-in card file gives (engine.playout.standin_files),
  the same one the tests' table enters (tests/engine/king_intrigue/table.py).
"""

from __future__ import annotations

import ast
from functools import cache, lru_cache
from pathlib import Path

import engine
from engine.board.build import classic_board
from engine.board.load import load_cards
from engine.playout import standin_files
from engine.rules.king_intrigue.cards import load_ki_cards

HERE = Path(__file__).parent
ENGINE_EFFECTS = Path(engine.__file__).parent / "effects"


@lru_cache(maxsize=1)
def shipped_cards() -> tuple[tuple[str, str, str, str], ...]:
    """(rule system, card id, printed name, effect) of every shipped card."""
    cards = [("classic", c.id, c.name, c.effect) for c in classic_board().cards.values()]
    cards += [("2023", c.id, c.name, c.effect) for c in load_cards("2023").cards.values()]
    shipped = load_ki_cards()
    entered = load_ki_cards(standin_files("king-intrigue", 4)[1])  # what a table enters for the nulls
    for c in shipped.power_cards.values():
        cards.append(("king-intrigue", c.id, c.name, c.effect or entered.power_cards[c.id].effect))
    cards += [("king-intrigue", c.id, c.name, c.effect) for c in shipped.action_cards.values()]
    return tuple(cards)


@cache
def effect_test_file(effect: str) -> tuple[str, tuple[str, ...]]:
    """The docstring and the test functions of tests/engine/effects/test_<effect>.py."""
    path = HERE / f"test_{effect}.py"
    if not path.exists():
        return "", ()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    tests = tuple(n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))
    return ast.get_docstring(tree) or "", tests


def test_every_shipped_card_set_is_in_the_catalogue():
    systems = {system for system, *_ in shipped_cards()}
    assert systems == {"classic", "2023", "king-intrigue"}
    assert all(effect for *_, effect in shipped_cards())
    ids = [(system, cid) for system, cid, *_ in shipped_cards()]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 33 + 20 + 41  # classic, 2023 with New Regency, King and Intrigue with both modules


def test_every_card_has_a_test_file_whose_docstring_names_it():
    unnamed = [
        f"{system} {cid} ({name!r}): tests/engine/effects/test_{effect}.py"
        for system, cid, name, effect in shipped_cards()
        if name not in effect_test_file(effect)[0] or not effect_test_file(effect)[1]
    ]
    assert not unnamed, "cards without a test naming them:\n" + "\n".join(unnamed)


def test_every_card_has_an_effect_file():
    """Fails until the classic effects leave engine/flow.py for engine/effects/<effect>.py
    (issue 22, the engine's branch)."""
    missing = sorted(
        {
            f"engine/effects/{effect}.py ({system} {name})"
            for system, _, name, effect in shipped_cards()
            if not (ENGINE_EFFECTS / f"{effect}.py").exists()
        }
    )
    assert not missing, "cards without an effect file:\n" + "\n".join(missing)


def test_every_classic_card_has_a_test_here():
    from engine.board.build import classic_board

    source = "".join(p.read_text(encoding="utf-8") for p in sorted(HERE.glob("test_*.py")))
    untested = [cid for cid in classic_board().cards if f'"{cid}"' not in source]
    assert not untested
