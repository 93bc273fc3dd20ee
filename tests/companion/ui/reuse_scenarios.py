"""What the table screen makes while a game is played (issue 11, speed at the table): the side
panel's choices and the action-cards sheet are made once and refilled, and the objects the app
made to start are out of the cycle collector's walks. Run by test_reuse.py."""

import gc

from scenarios import _reveal_cards, _start_tracked_three_player_game, _wait_for

from companion.prompts.builder import PromptBuilder


def _count_widgets_made():
    """Every widget made from now on, by class name (Widget.__init__ counted)."""
    from kivy.uix.widget import Widget

    made: list[str] = []
    make = Widget.__init__

    def counted(self, **kwargs):
        made.append(type(self).__name__ if "text" not in kwargs else f"{type(self).__name__} {kwargs['text']!r}")
        make(self, **kwargs)

    Widget.__init__ = counted
    return made


def _sheet(d):
    from companion.ui.dialogs.reveal_cards import RevealCards

    return next((w for w in d.widgets() if isinstance(w, RevealCards)), None)


def _bindings(widget) -> int:
    return sum(len(widget.get_property_observers(name)) for name in widget.properties())


def widgets_made_once(d):
    facts = d.facts = {}
    yield from _wait_for(d, lambda: gc.get_freeze_count() > 0)  # once the first frame is up
    facts["frozen_at_start"] = gc.get_freeze_count()
    # The action cards' buttons are made a few a frame before any game
    table = d.screen("table")
    builder = PromptBuilder({})
    deck = [(cid, builder.card_label(cid)) for cid, card in builder.board.cards.items() if card.stack]
    yield from _wait_for(d, lambda: table.reveal_sheet is not None and not table.reveal_sheet.unmade(deck))
    made = _count_widgets_made()
    yield from _start_tracked_three_player_game(d)
    yield from _wait_for(d, lambda: _sheet(d) is not None)
    first = _sheet(d)
    words = {label for _, label in deck}
    facts["card_buttons_made_in_game"] = [m for m in made if m.split(" ", 1)[-1].strip("'\"") in words]
    cards = {(stack, cid): b for stack, buttons in first.buttons.items() for cid, b in buttons.items()}
    yield from _reveal_cards(d, ("any 3 Caballeros", "King is Angry", "Score the Castillo", "relocate your Grande"))
    assert d.ask().kind == "play_power_card", d.model.message

    # The power phase: 13 cards and the face-up ones listed, for each player in turn
    mark = len(made)
    for value in ("13", "12", "11"):
        d.tap(value, exact=True)
        yield 0.1
    assert d.ask().kind == "replenish", (d.ask().kind, d.model.message)
    facts["made_by_power_cards"] = made[mark:]

    # Undone back to the reveal (it asks first): the sheet opens again, the same one, its cards
    # the same buttons
    for _ in range(3):
        d.tap("Undo", exact=True)
        yield 0.1
    d.tap("Undo", exact=True)
    yield 0.1
    mark = len(made)
    d.tap("Yes, undo", exact=True)
    yield from _wait_for(d, lambda: _sheet(d) is not None)
    yield 0.1
    facts["made_by_reopening_the_sheet"] = made[mark:]
    again = _sheet(d)
    facts["same_sheet"] = again is first
    # closed and opened again by its button: Kivy's ModalView binds twice more at each opening
    # (on the second, its centre's own bindings are made once); the sheet takes the last ones off
    bindings = _bindings(again)
    d.tap("Not now", exact=True)
    yield 0.1
    d.tap(next(c for c in d.model.prompt.choices if c.action == "reveal_cards").label, exact=True)
    yield from _wait_for(d, lambda: _sheet(d) is not None)
    facts["sheet_bindings"] = [bindings, _bindings(_sheet(d))]
    offered = d.model.builder.reveal_choices(d.ask())
    facts["cards_offered"] = {str(s): sorted(cid for cid, _ in cards_) for s, cards_ in offered.items()}
    facts["cards_shown"] = {str(s): sorted(buttons) for s, buttons in again.buttons.items()}
    facts["same_card_buttons"] = all(again.buttons[s][cid] is b for (s, cid), b in cards.items())
    facts["picked_after_reopening"] = {str(s): c for s, c in again.chosen.items()}
    facts["single_card_stacks"] = {str(s): c[0][0] for s, c in offered.items() if len(c) == 1}

    # A later round: a stack with a card fewer shows only what is left (no button kept from before)
    fewer = {s: list(c) for s, c in offered.items()}
    gone_stack = next(s for s, c in fewer.items() if len(c) > 1)
    gone, _ = fewer[gone_stack].pop(0)
    again.offer(d.model, fewer)
    yield 0.1
    column = again._columns[gone_stack]
    facts["gone_card_shown"] = gone in again.buttons[gone_stack] or cards[(gone_stack, gone)] in column.children
    again.offer(d.model, offered)
    yield 0.1
    facts["back_in_its_column"] = cards[(gone_stack, gone)] in again._columns[gone_stack].children
