"""After a reveal the table is told, plainly, who moves what from where to where."""

from companion.table.outcomes import OutcomeWords
from engine import events as ev
from tests.engine.helpers import new_game, put, turn_with

NAMES = {"red": "Ana", "blue": "Ben", "green": "Cleo"}


def test_eviction_tells_each_player_where_their_caballeros_go():
    g = new_game()
    put(g, "blue", "valencia", 2)
    put(g, "green", "valencia", 3)
    pid = turn_with(g, "eviction")
    g.apply(ev.SpecialActionStarted(player=pid))
    g.apply(ev.RegionChosen(player=pid, region="valencia"))
    g.apply(ev.SecretDiscSet(player="blue", region="granada"))
    g.apply(ev.SecretDiscSet(player="green", region="castilla_la_nueva"))
    g.apply(ev.SecretDiscsRevealed())
    words = OutcomeWords(NAMES).instructions(g.state.outcomes[-1].to_dict())
    assert words.title == "Round 1: Eviction, played by Red"
    assert words.discs == "Discs: Ben - Granada, Cleo - Castilla la Nueva"
    assert words.lines == [
        "Ben: move 2 Caballeros from Valencia to Granada.",
        "Cleo: take 3 Caballeros from Valencia into their court.",
    ]


def test_decay_and_the_castillo_in_words():
    words = OutcomeWords(NAMES)
    assert (
        words.move({"player": "red", "count": 1, "source": "court", "target": "provinces"})
        == "Ana: put 1 Caballero from their court back in the provinces."
    )
    assert (
        words.move({"player": "blue", "count": 4, "source": "castillo", "target": "aragon"})
        == "Ben: move 4 Caballeros from the Castillo to Aragón."
    )
    assert words.instructions({"round": 3, "title": "X", "discs": {}, "moves": []}).lines == ["Nothing to move."]


def test_the_spy_on_the_espionage_card_in_words():
    """King and Intrigue's Espionage: a Caballero moved onto the card and from it to a region is
    said with the card's name (it crashed the tablet's outcome dialog before: not a board area)."""
    words = OutcomeWords(NAMES)
    pid = next(iter(NAMES))
    assert (
        words.move({"player": pid, "count": 1, "source": "court", "target": "espionage"})
        == f"{NAMES[pid]}: move 1 Caballero from their court to the Espionage card."
    )
    assert words.move({"player": pid, "count": 1, "source": "espionage", "target": "aragon"}).endswith(
        "from the Espionage card to Aragón."
    )
