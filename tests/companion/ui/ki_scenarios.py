"""King and Intrigue by taps in the real app (run by app_driver.py under Xvfb).

A new table that owns the expansion (cards_by_taps, the start of ki_phones_scenarios' whole
game): New game, "King and Intrigue" and both modules chosen by taps; Start is refused naming
what the card set lacks and leads to Your cards; the box's numbers entered there by taps (a
wrong value refused with its one line), exported, changed, imported back. KITablet tracks the
game by taps on the tablet: WHAT the table does is the engine's random chooser's
(engine.playout.random_event); HOW it is entered is found on the prompt the screen shows
(scenarios_2023.Tablet, the same routes as the headless driver). look_at_ki_screens shows
every King and Intrigue screen for the screen catalogue (catalogue_2023_ki.py).
"""

from __future__ import annotations

import json

from rules_scenarios import _into_view, _keyed, _look, _scroll_to, _tap_key
from scenarios import _wait_for
from scenarios_2023 import PATIENCE, Tablet
from words_match import said

from companion.words import names
from engine.playout import random_event
from tests.companion.tablet_driver import _as_the_tablet_orders, _norm, _values

PLAYERS = ("red", "yellow", "green")
COURT = {
    10: 6,
    20: 6,
    30: 5,
    50: 5,
    60: 4,
    70: 4,
    80: 4,
    90: 3,
    100: 3,
    110: 3,
    120: 2,
    130: 2,
    140: 2,
    150: 1,
    160: 1,
    170: 0,
    180: 0,
}
SCORING = {60: 0, 100: 1, 110: 2, 120: 3, 150: 4, 170: 5}  # index in companion.table_rules.ki_cards.SCORINGS
PLACES_3 = [2, 3, 5]
MODULE_COURT = {
    "pe_joker": 0,
    "pe_field_day": 5,
    "pe_relocate": 4,
    "pe_alliance": 3,
    "sc_coup": 3,
    "sc_revolt": 2,
    "sc_scoring_own": 3,
    "sc_scoring_any": 2,
    "sc_scoring_offered": 2,
    "pe_civil_war": 3,
    "pe_bridge": 3,
    "pe_quarantine": 2,
    "pe_risk_of_collapse": 2,
    "sc_table_for_six": 1,
    "sc_kings_guard": 1,
    "sc_hurricane": 1,
    "sc_mistress": 3,
    "sc_espionage": 3,
}
WORD_PARAMS = {
    "pe_civil_war": ("outcome", "to_court"),
    "pe_quarantine": ("until", "round"),
    "pe_risk_of_collapse": ("until", "general_scoring"),
    "sc_hurricane": ("outcome", "send_back"),
}
MODULE_VALUES = {
    "pe_joker": 1,
    "pe_alliance": 45,
    "pe_bridge": 55,
    "pe_civil_war": 33,
    "pe_quarantine": 135,
    "pe_risk_of_collapse": 145,
    "sc_coup": 85,
    "sc_espionage": 25,
    "sc_fiesta": 65,
    "sc_hurricane": 175,
    "sc_kings_guard": 165,
    "sc_mistress": 75,
    "sc_revolt": 125,
    "sc_scoring_own": 95,
    "sc_scoring_any": 105,
    "sc_scoring_offered": 115,
    "sc_table_for_six": 155,
}  # our box's (made up)


def _tap(d, key: str, times: int = 1):
    """The button that does `key`, scrolled into view first when it is not on screen (Your cards
    is a long page: most chips are in view already, and a scroll costs a frame or two)."""
    if not _on_screen(_keyed(d, key)):
        yield from _scroll_to(d, key)
    yield from _tap_key(d, key, times)


def _on_screen(w) -> bool:
    """Its centre inside the scroll view holding it (a margin for the panel's edges)."""
    p = w.parent
    while p is not None and p.__class__.__name__ != "ScrollView":
        p = p.parent if p.parent is not p else None
    if p is None:
        return True
    x0, y0 = p.to_window(*p.pos)
    cx, cy = w.to_window(*w.center)
    return x0 <= cx <= x0 + p.width and y0 + w.height / 2 <= cy <= y0 + p.height - w.height / 2


def _choose_ki(d, players=PLAYERS, modules=("players-edition", "special-cards")):
    setup = d.screen("setup")
    if setup.rules != names.rule_set("King and Intrigue"):
        d.tap(setup.rules, exact=True)  # the rules spinner opens
        yield 0.2
        d.tap("King and Intrigue", exact=True)
        yield 0.2
    setup.mode = "Full tracking"
    for colour, row in setup.rows.items():
        row.plays = colour in players
    yield 0.1
    for module in [w.module for w in setup.ids.modules.children]:
        toggle = next(w for w in setup.ids.modules.children if w.module == module)  # remade after each tap
        if toggle.chosen != (module in modules):
            yield from _into_view(d, toggle)
            d.tap_widget(toggle.ids.words)
            yield 0.1
    assert setup.choice.rules == "king-intrigue", setup.choice
    assert sorted(setup.choice.modules_for(len(players))) == sorted(modules), setup.choice


def _type_value(d, screen, cid: str, value: int):
    for digit in str(value):
        yield from _tap(d, f"value:{cid}:key:{digit}")
    yield from _tap(d, f"value:{cid}:set")


def enter_the_card_set(d, screen):
    """Every number of the box a 3-player game with both modules needs, by taps: one chip a fact,
    a module card's value typed (its digits, then Set)."""
    for i, n in enumerate(PLACES_3):
        yield from _tap(d, f"place:3:{i}:{n}")
    for value, court in COURT.items():
        yield from _tap(d, f"court:ki_{value}:{court}")
    yield from _tap(d, "effect:ki_30:decay")
    for value, index in SCORING.items():
        yield from _tap(d, f"scoring:ki_{value}:{index}")
    yield from _tap(d, "param:ki_140:foreign:2")
    d.facts["base_taps"] = len(d.taps) - d.facts["taps_before"]
    # module cards: the values printed on them (our box's), and a wrong one first
    yield from _type_value(d, screen, "pe_joker", MODULE_VALUES["pe_joker"])
    yield from _type_value(d, screen, "pe_alliance", MODULE_VALUES["pe_joker"])  # 1 again: the Joker's value
    d.facts["wrong_value"] = screen.message
    d.facts["alliance_after_wrong"] = screen.draft.row("pe_alliance").value
    yield from _look(d, "ki_cards_wrong_value")
    yield from _tap(d, "value:pe_alliance:clear")  # the digits stay after a refusal: cleared
    for row in [r for r in screen.draft.rows() if r.ask_value and r.value is None and not r.left_out]:
        yield from _type_value(d, screen, row.id, MODULE_VALUES[row.id])
        assert not screen.message, screen.message
    for cid, court in MODULE_COURT.items():
        yield from _tap(d, f"court:{cid}:{court}")
    for cid, (name, word) in WORD_PARAMS.items():
        yield from _tap(d, f"param:{cid}:{name}:{word}")
    yield from _tap(d, "param:pe_civil_war:place:2")


def cards_by_taps(d):
    """New game with King and Intrigue; Start refused, leading to Your cards; the box's numbers
    entered there by taps, exported, changed, imported back (a bad file refused); back on the
    new-game screen, which asks for nothing more. The game is started by the caller."""
    from companion.table_rules.storage import exports_folder

    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_ki(d)
    setup = d.screen("setup")
    yield from _into_view(d, setup.ids.rules_block)
    d.facts["notes_before"] = setup.rules_notes
    yield from _look(d, "ki_setup")
    d.tap("Start the game", exact=True)
    yield 0.3
    d.facts["start_refused"] = setup.message
    d.facts["screen_after_start"] = d.current
    screen = d.screen("ki_cards")
    yield from _look(d, "ki_cards_first")
    # the long table's sections, a tap each: Power cards' heading comes into view at once
    d.facts["sections"] = list(screen.section_headings)
    power_cards = screen.section_headings[said("Power cards")]  # keyed by its words, in any language
    assert not _on_screen(power_cards), "Power cards in view from the start"
    d.tap("Power cards", exact=True)
    yield 0.2
    assert _on_screen(power_cards), "the section button did not bring it into view"
    yield from _look(d, "ki_cards_section")
    screen.ids.list_scroll.scroll_y = 1
    yield 0.1
    d.facts["taps_before"] = taps_before = len(d.taps)
    yield from enter_the_card_set(d, screen)
    d.facts["card_taps"] = len(d.taps) - taps_before
    d.facts["hint_complete"] = screen.hint
    yield from _look(d, "ki_cards_complete")
    # export; change; import what was exported
    d.tap("Export to a file", exact=True)
    yield 0.2
    d.facts["export_notice"] = screen.notice
    exported = exports_folder() / "el-grande-cards-king-intrigue.json"
    at_export = json.loads(exported.read_text())
    yield from _tap(d, "court:ki_10:3")
    assert screen.draft.row("ki_10").court == 3
    d.tap("Import a file", exact=True)
    yield 0.3
    yield from _tap_key(d, f"file:{exported.name}")
    yield 0.2
    d.facts["import_notice"] = screen.notice
    d.facts["same_after_import"] = (
        screen.draft.row("ki_10").court == COURT[10]
        and screen.draft.file["power_cards"] == at_export["power_cards"]
        and screen.draft.file["placements"] == at_export["placements"]
    )
    bad = exports_folder() / "king-from-another-tablet.json"
    bad.write_text(json.dumps({"rules": "king-intrigue", "power_cards": [{"id": "ki_10", "court": 99}]}))
    d.tap("Import a file", exact=True)
    yield 0.3
    yield from _tap_key(d, f"file:{bad.name}")
    yield 0.2
    dialog = next(w for w in d.widgets() if w.__class__.__name__ == "ImportDialog")
    d.facts["bad_import"] = dialog.error.text
    d.tap("Cancel", exact=True)
    yield 0.2
    d.facts["unchanged_after_bad_import"] = screen.draft.row("ki_10").court == COURT[10]
    d.tap("Back", exact=True)
    yield 0.3
    d.facts["notes_after"] = setup.rules_notes


def undo_of_the_kept_cards_asks(d):
    """The power phase begins: Undo would take back the last player's 13 kept cards. It asks
    first, naming who must choose again (never which cards); "No, keep it" changes nothing."""
    table = d.model.table
    last = next(r["e"] for r in reversed(table.effective) if r["t"] == "event")
    assert last["type"] == "power_cards_chosen", last
    records, hand = len(table.records), table.private(last["player"])["power_cards_in_hand"]
    d.tap("Undo", exact=True)
    yield 0.3
    question = max((w.text for w in d.dialog().walk() if w.__class__.__name__ == "Label"), key=len)  # any language
    d.shot("ki_undo_kept_cards_asks")
    d.tap("No, keep it", exact=True)
    yield 0.3
    d.facts["undo_question"] = question
    d.facts["undo_kept"] = {
        "player": d.model.name(last["player"]),
        "cards": last["cards"],
        "unchanged": len(table.records) == records
        and d.ask().kind == "play_power_card"
        and table.private(last["player"])["power_cards_in_hand"] == hand,
    }


class KITablet(Tablet):
    """The 2023 scenario's tablet, with King and Intrigue's choices: the court taken whole most
    of the time (one tap), the 13 kept behind the private screen."""

    def choose(self, ask):
        o, pid = ask.options, (ask.players[0] if ask.players else None)
        state = self.table.state
        if (
            ask.kind == "replenish"
            and self.rng.random() < 0.85
            and state.provinces[state.players.index(pid)] >= o.get("max", 0)
        ):
            return {
                "type": "court_replenished",
                "player": pid,
                "from_provinces": o.get("max", 0),
                "from_regions": {},
            }, []
        if ask.kind == "turn_action" and not o.get("special") and not (o.get("place") or {}).get("max"):
            # nothing to place (an empty court) and no special action: the engine's one way on
            return _norm(random_event(self.rng, _as_the_tablet_orders(ask)).model_dump(mode="json")), []
        return super().choose(ask)

    def settle(self, ask):
        """As the 2023 tablet's; "Done: back to the table" after a scoring page is read, not entered."""
        pages = self.reached["scoring page"]
        yield from super().settle(ask)
        self.read_taps += self.reached["scoring page"] - pages

    def _choice_routes(self, ask, prompt, choice, wanted, after, depth) -> list:
        action, _, arg = (choice.action or "").partition(":")
        if action == "private" and wanted.get("type") == "power_cards_chosen" and not after:
            pick = self.builder.private_pick(ask, arg)
            values = _values(wanted, pick) if pick is not None else None
            if values is None or _norm(pick.event(values)) != wanted:
                return []
            if prompt.opens_private and arg == ask.players[0]:  # its sheet opened by itself
                return [[("private", pick, values)]]
            return [[("choice", choice.label), ("private", pick, values)]]
        return super()._choice_routes(ask, prompt, choice, wanted, after, depth)


def look_at_ki_screens(d):
    """Every King and Intrigue screen once at this shape, checked (48 dp targets, nothing cut or
    overlapping) and photographed: the new-game screen, Your cards (top and the modules' cards),
    and the table through its setup and first turns (the disc, the 13 kept behind the private
    screen, the Power cards, the court, a turn with who holds which Action card)."""
    from companion.table_rules.ki_cards import KICardsDraft
    from tests.companion.table.test_authority_king_intrigue import WITH_MODULES

    d.facts = {}
    KICardsDraft(WITH_MODULES).save()  # what the table entered from its box before
    yield 0.3
    d.tap("New game")
    yield 0.2
    yield from _choose_ki(d, players=("red", "yellow", "green", "blue"))
    setup = d.screen("setup")
    yield from _into_view(d, setup.ids.rules_block)
    yield from _look(d, "ki_shape_setup")
    yield from _into_view(d, d.button("Your cards", exact=True))
    d.tap("Your cards", exact=True)
    yield 0.4
    yield from _look(d, "ki_shape_cards")
    yield from _scroll_to(d, "court:pe_joker:0")
    yield from _look(d, "ki_shape_cards_modules")
    yield from _scroll_to(d, "module:sc_revolt:players-edition")  # a card whose module the text leaves open
    yield from _look(d, "ki_shape_cards_module_choice")
    d.tap("Back", exact=True)
    yield 0.3
    d.tap("Start the game", exact=True)
    yield from _wait_for(d, lambda: d.current == "table", PATIENCE)
    yield 0.3
    tablet = KITablet(d, seed=2)
    turns = 0
    while turns < 3:
        ask = tablet.table.asked()
        turns += ask.kind == "turn_action"
        yield from tablet.shot(f"ki_shape_{ask.kind}")
        yield from tablet.step()
    d.facts["problems"].update(tablet.problems)
    d.facts["screens"] += list(tablet.problems)
    # King and Intrigue's markers drawn on the map: the 2x markers, the Alliance, the relocated
    # Castillo, a reversed scoreboard (the public view as a game would have them)
    from layout_checks import map_marks

    m = d.screen("table").ids.map
    game = dict(m.public)
    game["markers"] = {
        "double_1": "galicia",
        "double_2": "valencia",
        "alliance_1": "aragon",
        "alliance_2": "cataluna",
        "castillo_at": "granada",
        "reversed_8-4-0": True,
        "bridge_1": "pais_vasco",
        "bridge_2": "castilla_la_vieja",
        "kings_guard": "castilla_la_nueva",
        "quarantine": "sevilla",
        "limit_1": "granada",
        "risk_of_collapse": "castillo",
    }
    game["mobile_scoreboards"] = {"8-4-0": "sevilla", "4-0-0": None}
    m.public = game
    yield 0.4
    d.facts["marker_tags"] = sorted((mark.area, mark.text) for mark in m._laid_out[1] if mark.kind == "marker")
    d.facts["reversed_mobile"] = [mark.text for mark in m._laid_out[1] if mark.kind == "mobile"]
    yield from _look(d, "ki_shape_markers")
    d.facts["problems"]["ki_shape_markers"] += map_marks(m)
