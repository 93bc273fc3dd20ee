"""Learning a 2023 box as it turns up (companion/table_rules/card_learning.py, issue 21): the cards the rule
book names offered by name on each stack that could hold them, learned with the reveal as one
input and kept in Your cards; a card's missing numbers read off it when it is played; and the
figures of a first game from an empty data folder (bench/bench_taps_2023.py) against the goals."""

from __future__ import annotations

import pytest

from bench.bench_taps_2023 import LEARNING, figures_of, learning_games
from companion.input_errors import InputError
from companion.prompts.card_words import does
from companion.table.authority import Table
from companion.table.setup import TableSetup
from companion.table_rules.card_file import CardSetDraft
from companion.table_rules.card_learning import (
    candidates,
    card_facts,
    end_entries,
    learn_entry,
    new_card_entry,
    printed_numbers,
    unenterable,
)
from companion.table_rules.new_game import game_files
from companion.table_rules.rules_choice import RulesChoice
from engine import events as ev

PLAYERS = ["purple", "blue", "green", "orange"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))
    return tmp_path


def shipped_table(modules=("new-regency",), players=PLAYERS) -> Table:
    """A tracked 2023 game with the shipped data only: the rule book's cards, most stacks unknown."""
    files = game_files(RulesChoice("2023", tuple(modules)), len(players))
    setup = ev.GameSetup(
        players=list(players),
        names={p: p.title() for p in players},
        king="castilla",
        homes=dict(zip(players, ["galicia", "aragon", "sevilla", "valencia"])),
        start_player=players[0],
        rules="2023",
        modules=list(modules),
        variant="full",
        dummy="white" if len(players) == 2 else None,
        cards_file=files.cards_file,
    )
    return Table.new(TableSetup(game=setup, mode="tracking", tower={"kind": "simulated"}))


def test_the_rule_books_cards_are_offered_by_name_on_every_stack_that_could_hold_them():
    table = shipped_table()
    offered = table.reveal_candidates()
    names = {s: [c.name for c in cands] for s, cands in offered.items()}
    assert "Intrigue" in names[1] and "Veto" in names[4] and "Civil War" in names[5]  # a ♠ card, perhaps
    assert "Fiesta" not in names[3] and "Exile" not in names[1]  # their stacks are known
    assert names[1] == sorted(names[1])  # a short list, by name
    # What a card does, in a few words, instead of the book's explanation cut off
    stand_in = next(c for c in offered[2] if c.card == "stand_in")
    assert stand_in.label == "Stand-in: swap two pieces"
    assert table.asked().options["stacks"][3] == {"fiesta": 1} and table.stack_may_hold_more(3)  # not picked unasked
    # Four stacks (2 players): table stack 2 holds the printed 2s and 3s, so Outposts is offered as either
    two = shipped_table(modules=("four-stacks",), players=["purple", "blue"])
    assert {c.stack for c in candidates(two.state, 2) if c.card == "outposts"} == {2, 3}


def test_a_card_picked_by_name_is_learned_with_the_reveal_and_kept_for_the_next_game():
    table = shipped_table()
    offered = table.reveal_candidates()
    pick = {
        s: next(c for c in offered[s] if c.card == cid)
        for s, cid in ((1, "intrigue"), (2, "veto"), (3, "outposts"), (4, "coup"), (5, "civil_war"))
    }
    learned = [learn_entry(table.state, c) for c in pick.values()]
    assert learned[-1]["module"] == "new-regency"  # a base card found in the ♠ stack is a ♠ card
    wrong = ["intrigue", "veto", "outposts", "coup", "exile"]  # Exile is a ♠ card, but not Civil War: refused
    bad = [dict(e) for e in learned]
    bad[0]["stack"] = 9
    with pytest.raises(InputError, match=r"cards\[intrigue\]\.stack"):
        table.reveal_learning(wrong, bad)
    assert table.asked().kind == "reveal_action_cards" and table.board.cards["intrigue"].stack is None  # none of it
    assert not CardSetDraft.load().file["cards"]
    kept = table.reveal_learning([c.card for c in pick.values()], learned)
    assert kept == "" and table.asked().kind == "play_power_card"
    assert table.board.cards["veto"].stack == 2 and table.board.cards["veto"].copies is None
    assert table.board.cards["civil_war"].placement is None  # a ♠ card's Caballeros: printed on it, asked when played
    saved = {c["id"]: c for c in CardSetDraft.load().file["cards"]}
    assert saved["intrigue"]["stack"] == 1 and "copies" not in saved["intrigue"]
    # The next game knows them: nothing to name for those
    again = shipped_table()
    assert "intrigue" in again.asked().options["stacks"][1]
    assert "intrigue" not in {c.card for c in again.reveal_candidates()[1]}
    # Undo takes the reveal back, then the stacks learned (a name tapped wrongly)
    table.undo(confirm=True)
    assert table.asked().kind == "reveal_action_cards" and table.board.cards["intrigue"].stack == 1
    table.undo(confirm=True)
    assert table.board.cards["intrigue"].stack is None


def test_a_card_played_with_a_number_nobody_entered_asks_only_that_then_plays_on():
    table = shipped_table(modules=())
    offered = table.reveal_candidates()
    cards = {1: "civil_war", 2: "veto", 3: "outposts", 4: "coup"}
    table.reveal_learning(
        list(cards.values()),
        [learn_entry(table.state, next(c for c in offered[s] if c.card == cid)) for s, cid in cards.items()],
    )
    for p, value in zip(PLAYERS, (13, 1, 2, 3)):  # purple plays highest: takes its card first
        table.submit({"type": "power_card_played", "player": p, "card": value})
    assert table.asked().kind == "replenish"
    table.submit(
        {
            "type": "court_replenished",
            "player": "purple",
            "from_provinces": table.asked().options["max"],
            "from_regions": {},
        }
    )
    table.submit({"type": "action_card_chosen", "player": "purple", "stack": 1})
    prompt = table.prompt()
    read = [c for c in prompt.choices if (c.action or "").startswith("card_facts:")]
    assert [c.label for c in read] == ["Read Civil War's outcome off the card"]
    assert [f.key for f in card_facts(table.board, "civil_war")] == ["params.outcome"]
    with pytest.raises(InputError, match="outcome"):
        table.enter_card_facts("civil_war", {"params.outcome": "to_the_moon"})
    assert table.enter_card_facts("civil_war", {"params.outcome": "to_court"}) == ""
    assert not any((c.action or "").startswith("card_facts:") for c in table.prompt().choices)
    assert any(c.label == "Do the special action" for c in table.prompt().choices)  # the card works now
    saved = {c["id"]: c for c in CardSetDraft.load().file["cards"]}
    assert saved["civil_war"]["params"] == {"outcome": "to_court"} and saved["civil_war"]["stack"] == 1


def test_a_base_card_found_in_the_spade_stack_asks_its_caballeros_when_played():
    table = shipped_table()
    offered = table.reveal_candidates()
    cards = {1: "intrigue", 2: "veto", 3: "outposts", 4: "coup", 5: "militia"}
    table.reveal_learning(
        list(cards.values()),
        [learn_entry(table.state, next(c for c in offered[s] if c.card == cid)) for s, cid in cards.items()],
    )
    for p, value in zip(PLAYERS, (13, 1, 2, 3)):
        table.submit({"type": "power_card_played", "player": p, "card": value})
    table.submit(
        {
            "type": "court_replenished",
            "player": "purple",
            "from_provinces": table.asked().options["max"],
            "from_regions": {},
        }
    )
    table.submit({"type": "action_card_chosen", "player": "purple", "stack": 5})
    prompt = table.prompt()
    assert prompt.choices[0].label == "Read Militia's number of Caballeros off the card" and prompt.limit == 0
    assert "read the card's number of Caballeros off it" in prompt.hint  # never a silent 5 from its stack
    table.enter_card_facts("militia", {"placement": 2})
    assert table.prompt().limit == 2 and table.board.cards["militia"].module == "new-regency"


def test_a_card_not_in_the_list_is_entered_with_its_optional_number_as_printed():
    """A Decay turned up that prints "2 each": its number is on the compact entry's row, beside
    what the card does when it prints none (Decay of Authority: "send all of the Caballeros from
    their courts back"); the short text says it takes from the courts, as the effect does."""
    table = shipped_table(modules=())
    (count,) = printed_numbers("decay")
    assert count.key == "count" and count.options[0] is None and count.label(None) == "all of them"
    assert (
        count.options[1:] == tuple(range(1, 12)) and count.words == "Caballeros each other player sends from the court"
    )
    assert [n.options[0] for n in printed_numbers("disc_send_back")] == [None]  # its "2 each" too
    assert printed_numbers("place_extra")[0].options[0] == 1  # a required one: no "none"
    entry, taps = new_card_entry(table.board, "Decay", "decay", 3, {"count": 2})
    assert taps == 1 and entry["params"] == {"count": 2}
    assert entry["text"] == "Each other player sends 2 Caballeros from their court to the provinces"
    whole, none_tapped = new_card_entry(table.board, "Decay", "decay", 3, {})
    assert none_tapped == 0 and whole["text"] == "The others send all the Caballeros in their courts to the provinces"
    assert "region" not in does("decay", {"count": 1}) and "1 Caballero from" in does("decay", {"count": 1})
    assert unenterable("decay", {"count": 2}) == [] and unenterable("decay", {"count": 12}) == ["count 12"]
    # Kept as entered: the effect takes 2 from each other court (engine/effects/decay.py), not all
    table.complete_card_set([entry])
    card = table.board.cards[entry["id"]]
    assert (card.params["count"], card.stack, card.copies) == (2, 3, None)


def test_the_cards_left_are_named_only_once_a_2023_game_is_over():
    table = shipped_table()
    assert table.stacks_left() == [] and table.facts_left() == {}
    with pytest.raises(InputError, match="not over"):
        table.name_cards_left({1: ["intrigue"]})
    assert not CardSetDraft.load().file["cards"]


def test_a_first_game_from_an_empty_data_folder_meets_the_goals(data_dir, monkeypatch):
    """One seed of bench_taps_2023's figures (three in the bench): a card the book names costs
    <= 4 taps the first time it turns up, one it does not <= 10; every step stays within today's
    budgets without its entry taps; once the first game is over the cards left in the stacks are
    named (and the numbers of cards nobody played read), every stack's copies are counted from
    what was seen, and the second game asks nothing."""
    named_at_the_end = []
    keep = Table.name_cards_left
    monkeypatch.setattr(
        Table,
        "name_cards_left",
        lambda self, named, facts=None: (named_at_the_end.append((self.state, named)), keep(self, named, facts))[1],
    )
    first, second = learning_games(seed=0, data_dir=data_dir)
    f = figures_of([(first, second)])
    assert f["named_card"] and max(f["named_card"]) <= 4, f
    assert f["new_card"] and max(f["new_card"]) <= 10, f
    assert f["card_facts"] and f["board_facts"], f  # Civil War's outcome, Stand-in's swap ...; France's borders
    assert max(f["reveal"]) <= 6 and max(f["turn_3_placed"]) <= 6, f
    assert max(f["general_scoring"]) <= 4 + 2 * LEARNING[0], f
    assert f["first_total"][0] > 0 and f["second_total"] == [0], f
    assert not [s for s in second if s.learned or s.entry], "the second game asked for a card"
    # Game over: one card left in each of the five stacks (9 rounds of 10 cards), named once
    end = first[-1]
    assert end.kind == "name_cards_left" and f["end_naming"] == [end.entry] and end.entry <= 2 + 5 * 2 + 5, end
    assert len([k for k, _, _ in end.learned if k != "facts"]) == 5, end.learned
    # Every stack was seen whole: Your cards hold each card's copies as the box has them
    from engine.board.load import load_cards
    from engine.playout import standin_files

    box = load_cards("2023", standin_files("2023", 4)[1]).cards.values()
    kept = {c.name: c for c in CardSetDraft.load().cards.cards.values()}
    in_the_stacks = [c for c in box if c.module == "new-regency" or (c.module is None and c.stack in (1, 2, 3, 4))]
    assert len(in_the_stacks) == 27, len(in_the_stacks)
    for card in in_the_stacks:
        mine = kept[card.name]
        assert (mine.stack, mine.copies, mine.module) == (card.stack, card.copies, card.module), (card, mine)
    # A stack left unnamed, or named with more cards than it holds, keeps its cards' copies unknown
    ((state, named),) = named_at_the_end
    copies = lambda entries: {e["id"] for e in entries if "copies" in e}
    whole = copies(end_entries(state, named))
    stack_3 = {c.id for c in state.board.cards.values() if c.stack == 3 and c.module is None}
    assert stack_3 & whole
    assert not copies(end_entries(state, {s: p for s, p in named.items() if s != 3})) & stack_3
    assert not copies(end_entries(state, {**named, 3: named[3] * 2})) & stack_3
    assert copies(end_entries(state, {**named, 3: named[3] * 2})) == whole - stack_3
