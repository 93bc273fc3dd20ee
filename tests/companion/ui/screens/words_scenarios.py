"""The screens in the table's language, visited without a tap on their words (a tap by English
text would find nothing in German): each screen opened the way its own buttons open it, shown,
pictured and checked as the screen catalogue checks it (layout_checks.check_screen: no cut words,
no overlap, targets of at least 48 dp), and every word shown kept for the words audit
(test_screens_in_languages.py). Run by app_driver.py as "screens.words_scenarios:visit"."""

from __future__ import annotations

from types import SimpleNamespace

from layout_checks import check_screen, shown_widgets


def _words() -> list[str]:
    """Every text shown on the window now (labels, buttons, the hints of empty fields)."""
    out = []
    for w, *_rects in shown_widgets():
        for attr in ("text", "hint_text"):
            words = getattr(w, attr, "")
            if isinstance(words, str) and words.strip() and not (attr == "hint_text" and getattr(w, "text", "")):
                out.append(words)
    return out


def _look(d, name: str, settle: int = 4):
    from kivy.base import EventLoop

    for _ in range(settle):
        EventLoop.idle()
    yield 0.1
    problems = check_screen()
    for _ in range(4):
        if not problems:
            break
        EventLoop.idle()
        problems = check_screen()
    d.facts["problems"][name] = problems
    d.facts["words"][name] = _words()
    d.facts["screens"].append(name)
    d.shot(name)


def visit(d):
    """Each language of ELGRANDE_WORDS_VISIT ("de,es": one launch, several languages, as a table
    would switch in Settings: the app makes its screens again), every screen in each."""
    import os

    from companion.words import language

    codes = os.environ.get("ELGRANDE_WORDS_VISIT", language()).split(",")
    d.facts = {"visits": {}}
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for code in codes:
        for sheet in [w for w in Window.children if isinstance(w, ModalView)]:
            sheet.dismiss(animation=False)  # the last visit's table asked something: not this one's
        if d.model.table is not None:
            d.model._close_game()
        d.app.root.current = "home"
        d.app.speak(code)
        yield 0.3
        d.facts["visits"][code] = facts = {"language": language(), "problems": {}, "words": {}, "screens": []}
        yield from _visit_in(
            SimpleNamespace(
                facts=facts,
                shot=lambda name, c=code: d.shot(f"{c}/{name}"),
                **{k: getattr(d, k) for k in ("app", "model", "screen")},
            )
        )
        facts["message"] = d.screen("setup").message


def _visit_in(d):
    from companion.ui.screens.screen_words import MODES_SHOWN, RULES_SHOWN, shown_one
    from companion.words import _

    manager = d.app.root
    yield from _look(d, "home")
    # the new game: each rule set, and the 2023 edition with two players (the dummy)
    manager.current = "setup"
    setup = d.screen("setup")
    yield from _look(d, "setup_classic")
    setup.rules = shown_one(RULES_SHOWN, "2023")
    yield from _look(d, "setup_2023")
    for colour in list(setup.rows)[2:]:
        setup.rows[colour].plays = False
    yield from _look(d, "setup_2023_two_players")
    setup.rules = shown_one(RULES_SHOWN, "king-intrigue")
    yield from _look(d, "setup_king_intrigue")
    # Your board, Your cards (2023), Your cards (King and Intrigue)
    board = d.screen("board")
    board.open_side("4-5", back_to="home")
    yield from _look(d, "board_scoreboards")
    board.choose(next(iter(board.draft.board.region_ids)))
    yield from _look(d, "board_scoreboard_chosen")
    board.show_section("borders")
    yield from _look(d, "board_borders")
    board.show_section("tiles")
    yield from _look(d, "board_tiles")
    cards = d.screen("cards")
    cards.open_cards(back_to="home")
    yield from _look(d, "cards")
    cards.choose(cards.draft.rows()[0].id)
    yield from _look(d, "cards_detail")
    cards.toggle_add()
    cards.choose_effect(next(iter(cards.effects)))
    yield from _look(d, "cards_add")
    cards.open_modifiers()
    yield from _look(d, "cards_modifiers")
    d.screen("ki_cards").open_cards(back_to="home", players=4)
    yield from _look(d, "ki_cards")
    # the records (the data folder holds finished games when the launch put some there), the demo
    manager.current = "stats"
    yield from _look(d, "records")
    records = d.screen("stats")
    if records._tables and records._tables[0].rows:
        records.open_row(records._tables[0].rows[0].name)
        yield from _look(d, "records_detail")
        home = d.screen("home")
        manager.current = "home"
        yield 0.2
        home._replay(next(path for path, record in home._records.items() if record.finished))
        yield from _look(d, "replay_end")
    d.screen("home").try_demo()
    yield from _look(d, "demo")
    d.screen("replay").step_by(5)
    yield from _look(d, "demo_step")
    # a game at the table (scoring only), its standings; then one tracked from the board in front
    manager.current = "setup"
    setup.rules = shown_one(RULES_SHOWN, "classic")
    for i, row in enumerate(setup.rows.values()):
        row.plays = i < 4
        row.name = row.ids.name.text = ("Bartholomew-Maximilian", "Ana", "Bo", "Cai", "Dee")[i] if i < 4 else ""
    yield 0.2
    setup.start_game()
    yield 0.5
    yield from _look(d, "table")
    scoring = d.screen("scoring")
    red, yellow = list(d.model.table.players)[:2]
    scoring.show_scoring(
        SimpleNamespace(
            title="General scoring",
            lines=[
                SimpleNamespace(area="galicia", player=red, points=5, reason="first place"),
                SimpleNamespace(area="galicia", player=yellow, points=2, reason="second place"),
            ],
            transfers=[
                {"player": red, "count": 2, "to_court": True},
                {"player": yellow, "count": 1, "to_court": False, "region": "galicia"},
            ],
        )
    )
    manager.current = "scoring"
    yield from _look(d, "scoring")
    scoring._turn(+1)
    yield from _look(d, "scoring_region")
    manager.current = "end"
    yield from _look(d, "end")
    d.model._close_game()
    manager.current = "setup"
    setup.mode = _(MODES_SHOWN["tracking"])
    setup.from_position = True
    yield 0.2
    setup.start_game()
    yield 0.5
    position = d.screen("position")
    for section in ("board", "court", "castillo", "start"):
        position.show_section(section)
        yield from _look(d, f"position_{section}")
    position._leave()
    yield 0.3
    yield from _look(d, "table_tracking")
