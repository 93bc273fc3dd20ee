"""Issue 21: the Veto first, everywhere. The Castillo scoring card (classic Score the Castillo,
2023 Revelation, King and Intrigue's Castillo scoring Power card) is announced, every Veto holder
decides, and only then is the Castillo lifted and counted: when the veto question is asked no
count and no result of it is in any view (tablet prompt, public view, phones); a Veto leaves it
shut and unscored; let pass, it opens and is scored by the table's count.

Real tables (companion.table.authority.Table) reached by seeded random play (engine.playout), the
veto planted at the start of the game with a table correction where the rule system lets the
table enter it; the phones' views as the phone server builds them."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from companion.phones.ordering import SeatOrder
from companion.phones.questions.memory import GameMemory
from companion.phones.questions.snapshot import read_table
from companion.phones.views import phone_view, status_view
from companion.table.authority import Table
from companion.table.setup import TableSetup
from engine import events as ev
from engine.playout import random_event
from engine.primitives import CASTILLO_SCORING_EFFECTS
from engine.scoring import score_area
from engine.views import castillo_tallies
from tests.companion.phones.game2023 import setup_2023
from tests.companion.table.test_authority_king_intrigue import ki_setup

CASTILLO_FIGURE = re.compile(r'castillo\\?"\s*:\s*(-?\d+)')


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ELGRANDE_DATA_DIR", str(tmp_path))


def classic_setup(revision: int = ev.RULES_REVISION) -> ev.GameSetup:
    players = ["red", "yellow", "green", "blue"]
    return ev.GameSetup(
        players=players,
        names={p: p.title() for p in players},
        king="castilla_la_nueva",
        homes=dict(zip(players, ["galicia", "aragon", "sevilla", "valencia"])),
        start_player="red",
        variant="full",
        revision=revision,
    )


def setup_2023_two_vetoes() -> ev.GameSetup:
    setup = setup_2023(4, ())
    cards = dict(setup.cards_file)
    cards["cards"] = [
        dict(c, copies={"veto": 2, "withdrawal": 1}.get(c["id"], c.get("copies"))) for c in cards["cards"]
    ]  # stack 2 keeps its size
    return setup.model_copy(update={"cards_file": cards})


# rule system -> (its setup, who holds a Veto from round 1 by a table correction, or None)
SYSTEMS = {
    "classic": (classic_setup, ["yellow", "green"]),
    "2023": (setup_2023_two_vetoes, ["blue", "green"]),
    "king-intrigue": (lambda: ki_setup(4), None),  # the Veto is Power card 40, played in the game
}
SAVED_AT_REVISION_2 = {"classic revision 2": (lambda: classic_setup(revision=2), ["yellow", "green"])}


def castillo_card(table: Table) -> bool:
    turn = table.state.turn
    return turn is not None and turn.card is not None and turn.card.effect in CASTILLO_SCORING_EFFECTS


def announce_the_castillo_card(table: Table, ask) -> bool:
    """At the Castillo card's turn, while someone else holds a Veto: its special action is done
    as the tablet's "Do the special action" does it (a Castillo opened by it is counted as the
    scoring screen does)."""
    special = ask.options.get("special") if ask.kind == "turn_action" else None
    holders = {q for q, _ in table.state.vetoes} - {table.state.turn.player} if special else set()
    if not (castillo_card(table) and holders and not special.get("refused") and not special.get("options")):
        return False
    do = next(c for c in table.prompt().choices if c.label == "Do the special action")
    if do.event is None:  # a step of the tablet's own: the Castillo opened and counted first
        table.open_castillo()
        table.submit(ev.CastilloCounted(counts=castillo_tallies(table.state)))
        do.event = {"type": "special_action_started", "player": ask.players[0]}
    table.submit(do.event)
    return True


def at_the_castillo_veto(system: str) -> Table:
    """The first seeded game of `system` whose Castillo scoring card is announced against a Veto
    (with something in the Castillo), stopped at the veto question."""
    make_setup, holders = {**SYSTEMS, **SAVED_AT_REVISION_2}[system]
    for seed in range(300):
        rng = random.Random(seed)
        table = Table(TableSetup(game=make_setup(), mode="tracking", tower={"kind": "none"}))
        if holders:
            table.submit(ev.TableCorrected(vetoes=holders, round=1))
        while (ask := table.asked()).kind != "game_over":
            if holders and not table.state.vetoes:
                break  # the planted Vetoes are used or over
            if ask.kind == "veto" and castillo_card(table):
                if any(castillo_tallies(table.state).values()):
                    return table
                break
            if ask.kind == "veto":
                table.submit(ev.VetoWaived(player=ask.players[0]))  # other actions: let pass
            elif not announce_the_castillo_card(table, ask):
                table.submit(random_event(rng, dataclasses.replace(ask, vetoes=())))  # no Veto used
    raise AssertionError(f"no seeded {system} game announced the Castillo card against a Veto")


def public_texts(table: Table) -> dict[str, str]:
    """Everything public now: the tablet's prompt and view, each phone's view and the spectators'."""
    prompt = table.prompt()
    snap = read_table(table, tuple(table.players), GameMemory(), SeatOrder())  # as the phone server reads it
    seats = {pid: {"joined": True, "connected": True} for pid in table.players}
    texts = {
        "prompt": json.dumps([prompt.title, prompt.hint, prompt.notes, [(c.label, c.action) for c in prompt.choices]]),
        "public": table.public().model_dump_json(),
        "status": status_view(snap, seats).model_dump_json(),
    }
    for pid in table.players:
        texts[f"phone {pid}"] = phone_view(table.board, snap, pid).model_dump_json()
    return texts


def check_nothing_of_it_is_shown(table: Table, scorings: int) -> None:
    own = castillo_tallies(table.state)
    for where, text in public_texts(table).items():
        figures = [int(f) for f in CASTILLO_FIGURE.findall(text)]
        mine = [own[where.split()[1]]] if where.startswith("phone ") else []
        assert figures in ([], mine), (where, figures)  # a phone: its own count only, as ever
        assert "Open the Castillo" not in text and "count_castillo" not in text, where
    assert not table.castillo_opened and not any(r["t"] == "opened" for r in table.effective)
    assert len(table.state.scoring_log) == scorings


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_castillo_stays_closed_and_unscored_when_vetoed(system):
    table = at_the_castillo_veto(system)
    scorings, scores = len(table.state.scoring_log), list(table.state.scores)
    inside = castillo_tallies(table.state)
    check_nothing_of_it_is_shown(table, scorings)
    holder = table.asked().players[0]
    prompt = table.prompt()
    assert [c.label for c in prompt.choices if c.event == {"type": "veto_used", "player": holder}]
    table.submit(ev.VetoUsed(player=holder))
    assert table.asked().kind != "lift_castillo" and table.state.special is None
    assert len(table.state.scoring_log) == scorings and table.state.scores == scores
    assert castillo_tallies(table.state) == inside and not table.castillo_opened


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_let_pass_the_castillo_is_lifted_counted_and_scored(system):
    table = at_the_castillo_veto(system)
    scorings = len(table.state.scoring_log)
    while table.asked().kind == "veto":
        table.submit(ev.VetoWaived(player=table.asked().players[0]))
    ask = table.asked()
    assert ask.kind == "lift_castillo" and ask.vetoes == ()
    assert [c.action for c in table.prompt().choices] == ["open_castillo"]
    expected = score_area(table.state.clone(), table.board.castillo)
    table.open_castillo()  # everyone sees the counts now (no tower: the turns entered say them)
    table.submit(ev.CastilloCounted(counts=castillo_tallies(table.state)))
    record = table.state.scoring_log[scorings]
    assert [(ln.player, ln.points) for ln in record.lines] == [(ln.player, ln.points) for ln in expected]
    assert {ln.area for ln in record.lines} == {"castillo"} and table.state.special is None


def test_a_game_saved_before_revision_3_goes_on_in_its_own_order():
    """Saved games replay and go on as they were played: the Castillo counted on the card's turn,
    then announced; let pass, scored at once."""
    table = at_the_castillo_veto("classic revision 2")
    assert table.castillo_opened and table.setup.game.revision == 2
    scorings = len(table.state.scoring_log)
    table.submit(ev.VetoWaived(player=table.asked().players[0]))
    while table.asked().kind == "veto":
        table.submit(ev.VetoWaived(player=table.asked().players[0]))
    assert table.asked().kind != "lift_castillo" and len(table.state.scoring_log) == scorings + 1


def at_rest(table: Table) -> dict:
    """The public game but what is asked now: the board, courts, scores, scorings, outcomes ..."""
    return {k: v for k, v in table.public().game.items() if k not in ("asked", "stage")}


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_no_special_action_shows_or_does_anything_before_its_veto_window(system):
    """Every special action announced against a Veto, in seeded games: when the holders are asked,
    nothing of it is done yet (no scoring, no outcome, no Caballero, King or Grande moved, no disc
    asked, the Castillo not opened), whatever the card."""
    make_setup, holders = SYSTEMS[system]
    windows = set()
    for seed in range(6):
        rng = random.Random(seed)
        table = Table(TableSetup(game=make_setup(), mode="tracking", tower={"kind": "none"}))
        if holders:
            table.submit(ev.TableCorrected(vetoes=holders, round=1))
        before = None
        rounds = 4 if holders else 99  # the planted Vetoes last two rounds; Power card 40 comes any time
        while (ask := table.asked()).kind != "game_over" and table.state.round_index < rounds:
            if ask.kind == "veto":
                assert at_rest(table) == before[0] and not table.castillo_opened, table.state.special.effect
                assert not any(r["t"] == "opened" for r in table.effective[before[1] :])
                windows.add(table.state.special.effect)
            event = random_event(rng, dataclasses.replace(ask, vetoes=()))
            if isinstance(event, ev.SpecialActionStarted):
                before = (at_rest(table), len(table.effective))
            table.submit(event)
    assert len(windows) >= 3, windows  # several kinds of special action met a Veto
